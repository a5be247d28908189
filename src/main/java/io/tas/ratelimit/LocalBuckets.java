package io.tas.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AbstractProxyManager;
import io.github.bucket4j.distributed.proxy.ClientSideConfig;
import io.github.bucket4j.distributed.remote.CommandResult;
import io.github.bucket4j.distributed.remote.MutableBucketEntry;
import io.github.bucket4j.distributed.remote.RemoteBucketState;
import io.github.bucket4j.distributed.remote.Request;
import io.tas.common.Caches;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Bucket4j's ProxyManager over a Caffeine cache in this process. A bucket's state is kept as long as the
 * request's expiration strategy says (until it is full again, plus a margin) and then dropped: a dropped bucket
 * and a full one answer alike, so expiry never changes a limit, and idle subjects cost no memory. The size cap
 * is a last resort against floods of new subjects; Caffeine then evicts the least used first, which can hand a
 * caller whose bucket was not full a fresh window early (D40). Time, for refills
 * and expiry both, is the client clock of the config (the service clock). A Redis-backed ProxyManager
 * (bucket4j_jdk17-lettuce) takes this class's place for limits shared across nodes.
 */
final class LocalBuckets extends AbstractProxyManager<String> {
    /** A state with the time it may live from its last write. */
    private record Held(RemoteBucketState state, Duration ttl) {}

    private static final Duration FOREVER = Duration.ofDays(365 * 100);
    private final Cache<String, Held> cache;

    LocalBuckets(ClientSideConfig config, long maxBuckets) {
        super(config);
        this.cache = Caches.upkeepOnCaller()
                .ticker(this::currentTimeNanos)
                .maximumSize(maxBuckets)
                .expireAfter(Expiry.writing((String key, Held held) -> held.ttl()))
                .build();
    }

    @Override
    protected <T> CommandResult<T> execute(String key, Request<T> request) {
        @SuppressWarnings("unchecked") CommandResult<T>[] result = new CommandResult[1];
        cache.asMap().compute(key, (k, held) -> {
            long now = request.getClientSideTime() != null ? request.getClientSideTime() : currentTimeNanos();
            MutableBucketEntry entry = new MutableBucketEntry(held == null ? null : held.state().copy());
            result[0] = request.getCommand().execute(entry, now);
            if (!entry.exists()) return null;
            if (!entry.isStateModified() && held != null) return held;
            ExpirationAfterWriteStrategy expiry = request.getExpirationStrategy();
            long ttlMillis = expiry == null ? -1 : expiry.calculateTimeToLiveMillis(entry.get(), now);
            return new Held(entry.get(), ttlMillis > 0 ? Duration.ofMillis(ttlMillis) : FOREVER); // -1: no expiry
        });
        return result[0];
    }

    @Override
    protected <T> CompletableFuture<CommandResult<T>> executeAsync(String key, Request<T> request) {
        return CompletableFuture.completedFuture(execute(key, request));
    }

    @Override
    protected CompletableFuture<Void> removeAsync(String key) {
        removeProxy(key);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void removeProxy(String key) { cache.invalidate(key); }

    @Override
    public boolean isAsyncModeSupported() { return false; }

    @Override
    public boolean isExpireAfterWriteSupported() { return true; }

    /** The service clock as Bucket4j's time: buckets refill (and expire) on it, so tests move them without sleeping. */
    static TimeMeter timeOf(java.time.Clock clock) {
        return new TimeMeter() {
            @Override public long currentTimeNanos() { return clock.millis() * 1_000_000L; }
            @Override public boolean isWallClockBased() { return true; }
        };
    }

    void clear() { cache.invalidateAll(); }

    /** The tokens of a bucket now, read without creating or changing it; -1 when there is none (a new one is full). */
    long availableTokens(String key) {
        Held held = cache.getIfPresent(key);
        if (held == null) return -1;
        RemoteBucketState state = held.state().copy();
        state.refillAllBandwidth(currentTimeNanos());
        return state.getAvailableTokens();
    }

    /** Buckets held now. Caffeine drops expired entries in rounds of bounded work, so this runs rounds until none is left. */
    long size() {
        long before;
        do {
            before = cache.estimatedSize();
            cache.cleanUp();
        } while (cache.estimatedSize() < before);
        return cache.estimatedSize();
    }
}
