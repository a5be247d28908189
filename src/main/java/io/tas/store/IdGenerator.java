package io.tas.store;

import java.time.Clock;

/**
 * Time-ordered 64-bit IDs (DESIGN: IDs): 41 bits of milliseconds since 2024-01-01, 10 bits of node,
 * 12 bits of sequence. Monotonic even if the clock steps back: it never reuses the last millisecond.
 */
public final class IdGenerator {
    private static final long EPOCH = 1704067200000L;
    private final Clock clock;
    private final long node;
    private long lastMillis = -1;
    private long sequence;

    public IdGenerator(Clock clock, int node) {
        if (node < 0 || node > 1023) throw new IllegalArgumentException("node must be 0..1023");
        this.clock = clock;
        this.node = node;
    }

    public synchronized long next() {
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
}
