package io.tas.store;

import io.tas.support.ConnectionSource;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Connections are handed out in arrival order (issue 7, item 3): a newcomer never takes one ahead of a waiter. */
class FairConnectionsTest {
    /** Hands out as many stand-in connections as asked (the permits are the only limit), or fails on demand. */
    private static final class Source implements ConnectionSource {
        final AtomicInteger open = new AtomicInteger();
        volatile boolean failing;

        @Override public Connection getConnection() throws SQLException {
            if (failing) throw new SQLException("database down", "08001");
            open.incrementAndGet();
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class}, (p, m, a) -> {
                if (m.getName().equals("close")) open.decrementAndGet();
                return null;
            });
        }
    }

    @Test
    void waitersGetTheConnectionInTheOrderTheyArrived() throws Exception {
        Source source = new Source();
        FairConnections pool = new FairConnections(source, 1, 10_000);
        Connection held = pool.acquire();
        List<Integer> served = new CopyOnWriteArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            for (int i = 0; i < 8; i++) {
                int n = i;
                threads.submit(() -> {
                    Connection c = pool.acquire();
                    served.add(n);
                    pool.release(c);
                    return null;
                });
                // The next one arrives only once this one is queued.
                for (int t = 0; t < 2000 && waiting(pool) < n + 1; t++) Thread.sleep(1);
                assertThat(waiting(pool)).isEqualTo(n + 1);
            }
            // The holder gives the connection back and at once asks again, like a newcomer: it must queue behind
            // the eight (an unfair pool, like HikariCP's own, would let it barge ahead).
            pool.release(held);
            Connection again = pool.acquire();
            served.add(99);
            pool.release(again);
            threads.shutdown();
            assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(served).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 99);
            assertThat(source.open.get()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aCallerThatWaitsTooLongGetsAConnectionErrorAndAFailedOpenLeaksNoPermit() throws Exception {
        Source source = new Source();
        FairConnections pool = new FairConnections(source, 1, 50);
        Connection held = pool.acquire();
        assertThatThrownBy(pool::acquire).isInstanceOf(DataAccessException.class)
                .hasRootCauseInstanceOf(SQLTransientConnectionException.class);
        pool.release(held);

        source.failing = true;
        assertThatThrownBy(pool::acquire).isInstanceOf(DataAccessException.class).hasMessageContaining("database down");
        source.failing = false;
        pool.release(pool.acquire()); // the permit of the failed attempt came back
        assertThat(source.open.get()).isZero();
    }

    private static int waiting(FairConnections pool) { return pool.waiting(); }
}
