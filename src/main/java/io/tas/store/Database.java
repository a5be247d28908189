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
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.sql.SQLException;
import java.util.function.Function;

/**
 * The database: migrated on open, with one jOOQ context over it. H2 or PostgreSQL by URL. Two pools of
 * connections, each handed out first come, first served (FairConnections): the request pool (TAS_DB_POOL_SIZE)
 * for everything a request reads or writes itself, and the ledger writers' own connections, so a group commit
 * never queues behind readers.
 */
public final class Database implements AutoCloseable {
    /** Group-commit writer threads: the ledger's (D26) and the settings writer's (D43), each with a connection of its own. */
    public static final int LEDGER_WRITERS = 2;
    public static final int SETTINGS_WRITERS = 3;
    /** So that no writer waits for another's connection (a settings batch waiting on an account lock stalls no ledger batch). */
    public static final int WRITER_CONNECTIONS = LEDGER_WRITERS + SETTINGS_WRITERS;
    /** The node's own connection for its lease heartbeat: never in line behind requests (D30, D36). */
    static final int CONTROL_CONNECTIONS = 1;
    /** Connections of the job scheduler (db-scheduler polls, picks and heartbeats on them; a job's own work uses tx()). */
    public static final int JOB_CONNECTIONS = 2;
    /**
     * Connections of the WebSocket pushes' reads (D207): a push reads what a commit changed, and in line behind the
     * requests it waited 30 to 50 ms per read under load, so the pushes fell seconds behind the commits.
     */
    public static final int PUSH_CONNECTIONS = 4;
    /** How long a caller waits for a connection before the request fails (HikariCP's default). */
    static final long CONNECTION_TIMEOUT_MS = 30_000;

    private final FairConnections requests;
    private final FairConnections writers;
    private final FairConnections control;
    private final FairConnections jobs;
    private final FairConnections pushes;
    /** Set on the threads made by pushReaders: their read() draws from `pushes`. */
    private final ThreadLocal<Boolean> pushReader = new ThreadLocal<>();
    /** Auto-commit context on the control connection (node lease). */
    private final DSLContext controlDsl;
    private final DSLContext dsl;
    private final Settings settings;
    private final SQLDialect dialect;
    /** An H2 file only this process can open (H2Files.exclusive): no other node can share it (D131). */
    private final boolean exclusive;
    /** Such a file's compaction while running (D204); null for every other database. */
    private final H2FileUpkeep upkeep;
    /**
     * The connection this thread holds inside tx() or read(). Writes never look at it: work inside a transaction is
     * handed its Tx (issue 24), and asking for a second connection there fails instead of quietly working beside it.
     * Only cache fills read on it (cacheRead), so a cache miss inside a transaction takes no second connection.
     */
    private final ThreadLocal<DSLContext> held = new ThreadLocal<>();
    /** Set while a ledger change decides (forbiddingSql). */
    private final ThreadLocal<Boolean> sqlForbidden = new ThreadLocal<>();

    private Database(FairConnections requests, FairConnections writers, FairConnections control, FairConnections jobs,
                     FairConnections pushes, SQLDialect dialect,
                     boolean exclusive, H2FileUpkeep upkeep) {
        this.exclusive = exclusive;
        this.upkeep = upkeep;
        this.requests = requests;
        this.writers = writers;
        this.control = control;
        this.jobs = jobs;
        this.pushes = pushes;
        // Unquoted names: H2 folds them to upper case, PostgreSQL to lower, and both match the migrations.
        Settings settings = new Settings()
                .withRenderQuotedNames(RenderQuotedNames.NEVER)
                .withExecuteLogging(false)
                .withRenderSchema(false);
        this.settings = settings;
        this.dialect = dialect;
        this.dsl = DSL.using(configuration().set(requests));
        this.controlDsl = DSL.using(configuration().set(control));
    }

    /**
     * jOOQ's configuration for every context this class hands out: each statement first checks that the thread
     * is not inside a ledger change's decision (D31), so not even a context captured from outside can run SQL there.
     */
    private org.jooq.Configuration configuration() {
        org.jooq.ExecuteListener guard = new org.jooq.ExecuteListener() {
            @Override public void start(org.jooq.ExecuteContext ctx) { checkSqlAllowed(); }
        };
        return new org.jooq.impl.DefaultConfiguration().set(dialect).set(settings).set(guard);
    }

    private DSLContext on(Connection c) { return DSL.using(configuration().set(c)); }

    /** Over an already migrated data source of a test's own (both pools draw from it). */
    Database(javax.sql.DataSource dataSource, SQLDialect dialect) {
        this(new FairConnections(dataSource, 4, CONNECTION_TIMEOUT_MS), new FairConnections(dataSource, WRITER_CONNECTIONS, CONNECTION_TIMEOUT_MS),
                new FairConnections(dataSource, CONTROL_CONNECTIONS, CONNECTION_TIMEOUT_MS),
                new FairConnections(dataSource, JOB_CONNECTIONS, CONNECTION_TIMEOUT_MS),
                new FairConnections(dataSource, PUSH_CONNECTIONS, CONNECTION_TIMEOUT_MS), dialect, false, null);
    }

    public static Database open(Config config) {
        return open(config, null);
    }

    /** Opens both pools (with HikariCP's metrics in the registry, when given) and migrates. */
    public static Database open(Config config, MeterRegistry metrics) {
        H2Files.compactIfSparse(config.dbUrl(), H2Files.COMPACT_FROM_BYTES);
        String url = H2Files.settings(config.dbUrl());
        // The pools first: their open connections keep an in-memory H2 database alive while Flyway works.
        List<FairConnections> pools = new ArrayList<>();
        try {
            FairConnections requests = opened(pools, pool(config, url, "tas-db", config.dbPoolSize(), metrics, false), config.dbPoolSize());
            FairConnections writers = opened(pools, pool(config, url, "tas-db-writers", WRITER_CONNECTIONS, metrics, false), WRITER_CONNECTIONS);
            FairConnections control = opened(pools, pool(config, url, "tas-db-control", CONTROL_CONNECTIONS, metrics, false), CONTROL_CONNECTIONS);
            FairConnections jobs = opened(pools, pool(config, url, "tas-db-jobs", JOB_CONNECTIONS, metrics, false), JOB_CONNECTIONS);
            // Opened when a push first reads, and closed after a minute unused: a node without subscribers holds none.
            FairConnections pushes = opened(pools, pool(config, url, "tas-db-pushes", PUSH_CONNECTIONS, metrics, true), PUSH_CONNECTIONS);
            if (metrics != null) {
                for (var p : List.of(Map.entry("tas-db", requests), Map.entry("tas-db-writers", writers))) {
                    Gauge.builder("tas_db_connection_waiters", p.getValue(), FairConnections::waiting).tag("pool", p.getKey())
                            .description("callers waiting in line for a pooled connection").register(metrics);
                }
            }
            // Flyway opens connections of its own (it holds two while migrating), so the pool may be as small as one.
            Flyway.configure().dataSource(url, config.dbUser(), config.dbPassword()).locations("classpath:db/migration").load().migrate();
            boolean exclusive = H2Files.exclusive(url);
            H2FileUpkeep upkeep = H2FileUpkeep.appliesTo(url) ? new H2FileUpkeep(url, config.dbUser(), config.dbPassword(), H2Files.file(url).orElseThrow(),
                    (long) config.features().h2CompactGrowthMb() << 20, List.of(requests, writers, control, jobs, pushes)) : null;
            return new Database(requests, writers, control, jobs, pushes, url.startsWith("jdbc:postgresql") ? SQLDialect.POSTGRES : SQLDialect.H2,
                    exclusive, upkeep);
        } catch (RuntimeException e) {
            pools.forEach(FairConnections::close); // a failed migration leaves no pool behind
            throw e;
        }
    }

    private static FairConnections opened(List<FairConnections> pools, HikariDataSource pool, int size) {
        FairConnections c = new FairConnections(pool, size, CONNECTION_TIMEOUT_MS);
        pools.add(c);
        return c;
    }

    /**
     * pushReads: the pushes' pool (D207), which opens its connections when first asked, closes them after a minute
     * unused, and plans each read on PostgreSQL (D229).
     */
    private static HikariDataSource pool(Config config, String url, String name, int size, MeterRegistry metrics, boolean pushReads) {
        HikariConfig hc = new HikariConfig();
        boolean postgres = url.startsWith("jdbc:postgresql");
        if (url.startsWith("jdbc:h2:")) hc.setDataSource(H2WriteGate.gated(url, config.dbUser(), config.dbPassword())); // D113
        else hc.setJdbcUrl(url);
        hc.setUsername(config.dbUser());
        hc.setPassword(config.dbPassword());
        hc.setMaximumPoolSize(size);
        if (pushReads) {
            hc.setMinimumIdle(0);
            hc.setIdleTimeout(60_000);
            // D229: the pushes' reads repeat one text (an IN list of one or two orders) on connections opened while the
            // tables were nearly empty; a cached generic plan then scans trade_order whole for each push as it grows.
            if (postgres) hc.setConnectionInitSql("set plan_cache_mode = force_custom_plan");
        }
        hc.setPoolName(name);
        hc.setAutoCommit(true);
        hc.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
        hc.setAllowPoolSuspension(H2FileUpkeep.appliesTo(url)); // D204: paused while the file is rewritten
        // The ledger writes each table's rows of a group commit as one JDBC batch; pgjdbc then sends them as
        // multi-row INSERTs, which PostgreSQL executes several times faster per row than one INSERT each.
        if (postgres) hc.addDataSourceProperty("reWriteBatchedInserts", "true");
        if (metrics != null) hc.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(metrics));
        return new HikariDataSource(hc);
    }

    /**
     * An auto-commit context on its own pooled connection. Only outside tx() and read(): a thread that holds a
     * connection never takes a second one, or enough concurrent callers would each hold one and wait for another until
     * the pool is exhausted; and inside a transaction a read belongs on its Tx.
     */
    public DSLContext autoCommit() {
        checkSqlAllowed();
        requireNoConnection("an auto-commit statement");
        return dsl;
    }

    /** The database's SQL dialect (no connection taken). */
    public SQLDialect dialect() { return dsl.dialect(); }

    /**
     * Fails when this thread already holds a connection of this database: work that would take a second one (a group
     * commit, which runs on a writer's connection and would wait for the caller's locks) must be given the Tx instead.
     */
    public void requireNoConnection(String what) {
        if (held.get() != null) throw new IllegalStateException(what + " inside a transaction or read: pass the Tx");
    }

    /**
     * For cache fills only (the market snapshot, cached accounts): reads on the connection this thread already holds,
     * its transaction or read session, else on one of its own. A miss inside a transaction then neither takes a
     * second pooled connection (N such callers could exhaust the pool, each waiting for another) nor misses what the
     * transaction wrote; what it loads there may be uncommitted, which the writer's after-commit invalidation (or a
     * failed seed's invalidateAll) drops.
     */
    public <T> T cacheRead(Function<DSLContext, T> load) {
        checkSqlAllowed();
        DSLContext h = held.get();
        return h != null ? load.apply(h) : read(load);
    }

    /**
     * Runs work in a transaction of its own, which it hands the work: a composed operation (a whole seed file) passes
     * that Tx down and is all or nothing. A tx() inside tx() or read() is a mistake and fails. Once the commit has
     * succeeded the result is returned whatever happens to the connection afterwards: a committed write is never
     * reported as failed (a connection that cannot be reset is evicted from the pool instead). Then the Tx's
     * after-commit work runs.
     */
    public <T> T tx(Function<Tx, T> work) {
        return tx(requests, work);
    }

    /**
     * Runs reads on one pooled connection in auto-commit mode: under load every pool acquisition is a wait in line,
     * and a read needs no transaction (no COMMIT round trip). Not inside tx() (read through its Tx there).
     */
    public <T> T read(Function<DSLContext, T> work) {
        checkSqlAllowed();
        requireNoConnection("a read");
        FairConnections from = pushReader.get() != null ? pushes : requests;
        Connection c = from.acquire();
        DSLContext session = on(c);
        held.set(session);
        try {
            return work.apply(session);
        } finally {
            held.remove();
            from.release(c);
        }
    }

    /**
     * Threads whose reads take the pushes' own connections (D207): the stream hub's account lanes and market pusher,
     * so a push never waits in line behind the requests whose commits it reports.
     */
    public java.util.concurrent.ThreadFactory pushReaders(java.util.concurrent.ThreadFactory threads) {
        return work -> threads.newThread(() -> {
            pushReader.set(Boolean.TRUE);
            work.run();
        });
    }

    /** As tx, on the ledger writers' own connections (the group commit's batches). */
    public <T> T writerTx(Function<Tx, T> work) {
        return tx(writers, work);
    }

    private <T> T tx(FairConnections from, Function<Tx, T> work) {
        checkSqlAllowed();
        requireNoConnection("a transaction");
        // Plain JDBC transaction handling: jOOQ's provider asks the driver for the isolation level at every
        // begin, which costs PostgreSQL a round trip per transaction.
        Connection c = from.acquire();
        try {
            c.setAutoCommit(false);
        } catch (SQLException e) {
            from.evict(c, e);
            from.release(c);
            throw new DataAccessException("transaction could not start: " + e.getMessage(), e);
        }
        Tx tx = new Tx(on(c));
        T result;
        held.set(tx.dsl());
        try {
            result = work.apply(tx);
            try {
                c.commit();
            } catch (SQLException e) {
                rollbackQuietly(c, e);
                throw new CommitOutcomeUnknown(e);
            }
        } catch (RuntimeException | Error e) {
            rollbackQuietly(c, e);
            throw e;
        } finally {
            held.remove();
            release(from, c);
        }
        tx.committed();
        return result;
    }

    /**
     * Runs an insert of records whose ids the caller checked were free: a unique key that a concurrent transaction
     * stored in between is the caller's refusal (40017 with the message), never a 500. Inside a transaction, which the
     * refusal then rolls back.
     */
    public static void insertUnique(Runnable insert, String duplicateMessage) {
        try {
            insert.run();
        } catch (org.jooq.exception.IntegrityConstraintViolationException e) {
            throw new io.tas.error.ApiException(io.tas.error.ErrorCode.PARAM_VERIFICATION_FAILED, duplicateMessage);
        }
    }

    /**
     * COMMIT itself failed: the database may or may not have committed (the answer can be lost with the connection),
     * so whoever retries must not assume it did not (the group commit fails such a batch instead of retrying it).
     */
    public static final class CommitOutcomeUnknown extends DataAccessException {
        public CommitOutcomeUnknown(SQLException cause) { super("commit failed, outcome unknown: " + cause.getMessage(), cause); }
    }

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Returns the connection to its pool. Once the commit has succeeded the caller gets its result whatever
     * happens here: a connection that cannot be reset is evicted (and logged), never reported as a failure.
     */
    private static void release(FairConnections from, Connection c) {
        try {
            c.setAutoCommit(true);
        } catch (SQLException | RuntimeException e) {
            from.evict(c, e);
        }
        from.release(c);
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

    /** Sandbox reset: empties every table the migrations made (not Flyway's history, nor the running nodes' leases). */
    public void truncateAll() {
        // Node leases belong to running nodes, the sandbox clock is set on its own (D188), and snapshots outlive a
        // reset (D189). Identity columns start again at 1, so a replay after a reset numbers rows as the first run did.
        var tables = DefaultSchema.DEFAULT_SCHEMA.getTables().stream()
                .filter(t -> !t.equals(Tables.NODE_LEASE) && !t.equals(Tables.SANDBOX_CLOCK) && !t.equals(Tables.SANDBOX_SNAPSHOT)).toList();
        dsl.transaction(cfg -> {
            DSLContext t = cfg.dsl();
            if (t.dialect() == SQLDialect.POSTGRES) {
                t.truncate(tables).restartIdentity().cascade().execute();
            } else {
                t.execute("SET REFERENTIAL_INTEGRITY FALSE");
                try {
                    for (var table : tables) t.truncate(table).restartIdentity().execute();
                } finally {
                    t.execute("SET REFERENTIAL_INTEGRITY TRUE");
                }
            }
        });
    }

    public boolean isEmpty() {
        return autoCommit().fetchCount(io.tas.store.generated.Tables.ACCOUNT) == 0;
    }

    @Override
    public void close() {
        if (upkeep != null) upkeep.close();
        pushes.close();
        jobs.close();
        control.close();
        writers.close();
        requests.close();
    }

    /** The job scheduler's own pool, as a DataSource (db-scheduler runs its SQL through plain JDBC). */
    public javax.sql.DataSource jobConnections() { return jobs.dataSource(); }

    /**
     * D204: an embedded H2 file that has grown since its last compaction (every chunk is appended, D114) is rewritten
     * with its live data, callers waiting meanwhile; nothing on every other database. For the sandbox's bulk writes
     * (a restore, a reset), which a test suite repeats hundreds of times in one process. Whether it was rewritten.
     */
    public boolean compactIfGrown() {
        return upkeep != null && upkeep.compactIfGrown().compacted();
    }

    /** As compactIfGrown, with the file's sizes read while the pools were paused; empty when there is no upkeep. */
    java.util.Optional<H2FileUpkeep.Outcome> compactIfGrownOutcome() {
        return upkeep == null ? java.util.Optional.empty() : java.util.Optional.of(upkeep.compactIfGrown());
    }

    /** How many times this node has reopened the database since it opened it (D204): 0 unless an H2 file was rewritten. */
    long openings() { return upkeep == null ? 0 : upkeep.reopenings(); }

    /** Whether this process alone can open the database (an embedded H2 file): then no other node shares it (D131). */
    boolean exclusive() { return exclusive; }

    /** An auto-commit context on the node's control connection (the lease heartbeat), outside any transaction. */
    DSLContext control() {
        checkSqlAllowed();
        return controlDsl;
    }
}
