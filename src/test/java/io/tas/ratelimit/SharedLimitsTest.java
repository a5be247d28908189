package io.tas.ratelimit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.tas.support.MutableClock;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter over Redis (127.0.0.1:6379, as SharedRateLimitTest; a key prefix of its own, deleted after): what counts
 * as Redis being down, and what a node grants while it is (issue 24 item 6, D123, D124).
 */
class SharedLimitsTest {
    static final String REDIS = System.getProperty("tas.test.redis", "redis://127.0.0.1:6379");

    /** A service clock that moves on by step at every reading: time passing between any two steps of a request. */
    static final class SteppingClock extends Clock {
        private final AtomicLong millis = new AtomicLong(1_700_000_000_000L);
        private final long step;

        SteppingClock(Duration step) { this.step = step.toMillis(); }

        @Override public long millis() { return millis.getAndAdd(step); }
        @Override public Instant instant() { return Instant.ofEpochMilli(millis()); }
        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
    }

    private static RateLimiter.RedisSettings settings(String url, String prefix) {
        return new RateLimiter.RedisSettings(url, prefix, Duration.ofMillis(200), 2);
    }

    /**
     * Time that passes before the command is sent (a request waiting for a core, a sandbox clock moved) is not Redis
     * being slow. Before, Bucket4j's request timeout was one budget on the service clock, started before the command:
     * here 300 ms pass on it between two readings, the 200 ms budget was gone before the first command was sent, and
     * every request was decided without Redis although Redis answered at once.
     */
    @Test
    void timeSpentBeforeTheCommandDoesNotCountAsRedisDown() {
        String prefix = "tas:test:" + UUID.randomUUID() + ":";
        try (RateLimiter limiter = new RateLimiter(true, new SteppingClock(Duration.ofMillis(300)), settings(REDIS, prefix))) {
            for (int i = 0; i < 10; i++) {
                RateLimiter.Decision d = limiter.tryAcquire("SETTINGS", "1", 20);
                assertThat(d.alone()).as("attempt %d decided without Redis", i).isFalse();
            }
            assertThat(limiter.unavailableAllowed() + limiter.unavailableRejected()).isZero();
            assertThat(limiter.redisUp()).isEqualTo(1);
        } finally {
            deletePrefix(prefix);
        }
    }

    /** Redis unreachable: each of two nodes grants its half of each quota in every window, no more (D124). */
    @Test
    void withRedisUnreachableEachNodeGrantsItsShare() throws IOException {
        String closed = "redis://127.0.0.1:" + closedPort();
        MutableClock clock = new MutableClock(1_700_000_000_000L);
        try (RateLimiter a = new RateLimiter(true, clock, settings(closed, "tas:test:")); RateLimiter b = new RateLimiter(true, clock, settings(closed, "tas:test:"))) {
            assertThat(a.redisUp()).isZero();
            for (int window = 0; window < 3; window++) {
                assertThat(granted(a, "SETTINGS", "7", 20, 15)).as("node a, a 20/s row, window %d", window).isEqualTo(10);
                assertThat(granted(b, "SETTINGS", "7", 20, 15)).as("node b").isEqualTo(10);
                assertThat(granted(a, "SET_LEVERAGE", "7", 5, 5)).as("5/s on two nodes: 2.5/s each, 2 in 0.8 s").isEqualTo(2);
                clock.advance(Duration.ofMillis(1000));
            }
            // A 1/s row: one request every 2 s on each node, so the two together grant 1/s.
            assertThat(granted(a, "SWITCH", "7", 1, 3)).isEqualTo(1);
            clock.advance(Duration.ofMillis(1000));
            assertThat(granted(a, "SWITCH", "7", 1, 3)).isZero();
            clock.advance(Duration.ofMillis(1000));
            assertThat(granted(a, "SWITCH", "7", 1, 3)).isEqualTo(1);
            assertThat(a.tryAcquire("SETTINGS", "8", 20)).as("another subject, its own share").isEqualTo(new RateLimiter.Decision(true, 9, true));
            assertThat(a.unavailableAllowed()).isEqualTo(3 * 12 + 2 + 1);
        }
    }

    private static int granted(RateLimiter limiter, String endpoint, String subject, int perSecond, int attempts) {
        int ok = 0;
        for (int i = 0; i < attempts; i++) {
            RateLimiter.Decision d = limiter.tryAcquire(endpoint, subject, perSecond);
            assertThat(d.alone()).isTrue();
            if (d.allowed()) ok++;
        }
        return ok;
    }

    @Test
    void aShareIsTheQuotaOverTheNodesOnAverage() {
        // quota, nodes -> tokens per window, window (ns): the average is quota / nodes a second
        assertThat(shareOf(20, 2)).isEqualTo("10 per PT1S");
        assertThat(shareOf(1, 2)).isEqualTo("1 per PT2S");
        assertThat(shareOf(5, 2)).isEqualTo("2 per PT0.8S");
        assertThat(shareOf(10, 3)).isEqualTo("3 per PT0.9S");
        assertThat(shareOf(30, 1)).isEqualTo("30 per PT1S");
    }

    private static String shareOf(int quota, int nodes) {
        var limit = RateLimiter.share(quota, nodes).getBandwidths()[0];
        return limit.getCapacity() + " per " + Duration.ofNanos(limit.getRefillPeriodNanos());
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void deletePrefix(String prefix) {
        RedisClient client = RedisClient.create(REDIS);
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            var keys = c.sync().keys(prefix.replace("*", "\\*") + "*");
            if (!keys.isEmpty()) c.sync().del(keys.toArray(String[]::new));
        } finally {
            client.shutdown();
        }
    }
}
