package io.tas.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.tas.config.Config;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds how long a client may take to send a request (slowloris; issue 12 item 8). Helidon closes a connection that
 * has been idle since its last answer, also while a request line trickles in (idle-connection-timeout), but once the
 * request line is in it reads headers and body for as long as bytes keep coming, one a second for hours, on NIO
 * sockets that have no read timeout. So a clock starts when the request line has arrived and stops when the headers
 * have (a request without a body), when the pipeline has read the body ({@link #bodyRead()}), or when an answer starts.
 * A sweeper interrupts the connection's thread once its clock passes the limit, as Helidon's own idle close does:
 * the blocked read ends and the socket is closed, with no answer (the client never finished asking).
 * <p>
 * The sweeper's check (the clock runs and is late) and its act (the interrupt) hold the clock's lock, and so does
 * stopping it: a request whose reading ended before the check is never interrupted. One whose reading ended between
 * the last byte and the stop, when the sweeper acted in between, finds its clock CLOSING at the stop and takes the
 * interrupt back (D129): its read was whole, so nothing was cut.
 */
public final class SlowClients implements AutoCloseable {
    /** TAS_REQUEST_READ_TIMEOUT_MS bounds headers and body; TAS_IDLE_CONNECTION_TIMEOUT_MS an idle keep-alive connection. */
    public record Settings(Duration requestReadTimeout, Duration idleConnectionTimeout) {
        /** Both unset (read in Config.fromEnv). */
        public static final Settings DEFAULTS = new Settings(Duration.ofSeconds(10), Duration.ofMinutes(2));

        /** How often Helidon looks for idle connections: a tenth of the timeout, within 1..30 s. */
        public Duration idleConnectionPeriod() {
            long ms = Math.clamp(idleConnectionTimeout.toMillis() / 10, 1_000L, 30_000L);
            return Duration.ofMillis(ms);
        }
    }

    /**
     * One connection's clock: 0 when stopped, else System.nanoTime() when it started; CLOSING once the sweeper acted.
     * Changed only under its own lock (uncontended but for the sweeper's rare visits; no pinning since JDK 24).
     */
    private final class Deadline {
        private static final long CLOSING = Long.MIN_VALUE;
        final Thread thread = Thread.currentThread(); // Helidon serves a connection on one (virtual) thread
        private long started;

        synchronized void start() {
            long now = System.nanoTime();
            started = now == 0 || now == CLOSING ? 1 : now;
        }

        /**
         * Called on the connection's own thread once its request is read whole (readWhole), or once an answer starts
         * (the body perhaps unread, or its read cut): from here on the sweeper leaves it alone.
         */
        synchronized void stop(boolean readWhole) {
            if (started == CLOSING && readWhole) {
                // The sweeper interrupted this thread after its read had ended, before it got here (D129): no read
                // is cut by it, so the interrupt is taken back and the request goes on.
                Thread.interrupted();
                closedConnections.decrementAndGet();
            }
            started = 0;
        }

        /** The sweeper's check and act, as one step under the lock. */
        synchronized void closeIfLate(long now) {
            if (started == 0 || started == CLOSING || now - started <= limitNanos) return;
            betweenCheckAndAct.run();
            started = CLOSING;
            closedConnections.incrementAndGet();
            thread.interrupt(); // ends the blocked read and closes the channel
        }
    }

    /** Helidon's default, stated here so the refusal can name it (ProtocolErrors). */
    public static final int MAX_HEADERS_SIZE = 16_384;

    private static final ThreadLocal<Deadline> CURRENT = new ThreadLocal<>();

    private final Set<Deadline> connections = ConcurrentHashMap.newKeySet();
    private final long limitNanos;
    private final ScheduledExecutorService sweeper;
    private final AtomicLong closedConnections = new AtomicLong();
    /** Runs between the sweeper's check and its act: a test holds the sweeper there. */
    private final Runnable betweenCheckAndAct;

    public SlowClients(Duration requestReadTimeout) {
        this(requestReadTimeout, true, () -> {});
    }

    /** Without the sweeper's schedule (a test calls sweep()), and with a hook between its check and its act. */
    SlowClients(Duration requestReadTimeout, boolean scheduled, Runnable betweenCheckAndAct) {
        this.limitNanos = requestReadTimeout.toNanos();
        this.betweenCheckAndAct = betweenCheckAndAct;
        long every = Math.clamp(requestReadTimeout.toMillis() / 10, 20L, 1_000L);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("tas-slow-clients").factory());
        if (scheduled) sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
    }

    /** The pipeline has the whole body: what the handler does next is not the client's time. */
    public static void bodyRead() {
        Deadline d = CURRENT.get();
        if (d != null) d.stop(true);
    }

    /** HTTP/1.1 with this guard listening (the API listener's protocol configuration). */
    public Http1Config http1() {
        return Http1Config.builder()
                .maxHeadersSize(MAX_HEADERS_SIZE)
                // Requests are still validated; answers carry only headers this service writes (the request id is
                // [A-Za-z0-9._-] or made here), and checking them again was 4 % of a signed read (docs/benchmarks.md).
                .validateResponseHeaders(false)
                .addReceiveListener(new Http1ConnectionListener() {
                    @Override
                    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
                        requestLineRead();
                    }

                    @Override
                    public void headers(ConnectionContext ctx, Headers headers) {
                        if (!hasBody(headers)) deadline().stop(true);
                    }
                })
                .addSendListener(new Http1ConnectionListener() {
                    @Override
                    public void status(ConnectionContext ctx, Status status) {
                        // An answer starts (say, a refusal before the body was read): the clock stops. A read the
                        // sweeper cut stays cut: the request was not read whole.
                        Deadline d = CURRENT.get();
                        if (d != null) d.stop(false);
                    }
                })
                .build();
    }

    /** Connections closed because their request did not arrive in time (a metric). */
    public long closedConnections() {
        return closedConnections.get();
    }

    /** The request line is in: the clock of this thread's connection starts. */
    void requestLineRead() {
        deadline().start();
    }

    private Deadline deadline() {
        Deadline d = CURRENT.get();
        if (d == null) {
            d = new Deadline();
            CURRENT.set(d);
            connections.add(d);
        }
        return d;
    }

    private static boolean hasBody(Headers headers) {
        if (headers.contains(HeaderNames.TRANSFER_ENCODING)) return true;
        return headers.first(HeaderNames.CONTENT_LENGTH).map(v -> !v.trim().equals("0")).orElse(false);
    }

    void sweep() {
        long now = System.nanoTime();
        for (Deadline d : connections) {
            if (!d.thread.isAlive()) {
                connections.remove(d); // the connection is over
                continue;
            }
            d.closeIfLate(now);
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
