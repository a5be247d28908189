package io.tas.store;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jooq.exception.DataAccessException;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.EnumMap;
import java.util.Map;

/**
 * tas_db_errors_total (issue 11 item 5): database failures that reached a caller as an error, by kind. Counted where
 * the request pipeline turns a failure into the error envelope, once per failed request; a batch the group commit
 * retries change by change reaches each of its callers once, so nothing is counted twice. Every kind is registered at
 * zero, so rate() sees the first failure and a dashboard has a series before anything failed.
 */
public final class DatabaseErrors {
    /** What went wrong, from the SQL state (ISO/IEC 9075 classes, PostgreSQL and H2 codes) and the exception type. */
    public enum Kind {
        /** No connection in time (pool wait), a statement or lock timeout. */
        TIMEOUT,
        /** The database went away or refused: class 08, 53 (resources), 57 (operator), H2's closed database. */
        CONNECTION,
        /** An integrity constraint (class 23) that no caller turned into a refusal of its own. */
        CONSTRAINT,
        /** Serialization failure or deadlock (class 40). */
        CONFLICT,
        /** Any other SQL failure (a missing table, a syntax error, a driver bug). */
        OTHER;

        public String tag() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    private final Map<Kind, Counter> counters = new EnumMap<>(Kind.class);

    public DatabaseErrors(MeterRegistry metrics) {
        for (Kind k : Kind.values()) {
            counters.put(k, Counter.builder("tas_db_errors_total").tag("kind", k.tag())
                    .description("database failures that reached a caller as an error, by kind").register(metrics));
        }
    }

    /** Counts the failure when it is a database failure; true when it was. */
    public boolean record(Throwable failure) {
        Kind k = kind(failure);
        if (k == null) return false;
        counters.get(k).increment();
        return true;
    }

    /** The kind of a database failure anywhere in the cause chain, or null when the failure is not one. */
    public static Kind kind(Throwable failure) {
        Kind fallback = null;
        int depth = 0; // a cause cycle longer than one must not hang the request thread
        for (Throwable t = failure; t != null && depth++ < 32; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTimeoutException || t instanceof SQLTransientConnectionException) return Kind.TIMEOUT;
            if (t instanceof SQLNonTransientConnectionException) return Kind.CONNECTION;
            Kind byState = t instanceof SQLException s && s.getSQLState() != null ? byState(s.getSQLState()) : null;
            if (byState != null) return byState;
            // A failed COMMIT whose cause says nothing more is the connection's (GroupCommit.connectionLost agrees).
            if (t instanceof Database.CommitOutcomeUnknown) fallback = Kind.CONNECTION;
            else if (fallback == null && (t instanceof SQLException || t instanceof DataAccessException)) fallback = Kind.OTHER;
        }
        return fallback;
    }

    private static Kind byState(String state) {
        // 57014 query canceled (statement_timeout), 55P03 lock not available, HYT00 timeout; H2: 50200 lock timeout, 57014 too.
        if (state.equals("57014") || state.equals("55P03") || state.equals("HYT00") || state.equals("50200")) return Kind.TIMEOUT;
        // H2's database closed / connection broken come with their own codes as state: 90067, 90098, 90121.
        if (state.startsWith("08") || state.startsWith("53") || state.startsWith("57")
                || state.equals("90067") || state.equals("90098") || state.equals("90121")) return Kind.CONNECTION;
        if (state.startsWith("23")) return Kind.CONSTRAINT;
        if (state.startsWith("40")) return Kind.CONFLICT;
        return null;
    }
}
