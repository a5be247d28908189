package io.tas.common;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** D111: a cache's upkeep runs on the thread that touched it, never handed to a pool thread. */
class CachesTest {
    @Test
    void removalNoticesRunOnTheCallingThread() {
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        Cache<Long, String> cache = Caches.upkeepOnCaller()
                .removalListener((Long k, String v, RemovalCause c) -> ranOn.add(Thread.currentThread()))
                .build();
        cache.put(1L, "a");
        cache.invalidate(1L);
        // Done by the time invalidate returns, and by this thread: Caffeine's default hands it to ForkJoinPool.commonPool().
        assertThat(ranOn).containsExactly(Thread.currentThread());
    }

    @Test
    void expiredEntriesAreGoneWhenTheNextWriteReturns() {
        AtomicLong nanos = new AtomicLong();
        Cache<Long, String> cache = Caches.upkeepOnCaller().ticker(nanos::get)
                .expireAfterAccess(1, TimeUnit.SECONDS).build();
        for (long k = 0; k < 100; k++) cache.put(k, "v");
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(2));
        cache.put(1_000L, "fresh"); // a write drains at once, on this thread
        // estimatedSize counts entries not yet evicted (the map's views hide expired ones either way).
        assertThat(cache.estimatedSize()).isEqualTo(1);
        assertThat(cache.asMap().keySet()).containsExactly(1_000L);
    }

    @Test
    void theDefaultBuilderWouldHandUpkeepToAnotherThread() throws InterruptedException {
        // The control: the same removal notice from Caffeine's own default runs elsewhere, which is what D111 removes.
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        Cache<Long, String> cache = Caffeine.newBuilder()
                .removalListener((Long k, String v, RemovalCause c) -> ranOn.add(Thread.currentThread()))
                .build();
        cache.put(1L, "a");
        cache.invalidate(1L);
        for (int i = 0; i < 200 && ranOn.isEmpty(); i++) Thread.sleep(10);
        assertThat(ranOn).hasSize(1).doesNotContain(Thread.currentThread());
    }
}
