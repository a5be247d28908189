package io.tas.store;

import io.tas.support.Databases;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A group commit's writes, its last statements and its COMMIT go to PostgreSQL in one round trip (D218): what the
 * batch wrote is committed when together() returns; a statement that fails skips the COMMIT after it, and the batch
 * rolls back as before; without thenCommit nothing is visible before the caller commits.
 */
class PgCopyTogetherTest {
    private static Databases.TestDb db;

    @BeforeAll
    static void createDatabase() throws SQLException {
        db = Databases.create(Databases.Kind.POSTGRES);
        try (Connection c = connect(); var s = c.createStatement()) {
            s.execute("create table t (id bigint primary key)");
            s.execute("create table candle (k text primary key, n integer not null check (n < 3))");
        }
    }

    @AfterAll
    static void dropDatabase() { db.close(); }

    @BeforeEach
    void empty() throws SQLException {
        try (Connection c = connect(); var s = c.createStatement()) {
            s.execute("delete from t");
            s.execute("delete from candle");
            s.execute("insert into candle values ('a', 0)");
        }
    }

    @Test
    void thenCommitCommitsInTheSameRoundTrip() throws SQLException {
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            PgCopy.together(on(c), true, () -> write(on(c), 1, 2));
            // Seen from another connection before the caller's commit(): the round trip's COMMIT ended the transaction.
            assertThat(ids()).containsExactly(1L, 2L);
            assertThat(candle()).isEqualTo(1);
            c.commit(); // nothing left to commit: no error
        }
        assertThat(ids()).containsExactly(1L, 2L);
    }

    @Test
    void aFailingLastStatementSkipsTheCommit() throws SQLException {
        try (Connection c = connect(); var s = c.createStatement()) {
            s.execute("update candle set n = 2");
        }
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            // The candle's check fails (n would be 3): the rows before it and the COMMIT after it never take effect.
            assertThatThrownBy(() -> PgCopy.together(on(c), true, () -> write(on(c), 3, 4)))
                    .isInstanceOf(IntegrityConstraintViolationException.class);
            c.rollback();
        }
        assertThat(ids()).isEmpty();
        assertThat(candle()).isEqualTo(2);
    }

    @Test
    void withoutThenCommitTheCallerCommits() throws SQLException {
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            PgCopy.together(on(c), false, () -> write(on(c), 5, 6));
            assertThat(ids()).isEmpty();
            assertThat(candle()).isZero();
            c.commit();
        }
        assertThat(ids()).containsExactly(5L, 6L);
        assertThat(candle()).isEqualTo(1);
    }

    /** Two rows as one array part, and the shared row as a last part, as a group commit's batch makes them. */
    private static void write(DSLContext dsl, long first, long second) {
        PgCopy.run(dsl, PgCopy.arrays("insert into t select * from unnest(?::bigint[])", java.util.List.of("bigint"),
                java.util.List.of(new Object[]{first}, new Object[]{second})));
        PgCopy.runLast(dsl, new PgCopy.Part("update candle set n = n + ? where k = 'a'", (c, ps, at) -> {
            ps.setInt(at, 1);
            return at + 1;
        }));
    }

    private static DSLContext on(Connection c) { return DSL.using(c, SQLDialect.POSTGRES); }

    private static Connection connect() throws SQLException { return DriverManager.getConnection(db.url(), db.user(), ""); }

    private static java.util.List<Long> ids() throws SQLException {
        java.util.List<Long> out = new java.util.ArrayList<>();
        try (Connection c = connect(); var s = c.createStatement(); var rs = s.executeQuery("select id from t order by id")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    private static int candle() throws SQLException {
        try (Connection c = connect(); var s = c.createStatement(); var rs = s.executeQuery("select n from candle")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
