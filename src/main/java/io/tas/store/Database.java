package io.tas.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tas.config.Config;
import io.tas.store.generated.DefaultSchema;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;

/** The pooled data source, migrated on open, with one jOOQ context over it. H2 or PostgreSQL by URL. */
public final class Database implements AutoCloseable {
    private final javax.sql.DataSource dataSource;
    /** The pool behind dataSource (null only for a test's own data source). */
    private final HikariDataSource pool;
    private final DSLContext dsl;
    /** The transaction this thread is in, so services composed by a caller share one commit. */
    private final ThreadLocal<DSLContext> current = new ThreadLocal<>();
    /** Set while a ledger change decides (forbiddingSql). */
    private final ThreadLocal<Boolean> sqlForbidden = new ThreadLocal<>();
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Database.class);

    /** Over an already migrated data source (open() for the pool; tests may pass their own). */
    Database(javax.sql.DataSource dataSource, SQLDialect dialect) {
        this.dataSource = dataSource;
        this.pool = dataSource instanceof HikariDataSource h ? h : null;
        // Unquoted names: H2 folds them to upper case, PostgreSQL to lower, and both match the migrations.
        Settings settings = new Settings()
                .withRenderQuotedNames(RenderQuotedNames.NEVER)
                .withExecuteLogging(false)
                .withRenderSchema(false);
        this.dsl = DSL.using(dataSource, dialect, settings);
    }

    public static Database open(Config config) {
        String url = h2Settings(config.dbUrl());
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setUsername(config.dbUser());
        hc.setPassword(config.dbPassword());
        hc.setMaximumPoolSize(config.dbPoolSize());
        hc.setPoolName("tas-db");
        hc.setAutoCommit(true);
        // The ledger writes each table's rows of a group commit as one JDBC batch; pgjdbc then sends them as
        // multi-row INSERTs, which PostgreSQL executes several times faster per row than one INSERT each.
        if (url.startsWith("jdbc:postgresql")) hc.addDataSourceProperty("reWriteBatchedInserts", "true");
        HikariDataSource ds = new HikariDataSource(hc);
        // Flyway opens connections of its own (it holds two while migrating), so the pool may be as small as one.
        Flyway.configure().dataSource(url, config.dbUser(), config.dbPassword()).locations("classpath:db/migration").load().migrate();
        return new Database(ds, url.startsWith("jdbc:postgresql") ? SQLDialect.POSTGRES : SQLDialect.H2);
    }

    /**
     * H2 settings the ledger relies on. DESIGN: a success is returned only after a commit that is on
     * disk, so H2 files get WRITE_DELAY=0. Row locks wait up to 10 s (H2's default of 1 s would fail
     * requests queued behind a busy account instead of serialising them, as PostgreSQL does).
     */
    static String h2Settings(String url) {
        if (!url.startsWith("jdbc:h2:")) return url;
        String upper = url.toUpperCase();
        boolean file = !url.startsWith("jdbc:h2:mem:") && !url.startsWith("jdbc:h2:tcp:");
        if (file && !upper.contains("WRITE_DELAY")) url += ";WRITE_DELAY=0";
        if (!upper.contains("LOCK_TIMEOUT")) url += ";LOCK_TIMEOUT=10000";
        return url;
    }

    /**
     * An auto-commit context on its own pooled connection. Only outside a transaction: a thread that holds a
     * connection for its transaction never takes a second one, or enough concurrent callers would each hold
     * one and wait for another until the pool is exhausted.
     */
    public DSLContext autoCommit() {
        checkSqlAllowed();
        if (current.get() != null) throw new IllegalStateException("a second pooled connection inside a transaction");
        return dsl;
    }

    /** Whether this thread is inside tx(). */
    public boolean inTransaction() { return current.get() != null; }

    /** The context of the current transaction, or an auto-commit one outside transactions. */
    public DSLContext dsl() {
        checkSqlAllowed();
        DSLContext c = current.get();
        return c != null ? c : dsl;
    }

    /**
     * Runs work in one transaction. Called inside another tx(), it joins it: the outermost call commits
     * or rolls back everything, so a composed operation (a whole seed file) is all or nothing. Once the commit
     * has succeeded the result is returned whatever happens to the connection afterwards: a committed write is
     * never reported as failed (a connection that cannot be reset is evicted from the pool instead).
     */
    public <T> T tx(Function<DSLContext, T> work) {
        DSLContext outer = current.get();
        if (outer != null) return work.apply(outer);
        checkSqlAllowed();
        // Plain JDBC transaction handling: jOOQ's provider asks the driver for the isolation level at every
        // begin, which costs PostgreSQL a round trip per transaction.
        Connection c;
        try {
            c = dataSource.getConnection();
            c.setAutoCommit(false);
        } catch (SQLException e) {
            throw new DataAccessException("transaction could not start: " + e.getMessage(), e);
        }
        boolean committed = false;
        try {
            DSLContext txDsl = DSL.using(c, dsl.dialect(), dsl.settings());
            current.set(txDsl);
            T result = work.apply(txDsl);
            c.commit();
            committed = true;
            return result;
        } catch (SQLException e) {
            rollbackQuietly(c, e);
            throw new DataAccessException("commit failed: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            rollbackQuietly(c, e);
            throw e;
        } finally {
            current.remove();
            release(c, committed);
        }
    }

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** Returns the connection to the pool; a failure here is logged, never thrown (the outcome is already known). */
    private void release(Connection c, boolean committed) {
        try {
            c.setAutoCommit(true);
            c.close();
        } catch (SQLException | RuntimeException e) {
            log.warn("connection could not be reset after a {} transaction; evicted from the pool: {}",
                    committed ? "committed" : "rolled-back", e.getMessage());
            try {
                if (pool != null) pool.evictConnection(c);
            } catch (RuntimeException ignored) {
                // the pool drops a broken connection on its own at the latest when it is next validated
            }
        }
    }

    /**
     * The ledger runs a change's decision with no SQL (DESIGN: Ledger): several changes share one database
     * transaction, where one change's failing statement would abort everybody's. Inside forbiddingSql any
     * attempt to reach the database fails that change alone, before it touches the shared transaction.
     */
    public <T> T forbiddingSql(java.util.function.Supplier<T> decision) {
        Boolean before = sqlForbidden.get();
        sqlForbidden.set(Boolean.TRUE);
        try {
            return decision.get();
        } finally {
            if (before == null) sqlForbidden.remove(); else sqlForbidden.set(before);
        }
    }

    private void checkSqlAllowed() {
        if (sqlForbidden.get() != null) throw new IllegalStateException("no SQL inside a ledger change's decision");
    }

    /** Sandbox reset: empties every table the migrations made (not Flyway's history). */
    public void truncateAll() {
        var tables = DefaultSchema.DEFAULT_SCHEMA.getTables();
        dsl.transaction(cfg -> {
            DSLContext t = cfg.dsl();
            if (t.dialect() == SQLDialect.POSTGRES) {
                t.truncate(tables).cascade().execute();
            } else {
                t.execute("SET REFERENTIAL_INTEGRITY FALSE");
                try {
                    for (var table : tables) t.truncate(table).execute();
                } finally {
                    t.execute("SET REFERENTIAL_INTEGRITY TRUE");
                }
            }
        });
    }

    public boolean isEmpty() {
        return dsl.fetchCount(io.tas.store.generated.Tables.ACCOUNT) == 0;
    }

    @Override
    public void close() { if (pool != null) pool.close(); }
}
