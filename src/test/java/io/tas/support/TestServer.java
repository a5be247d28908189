package io.tas.support;

import io.tas.App;
import io.tas.admin.SeedFile;
import io.tas.config.Config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The production App on random ports over a real database, seeded with the demo scenario. */
public final class TestServer implements AutoCloseable {
    public static final String ADMIN_TOKEN = "test-admin-token";

    public final Databases.TestDb db;
    public final App app;
    public final Clock clock;
    private final boolean ownsDb;
    private final boolean rateLimits;
    private final UnaryOperator<Config> configure;

    private TestServer(Databases.TestDb db, App app, Clock clock, boolean ownsDb, boolean rateLimits) {
        this(db, app, clock, ownsDb, rateLimits, UnaryOperator.identity());
    }

    private TestServer(Databases.TestDb db, App app, Clock clock, boolean ownsDb, boolean rateLimits, UnaryOperator<Config> configure) {
        this.db = db;
        this.app = app;
        this.clock = clock;
        this.ownsDb = ownsDb;
        this.rateLimits = rateLimits;
        this.configure = configure;
        awaitChangeFeed(app);
    }

    /**
     * Waits (at most 10 s) until the node listens on the change feed, as a node in service does. Its first LISTEN tells
     * the node that anything may have changed, which pushes every subscribed account again (StreamHub.resync): a test
     * that subscribed before it, on a loaded box, would see that push as a repeat.
     */
    private static void awaitChangeFeed(App app) {
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (!app.changes().inSync() && System.nanoTime() < until) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A server with rate limits on and settings changed from the test defaults (say, a Redis URL). */
    public static TestServer start(Databases.Kind kind, Clock clock, UnaryOperator<Config> configure) {
        Databases.TestDb db = Databases.create(kind);
        try {
            App app = App.start(configure.apply(config(db, true)), clock, a -> a.seeds().apply(demoSeed()));
            return new TestServer(db, app, clock, true, true, configure);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** Another node over the first one's database with the first one's changed settings. */
    public static TestServer secondNode(TestServer first) {
        return new TestServer(first.db, App.start(first.configure.apply(config(first.db, first.rateLimits)), first.clock),
                first.clock, false, first.rateLimits, first.configure);
    }

    private static SeedFile demoSeed() {
        try {
            return SeedFile.load("demo");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static TestServer start(Databases.Kind kind, Clock clock) {
        return start(kind, clock, true);
    }

    public static TestServer start(Databases.Kind kind, Clock clock, boolean rateLimits) {
        Databases.TestDb db = Databases.create(kind);
        SeedFile demo;
        try {
            demo = SeedFile.load("demo");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        App app = App.start(config(db, rateLimits), clock, a -> a.seeds().apply(demo));
        return new TestServer(db, app, clock, true, rateLimits);
    }

    /** Another node over the first one's database (PostgreSQL: they share it as production nodes do). */
    public static TestServer secondNode(TestServer first, boolean rateLimits) {
        return new TestServer(first.db, App.start(config(first.db, rateLimits), first.clock), first.clock, false, rateLimits);
    }

    /**
     * A restart: this node stops (gracefully, as on SIGTERM) and a new one starts over the same database and clock,
     * with nothing seeded again. Use the returned server from then on; it owns the database if this one did.
     */
    public TestServer restart() {
        return restart(clock);
    }

    /** A restart on another clock object (a process that starts anew has its clock from scratch). */
    public TestServer restart(Clock newClock) {
        app.close();
        return new TestServer(db, App.start(configure.apply(config(db, rateLimits)), newClock), newClock, ownsDb, rateLimits, configure);
    }

    private static Config config(Databases.TestDb db, boolean rateLimits) {
        // 8 request connections instead of 16: a PostgreSQL node then holds 17 connections, so the shared servers and a
        // two-node test fit in PostgreSQL's default max_connections (100) together, as on a fresh machine.
        return Config.fromEnv(Map.of("TAS_DB_POOL_SIZE", "8"))
                .withPort(0).withAdminPort(0)
                .withDb(db.url(), db.user(), "")
                .withAdminToken(ADMIN_TOKEN)
                .withSandbox(true) // the demo master key
                .withRateLimits(rateLimits)
                // Tests send failed authentications by the thousand from 127.0.0.1 and expect each one's code:
                // AuthFailureLimitTest sets real limits (D122).
                .withAuthFailureLimits(1_000_000, 1_000_000)
                .withTimestampWindow(Duration.ofSeconds(30));
    }

    public String baseUrl() { return "http://127.0.0.1:" + app.port(); }

    public String adminUrl() { return "http://127.0.0.1:" + app.adminPort(); }

    public ApiClient client(Credentials c) { return new ApiClient(baseUrl(), c, clock); }

    @Override
    public void close() {
        app.close();
        if (ownsDb) db.close();
    }
}
