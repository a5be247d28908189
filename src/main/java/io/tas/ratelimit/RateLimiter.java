package io.tas.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.distributed.proxy.RemoteBucketBuilder;

import java.time.Clock;
import java.time.Duration;

/**
 * §8 limits: one Bucket4j bucket per (endpoint, UID) or (endpoint, IP), so one user's burst never
 * throttles another. Buckets refill on the injected clock, which makes limits testable without sleeping.
 * Buckets live behind Bucket4j's ProxyManager: in this process (LocalBuckets) a bucket is dropped once it is
 * full again and idle; a Redis-backed proxy manager replaces it for limits shared across nodes (roadmap).
 */
public final class RateLimiter {
    /** The outcome of one attempt: allowed or not, and what is left for the response header. */
    public record Decision(boolean allowed, long remaining) {}

    private static final Decision UNLIMITED = new Decision(true, Long.MAX_VALUE);
    /** How long a bucket is kept after it is full again: a client calling every few seconds keeps its bucket. */
    static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);
    // A bucket costs a few hundred bytes with its cache entry: 200k is tens of MB. Beyond it the least used go first,
    // which can reset a caller's partly used window (D40); expiry alone never does.
    private static final long MAX_BUCKETS = 200_000;

    private final boolean enabled;
    private final LocalBuckets buckets;
    private final RemoteBucketBuilder<String> builder;

    public RateLimiter(boolean enabled, Clock clock) {
        this.enabled = enabled;
        TimeMeter time = new TimeMeter() {
            @Override public long currentTimeNanos() { return clock.millis() * 1_000_000L; }
            @Override public boolean isWallClockBased() { return true; }
        };
        this.buckets = new LocalBuckets(ClientSideConfig.getDefault().withClientClock(time)
                .withExpirationAfterWriteStrategy(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL)),
                MAX_BUCKETS);
        this.builder = buckets.builder();
    }

    public Decision tryAcquire(String endpoint, String subject, int perSecond) {
        if (!enabled) return UNLIMITED;
        ConsumptionProbe probe = builder.build(endpoint + '|' + subject, () -> perSecond(perSecond)).tryConsumeAndReturnRemaining(1);
        return new Decision(probe.isConsumed(), probe.getRemainingTokens());
    }

    private static BucketConfiguration perSecond(int n) {
        // "N/sec": N requests in each one-second window, refilled whole at the window's end.
        return BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(n).refillIntervally(n, Duration.ofSeconds(1)).build())
                .build();
    }

    /** Buckets held now (a gauge): idle subjects do not count. */
    public long trackedBuckets() { return buckets.size(); }

    public void reset() { buckets.clear(); }
}
