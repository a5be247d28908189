package io.tas.ledger;

import io.tas.ledger.Ledger.Change;
import io.tas.ledger.Ledger.Outcome;
import org.jooq.exception.DataAccessException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * Group commit (DESIGN: Ledger; docs/decisions.md D26). Changes submitted outside a transaction queue up; a
 * writer takes every change waiting (at most MAX_BATCH), runs them in one database transaction and answers
 * each only after the commit. A commit costs one WAL flush and a handful of round trips whatever the batch
 * holds, so concurrent changes share that cost instead of each paying it. Each change is still its own
 * balanced ledger transaction, decided on the rows as the changes before it in the batch left them. When the
 * database rejects a batch for a reason one change may have caused, every change in it is retried alone, so one
 * failing change cannot fail the rest. A change whose own code throws fails alone without failing the batch.
 */
final class GroupCommit implements AutoCloseable {
    static final int MAX_BATCH = 128;
    /** Two writers: one prepares a batch while the other waits for its commit to be flushed. */
    static final int WRITERS = 2;

    private record Pending<T>(Change<T> change, CompletableFuture<T> done) {}

    private final Function<List<Change<?>>, List<Outcome<?>>> runTogether;
    private final BlockingQueue<Pending<?>> queue = new LinkedBlockingQueue<>();
    private final List<Thread> writers = new ArrayList<>();
    private volatile boolean closed;

    /** runTogether runs changes in one database transaction and returns their outcomes after its commit. */
    GroupCommit(Function<List<Change<?>>, List<Outcome<?>>> runTogether) {
        this.runTogether = runTogether;
        for (int i = 0; i < WRITERS; i++) {
            writers.add(Thread.ofPlatform().daemon().name("ledger-writer-" + i).start(this::writeLoop));
        }
    }

    /** Queues the change and waits for its outcome: its value after the commit, or what rejected it. */
    <T> T submit(Change<T> change) {
        if (closed) throw new IllegalStateException("the ledger is shut down");
        Pending<T> p = new Pending<>(change, new CompletableFuture<>());
        queue.add(p);
        if (closed) failQueued(); // closed between the check and the add: the writers may be gone already
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

    private void writeLoop() {
        List<Pending<?>> batch = new ArrayList<>(MAX_BATCH);
        while (!closed) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                break;
            }
            queue.drainTo(batch, MAX_BATCH - 1);
            write(batch);
            batch.clear();
        }
        failQueued();
    }

    private void write(List<Pending<?>> batch) {
        List<Outcome<?>> outcomes;
        try {
            List<Change<?>> changes = batch.stream().<Change<?>>map(Pending::change).toList();
            outcomes = runTogether.apply(changes);
        } catch (Throwable e) {
            if (batch.size() > 1 && oneChangeMayBeTheCause(e)) {
                for (Pending<?> p : batch) write(new ArrayList<>(List.of(p)));
            } else {
                for (Pending<?> p : batch) p.done().completeExceptionally(e);
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) complete(batch.get(i), outcomes.get(i));
    }

    /**
     * A constraint violation (one change's duplicate reference, say) or a deadlock may be one change's doing, so
     * the batch is retried change by change. Anything else (the database unreachable, a lock timeout) would fail
     * each retry the same way, one slow attempt after another, so it fails the whole batch at once.
     */
    private static boolean oneChangeMayBeTheCause(Throwable e) {
        if (!(e instanceof DataAccessException d)) return false;
        String state = d.sqlState();
        return state != null && (state.startsWith("23") || state.startsWith("40"));
    }

    @SuppressWarnings("unchecked")
    private static <T> void complete(Pending<T> p, Outcome<?> outcome) {
        if (outcome.failure() != null) p.done().completeExceptionally(outcome.failure());
        else p.done().complete((T) outcome.value());
    }

    private void failQueued() {
        for (Pending<?> p; (p = queue.poll()) != null; ) p.done().completeExceptionally(new IllegalStateException("the ledger is shut down"));
    }

    @Override
    public void close() {
        closed = true;
        writers.forEach(Thread::interrupt);
        failQueued();
    }
}
