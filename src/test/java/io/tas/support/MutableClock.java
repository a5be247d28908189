package io.tas.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand: domain time and rate-limit windows advance only when told, never by sleeping. */
public final class MutableClock extends Clock implements io.tas.admin.AdjustableClock {
    private final AtomicLong millis;

    public MutableClock(long startMillis) { this.millis = new AtomicLong(startMillis); }

    @Override public void advance(Duration d) { millis.addAndGet(d.toMillis()); }

    public void set(long m) { millis.set(m); }

    @Override public long millis() { return millis.get(); }
    @Override public Instant instant() { return Instant.ofEpochMilli(millis.get()); }
    @Override public ZoneId getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(ZoneId zone) { return this; }
}
