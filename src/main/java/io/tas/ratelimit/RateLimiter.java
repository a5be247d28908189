package io.tas.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * §8 limits: one Bucket4j bucket per (endpoint, UID) or (endpoint, IP), so one user's burst never
 * throttles another. Buckets refill on the injected clock, which makes limits testable without sleeping.
 * Local to this process; a Redis-backed proxy manager replaces the map for multi-node (roadmap).
 */
public final class RateLimiter {
    /** The outcome of one attempt: allowed or not, and what is left for the response header. */
    public record Decision(boolean allowed, long remaining) {}

    private static final Decision UNLIMITED = new Decision(true, Long.MAX_VALUE);

    private final boolean enabled;
    private final TimeMeter time;
    private final ConcurrentMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RateLimiter(boolean enabled, Clock clock) {
        this.enabled = enabled;
        this.time = new TimeMeter() {
            @Override public long currentTimeNanos() { return clock.millis() * 1_000_000L; }
            @Override public boolean isWallClockBased() { return true; }
        };
    }

    public Decision tryAcquire(String endpoint, String subject, int perSecond) {
        if (!enabled) return UNLIMITED;
        Bucket bucket = buckets.computeIfAbsent(endpoint + '|' + subject, k -> newBucket(perSecond));
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        return new Decision(probe.isConsumed(), probe.getRemainingTokens());
    }

    private Bucket newBucket(int perSecond) {
        // "N/sec": N requests in each one-second window, refilled whole at the window's end.
        Bandwidth limit = Bandwidth.builder().capacity(perSecond).refillIntervally(perSecond, Duration.ofSeconds(1)).build();
        return Bucket.builder().addLimit(limit).withCustomTimePrecision(time).build();
    }

    public void reset() { buckets.clear(); }
}
