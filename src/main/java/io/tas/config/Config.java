package io.tas.config;

import java.time.Duration;
import java.util.Map;

/**
 * Everything an operator can set. Each field has a default, an environment variable and (in the CLI)
 * a flag; flags win over the environment, the environment over defaults.
 */
public record Config(
        String host,
        int port,
        String adminHost,
        int adminPort,
        String adminToken,
        String dbUrl,
        String dbUser,
        String dbPassword,
        int dbPoolSize,
        String masterKey,
        boolean rateLimitsEnabled,
        Duration timestampWindow,
        int maxBodyBytes,
        boolean cacheEnabled,
        Integer nodeId,          // pinned node id of this node's IDs; null: lease the lowest free one
        Duration nodeLeaseTtl) { // a node id whose lease is not renewed for this long may be taken over

    public static final String DEFAULT_H2_URL = "jdbc:h2:file:./data/tas";
    /** Sandbox-only master key; operators set TAS_MASTER_KEY. Documented in README, never used silently in prod. */
    public static final String DEMO_MASTER_KEY = "tas-demo-master-key-change-me-in-production";
    public static final String DEMO_ADMIN_TOKEN = "tas-demo-admin-token";

    public static Config fromEnv(Map<String, String> env) {
        String dbUrl = env.getOrDefault("TAS_DB_URL", DEFAULT_H2_URL);
        return new Config(
                env.getOrDefault("TAS_HOST", "0.0.0.0"),
                Integer.parseInt(env.getOrDefault("TAS_PORT", "8080")),
                env.getOrDefault("TAS_ADMIN_HOST", "127.0.0.1"),
                Integer.parseInt(env.getOrDefault("TAS_ADMIN_PORT", "8081")),
                env.getOrDefault("TAS_ADMIN_TOKEN", DEMO_ADMIN_TOKEN),
                dbUrl,
                env.getOrDefault("TAS_DB_USER", dbUrl.startsWith("jdbc:postgresql") ? "postgres" : "sa"),
                env.getOrDefault("TAS_DB_PASSWORD", ""),
                Integer.parseInt(env.getOrDefault("TAS_DB_POOL_SIZE", "16")),
                env.getOrDefault("TAS_MASTER_KEY", DEMO_MASTER_KEY),
                !"off".equalsIgnoreCase(env.getOrDefault("TAS_RATE_LIMITS", "on")),
                Duration.ofMillis(Long.parseLong(env.getOrDefault("TAS_TIMESTAMP_WINDOW_MS", "30000"))),
                Integer.parseInt(env.getOrDefault("TAS_MAX_BODY_BYTES", "65536")),
                !"off".equalsIgnoreCase(env.getOrDefault("TAS_CACHE", "on")),
                env.getOrDefault("TAS_NODE_ID", "").isBlank() ? null : Integer.valueOf(env.get("TAS_NODE_ID").trim()),
                Duration.ofMillis(Long.parseLong(env.getOrDefault("TAS_NODE_LEASE_TTL_MS", "30000"))));
    }

    public Config withPort(int p) { return new Config(host, p, adminHost, adminPort, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey, rateLimitsEnabled, timestampWindow, maxBodyBytes, cacheEnabled, nodeId, nodeLeaseTtl); }
    public Config withAdminPort(int p) { return new Config(host, port, adminHost, p, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey, rateLimitsEnabled, timestampWindow, maxBodyBytes, cacheEnabled, nodeId, nodeLeaseTtl); }
    public Config withDb(String url, String user, String password) {
        return new Config(host, port, adminHost, adminPort, adminToken, url, user, password, dbPoolSize, masterKey, rateLimitsEnabled, timestampWindow, maxBodyBytes, cacheEnabled, nodeId, nodeLeaseTtl);
    }
    public Config withRateLimits(boolean on) { return new Config(host, port, adminHost, adminPort, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey, on, timestampWindow, maxBodyBytes, cacheEnabled, nodeId, nodeLeaseTtl); }
    public Config withCache(boolean on) { return new Config(host, port, adminHost, adminPort, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey, rateLimitsEnabled, timestampWindow, maxBodyBytes, on, nodeId, nodeLeaseTtl); }
    public Config withAdminToken(String t) { return new Config(host, port, adminHost, adminPort, t, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey, rateLimitsEnabled, timestampWindow, maxBodyBytes, cacheEnabled, nodeId, nodeLeaseTtl); }
    public Config withNodeId(Integer id) { return new Config(host, port, adminHost, adminPort, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey, rateLimitsEnabled, timestampWindow, maxBodyBytes, cacheEnabled, id, nodeLeaseTtl); }
    public Config withTimestampWindow(Duration d) { return new Config(host, port, adminHost, adminPort, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey, rateLimitsEnabled, d, maxBodyBytes, cacheEnabled, nodeId, nodeLeaseTtl); }
}
