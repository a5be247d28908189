package io.tas.ledger;

import io.tas.ledger.Ledger.Outcome;
import org.jooq.exception.DataAccessException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Group commit (DESIGN: Ledger; docs/decisions.md D26). Changes submitted outside a transaction queue up; a
 * writer takes every change waiting (at most MAX_BATCH), runs them in one database transaction and answers
 * each only after the commit. A commit costs one WAL flush and a handful of round trips whatever the batch
 * holds, so concurrent changes share that cost instead of each paying it. Each change is still its own
 * balanced ledger transaction, decided on the rows as the changes before it in the batch left them.
 * One change never fails another: a change whose own code throws fails alone inside the batch, and when the
 * database rejects a batch (one change's value too long for its column, a constraint, a deadlock, anything)
 * every change in it is retried alone. Only a lost connection, or a COMMIT that failed, fails the whole batch at
 * once: its outcome is unknown, and retrying would risk applying a committed change twice.
 */
public final class GroupCommit<C> implements AutoCloseable {
    static final int MAX_BATCH = 128;
    /** Two writers: one prepares a batch while the other waits for its commit to be flushed. Each has its own connection. */
    static final int WRITERS = io.tas.store.Database.LEDGER_WRITERS;

    private record Pending<C, T>(C change, CompletableFuture<T> done) {}

    private final String name;
    private final Function<List<C>, List<Outcome<?>>> runTogether;
    private final Function<C, Object> exclusiveKey;
    private final BlockingQueue<Pending<C, ?>> queue = new LinkedBlockingQueue<>();
    private final List<Thread> writers = new ArrayList<>();
    private volatile boolean closed;
    /** Batch sizes, once bindTo gave a registry (null until then: no metrics, no cost). */
    private volatile io.micrometer.core.instrument.DistributionSummary batchSizes;
    /** An idle writer wakes this often to notice close(); a queued change wakes it at once. */
    private static final long IDLE_POLL_MS = 50;
    /** How long close() lets the writers commit what is queued. */
    static final long DRAIN_MS = 10_000;

    /** runTogether runs changes in one database transaction and returns their outcomes after its commit. */
    GroupCommit(Function<List<C>, List<Outcome<?>>> runTogether) {
        this("ledger-writer", runTogether, c -> null, WRITERS);
    }

    /** With a given number of writers (tests use one, so that what waits together is exactly one batch). */
    GroupCommit(Function<List<C>, List<Outcome<?>>> runTogether, int writerCount) {
        this("ledger-writer", runTogether, c -> null, writerCount);
    }

    /**
     * A group commit of other changes than the ledger's. Two changes with the same non-null exclusiveKey never share
     * a batch (the later one waits for the next): for changes decided on state their batch loads once, such as an
     * account's settings, each decision then sees the state the previous batches committed.
     */
    public GroupCommit(String name, Function<List<C>, List<Outcome<?>>> runTogether, Function<C, Object> exclusiveKey, int writerCount) {
        this.name = name;
        this.runTogether = runTogether;
        this.exclusiveKey = exclusiveKey;
        for (int i = 0; i < writerCount; i++) {
            int number = i + 1;
            writers.add(Thread.ofPlatform().daemon().name(name + "-" + i).start(() -> writeLoop(number)));
        }
    }

    /** Queues the change and waits for its outcome: its value after the commit, or what rejected it. */
    public <T> T submit(C change) {
        if (closed) throw new IllegalStateException(name + " is shut down");
        Pending<C, T> p = new Pending<>(change, new CompletableFuture<>());
        queue.add(p);
        // Closed between the check and the add: the writers may be gone already. Take back only this change (what was
        // queued before close() is theirs to commit); if a writer took it first, it commits it.
        if (closed && queue.remove(p)) p.done().completeExceptionally(new IllegalStateException(name + " is shut down"));
        try {
            return p.done().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /** Changes waiting for a writer (for tests). */
    int queued() { return queue.size(); }

    /**
     * Publishes this group commit's queue depth (tas_group_commit_queue_depth) and the size of each batch its writers
     * commit (tas_group_commit_batch_size), tagged group=name. Optional: without it nothing is measured, and what the
     * group commit does is the same either way.
     */
    public void bindTo(io.micrometer.core.instrument.MeterRegistry registry) {
        io.micrometer.core.instrument.Gauge.builder("tas_group_commit_queue_depth", queue, BlockingQueue::size)
                .tag("group", name).description("changes waiting for a group-commit writer").register(registry);
        batchSizes = io.micrometer.core.instrument.DistributionSummary.builder("tas_group_commit_batch_size")
                .tag("group", name).description("changes committed together in one group-commit batch")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, MAX_BATCH).register(registry);
    }

    /** The number of the group-commit writer running on this thread (from 1), 0 on any other thread. */
    private static final ThreadLocal<Integer> WRITER_NUMBER = ThreadLocal.withInitial(() -> 0);

    /**
     * Which writer runs the caller, 1 to its group's writer count, or 0 off the writers' threads: a row that every batch
     * updates can be kept per writer, so that the writers do not wait for each other's commits on it (the candles, D221).
     */
    public static int writerNumber() { return WRITER_NUMBER.get(); }

    private void writeLoop(int number) {
        WRITER_NUMBER.set(number);
        List<Pending<C, ?>> batch = new ArrayList<>(MAX_BATCH);
        List<Pending<C, ?>> deferred = new ArrayList<>();
        while (true) {
            if (deferred.isEmpty()) {
                Pending<C, ?> next;
                try {
                    next = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    break;
                }
                if (next == null) {
                    if (closed) break; // closed and drained: what was queued before close() is committed
                    continue;
                }
                batch.add(next);
            }
            // Deferred changes go first: they arrived before anything still queued.
            List<Pending<C, ?>> candidates = new ArrayList<>(deferred);
            deferred.clear();
            candidates.addAll(batch);
            batch.clear();
            queue.drainTo(candidates, Math.max(0, MAX_BATCH - candidates.size()));
            java.util.Set<Object> claimed = new java.util.HashSet<>();
            for (Pending<C, ?> p : candidates) {
                Object key = exclusiveKey.apply(p.change());
                if (key == null || claimed.add(key)) batch.add(p);
                else deferred.add(p);
            }
            io.micrometer.core.instrument.DistributionSummary sizes = batchSizes;
            if (sizes != null) sizes.record(batch.size());
            write(batch);
            batch.clear();
        }
        deferred.forEach(p -> p.done().completeExceptionally(new IllegalStateException(name + " is shut down")));
        failQueued();
    }

    /** Runs the changes as one batch on the calling thread, with the same isolation; for tests. */
    List<CompletableFuture<?>> writeNow(List<C> changes) {
        List<Pending<C, ?>> batch = new ArrayList<>();
        for (C c : changes) batch.add(new Pending<>(c, new CompletableFuture<>()));
        write(batch);
        return batch.stream().<CompletableFuture<?>>map(Pending::done).toList();
    }

    /** Writes the batch and answers each change; returns the failure when the database went away, else null. */
    private Throwable write(List<Pending<C, ?>> batch) {
        List<Outcome<?>> outcomes;
        try {
            List<C> changes = batch.stream().map(Pending::change).toList();
            outcomes = runTogether.apply(changes);
        } catch (Throwable e) {
            Throwable lost = connectionLost(e) ? e : null;
            if (batch.size() > 1 && lost == null) {
                for (Pending<C, ?> p : batch) {
                    // Once the database is gone, the changes not yet retried fail at once instead of one slow attempt each.
                    if (lost != null) p.done().completeExceptionally(lost);
                    else lost = write(new ArrayList<>(List.of(p)));
                }
            } else {
                for (Pending<C, ?> p : batch) p.done().completeExceptionally(e);
            }
            return lost;
        }
        for (int i = 0; i < batch.size(); i++) complete(batch.get(i), outcomes.get(i));
        return null;
    }

    /**
     * The database went away, or the batch's COMMIT failed: no one change caused it, every retry would fail the same
     * slow way, and the batch may or may not have committed, so a retry could apply it twice. Lost: SQL state class 08
     * (connection), 53 (out of resources), 57 (operator intervention), H2's 90067 / 90098 / 90121 (connection broken,
     * database closed), a connection that could not be had or was closed.
     */
    public static boolean connectionLost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.tas.store.Database.CommitOutcomeUnknown) return true;
            if (t instanceof java.sql.SQLTransientConnectionException || t instanceof java.sql.SQLNonTransientConnectionException) return true;
            String state = t instanceof java.sql.SQLException s ? s.getSQLState()
                    : t instanceof DataAccessException d ? d.sqlState() : null;
            if (state != null && (state.startsWith("08") || state.startsWith("53") || state.startsWith("57")
                    || state.equals("90067") || state.equals("90098") || state.equals("90121"))) return true;
            if (t.getCause() == t) break;
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static <C, T> void complete(Pending<C, T> p, Outcome<?> outcome) {
        if (outcome.failure() != null) p.done().completeExceptionally(outcome.failure());
        else p.done().complete((T) outcome.value());
    }

    private void failQueued() {
        for (Pending<C, ?> p; (p = queue.poll()) != null; ) p.done().completeExceptionally(new IllegalStateException(name + " is shut down"));
    }

    /**
     * Graceful stop (issue 11, SIGTERM): no new changes; the writers commit what is already queued, for at most
     * DRAIN_MS, and only then are interrupted; anything still queued fails (its caller gets an error, never silence).
     */
    @Override
    public void close() {
        closed = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
        for (Thread w : writers) {
            try {
                w.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        writers.forEach(Thread::interrupt);
        failQueued();
    }
}
