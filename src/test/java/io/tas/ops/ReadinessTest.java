package io.tas.ops;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.Metrics;
import io.tas.support.MutableClock;
import io.tas.support.PrivateRedis;
import io.tas.support.TcpRelay;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D127: readiness is answered from background probes. A flood of readiness calls costs the database and Redis
 * nothing beyond the probes; Redis down leaves the node ready (degraded); the database unreachable makes it unready
 * within a bound, without a readiness call ever waiting on the database.
 */
class ReadinessTest {
    private static final String HEALTHY = "{\"status\":\"UP\",\"checks\":{\"database\":\"UP\",\"redis\":\"UP\",\"draining\":false}}";
    private static final String REDIS_DOWN =
            "{\"status\":\"UP\",\"checks\":{\"database\":\"UP\",\"redis\":\"DOWN\",\"draining\":false},\"degraded\":[\"redis\"]}";
    /** A readiness call that takes longer than this is a readiness call waiting on a dependency. */
    private static final Duration CALL_BOUND = Duration.ofSeconds(5);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static HttpResponse<String> ready(TestServer server) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/health/ready")).timeout(CALL_BOUND).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Connections the request pool handed out (each database read or transaction takes one). */
    private static double requestPoolBorrows(TestServer server) {
        String text = ApiClient.raw(server.adminUrl() + "/metrics", "GET", "").raw();
        for (String line : text.split("\n")) {
            if (line.startsWith("hikaricp_connections_acquire_seconds_count{") && line.contains("pool=\"tas-db\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no hikaricp_connections_acquire_seconds_count of pool tas-db at /metrics");
    }

    @Test
    void aFloodOfReadinessCallsCostsTheDatabaseAndRedisNothingBeyondTheProbes() throws Exception {
        try (PrivateRedis redis = PrivateRedis.start();
             TestServer server = TestServer.start(Databases.Kind.POSTGRES, new MutableClock(System.currentTimeMillis()),
                     c -> c.withRedisUrl(redis.url()).withRedisKeyPrefix("tas:test:" + UUID.randomUUID() + ":"))) {
            assertThat(ready(server).body()).isEqualTo(HEALTHY);
            double probes = Metrics.sum(server, "tas_ready_probes_total");
            double borrows = requestPoolBorrows(server);
            long commands = redis.commandsRun();

            int calls = 300;
            for (int i = 0; i < calls; i++) {
                HttpResponse<String> r = ready(server);
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo(HEALTHY);
            }

            double probesRun = Metrics.sum(server, "tas_ready_probes_total") - probes;
            double databaseWork = requestPoolBorrows(server) - borrows;
            long redisWork = redis.commandsRun() - commands;
            System.out.printf("%d readiness calls: %.0f probes, %.0f database borrows, %d Redis commands%n", calls, probesRun, databaseWork, redisWork);
            // Each probe is one query or one PING, whether the flood is 300 calls or none (2 more: a probe of each kind
            // counted before the first reading may do its work after it).
            assertThat(databaseWork + redisWork).as("database borrows and Redis commands during %d readiness calls", calls)
                    .isLessThanOrEqualTo(probesRun + 2);
        }
    }

    @Test
    void withRedisUnreachableTheNodeStaysReadyAndSaysRedisIsDegraded() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (TestServer server = TestServer.start(Databases.Kind.H2, new MutableClock(System.currentTimeMillis()),
                c -> c.withRedisUrl("redis://127.0.0.1:" + closedPort).withRedisKeyPrefix("tas:test:" + UUID.randomUUID() + ":"))) {
            HttpResponse<String> r = ready(server);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(REDIS_DOWN);
        }
    }

    /**
     * The database behind a relay that stops forwarding (a partition: nobody is told, every query hangs): readiness
     * turns 503 within the probe period plus its timeout (3 s by default), and no readiness call waits on the
     * database meanwhile; once the database is reachable again the node is ready again. Before D127 the call itself ran
     * the query and hung.
     */
    @Test
    void withTheDatabaseUnreachableTheNodeIsUnreadyWithinABoundAndNoCallWaits() throws Exception {
        AtomicReference<TcpRelay> relayed = new AtomicReference<>();
        TestServer server = TestServer.start(Databases.Kind.POSTGRES, new MutableClock(System.currentTimeMillis()), c -> {
            relayed.set(relay(c.dbUrl()));
            return c.withDb(relayed.get().jdbcUrl(c.dbUrl()), c.dbUser(), c.dbPassword());
        });
        TcpRelay relay = relayed.get();
        try {
            assertThat(ready(server).statusCode()).isEqualTo(200);

            relay.partition();
            long cut = System.nanoTime();
            HttpResponse<String> r;
            do {
                r = ready(server); // an HttpTimeoutException here is a readiness call waiting on the database
                assertThat(System.nanoTime() - cut).as("unready within 30 s of the partition").isLessThan(Duration.ofSeconds(30).toNanos());
                Thread.sleep(100);
            } while (r.statusCode() == 200);
            System.out.printf("unready %d ms after the partition%n", (System.nanoTime() - cut) / 1_000_000);
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.body()).isEqualTo("{\"status\":\"DOWN\",\"checks\":{\"database\":\"DOWN\",\"draining\":false}}");

            // Reachable again: ready again, without a restart (a probe stuck on a dead connection gives up at its timeout).
            relay.heal();
            long healed = System.nanoTime();
            while ((r = ready(server)).statusCode() != 200) {
                assertThat(System.nanoTime() - healed).as("ready within 30 s of the database coming back").isLessThan(Duration.ofSeconds(30).toNanos());
                Thread.sleep(100);
            }
            assertThat(r.body()).isEqualTo("{\"status\":\"UP\",\"checks\":{\"database\":\"UP\",\"draining\":false}}");
        } catch (HttpTimeoutException e) {
            throw new AssertionError("a readiness call waited " + CALL_BOUND + " on the unreachable database", e);
        } finally {
            relay.heal(); // so that the node stops as usual, whatever failed
            server.close();
            relay.close();
        }
    }

    private static TcpRelay relay(String jdbcUrl) {
        try {
            return TcpRelay.toJdbc(jdbcUrl);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
