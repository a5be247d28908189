package io.tas.store;

import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** D113: on H2 one session writes at a time; plain reads pass; ending the transaction in any way lets the next in. */
class H2WriteGateTest {
    private static final long WAIT_MS = 300;

    private static DataSource database() throws Exception {
        String url = "jdbc:h2:mem:gate-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        DataSource ds = H2WriteGate.gated(url, "sa", "");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, v int)");
            s.execute("insert into t values (1, 0), (2, 0)");
        }
        return ds;
    }

    /** A write on a connection of its own, on another thread; done when it returned. */
    private static CompletableFuture<Integer> writeElsewhere(DataSource ds, String sql) {
        return CompletableFuture.supplyAsync(() -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                return s.executeUpdate(sql);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A connection in a transaction that has written: it holds the turn. */
    private static Connection writing(DataSource ds, String sql) throws Exception {
        Connection c = ds.getConnection();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
        return c;
    }

    private static void assertWaits(CompletableFuture<?> f) {
        assertThatThrownBy(() -> f.get(WAIT_MS, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
    }

    @Test
    void aSecondWriterWaitsForTheFirstTransactionToCommit() throws Exception {
        DataSource ds = database();
        try (Connection first = writing(ds, "update t set v = 1 where id = 1")) {
            // Another row: no row lock in the way, only the gate.
            CompletableFuture<Integer> second = writeElsewhere(ds, "update t set v = 2 where id = 2");
            assertWaits(second);
            first.commit();
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void plainReadsPassWhileATransactionWrites() throws Exception {
        DataSource ds = database();
        try (Connection writer = writing(ds, "update t set v = 5 where id = 1"); Connection reader = ds.getConnection()) {
            CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
                try (ResultSet rs = reader.prepareStatement("select v from t where id = 1").executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(read.get(10, TimeUnit.SECONDS)).as("the committed value, without waiting").isZero();
            // A locking read is a write: it waits.
            CompletableFuture<Integer> locking = CompletableFuture.supplyAsync(() -> {
                try (ResultSet rs = reader.createStatement().executeQuery("select v from t where id = 2 for update")) {
                    rs.next();
                    return rs.getInt(1);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertWaits(locking);
            writer.rollback();
            assertThat(locking.get(10, TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void aTransactionThatOnlyReadsLetsAWriterIn() throws Exception {
        DataSource ds = database();
        try (Connection reading = ds.getConnection()) {
            reading.setAutoCommit(false);
            try (ResultSet rs = reading.createStatement().executeQuery("select count(*) from t")) {
                rs.next();
            }
            assertThat(writeElsewhere(ds, "update t set v = 7 where id = 1").get(10, TimeUnit.SECONDS)).isEqualTo(1);
            // Its first write takes the turn, which the other writer gave back with its commit.
            assertThat(reading.createStatement().executeUpdate("update t set v = 8 where id = 2")).isEqualTo(1);
            CompletableFuture<Integer> next = writeElsewhere(ds, "update t set v = 9 where id = 1");
            assertWaits(next);
            reading.commit();
            assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void rollbackCloseAndAutoCommitOnEachLetTheNextWriterIn() throws Exception {
        DataSource ds = database();
        for (String end : new String[]{"rollback", "close", "autocommit"}) {
            Connection first = writing(ds, "update t set v = v + 1 where id = 1");
            CompletableFuture<Integer> next = writeElsewhere(ds, "update t set v = v + 10 where id = 2");
            assertWaits(next);
            switch (end) {
                case "rollback" -> first.rollback();
                case "close" -> first.close();
                default -> first.setAutoCommit(true);
            }
            assertThat(next.get(10, TimeUnit.SECONDS)).as(end).isEqualTo(1);
            first.close();
        }
    }

    @Test
    void rollbackToASavepointKeepsTheTurn() throws Exception {
        DataSource ds = database();
        try (Connection first = writing(ds, "update t set v = 1 where id = 1")) {
            var savepoint = first.setSavepoint();
            first.createStatement().executeUpdate("update t set v = 2 where id = 1");
            first.rollback(savepoint);
            CompletableFuture<Integer> next = writeElsewhere(ds, "update t set v = 3 where id = 2");
            assertWaits(next);
            first.commit();
            assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void separateDatabasesDoNotShareAGate() throws Exception {
        DataSource a = database(), b = database();
        try (Connection first = writing(a, "update t set v = 1 where id = 1")) {
            assertThat(writeElsewhere(b, "update t set v = 1 where id = 1").get(10, TimeUnit.SECONDS)).isEqualTo(1);
            first.rollback();
        }
    }

    @Test
    void readsAreTheStatementsThatNeitherChangeNorLockRows() {
        assertThat(H2WriteGate.onlyReads("select * from t")).isTrue();
        assertThat(H2WriteGate.onlyReads("  (SELECT 1)")).isTrue();
        assertThat(H2WriteGate.onlyReads("with x as (select 1) select * from x")).isTrue();
        assertThat(H2WriteGate.onlyReads("select * from t where id = 1 FOR UPDATE")).isFalse();
        assertThat(H2WriteGate.onlyReads("update t set v = 1")).isFalse();
        assertThat(H2WriteGate.onlyReads("insert into t values (3, 3)")).isFalse();
        assertThat(H2WriteGate.onlyReads("merge into t key(id) values (1, 1)")).isFalse();
        assertThat(H2WriteGate.onlyReads("select id from final table (insert into t values (4, 4))")).isFalse();
        assertThat(H2WriteGate.onlyReads("select updated_time, update_count from t")).as("names that hold the words").isTrue();
        assertThat(H2WriteGate.onlyReads(null)).isFalse();
        assertThat(H2WriteGate.database("jdbc:h2:file:./data/tas;WRITE_DELAY=0")).isEqualTo("jdbc:h2:file:./data/tas");
    }
}
