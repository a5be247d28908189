package io.tas.store;

import io.tas.store.generated.tables.records.NodeLeaseRecord;
import org.jooq.DSLContext;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static io.tas.store.generated.Tables.NODE_LEASE;

/**
 * The node id this process mints IDs under (the 10 node bits of {@link IdGenerator}), leased from the
 * database so that two nodes on one database never share one. Acquiring claims the pinned id, or else the
 * lowest id that has no lease or whose lease expired, each with one conditional statement: of two nodes
 * starting at once, one wins and the other looks again. A heartbeat renews the lease every third of its TTL.
 * IDs are refused ({@link #ensureHeld} throws):
 * - for good, once a renewal finds that another node took the id over (this one paused longer than the TTL);
 * - for as long as the lease has gone unrenewed for TTL - TTL/6 by this node's clock, so that a node waking
 *   from a pause stops before another could take its id over (the sixth allows for clocks that disagree).
 * Closing deletes the lease: the id is free at once.
 * <p>
 * On an H2 file only this process can open (D131) there is no other process to guard against: the lease is held for as
 * long as the process holds the file, with no heartbeat, which on an append-only H2 file (D114) was a chunk appended
 * every TTL/3 of an idle sandbox. A lease row there whose holder is no node of this process was left by a process that
 * ended (the file's lock says so), and is dropped at acquire.
 */
public final class NodeLease implements AutoCloseable {
    public static final int NODE_IDS = 1024;
    private static final Logger log = LoggerFactory.getLogger(NodeLease.class);
    /** The holders of the leases this process holds or is acquiring: on an exclusive H2 file, every other holder has ended. */
    private static final Set<String> HOLDERS_HERE = ConcurrentHashMap.newKeySet();
    /** The expiry of a lease on an exclusive H2 file: none, while its process holds the file. */
    private static final long HELD_WITH_THE_FILE = Long.MAX_VALUE;

    private final Database db;
    private final Clock clock;
    private final int nodeId;
    private final String holder;
    private final long ttl;
    /** On an H2 file only this process can open: no expiry, no heartbeat (D131). */
    private final boolean withTheFile;
    private final ScheduledExecutorService heartbeat;
    private volatile long validUntil;
    /** Why IDs are refused for good; null while the lease is held. */
    private volatile String refusal;
    private boolean closed;

    private NodeLease(Database db, Clock clock, int nodeId, String holder, long ttl, long acquiredAt, Duration every, boolean withTheFile) {
        this.db = db;
        this.clock = clock;
        this.nodeId = nodeId;
        this.holder = holder;
        this.ttl = ttl;
        this.withTheFile = withTheFile;
        this.validUntil = withTheFile ? HELD_WITH_THE_FILE : deadline(acquiredAt);
        this.heartbeat = every.isZero() || withTheFile ? null
                : Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("tas-node-lease").factory());
        if (heartbeat != null) heartbeat.scheduleWithFixedDelay(this::beat, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Leases the pinned node id (null: any free one) for ttl, renewed every ttl/3 until closed. */
    public static NodeLease acquire(Database db, Clock clock, Integer pinned, Duration ttl) {
        return acquire(db, clock, pinned, ttl, ttl.dividedBy(3));
    }

    /** As above with the heartbeat's period; zero: no heartbeat thread (tests call renew themselves). */
    static NodeLease acquire(Database db, Clock clock, Integer pinned, Duration ttl, Duration every) {
        if (pinned != null && (pinned < 0 || pinned >= NODE_IDS)) {
            throw new IllegalArgumentException("node id (TAS_NODE_ID / --node-id) must be 0..1023, not " + pinned);
        }
        if (ttl.toMillis() < 100) throw new IllegalArgumentException("node lease TTL (TAS_NODE_LEASE_TTL_MS) must be at least 100 ms");
        String holder = newHolder();
        DSLContext dsl = db.control();
        boolean withTheFile = db.exclusive();
        HOLDERS_HERE.add(holder); // before claiming: another node of this process acquiring now must not drop our row
        try {
            if (withTheFile) {
                int ended = dsl.deleteFrom(NODE_LEASE).where(NODE_LEASE.HOLDER.notIn(List.copyOf(HOLDERS_HERE))).execute();
                if (ended > 0) log.info("dropped {} node lease(s) left by a process that ended (this H2 file is locked to this one)", ended);
            }
            return claimAny(db, dsl, clock, pinned, ttl, every, holder, withTheFile);
        } catch (RuntimeException e) {
            HOLDERS_HERE.remove(holder);
            throw e;
        }
    }

    private static NodeLease claimAny(Database db, DSLContext dsl, Clock clock, Integer pinned, Duration ttl, Duration every,
                                      String holder, boolean withTheFile) {
        long lasts = withTheFile ? HELD_WITH_THE_FILE : ttl.toMillis();
        // A lost race means another node won an id, so with at most 1024 ids this ends within 1025 rounds.
        for (int round = 0; round <= NODE_IDS; round++) {
            long now = clock.millis();
            Map<Integer, NodeLeaseRecord> leases = dsl.selectFrom(NODE_LEASE).fetchMap(NODE_LEASE.NODE_ID);
            int id = pinned != null ? pinned : lowestClaimable(leases, now);
            if (id < 0) {
                throw new IllegalStateException("no node id is free: all " + NODE_IDS + " are leased by live nodes (table node_lease);"
                        + " stop a node, or wait up to the lease TTL for the lease of a node that died to expire");
            }
            NodeLeaseRecord current = leases.get(id);
            if (current != null && current.getExpiresTime() > now) {
                throw new IllegalStateException("node id " + id + " (TAS_NODE_ID / --node-id) is held by another live node, "
                        + current.getHolder() + (current.getExpiresTime() == HELD_WITH_THE_FILE ? " of this process"
                        : ", until " + Instant.ofEpochMilli(current.getExpiresTime()) + " unless it renews")
                        + "; pin another id, leave TAS_NODE_ID unset to lease a free one, or stop that node");
            }
            if (claim(dsl, id, current, holder, now, lasts)) {
                if (withTheFile) log.info("leased node id {} as {} for as long as this process holds the H2 file", id, holder);
                else log.info("leased node id {} as {} (lease TTL {} ms)", id, holder, ttl.toMillis());
                return new NodeLease(db, clock, id, holder, ttl.toMillis(), now, every, withTheFile);
            }
        }
        throw new IllegalStateException("could not lease a node id: another node won every race for one");
    }

    private static int lowestClaimable(Map<Integer, NodeLeaseRecord> leases, long now) {
        for (int id = 0; id < NODE_IDS; id++) {
            NodeLeaseRecord r = leases.get(id);
            if (r == null || r.getExpiresTime() <= now) return id;
        }
        return -1;
    }

    /** One statement that only one node can win: insert a new lease, or take over the expired one we read. */
    private static boolean claim(DSLContext dsl, int id, NodeLeaseRecord expired, String holder, long now, long lasts) {
        long expires = lasts == HELD_WITH_THE_FILE ? HELD_WITH_THE_FILE : now + lasts;
        if (expired == null) {
            try {
                return dsl.insertInto(NODE_LEASE, NODE_LEASE.NODE_ID, NODE_LEASE.HOLDER, NODE_LEASE.ACQUIRED_TIME, NODE_LEASE.EXPIRES_TIME)
                        .values(id, holder, now, expires).onDuplicateKeyIgnore().execute() == 1;
            } catch (IntegrityConstraintViolationException e) {
                // H2 emulates ON CONFLICT DO NOTHING with MERGE, which can still report the racing insert.
                if ("23505".equals(e.sqlState())) return false;
                throw e;
            }
        }
        // Compare-and-set on the row as read: a renewal by its holder or another taker changes it first.
        return dsl.update(NODE_LEASE)
                .set(NODE_LEASE.HOLDER, holder).set(NODE_LEASE.ACQUIRED_TIME, now).set(NODE_LEASE.EXPIRES_TIME, expires)
                .where(NODE_LEASE.NODE_ID.eq(id).and(NODE_LEASE.HOLDER.eq(expired.getHolder()))
                        .and(NODE_LEASE.EXPIRES_TIME.eq(expired.getExpiresTime())))
                .execute() == 1;
    }

    public int nodeId() { return nodeId; }

    public String holder() { return holder; }

    /** Throws unless this node may mint IDs under its node id right now. Cheap: called for every ID. */
    public void ensureHeld() {
        String why = refusal;
        if (why != null) throw new IllegalStateException(why);
        if (clock.millis() >= validUntil) {
            throw new IllegalStateException("the lease of node id " + nodeId + " was not renewed in time (database unreachable,"
                    + " or this process paused); IDs are refused until a heartbeat renews it");
        }
    }

    /** One heartbeat: the lease runs for the TTL from now. False once it is gone (taken over or released). */
    public synchronized boolean renew() {
        if (refusal != null) return false;
        if (withTheFile) return true; // held with the file: nothing to renew, and no chunk appended (D131)
        long now = clock.millis();
        int renewed = db.control().update(NODE_LEASE).set(NODE_LEASE.EXPIRES_TIME, now + ttl)
                .where(NODE_LEASE.NODE_ID.eq(nodeId).and(NODE_LEASE.HOLDER.eq(holder))).execute();
        if (renewed == 1) {
            validUntil = deadline(now);
            return true;
        }
        refusal = "node id " + nodeId + " was taken over by another node after this one (" + holder + ") went longer than"
                + " the lease TTL without renewing it; this node mints no more IDs, restart it";
        log.error(refusal);
        if (heartbeat != null) heartbeat.shutdown();
        return false;
    }

    private void beat() {
        try {
            renew();
        } catch (RuntimeException e) {
            // Keep trying: if nobody took the id over meanwhile, a later renewal makes it valid again.
            log.warn("node lease {} not renewed ({}); IDs are refused from {} unless a heartbeat succeeds first",
                    nodeId, e.getMessage(), Instant.ofEpochMilli(validUntil));
        }
    }

    private long deadline(long renewedAt) { return renewedAt + ttl - ttl / 6; }

    /** Stops the heartbeat and deletes the lease, so the id is free at once; IDs are refused from now on. */
    @Override
    public void close() {
        if (heartbeat != null) heartbeat.shutdown();
        synchronized (this) {
            if (closed) return;
            closed = true;
            if (refusal == null) refusal = "node id " + nodeId + " was released: this node is shutting down";
            HOLDERS_HERE.remove(holder);
            try {
                db.control().deleteFrom(NODE_LEASE).where(NODE_LEASE.NODE_ID.eq(nodeId).and(NODE_LEASE.HOLDER.eq(holder))).execute();
            } catch (RuntimeException e) {
                log.warn("node lease {} not released ({}); it expires on its own", nodeId, e.getMessage());
            }
        }
    }

    /** Names this one instance: host and pid for people, a random part so that no two instances match. */
    private static String newHolder() {
        String host = System.getenv().getOrDefault("HOSTNAME", "");
        if (host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "unknown-host";
            }
        }
        String name = host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
        return name.length() <= 128 ? name : name.substring(name.length() - 128);
    }
}
