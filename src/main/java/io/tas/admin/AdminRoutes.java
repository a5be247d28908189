package io.tas.admin;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.admin.SeedFile.SeedKey;
import io.tas.admin.SeedFile.SeedTicker;
import io.tas.auth.ApiKeyService;
import io.tas.auth.ApiKeyService.CreatedKey;
import io.tas.auth.Permission;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.util.List;
import java.util.Map;

import static io.tas.admin.AdminHttp.longParam;

/**
 * The control plane, on its own listener (default 127.0.0.1) under /admin/v1, guarded by a bearer
 * token. Same envelope as the public API. Prometheus metrics are served here too, without the token.
 */
public final class AdminRoutes {
    private final AdminSurface admin;
    private final Provisioning provisioning;
    private final ApiKeyService keys;
    private final AdminHttp http;
    private final PrometheusMeterRegistry metrics;
    private final SandboxControls sandbox;
    private final io.tas.admin.console.ConsoleRoutes console;

    /** maxBodyBytes caps every admin body but seeds, which are operator files and capped by seedMaxBytes (D28). */
    public AdminRoutes(AdminSurface admin, ApiKeyService keys, String token, java.time.Clock clock, PrometheusMeterRegistry metrics,
                       int maxBodyBytes, int seedMaxBytes) {
        this.admin = admin;
        this.provisioning = admin.provisioning();
        this.sandbox = admin.sandbox();
        this.keys = keys;
        this.http = new AdminHttp(token, clock, maxBodyBytes, seedMaxBytes);
        this.metrics = metrics;
        this.console = new io.tas.admin.console.ConsoleRoutes(admin, token);
    }

    public record RealityAllowed(Boolean allowed) {}

    /** Body of a streams disconnect: {"uid": 1000000001}, or {} for every connection of this node. */
    public record Disconnect(Long uid) {}

    public record KeyView(String accessKey, String secret, String uid, String label, String permType, List<String> permissions, String ips) {}

    public void register(HttpRouting.Builder r) {
        r.get("/metrics", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4");
            res.send(metrics.scrape());
        });
        r.get("/admin/v1/health", http.guarded("GET", "/admin/v1/health", req -> Map.of("status", "up")));
        r.get("/admin/v1/state-hash", http.guarded("GET", "/admin/v1/state-hash", req -> provisioning.stateHash()));
        r.post("/admin/v1/reset", http.guarded("POST", "/admin/v1/reset", req -> { sandbox.reset(); return null; }));
        r.post("/admin/v1/seed", http.guarded("POST", "/admin/v1/seed", req -> summary(admin.seeds().apply(http.readSeed(req)))));
        r.post("/admin/v1/accounts", http.guarded("POST", "/admin/v1/accounts", req -> {
            SeedAccount a = http.read(req, SeedAccount.class);
            Long parent = req.query().first("parentUid").map(Long::parseLong).orElse(null);
            return provisioning.createAccount(a, parent);
        }));
        r.get("/admin/v1/accounts/{uid}", http.guarded("GET", "/admin/v1/accounts/{uid}", req -> provisioning.account(longParam(req, "uid"))
                .orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid"))));
        // §4.7 allow-list: {"allowed": true|false}.
        r.post("/admin/v1/accounts/{uid}/reality-allow-list", http.guarded("POST", "/admin/v1/accounts/{uid}/reality-allow-list", req ->
                provisioning.setRealityAllowed(longParam(req, "uid"), http.read(req, RealityAllowed.class).allowed())));
        r.get("/admin/v1/accounts/{uid}/reality-orders", http.guarded("GET", "/admin/v1/accounts/{uid}/reality-orders", req -> provisioning.realityOrders(longParam(req, "uid"))));
        r.post("/admin/v1/keys", http.guarded("POST", "/admin/v1/keys", req -> {
            SeedKey k = http.read(req, SeedKey.class);
            if (k.uid() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "uid");
            return view(provisioning.createKey(k.uid(), k), true);
        }));
        r.get("/admin/v1/accounts/{uid}/keys", http.guarded("GET", "/admin/v1/accounts/{uid}/keys", req -> keys.list(longParam(req, "uid"))
                .stream().map(k -> view(new CreatedKey(k, null), false)).toList()));
        r.post("/admin/v1/keys/{accessKey}/revoke", http.guarded("POST", "/admin/v1/keys/{accessKey}/revoke", req -> {
            if (!keys.revoke(req.path().pathParameters().get("accessKey"))) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "accessKey");
            return null;
        }));
        r.post("/admin/v1/tickers", http.guarded("POST", "/admin/v1/tickers", req -> provisioning.putTicker(http.read(req, SeedTicker.class)).symbol()));
        // Issue 27: this node's streams; a disconnect makes clients reconnect, log in and subscribe again (D187).
        r.get("/admin/v1/streams", http.guarded("GET", "/admin/v1/streams", req -> admin.streams().summary()));
        r.post("/admin/v1/streams/disconnect", http.guarded("POST", "/admin/v1/streams/disconnect", req -> {
            Disconnect d = http.read(req, Disconnect.class);
            return Map.of("closed", admin.streams().disconnect(d == null ? null : d.uid()));
        }));
        new MoneyAdminRoutes(admin.money(), admin.records(), http).register(r);
        new SandboxAdminRoutes(sandbox, http).register(r);
        new RecordsAdminRoutes(admin.records(), http).register(r);
        console.register(r); // issue 29: the HTML console under /console, on this listener only (D200)
        // Issue 29: the admin API's document, of the routes registered above, and its viewer; no token (D197).
        new io.tas.openapi.ApiDocsRoutes("/admin/", "Trading Account Service admin API", () -> io.tas.openapi.OpenApiDocument.adminApi(
                io.tas.openapi.ApiDocsRoutes.version(), http.registered().stream().map(a -> new String[]{a.method(), a.pattern()}).toList())).register(r);
        r.any((req, res) -> http.send(res, 400, ErrorCode.URL_NOT_FOUND.code(), ErrorCode.URL_NOT_FOUND.message()));
    }

    /** A seed's summary; a record, so its fields keep one order (Map.of's order changes from JVM to JVM). */
    record SeedSummary(int accounts, int tickers, List<KeyView> apiKeys) {}

    private static SeedSummary summary(SeedApplier.SeedResult r) {
        return new SeedSummary(r.accounts().size(), r.tickers(), r.keys().stream().map(k -> view(k, true)).toList());
    }

    private static KeyView view(CreatedKey k, boolean withSecret) {
        var key = k.key();
        return new KeyView(key.accessKey(), withSecret ? k.secret() : null, Long.toString(key.uid()), key.label(),
                key.permType().wire(), key.permissions().stream().map(Permission::wire).toList(), key.ipsWire());
    }
}
