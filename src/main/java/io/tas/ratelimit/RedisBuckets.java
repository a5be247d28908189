package io.tas.ratelimit;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import com.github.benmanes.caffeine.cache.Cache;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.proxy.RemoteBucketBuilder;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.tas.common.Caches;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * §8 buckets shared by every node through Bucket4j's own Redis proxy manager over Lettuce (compare-and-swap in a Lua
 * script, so two nodes never both take the last token). Keys are the prefix plus "endpoint|subject" and expire in Redis
 * (ExpirationAfterWriteStrategy, as in this process). Time is the service clock of each node (a client-side clock):
 * nodes' clocks must agree, as they must for signatures anyway.
 *
 * The timeout bounds each Redis command from the moment it is handed to Lettuce to its reply (Lettuce's TimeoutOptions,
 * on the machine's clock), never the time a request spent before it (D123). Bucket4j's own requestTimeout is not used:
 * it is one budget for the whole compare-and-swap loop, read on the service clock, so a burst on one bucket (retries
 * under contention, requests waiting for a core) spent it before the command was sent, and a healthy Redis counted as
 * down. Concurrent requests of this node for one bucket are merged into one command (Bucket4j's batching
 * optimization), so a burst costs a few round trips, not one compare-and-swap retry per request.
 *
 * Redis down or slower than the timeout: {@link #tryConsume} answers null at once (commands are rejected while
 * disconnected, and time out after the timeout otherwise) and the caller falls back to its own share (D124). Lettuce
 * reconnects a lost connection by itself; a connection that was never made is retried in the background, at most once
 * a second. Each transition between up and down is logged once, naming the host and port (never a password).
 */
final class RedisBuckets implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisBuckets.class);
    private static final Duration RECONNECT_EVERY = Duration.ofSeconds(1);
    private static final Duration FIRST_CONNECT_WAIT = Duration.ofSeconds(2);

    /** A connection, with the bucket proxies of the keys in use: one per key, so that its requests can be batched. */
    private record Connected(StatefulRedisConnection<String, byte[]> connection, RemoteBucketBuilder<String> builder,
                             Cache<String, BucketProxy> proxies) {}

    // A proxy holds no bucket state (that is in Redis), only the batch in flight: dropping an idle one costs nothing.
    private static final Duration PROXY_IDLE = Duration.ofSeconds(10);
    private static final long MAX_PROXIES = 100_000;

    private final ClientResources resources;
    private final RedisClient client;
    private final RedisURI uri;
    private final String where;
    private final String prefix;
    private final TimeMeter clock;
    private final ExpirationAfterWriteStrategy expiry;
    private final AtomicReference<Connected> connected = new AtomicReference<>();
    private final AtomicBoolean connecting = new AtomicBoolean();
    private volatile long nextConnectNanos;
    private volatile boolean closed;
    /** The last known state; starts up, so that a Redis that is down from the start is logged once as down. */
    private final AtomicBoolean up = new AtomicBoolean(true);

    RedisBuckets(String url, String prefix, Duration timeout, TimeMeter clock, ExpirationAfterWriteStrategy expiry) {
        this.uri = RedisURI.create(url);
        // The connection handshake (HELLO) waits up to the URI's timeout: at 200 ms a node starting cold on a busy box
        // found a healthy Redis "down" (seen in SharedLimitsTest). Commands are bounded by TimeoutOptions below.
        uri.setTimeout(FIRST_CONNECT_WAIT);
        this.where = uri.getHost() + ":" + uri.getPort(); // the URL may hold a password: never logged
        this.prefix = prefix;
        this.clock = clock;
        this.expiry = expiry;
        // Lettuce's default reconnect delay grows to 30 s: capped at 1 s, the limits come back within about a second of Redis.
        this.resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
                .build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // While disconnected a command fails at once instead of waiting in a queue: a dead Redis stalls nothing.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                .build());
        connect().join(); // a Redis that is up serves the first request; one that is down does not stop the start
        log.info("rate limits (§8) shared through Redis at {} under key prefix '{}'", where, prefix);
        if (connected.get() == null) down(null); // logged now, not at the first request
    }

    /** The bucket's answer, or null when Redis cannot give one within the timeout. */
    ConsumptionProbe tryConsume(String key, Supplier<BucketConfiguration> configuration) {
        Connected c = connected.get();
        if (c == null) {
            if (System.nanoTime() - nextConnectNanos >= 0) connect(); // in the background; this request does not wait
            down(null);
            return null;
        }
        try {
            BucketProxy bucket = c.proxies().get(prefix + key, k -> c.builder().build(k, configuration));
            ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
            if (up.compareAndSet(false, true)) log.info("Redis at {} answers again: rate limits (§8) are shared again", where);
            return probe;
        } catch (RuntimeException e) {
            down(e);
            return null;
        }
    }

    boolean isUp() { return up.get() && connected.get() != null; }

    /**
     * Readiness (D84): asks Redis now (PING, within the command timeout) instead of reading the state the last request
     * left, and starts a reconnect when there is no connection, so a node without traffic still finds Redis back.
     */
    boolean ping() {
        Connected c = connected.get();
        if (c == null) {
            if (System.nanoTime() - nextConnectNanos >= 0) connect();
            down(null);
            return false;
        }
        try {
            c.connection().sync().ping();
            if (up.compareAndSet(false, true)) log.info("Redis at {} answers again: rate limits (§8) are shared again", where);
            return true;
        } catch (RuntimeException e) {
            down(e);
            return false;
        }
    }

    private void down(RuntimeException e) {
        if (up.compareAndSet(true, false)) {
            log.warn("Redis at {} does not answer ({}): each node limits to its share of the §8 quotas (D124) until it does",
                    where, e == null ? "not connected" : e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** Starts one connection attempt unless one runs; completes (never exceptionally) when it ends. */
    private java.util.concurrent.CompletableFuture<Void> connect() {
        if (closed || !connecting.compareAndSet(false, true)) return java.util.concurrent.CompletableFuture.completedFuture(null);
        nextConnectNanos = System.nanoTime() + RECONNECT_EVERY.toNanos();
        return client.connectAsync(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE), uri).toCompletableFuture()
                .orTimeout(FIRST_CONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                .handle((connection, failure) -> {
                    try {
                        if (connection == null) return null;
                        if (closed) {
                            connection.close();
                            return null;
                        }
                        // No requestTimeout: the client's TimeoutOptions bound each command (see the class comment).
                        connected.set(new Connected(connection, Bucket4jLettuce.casBasedBuilder(connection)
                                .clientClock(clock)
                                .expirationAfterWrite(expiry)
                                .build()
                                .builder()
                                .withOptimization(Optimizations.batching()),
                                Caches.upkeepOnCaller().expireAfterAccess(PROXY_IDLE).maximumSize(MAX_PROXIES).build()));
                        return null;
                    } finally {
                        connecting.set(false);
                    }
                });
    }

    /** Deletes this deployment's buckets (sandbox reset): the keys under the prefix only, never the whole Redis. */
    void clear() {
        Connected c = connected.get();
        if (c == null) return;
        try {
            var redis = c.connection().sync();
            ScanArgs match = ScanArgs.Builder.matches(globEscaped(prefix) + "*").limit(1000);
            KeyScanCursor<String> cursor = redis.scan(match);
            while (true) {
                if (!cursor.getKeys().isEmpty()) redis.del(cursor.getKeys().toArray(String[]::new));
                if (cursor.isFinished()) break;
                cursor = redis.scan(ScanCursor.of(cursor.getCursor()), match);
            }
        } catch (RuntimeException e) {
            down(e); // a reset with Redis down leaves the buckets to expire
        }
    }

    private static String globEscaped(String s) { return s.replaceAll("([\\\\*?\\[\\]])", "\\\\$1"); }

    @Override
    public void close() {
        closed = true;
        Connected c = connected.getAndSet(null);
        if (c != null) c.connection().close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
