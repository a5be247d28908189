package io.tas.auth;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The access keys that can sign requests (created, not revoked), held in memory so that a request with any
 * other key is refused without a database query. A per-key negative cache cannot do that: ten thousand
 * distinct random keys are ten thousand misses. The index may hold a key that does not exist (a create that
 * rolled back): that costs one query and still answers 40006. It must never miss a live key, so a reload keeps
 * the keys added while it read the table.
 */
final class KeyIndex {
    private final ReentrantLock reloading = new ReentrantLock();
    // null: not loaded (or the last load failed), so any key may be live and the database decides.
    private volatile Set<String> live;
    // Changes made while a reload reads the table, applied over what it read; guarded by this.
    private Set<String> added;
    private Set<String> removed;

    boolean loaded() { return live != null; }

    /** False only when the key is certainly not live. */
    boolean mayBeLive(String accessKey) {
        Set<String> s = live;
        return s == null || s.contains(accessKey);
    }

    /** Replaces the index with what load reads; on failure the index is unloaded and the exception rethrown. */
    void reload(Supplier<Collection<String>> load) {
        reloading.lock();
        try {
            synchronized (this) {
                added = new HashSet<>();
                removed = new HashSet<>();
            }
            Set<String> fresh = ConcurrentHashMap.newKeySet();
            try {
                fresh.addAll(load.get());
            } catch (RuntimeException e) {
                synchronized (this) {
                    live = null;
                    added = removed = null;
                }
                throw e;
            }
            synchronized (this) {
                fresh.removeAll(removed);
                fresh.addAll(added);
                live = fresh;
                added = removed = null;
            }
        } finally {
            reloading.unlock();
        }
    }

    synchronized void add(String accessKey) {
        if (live != null) live.add(accessKey);
        if (added != null) {
            added.add(accessKey);
            removed.remove(accessKey);
        }
    }

    synchronized void remove(String accessKey) {
        if (live != null) live.remove(accessKey);
        if (removed != null) {
            removed.add(accessKey);
            added.remove(accessKey);
        }
    }

    int size() {
        Set<String> s = live;
        return s == null ? -1 : s.size();
    }
}
