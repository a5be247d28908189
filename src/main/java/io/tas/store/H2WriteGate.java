package io.tas.store;

import org.h2.jdbcx.JdbcDataSource;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.logging.Logger;

/**
 * One writing session at a time on an H2 database (D113). H2's MVStore writes a version of its maps by taking each
 * map's root in turn while other sessions go on writing, so a store that ran beside another session's transaction
 * could hold part of it; after a SIGKILL the crash proof found a small-asset trade's balance update without its
 * journal rows, and an acknowledged set-margin gone. Behind the gate every store H2 makes (at a commit, or when
 * unsaved changes pile up) runs on the thread of the one session that writes, with no other write in flight.
 * <p>
 * A plain read (a SELECT without FOR UPDATE) never takes the gate: it changes no map. A connection takes it at its
 * first other statement and, once auto-commit is off, keeps it until commit, rollback or close; in auto-commit mode
 * only for that statement. Writing transactions on H2 therefore run one after another; PostgreSQL never goes through
 * here.
 */
final class H2WriteGate {
    /** Longer than any transaction of the service takes; past it a writer fails with an error instead of hanging. */
    static final long WAIT_MS = 30_000;
    /** One gate per database: connections to the same file share one H2 engine in this JVM. */
    private static final ConcurrentMap<String, Semaphore> GATES = new ConcurrentHashMap<>();
    private static final Set<String> EXECUTE = Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate",
            "executeBatch", "executeLargeBatch");

    private static final Pattern CHANGES = Pattern.compile("\\b(insert|update|delete|merge)\\b");

    private H2WriteGate() {}

    /** Connections to url, each passing through the gate of its database. */
    static DataSource gated(String url, String user, String password) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL(url);
        h2.setUser(user);
        h2.setPassword(password);
        Semaphore gate = GATES.computeIfAbsent(database(url), k -> new Semaphore(1, true));
        return new GatedSource(h2, gate);
    }

    /** The database a URL names, without its settings: jdbc:h2:file:./data/tas;WRITE_DELAY=0 and ...;LOCK_TIMEOUT=1 share a gate. */
    static String database(String url) {
        int semi = url.indexOf(';');
        return semi < 0 ? url : url.substring(0, semi);
    }

    /**
     * Whether a statement only reads: SELECT, WITH, VALUES, TABLE, SHOW or EXPLAIN, without the words INSERT, UPDATE,
     * DELETE or MERGE anywhere (FOR UPDATE locks rows by writing; H2's SELECT ... FROM FINAL TABLE (INSERT ...) writes).
     */
    static boolean onlyReads(String sql) {
        if (sql == null) return false;
        String s = sql.strip().toLowerCase(Locale.ROOT);
        while (s.startsWith("(")) s = s.substring(1).stripLeading();
        boolean read = s.startsWith("select") || s.startsWith("with") || s.startsWith("values") || s.startsWith("table")
                || s.startsWith("show") || s.startsWith("explain");
        return read && !CHANGES.matcher(s).find();
    }

    private record GatedSource(JdbcDataSource h2, Semaphore gate) implements DataSource {
        @Override public Connection getConnection() throws SQLException { return wrap(h2.getConnection()); }
        @Override public Connection getConnection(String user, String password) throws SQLException { return wrap(h2.getConnection(user, password)); }
        @Override public PrintWriter getLogWriter() { return null; }
        @Override public void setLogWriter(PrintWriter out) {}
        @Override public void setLoginTimeout(int seconds) { h2.setLoginTimeout(seconds); }
        @Override public int getLoginTimeout() { return h2.getLoginTimeout(); }
        @Override public Logger getParentLogger() throws SQLFeatureNotSupportedException { throw new SQLFeatureNotSupportedException(); }
        @Override public <T> T unwrap(Class<T> iface) throws SQLException { throw new SQLException("not a wrapper"); }
        @Override public boolean isWrapperFor(Class<?> iface) { return false; }

        private Connection wrap(Connection c) throws SQLException {
            return (Connection) Proxy.newProxyInstance(H2WriteGate.class.getClassLoader(), new Class<?>[]{Connection.class}, new Session(c, gate));
        }
    }

    /** A connection's hold on the gate; its statements report to it. Closing or ending a transaction lets go. */
    private static final class Session implements InvocationHandler {
        private final Connection connection;
        private final Semaphore gate;
        private volatile boolean autoCommit;
        private volatile boolean holding;
        /** Set by close or abort (from any thread, HikariCP's too): a turn taken after it is handed back at once. */
        private volatile boolean closed;

        Session(Connection connection, Semaphore gate) throws SQLException {
            this.connection = connection;
            this.gate = gate;
            this.autoCommit = connection.getAutoCommit();
        }

        @Override
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            String name = m.getName();
            if (name.equals("equals")) return proxy == args[0];
            if (name.equals("hashCode")) return System.identityHashCode(proxy);
            try {
                Object result = call(connection, m, args);
                if (result instanceof CallableStatement || result instanceof PreparedStatement) {
                    return statement((Statement) result, args != null && args.length > 0 ? (String) args[0] : null);
                }
                if (result instanceof Statement s) return statement(s, null);
                return result;
            } finally {
                switch (name) {
                    case "close", "abort" -> {
                        closed = true;
                        release();
                    }
                    case "commit" -> release();
                    case "rollback" -> { if (args == null) release(); } // to a savepoint, the transaction goes on
                    case "setAutoCommit" -> {
                        autoCommit = connection.getAutoCommit();
                        if (autoCommit) release(); // turning auto-commit on commits
                    }
                    default -> { }
                }
            }
        }

        private Statement statement(Statement s, String preparedSql) {
            Class<?> type = s instanceof CallableStatement ? CallableStatement.class : s instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
            return (Statement) Proxy.newProxyInstance(H2WriteGate.class.getClassLoader(), new Class<?>[]{type}, (proxy, m, args) -> {
                if (!EXECUTE.contains(m.getName())) return call(s, m, args);
                String sql = args != null && args.length > 0 && args[0] instanceof String q ? q : preparedSql;
                boolean took = enter(!m.getName().endsWith("Batch") && onlyReads(sql));
                try {
                    return call(s, m, args);
                } finally {
                    if (took && autoCommit) release();
                }
            });
        }

        /**
         * Takes the gate unless this connection holds it or the statement only reads; whether it took it. A wait past
         * WAIT_MS fails as a lack of connections does (state 08001): the database is stuck, not this statement, so a
         * group commit fails its batch at once instead of retrying each change alone.
         */
        private boolean enter(boolean read) throws SQLException {
            if (holding || read) return false;
            boolean acquired;
            try {
                acquired = gate.tryAcquire(WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLTransientConnectionException("interrupted while waiting to write on the H2 database", "08001", e);
            }
            if (!acquired) throw new SQLTransientConnectionException("no turn to write on the H2 database within " + WAIT_MS + " ms", "08001");
            synchronized (this) {
                if (closed) {
                    gate.release();
                    throw new SQLTransientConnectionException("the connection was closed", "08003");
                }
                holding = true;
            }
            return true;
        }

        private synchronized void release() {
            if (!holding) return;
            holding = false;
            gate.release();
        }

        private static Object call(Object target, Method m, Object[] args) throws Throwable {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
