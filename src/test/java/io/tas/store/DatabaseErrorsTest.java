package io.tas.store;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;

/** tas_db_errors_total's kinds: from SQL states of PostgreSQL and H2 and from exception types, through wrappers. */
class DatabaseErrorsTest {
    private static DataAccessException wrapped(SQLException e) { return new DataAccessException("jOOQ wraps it", e); }

    @Test
    void sqlStatesAndTypesMapToKinds() {
        // PostgreSQL: statement_timeout, lock_not_available, connection failure, admin shutdown, too many connections.
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("canceled", "57014")))).isEqualTo(DatabaseErrors.Kind.TIMEOUT);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("lock", "55P03")))).isEqualTo(DatabaseErrors.Kind.TIMEOUT);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("refused", "08001")))).isEqualTo(DatabaseErrors.Kind.CONNECTION);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("terminating", "57P01")))).isEqualTo(DatabaseErrors.Kind.CONNECTION);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("too many", "53300")))).isEqualTo(DatabaseErrors.Kind.CONNECTION);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("unique", "23505")))).isEqualTo(DatabaseErrors.Kind.CONSTRAINT);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("serialize", "40001")))).isEqualTo(DatabaseErrors.Kind.CONFLICT);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("deadlock", "40P01")))).isEqualTo(DatabaseErrors.Kind.CONFLICT);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("no such table", "42P01")))).isEqualTo(DatabaseErrors.Kind.OTHER);
        // H2: lock timeout (HYT00), database closed (90121).
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("lock timeout", "HYT00", 50200)))).isEqualTo(DatabaseErrors.Kind.TIMEOUT);
        assertThat(DatabaseErrors.kind(wrapped(new SQLException("closed", "90121", 90121)))).isEqualTo(DatabaseErrors.Kind.CONNECTION);
        // Types: HikariCP's "connection is not available" and the fair line's wait are transient connection failures.
        assertThat(DatabaseErrors.kind(new SQLTransientConnectionException("pool wait"))).isEqualTo(DatabaseErrors.Kind.TIMEOUT);
        assertThat(DatabaseErrors.kind(new SQLTimeoutException("query timeout"))).isEqualTo(DatabaseErrors.Kind.TIMEOUT);
        assertThat(DatabaseErrors.kind(new SQLNonTransientConnectionException("gone"))).isEqualTo(DatabaseErrors.Kind.CONNECTION);
        // A failed COMMIT without a telling state is the connection's; with one, the state decides.
        assertThat(DatabaseErrors.kind(new Database.CommitOutcomeUnknown(new SQLException("commit")))).isEqualTo(DatabaseErrors.Kind.CONNECTION);
        assertThat(DatabaseErrors.kind(new Database.CommitOutcomeUnknown(new SQLException("commit", "40001")))).isEqualTo(DatabaseErrors.Kind.CONFLICT);
        // A database failure without a state is "other"; anything else is no database failure at all.
        assertThat(DatabaseErrors.kind(new DataAccessException("no state"))).isEqualTo(DatabaseErrors.Kind.OTHER);
        assertThat(DatabaseErrors.kind(new IllegalStateException("a bug", new NullPointerException()))).isNull();
        assertThat(DatabaseErrors.kind(new RuntimeException(wrapped(new SQLException("deep", "08006"))))).isEqualTo(DatabaseErrors.Kind.CONNECTION);
    }

    @Test
    void everyKindIsExportedAtZeroAndOnlyDatabaseFailuresCount() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DatabaseErrors errors = new DatabaseErrors(registry);
        for (DatabaseErrors.Kind k : DatabaseErrors.Kind.values()) {
            assertThat(registry.get("tas_db_errors_total").tag("kind", k.tag()).counter().count()).isZero();
        }
        assertThat(errors.record(new IllegalArgumentException("not the database"))).isFalse();
        assertThat(errors.record(wrapped(new SQLException("refused", "08001")))).isTrue();
        assertThat(registry.get("tas_db_errors_total").tag("kind", "connection").counter().count()).isEqualTo(1);
        assertThat(registry.get("tas_db_errors_total").counters()).hasSize(DatabaseErrors.Kind.values().length)
                .filteredOn(c -> !c.getId().getTag("kind").equals("connection")).allSatisfy(c -> assertThat(c.count()).isZero());
    }
}
