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
        return Long.parseLong(app.provisioning().deposit(new LedgerOp(1000000001L, "unified", "USDT", BigDecimal.ONE, ref)).txId());
    }

    @Test
    void nodesMintUnderDistinctLeasedIdsAndAStoppedNodesIdIsReused() throws Exception {
        SeedFile demo = SeedFile.load("demo");
        try (App a = App.start(node(Map.of()), Clock.systemUTC(), p -> { if (p.isEmpty()) p.apply(demo); });
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
