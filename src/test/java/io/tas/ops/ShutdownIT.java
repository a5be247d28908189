package io.tas.ops;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static io.tas.support.ServerProcess.adminGet;
import static io.tas.support.ServerProcess.adminPost;
import static io.tas.support.ServerProcess.freePort;
import static io.tas.support.ServerProcess.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11 item 3: SIGTERM under write load. Eight clients deposit and convert while the built service gets SIGTERM;
 * it exits within a bound, no request is answered with a 5xx while it drains, its node lease is gone, and after a
 * restart every deposit and conversion whose success a client saw is there, with the ledger conserved.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class ShutdownIT {
    private static final int CLIENTS = 8;
    private static final long EXIT_BOUND_MS = 25_000; // TAS_SHUTDOWN_GRACE_MS 10 s + the group-commit drain, with room

    @Parameter Databases.Kind kind;

    @Test
    void acknowledgedWritesSurviveSigterm(@TempDir Path dir) throws Exception {
        Databases.TestDb db = kind == Databases.Kind.POSTGRES ? Databases.create(kind) : null;
        String url = db != null ? db.url() : "jdbc:h2:file:" + dir.resolve("shutdown").toAbsolutePath();
        int port = freePort(), adminPort = freePort();
        try {
            Process server = start(url, port, adminPort, dir.resolve("run1.log").toFile());
            String base = "http://127.0.0.1:" + port, admin = "http://127.0.0.1:" + adminPort;
            assertThat(ApiClient.raw(base + "/health/live", "GET", "").status()).isEqualTo(200);
            Reply ready = ApiClient.raw(base + "/health/ready", "GET", "");
            assertThat(ready.status()).isEqualTo(200);
            assertThat(ready.raw()).isEqualTo("{\"status\":\"UP\",\"checks\":{\"database\":\"UP\",\"draining\":false}}");

            Queue<String> depositRefs = new ConcurrentLinkedQueue<>();
            Queue<String> orderIds = new ConcurrentLinkedQueue<>();
            Queue<String> serverErrors = new ConcurrentLinkedQueue<>();
            Queue<Throwable> clientFailures = new ConcurrentLinkedQueue<>();
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < CLIENTS; t++) {
                int id = t;
                clients.add(Thread.ofPlatform().uncaughtExceptionHandler((thread, e) -> clientFailures.add(e)).start(() -> {
                    ApiClient client = new ApiClient(base, Credentials.SUB, Clock.systemUTC());
                    for (int i = 0; i < 5_000; i++) { // bounded; the SIGTERM ends it long before
                        try {
                            String ref = "sigterm-" + id + "-" + i;
                            Reply dep = adminPost(admin, "/admin/v1/ledger/deposit",
                                    "{\"uid\":1000000002,\"account\":\"unified\",\"coin\":\"DOGE\",\"amount\":\"1\",\"ref\":\"" + ref + "\"}");
                            if (dep.status() >= 500) serverErrors.add("deposit " + dep.status() + " " + dep.raw());
                            if (dep.code().equals("00000")) depositRefs.add(ref);
                            Reply trade = client.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"DOGE\"]}");
                            if (trade.status() >= 500) serverErrors.add("trade " + trade.status() + " " + trade.raw());
                            if (trade.code().equals("00000")) orderIds.add(trade.data().get("orderId").asText());
                        } catch (UncheckedIOException stopped) {
                            return; // the listener is closed: no answer, so nothing was acknowledged
                        }
                    }
                }));
            }
            Thread.sleep(3_000);
            long t0 = System.nanoTime();
            server.destroy(); // SIGTERM: the shutdown hook drains
            boolean exited = server.waitFor(EXIT_BOUND_MS, TimeUnit.MILLISECONDS);
            long exitMs = (System.nanoTime() - t0) / 1_000_000;
            for (Thread c : clients) c.join(30_000);
            assertThat(exited).as("exited within " + EXIT_BOUND_MS + " ms of SIGTERM").isTrue();
            assertThat(server.exitValue()).as("exit status after SIGTERM (128 + 15)").isEqualTo(143);
            assertThat(serverErrors).as("5xx answers while draining").isEmpty();
            assertThat(clientFailures).as("client threads that failed otherwise than on a closed connection").isEmpty();
            assertThat(depositRefs).as("deposits acknowledged before SIGTERM").isNotEmpty();
            assertThat(orderIds).as("conversions acknowledged before SIGTERM").isNotEmpty();
            assertThat(leases(url, db)).as("node leases left behind (released on shutdown)").isZero();

            Process again = start(url, port, adminPort, dir.resolve("run2.log").toFile());
            try {
                ApiClient client = new ApiClient(base, Credentials.SUB, Clock.systemUTC());
                for (String orderId : orderIds) {
                    assertThat(client.get("/api/v3/convert/small-assets-history?orderId=" + orderId).data().get("list"))
                            .as("order " + orderId + " was acknowledged").hasSize(1);
                }
                for (String ref : depositRefs) {
                    Reply repeat = adminPost(admin, "/admin/v1/ledger/deposit",
                            "{\"uid\":1000000002,\"account\":\"unified\",\"coin\":\"DOGE\",\"amount\":\"1\",\"ref\":\"" + ref + "\"}");
                    assertThat(repeat.data().get("repeated").asBoolean()).as("deposit " + ref + " was acknowledged").isTrue();
                }
                Reply check = adminGet(admin, "/admin/v1/ledger/check");
                assertThat(check.data().get("ok").asBoolean()).as(check.raw()).isTrue();
                System.out.println("ShutdownIT[" + kind + "] SIGTERM under load: exited in " + exitMs + " ms; acknowledged "
                        + depositRefs.size() + " deposits, " + orderIds.size() + " conversions; all present after restart; 0 5xx");
            } finally {
                again.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } finally {
            if (db != null) db.close();
        }
    }

    private static int leases(String url, Databases.TestDb db) throws Exception {
        try (Connection c = DriverManager.getConnection(url, db != null ? db.user() : "sa", "");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select count(*) from node_lease")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
