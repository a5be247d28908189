package io.tas.ledger;

import io.tas.App;
import io.tas.admin.SeedFile;
import io.tas.config.Config;
import io.tas.error.ApiException;
import io.tas.ledger.Ledger.Change;
import io.tas.ledger.LedgerTypes.*;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.*;

import static io.tas.ledger.Ledger.move;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One change never fails another (issue 7, item 1): within one group-commit batch a change that the database
 * rejects with a data error (class 22: a ref longer than its column), a change whose code throws something
 * unexpected (a checked exception) and a change that tries SQL inside its decision each fail alone; every other
 * change is acknowledged and is there after a restart. On H2 and PostgreSQL.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class LedgerIsolationTest {
    private static final long SUB = 1000000002L; // demo sub-account: 800 USDT
    private static final BalanceKey SUB_USDT = new BalanceKey(SUB, AccountType.unified, "USDT");
    @Parameter Databases.Kind kind;

    private Config config(Databases.TestDb db) {
        return Config.fromEnv(Map.of()).withPort(0).withAdminPort(0).withDb(db.url(), db.user(), "")
                .withAdminToken(TestServer.ADMIN_TOKEN).withSandbox(true).withRateLimits(false);
    }

    /** A ledger transaction under its own ref: +1 USDT to the demo sub-account. */
    private static Change<Long> credit(String ref) {
        return new Change<>(List.of(SUB_USDT), rows -> rows.post("adjustment", ref, SUB,
                List.of(move(SUB_USDT, Field.available, BigDecimal.ONE, Counter.adjustment))));
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E { throw (E) t; }

    /** The 64 changes: 62 good credits, one too long for its column, one that throws a checked exception. */
    private static List<Change<?>> batchOf64(String prefix) {
        List<Change<?>> changes = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            if (i == 17) changes.add(credit("x".repeat(200))); // class 22 when written: ledger_tx.ref is varchar(128)
            else if (i == 41) changes.add(new Change<>(List.of(SUB_USDT), rows -> { throw sneaky(new java.io.IOException("unexpected")); }));
            else changes.add(credit(prefix + i));
        }
        return changes;
    }

    private static void assertOnlyTheTwoBadOnesFailed(List<? extends Future<?>> outcomes) throws Exception {
        for (int i = 0; i < outcomes.size(); i++) {
            Future<?> f = outcomes.get(i);
            if (i == 17) {
                // The database's own class-22 answer (PostgreSQL and H2 both say 22001: value too long), for this change alone.
                assertThat(rootCause(catchFailure(f))).as("change " + i).isInstanceOf(java.sql.SQLException.class)
                        .satisfies(e -> assertThat(((java.sql.SQLException) e).getSQLState()).isEqualTo("22001"));
            } else if (i == 41) {
                assertThat(rootCause(catchFailure(f))).as("change " + i).isInstanceOf(java.io.IOException.class).hasMessage("unexpected");
            } else {
                assertThat(catchFailure(f)).as("change " + i).isNull();
                assertThat(f.get()).as("change " + i + " acknowledged with its transaction id").isNotNull();
            }
        }
    }

    private static Throwable rootCause(Throwable t) {
        assertThat(t).isNotNull();
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t;
    }

    private static Throwable catchFailure(Future<?> f) throws InterruptedException {
        try {
            f.get(60, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("change not answered", e);
        }
    }

    /** Starts on the database, runs `work` against the ledger, restarts, and checks the 62 are there. */
    private void runAndRestart(String prefix, java.util.function.Function<Ledger, List<? extends Future<?>>> work) throws Exception {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (Databases.TestDb db = Databases.create(kind)) {
            SeedFile demo = SeedFile.load("demo");
            try (App app = App.start(config(db), clock, a -> a.seeds().apply(demo))) {
                assertOnlyTheTwoBadOnesFailed(work.apply(app.services().ledger()));
            }
            try (App again = App.start(config(db), clock)) {
                Ledger ledger = again.services().ledger();
                assertThat(ledger.balance(SUB_USDT).available()).isEqualByComparingTo("862"); // 800 + 62
                for (int i = 0; i < 64; i++) {
                    if (i == 17 || i == 41) continue;
                    Ledger.Posted repeat = ledger.postOnce("adjustment", prefix + i, SUB,
                            List.of(move(SUB_USDT, Field.available, BigDecimal.ONE, Counter.adjustment)));
                    assertThat(repeat.repeated()).as(prefix + i + " present after restart").isTrue();
                }
                assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();
            }
        }
    }

    @Test
    void inOneBatchOnlyTheDataErrorAndTheUnexpectedExceptionFail() throws Exception {
        runAndRestart("one-batch-", ledger -> ledger.submitAsOneBatch(batchOf64("one-batch-")));
    }

    @Test
    void sixtyFourConcurrentSubmittersOnlyTheTwoBadOnesFail() throws Exception {
        runAndRestart("concurrent-", ledger -> {
            ExecutorService pool = Executors.newFixedThreadPool(64);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Object>> out = new ArrayList<>();
            for (Change<?> c : batchOf64("concurrent-")) {
                out.add(pool.submit(() -> {
                    start.await();
                    return ledger.submit(c.keys(), c.work()::apply);
                }));
            }
            start.countDown();
            pool.shutdown();
            return out;
        });
    }

    /** The demo scenario on a database of this test's own. */
    private interface WithApp { void run(App app) throws Exception; }

    private void withDemoApp(WithApp test) throws Exception {
        SeedFile demo = SeedFile.load("demo");
        try (Databases.TestDb db = Databases.create(kind);
             App app = App.start(config(db), new MutableClock(System.currentTimeMillis()), a -> a.seeds().apply(demo))) {
            test.run(app);
        }
    }

    @Test
    void aChangeThatTriesSqlInItsDecisionFailsAloneAndTheSharedTransactionSurvives() throws Exception {
        withDemoApp(app -> {
            Ledger ledger = app.services().ledger();
            List<Change<?>> changes = new ArrayList<>();
            changes.add(credit("sql-a"));
            // On PostgreSQL a failing statement would abort the transaction every change of the batch shares.
            changes.add(new Change<>(List.of(SUB_USDT), rows -> app.database().autoCommit().execute("select 1/0")));
            // Not even a context captured before the decision may run SQL in it.
            var captured = app.database().autoCommit();
            changes.add(new Change<>(List.of(SUB_USDT), rows -> captured.execute("select 1/0")));
            changes.add(credit("sql-b"));
            List<CompletableFuture<?>> out = ledger.submitAsOneBatch(changes);
            assertThat(out.get(0).get(10, TimeUnit.SECONDS)).isNotNull();
            assertThat(catchFailure(out.get(1))).isInstanceOf(IllegalStateException.class).hasMessageContaining("no SQL");
            assertThat(rootCause(catchFailure(out.get(2)))).isInstanceOf(IllegalStateException.class).hasMessageContaining("no SQL");
            assertThat(out.get(3).get(10, TimeUnit.SECONDS)).isNotNull();
            assertThat(ledger.balance(SUB_USDT).available()).isEqualByComparingTo("802");
            assertThat(ledger.check().ok()).isTrue();
        });
    }

    @Test
    void aRejectedChangeIsTheCallersApiErrorAndTheOthersCommit() throws Exception {
        withDemoApp(app -> {
            Ledger ledger = app.services().ledger();
            List<CompletableFuture<?>> out = ledger.submitAsOneBatch(List.of(credit("rej-a"),
                    new Change<>(List.of(SUB_USDT), rows -> rows.post("adjustment", null, SUB,
                            List.of(move(SUB_USDT, Field.available, new BigDecimal("-10000"), Counter.adjustment)))),
                    credit("rej-b")));
            assertThat(catchFailure(out.get(1))).isInstanceOf(ApiException.class).hasMessage("Insufficient balance");
            assertThat(ledger.balance(SUB_USDT).available()).isEqualByComparingTo("802");
        });
    }
}
