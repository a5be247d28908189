package io.tas.store;

import io.tas.config.Config;
import io.tas.support.ConnectionSource;
import org.jooq.SQLDialect;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.store.generated.Tables.LOAN_COIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A committed write is never reported as failed because of connection cleanup after the commit (issue 7,
 * item 1): connections that fail to reset or close after a successful commit still give the caller its result.
 */
class CommitOutcomeTest {
    private static final String URL = "jdbc:h2:mem:commit-outcome;DB_CLOSE_DELAY=-1";

    /** Connections to the same database whose reset (setAutoCommit(true)) and close both fail, as on a dropped socket. */
    private static DataSource brokenAfterCommit(AtomicInteger cleanups) {
        return broken(cleanups, false);
    }

    /** As above, and COMMIT itself fails too (the server gone before it answered). */
    private static DataSource broken(AtomicInteger cleanups, boolean commitFails) {
        return (ConnectionSource) () -> {
            Connection real = DriverManager.getConnection(URL, "sa", "");
            return (Connection) Proxy.newProxyInstance(CommitOutcomeTest.class.getClassLoader(), new Class<?>[]{Connection.class}, (proxy, m, args) -> {
                if (commitFails && m.getName().equals("commit")) throw new SQLException("I/O error during COMMIT", "08006");
                boolean reset = m.getName().equals("setAutoCommit") && Boolean.TRUE.equals(args[0]);
                if (reset || m.getName().equals("close")) {
                    cleanups.incrementAndGet();
                    real.close();
                    throw new SQLException("connection reset by peer", "08006");
                }
                try {
                    return m.invoke(real, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        };
    }

    @Test
    void aCommittedTransactionReturnsItsResultWhateverHappensToTheConnectionAfterwards() {
        try (Database migrated = Database.open(Config.fromEnv(Map.of()).withDb(URL, "sa", ""))) {
            AtomicInteger cleanups = new AtomicInteger();
            Database db = new Database(brokenAfterCommit(cleanups), SQLDialect.H2);

            String result = db.tx(tx -> {
                tx.dsl().insertInto(LOAN_COIN).set(LOAN_COIN.COIN, "OUTCOME").set(LOAN_COIN.INTEREST_FREE_AMOUNT, BigDecimal.ONE)
                        .set(LOAN_COIN.HOURLY_RATE, BigDecimal.ZERO).execute();
                return "committed";
            });

            assertThat(result).isEqualTo("committed");
            assertThat(cleanups.get()).as("the cleanup did fail").isPositive();
            assertThat(migrated.autoCommit().fetchCount(LOAN_COIN, LOAN_COIN.COIN.eq("OUTCOME"))).isEqualTo(1);

            // A transaction that fails still reports its own failure, and leaves nothing behind.
            assertThatThrownBy(() -> db.tx(tx -> {
                tx.dsl().insertInto(LOAN_COIN).set(LOAN_COIN.COIN, "ROLLEDBACK").set(LOAN_COIN.INTEREST_FREE_AMOUNT, BigDecimal.ONE)
                        .set(LOAN_COIN.HOURLY_RATE, BigDecimal.ZERO).execute();
                throw new IllegalStateException("the caller's own failure");
            })).isInstanceOf(IllegalStateException.class).hasMessage("the caller's own failure");
            assertThat(migrated.autoCommit().fetchCount(LOAN_COIN, LOAN_COIN.COIN.eq("ROLLEDBACK"))).isZero();
        }
    }

    @Test
    void aFailedCommitIsReportedAsAnUnknownOutcome() {
        try (Database migrated = Database.open(Config.fromEnv(Map.of()).withDb(URL, "sa", ""))) {
            Database db = new Database(broken(new AtomicInteger(), true), SQLDialect.H2);
            assertThatThrownBy(() -> db.tx(dsl -> "anything")).isInstanceOf(Database.CommitOutcomeUnknown.class)
                    .hasMessageContaining("outcome unknown");
        }
    }
}
