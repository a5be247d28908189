package io.tas.store;

import io.tas.config.Config;
import io.tas.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.tas.store.generated.Tables.NODE_LEASE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * D131: on an H2 file only this process can open, a node lease is held with the file. Renewing it writes nothing, so
 * an idle sandbox's append-only file (D114) stops growing by a chunk every heartbeat; a lease left by a process that
 * ended is dropped at the next start; nodes of one process still never share an id, and none expires.
 */
class NodeLeaseOnH2FileTest {
    private static final Duration TTL = Duration.ofSeconds(30);

    private static Config config(Path dir) {
        return Config.fromEnv(Map.of("TAS_DB_POOL_SIZE", "2")).withDb("jdbc:h2:file:" + dir.resolve("lease").toAbsolutePath(), "sa", "");
    }

    /** Before D131 each renewal appended a chunk of at least one 4 KB block: 200 of them grew the file by 800 KB or more. */
    @Test
    void renewalsDoNotGrowTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("lease.mv.db");
        try (Database db = Database.open(config(dir)); NodeLease lease = NodeLease.acquire(db, new MutableClock(1_800_000_000_000L), null, TTL, Duration.ZERO)) {
            long before = Files.size(file);
            for (int i = 0; i < 200; i++) assertThat(lease.renew()).isTrue();
            long grown = Files.size(file) - before;
            System.out.printf("200 lease renewals grew the H2 file by %d bytes%n", grown);
            assertThat(grown).as("bytes the file grew by over 200 renewals").isLessThan(64 * 1024);
        }
    }

    @Test
    void aLeaseLeftByAProcessThatEndedIsDroppedAtStart(@TempDir Path dir) {
        MutableClock clock = new MutableClock(1_800_000_000_000L);
        try (Database db = Database.open(config(dir))) {
            // What a killed process leaves: its row, held with the file, under a holder no node of this process has.
            db.control().insertInto(NODE_LEASE, NODE_LEASE.NODE_ID, NODE_LEASE.HOLDER, NODE_LEASE.ACQUIRED_TIME, NODE_LEASE.EXPIRES_TIME)
                    .values(0, "gone-host/4242/deadbeef", clock.millis(), Long.MAX_VALUE).execute();
            try (NodeLease lease = NodeLease.acquire(db, clock, 0, TTL, Duration.ZERO)) {
                assertThat(lease.nodeId()).isZero();
                assertThat(db.control().fetchCount(NODE_LEASE)).isEqualTo(1);
            }
        }
    }

    @Test
    void nodesOfOneProcessNeverShareAnIdAndNoneExpires(@TempDir Path dir) {
        MutableClock clock = new MutableClock(1_800_000_000_000L);
        try (Database a = Database.open(config(dir)); Database b = Database.open(config(dir));
             NodeLease first = NodeLease.acquire(a, clock, null, TTL, Duration.ZERO)) {
            clock.advance(TTL.multipliedBy(10)); // no heartbeat ran: a lease with a TTL would have lapsed long ago
            first.ensureHeld();
            try (NodeLease second = NodeLease.acquire(b, clock, null, TTL, Duration.ZERO)) {
                assertThat(second.nodeId()).isNotEqualTo(first.nodeId());
                second.ensureHeld();
            }
        }
    }
}
