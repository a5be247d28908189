package io.tas.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * A budget of failures per subject (an IP, an API key), D122: each failure takes a token from the subject's Bucket4j
 * bucket ("n a minute", refilled evenly), and a subject whose bucket is empty is refused before the work that could
 * fail again. Checking costs a successful request one in-memory lookup and no bucket: only failures make one, and a
 * bucket is dropped once it is full again. Buckets are this node's (LocalBuckets): the budget guards this node's CPU
 * and database, and a Redis round trip on every request would slow the successful ones.
 */
public final class FailureLimit {
    private static final long MAX_SUBJECTS = 100_000;
    private static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);

    private final LocalBuckets buckets;
    private final BucketConfiguration perMinute;
    private final LongAdder refused = new LongAdder();

    /** At most perMinute failures a minute for each subject (a burst of perMinute, then one every minute / perMinute). */
    public FailureLimit(int perMinute, Clock clock) {
        TimeMeter time = LocalBuckets.timeOf(clock);
        this.buckets = new LocalBuckets(ClientSideConfig.getDefault().withClientClock(time).withExpirationAfterWriteStrategy(
                ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL)), MAX_SUBJECTS);
        this.perMinute = BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(perMinute).refillGreedy(perMinute, Duration.ofMinutes(1)).build())
                .build();
    }

    /** Whether the subject has used up its failures; counts a refusal when it has. */
    public boolean exhausted(String subject) {
        if (buckets.availableTokens(subject) != 0) return false;
        refused.increment();
        return true;
    }

    /** One failure of the subject. */
    public void failed(String subject) {
        buckets.builder().build(subject, () -> perMinute).tryConsume(1);
    }

    /** Requests refused because their subject had used up its failures (a metric). */
    public long refused() { return refused.sum(); }
}
