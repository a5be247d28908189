package io.tas.store;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tas.config.Config;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Tells every node that cached state changed. On PostgreSQL a change is a NOTIFY sent in the writing
 * transaction (so it is delivered only on commit) and each node LISTENs on its own connection; if that
 * connection drops, subscribers are told to drop everything ("*") before it reconnects. On H2 there is
 * one process, which invalidates its own cache when it writes, so publishing is a no-op.
 * <p>
 * Every publish also sends "sent:MILLIS", the sender's wall clock at the NOTIFY statement, in the same transaction:
 * each receiving node records now minus MILLIS as the change's lag (tas_change_feed_lag), and subscribers never see it.
 * It is a topic of its own, not a prefix of the key, so a node that predates it ignores it like any unknown topic.
 * The figure runs from the NOTIFY statement, so it also holds the rest of the writing transaction and its commit, and
 * between hosts any clock skew (a negative figure counts as 0).
 * <p>
 * A listening connection is silent while nothing changes, so one whose peer vanished without a FIN or RST (a network
 * partition) would look in sync for as long as TCP keeps it (hours). It makes a round trip (SELECT 1) every
 * TAS_CHANGE_FEED_PING_MS, and a round trip or a read longer than TAS_CHANGE_FEED_PING_TIMEOUT_MS counts as the
 * connection lost (D128): caches dropped, reconnect.
 */
public final class ChangeFeed implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChangeFeed.class);
    public static final String EVERYTHING = "*";
    private static final String CHANNEL = "tas_cache";
    private static final String SENT = "sent:";
    /** The listening connection's name in pg_stat_activity. */
    public static final String APPLICATION_NAME = "tas-change-feed";

    /**
     * TAS_CHANGE_FEED_PING_MS: how often the listening connection makes a round trip; TAS_CHANGE_FEED_PING_TIMEOUT_MS:
     * how long that round trip (and connecting) may take before the connection counts as lost (D128).
     */
    public record Settings(Duration pingEvery, Duration pingTimeout) {
        /** Both unset (read in Config.fromEnv). */
        public static final Settings DEFAULTS = new Settings(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    private final Database db;
    private final Settings settings;
    private final List<Consumer<String>> subscribers = new CopyOnWriteArrayList<>();
    private final Thread listener;
    private volatile boolean running = true;
    // True while every change committed by another node reaches the subscribers: the LISTEN is up and they have
    // reloaded since it came up. Always true on H2, where no other node writes.
    private volatile boolean inSync;
    private volatile Timer lag;
    /** Listening connections lost (closed, failed, or silent past the ping timeout) since start. */
    private final AtomicLong losses = new AtomicLong();

    private ChangeFeed(Database db, String url, String user, String password, Settings settings) {
        this.db = db;
        this.settings = settings;
        this.inSync = url == null;
        this.listener = url == null ? null : Thread.ofPlatform().daemon().name("tas-change-feed").unstarted(() -> listen(url, user, password));
    }

    /**
     * Starts listening, once every subscriber is registered: the first thing delivered is a full drop, and a
     * subscriber registered after it would miss it (and keep what it loaded before the LISTEN was up).
     */
    public synchronized ChangeFeed start() {
        if (listener != null && listener.getState() == Thread.State.NEW) listener.start();
        return this;
    }

    public static ChangeFeed open(Database db, String url, String user, String password) {
        return open(db, url, user, password, Settings.DEFAULTS);
    }

    public static ChangeFeed open(Database db, String url, String user, String password, Settings settings) {
        return new ChangeFeed(db, url.startsWith("jdbc:postgresql") ? url : null, user, password, settings);
    }

    public boolean sharedAcrossNodes() { return listener != null; }

    /** Records each change's delivery lag on this node as the Timer tas_change_feed_lag (PostgreSQL only). */
    public ChangeFeed measureLagIn(MeterRegistry registry) {
        if (listener != null) {
            lag = Timer.builder("tas_change_feed_lag")
                    .description("from a change's NOTIFY on the node that made it (its wall clock) to its delivery here")
                    .publishPercentiles(0.5, 0.99).register(registry);
            FunctionCounter.builder("tas_change_feed_losses_total", this, ChangeFeed::losses)
                    .description("listening connections lost (closed, failed or silent past TAS_CHANGE_FEED_PING_TIMEOUT_MS); each drops every cache")
                    .register(registry);
        }
        return this;
    }

    /** Call before start() to be told of everything; a later subscriber misses what was delivered before. */
    public void subscribe(Consumer<String> onChange) { subscribers.add(onChange); }

    /** Whether a change another node commits now will be delivered; while false, what is cached may miss it. */
    public boolean inSync() { return inSync; }

    /** How many times the listening connection was lost since start (each time, subscribers were told to drop everything). */
    public long losses() { return losses.get(); }

    /** Announces a change of key in the writing transaction: the other nodes hear of it when it commits. */
    public void publish(Tx tx, String key) {
        if (listener != null) tx.dsl().execute("select pg_notify(?, ?), pg_notify(?, ?)", CHANNEL, SENT + System.currentTimeMillis(), CHANNEL, key);
    }

    /** Announces several keys in one statement (a group-commit batch), in the writing transaction. */
    public void publishAll(Tx tx, java.util.Collection<String> keys) {
        if (listener == null || keys.isEmpty()) return;
        String[] all = new String[keys.size() + 1];
        all[0] = SENT + System.currentTimeMillis();
        int i = 1;
        for (String k : keys) all[i++] = k;
        tx.dsl().execute("select pg_notify(?, k) from unnest(?::text[]) as k", CHANNEL, all);
    }

    /**
     * Announces keys now, in a transaction of their own (what was committed already, such as a WebSocket push another
     * node's subscribers should get, D186). A no-op on H2.
     */
    public void publishNow(java.util.Collection<String> keys) {
        if (listener == null || keys.isEmpty()) return;
        String[] all = keys.toArray(String[]::new);
        db.tx(tx -> tx.dsl().execute("select pg_notify(?, k) from unnest(?::text[]) as k", CHANNEL, all));
    }

    private void listen(String url, String user, String password) {
        long pingEvery = settings.pingEvery().toNanos();
        int timeoutMs = (int) settings.pingTimeout().toMillis();
        Properties props = new Properties();
        if (user != null) props.setProperty("user", user);
        if (password != null) props.setProperty("password", password);
        // Connecting and logging in are bounded too (pgjdbc takes whole seconds there); a URL that names them keeps its own.
        String seconds = Integer.toString(Math.max(1, (timeoutMs + 999) / 1000));
        props.setProperty("connectTimeout", seconds);
        props.setProperty("socketTimeout", seconds);
        props.setProperty("ApplicationName", APPLICATION_NAME); // finds it in pg_stat_activity, whatever it ran last
        while (running) {
            try (Connection c = DriverManager.getConnection(url, props); Statement s = c.createStatement()) {
                // Every read on this connection waits at most the timeout: pgjdbc then fails and closes it (D128).
                c.setNetworkTimeout(Runnable::run, timeoutMs);
                s.execute("LISTEN " + CHANNEL);
                deliver(EVERYTHING); // anything may have changed while we were not listening
                inSync = true;
                PGConnection pg = c.unwrap(PGConnection.class);
                long nextPing = System.nanoTime() + pingEvery;
                while (running) {
                    // pgjdbc waits for the first notification with a timeout of its own, then puts ours back.
                    long untilPing = TimeUnit.NANOSECONDS.toMillis(nextPing - System.nanoTime());
                    PGNotification[] batch = pg.getNotifications((int) Math.clamp(untilPing, 1L, 1000L));
                    if (batch != null) for (PGNotification n : batch) {
                        String key = n.getParameter();
                        if (key.startsWith(SENT)) sent(key);
                        else deliver(key);
                    }
                    if (System.nanoTime() - nextPing >= 0) {
                        s.execute("SELECT 1"); // a half-open connection never answers: the network timeout ends it
                        nextPing = System.nanoTime() + pingEvery;
                    }
                }
            } catch (SQLException e) {
                inSync = false;
                if (!running) return;
                losses.incrementAndGet();
                log.warn("change feed connection lost; caches dropped, reconnecting: {}", e.getMessage());
                deliver(EVERYTHING);
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private void sent(String key) {
        Timer t = lag;
        if (t == null) return;
        try {
            t.record(Math.max(0, System.currentTimeMillis() - Long.parseLong(key.substring(SENT.length()))), TimeUnit.MILLISECONDS);
        } catch (NumberFormatException e) {
            log.debug("change feed: malformed {}", key);
        }
    }

    private void deliver(String key) {
        for (Consumer<String> s : subscribers) {
            try {
                s.accept(key);
            } catch (RuntimeException e) {
                // One subscriber's failure must not stop the others or end the listening thread.
                log.error("change feed subscriber failed on {}", key, e);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        if (listener != null) listener.interrupt();
    }
}
