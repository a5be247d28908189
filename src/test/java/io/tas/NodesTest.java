package io.tas;

import io.tas.admin.SeedFile;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.config.Config;
import io.tas.store.IdGenerator;
import io.tas.support.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Several App nodes on one PostgreSQL: each mints IDs under its own leased node id, released when it stops. */
class NodesTest {
    static Databases.TestDb pg;

    @BeforeAll
    static void createDatabase() { pg = Databases.create(Databases.Kind.POSTGRES); }

    @AfterAll
    static void dropDatabase() { pg.close(); }

    private static Config node(Map<String, String> env) {
        return Config.fromEnv(env).withPort(0).withAdminPort(0).withDb(pg.url(), pg.user(), "").withSandbox(true);
    }

    private static long deposit(App app, String ref) {
        return Long.parseLong(app.admin().money().deposit(new LedgerOp(1000000001L, "unified", "USDT", BigDecimal.ONE, ref)).txId());
    }

    @Test
    void nodesMintUnderDistinctLeasedIdsAndAStoppedNodesIdIsReused() throws Exception {
        SeedFile demo = SeedFile.load("demo");
        try (App a = App.start(node(Map.of()), Clock.systemUTC(), s -> { if (s.provisioning().isEmpty()) s.seeds().apply(demo); });
             App b = App.start(node(Map.of()), Clock.systemUTC())) {
            assertThat(a.nodeId()).isNotEqualTo(b.nodeId());
            assertThat(IdGenerator.nodeOf(deposit(a, "node-a"))).isEqualTo(a.nodeId());
            assertThat(IdGenerator.nodeOf(deposit(b, "node-b"))).isEqualTo(b.nodeId());
            int freed = a.nodeId();
            a.close();
            try (App c = App.start(node(Map.of()), Clock.systemUTC())) {
                assertThat(c.nodeId()).isEqualTo(freed);
            }
        }
    }

    /** Two running nodes mint concurrently (their generators and their ledgers' writes): no ID is minted twice. */
    @Test
    void twoRunningNodesNeverMintTheSameId() throws Exception {
        SeedFile demo = SeedFile.load("demo");
        try (App a = App.start(node(Map.of()), Clock.systemUTC(), s -> { if (s.provisioning().isEmpty()) s.seeds().apply(demo); });
             App b = App.start(node(Map.of()), Clock.systemUTC())) {
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
            try {
                var idsA = pool.submit(() -> mint(a, 100_000));
                var idsB = pool.submit(() -> mint(b, 100_000));
                var depositsA = pool.submit(() -> { for (int i = 0; i < 300; i++) deposit(a, "mint-a-" + i); return null; });
                var depositsB = pool.submit(() -> { for (int i = 0; i < 300; i++) deposit(b, "mint-b-" + i); return null; });
                depositsA.get(120, java.util.concurrent.TimeUnit.SECONDS);
                depositsB.get(120, java.util.concurrent.TimeUnit.SECONDS);
                java.util.Set<Long> all = new java.util.HashSet<>(idsA.get(120, java.util.concurrent.TimeUnit.SECONDS));
                int fromA = all.size();
                all.addAll(idsB.get(120, java.util.concurrent.TimeUnit.SECONDS));
                assertThat(fromA).isEqualTo(100_000);
                assertThat(all).as("200k IDs of two nodes, all distinct").hasSize(200_000);
            } finally {
                pool.shutdownNow();
            }
            // And what the two ledgers wrote: every transaction id once, and every journal row under a transaction (the
            // journal is keyed by transaction, D216: a repeated transaction id would merge two nodes' rows).
            var dsl = a.database().autoCommit();
            var counts = dsl.fetchOne("select count(*), count(distinct id) from ledger_tx");
            assertThat(counts.get(1, Long.class)).as("ledger_tx").isEqualTo(counts.get(0, Long.class));
            assertThat(dsl.fetchOne("select count(*) from journal j where not exists (select 1 from ledger_tx t where t.id = j.tx_id)")
                    .get(0, Long.class)).as("journal rows without their transaction").isZero();
            // D224: one row per movement, each naming its counter account; no counter rows.
            assertThat(dsl.fetchOne("select count(*) from journal where counter is null or uid is null").get(0, Long.class))
                    .as("journal rows without a counter").isZero();
            assertThat(dsl.fetchOne("select count(*) from journal j join ledger_tx t on t.id = j.tx_id where t.ref like 'mint-%'")
                    .get(0, Long.class)).as("one row per deposit").isEqualTo(600L);
            assertThat(dsl.fetchOne("select count(distinct ref) from ledger_tx where ref like 'mint-%'").get(0, Long.class)).isEqualTo(600L);
        }
    }

    private static java.util.List<Long> mint(App app, int n) {
        java.util.List<Long> out = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(app.services().ids().next());
        return out;
    }

    /** Issue 11 item 2: a sandbox clock advanced on one node moves the other node's clock too (change feed "clock:"). */
    @Test
    void aSandboxClockAdvancedOnOneNodeMovesTheOthers() throws Exception {
        try (App a = App.start(node(Map.of()), new io.tas.admin.SandboxClock());
             App b = App.start(node(Map.of()), new io.tas.admin.SandboxClock())) {
            String token = "Bearer " + Config.DEMO_ADMIN_TOKEN;
            var advanced = io.tas.support.ApiClient.raw("http://127.0.0.1:" + a.adminPort() + "/admin/v1/sandbox/clock/advance", "POST",
                    "{\"ms\":3600000}", "Authorization", token, "Content-Type", "application/json");
            assertThat(advanced.code()).as(advanced.raw()).isEqualTo("00000");
            long nowOnA = advanced.data().get("now").asLong();
            long start = System.nanoTime();
            while (io.tas.support.ApiClient.raw("http://127.0.0.1:" + b.adminPort() + "/admin/v1/sandbox/clock", "GET", "",
                    "Authorization", token).data().get("now").asLong() < nowOnA) {
                assertThat(System.nanoTime() - start).as("node B's clock still behind after 10 s").isLessThan(10_000_000_000L);
                Thread.sleep(5);
            }
        }
    }

    /**
     * Issue 28 item 4 (D189): a snapshot restored through one node is what every node serves at once: node B's cached
     * settings and its sandbox clock follow the restore on node A (change feed EVERYTHING and "clock").
     */
    @Test
    void aSnapshotRestoredOnOneNodeIsWhatEveryNodeServes() throws Exception {
        SeedFile demo = SeedFile.load("demo");
        Map<String, String> noLimits = Map.of("TAS_RATE_LIMITS", "off"); // deduct-info is 1/s per UID; B is polled below
        try (App a = App.start(node(noLimits), new io.tas.admin.SandboxClock(), s -> { if (s.provisioning().isEmpty()) s.seeds().apply(demo); });
             App b = App.start(node(noLimits), new io.tas.admin.SandboxClock())) {
            var onA = new io.tas.client.SandboxClient("http://127.0.0.1:" + a.adminPort(), Config.DEMO_ADMIN_TOKEN);
            var onB = new io.tas.client.SandboxClient("http://127.0.0.1:" + b.adminPort(), Config.DEMO_ADMIN_TOKEN);
            var bot = new io.tas.support.ApiClient("http://127.0.0.1:" + b.port(), io.tas.support.Credentials.MAIN_RW, Clock.systemUTC());
            assertThat(bot.get("/api/v3/account/deduct-info").data().get("deduct").asText()).isEqualTo("on");
            onA.freeze(1767571200000L);
            onA.saveSnapshot("two-nodes");
            assertThat(bot.post("/api/v3/account/switch-deduct", "{\"deduct\":\"off\"}").code()).isEqualTo("00000");
            assertThat(bot.get("/api/v3/account/deduct-info").data().get("deduct").asText()).as("cached on B").isEqualTo("off");
            onA.resume();
            onA.advance(java.time.Duration.ofHours(1));
            onA.restoreSnapshot("two-nodes");
            long start = System.nanoTime();
            while (!bot.get("/api/v3/account/deduct-info").data().get("deduct").asText().equals("on") || onB.now() != 1767571200000L) {
                assertThat(System.nanoTime() - start).as("node B still serves the old state after 10 s").isLessThan(10_000_000_000L);
                Thread.sleep(10);
            }
            assertThat(onB.clock().get("frozen").asBoolean()).isTrue();
            onA.resume();
        }
    }

    @Test
    void aPinnedNodeIdThatALiveNodeHoldsFailsToStart() {
        try (App a = App.start(node(Map.of("TAS_NODE_ID", "5")), Clock.systemUTC())) {
            assertThat(a.nodeId()).isEqualTo(5);
            assertThatThrownBy(() -> App.start(node(Map.of("TAS_NODE_ID", "5")), Clock.systemUTC()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("node id 5 (TAS_NODE_ID / --node-id) is held by another live node");
        }
    }

    @Test
    void aStartThatFailsAfterLeasingReleasesTheNodeId() {
        assertThatThrownBy(() -> App.start(node(Map.of("TAS_NODE_ID", "9")), Clock.systemUTC(), p -> {
            throw new IllegalArgumentException("bad seed");
        })).hasMessage("bad seed");
        try (App taken = App.start(node(Map.of("TAS_NODE_ID", "10")), Clock.systemUTC())) {
            Config samePorts = node(Map.of("TAS_NODE_ID", "11")).withPort(taken.port()).withAdminPort(taken.adminPort());
            assertThatThrownBy(() -> App.start(samePorts, Clock.systemUTC())).hasMessageContaining("could not listen");
        }
        try (App nine = App.start(node(Map.of("TAS_NODE_ID", "9")), Clock.systemUTC());
             App eleven = App.start(node(Map.of("TAS_NODE_ID", "11")), Clock.systemUTC())) {
            assertThat(nine.nodeId()).isEqualTo(9);
            assertThat(eleven.nodeId()).isEqualTo(11);
        }
    }
}
