package io.tas.support;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;

/** A DataSource that is only a way to get connections: tests give the one method that matters. */
@FunctionalInterface
public interface ConnectionSource extends DataSource {
    @Override Connection getConnection() throws SQLException;

    @Override default Connection getConnection(String user, String password) throws SQLException { return getConnection(); }
    @Override default PrintWriter getLogWriter() { return null; }
    @Override default void setLogWriter(PrintWriter out) {}
    @Override default void setLoginTimeout(int seconds) {}
    @Override default int getLoginTimeout() { return 0; }
    @Override default Logger getParentLogger() { return Logger.getGlobal(); }
    @Override default <T> T unwrap(Class<T> iface) { throw new UnsupportedOperationException(); }
    @Override default boolean isWrapperFor(Class<?> iface) { return false; }
}
