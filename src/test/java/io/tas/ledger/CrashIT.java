package io.tas.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.tas.support.ServerProcess.adminPost;
import static io.tas.support.ServerProcess.freePort;
import static io.tas.support.ServerProcess.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The built service (target/tas.jar) is killed with SIGKILL in the middle of a stream of deposits and
 * conversions. After a restart every deposit and conversion whose success the client saw is there, and
 * the ledger is conserved. Runs after `package` (failsafe), on an H2 file and on PostgreSQL.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class CrashIT {
    @Parameter Databases.Kind kind;

    @Test
    void acknowledgedConversionsSurviveSigkill(@TempDir Path dir) throws Exception {
        Databases.TestDb db = kind == Databases.Kind.POSTGRES ? Databases.create(kind) : null;
        String url = db != null ? db.url() : "jdbc:h2:file:" + dir.resolve("crash").toAbsolutePath();
        int port = freePort(), adminPort = freePort();
        try {
            Process server = start(url, port, adminPort, dir.resolve("run1.log").toFile());
            String base = "http://127.0.0.1:" + port, admin = "http://127.0.0.1:" + adminPort;
            ApiClient client = new ApiClient(base, Credentials.SUB, Clock.systemUTC());

            List<String> depositRefs = new ArrayList<>();
            List<String> orderIds = new ArrayList<>();
            Thread killer = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(2500);
                } catch (InterruptedException ignored) {
                }
                server.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
            });
            for (int i = 0; i < 2000; i++) {
                try {
                    Reply dep = adminPost(admin, "/admin/v1/ledger/deposit", "{\"uid\":1000000002,\"account\":\"unified\",\"coin\":\"DOGE\",\"amount\":\"1\",\"ref\":\"crash-" + i + "\"}");
                    if (dep.code().equals("00000")) depositRefs.add("crash-" + i);
                    Reply trade = client.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"DOGE\"]}");
                    if (trade.code().equals("00000")) orderIds.add(trade.data().get("orderId").asText());
                } catch (UncheckedIOException killed) {
                    break;
                }
            }
            killer.join();
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(orderIds).as("conversions acknowledged before the kill").isNotEmpty();

            Process again = start(url, port, adminPort, dir.resolve("run2.log").toFile());
            try {
                for (String orderId : orderIds) {
                    JsonNode list = client.get("/api/v3/convert/small-assets-history?orderId=" + orderId).data().get("list");
                    assertThat(list).as("order " + orderId + " was acknowledged").hasSize(1);
                }
                for (String ref : depositRefs) {
                    Reply repeat = adminPost(admin, "/admin/v1/ledger/deposit", "{\"uid\":1000000002,\"account\":\"unified\",\"coin\":\"DOGE\",\"amount\":\"1\",\"ref\":\"" + ref + "\"}");
                    assertThat(repeat.data().get("repeated").asBoolean()).as("deposit " + ref + " was acknowledged").isTrue();
                }
                Reply check = ApiClient.raw(admin + "/admin/v1/ledger/check", "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
                assertThat(check.data().get("ok").asBoolean()).as(check.raw()).isTrue();
                System.out.println("CrashIT[" + kind + "] acknowledged before SIGKILL: " + depositRefs.size() + " deposits, " + orderIds.size() + " conversions; all present after restart");
            } finally {
                again.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } finally {
            if (db != null) db.close();
        }
    }
}
