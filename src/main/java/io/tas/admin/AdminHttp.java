package io.tas.admin;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.Envelope;
import io.tas.http.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;

/**
 * The admin listener's request handling: bearer token, body reading (JSON or YAML) under a size cap, envelope
 * and error mapping.
 */
final class AdminHttp {
    private static final Logger log = LoggerFactory.getLogger(AdminHttp.class);
    private final byte[] token;
    private final Clock clock;
    private final int maxBodyBytes;
    private final int seedMaxBytes;

    AdminHttp(String token, Clock clock, int maxBodyBytes, int seedMaxBytes) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
        this.seedMaxBytes = seedMaxBytes;
    }

    interface AdminHandler { Object handle(ServerRequest req) throws IOException; }

    /** An admin route as registered: what the admin OpenAPI document must describe (issue 29). */
    record AdminRoute(String method, String pattern) {}

    private final java.util.List<AdminRoute> registered = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The route a handler runs under, so a body read can tell the contract check its type (issue 29). */
    private static final ThreadLocal<AdminRoute> RUNNING = new ThreadLocal<>();

    /** Every route registered through guarded, in registration order. */
    java.util.List<AdminRoute> registered() { return java.util.List.copyOf(registered); }

    /** A token-guarded admin route; method and pattern are the ones it is registered under. */
    Handler guarded(String method, String pattern, AdminHandler h) {
        AdminRoute route = new AdminRoute(method, pattern);
        registered.add(route);
        return (req, res) -> {
            String auth = req.headers().first(HeaderNames.AUTHORIZATION).orElse("");
            byte[] given = auth.startsWith("Bearer ") ? auth.substring(7).getBytes(StandardCharsets.UTF_8) : new byte[0];
            // Config refuses a short token; an empty one must never match an empty header all the same.
            if (token.length == 0 || !MessageDigest.isEqual(given, token)) {
                answer(req, res, pattern, 401, error(ErrorCode.ACCESS_KEY_INVALID.code(), "admin token required"));
                return;
            }
            int status = 200;
            byte[] body;
            RUNNING.set(route);
            try {
                body = Json.MAPPER.writeValueAsBytes(Envelope.success(clock.millis(), h.handle(req)));
            } catch (ApiException e) {
                status = e.error().httpStatus();
                body = error(e.error().code(), e.getMessage());
            } catch (JsonMappingException e) {
                String field = e.getPath().isEmpty() ? "body" : e.getPath().getLast().getFieldName();
                status = 400;
                body = error(ErrorCode.PARAM_ERROR.code(), ErrorCode.PARAM_ERROR.message(field));
            } catch (IOException | NumberFormatException e) {
                status = 400;
                body = error(ErrorCode.PARAM_VERIFICATION_FAILED.code(), ErrorCode.PARAM_VERIFICATION_FAILED.message("malformed body or path"));
            } catch (RuntimeException e) {
                log.error("admin request failed: {} {}", req.prologue().method().text(), req.path().rawPath(), e);
                status = ErrorCode.SYSTEM_ERROR.httpStatus();
                body = error(ErrorCode.SYSTEM_ERROR.code(), ErrorCode.SYSTEM_ERROR.message());
            } finally {
                RUNNING.remove();
            }
            answer(req, res, pattern, status, body);
        };
    }

    private void answer(ServerRequest req, ServerResponse res, String pattern, int status, byte[] body) {
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(body);
        io.tas.http.AnswerTap tap = io.tas.http.AnswerTap.installed();
        if (tap != null) {
            tap.answered(io.tas.http.AnswerTap.Surface.ADMIN, req.prologue().method().text(), pattern, req.query().rawValue(), null, status, body);
        }
    }

    /** A body of an admin call other than a seed: JSON, or YAML when the Content-Type says so. */
    <T> T read(ServerRequest req, Class<T> type) throws IOException { return read(req, type, maxBodyBytes); }

    /** As read, but an empty body is null (a call whose every field is optional). */
    <T> T readOptional(ServerRequest req, Class<T> type) throws IOException {
        tell(type);
        byte[] body = req.content().hasEntity() ? capped(req, maxBodyBytes) : new byte[0];
        return body.length == 0 ? null : SeedFile.JSON.readValue(body, type);
    }

    /** A record feed's batch (issue 9): the operator's own data, capped like a seed. */
    <T> T readLarge(ServerRequest req, Class<T> type) throws IOException { return read(req, type, seedMaxBytes); }

    /** A seed document: the operator's own file, so it may be far larger than other admin bodies (D28). */
    SeedFile readSeed(ServerRequest req) throws IOException { return read(req, SeedFile.class, seedMaxBytes); }

    private static <T> T read(ServerRequest req, Class<T> type, int cap) throws IOException {
        tell(type);
        byte[] body = req.content().hasEntity() ? capped(req, cap) : new byte[0];
        if (body.length == 0) throw new ApiException(ErrorCode.PARAM_EMPTY, "body");
        String ct = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("application/json");
        ObjectMapper m = ct.contains("yaml") ? SeedFile.YAML : SeedFile.JSON;
        return m.readValue(body, type);
    }

    /** The contract check learns the type each admin route reads its body into (the admin document names it). */
    private static void tell(Class<?> type) {
        io.tas.http.AnswerTap tap = io.tas.http.AnswerTap.installed();
        AdminRoute route = RUNNING.get();
        if (tap != null && route != null) tap.adminBodyRead(route.method(), route.pattern(), type.getName());
    }

    /** The body, refused before it is read when its declared length is over the cap, and never read past cap + 1 bytes. */
    private static byte[] capped(ServerRequest req, int cap) throws IOException {
        if (req.headers().contentLength().orElse(-1L) > cap) throw tooLarge(cap);
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes((int) Math.min(cap + 1L, Integer.MAX_VALUE - 8));
            if (body.length > cap) throw tooLarge(cap);
            return body;
        }
    }

    private static ApiException tooLarge(int cap) {
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "admin request body larger than " + cap + " bytes");
    }

    static long longParam(ServerRequest req, String name) {
        return Long.parseLong(req.path().pathParameters().get(name));
    }

    void send(ServerResponse res, int status, String code, String msg) {
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(error(code, msg));
    }

    private byte[] error(String code, String msg) {
        try {
            return Json.MAPPER.writeValueAsBytes(new Envelope(code, msg, clock.millis(), null));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
