package io.tas.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        boolean sandbox,
        int adminMaxBodyBytes,
        int seedMaxBytes,
        Integer nodeId,          // pinned node id of this node's IDs; null: lease the lowest free one
        Duration nodeLeaseTtl,   // a node id whose lease is not renewed for this long may be taken over
        String redisUrl,         // §8 buckets shared across nodes in this Redis (redis://host:port); null: in this process
        String redisKeyPrefix,   // every bucket key starts with it, so several deployments can share one Redis
        Duration redisTimeout,   // a Redis command slower than this counts as Redis down (D85)
        String trustedProxies,   // IPs and CIDRs whose X-Forwarded-For names the client (io.tas.http.TrustedProxies); blank: none
        int rateLimitNodes,      // the nodes sharing the Redis buckets: while Redis does not answer each grants quota / this (D124)
        int authFailuresPerIp,   // failed authentications (40006, 40009, 40012) an IP may make per minute, then 429 (D122)
        int passphraseFailuresPerKey) { // wrong passphrases per key per minute, then 429 before the PBKDF2 check (D122)

    public static final String DEFAULT_H2_URL = "jdbc:h2:file:./data/tas";
    /** Sandbox-only master key; operators set TAS_MASTER_KEY. Documented in README, refused outside a sandbox. */
    public static final String DEMO_MASTER_KEY = "tas-demo-master-key-change-me-in-production";
    /** Sandbox-only admin token; published in the README, refused outside a sandbox. */
    public static final String DEMO_ADMIN_TOKEN = "tas-demo-admin-token";
    public static final int MIN_ADMIN_TOKEN_LENGTH = 16;
    /** The widest ACCESS-TIMESTAMP window outside a sandbox: the platform's ±30 s (wire facts). */
    public static final long MAX_LIVE_TIMESTAMP_WINDOW_MS = 30_000;

    /** A configuration the service must not start with; the message says what to set. */
    public static final class Invalid extends IllegalArgumentException {
        public Invalid(String message) { super(message); }
    }

    public static Config fromEnv(Map<String, String> env) {
        String dbUrl = env.getOrDefault("TAS_DB_URL", DEFAULT_H2_URL);
        return new Config(
                env.getOrDefault("TAS_HOST", "0.0.0.0"),
                number(env, "TAS_PORT", 8080),
                env.getOrDefault("TAS_ADMIN_HOST", "127.0.0.1"),
                number(env, "TAS_ADMIN_PORT", 8081),
                env.getOrDefault("TAS_ADMIN_TOKEN", DEMO_ADMIN_TOKEN),
                dbUrl,
                env.getOrDefault("TAS_DB_USER", dbUrl.startsWith("jdbc:postgresql") ? "postgres" : "sa"),
                env.getOrDefault("TAS_DB_PASSWORD", ""),
                number(env, "TAS_DB_POOL_SIZE", 16),
                env.getOrDefault("TAS_MASTER_KEY", DEMO_MASTER_KEY),
                !"off".equalsIgnoreCase(env.getOrDefault("TAS_RATE_LIMITS", "on")),
                Duration.ofMillis(number(env, "TAS_TIMESTAMP_WINDOW_MS", 30_000)),
                number(env, "TAS_MAX_BODY_BYTES", 65_536),
                !"off".equalsIgnoreCase(env.getOrDefault("TAS_CACHE", "on")),
                "on".equalsIgnoreCase(env.getOrDefault("TAS_SANDBOX", "off")),
                number(env, "TAS_ADMIN_MAX_BODY_BYTES", 1 << 20),
                number(env, "TAS_SEED_MAX_BYTES", 256 << 20),
                env.getOrDefault("TAS_NODE_ID", "").isBlank() ? null : number(env, "TAS_NODE_ID", 0),
                Duration.ofMillis(number(env, "TAS_NODE_LEASE_TTL_MS", 30_000)),
                env.getOrDefault("TAS_REDIS_URL", "").isBlank() ? null : env.get("TAS_REDIS_URL").strip(),
                env.getOrDefault("TAS_REDIS_KEY_PREFIX", "tas:rl:"),
                Duration.ofMillis(number(env, "TAS_REDIS_TIMEOUT_MS", 200)),
                env.getOrDefault("TAS_TRUSTED_PROXIES", ""),
                number(env, "TAS_RATE_LIMIT_NODES", 2),
                number(env, "TAS_AUTH_FAILURES_PER_IP", 60),
                number(env, "TAS_PASSPHRASE_FAILURES_PER_KEY", 10));
    }

    /** A duration set in milliseconds, NAME_MS, within min..max; a clear refusal otherwise. */
    public static Duration millis(Map<String, String> env, String name, long otherwise, long min, long max) {
        String v = env.getOrDefault(name, Long.toString(otherwise));
        long ms;
        try {
            ms = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new Invalid(name + " must be a number of milliseconds, got " + v);
        }
        if (ms < min || ms > max) throw new Invalid(name + " must be " + min + ".." + max + " ms, got " + v);
        return Duration.ofMillis(ms);
    }

    private static int number(Map<String, String> env, String name, int otherwise) {
        String v = env.get(name);
        if (v == null) return otherwise;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new Invalid(name + " must be a whole number, not '" + v + "'");
        }
    }

    /**
     * Why this configuration must not serve, or nothing. An empty admin token would match an empty Bearer
     * header, and the demo token and master key are published, so outside a sandbox they protect nothing.
     */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (adminToken == null || adminToken.strip().length() < MIN_ADMIN_TOKEN_LENGTH) {
            out.add("TAS_ADMIN_TOKEN must be at least " + MIN_ADMIN_TOKEN_LENGTH + " characters besides blanks ("
                    + (adminToken == null || adminToken.isBlank() ? "it is empty" : "it has " + adminToken.strip().length()) + ")");
        } else if (!sandbox && DEMO_ADMIN_TOKEN.equals(adminToken)) {
            out.add("TAS_ADMIN_TOKEN is the published demo token: set a secret of your own, or pass --sandbox (TAS_SANDBOX=on) to run a sandbox");
        }
        if (masterKey == null || masterKey.isBlank()) {
            out.add("TAS_MASTER_KEY must not be empty");
        } else if (!sandbox && DEMO_MASTER_KEY.equals(masterKey)) {
            out.add("TAS_MASTER_KEY is the published demo key: set a secret of your own (and keep it: API secrets stored under one "
                    + "master key cannot be read under another), or pass --sandbox (TAS_SANDBOX=on) to run a sandbox");
        }
        // Wire facts: ACCESS-TIMESTAMP within 30 s. A wider window lets a captured request be replayed for longer, so it
        // is a sandbox's only (bench/run replays requests signed once with it, issue 12 item 10).
        if (!sandbox && timestampWindow.toMillis() > MAX_LIVE_TIMESTAMP_WINDOW_MS) {
            out.add("TAS_TIMESTAMP_WINDOW_MS above " + MAX_LIVE_TIMESTAMP_WINDOW_MS + " is for a sandbox only (pass --sandbox, TAS_SANDBOX=on)");
        }
        if (adminMaxBodyBytes <= 0) out.add("TAS_ADMIN_MAX_BODY_BYTES must be positive");
        if (seedMaxBytes <= 0) out.add("TAS_SEED_MAX_BYTES must be positive");
        if (redisUrl != null && !redisUrl.startsWith("redis://") && !redisUrl.startsWith("rediss://")) {
            out.add("TAS_REDIS_URL must start with redis:// or rediss:// (say redis://127.0.0.1:6379)");
        }
        if (redisKeyPrefix == null || redisKeyPrefix.isEmpty()) out.add("TAS_REDIS_KEY_PREFIX must not be empty");
        if (redisTimeout.isNegative() || redisTimeout.isZero()) out.add("TAS_REDIS_TIMEOUT_MS must be positive");
        if (rateLimitNodes < 1) out.add("TAS_RATE_LIMIT_NODES must be at least 1");
        if (authFailuresPerIp < 1) out.add("TAS_AUTH_FAILURES_PER_IP must be at least 1 (a minute's failed authentications per IP)");
        if (passphraseFailuresPerKey < 1) out.add("TAS_PASSPHRASE_FAILURES_PER_KEY must be at least 1 (a minute's wrong passphrases per key)");
        try {
            io.tas.http.TrustedProxies.parse(trustedProxies);
        } catch (Invalid e) {
            out.add(e.getMessage());
        }
        return out;
    }

    /** This configuration, or Invalid naming every problem at once. App.start calls it, so every entry point does. */
    public Config validated() {
        List<String> p = problems();
        if (!p.isEmpty()) throw new Invalid(String.join("; ", p));
        return this;
    }

    public Config withPort(int p) { return with(e -> e.port = p); }
    public Config withAdminPort(int p) { return with(e -> e.adminPort = p); }
    public Config withDb(String url, String user, String password) {
        return with(e -> { e.dbUrl = url; e.dbUser = user; e.dbPassword = password; });
    }
    public Config withRateLimits(boolean on) { return with(e -> e.rateLimitsEnabled = on); }
    public Config withCache(boolean on) { return with(e -> e.cacheEnabled = on); }
    public Config withAdminToken(String t) { return with(e -> e.adminToken = t); }
    public Config withTimestampWindow(Duration d) { return with(e -> e.timestampWindow = d); }
    public Config withSandbox(boolean on) { return with(e -> e.sandbox = on); }
    public Config withNodeId(Integer id) { return with(e -> e.nodeId = id); }
    public Config withRedisUrl(String url) { return with(e -> e.redisUrl = url == null || url.isBlank() ? null : url.strip()); }
    public Config withRedisKeyPrefix(String prefix) { return with(e -> e.redisKeyPrefix = prefix); }
    public Config withTrustedProxies(String list) { return with(e -> e.trustedProxies = list == null ? "" : list); }
    public Config withRateLimitNodes(int n) { return with(e -> e.rateLimitNodes = n); }
    public Config withAuthFailureLimits(int perIp, int perKey) { return with(e -> { e.authFailuresPerIp = perIp; e.passphraseFailuresPerKey = perKey; }); }

    /** A copy with some fields changed. Edit is the one place besides the record header that names every field. */
    private Config with(java.util.function.Consumer<Edit> change) {
        Edit e = new Edit(this);
        change.accept(e);
        return e.build();
    }

    private static final class Edit {
        String host, adminHost, adminToken, dbUrl, dbUser, dbPassword, masterKey, redisUrl, redisKeyPrefix, trustedProxies;
        int port, adminPort, dbPoolSize, maxBodyBytes, adminMaxBodyBytes, seedMaxBytes, rateLimitNodes, authFailuresPerIp, passphraseFailuresPerKey;
        boolean rateLimitsEnabled, cacheEnabled, sandbox;
        Duration timestampWindow, nodeLeaseTtl, redisTimeout;
        Integer nodeId;

        Edit(Config c) {
            host = c.host; port = c.port; adminHost = c.adminHost; adminPort = c.adminPort; adminToken = c.adminToken;
            dbUrl = c.dbUrl; dbUser = c.dbUser; dbPassword = c.dbPassword; dbPoolSize = c.dbPoolSize; masterKey = c.masterKey;
            rateLimitsEnabled = c.rateLimitsEnabled; timestampWindow = c.timestampWindow; maxBodyBytes = c.maxBodyBytes;
            cacheEnabled = c.cacheEnabled; sandbox = c.sandbox; adminMaxBodyBytes = c.adminMaxBodyBytes;
            seedMaxBytes = c.seedMaxBytes; nodeId = c.nodeId; nodeLeaseTtl = c.nodeLeaseTtl;
            redisUrl = c.redisUrl; redisKeyPrefix = c.redisKeyPrefix; redisTimeout = c.redisTimeout;
            trustedProxies = c.trustedProxies;
            rateLimitNodes = c.rateLimitNodes; authFailuresPerIp = c.authFailuresPerIp; passphraseFailuresPerKey = c.passphraseFailuresPerKey;
        }

        Config build() {
            return new Config(host, port, adminHost, adminPort, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey,
                    rateLimitsEnabled, timestampWindow, maxBodyBytes, cacheEnabled, sandbox, adminMaxBodyBytes, seedMaxBytes,
                    nodeId, nodeLeaseTtl, redisUrl, redisKeyPrefix, redisTimeout, trustedProxies, rateLimitNodes, authFailuresPerIp,
                    passphraseFailuresPerKey);
        }
    }
}
