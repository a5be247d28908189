package io.tas;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.tas.account.AccountRoutes;
import io.tas.account.AccountService;
import io.tas.accountswitch.AccountSwitchRoutes;
import io.tas.admin.SandboxClock;
import io.tas.admin.SandboxControls;
import io.tas.admin.AdminRoutes;
import io.tas.admin.AdminSurface;
import io.tas.admin.MoneyAdmin;
import io.tas.admin.Provisioning;
import io.tas.admin.RecordsAdmin;
import io.tas.admin.SeedApplier;
import io.tas.auth.ApiKeyService;
import io.tas.auth.Authenticator;
import io.tas.config.Config;
import io.tas.http.RequestPipeline;
import io.tas.http.TrustedProxies;
import io.tas.http.Routes;
import io.tas.http.SlowClients;
import io.tas.jobs.Jobs;
import io.tas.market.MarketRoutes;
import io.tas.market.MetadataRoutes;
import io.tas.marketdata.MarketDataRoutes;
import io.tas.marketdata.MarketDataV2Routes;
import io.tas.marketdata.TradeTape;
import io.tas.convert.ConvertRoutes;
import io.tas.convert.SmallAssetConversion;
import io.tas.ledger.Ledger;
import io.tas.risk.AssetsRoutes;
import io.tas.loan.LoanRoutes;
import io.tas.loan.LoanService;
import io.tas.position.LeverageRoutes;
import io.tas.position.PositionRoutes;
import io.tas.position.PositionService;
import io.tas.risk.MaxWithdrawal;
import io.tas.risk.RiskRoutes;
import io.tas.ratelimit.FailureLimit;
import io.tas.ratelimit.RateLimiter;
import io.tas.ops.Health;
import io.tas.ops.Lifecycle;
import io.tas.reality.RealityPriceFeed;
import io.tas.reality.RealityRoutes;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.store.NodeLease;
import io.tas.spot.SpotRoutes;
import io.tas.spot.UnifiedRecordsRoutes;
import io.tas.subaccount.SubAccountRoutes;
import io.tas.copytrade.CopyTradeRoutes;
import io.tas.strategy.StrategyRoutes;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/** Wires storage, services, the API listener and the admin listener. Tests start exactly this. */
public final class App implements AutoCloseable {
    private final Database db;
    private final WebServer server;
    private final AdminSurface admin;
    private final Routes routes;
    private final Services services;

    /** The domain services, for in-process callers such as property tests. */
    public record Services(Ledger ledger, SmallAssetConversion conversion, PositionService positions, LoanService loans,
                           MaxWithdrawal maxWithdrawal, IdGenerator ids, AccountService accounts, TradeTape tape) {}

    private final ChangeFeed changes;
    private final NodeLease lease;
    private final Jobs jobs;
    private final RealityPriceFeed priceFeed;
    private final Health health;
    private final Duration shutdownDelay;
    private final RateLimiter limiter;
    /** The JVM GC metrics binder (listens to GC notifications until closed). */
    private JvmGcMetrics gc;
    /** The request-read deadline's sweeper (issue 12 item 8). */
    private SlowClients slowClients;
    /** The WebSocket streams (issue 27). */
    private io.tas.stream.StreamHub streams;

    private App(Database db, NodeLease lease, ChangeFeed changes, Jobs jobs, WebServer server, AdminSurface admin, Routes routes,
                Services services, RealityPriceFeed priceFeed, Health health, Duration shutdownDelay, RateLimiter limiter) {
        this.priceFeed = priceFeed;
        this.health = health;
        this.shutdownDelay = shutdownDelay;
        this.limiter = limiter;
        this.db = db;
        this.lease = lease;
        this.changes = changes;
        this.jobs = jobs;
        this.server = server;
        this.admin = admin;
        this.routes = routes;
        this.services = services;
    }

    public static App start(Config config, Clock clock) {
        return start(config, clock, p -> {});
    }

    /** Starts the service; beforeListen runs (e.g. reset and seed) before the first request can arrive. */
    public static App start(Config config, Clock clock, java.util.function.Consumer<AdminSurface> beforeListen) {
        config.validated(); // every entry point passes here: no empty admin token, no demo secrets outside a sandbox
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JvmGcMetrics gc = jvmMetrics(metrics);
        Database db;
        try {
            db = Database.open(config, metrics);
        } catch (RuntimeException e) {
            gc.close();
            throw e;
        }
        Deque<AutoCloseable> opened = new ArrayDeque<>(List.of(gc, db)); // closed in reverse if starting fails
        try {
            // Leased before anything mints an ID. The lease measures real time between processes, so it runs on
            // the machine's clock, not on the service's, which a sandbox or a test may move.
            NodeLease lease = NodeLease.acquire(db, Clock.systemUTC(), config.nodeId(), config.nodeLeaseTtl());
            opened.push(lease);
            SandboxControls.restore(clock, db);
            // IDs are minted on the machine's clock under a running sandbox clock, which may be set back (D55, D188).
            // Under a frozen sandbox clock IDs are minted at the frozen instant, so a replay mints the same IDs (D189).
            IdGenerator ids = new IdGenerator(clock instanceof SandboxClock s ? s.forIds() : clock, lease);
            if (clock instanceof SandboxClock) ids.rewind(IdGenerator.after(db)); // a frozen clock may stand where it minted before
            ChangeFeed changes = ChangeFeed.open(db, config.dbUrl(), config.dbUser(), config.dbPassword(),
                    config.features().changeFeed()).measureLagIn(metrics);
            opened.push(changes);
            Jobs jobs = new Jobs(db, clock, config.features().jobs(), lease.nodeId());
            opened.push(jobs);
            Domain d = new Domain(config, clock, db, ids, changes, jobs, metrics);
            d.closeables().reversed().forEach(opened::push);
            // §8 buckets in this process, or shared by every node through Redis (TAS_REDIS_URL, D85).
            // Buckets refill on a clock that never stops or goes back, even when the sandbox clock is frozen (D188).
            Clock limitClock = clock instanceof SandboxClock s ? s.forLimits() : clock;
            RateLimiter limiter = new RateLimiter(config.rateLimitsEnabled(), limitClock, config.redisUrl() == null ? null
                    : new RateLimiter.RedisSettings(config.redisUrl(), config.redisKeyPrefix(), config.redisTimeout(), config.rateLimitNodes()));
            opened.push(limiter);
            edgeMetrics(metrics, d.keys, limiter);

            Routes routes = routes(d);
            // D122: failed authentications limited per IP and per key, unless every limit is off (TAS_RATE_LIMITS=off).
            Authenticator authenticator = config.rateLimitsEnabled()
                    ? new Authenticator(d.keys, d.accounts, d.signatures, config.timestampWindow(),
                            new FailureLimit(config.authFailuresPerIp(), limitClock), new FailureLimit(config.passphraseFailuresPerKey(), limitClock))
                    : new Authenticator(d.keys, d.accounts, d.signatures, config.timestampWindow());
            RequestPipeline pipeline = new RequestPipeline(routes, authenticator,
                    d.accounts, limiter, clock, config.maxBodyBytes(), metrics, TrustedProxies.parse(config.trustedProxies()));
            // Issue 28: fault rules and the request journal (a sandbox's; on a service they stay empty and off).
            io.tas.sandbox.Faults faults = new io.tas.sandbox.Faults(clock);
            io.tas.sandbox.RequestJournal journal = new io.tas.sandbox.RequestJournal(config.journal(), config.features().journalEntries(), clock);
            if (config.sandbox()) pipeline.sandbox(faults, journal);
            // Issue 27: the WebSocket streams, told of tickers and order changes after their commit (D186).
            io.tas.stream.StreamHub streams = new io.tas.stream.StreamHub(authenticator, clock, new io.tas.stream.StreamHub.Sources(
                    d.trading, new AssetsRoutes(d.ledger, d.prices, d.positions), d.positions, d.spot, d.market, d.ledger,
                    new io.tas.position.MixAccountRoutes(d.ledger, d.positions, d.market, d.prices, d.accounts, d.leverage),
                    new io.tas.marketdata.StreamFeed(d.tape), d.strategies), changes, db, lease.nodeId());
            opened.push(streams);
            d.market.watchTicker(streams::tickerSeen);
            d.market.onTicker(streams::tickerCommitted);
            d.trading.onOrders(streams::ordersCommitted);
            d.ledger.onCommitted(streams::accountsCommitted);
            d.strategies.onChanged(streams::strategiesCommitted);
            streams.bindMetrics(metrics);
            if (config.sandbox()) streams.sandbox(faults, journal);
            AdminSurface adminSurface = adminSurface(config, clock, db, changes, jobs, limiter, d, streams,
                    new SandboxParts(ids, faults, journal));
            AdminRoutes admin = new AdminRoutes(adminSurface, d.keys, config.adminToken(), clock, metrics,
                    config.adminMaxBodyBytes(), config.seedMaxBytes());
            SandboxControls.follow(clock, db, changes); // an advance on another node moves this node's sandbox clock
            changes.start(); // every subscriber is registered by now
            beforeListen.accept(adminSurface);
            jobs.start(); // after the migrations (Database.open) and any reset or seed: due jobs run from here on

            Health.Settings lifecycle = config.features().health();
            Health health = new Health(db, limiter::redisReady, lifecycle).bindMetrics(metrics);
            opened.push(health);
            Duration grace = lifecycle.shutdownGrace();
            // Issue 12 item 8: a request's headers and body must arrive within TAS_REQUEST_READ_TIMEOUT_MS, and a
            // connection idle for TAS_IDLE_CONNECTION_TIMEOUT_MS is closed (D104).
            SlowClients.Settings slow = config.features().slowClients();
            SlowClients slowClients = new SlowClients(slow.requestReadTimeout());
            opened.push(slowClients);
            FunctionCounter.builder("tas_slow_client_closes_total", slowClients, SlowClients::closedConnections)
                    .description("connections closed because a request's headers or body took longer than TAS_REQUEST_READ_TIMEOUT_MS")
                    .register(metrics);
            WebServer server = WebServer.builder()
                    .host(config.host())
                    .port(config.port())
                    .routing(r -> {
                        health.register(r);
                        // Issue 29: the public API's OpenAPI document and its viewer, unsigned like health (D197).
                        new io.tas.openapi.ApiDocsRoutes("/", "Trading Account Service API",
                                () -> io.tas.openapi.OpenApiDocument.publicApi(io.tas.openapi.ApiDocsRoutes.version())).register(r);
                        r.any(pipeline::handle);
                    })
                    .addRouting(io.helidon.webserver.websocket.WsRouting.builder()
                            // Every path serves every channel (D186, D187): bitget-api sends public and private ones to one wsUrl.
                            .endpoint("/v3/ws/public", () -> streams.connection("/v3/ws/public"))
                            .endpoint("/v3/ws/private", () -> streams.connection("/v3/ws/private"))
                            .endpoint("/v2/ws/public", () -> streams.connection("/v2/ws/public"))
                            .endpoint("/v2/ws/private", () -> streams.connection("/v2/ws/private")))
                    // Requests refused before routing get the envelope too (issue 12 fuzz).
                    .directHandlers(io.tas.http.ProtocolErrors.all(clock))
                    // A stop waits this long for in-flight requests (SIGTERM, issue 11) before closing connections.
                    .shutdownGracePeriod(grace)
                    // Nagle's algorithm held the tail of larger answers (a page of 100 fills, about 36 KB) until the
                    // client's delayed ACK, about 40 ms a page (docs/benchmarks.md, issue 9): answers go out at once.
                    .connectionOptions(o -> o.tcpNoDelay(true))
                    // Only this HTTP/1 configuration: with Helidon's discovered one beside it there are two connection
                    // selectors, and a prologue neither supports (HTTP/2.0, oversized) is closed without the envelope.
                    .protocolsDiscoverServices(false)
                    .addProtocol(slowClients.http1())
                    // Issue 27: HTTP/1's upgrade to the WebSocket streams (its provider needs this listener's config).
                    .addProtocol(io.helidon.webserver.websocket.WsConfig.builder().maxFrameLength(io.tas.stream.StreamConnection.MAX_FRAME_CHARS).build())
                    .idleConnectionTimeout(slow.idleConnectionTimeout())
                    .idleConnectionPeriod(slow.idleConnectionPeriod())
                    // The admin listener (loopback by default) takes seeds of up to TAS_SEED_MAX_BYTES: no read deadline.
                    .putSocket("admin", s -> s.host(config.adminHost()).port(config.adminPort())
                            .connectionOptions(o -> o.tcpNoDelay(true))
                            .idleConnectionTimeout(slow.idleConnectionTimeout())
                            .idleConnectionPeriod(slow.idleConnectionPeriod())
                            .shutdownGracePeriod(grace)
                            .routing(HttpRouting.builder().update(admin::register)))
                    .shutdownHook(false)
                    .build()
                    .start();
            // Helidon logs a listener that cannot bind (say, a port in use) and returns a stopped server.
            if (!server.isRunning()) {
                throw new IllegalStateException("could not listen on the API address " + config.host() + ":" + config.port()
                        + " or the admin address " + config.adminHost() + ":" + config.adminPort() + " (a port in use?); the log above says why");
            }
            // The optional random walk of the Reality tickers (off unless TAS_PRICE_FEED=on), once requests can arrive.
            RealityPriceFeed priceFeed = new RealityPriceFeed(d.market, clock, config.features().priceFeed());
            opened.push(priceFeed);
            priceFeed.start();
            App app = new App(db, lease, changes, jobs, server, adminSurface, routes,
                    new Services(d.ledger, d.conversion, d.positions, d.loans, d.maxWithdrawal, ids, d.accounts, d.tape), priceFeed, health,
                    lifecycle.shutdownDelay(), limiter);
            app.gc = gc;
            app.slowClients = slowClients;
            app.streams = streams;
            return app;
        } catch (RuntimeException e) {
            while (!opened.isEmpty()) {
                try {
                    opened.pop().close();
                } catch (Exception closing) {
                    e.addSuppressed(closing);
                }
            }
            throw e;
        }
    }

    /**
     * JVM and process metrics (memory, GC, threads, classes, CPU, uptime, open files), once per registry. The GC
     * binder listens to the JVM's GC notifications: the returned binder is closed with the App.
     */
    private static JvmGcMetrics jvmMetrics(MeterRegistry metrics) {
        new JvmMemoryMetrics().bindTo(metrics);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(metrics);
        new JvmThreadMetrics().bindTo(metrics);
        new ClassLoaderMetrics().bindTo(metrics);
        new ProcessorMetrics().bindTo(metrics);
        new UptimeMetrics().bindTo(metrics);
        new FileDescriptorMetrics().bindTo(metrics);
        return gc;
    }

    /** What the edge costs: key lookups, slow passphrase hashes and rate-limit buckets held. */
    private static void edgeMetrics(MeterRegistry metrics, ApiKeyService keys, RateLimiter limiter) {
        FunctionCounter.builder("tas_api_key_store_lookups", keys, ApiKeyService::storeLookups)
                .description("API keys read from the database (a key outside the in-memory index costs none)").register(metrics);
        FunctionCounter.builder("tas_passphrase_hashes", keys, ApiKeyService::passphraseHashes)
                .description("slow PBKDF2 passphrase checks").register(metrics);
        Gauge.builder("tas_api_keys_indexed", keys, ApiKeyService::indexedKeys).strongReference(true)
                .description("live API keys in the in-memory index (-1: not loaded)").register(metrics);
        Gauge.builder("tas_rate_limit_buckets", limiter, RateLimiter::trackedBuckets).strongReference(true)
                .description("rate-limit buckets held in this process (idle ones are dropped; -1: they are in Redis)").register(metrics);
        // tas_rate_limit_rejections_total (by row, limit scope and reason) is counted by the RequestPipeline, which knows the row.
        if (limiter.shared()) {
            FunctionCounter.builder("tas_rate_limit_redis_failures_total", limiter, RateLimiter::unavailableAllowed).tag("policy", "allowed")
                    .description("requests whose bucket Redis could not answer in time, by what this node's share of the quota decided (D124)").register(metrics);
            FunctionCounter.builder("tas_rate_limit_redis_failures_total", limiter, RateLimiter::unavailableRejected).tag("policy", "rejected")
                    .description("requests whose bucket Redis could not answer in time, by what this node's share of the quota decided (D124)").register(metrics);
            Gauge.builder("tas_rate_limit_redis_up", limiter, RateLimiter::redisUp).strongReference(true)
                    .description("1 while the shared rate-limit buckets in Redis answer, 0 while they do not").register(metrics);
        }
    }

    /** Every feature of the API, over the node's domain services; a new feature is one entry here plus its catalog rows. */
    private static final List<Function<Domain, Routes.Feature>> FEATURES = List.of(
            d -> new AccountRoutes(d.accounts),
            d -> new SubAccountRoutes(d.accounts),
            d -> new MarketRoutes(d.market, d.signatures),
            d -> new MetadataRoutes(d.market),
            d -> new MarketDataRoutes(d.market, d.tape),
            d -> new MarketDataV2Routes(d.market, d.tape, d.trading, d.prices),
            d -> new ConvertRoutes(d.conversion),
            d -> new LoanRoutes(d.loans),
            d -> new RiskRoutes(d.maxWithdrawal, d.deltaNeutral),
            d -> new LeverageRoutes(d.leverage),
            d -> new AccountSwitchRoutes(d.switches),
            d -> new PositionRoutes(d.positions, d.positionHistory, d.accounts, d.market),
            d -> new StrategyRoutes(d.strategies),
            d -> new CopyTradeRoutes(d.copyTrading),
            d -> new SpotRoutes(d.spot),
            d -> new AssetsRoutes(d.ledger, d.prices, d.positions),
            d -> new UnifiedRecordsRoutes(d.unifiedRecords),
            d -> new RealityRoutes(d.reality),
            d -> new io.tas.trade.TradeRoutes(d.trading, d.tpsl, d.positions),
            d -> new io.tas.trade.SpotV2Routes(d.trading, d.ledger),
            d -> new io.tas.trade.MixV2Routes(d.trading, d.accounts, d.positions, d.unifiedRecords, d.tpsl),
            d -> new io.tas.position.MixAccountRoutes(d.ledger, d.positions, d.market, d.prices, d.accounts, d.leverage));

    /** Which rows have handlers, without starting anything (for the inventory). */
    public static Routes productionRoutes() { return routes(Domain.unwired()); }

    /** The production routing: every feature registers its rows. */
    private static Routes routes(Domain d) {
        Routes routes = new Routes();
        FEATURES.forEach(f -> f.apply(d).register(routes));
        return routes;
    }

    /** The control plane over the node's services: provisioning, money, records, seeds and the sandbox controls. */
    private record SandboxParts(IdGenerator ids, io.tas.sandbox.Faults faults, io.tas.sandbox.RequestJournal journal) {}

    private static AdminSurface adminSurface(Config config, Clock clock, Database db, ChangeFeed changes, Jobs jobs, RateLimiter limiter, Domain d,
                                             io.tas.stream.StreamHub streams, SandboxParts sandbox) {
        Provisioning provisioning = new Provisioning(db, clock, d.accounts, d.keys, d.market, limiter, d.reality);
        MoneyAdmin money = new MoneyAdmin(d.accounts, d.market, d.ledger, d.loans, d.positions, d.unifiedRecords);
        RecordsAdmin records = new RecordsAdmin(clock, d.positionHistory, d.strategies, d.copyTrading, d.spot, d.unifiedRecords);
        return new AdminSurface(provisioning, money, records, new SeedApplier(db, d.ledger, provisioning, money, records),
                new SandboxControls(config.sandbox(), clock, jobs, db, changes, provisioning::reset,
                        new SandboxControls.Parts(sandbox.ids(), new io.tas.store.Snapshots(db), sandbox.faults(), sandbox.journal(),
                                () -> { provisioning.invalidateCaches(); streams.resync(); })), streams,
                new io.tas.admin.console.ConsoleReads(d.accounts, d.keys, d.ledger, d.market, d.trading, d.unifiedRecords, d.spot));
    }

    public int port() { return server.port(); }

    public int adminPort() { return server.port("admin"); }

    /** The node's WebSocket streams (tests count connections). */
    public io.tas.stream.StreamHub streams() { return streams; }

    /** This node's change feed (tests wait until it listens). */
    public ChangeFeed changes() { return changes; }

    /** The control plane (provisioning, money, records, seeds, sandbox controls), for in-process callers such as tests. */
    public AdminSurface admin() { return admin; }

    /** The Reality price feed (off unless TAS_PRICE_FEED=on; tests step it by hand). */
    public RealityPriceFeed priceFeed() { return priceFeed; }

    /** The node id this node's IDs carry, leased from the database. */
    public int nodeId() { return lease.nodeId(); }

    public Routes routes() { return routes; }

    public Services services() { return services; }

    /** The durable jobs of this node (db-scheduler), for in-process callers such as tests. */
    public Jobs jobs() { return jobs; }

    /** The database, for in-process callers such as tests. */
    public Database database() { return db; }

    @Override
    /**
     * Graceful stop (SIGTERM, issue 11): readiness goes DOWN, the listeners stop accepting and wait up to the grace
     * period for in-flight requests, the group commits drain what is queued, then the node lease is released.
     */
    public void close() {
        health.drain();
        Lifecycle.pause(shutdownDelay); // TAS_SHUTDOWN_DELAY_MS: a proxy's health check sees DOWN before the listener closes
        // Every step runs even if one before it fails: the drain, the lease and the database must not be skipped.
        // The streams first: their clients get the upgrade notice (30033) before the listener stops (websocket-wire.md).
        Lifecycle.closeAll(() -> { if (streams != null) streams.close(); }, priceFeed::close, server::stop,
                limiter::close, // the Redis connection, if any: no request needs it any more
                jobs::close, // running jobs finish (or are given up) while the database is still open
                services.ledger()::close, services.accounts()::close, changes::close, lease::close, db::close,
                () -> { if (gc != null) gc.close(); }, () -> { if (slowClients != null) slowClients.close(); });
    }

}
