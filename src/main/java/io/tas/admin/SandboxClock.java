package io.tas.admin;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sandbox's service clock: the machine's clock plus an offset that only grows, so domain time (due jobs, cTime,
 * rate-limit windows) can be moved forward without waiting. Request signatures are still checked against the machine's
 * clock ({@link #machine()}): clients sign with their own clock, which nobody moved.
 */
public final class SandboxClock extends Clock implements AdjustableClock {
    private final Clock machine;
    private final AtomicLong offsetMillis = new AtomicLong();

    public SandboxClock(Clock machine) { this.machine = machine; }

    public SandboxClock() { this(Clock.systemUTC()); }

    /** The clock underneath, never moved. */
    public Clock machine() { return machine; }

    @Override public void advance(Duration d) {
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("a sandbox clock only moves forward");
        offsetMillis.addAndGet(d.toMillis());
    }

    /** How far the clock has been moved forward. */
    public long offsetMillis() { return offsetMillis.get(); }

    /** Takes up an offset saved before a restart (never moving the clock back). */
    public void restore(long savedOffsetMillis) { offsetMillis.accumulateAndGet(savedOffsetMillis, Math::max); }

    @Override public long millis() { return machine.millis() + offsetMillis.get(); }
    @Override public Instant instant() { return Instant.ofEpochMilli(millis()); }
    @Override public ZoneId getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(ZoneId zone) { return this; }
}
