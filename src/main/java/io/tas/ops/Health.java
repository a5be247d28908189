package io.tas.ops;

import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tas.config.Config;
import io.tas.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * Liveness and readiness for load balancers and orchestrators (issue 11 item 3), on the API listener, without
 * signature or rate limit. Live: the process answers. Ready: the database answers and the node is not shutting down
 * (D84). Readiness is answered from probes that run in the background every TAS_READY_PROBE_PERIOD_MS (D127): a
 * request costs no query and no Redis command, however many arrive. Redis down leaves the node ready, named under
 * "degraded": the limiter serves without it (D85), and a shared outage must not drain every node at once.
 */
public final class Health implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Health.class);
    /** pgjdbc wants an executor for setNetworkTimeout and never uses it. */
    private static final Executor DIRECT = Runnable::run;

    /**
     * TAS_SHUTDOWN_GRACE_MS: how long each listener waits for in-flight requests before closing their connections;
     * TAS_SHUTDOWN_DELAY_MS: how long readiness answers DOWN before the listeners stop (for a proxy's health check);
     * TAS_READY_PROBE_PERIOD_MS: how often the background probes ask the database and Redis;
     * TAS_READY_PROBE_TIMEOUT_MS: a database probe that has not answered within this counts as DOWN (D127).
     */
    public record Settings(Duration shutdownGrace, Duration shutdownDelay, Duration probePeriod, Duration probeTimeout) {
        /** All four unset (read in Config.fromEnv). */
        public static final Settings DEFAULTS = new Settings(Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    private final Database db;
    /** 1 up, 0 down, -1 not configured (RateLimiter.redisReady: a PING within the Redis timeout, issue 11 item 1). */
    private final IntSupplier redis;
    private final long periodNanos;
    private final long timeoutNanos;
    private final ScheduledExecutorService probes;
    private final AtomicLong probeCount = new AtomicLong();
    /** System.nanoTime() when the database last answered a probe; the last finished probe's outcome. */
    private volatile long databaseAnsweredAt;
    private volatile boolean databaseFailed = true;
    private volatile int redisState;
    private volatile boolean draining;

    /** Probes once before returning, so a node that just started answers its first readiness call from a fresh result. */
    public Health(Database db, IntSupplier redis, Settings settings) {
        this.db = db;
        this.redis = redis;
        this.periodNanos = settings.probePeriod().toNanos();
        this.timeoutNanos = settings.probeTimeout().toNanos();
        probeDatabase();
        probeRedis();
        // One thread each: a database probe that hangs (a partition) must not stop Redis from being probed.
        this.probes = Executors.newScheduledThreadPool(2, Thread.ofPlatform().daemon().name("tas-ready-probe-", 0).factory());
        long every = settings.probePeriod().toMillis();
        probes.scheduleWithFixedDelay(this::probeDatabase, every, every, TimeUnit.MILLISECONDS);
        probes.scheduleWithFixedDelay(this::probeRedis, every, every, TimeUnit.MILLISECONDS);
    }

    public void register(HttpRouting.Builder r) {
        r.get("/health/live", (req, res) -> send(res, Status.OK_200, "{\"status\":\"UP\"}"));
        r.get("/health/ready", (req, res) -> {
            boolean database = databaseUp();
            int redisNow = redisState;
            boolean ready = database && !draining;
            send(res, ready ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503, "{\"status\":\"" + (ready ? "UP" : "DOWN")
                    + "\",\"checks\":{\"database\":\"" + (database ? "UP" : "DOWN") + "\""
                    + (redisNow < 0 ? "" : ",\"redis\":\"" + (redisNow == 1 ? "UP" : "DOWN") + "\"")
                    + ",\"draining\":" + draining + "}"
                    // Only while something the node serves without is down: a healthy answer keeps D84's exact shape.
                    + (redisNow == 0 ? ",\"degraded\":[\"redis\"]" : "") + "}");
        });
    }

    /** Probes run so far (a metric; a flood of readiness calls does not add to it). */
    public long probes() { return probeCount.get(); }

    /** tas_ready_probes_total: the database and Redis probes readiness ran (each costs one query or one PING). */
    public Health bindMetrics(MeterRegistry registry) {
        FunctionCounter.builder("tas_ready_probes_total", this, Health::probes)
                .description("background readiness probes run (one database query or one Redis PING each)").register(registry);
        return this;
    }

    /** Shutdown has begun: readiness answers DOWN from now on, and the probes stop. */
    public void drain() {
        draining = true;
        probes.shutdownNow();
    }

    @Override
    public void close() { drain(); }

    /**
     * UP while the last finished probe succeeded and the database answered within a period and a timeout: a probe
     * stuck on a half-open connection or a full pool makes the node unready once it is that late (D127).
     */
    private boolean databaseUp() {
        return !databaseFailed && System.nanoTime() - databaseAnsweredAt <= periodNanos + timeoutNanos;
    }

    private void probeDatabase() {
        probeCount.incrementAndGet();
        boolean up;
        try {
            up = db.read(dsl -> {
                // A read on a half-open connection would wait for TCP to give up (minutes): bounded by the timeout, and
                // HikariCP puts the connection's own timeout back when it returns to the pool. H2 ignores it.
                dsl.connection(c -> c.setNetworkTimeout(DIRECT, (int) TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
                return dsl.selectOne().fetchOne() != null;
            });
        } catch (RuntimeException e) {
            up = false;
            if (!databaseFailed && !draining) log.warn("readiness: the database does not answer ({}); this node is not ready", e.getMessage());
        }
        if (up) {
            if (databaseFailed && databaseAnsweredAt != 0) log.info("readiness: the database answers again");
            databaseAnsweredAt = System.nanoTime();
        }
        databaseFailed = !up;
    }

    private void probeRedis() {
        try {
            int now = redis.getAsInt();
            if (now >= 0) probeCount.incrementAndGet();
            redisState = now;
        } catch (RuntimeException e) {
            redisState = 0;
        }
    }

    private static void send(ServerResponse res, Status status, String json) {
        res.status(status).header("Content-Type", "application/json").send(json.getBytes(StandardCharsets.UTF_8));
    }
}
