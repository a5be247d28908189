package io.tas.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tas.config.Config;
import io.tas.store.generated.DefaultSchema;
import io.tas.store.generated.Tables;
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
    private final HikariDataSource dataSource;
    private final DSLContext dsl;
    /** The transaction this thread is in, so services composed by a caller share one commit. */
    private final ThreadLocal<DSLContext> current = new ThreadLocal<>();

    private Database(HikariDataSource dataSource, SQLDialect dialect) {
        this.dataSource = dataSource;
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
        Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
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

    /** An auto-commit context on its own pooled connection, outside any transaction of this thread. */
    public DSLContext autoCommit() { return dsl; }

    /** Whether this thread is inside tx(). */
    public boolean inTransaction() { return current.get() != null; }

    /** The context of the current transaction, or an auto-commit one outside transactions. */
    public DSLContext dsl() {
        DSLContext c = current.get();
        return c != null ? c : dsl;
    }

    /**
     * Runs work in one transaction. Called inside another tx(), it joins it: the outermost call commits
     * or rolls back everything, so a composed operation (a whole seed file) is all or nothing.
     */
    public <T> T tx(Function<DSLContext, T> work) {
        DSLContext outer = current.get();
        if (outer != null) return work.apply(outer);
        // Plain JDBC transaction handling: jOOQ's provider asks the driver for the isolation level at every
        // begin, which costs PostgreSQL a round trip per transaction.
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            DSLContext txDsl = DSL.using(c, dsl.dialect(), dsl.settings());
            current.set(txDsl);
            try {
                T result = work.apply(txDsl);
                c.commit();
                return result;
            } catch (RuntimeException | Error e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                current.remove();
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new DataAccessException("transaction failed: " + e.getMessage(), e);
        }
    }

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** Sandbox reset: empties every table the migrations made (not Flyway's history, nor the running nodes' leases). */
    public void truncateAll() {
        var tables = DefaultSchema.DEFAULT_SCHEMA.getTables().stream().filter(t -> !t.equals(Tables.NODE_LEASE)).toList();
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
    public void close() { dataSource.close(); }
}
