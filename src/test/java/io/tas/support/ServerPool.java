package io.tas.support;

import java.time.Duration;
import java.util.Map;

/**
 * One demo-seeded server per database kind, shared by the API test classes of a run (starting one
 * costs a migration) and closed when the JVM exits. Time is a MutableClock: tests advance it instead of sleeping.
 */
public final class ServerPool {
    /**
     * The pools: "shared" (the demo world every API test reads) and "engine" (the same demo world for the tests that
     * add instruments to trade on, issue 25, so the metadata rows of the shared one stay the demo's).
     */
    private static final Map<String, TestServer> SERVERS = new java.util.HashMap<>();
    private static final Map<String, MutableClock> CLOCKS = new java.util.HashMap<>();

    public static TestServer server(Databases.Kind kind) { return server(kind, "shared"); }

    public static synchronized TestServer server(Databases.Kind kind, String pool) {
        return SERVERS.computeIfAbsent(pool + " " + kind, k -> {
            MutableClock clock = new MutableClock(System.currentTimeMillis());
            CLOCKS.put(k, clock);
            TestServer s = TestServer.start(kind, clock);
            Runtime.getRuntime().addShutdownHook(new Thread(s::close));
            return s;
        });
    }

    public static MutableClock clock(Databases.Kind kind) { return clock(kind, "shared"); }

    public static synchronized MutableClock clock(Databases.Kind kind, String pool) {
        server(kind, pool);
        return CLOCKS.get(pool + " " + kind);
    }

    /** A server of another pool, one second later than its previous test. */
    public static TestServer next(Databases.Kind kind, String pool) {
        clock(kind, pool).advance(Duration.ofMillis(1001));
        return server(kind, pool);
    }

    /** The shared server, one second later than the previous test: every rate-limit bucket has refilled. */
    public static TestServer next(Databases.Kind kind) {
        nextSecond(kind);
        return server(kind);
    }

    /** A fresh rate-limit window for the next test: every bucket refills after one second. */
    public static void nextSecond(Databases.Kind kind) {
        clock(kind).advance(Duration.ofMillis(1001));
    }

    private ServerPool() {}
}
