package io.tas.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/** Real databases for tests: a private in-memory H2, or a fresh PostgreSQL database dropped afterwards. */
public final class Databases {
    public static final String PG_ADMIN_URL = System.getProperty("tas.test.pg", "jdbc:postgresql://127.0.0.1:5432/postgres");

    public enum Kind { H2, POSTGRES }

    /** A database made for one test class; close() drops it. */
    public record TestDb(Kind kind, String url, String user, String name) implements AutoCloseable {
        /** Flyway over the service's migrations on this database (migration tests run it up to a version, then on). */
        public org.flywaydb.core.api.configuration.FluentConfiguration flyway() {
            return org.flywaydb.core.Flyway.configure().dataSource(url, user, "").locations("classpath:db/migration");
        }

        @Override
        public void close() {
            if (kind != Kind.POSTGRES) return;
            try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, "postgres", ""); Statement s = c.createStatement()) {
                s.execute("drop database if exists " + name + " with (force)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public static TestDb create(Kind kind) {
        String name = "tas_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        if (kind == Kind.H2) return new TestDb(kind, "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", name);
        try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL must run on 127.0.0.1:5432 (`.ci/run` starts it)", e);
        }
        return new TestDb(kind, PG_ADMIN_URL.replace("/postgres", "/" + name), "postgres", name);
    }

    private Databases() {}
}
