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
import io.tas.support.Metrics;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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

    /** A new account's client on each of two nodes, once the second knows its key. */
    private static List<ApiClient> onBothNodes(TestServer a, TestServer b, String name) {
        Credentials user = account(new Admin(a), name);
        ApiClient viaB = b.client(user);
        awaitKnown(viaB);
        return List.of(a.client(user), viaB);
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

    /**
     * Issue 24 item 6: 30 signed reads of a 20/s row at once, 15 through each node, three bursts a window apart after
     * a warm-up, the whole repeated three times. The clock stands still inside a burst, so each burst is inside one
     * window and exactly 20 must pass, each decided by Redis. Before, with the service clock running, such bursts let
     * 23, 30 and 24 through: the compare-and-swap retries of the burst spent Bucket4j's 200 ms budget (read on the
     * service clock) before the command was sent, and a healthy Redis counted as down (SharedLimitsTest shows that).
     */
    @Test
    void aBurstOnTwoNodesGetsExactlyTheQuotaEveryTime() throws Exception {
        String prefix = uniquePrefix();
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer a = TestServer.start(Databases.Kind.POSTGRES, clock, c -> c.withRedisUrl(REDIS).withRedisKeyPrefix(prefix));
             TestServer b = TestServer.secondNode(a);
             ExecutorService pool = Executors.newFixedThreadPool(30)) {
            List<ApiClient> via = onBothNodes(a, b, "burst-1");
            ApiClient viaA = via.get(0);
            ApiClient viaB = via.get(1);
            for (int round = 0; round < 3; round++) {
                clock.advance(Duration.ofMillis(1001));
                assertThat(acceptedAlternately(4, viaA, viaB, c -> c.get("/api/v3/account/settings"))).as("warm-up").isEqualTo(4);
                for (int burst = 0; burst < 3; burst++) {
                    clock.advance(Duration.ofMillis(1001));
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<Reply>> sent = new ArrayList<>();
                    for (int i = 0; i < 30; i++) {
                        ApiClient node = i % 2 == 0 ? viaA : viaB;
                        sent.add(pool.submit(() -> {
                            go.await();
                            return node.get("/api/v3/account/settings");
                        }));
                    }
                    go.countDown();
                    int ok = 0;
                    for (Future<Reply> f : sent) {
                        Reply r = f.get();
                        if (r.status() == 429) {
                            assertThat(r.code()).isEqualTo("429");
                            assertThat(r.msg()).isEqualTo("Too Many Requests");
                        } else {
                            assertThat(r.code()).as(r.raw()).isEqualTo("00000");
                            ok++;
                        }
                    }
                    assertThat(ok).as("round %d burst %d", round, burst).isEqualTo(20);
                }
            }
            assertThat(Metrics.sum(a, "tas_rate_limit_redis_failures_total") + Metrics.sum(b, "tas_rate_limit_redis_failures_total"))
                    .as("requests decided without Redis").isZero();
        } finally {
            deletePrefix(prefix);
        }
    }

    /**
     * Redis on a closed port, two nodes (TAS_RATE_LIMIT_NODES 2, the default): each node limits alone to its half of
     * each quota (D124), so the two together grant each quota once, and never a 5xx. Before, reads were not limited at
     * all (25 of 25 passed on one node) and every write got 429 (D85).
     */
    @Test
    void withRedisUnreachableEachNodeLimitsToItsShareNeverA5xx() throws IOException, InterruptedException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer a = TestServer.start(Databases.Kind.POSTGRES, clock,
                c -> c.withRedisUrl("redis://127.0.0.1:" + closedPort).withRedisKeyPrefix(uniquePrefix()));
             TestServer b = TestServer.secondNode(a)) {
            List<ApiClient> via = onBothNodes(a, b, "unreachable-1");
            ApiClient viaA = via.get(0);
            ApiClient viaB = via.get(1);
            for (int window = 0; window < 2; window++) {
                clock.advance(Duration.ofMillis(1001));
                // 20/s reads and 10/s writes: 10 and 5 on each node, whatever the caller sends to each.
                assertThat(acceptedAlternately(25, viaA, viaA, c -> c.get("/api/v3/account/settings"))).as("reads on a").isEqualTo(10);
                assertThat(acceptedAlternately(25, viaB, viaB, c -> c.get("/api/v3/account/settings"))).as("reads on b").isEqualTo(10);
                assertThat(acceptedAlternately(16, viaA, viaB, c -> c.post("/api/v3/account/set-leverage", SET_LEVERAGE))).as("writes").isEqualTo(10);
            }
            assertThat(metric(a, "tas_rate_limit_redis_failures_total", "policy=\"allowed\"")).isEqualTo(2 * (10 + 5));
            assertThat(metric(a, "tas_rate_limit_redis_failures_total", "policy=\"rejected\"")).isEqualTo(2 * (15 + 3));
            assertThat(metric(a, "tas_rate_limit_rejections_total", "reason=\"redis_unavailable\"")).isEqualTo(2 * (15 + 3));
            assertThat(metric(a, "tas_rate_limit_rejections_total", "reason=\"quota\"")).isZero();
            assertThat(io.tas.support.Metrics.value(a, "tas_rate_limit_redis_up")).isEqualTo(0);
            // D127: readiness names Redis when the buckets live there, as degraded: the node serves without it.
            awaitReadiness(a, "\"redis\":\"DOWN\"");
            Reply ready = ApiClient.raw(a.baseUrl() + "/health/ready", "GET", "");
            assertThat(ready.status()).isEqualTo(200);
            assertThat(ready.raw()).isEqualTo("{\"status\":\"UP\",\"checks\":{\"database\":\"UP\",\"redis\":\"DOWN\",\"draining\":false},\"degraded\":[\"redis\"]}");
        }
    }

    /**
     * Redis stopped mid-run and started again (a private redis-server on a free port, not the shared one): while it is
     * down the node grants its share (D124) with no 5xx, and once it is back the limits hold again without a restart.
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
            clock.advance(Duration.ofMillis(1001));
            // The node's share of two (TAS_RATE_LIMIT_NODES): half of 20/s reads, half of 10/s writes.
            assertThat(acceptedAlternately(25, client, client, c -> c.get("/api/v3/account/settings"))).as("reads, the node's share").isEqualTo(10);
            assertThat(acceptedAlternately(8, client, client, c -> c.post("/api/v3/account/set-leverage", SET_LEVERAGE))).as("writes, the node's share").isEqualTo(5);
            assertThat(io.tas.support.Metrics.value(server, "tas_rate_limit_redis_up")).isEqualTo(0);

            own = startRedis(port); // empty: every bucket starts full again
            // ... and finds it back with no request in between (a node out of the balancer gets none).
            awaitReadiness(server, "\"redis\":\"UP\"");
            // A PING answering does not yet mean a bucket's first command does on a busy box (its script's first run can
            // exceed the 200 ms timeout): another account's request is retried until Redis decides one, so the next
            // assertions are about the limits, not about how cold the new Redis is.
            awaitDecidedByRedis(server, server.client(account(admin, "recovery-warm")));
            // The same window: Redis, empty again, grants the whole quota, and nothing is decided without it.
            double alone = Metrics.sum(server, "tas_rate_limit_redis_failures_total");
            assertThat(acceptedAlternately(30, client, client, c -> c.get("/api/v3/account/settings"))).as("limited again").isEqualTo(20);
            assertThat(acceptedAlternately(12, probe, probe, c -> c.post("/api/v3/account/set-leverage", SET_LEVERAGE))).as("writes").isEqualTo(10);
            assertThat(Metrics.sum(server, "tas_rate_limit_redis_failures_total")).isEqualTo(alone);
            assertThat(io.tas.support.Metrics.value(server, "tas_rate_limit_redis_up")).isEqualTo(1);
        } finally {
            stop(own);
        }
    }

    /** Sends warm's request until one is decided by Redis (the failures counter does not move), for at most 10 s. */
    private static void awaitDecidedByRedis(TestServer server, ApiClient warm) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            double before = Metrics.sum(server, "tas_rate_limit_redis_failures_total");
            warm.get("/api/v3/account/settings");
            if (Metrics.sum(server, "tas_rate_limit_redis_failures_total") == before) return;
            if (System.nanoTime() > deadline) throw new AssertionError("Redis decided no request within 10 s of answering PING");
            Thread.sleep(50);
        }
    }

    /**
     * A Redis that takes longer than TAS_REDIS_TIMEOUT_MS (200 ms) to answer (DEBUG SLEEP on a private redis-server)
     * costs a request about the timeout, not the stall, and the node's share answers (D124).
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
            assertThat(write.code()).as(write.raw()).isEqualTo("00000");
            assertThat(Metrics.sum(server, "tas_rate_limit_redis_failures_total")).as("both decided by the share").isEqualTo(2);
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
