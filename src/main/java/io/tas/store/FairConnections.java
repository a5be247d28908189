package io.tas.store;

import com.zaxxer.hikari.HikariDataSource;
import org.jooq.ConnectionProvider;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A pool's connections, handed out first come, first served. HikariCP is not fair: a connection given back goes to
 * whichever thread scans the pool first, so under load a newcomer can take it ahead of a request that has waited
 * for a while, and that request's latency grows without bound (the PostgreSQL tail of issue 7). A fair semaphore
 * with one permit per pooled connection orders the waiters; a thread that holds a permit always finds a free
 * connection, since every borrower passes through here.
 */
final class FairConnections implements ConnectionProvider, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FairConnections.class);
    private final DataSource source;
    private final Semaphore permits;
    private final long timeoutMs;

    FairConnections(DataSource source, int size, long timeoutMs) {
        this.source = source;
        this.permits = new Semaphore(size, true);
        this.timeoutMs = timeoutMs;
    }

    /** Waits in arrival order for a connection, at most timeoutMs. */
    @Override
    public Connection acquire() {
        try {
            if (!permits.tryAcquire(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new DataAccessException("no database connection within " + timeoutMs + " ms",
                        new SQLTransientConnectionException("connection pool exhausted", "08001"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DataAccessException("interrupted while waiting for a database connection", e);
        }
        try {
            return source.getConnection();
        } catch (SQLException e) {
            permits.release();
            throw new DataAccessException("no database connection: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            permits.release();
            throw e;
        }
    }

    /** The pool underneath, for a library that takes a DataSource (the job scheduler); it skips the fair line. */
    DataSource dataSource() { return source; }

    /** Callers waiting for a connection (HikariCP's own pending count cannot see them: they wait here). */
    int waiting() { return permits.getQueueLength(); }

    /** Gives the connection back; one that cannot be closed is evicted from the pool. Never throws. */
    @Override
    public void release(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            evict(c, e);
        } finally {
            permits.release();
        }
    }

    /** Drops a broken connection from the pool (the pool would find out at its next validation anyway). */
    void evict(Connection c, Exception cause) {
        log.warn("database connection evicted from the pool: {}", cause.getMessage());
        if (source instanceof HikariDataSource pool) {
            try {
                pool.evictConnection(c);
            } catch (RuntimeException ignored) {
                // already gone
            }
        }
    }

    /**
     * D204: holds every new caller (HikariCP's pool suspension; they wait, and do not time out) and waits until none of
     * the pool's connections is in use; false when some still are at the deadline. Only a pool built to be paused.
     */
    boolean pauseAndDrain(long deadlineNanos) {
        var pool = hikari();
        pool.suspendPool();
        while (pool.getActiveConnections() > 0) {
            if (System.nanoTime() - deadlineNanos > 0) return false;
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Closes the paused pool's idle connections (after a shutdown of the database they are dead); it opens new ones on resume. */
    void closeIdle() { hikari().softEvictConnections(); }

    void resume() { hikari().resumePool(); }

    private com.zaxxer.hikari.HikariPoolMXBean hikari() { return ((HikariDataSource) source).getHikariPoolMXBean(); }

    @Override
    public void close() {
        if (source instanceof HikariDataSource pool) pool.close();
    }
}
