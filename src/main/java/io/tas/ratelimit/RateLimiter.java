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
 * nodes grant each quota once, not N times. While Redis does not answer, each node limits alone to its share of the
 * quota, quota / the expected node count, in a bucket of its own (D124).
 */
public final class RateLimiter implements AutoCloseable {
    /**
     * The outcome of one attempt: allowed or not, what is left for the response header, and whether this node decided
     * alone, from its share of the quota, because Redis did not answer (D124).
     */
    public record Decision(boolean allowed, long remaining, boolean alone) {}

    private static final Decision UNLIMITED = new Decision(true, Long.MAX_VALUE, false);
    /** How long a bucket is kept after it is full again: a client calling every few seconds keeps its bucket. */
    static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);
    // A bucket costs a few hundred bytes with its cache entry: 200k is tens of MB. Beyond it the least used go first,
    // which can reset a caller's partly used window (D40); expiry alone never does.
    private static final long MAX_BUCKETS = 200_000;

    private final boolean enabled;
    /** Every bucket without Redis; with Redis, this node's shares while Redis does not answer. */
    private final LocalBuckets buckets;
    private final RemoteBucketBuilder<String> builder;
    private final RedisBuckets redis;          // null without Redis
    private final int nodes;                   // the nodes that share the quotas (RedisSettings.nodes), 1 without Redis
    private final LongAdder aloneAllowed = new LongAdder();
    private final LongAdder aloneRejected = new LongAdder();

    /** Buckets in this process (the default, and `./tas demo`). */
    public RateLimiter(boolean enabled, Clock clock) {
        this(enabled, clock, null);
    }

    /** Buckets in the Redis of the settings, shared with every node that uses it; null settings: in this process. */
    public RateLimiter(boolean enabled, Clock clock, RedisSettings shared) {
        this.enabled = enabled;
        TimeMeter time = LocalBuckets.timeOf(clock);
        ExpirationAfterWriteStrategy expiry = ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL);
        this.buckets = new LocalBuckets(ClientSideConfig.getDefault().withClientClock(time).withExpirationAfterWriteStrategy(expiry), MAX_BUCKETS);
        this.builder = buckets.builder();
        this.redis = enabled && shared != null ? new RedisBuckets(shared.url(), shared.keyPrefix(), shared.timeout(), time, expiry) : null;
        this.nodes = redis == null ? 1 : shared.nodes();
    }

    /**
     * Where the shared buckets are: a redis:// URL, the key prefix of this deployment, the command timeout, and how many
     * nodes share the quotas (each takes quota / nodes while Redis does not answer).
     */
    public record RedisSettings(String url, String keyPrefix, Duration timeout, int nodes) {
        public RedisSettings {
            if (nodes < 1) throw new IllegalArgumentException("nodes must be at least 1");
        }
    }

    public Decision tryAcquire(String endpoint, String subject, int perSecond) {
        if (!enabled) return UNLIMITED;
        String key = endpoint + '|' + subject;
        if (redis == null) return decision(builder.build(key, () -> perSecond(perSecond)).tryConsumeAndReturnRemaining(1), false);
        ConsumptionProbe shared = redis.tryConsume(key, () -> perSecond(perSecond));
        if (shared != null) return decision(shared, false);
        // Redis did not answer (D124): this node's share, so that N nodes together still grant about the quota.
        ConsumptionProbe alone = builder.build(key, () -> share(perSecond, nodes)).tryConsumeAndReturnRemaining(1);
        (alone.isConsumed() ? aloneAllowed : aloneRejected).increment();
        return decision(alone, true);
    }

    private static Decision decision(ConsumptionProbe probe, boolean alone) {
        return new Decision(probe.isConsumed(), probe.getRemainingTokens(), alone);
    }

    private static BucketConfiguration perSecond(int n) {
        // "N/sec": N requests in each one-second window, refilled whole at the window's end.
        return BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(n).refillIntervally(n, Duration.ofSeconds(1)).build())
                .build();
    }

    /**
     * One node's share of "n/sec" among the given nodes: n / nodes a second on average. A share under one request is
     * one request per longer window (1/s on 2 nodes: 1 every 2 s), so no quota is multiplied by the node count.
     */
    static BucketConfiguration share(int n, int nodes) {
        long each = Math.max(1, n / nodes);
        Duration window = Duration.ofNanos(1_000_000_000L * each * nodes / n);
        return BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(each).refillIntervally(each, window).build())
                .build();
    }

    /** Buckets held in this process now (a gauge): idle subjects do not count; -1 with Redis (the buckets are there). */
    public long trackedBuckets() { return redis != null ? -1 : buckets.size(); }

    /** Whether the buckets are shared through Redis. */
    public boolean shared() { return redis != null; }

    /** 1 while Redis answers, 0 while it does not; -1 without Redis (the gauge: the state the last request saw). */
    public int redisUp() { return redis == null ? -1 : redis.isUp() ? 1 : 0; }

    /** As {@link #redisUp}, asking Redis now (readiness). */
    public int redisReady() { return redis == null ? -1 : redis.ping() ? 1 : 0; }

    /** Requests decided by this node's share because Redis did not answer (it failed or timed out), and allowed (D124). */
    public long unavailableAllowed() { return aloneAllowed.sum(); }

    /** Requests decided by this node's share because Redis did not answer (it failed or timed out), and refused (D124). */
    public long unavailableRejected() { return aloneRejected.sum(); }

    /** Every bucket dropped (sandbox reset): in Redis, this deployment's keys only. */
    public void reset() {
        buckets.clear();
        if (redis != null) redis.clear();
    }

    @Override
    public void close() {
        if (redis != null) redis.close();
    }
}
