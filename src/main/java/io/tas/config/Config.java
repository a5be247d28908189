package io.tas.config;

import java.math.BigDecimal;
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
        int passphraseFailuresPerKey, // wrong passphrases per key per minute, then 429 before the PBKDF2 check (D122)
        Features features) {     // the settings of single features (jobs, switch, conversion, Reality, health, ...)

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

    /** Bodies and feeds: a cap beyond these would let one request hold more memory than a node should give it. */
    static final int MAX_API_BODY = 16 << 20, MAX_ADMIN_BODY = 256 << 20, MAX_SEED = 1 << 30;

    /**
     * Every TAS_* setting the service reads, in one place (issue 24 item 9): each with its default and the values it can
     * take. A value outside them stops the start with one clause naming the setting (all of them at once); a TAS_*
     * variable nobody reads is logged as unknown (a typo would otherwise be silently ignored).
     */
    public static Config fromEnv(Map<String, String> map) {
        Env env = new Env(map);
        String dbUrl = env.text("TAS_DB_URL", DEFAULT_H2_URL);
        env.check(dbUrl.startsWith("jdbc:h2:") || dbUrl.startsWith("jdbc:postgresql:"),
                "TAS_DB_URL must be a jdbc:h2: or jdbc:postgresql: URL, not '" + dbUrl + "'");
        String redisUrl = env.text("TAS_REDIS_URL", "");
        String nodeIdRaw = env.text("TAS_NODE_ID", "");
        Config c = new Config(
                env.text("TAS_HOST", "0.0.0.0"),
                env.integer("TAS_PORT", 8080, 0, 65_535),
                env.text("TAS_ADMIN_HOST", "127.0.0.1"),
                env.integer("TAS_ADMIN_PORT", 8081, 0, 65_535),
                env.text("TAS_ADMIN_TOKEN", DEMO_ADMIN_TOKEN),
                dbUrl,
                env.text("TAS_DB_USER", dbUrl.startsWith("jdbc:postgresql") ? "postgres" : "sa"),
                env.text("TAS_DB_PASSWORD", ""),
                env.integer("TAS_DB_POOL_SIZE", 16, 1, 1_000),
                env.text("TAS_MASTER_KEY", DEMO_MASTER_KEY),
                env.onOff("TAS_RATE_LIMITS", true),
                env.millis("TAS_TIMESTAMP_WINDOW_MS", 30_000, 1_000, 86_400_000),
                env.integer("TAS_MAX_BODY_BYTES", 65_536, 1_024, MAX_API_BODY),
                env.onOff("TAS_CACHE", true),
                env.onOff("TAS_SANDBOX", false),
                env.integer("TAS_ADMIN_MAX_BODY_BYTES", 1 << 20, 1_024, MAX_ADMIN_BODY),
                env.integer("TAS_SEED_MAX_BYTES", 256 << 20, 1_024, MAX_SEED),
                nodeIdRaw.isBlank() ? null : env.optionalInteger("TAS_NODE_ID", 0, 1_023),
                env.millis("TAS_NODE_LEASE_TTL_MS", 30_000, 3_000, 3_600_000),
                redisUrl.isBlank() ? null : redisUrl.strip(),
                env.text("TAS_REDIS_KEY_PREFIX", "tas:rl:"),
                env.millis("TAS_REDIS_TIMEOUT_MS", 200, 1, 60_000),
                env.text("TAS_TRUSTED_PROXIES", ""),
                env.integer("TAS_RATE_LIMIT_NODES", 2, 1, 1_024),
                env.integer("TAS_AUTH_FAILURES_PER_IP", 60, 1, 1_000_000),
                env.integer("TAS_PASSPHRASE_FAILURES_PER_KEY", 10, 1, 1_000_000),
                features(env));
        List<String> unknown = env.unknown();
        if (!unknown.isEmpty()) org.slf4j.LoggerFactory.getLogger(Config.class).warn("unknown settings ignored: {}", unknown);
        if (!env.problems().isEmpty()) throw new Invalid(String.join("; ", env.problems()));
        return c;
    }

    private static Features features(Env env) {
        var jobs = io.tas.jobs.JobsConfig.DEFAULTS;
        var convert = io.tas.convert.ConvertConfig.DEFAULTS;
        String token = env.text("TAS_PLATFORM_TOKEN", convert.platformToken()).strip();
        env.check(io.tas.common.Inputs.isCoin(token), "TAS_PLATFORM_TOKEN must be a coin (A-Z, 0-9, at most 16), not '" + token + "'");
        var health = io.tas.ops.Health.Settings.DEFAULTS;
        var slow = io.tas.http.SlowClients.Settings.DEFAULTS;
        var feed = io.tas.store.ChangeFeed.Settings.DEFAULTS;
        // D223: retired. Reality orders trade on the matching engine, which has no separate execution to turn off; the
        // value is still checked (a typo stops the start as before) and a set one is named in a warning.
        if (env.optionalOnOff("TAS_SIMULATED_EXECUTION") != null) {
            org.slf4j.LoggerFactory.getLogger(Config.class).warn("TAS_SIMULATED_EXECUTION is retired and ignored: Reality orders trade on the matching engine (D223)");
        }
        return new Features(
                new io.tas.jobs.JobsConfig(env.millis("TAS_JOBS_POLL_MS", jobs.pollInterval().toMillis(), 10, 3_600_000),
                        env.millis("TAS_JOBS_RUN_DUE_TIMEOUT_MS", jobs.runDueTimeout().toMillis(), 0, 600_000)),
                new io.tas.accountswitch.SwitchConfig(env.millis("TAS_ACCOUNT_SWITCH_DELAY_MS",
                        io.tas.accountswitch.SwitchConfig.DEFAULT_DELAY.toMillis(), 0, 86_400_000)),
                // A fee rate of 1 or more, or below 0, would take or mint coins (issue 24 item 9).
                new io.tas.convert.ConvertConfig(token,
                        env.decimal("TAS_CONVERT_FEE_RATE", convert.feeRate().toPlainString(), BigDecimal.ZERO, true, BigDecimal.ONE, false),
                        env.decimal("TAS_SMALL_ASSET_USDT", convert.thresholdUsdt().toPlainString(), BigDecimal.ZERO, false, new BigDecimal("1000000"), true)),
                env.decimal("TAS_DELTA_POSITION_THRESHOLD", "0.2", BigDecimal.ZERO, true, BigDecimal.ONE, true),
                priceFeed(env),
                new io.tas.ops.Health.Settings(env.millis("TAS_SHUTDOWN_GRACE_MS", health.shutdownGrace().toMillis(), 0, 30_000),
                        env.millis("TAS_SHUTDOWN_DELAY_MS", health.shutdownDelay().toMillis(), 0, 30_000),
                        env.millis("TAS_READY_PROBE_PERIOD_MS", health.probePeriod().toMillis(), 100, 60_000),
                        env.millis("TAS_READY_PROBE_TIMEOUT_MS", health.probeTimeout().toMillis(), 100, 60_000)),
                new io.tas.http.SlowClients.Settings(env.millis("TAS_REQUEST_READ_TIMEOUT_MS", slow.requestReadTimeout().toMillis(), 100, 3_600_000),
                        env.millis("TAS_IDLE_CONNECTION_TIMEOUT_MS", slow.idleConnectionTimeout().toMillis(), 100, 3_600_000)),
                new io.tas.store.ChangeFeed.Settings(env.millis("TAS_CHANGE_FEED_PING_MS", feed.pingEvery().toMillis(), 100, 60_000),
                        env.millis("TAS_CHANGE_FEED_PING_TIMEOUT_MS", feed.pingTimeout().toMillis(), 100, 60_000)),
                env.oneOf("TAS_LOG_FORMAT", "text", java.util.Set.of("text", "json")),
                env.optionalOnOff("TAS_JOURNAL"), env.integer("TAS_JOURNAL_ENTRIES", 1_000, 1, 100_000),
                env.integer("TAS_H2_COMPACT_GROWTH_MB", 16, 0, 1 << 20));
    }

    /**
     * TAS_PRICE_FEED=on|off; its seed, interval, step and scope are read only when it is on (a malformed one then stops
     * the start); the step is a fraction, 0 < step < 0.2 (the band); the scope is reality (the Reality pairs) or all.
     */
    private static io.tas.reality.RealityPriceFeed.Settings priceFeed(Env env) {
        if (!env.onOff("TAS_PRICE_FEED", false)) {
            env.known("TAS_PRICE_FEED_SEED", "TAS_PRICE_FEED_INTERVAL_MS", "TAS_PRICE_FEED_STEP", "TAS_PRICE_FEED_SCOPE");
            return io.tas.reality.RealityPriceFeed.Settings.OFF;
        }
        BigDecimal band = io.tas.reality.RealityPriceFeed.Settings.defaultBand();
        return new io.tas.reality.RealityPriceFeed.Settings(true, env.anyLong("TAS_PRICE_FEED_SEED", 1),
                env.millis("TAS_PRICE_FEED_INTERVAL_MS", 1_000, 100, 3_600_000),
                env.decimal("TAS_PRICE_FEED_STEP", "0.001", BigDecimal.ZERO, false, band, false), band,
                env.oneOf("TAS_PRICE_FEED_SCOPE", "reality", java.util.Set.of("reality", "all")).equals("all"));
    }

    /**
     * The demo's environment: as given. Its prices stand still unless TAS_PRICE_FEED=on (TAS_PRICE_FEED_SCOPE=all walks
     * every ticker): an idle demo must not grow its file (issue 24, D131), and a feed writes every second (D167).
     */
    public static Map<String, String> demoEnv(Map<String, String> env) { return env; }

    /** The environment with another database URL, as `--db-url` gives it (flags win over variables). */
    public static Map<String, String> withUrl(Map<String, String> env, String dbUrl) {
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put("TAS_DB_URL", dbUrl);
        return e;
    }

    /** Issue 28: whether the request journal keeps requests (TAS_JOURNAL; off unless set, the demo sets it). */
    public boolean journal() { return Boolean.TRUE.equals(features.journal()); }

    /** The journal on, unless TAS_JOURNAL says otherwise (the demo's default). */
    public Config withJournalUnlessSet() {
        return features.journal() != null ? this : with(e -> e.features = e.features.withJournal(true));
    }

    public Config withH2CompactGrowthMb(int mb) { return with(e -> e.features = e.features.withH2CompactGrowthMb(mb)); }

    /** An on/off flag's value (--rate-limits, --cache), or Invalid naming it. */
    public static boolean onOffFlag(String flag, String value) {
        Boolean b = Env.parseOnOff(value);
        if (b == null) throw new Invalid(flag + " must be on or off (or true/false), not '" + value + "'");
        return b;
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
        if (!sandbox && journal()) out.add("TAS_JOURNAL keeps what clients send: it is for a sandbox only (pass --sandbox, TAS_SANDBOX=on)");
        if (!sandbox && timestampWindow.toMillis() > MAX_LIVE_TIMESTAMP_WINDOW_MS) {
            out.add("TAS_TIMESTAMP_WINDOW_MS above " + MAX_LIVE_TIMESTAMP_WINDOW_MS + " is for a sandbox only (pass --sandbox, TAS_SANDBOX=on)");
        }
        if (redisUrl != null && !redisUrl.startsWith("redis://") && !redisUrl.startsWith("rediss://")) {
            out.add("TAS_REDIS_URL must start with redis:// or rediss:// (say redis://127.0.0.1:6379)");
        }
        if (redisKeyPrefix == null || redisKeyPrefix.isEmpty()) out.add("TAS_REDIS_KEY_PREFIX must not be empty");
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

    public Config withHost(String h) { return with(e -> e.host = h); }
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
        Features features;

        Edit(Config c) {
            host = c.host; port = c.port; adminHost = c.adminHost; adminPort = c.adminPort; adminToken = c.adminToken;
            dbUrl = c.dbUrl; dbUser = c.dbUser; dbPassword = c.dbPassword; dbPoolSize = c.dbPoolSize; masterKey = c.masterKey;
            rateLimitsEnabled = c.rateLimitsEnabled; timestampWindow = c.timestampWindow; maxBodyBytes = c.maxBodyBytes;
            cacheEnabled = c.cacheEnabled; sandbox = c.sandbox; adminMaxBodyBytes = c.adminMaxBodyBytes;
            seedMaxBytes = c.seedMaxBytes; nodeId = c.nodeId; nodeLeaseTtl = c.nodeLeaseTtl;
            redisUrl = c.redisUrl; redisKeyPrefix = c.redisKeyPrefix; redisTimeout = c.redisTimeout;
            trustedProxies = c.trustedProxies;
            rateLimitNodes = c.rateLimitNodes; authFailuresPerIp = c.authFailuresPerIp; passphraseFailuresPerKey = c.passphraseFailuresPerKey;
            features = c.features;
        }

        Config build() {
            return new Config(host, port, adminHost, adminPort, adminToken, dbUrl, dbUser, dbPassword, dbPoolSize, masterKey,
                    rateLimitsEnabled, timestampWindow, maxBodyBytes, cacheEnabled, sandbox, adminMaxBodyBytes, seedMaxBytes,
                    nodeId, nodeLeaseTtl, redisUrl, redisKeyPrefix, redisTimeout, trustedProxies, rateLimitNodes, authFailuresPerIp,
                    passphraseFailuresPerKey, features);
        }
    }
}
