package io.tas.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.tas.store.Database;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;

import static io.tas.store.generated.Tables.NODE_LEASE;
import static io.tas.store.generated.Tables.SCHEDULED_TASKS;

/**
 * Durable jobs on db-scheduler: a job is a row of scheduled_tasks, so it survives a restart, and of several nodes on
 * one database exactly one picks each due job (db-scheduler's optimistic lock on the row's version). Due-ness follows
 * the service clock (db-scheduler's Clock is the injected one), so a test or a sandbox that moves the clock past a
 * job's time and calls {@link #runDue()} sees it finish without waiting. Jobs are scheduled inside the caller's
 * transaction: the job exists exactly when the change that asked for it committed.
 */
public final class Jobs implements AutoCloseable {
    /** Executor threads of a node; jobs are short transactions. */
    private static final int THREADS = 2;
    /** A stopping node waits this long for running jobs (db-scheduler's default is 30 minutes). */
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(10);
    /**
     * db-scheduler's heartbeat of a running job: one that missed 6 of them (a minute on the service clock) belongs to
     * a dead node and runs again. Its default, 5 minutes, left a job that a killed node had picked for half an hour.
     */
    private static final Duration HEARTBEAT = Duration.ofSeconds(10);
    private static final String NODE_NAME = "tas-node-";
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Jobs.class);

    private final Database db;
    private final Clock clock;
    private final JobsConfig config;
    private final String nodeName;
    private final JdbcCustomization jdbc;
    private final List<Task<?>> tasks = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicLong> executions = new ConcurrentHashMap<>();
    private volatile Scheduler scheduler;
    private boolean closed;

    /** The jobs of the node holding the lease of nodeId (NodeLease). */
    public Jobs(Database db, Clock clock, JobsConfig config, int nodeId) {
        this.db = db;
        this.clock = clock;
        this.config = config;
        this.nodeName = NODE_NAME + nodeId;
        this.jdbc = new AutodetectJdbcCustomization(db.jobConnections());
    }

    /**
     * Registers a one-time task, before start(). work gets the instance id; if it throws, db-scheduler tries again
     * later (5 minutes on the service clock), so work must be idempotent, as it must be anyway: a node that dies
     * after work committed but before the job row is removed runs it again once the execution is found dead.
     */
    public synchronized void oneTime(String task, Consumer<String> work) {
        if (scheduler != null) throw new IllegalStateException("tasks are registered before start()");
        AtomicLong runs = executions.computeIfAbsent(task, t -> new AtomicLong());
        tasks.add(Tasks.oneTime(task).execute((instance, ctx) -> {
            runs.incrementAndGet();
            work.accept(instance.getId());
        }));
    }

    /** Starts polling for due jobs; call after the migrations (they made scheduled_tasks) and any reset or seed. */
    public synchronized void start() {
        if (closed || scheduler != null) return;
        releaseJobsOfGoneNodes(true);
        scheduler = Scheduler.create(db.jobConnections(), List.copyOf(tasks))
                .clock(clock::instant)
                .schedulerName(new SchedulerName.Fixed(nodeName))
                .threads(THREADS)
                .pollingInterval(config.pollInterval())
                .shutdownMaxWait(SHUTDOWN_WAIT)
                .heartbeatInterval(HEARTBEAT)
                .jdbcCustomization(jdbc)
                .build();
        scheduler.start();
    }

    /** Schedules a job in the caller's transaction: it commits or rolls back with the caller's work. */
    public void scheduleInTransaction(io.tas.store.Tx tx, String task, String instance, Instant at) {
        SchedulerClient.Builder.create(new TransactionSource(tx)).jdbcCustomization(jdbc).build()
                .schedule(new TaskInstance<Void>(task, instance), at);
    }

    /** What run-due found: jobs due at the call, and how many of them were still there when it stopped waiting. */
    public record RunDue(int due, int remaining) {}

    /**
     * Runs the jobs due now (service clock) at once instead of at the next poll, and returns when they are done or
     * the configured timeout passed. Another node may run some of them; either way they are gone from the table.
     * A job that fails is rescheduled for later, so it is no longer due and does not hold this up.
     */
    public RunDue runDue() {
        Scheduler s = scheduler;
        Instant now = clock.instant();
        int due = countDue(now);
        if (s == null || due == 0) return new RunDue(due, due);
        long deadline = System.nanoTime() + config.runDueTimeout().toNanos();
        int remaining = due;
        while (remaining > 0 && System.nanoTime() < deadline) {
            releaseJobsOfGoneNodes(false);
            s.triggerCheckForDueExecutions();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            remaining = countDue(now);
        }
        return new RunDue(due, remaining);
    }

    /**
     * Releases the jobs picked by nodes that are gone, so that they run again at once (every job is idempotent, see
     * oneTime) instead of after db-scheduler's missed heartbeats: a node is gone when its lease is absent or expired
     * (NodeLease, on the machine's clock as App leases it). At start, this node's own name counts as gone too: a job
     * picked under it was picked by an earlier process that held this node id (a restart after a kill), since this
     * one has not started polling yet. Returns how many were released.
     */
    int releaseJobsOfGoneNodes(boolean includingOwnName) {
        Set<String> live = new HashSet<>(db.autoCommit().select(NODE_LEASE.NODE_ID).from(NODE_LEASE)
                .where(NODE_LEASE.EXPIRES_TIME.gt(System.currentTimeMillis())).fetch(r -> NODE_NAME + r.value1()));
        if (includingOwnName) live.remove(nodeName);
        else live.add(nodeName);
        int released = db.autoCommit().update(SCHEDULED_TASKS).set(SCHEDULED_TASKS.PICKED, false).setNull(SCHEDULED_TASKS.PICKED_BY)
                .setNull(SCHEDULED_TASKS.LAST_HEARTBEAT).set(SCHEDULED_TASKS.VERSION, SCHEDULED_TASKS.VERSION.plus(1))
                .where(SCHEDULED_TASKS.PICKED.isTrue(), SCHEDULED_TASKS.PICKED_BY.notIn(live)).execute();
        if (released > 0) log.warn("released {} job(s) picked by a node that is gone; they run again", released);
        return released;
    }

    private int countDue(Instant now) {
        List<String> names = tasks.stream().map(Task::getName).toList();
        if (names.isEmpty()) return 0;
        return db.autoCommit().fetchCount(SCHEDULED_TASKS, SCHEDULED_TASKS.TASK_NAME.in(names)
                .and(SCHEDULED_TASKS.EXECUTION_TIME.le(OffsetDateTime.ofInstant(now, ZoneOffset.UTC))));
    }

    /** How often this node ran the task's work (every attempt, also one that threw). */
    public long executions(String task) {
        AtomicLong n = executions.get(task);
        return n == null ? 0 : n.get();
    }

    /** Stops polling and waits (at most SHUTDOWN_WAIT) for running jobs; call before the database closes. */
    @Override
    public synchronized void close() {
        closed = true;
        if (scheduler != null) scheduler.stop();
    }

    /**
     * A transaction as a DataSource, so that db-scheduler's insert joins it. db-scheduler leaves a connection with
     * auto-commit off to its owner (it neither commits nor rolls back), and closing it here does nothing.
     */
    private record TransactionSource(io.tas.store.Tx transaction) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            Connection tx = transaction.dsl().configuration().connectionProvider().acquire();
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (p, m, args) -> {
                if (m.getName().equals("close")) return null;
                try {
                    return m.invoke(tx, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
        }

        @Override public Connection getConnection(String user, String password) throws SQLException { return getConnection(); }
        @Override public PrintWriter getLogWriter() { return null; }
        @Override public void setLogWriter(PrintWriter out) {}
        @Override public void setLoginTimeout(int seconds) {}
        @Override public int getLoginTimeout() { return 0; }
        @Override public Logger getParentLogger() throws SQLFeatureNotSupportedException { throw new SQLFeatureNotSupportedException(); }
        @Override public <T> T unwrap(Class<T> iface) throws SQLException { throw new SQLException("not a wrapper"); }
        @Override public boolean isWrapperFor(Class<?> iface) { return false; }
    }
}
