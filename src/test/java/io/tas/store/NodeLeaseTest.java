package io.tas.store;

import io.tas.config.Config;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.tas.store.generated.Tables.NODE_LEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Node ids leased from one database: nodes that run at the same time never share one, a stopped node's id
 * is free again, and a node whose lease was taken over mints no more IDs. Leases here renew only when a test
 * says so (no heartbeat thread), and time is a MutableClock, except where the heartbeat thread is the subject.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class NodeLeaseTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    @Parameter Databases.Kind kind;

    private Databases.TestDb testDb;
    private Config config;
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>(); // starters add from their threads
    private final MutableClock clock = new MutableClock(1_800_000_000_000L);

    @BeforeEach
    void createDatabase() {
        testDb = Databases.create(kind);
        config = Config.fromEnv(Map.of("TAS_DB_POOL_SIZE", "4")).withDb(testDb.url(), testDb.user(), "");
    }

    @AfterEach
    void dropDatabase() throws Exception {
        for (AutoCloseable c : open.reversed()) c.close();
        testDb.close();
    }

    /** A node's own connection pool on the shared database. */
    private Database node() {
        Database db = Database.open(config);
        open.add(db);
        return db;
    }

    private NodeLease lease(Database db, MutableClock clock, Integer pinned) {
        NodeLease lease = NodeLease.acquire(db, clock, pinned, TTL, Duration.ZERO);
        open.add(lease);
        return lease;
    }

    @Test
    void twoNodesMintOneHundredThousandIdsEachAndNoneCollide() {
        NodeLease a = lease(node(), clock, null);
        NodeLease b = lease(node(), clock, null);
        assertThat(a.nodeId()).isNotEqualTo(b.nodeId());
        // One frozen clock for both: every ID falls in the same few milliseconds, so only the node bits tell them apart.
        IdGenerator idsA = new IdGenerator(clock, a), idsB = new IdGenerator(clock, b);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            long fromA = idsA.next(), fromB = idsB.next();
            assertThat(seen.add(fromA)).as("ID %d of node A is new", i).isTrue();
            assertThat(seen.add(fromB)).as("ID %d of node B is new", i).isTrue();
            assertThat(IdGenerator.nodeOf(fromA)).isEqualTo(a.nodeId());
            assertThat(IdGenerator.nodeOf(fromB)).isEqualTo(b.nodeId());
        }
        assertThat(seen).hasSize(200_000);
    }

    @Test
    void nodesStartingAtOnceLeaseDistinctIds() throws Exception {
        int nodes = 12;
        List<Database> pools = List.of(node(), node(), node()); // three processes' pools, four starters each
        List<Integer> ids = startAtOnce(nodes, i -> lease(pools.get(i % pools.size()), clock, null).nodeId());
        assertThat(ids).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(range(0, nodes));
        assertThat(pools.getFirst().autoCommit().fetchCount(NODE_LEASE)).isEqualTo(nodes);
    }

    @Test
    void nodesTakingOverExpiredLeasesAtOnceTakeDistinctIds() throws Exception {
        int nodes = 8;
        Database db = node();
        for (int i = 0; i < nodes; i++) lease(db, clock, null);
        clock.advance(TTL); // every lease expired: the next starters race for the same rows
        List<Integer> ids = startAtOnce(nodes, i -> lease(db, clock, null).nodeId());
        assertThat(ids).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(range(0, nodes));
        Set<String> holders = db.autoCommit().selectFrom(NODE_LEASE).fetchSet(NODE_LEASE.HOLDER);
        assertThat(holders).as("every row names one of the new holders").hasSize(nodes);
    }

    @Test
    void aClosedNodesIdIsFreeForTheNextNodeAndItMintsNoMore() {
        Database db = node();
        NodeLease a = lease(db, clock, null);
        NodeLease b = lease(db, clock, null);
        IdGenerator idsA = new IdGenerator(clock, a);
        idsA.next();
        a.close();
        assertThatThrownBy(idsA::next).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
        NodeLease c = lease(db, clock, null);
        assertThat(c.nodeId()).isEqualTo(a.nodeId()).isNotEqualTo(b.nodeId());
        assertThat(a.renew()).as("a closed lease is not renewed over its successor").isFalse();
        assertThat(c.renew()).isTrue();
    }

    @Test
    void anExpiredLeaseIsTakenOverAndItsOldHolderRefusesToMint() {
        Database db = node();
        NodeLease a = lease(db, clock, null);
        IdGenerator idsA = new IdGenerator(clock, a);
        idsA.next();
        clock.advance(TTL); // A stopped heartbeating (say, a long pause)
        assertThatThrownBy(idsA::next).as("A's lease lapsed by its own clock").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not renewed in time");

        NodeLease b = lease(db, clock, null);
        assertThat(b.nodeId()).isEqualTo(a.nodeId());
        assertThat(new IdGenerator(clock, b).next()).isPositive();
        assertThat(a.renew()).as("A's heartbeat finds its id taken").isFalse();
        assertThatThrownBy(idsA::next).isInstanceOf(IllegalStateException.class).hasMessageContaining("taken over");
        assertThat(b.renew()).isTrue();
    }

    @Test
    void aHolderWhoseClockLagsLearnsOfTheTakeoverFromItsHeartbeat() {
        Database db = node();
        NodeLease a = lease(db, clock, null);
        IdGenerator idsA = new IdGenerator(clock, a);
        MutableClock ahead = new MutableClock(clock.millis() + TTL.toMillis()); // B's clock: past A's lease
        NodeLease b = lease(node(), ahead, null);
        assertThat(b.nodeId()).isEqualTo(a.nodeId());
        assertThat(a.renew()).isFalse();
        assertThatThrownBy(idsA::next).isInstanceOf(IllegalStateException.class).hasMessageContaining("taken over");
        clock.advance(Duration.ofMillis(1));
        assertThatThrownBy(idsA::next).as("for good").isInstanceOf(IllegalStateException.class);
    }

    @Test
    void renewalsKeepALeaseAliveAndRevalidateOneThatNobodyTook() {
        Database db = node();
        NodeLease a = lease(db, clock, null);
        IdGenerator idsA = new IdGenerator(clock, a);
        clock.advance(TTL.multipliedBy(2).dividedBy(3));
        assertThat(a.renew()).isTrue();
        clock.advance(TTL.multipliedBy(2).dividedBy(3)); // more than a TTL since acquiring, less since renewing
        assertThat(lease(db, clock, null).nodeId()).as("A's id is still held").isNotEqualTo(a.nodeId());
        idsA.next();

        clock.advance(TTL.minus(TTL.dividedBy(6)).minus(TTL.multipliedBy(2).dividedBy(3))); // at A's safety deadline
        assertThatThrownBy(idsA::next).isInstanceOf(IllegalStateException.class).hasMessageContaining("not renewed in time");
        assertThat(a.renew()).as("nobody took it, so it is A's again").isTrue();
        idsA.next();
    }

    @Test
    void theHeartbeatThreadRenewsWellInsideTheTtl() throws Exception {
        Database db = node();
        NodeLease a = NodeLease.acquire(db, clock, null, TTL, Duration.ofMillis(20));
        open.add(a);
        clock.advance(TTL.dividedBy(2));
        long expected = clock.millis() + TTL.toMillis();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (expiresOf(db, a.nodeId()) != expected && System.nanoTime() < deadline) Thread.sleep(10); // the thread's own pace
        assertThat(expiresOf(db, a.nodeId())).isEqualTo(expected);
        a.close();
        assertThat(db.autoCommit().fetchCount(NODE_LEASE)).as("released: the row is gone").isZero();
    }

    @Test
    void aPinnedIdThatALiveNodeHoldsFailsWithAClearError() {
        Database db = node();
        NodeLease a = lease(db, clock, 7);
        assertThat(a.nodeId()).isEqualTo(7);
        assertThatThrownBy(() -> lease(node(), clock, 7)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node id 7").hasMessageContaining("held by another live node").hasMessageContaining(a.holder());
        assertThat(lease(db, clock, null).nodeId()).as("unpinned nodes take the lowest free id").isZero();
        assertThatThrownBy(() -> lease(db, clock, 1024)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..1023");
        a.close();
        assertThat(lease(db, clock, 7).nodeId()).isEqualTo(7);
    }

    @Test
    void withEveryIdLeasedANodeRefusesToStartUntilOneExpires() {
        Database db = node();
        var insert = db.autoCommit().insertInto(NODE_LEASE, NODE_LEASE.NODE_ID, NODE_LEASE.HOLDER, NODE_LEASE.ACQUIRED_TIME, NODE_LEASE.EXPIRES_TIME);
        for (int id = 0; id < NodeLease.NODE_IDS; id++) {
            insert = insert.values(id, "other-" + id, clock.millis(), clock.millis() + (id == 500 ? 1_000 : TTL.toMillis()));
        }
        insert.execute();
        assertThatThrownBy(() -> lease(db, clock, null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no node id is free").hasMessageContaining("1024");
        clock.advance(Duration.ofSeconds(1));
        assertThat(lease(db, clock, null).nodeId()).isEqualTo(500);
    }

    @Test
    void aSandboxResetKeepsTheLeases() {
        Database db = node();
        NodeLease a = lease(db, clock, null);
        db.truncateAll();
        assertThat(a.renew()).isTrue();
    }

    private static long expiresOf(Database db, int nodeId) {
        Long e = db.autoCommit().select(NODE_LEASE.EXPIRES_TIME).from(NODE_LEASE).where(NODE_LEASE.NODE_ID.eq(nodeId)).fetchOne(NODE_LEASE.EXPIRES_TIME);
        return e == null ? -1 : e;
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    /** Runs starters that all begin at the same instant; returns what each got. */
    private static List<Integer> startAtOnce(int n, java.util.function.IntFunction<Integer> start) throws Exception {
        CyclicBarrier together = new CyclicBarrier(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Integer>> got = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int node = i;
                got.add(pool.submit(() -> {
                    together.await();
                    return start.apply(node);
                }));
            }
            List<Integer> ids = new ArrayList<>();
            for (Future<Integer> f : got) ids.add(f.get(60, TimeUnit.SECONDS));
            return ids;
        } finally {
            pool.shutdownNow();
        }
    }
}
