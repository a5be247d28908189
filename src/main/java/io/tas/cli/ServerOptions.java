package io.tas.cli;

import io.tas.config.Config;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.Map;

/** Flags shared by `serve` and `demo`; each overrides its TAS_* environment variable. */
public final class ServerOptions {
    @Option(names = "--port", description = "API port (env TAS_PORT, default 8080; 0 = any free port)")
    Integer port;
    @Option(names = "--admin-port", description = "admin listener port (env TAS_ADMIN_PORT, default 8081)")
    Integer adminPort;
    @Option(names = "--db-url", description = "JDBC URL: jdbc:h2:file:..., jdbc:h2:mem:... or jdbc:postgresql://... (env TAS_DB_URL)")
    String dbUrl;
    @Option(names = "--db-user", description = "database user (env TAS_DB_USER)")
    String dbUser;
    @Option(names = "--db-password", description = "database password (env TAS_DB_PASSWORD)")
    String dbPassword;
    @Option(names = "--rate-limits", description = "on or off (env TAS_RATE_LIMITS, default on)")
    String rateLimits;
    @Option(names = "--cache", description = "cache of accounts and settings, on or off (env TAS_CACHE, default on; PostgreSQL nodes invalidate each other)")
    String cache;
    @Option(names = "--timestamp-window-ms", description = "accepted ACCESS-TIMESTAMP skew (env TAS_TIMESTAMP_WINDOW_MS, default 30000)")
    Long timestampWindowMs;
    @Option(names = "--node-id", description = "node id 0..1023 of this node's IDs, leased from the database (env TAS_NODE_ID, default: the lowest free one)")
    Integer nodeId;
    @Option(names = "--redis-url", description = "share the §8 rate limits of every node through this Redis, e.g. redis://127.0.0.1:6379 (env TAS_REDIS_URL, default: limits in this process)")
    String redisUrl;
    @Option(names = "--trusted-proxies", description = "comma list of proxy IPs and CIDRs whose X-Forwarded-For names the client (env TAS_TRUSTED_PROXIES, default: none, the header is ignored)")
    String trustedProxies;

    /** The configuration of env with these flags over it: a flag wins over its variable, a variable over the default. */
    Config apply(Map<String, String> env) {
        // --db-url is read as the URL setting itself: another URL may mean another database's default user, while
        // TAS_DB_USER / TAS_DB_PASSWORD still apply (Config.fromEnv decides both, in one place).
        Config c = Config.fromEnv(dbUrl == null ? env : Config.withUrl(env, dbUrl));
        if (port != null) c = c.withPort(port);
        if (adminPort != null) c = c.withAdminPort(adminPort);
        if (dbUser != null || dbPassword != null) {
            c = c.withDb(c.dbUrl(), dbUser != null ? dbUser : c.dbUser(), dbPassword != null ? dbPassword : c.dbPassword());
        }
        if (rateLimits != null) c = c.withRateLimits(Config.onOffFlag("--rate-limits", rateLimits));
        if (cache != null) c = c.withCache(Config.onOffFlag("--cache", cache));
        if (timestampWindowMs != null) c = c.withTimestampWindow(Duration.ofMillis(timestampWindowMs));
        if (nodeId != null) c = c.withNodeId(nodeId);
        if (redisUrl != null) c = c.withRedisUrl(redisUrl);
        if (trustedProxies != null) c = c.withTrustedProxies(trustedProxies);
        return c;
    }
}
