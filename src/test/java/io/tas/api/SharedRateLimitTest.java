package io.tas.api;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * §8 limits shared across nodes through Redis (TAS_REDIS_URL, D85). Redis runs on 127.0.0.1:6379 (.ci/run starts it);
 * other users share it, so every test writes under a key prefix of its own and deletes only that prefix (never FLUSHALL).
 * The nodes share one MutableClock that stands still, so a whole test is inside one window and every count is exact.
 */
class SharedRateLimitTest {
    static final String REDIS = System.getProperty("tas.test.redis", "redis://127.0.0.1:6379");
    static RedisClient redisClient;
    static StatefulRedisConnection<String, String> redis;

    @BeforeAll
    static void connect() {
        redisClient = RedisClient.create(REDIS);
        redis = redisClient.connect();
    }

    @AfterAll
    static void disconnect() {
        redis.close();
        redisClient.shutdown();
    }

    private static String uniquePrefix() { return "tas:test:" + UUID.randomUUID() + ":"; }

    private static List<String> keys(String prefix) {
        RedisCommands<String, String> r = redis.sync();
        List<String> out = new ArrayList<>();
        ScanArgs match = ScanArgs.Builder.matches(prefix + "*").limit(1000);
        KeyScanCursor<String> cursor = r.scan(match);
        while (true) {
            out.addAll(cursor.getKeys());
            if (cursor.isFinished()) return out;
            cursor = r.scan(ScanCursor.of(cursor.getCursor()), match);
        }
    }

    private static void deletePrefix(String prefix) {
        List<String> k = keys(prefix);
        if (!k.isEmpty()) redis.sync().del(k.toArray(String[]::new));
    }

    /** A new account with a read-and-write key (uta_mgt): its buckets start full. */
    private static Credentials account(Admin admin, String name) {
        long uid = admin.createAccount("{\"username\":\"" + name + "\"}");
        String key = admin.createKey(uid, "Shared1", "read-and-write", "[\"uta_mgt\"]");
        return new Credentials(key, admin.lastSecret, "Shared1");
    }

    private static final String SET_LEVERAGE = "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"5\"}";

    private static int acceptedAlternately(int attempts, ApiClient a, ApiClient b, java.util.function.Function<ApiClient, Reply> call) {
        int ok = 0;
        for (int i = 0; i < attempts; i++) {
            Reply r = call.apply(i % 2 == 0 ? a : b);
            assertThat(r.status()).as(r.raw()).isLessThan(500);
            if (r.status() == 429) {
                assertThat(r.code()).isEqualTo("429");
                assertThat(r.msg()).isEqualTo("Too Many Requests");
            } else {
                ok++;
            }
        }
        return ok;
    }

    /** A key made on one node works on the other once the NOTIFY arrives: wait on a row the test does not count. */
    private static void awaitKnown(ApiClient client) {
        long until = System.nanoTime() + 5_000_000_000L;
        while (!client.get("/api/v3/account/info").code().equals("00000")) {
            if (System.nanoTime() > until) throw new AssertionError("key not known on the second node");
            try { Thread.sleep(20); } catch (InterruptedException e) { throw new AssertionError(e); }
        }
    }

    /** The sum of the samples of name whose labels include label (e.g. reason="quota": every row and scope) at the admin /metrics. */
    static double metric(TestServer server, String name, String label) {
        String text = ApiClient.raw(server.adminUrl() + "/metrics", "GET", "").raw();
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{") && line.contains(label)) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                found = true;
            }
        }
        if (!found) throw new AssertionError("no metric " + name + " with " + label + " at /metrics");
        return sum;
    }

    @Test
    void twoNodesOnOnePostgresAndOneRedisGrantEachQuotaOnce() {
        String prefix = uniquePrefix();
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer a = TestServer.start(Databases.Kind.POSTGRES, clock, c -> c.withRedisUrl(REDIS).withRedisKeyPrefix(prefix));
             TestServer b = TestServer.secondNode(a)) {
            Admin admin = new Admin(a);
            Credentials user = account(admin, "shared-1");
            ApiClient viaA = a.client(user);
            ApiClient viaB = b.client(user);
            awaitKnown(viaB);
            Reply ready = ApiClient.raw(a.baseUrl() + "/health/ready", "GET", "");
            assertThat(ready.raw()).as("readiness with Redis up (D84)")
                    .isEqualTo("{\"status\":\"UP\",\"checks\":{\"database\":\"UP\",\"redis\":\"UP\",\"draining\":false}}");

            // A read row (20/s) and a write row (10/s), each sent alternately to both nodes at twice its quota.
            assertThat(acceptedAlternately(40, viaA, viaB, c -> c.get("/api/v3/account/settings"))).isEqualTo(20);
            assertThat(acceptedAlternately(20, viaA, viaB, c -> c.post("/api/v3/account/set-leverage", SET_LEVERAGE))).isEqualTo(10);
            // Another UID is not throttled, on either node.
            Credentials other = account(admin, "shared-2");
            awaitKnown(b.client(other));
            assertThat(acceptedAlternately(40, a.client(other), b.client(other), c -> c.get("/api/v3/account/settings"))).isEqualTo(20);
            // The next window refills, for both nodes alike.
            clock.advance(java.time.Duration.ofMillis(1001));
            assertThat(viaB.get("/api/v3/account/settings").code()).isEqualTo("00000");

            // The buckets are in Redis under this deployment's prefix, and expire there.
            List<String> stored = keys(prefix);
            assertThat(stored).isNotEmpty().allSatisfy(k -> assertThat(redis.sync().pttl(k)).as(k).isPositive());
            // Each node counted the refusals it gave: 20 + 10 + 20 in all.
            double refused = metric(a, "tas_rate_limit_rejections_total", "reason=\"quota\"") + metric(b, "tas_rate_limit_rejections_total", "reason=\"quota\"");
            assertThat(refused).isEqualTo(50);
            assertThat(io.tas.support.Metrics.value(a, "tas_rate_limit_redis_up")).isEqualTo(1);
        } finally {
            deletePrefix(prefix);
        }
    }

    @Test
    void withRedisUnreachableReadsAreAllowedAndWritesGet429NeverA5xx() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(Databases.Kind.H2, clock,
                c -> c.withRedisUrl("redis://127.0.0.1:" + closedPort).withRedisKeyPrefix(uniquePrefix()))) {
            Admin admin = new Admin(server);
            ApiClient client = server.client(account(admin, "unreachable-1"));
            long started = System.nanoTime();
            // Reads fail open: past the 20/s quota, all allowed, with no remaining-count header to give.
            for (int i = 0; i < 25; i++) {
                Reply r = client.get("/api/v3/account/settings");
                assertThat(r.code()).as(r.raw()).isEqualTo("00000");
            }
            // Writes fail closed: the platform's rate-limit answer, which clients retry.
            for (int i = 0; i < 3; i++) {
                Reply r = client.post("/api/v3/account/set-leverage", SET_LEVERAGE);
                assertThat(r.status()).as(r.raw()).isEqualTo(429);
                assertThat(r.code()).isEqualTo("429");
                assertThat(r.msg()).isEqualTo("Too Many Requests");
            }
            // A dead Redis stalls no request: 28 requests in well under the 200 ms timeout each would cost.
            assertThat(java.time.Duration.ofNanos(System.nanoTime() - started)).isLessThan(java.time.Duration.ofSeconds(5));
            assertThat(metric(server, "tas_rate_limit_redis_failures_total", "policy=\"allowed\"")).isEqualTo(25);
            assertThat(metric(server, "tas_rate_limit_redis_failures_total", "policy=\"rejected\"")).isEqualTo(3);
            assertThat(metric(server, "tas_rate_limit_rejections_total", "reason=\"redis_unavailable\"")).isEqualTo(3);
            assertThat(io.tas.support.Metrics.value(server, "tas_rate_limit_redis_up")).isEqualTo(0);
            // D127: readiness names Redis when the buckets live there, as degraded: the node serves without it.
            Reply ready = ApiClient.raw(server.baseUrl() + "/health/ready", "GET", "");
            assertThat(ready.status()).isEqualTo(200);
            assertThat(ready.raw()).isEqualTo("{\"status\":\"UP\",\"checks\":{\"database\":\"UP\",\"redis\":\"DOWN\",\"draining\":false},\"degraded\":[\"redis\"]}");
        }
    }

    /**
     * Redis stopped mid-run and started again (a private redis-server on a free port, not the shared one): while it is
     * down the D85 policy holds with no 5xx, and once it is back the limits hold again without a restart of the node.
     */
    @Test
    void redisStoppedMidRunThenBackLimitsComeBack() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Process own = startRedis(port);
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(Databases.Kind.H2, clock,
                c -> c.withRedisUrl("redis://127.0.0.1:" + port).withRedisKeyPrefix(uniquePrefix()))) {
            Admin admin = new Admin(server);
            ApiClient client = server.client(account(admin, "recovery-1"));
            ApiClient probe = server.client(account(admin, "recovery-probe"));
            assertThat(acceptedAlternately(30, client, client, c -> c.get("/api/v3/account/settings"))).isEqualTo(20);

            stop(own);
            // D84, D127: readiness's probe asks Redis itself, so it sees the outage with no request; the node stays ready ...
            awaitReadiness(server, "\"redis\":\"DOWN\"");
            assertThat(acceptedAlternately(25, client, client, c -> c.get("/api/v3/account/settings"))).as("reads fail open").isEqualTo(25);
            assertThat(acceptedAlternately(3, client, client, c -> c.post("/api/v3/account/set-leverage", SET_LEVERAGE))).as("writes fail closed").isZero();
            assertThat(io.tas.support.Metrics.value(server, "tas_rate_limit_redis_up")).isEqualTo(0);

            own = startRedis(port); // empty: every bucket starts full again
            // ... and finds it back with no request in between.
            awaitReadiness(server, "\"redis\":\"UP\"");
            long until = System.nanoTime() + 15_000_000_000L;
            while (probe.post("/api/v3/account/set-leverage", SET_LEVERAGE).status() == 429) {
                if (System.nanoTime() > until) throw new AssertionError("limits did not come back within 15 s of Redis");
                Thread.sleep(100);
            }
            assertThat(acceptedAlternately(30, client, client, c -> c.get("/api/v3/account/settings"))).as("limited again").isEqualTo(20);
            assertThat(io.tas.support.Metrics.value(server, "tas_rate_limit_redis_up")).isEqualTo(1);
        } finally {
            stop(own);
        }
    }

    /**
     * A Redis that takes longer than TAS_REDIS_TIMEOUT_MS (200 ms) to answer (DEBUG SLEEP on a private redis-server)
     * costs a request about the timeout, not the stall, and the D85 policy answers.
     */
    @Test
    void aSlowRedisCostsARequestTheTimeoutNotTheStall() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Process own = startRedis(port, "--enable-debug-command", "yes");
        Process sleeper = null;
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(Databases.Kind.H2, clock,
                c -> c.withRedisUrl("redis://127.0.0.1:" + port).withRedisKeyPrefix(uniquePrefix()))) {
            Admin admin = new Admin(server);
            ApiClient client = server.client(account(admin, "slow-1"));
            assertThat(client.get("/api/v3/account/settings").code()).isEqualTo("00000");

            sleeper = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port), "DEBUG", "SLEEP", "4")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            Thread.sleep(300); // the server is asleep now
            long t0 = System.nanoTime();
            Reply read = client.get("/api/v3/account/settings");
            long readMillis = (System.nanoTime() - t0) / 1_000_000;
            t0 = System.nanoTime();
            Reply write = client.post("/api/v3/account/set-leverage", SET_LEVERAGE);
            long writeMillis = (System.nanoTime() - t0) / 1_000_000;
            assertThat(read.code()).as(read.raw()).isEqualTo("00000");
            assertThat(write.status()).as(write.raw()).isEqualTo(429);
            assertThat(write.code()).isEqualTo("429");
            assertThat(readMillis).as("read took %d ms", readMillis).isLessThan(1500);
            assertThat(writeMillis).as("write took %d ms", writeMillis).isLessThan(1500);
        } finally {
            if (sleeper != null) stop(sleeper);
            stop(own);
        }
    }

    /** Waits until readiness (200 throughout: Redis is not needed to serve, D127) says what; 15 s at most. */
    private static void awaitReadiness(TestServer server, String what) throws InterruptedException {
        long until = System.nanoTime() + 15_000_000_000L;
        while (true) {
            Reply r = ApiClient.raw(server.baseUrl() + "/health/ready", "GET", "");
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            if (r.raw().contains(what)) return;
            if (System.nanoTime() > until) throw new AssertionError("readiness did not say " + what + " within 15 s: " + r.raw());
            Thread.sleep(100);
        }
    }

    private static Process startRedis(int port, String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(port), "--save", "",
                "--appendonly", "no", "--dir", System.getProperty("java.io.tmpdir")));
        command.addAll(List.of(extra));
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long until = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                return p;
            } catch (IOException e) {
                if (System.nanoTime() > until || !p.isAlive()) throw new AssertionError("redis-server did not start on " + port, e);
                Thread.sleep(50);
            }
        }
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy(); // this test's own redis-server, by its process handle
        if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
    }
}
