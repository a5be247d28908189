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
import java.util.concurrent.atomic.LongAdder;

/**
 * §8 limits: one Bucket4j bucket per (endpoint, UID) or (endpoint, IP), so one user's burst never
 * throttles another. Buckets refill on the injected clock, which makes limits testable without sleeping.
 * Buckets live behind Bucket4j's ProxyManager: in this process (LocalBuckets, the default) a bucket is dropped once
 * it is full again and idle; with a Redis URL every node draws from the same buckets in Redis (RedisBuckets), so N
 * nodes grant each quota once, not N times. With Redis down the caller's policy decides (D85).
 */
public final class RateLimiter implements AutoCloseable {
    /** The outcome of one attempt: allowed or not, and what is left for the response header ({@link #UNKNOWN}: not known). */
    public record Decision(boolean allowed, long remaining) {}

    /** What a row gets while the shared buckets (Redis) cannot answer (D85): allowed (fail open) or 429 (fail closed). */
    public enum WhenUnavailable { ALLOW, REJECT }

    /** Remaining tokens not known (Redis did not answer): no header. */
    public static final long UNKNOWN = -1;
    private static final Decision UNLIMITED = new Decision(true, Long.MAX_VALUE);
    private static final Decision OPEN = new Decision(true, UNKNOWN);
    private static final Decision CLOSED = new Decision(false, UNKNOWN);
    /** How long a bucket is kept after it is full again: a client calling every few seconds keeps its bucket. */
    static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);
    // A bucket costs a few hundred bytes with its cache entry: 200k is tens of MB. Beyond it the least used go first,
    // which can reset a caller's partly used window (D40); expiry alone never does.
    private static final long MAX_BUCKETS = 200_000;

    private final boolean enabled;
    private final LocalBuckets buckets;        // null with Redis
    private final RemoteBucketBuilder<String> builder;
    private final RedisBuckets redis;          // null without Redis
    private final LongAdder unavailableAllowed = new LongAdder();
    private final LongAdder unavailableRejected = new LongAdder();

    /** Buckets in this process (the default, and `./tas demo`). */
    public RateLimiter(boolean enabled, Clock clock) {
        this(enabled, clock, null);
    }

    /** Buckets in the Redis of the settings, shared with every node that uses it; null settings: in this process. */
    public RateLimiter(boolean enabled, Clock clock, RedisSettings shared) {
        this.enabled = enabled;
        TimeMeter time = new TimeMeter() {
            @Override public long currentTimeNanos() { return clock.millis() * 1_000_000L; }
            @Override public boolean isWallClockBased() { return true; }
        };
        ExpirationAfterWriteStrategy expiry = ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL);
        if (enabled && shared != null) {
            this.buckets = null;
            this.builder = null;
            this.redis = new RedisBuckets(shared.url(), shared.keyPrefix(), shared.timeout(), time, expiry);
        } else {
            this.buckets = new LocalBuckets(ClientSideConfig.getDefault().withClientClock(time).withExpirationAfterWriteStrategy(expiry), MAX_BUCKETS);
            this.builder = buckets.builder();
            this.redis = null;
        }
    }

    /** Where the shared buckets are: a redis:// URL, the key prefix of this deployment, the command timeout. */
    public record RedisSettings(String url, String keyPrefix, Duration timeout) {}

    /** An attempt of a row that is allowed while Redis is down (in-process buckets never are). */
    public Decision tryAcquire(String endpoint, String subject, int perSecond) {
        return tryAcquire(endpoint, subject, perSecond, WhenUnavailable.ALLOW);
    }

    public Decision tryAcquire(String endpoint, String subject, int perSecond, WhenUnavailable whenUnavailable) {
        if (!enabled) return UNLIMITED;
        String key = endpoint + '|' + subject;
        ConsumptionProbe probe = redis == null
                ? builder.build(key, () -> perSecond(perSecond)).tryConsumeAndReturnRemaining(1)
                : redis.tryConsume(key, () -> perSecond(perSecond));
        if (probe == null) { // Redis did not answer in time (D85)
            if (whenUnavailable == WhenUnavailable.ALLOW) {
                unavailableAllowed.increment();
                return OPEN;
            }
            unavailableRejected.increment();
            return CLOSED;
        }
        return new Decision(probe.isConsumed(), probe.getRemainingTokens());
    }

    private static BucketConfiguration perSecond(int n) {
        // "N/sec": N requests in each one-second window, refilled whole at the window's end.
        return BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(n).refillIntervally(n, Duration.ofSeconds(1)).build())
                .build();
    }

    /** Buckets held in this process now (a gauge): idle subjects do not count; -1 with Redis (the buckets are there). */
    public long trackedBuckets() { return buckets == null ? -1 : buckets.size(); }

    /** Whether the buckets are shared through Redis. */
    public boolean shared() { return redis != null; }

    /** 1 while Redis answers, 0 while it does not; -1 without Redis (the gauge: the state the last request saw). */
    public int redisUp() { return redis == null ? -1 : redis.isUp() ? 1 : 0; }

    /** As {@link #redisUp}, asking Redis now (readiness). */
    public int redisReady() { return redis == null ? -1 : redis.ping() ? 1 : 0; }

    /** Requests decided without Redis (it failed or timed out) and allowed by their row's policy (D85). */
    public long unavailableAllowed() { return unavailableAllowed.sum(); }

    /** Requests decided without Redis (it failed or timed out) and refused by their row's policy (D85). */
    public long unavailableRejected() { return unavailableRejected.sum(); }

    /** Every bucket dropped (sandbox reset): in Redis, this deployment's keys only. */
    public void reset() {
        if (buckets != null) buckets.clear();
        if (redis != null) redis.clear();
    }

    @Override
    public void close() {
        if (redis != null) redis.close();
    }
}
