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
    void removalNoticesRunOnTheCallingThread() throws InterruptedException {
        // Done by the time invalidate returns, and by this thread.
        assertThat(threadsOfOneRemovalNotice(Caches.upkeepOnCaller(), false)).containsExactly(Thread.currentThread());
    }

    @Test
    void theDefaultBuilderWouldHandUpkeepToAnotherThread() throws InterruptedException {
        // The control: Caffeine's own default runs the same notice on ForkJoinPool.commonPool(), which D111 removes.
        assertThat(threadsOfOneRemovalNotice(Caffeine.newBuilder(), true)).hasSize(1).doesNotContain(Thread.currentThread());
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

    /** The threads that ran the removal notice of one invalidated entry; waits up to 2 s for one when asked. */
    private static List<Thread> threadsOfOneRemovalNotice(Caffeine<Object, Object> builder, boolean wait) throws InterruptedException {
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        // Bounded, as every cache of the service is: its upkeep is what D111 moves onto the caller.
        Cache<Long, String> cache = builder.maximumSize(10)
                .removalListener((Long k, String v, RemovalCause c) -> ranOn.add(Thread.currentThread())).build();
        cache.put(1L, "a");
        cache.invalidate(1L);
        for (int i = 0; wait && i < 200 && ranOn.isEmpty(); i++) Thread.sleep(10);
        return ranOn;
    }
}
