package io.tas.ratelimit;

import io.tas.support.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** D9 windows on the injected clock, through Bucket4j's ProxyManager, with idle buckets dropped. */
class RateLimiterTest {
    final MutableClock clock = new MutableClock(1_700_000_000_000L);
    final RateLimiter limiter = new RateLimiter(true, clock);

    @Test
    void nRequestsInEachOneSecondWindowWithExactRemainders() {
        for (int left = 4; left >= 0; left--) {
            RateLimiter.Decision d = limiter.tryAcquire("INFO", "7", 5);
            assertThat(d.allowed()).isTrue();
            assertThat(d.remaining()).isEqualTo(left);
        }
        assertThat(limiter.tryAcquire("INFO", "7", 5).allowed()).isFalse();
        assertThat(limiter.tryAcquire("INFO", "8", 5).allowed()).as("another subject").isTrue();
        assertThat(limiter.tryAcquire("SETTINGS", "7", 5).allowed()).as("another endpoint").isTrue();
        clock.advance(Duration.ofMillis(999));
        assertThat(limiter.tryAcquire("INFO", "7", 5).allowed()).as("same window").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(limiter.tryAcquire("INFO", "7", 5).remaining()).as("next window, full again").isEqualTo(4);
    }

    @Test
    void idleSubjectsAreDroppedAndComeBackWithAFullBucket() {
        for (int i = 0; i < 10_000; i++) limiter.tryAcquire("TICKERS", "10.0." + (i / 256) + "." + (i % 256), 20);
        assertThat(limiter.trackedBuckets()).isEqualTo(10_000);
        clock.advance(Duration.ofSeconds(1));
        assertThat(limiter.trackedBuckets()).as("full again, kept a while").isEqualTo(10_000);
        clock.advance(RateLimiter.KEEP_AFTER_REFILL);
        assertThat(limiter.trackedBuckets()).isZero();
        assertThat(limiter.tryAcquire("TICKERS", "10.0.0.1", 20).remaining()).isEqualTo(19);
    }

    @Test
    void aBucketThatIsNotFullIsKeptWhateverItsSubjectDoes() {
        for (int i = 0; i < 5; i++) limiter.tryAcquire("SWITCH", "9", 5);
        clock.advance(Duration.ofMillis(900));
        assertThat(limiter.trackedBuckets()).isEqualTo(1);
        assertThat(limiter.tryAcquire("SWITCH", "9", 5).allowed()).as("still throttled").isFalse();
    }

    @Test
    void resetDropsEveryBucketAndOffMeansUnlimited() {
        for (int i = 0; i < 5; i++) limiter.tryAcquire("INFO", "7", 5);
        limiter.reset();
        assertThat(limiter.trackedBuckets()).isZero();
        assertThat(limiter.tryAcquire("INFO", "7", 5).remaining()).isEqualTo(4);
        RateLimiter off = new RateLimiter(false, clock);
        for (int i = 0; i < 100; i++) assertThat(off.tryAcquire("INFO", "7", 5).allowed()).isTrue();
        assertThat(off.trackedBuckets()).isZero();
    }
}
