package io.tas.ops;

import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import io.tas.config.Config;
import io.tas.store.Database;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Liveness and readiness for load balancers and orchestrators (issue 11 item 3), on the API listener, without
 * signature or rate limit. Live: the process answers. Ready: the database answers, Redis too when the §8 buckets live
 * there, and the node is not shutting down (D84).
 */
public final class Health {
    /**
     * TAS_SHUTDOWN_GRACE_MS: how long each listener waits for in-flight requests before closing their connections;
     * TAS_SHUTDOWN_DELAY_MS: how long readiness answers DOWN before the listeners stop (for a proxy's health check).
     */
    public record Settings(Duration shutdownGrace, Duration shutdownDelay) {
        public static Settings fromEnv(Map<String, String> env) {
            return new Settings(Config.millis(env, "TAS_SHUTDOWN_GRACE_MS", 10_000, 0, 30_000),
                    Config.millis(env, "TAS_SHUTDOWN_DELAY_MS", 0, 0, 30_000));
        }
    }

    private final Database db;
    /** 1 up, 0 down, -1 not configured (RateLimiter.redisUp: the §8 buckets in Redis, issue 11 item 1). */
    private final IntSupplier redis;
    private volatile boolean draining;

    public Health(Database db, IntSupplier redis) {
        this.db = db;
        this.redis = redis;
    }

    public void register(HttpRouting.Builder r) {
        r.get("/health/live", (req, res) -> send(res, Status.OK_200, "{\"status\":\"UP\"}"));
        r.get("/health/ready", (req, res) -> {
            boolean database = databaseUp();
            int redisState = redis.getAsInt();
            boolean ready = database && redisState != 0 && !draining;
            send(res, ready ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503, "{\"status\":\"" + (ready ? "UP" : "DOWN")
                    + "\",\"checks\":{\"database\":\"" + (database ? "UP" : "DOWN") + "\""
                    + (redisState < 0 ? "" : ",\"redis\":\"" + (redisState == 1 ? "UP" : "DOWN") + "\"")
                    + ",\"draining\":" + draining + "}}");
        });
    }

    /** Shutdown has begun: readiness answers DOWN from now on. */
    public void drain() { draining = true; }

    private boolean databaseUp() {
        try {
            return db.read(dsl -> dsl.selectOne().fetchOne() != null);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static void send(ServerResponse res, Status status, String json) {
        res.status(status).header("Content-Type", "application/json").send(json.getBytes(StandardCharsets.UTF_8));
    }
}
