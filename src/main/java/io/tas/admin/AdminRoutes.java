package io.tas.admin;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.admin.SeedFile.SeedKey;
import io.tas.admin.SeedFile.SeedTicker;
import io.tas.auth.ApiKeyService;
import io.tas.auth.ApiKeyService.CreatedKey;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.Envelope;
import io.tas.http.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The control plane, on its own listener (default 127.0.0.1) under /admin/v1, guarded by a bearer
 * token. Same envelope as the public API. Prometheus metrics are served here too, without the token.
 */
public final class AdminRoutes {
    private static final Logger log = LoggerFactory.getLogger(AdminRoutes.class);

    private final Provisioning provisioning;
    private final ApiKeyService keys;
    private final byte[] token;
    private final Clock clock;
    private final PrometheusMeterRegistry metrics;

    public AdminRoutes(Provisioning provisioning, ApiKeyService keys, String token, Clock clock, PrometheusMeterRegistry metrics) {
        this.provisioning = provisioning;
        this.keys = keys;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.clock = clock;
        this.metrics = metrics;
    }

    public record KeyView(String accessKey, String secret, String uid, String label, String permType, List<String> permissions, String ips) {}

    public void register(HttpRouting.Builder r) {
        r.get("/metrics", (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4");
            res.send(metrics.scrape());
        });
        r.get("/admin/v1/health", guarded(req -> Map.of("status", "up")));
        r.post("/admin/v1/reset", guarded(req -> { provisioning.reset(); return null; }));
        r.post("/admin/v1/seed", guarded(req -> summary(provisioning.apply(read(req, SeedFile.class)))));
        r.post("/admin/v1/accounts", guarded(req -> {
            SeedAccount a = read(req, SeedAccount.class);
            Long parent = req.query().first("parentUid").map(Long::parseLong).orElse(null);
            return provisioning.createAccount(a, parent);
        }));
        r.get("/admin/v1/accounts/{uid}", guarded(req -> provisioning.account(Long.parseLong(req.path().pathParameters().get("uid")))
                .orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid"))));
        r.post("/admin/v1/keys", guarded(req -> {
            SeedKey k = read(req, SeedKey.class);
            if (k.uid() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "uid");
            return view(provisioning.createKey(k.uid(), k), true);
        }));
        r.get("/admin/v1/accounts/{uid}/keys", guarded(req -> keys.list(Long.parseLong(req.path().pathParameters().get("uid")))
                .stream().map(k -> view(new CreatedKey(k, null), false)).toList()));
        r.post("/admin/v1/keys/{accessKey}/revoke", guarded(req -> {
            if (!keys.revoke(req.path().pathParameters().get("accessKey"))) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "accessKey");
            return null;
        }));
        r.post("/admin/v1/tickers", guarded(req -> provisioning.putTicker(read(req, SeedTicker.class)).symbol()));
        r.any((req, res) -> send(res, 400, ErrorCode.URL_NOT_FOUND.code(), ErrorCode.URL_NOT_FOUND.message()));
    }

    private static Map<String, Object> summary(Provisioning.SeedResult r) {
        return Map.of("accounts", r.accounts().size(), "tickers", r.tickers(),
                "apiKeys", r.keys().stream().map(k -> view(k, true)).toList());
    }

    private static KeyView view(CreatedKey k, boolean withSecret) {
        var key = k.key();
        return new KeyView(key.accessKey(), withSecret ? k.secret() : null, Long.toString(key.uid()), key.label(),
                key.permType().wire(), key.permissions().stream().map(p -> p.wire()).toList(), key.ipsWire());
    }

    interface AdminHandler { Object handle(ServerRequest req) throws IOException; }

    private Handler guarded(AdminHandler h) {
        return (req, res) -> {
            String auth = req.headers().first(HeaderNames.AUTHORIZATION).orElse("");
            byte[] given = auth.startsWith("Bearer ") ? auth.substring(7).getBytes(StandardCharsets.UTF_8) : new byte[0];
            if (!MessageDigest.isEqual(given, token)) {
                send(res, 401, ErrorCode.ACCESS_KEY_INVALID.code(), "admin token required");
                return;
            }
            try {
                Object data = h.handle(req);
                res.header(HeaderNames.CONTENT_TYPE, "application/json");
                res.send(Json.MAPPER.writeValueAsBytes(Envelope.success(clock.millis(), data)));
            } catch (ApiException e) {
                send(res, e.error().httpStatus(), e.error().code(), e.getMessage());
            } catch (JsonMappingException e) {
                String field = e.getPath().isEmpty() ? "body" : e.getPath().getLast().getFieldName();
                send(res, 400, ErrorCode.PARAM_ERROR.code(), ErrorCode.PARAM_ERROR.message(field));
            } catch (IOException | NumberFormatException e) {
                send(res, 400, ErrorCode.PARAM_VERIFICATION_FAILED.code(), ErrorCode.PARAM_VERIFICATION_FAILED.message("malformed body or path"));
            } catch (RuntimeException e) {
                log.error("admin request failed: {} {}", req.prologue().method().text(), req.path().rawPath(), e);
                send(res, 500, ErrorCode.SYSTEM_ERROR.code(), ErrorCode.SYSTEM_ERROR.message());
            }
        };
    }

    /** JSON, or YAML when the Content-Type says so (seed files are usually YAML). */
    private static <T> T read(ServerRequest req, Class<T> type) throws IOException {
        byte[] body = req.content().hasEntity() ? req.content().inputStream().readAllBytes() : new byte[0];
        if (body.length == 0) throw new ApiException(ErrorCode.PARAM_EMPTY, "body");
        String ct = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("application/json");
        ObjectMapper m = ct.contains("yaml") ? SeedFile.YAML : Json.MAPPER;
        return m.readValue(body, type);
    }

    private void send(ServerResponse res, int status, String code, String msg) {
        try {
            res.status(status);
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(Json.MAPPER.writeValueAsBytes(new Envelope(code, msg, clock.millis(), null)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
