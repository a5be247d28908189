package io.tas.ledger;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger.Change;
import io.tas.ledger.Ledger.Outcome;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.*;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The group-commit queue on its own, over a stand-in for the database transaction: changes waiting together
 * share one transaction, each caller gets its own outcome, and a batch the database rejects is retried change
 * by change. With one writer, what waits while it is busy is exactly one batch, so batch sizes are exact (with
 * two, they may split the waiting changes between them). (LedgerBatchTest runs batches on H2 and PostgreSQL.)
 */
class GroupCommitTest {
    /** Runs "transactions": each change's value is its key count; a change named "bad" fails the whole batch. */
    private final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    private final CountDownLatch gate = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger entered = new java.util.concurrent.atomic.AtomicInteger();
    private final ExecutorService callers = Executors.newFixedThreadPool(32);
    private GroupCommit<Change<?>> commit;

    private List<Outcome<?>> fakeTransaction(List<Change<?>> changes) {
        entered.incrementAndGet();
        try {
            assertThat(gate.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        batchSizes.add(changes.size());
        calls.incrementAndGet();
        if (changes.stream().anyMatch(c -> c.keys().contains(DOWN))) {
            throw new DataAccessException("connection lost", new SQLException("connection lost", "08006"));
        }
        if (changes.stream().anyMatch(c -> c.keys().contains(COMMIT_LOST))) {
            throw new io.tas.store.Database.CommitOutcomeUnknown(new SQLException("the server closed the connection during COMMIT"));
        }
        if (changes.stream().anyMatch(c -> c.keys().contains(NO_CONNECTION))) {
            throw new DataAccessException("pool", new java.sql.SQLTransientConnectionException("Connection is not available, request timed out"));
        }
        // The database rejects these whenever they are in the batch, alone or not.
        if (changes.stream().anyMatch(c -> c.keys().contains(TOO_LONG))) {
            throw new DataAccessException("value too long", new SQLException("value too long for type character varying(128)", "22001"));
        }
        if (changes.stream().anyMatch(c -> c.keys().contains(BROKEN))) throw new IllegalStateException("unexpected");
        if (changes.size() > 1 && changes.stream().anyMatch(c -> c.keys().contains(BAD))) {
            throw new DataAccessException("duplicate key", new SQLException("duplicate key", "23505"));
        }
        List<Outcome<?>> out = new ArrayList<>();
        for (Change<?> c : changes) {
            if (c.keys().contains(BAD)) out.add(new Outcome<>(null, new IllegalStateException("constraint violated")));
            else if (c.keys().contains(POOR)) out.add(new Outcome<>(null, new ApiException(ErrorCode.INSUFFICIENT_BALANCE)));
            else out.add(new Outcome<>(c.keys().size(), null));
        }
        return out;
    }

    private static final LedgerTypes.BalanceKey BAD = new LedgerTypes.BalanceKey(0, LedgerTypes.AccountType.spot, "BAD");
    private static final LedgerTypes.BalanceKey DOWN = new LedgerTypes.BalanceKey(0, LedgerTypes.AccountType.spot, "DOWN");
    private static final LedgerTypes.BalanceKey POOR = new LedgerTypes.BalanceKey(0, LedgerTypes.AccountType.spot, "POOR");
    private static final LedgerTypes.BalanceKey COMMIT_LOST = new LedgerTypes.BalanceKey(0, LedgerTypes.AccountType.spot, "COMMIT");
    private static final LedgerTypes.BalanceKey NO_CONNECTION = new LedgerTypes.BalanceKey(0, LedgerTypes.AccountType.spot, "NOCONN");
    private static final LedgerTypes.BalanceKey TOO_LONG = new LedgerTypes.BalanceKey(0, LedgerTypes.AccountType.spot, "LONG");
    private static final LedgerTypes.BalanceKey BROKEN = new LedgerTypes.BalanceKey(0, LedgerTypes.AccountType.spot, "BROKEN");

    private static Change<Integer> change(int keys) {
        List<LedgerTypes.BalanceKey> k = new ArrayList<>();
        for (int i = 0; i < keys; i++) k.add(new LedgerTypes.BalanceKey(i, LedgerTypes.AccountType.unified, "C" + i));
        return new Change<>(k, rows -> keys);
    }

    private Future<Object> submit(Change<?> c) {
        return callers.submit(() -> commit.submit(c));
    }

    /** One writer, busy with a one-change batch, so that whatever is submitted next waits in the queue. */
    private Future<Object> occupyTheWriter() throws Exception {
        commit = new GroupCommit<>(this::fakeTransaction, 1);
        Future<Object> first = submit(change(1));
        for (int t = 0; t < 1000 && entered.get() < 1; t++) Thread.sleep(5);
        assertThat(entered.get()).as("writer busy").isEqualTo(1);
        return first;
    }

    private void awaitQueued(int n) throws InterruptedException {
        for (int i = 0; i < 1000 && commit.queued() < n; i++) Thread.sleep(5);
        assertThat(commit.queued()).isEqualTo(n);
    }

    @AfterEach
    void stop() {
        gate.countDown();
        callers.shutdownNow();
        if (commit != null) commit.close();
    }

    @Test
    void changesWaitingTogetherShareOneTransactionAndEachGetsItsOwnValue() throws Exception {
        Future<Object> first = occupyTheWriter();
        List<Future<Object>> rest = new ArrayList<>();
        for (int i = 1; i <= 20; i++) rest.add(submit(change(i)));
        awaitQueued(20);
        gate.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        for (int i = 1; i <= 20; i++) assertThat(rest.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo(i);
        assertThat(batchSizes).containsExactly(1, 20);
    }

    @Test
    void changesWithTheSameExclusiveKeyNeverShareABatch() throws Exception {
        // Keyed by key count: changes 1..3 repeat each key three times. One writer, held busy by the first change.
        commit = new GroupCommit<>("keyed", this::fakeTransaction, c -> c.keys().size(), 1);
        Future<Object> first = submit(change(9));
        for (int t = 0; t < 1000 && entered.get() < 1; t++) Thread.sleep(5);
        List<Future<Object>> rest = new ArrayList<>();
        for (int round = 0; round < 3; round++) for (int i = 1; i <= 3; i++) rest.add(submit(change(i)));
        awaitQueued(9);
        gate.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(9);
        for (int j = 0; j < 9; j++) assertThat(rest.get(j).get(10, TimeUnit.SECONDS)).isEqualTo(1 + j % 3);
        // Each later batch takes one change per key, in arrival order: the deferred ones go first next time.
        assertThat(batchSizes).containsExactly(1, 3, 3, 3);
    }

    @Test
    void twoWritersCommitEverythingExactlyOnce() throws Exception {
        commit = new GroupCommit<>(this::fakeTransaction);
        gate.countDown();
        List<Future<Object>> all = new ArrayList<>();
        for (int i = 1; i <= 200; i++) all.add(submit(change(1 + i % 7)));
        for (int i = 1; i <= 200; i++) assertThat(all.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo(1 + i % 7);
        assertThat(batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(200);
    }

    @Test
    void aBatchTheDatabaseRejectsIsRetriedChangeByChange() throws Exception {
        occupyTheWriter();
        List<Future<Object>> good = new ArrayList<>();
        for (int i = 1; i <= 5; i++) good.add(submit(change(i)));
        Future<Object> bad = submit(new Change<>(List.of(BAD), rows -> 0));
        Future<Object> poor = submit(new Change<>(List.of(POOR), rows -> 0));
        awaitQueued(7);
        gate.countDown();
        for (int i = 1; i <= 5; i++) assertThat(good.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo(i);
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        // A rejection reaches its caller as the API error itself, not wrapped.
        assertThatThrownBy(() -> poor.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).error()).isEqualTo(ErrorCode.INSUFFICIENT_BALANCE));
        // The writer's one-change batch, the seven together, then each of the seven alone.
        assertThat(batchSizes).containsExactly(1, 7, 1, 1, 1, 1, 1, 1, 1);
    }

    @Test
    void aDataErrorOrAnUnexpectedFailureOfOneChangeFailsThatChangeAlone() throws Exception {
        occupyTheWriter();
        List<Future<Object>> good = new ArrayList<>();
        for (int i = 1; i <= 5; i++) good.add(submit(change(i)));
        Future<Object> tooLong = submit(new Change<>(List.of(TOO_LONG), rows -> 0));
        Future<Object> broken = submit(new Change<>(List.of(BROKEN), rows -> 0));
        awaitQueued(7);
        gate.countDown();
        for (int i = 1; i <= 5; i++) assertThat(good.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo(i);
        assertThatThrownBy(() -> tooLong.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(DataAccessException.class)
                .hasMessageContaining("value too long");
        assertThatThrownBy(() -> broken.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(IllegalStateException.class)
                .hasMessage("unexpected");
        assertThat(batchSizes).containsExactly(1, 7, 1, 1, 1, 1, 1, 1, 1);
    }

    @Test
    void aBatchNoSingleChangeCouldHaveFailedFailsAtOnceWithoutRetries() throws Exception {
        occupyTheWriter();
        List<Future<Object>> waiting = new ArrayList<>();
        for (int i = 1; i <= 5; i++) waiting.add(submit(change(i)));
        waiting.add(submit(new Change<>(List.of(DOWN), rows -> 0)));
        awaitQueued(6);
        int before = calls.get();
        gate.countDown();
        for (Future<Object> f : waiting) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(DataAccessException.class)
                    .hasMessageContaining("connection lost");
        }
        // The writer's one-change batch, then one attempt for the six: no change-by-change retries
        // (which would make it 1 + 1 + 6) against a database that is gone.
        assertThat(calls.get() - before).isEqualTo(2);
    }

    @Test
    void aBatchWhoseCommitOutcomeIsUnknownIsNeverRetried() throws Exception {
        occupyTheWriter();
        List<Future<Object>> waiting = new ArrayList<>();
        for (int i = 1; i <= 3; i++) waiting.add(submit(change(i)));
        waiting.add(submit(new Change<>(List.of(COMMIT_LOST), rows -> 0)));
        awaitQueued(4);
        int before = calls.get();
        gate.countDown();
        for (Future<Object> f : waiting) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(io.tas.store.Database.CommitOutcomeUnknown.class);
        }
        // It may have committed: retrying each change alone could apply it twice.
        assertThat(calls.get() - before).isEqualTo(2);
    }

    @Test
    void aPoolThatHasNoConnectionFailsTheBatchAtOnceToo() throws Exception {
        occupyTheWriter();
        List<Future<Object>> waiting = new ArrayList<>();
        for (int i = 1; i <= 3; i++) waiting.add(submit(change(i)));
        waiting.add(submit(new Change<>(List.of(NO_CONNECTION), rows -> 0)));
        awaitQueued(4);
        int before = calls.get();
        gate.countDown();
        for (Future<Object> f : waiting) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(DataAccessException.class);
        }
        assertThat(calls.get() - before).isEqualTo(2);
    }

    @Test
    void afterCloseNothingIsAccepted() throws Exception {
        commit = new GroupCommit<>(this::fakeTransaction);
        gate.countDown();
        assertThat(commit.<Integer>submit(change(3))).isEqualTo(3);
        commit.close();
        assertThatThrownBy(() -> commit.submit(change(1))).isInstanceOf(IllegalStateException.class);
    }
}
