package io.tas.store;

import java.time.Clock;

/**
 * Time-ordered 64-bit IDs (DESIGN: IDs): 41 bits of milliseconds since 2024-01-01, 10 bits of node,
 * 12 bits of sequence. Monotonic even if the clock steps back: it never reuses the last millisecond.
 * Unique across nodes because each node mints under a node id no other live node holds ({@link NodeLease}).
 */
public final class IdGenerator {
    private static final long EPOCH = 1704067200000L;
    private static final Runnable ALWAYS = () -> {};
    private final Clock clock;
    private final long node;
    /** Throws when this node may no longer mint under its node id. */
    private final Runnable mayMint;
    private long lastMillis = -1;
    private long sequence;

    /** Mints under the leased node id, and refuses (IllegalStateException) once the lease is lost or lapsed. */
    public IdGenerator(Clock clock, NodeLease lease) {
        this(clock, lease.nodeId(), lease::ensureHeld);
    }

    /** Mints under a fixed node id, for a process that alone writes to its database (tests, tools). */
    public IdGenerator(Clock clock, int node) {
        this(clock, node, ALWAYS);
    }

    private IdGenerator(Clock clock, int node, Runnable mayMint) {
        if (node < 0 || node >= NodeLease.NODE_IDS) throw new IllegalArgumentException("node must be 0..1023");
        this.clock = clock;
        this.node = node;
        this.mayMint = mayMint;
    }

    public synchronized long next() {
        mayMint.run();
        long now = Math.max(clock.millis() - EPOCH, lastMillis);
        if (now == lastMillis) {
            sequence = (sequence + 1) & 0xFFF;
            if (sequence == 0) now = lastMillis + 1; // borrow the next millisecond rather than block
        } else {
            sequence = 0;
        }
        lastMillis = now;
        return (now << 22) | (node << 12) | sequence;
    }

    /** Where minting stands: the last millisecond used (since the epoch of IDs) and its sequence. */
    public record Mark(long lastMillis, long sequence) {
        /** Before any ID: what a reset rewinds to. */
        public static final Mark NONE = new Mark(-1, 0);
    }

    public synchronized Mark mark() { return new Mark(lastMillis, sequence); }

    /**
     * Issue 28: minting starts again at a mark taken earlier, after a reset or a snapshot restore removed every row this
     * node minted after it. A replay from a frozen clock then mints the IDs the first run minted (D189).
     */
    public synchronized void rewind(Mark to) {
        lastMillis = to.lastMillis();
        sequence = to.sequence();
    }

    public int node() { return (int) node; }

    /**
     * A mark past every ID the database holds: the largest millisecond of any single-column numeric key, with the
     * sequence used up (the next ID borrows the millisecond after it). A sandbox whose clock was frozen or set back
     * mints at instants it may have minted at before a restart (D189), so it starts from here instead of from nothing.
     */
    public static Mark after(Database db) {
        long max = -1;
        for (org.jooq.Table<?> t : io.tas.store.generated.DefaultSchema.DEFAULT_SCHEMA.getTables()) {
            var key = t.getPrimaryKey();
            if (key == null || key.getFields().size() != 1 || key.getFields().getFirst().getType() != Long.class) continue;
            org.jooq.Field<?> f = key.getFields().getFirst();
            Number top = db.read(dsl -> (Number) dsl.select(org.jooq.impl.DSL.max(f)).from(t).fetchOne(0));
            if (top != null) max = Math.max(max, top.longValue() >>> 22);
        }
        return max < 0 ? Mark.NONE : new Mark(max, 0xFFF);
    }

    /** The node bits of an ID. */
    public static int nodeOf(long id) { return (int) ((id >>> 12) & 0x3FF); }
}
