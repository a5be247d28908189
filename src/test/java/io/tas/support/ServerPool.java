package io.tas.support;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * One demo-seeded server per database kind, shared by the API test classes of a run (starting one
 * costs a migration) and closed when the JVM exits. Time is a MutableClock: tests advance it instead of sleeping.
 */
public final class ServerPool {
    private static final Map<Databases.Kind, TestServer> SERVERS = new EnumMap<>(Databases.Kind.class);
    private static final Map<Databases.Kind, MutableClock> CLOCKS = new EnumMap<>(Databases.Kind.class);

    public static synchronized TestServer server(Databases.Kind kind) {
        return SERVERS.computeIfAbsent(kind, k -> {
            MutableClock clock = new MutableClock(System.currentTimeMillis());
            CLOCKS.put(k, clock);
            TestServer s = TestServer.start(k, clock);
            Runtime.getRuntime().addShutdownHook(new Thread(s::close));
            return s;
        });
    }

    public static synchronized MutableClock clock(Databases.Kind kind) {
        server(kind);
        return CLOCKS.get(kind);
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
