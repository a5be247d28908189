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

    Handler guarded(AdminHandler h) {
        return (req, res) -> {
            String auth = req.headers().first(HeaderNames.AUTHORIZATION).orElse("");
            byte[] given = auth.startsWith("Bearer ") ? auth.substring(7).getBytes(StandardCharsets.UTF_8) : new byte[0];
            // Config refuses a short token; an empty one must never match an empty header all the same.
            if (token.length == 0 || !MessageDigest.isEqual(given, token)) {
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
                send(res, ErrorCode.SYSTEM_ERROR.httpStatus(), ErrorCode.SYSTEM_ERROR.code(), ErrorCode.SYSTEM_ERROR.message());
            }
        };
    }

    /** A body of an admin call other than a seed: JSON, or YAML when the Content-Type says so. */
    <T> T read(ServerRequest req, Class<T> type) throws IOException { return read(req, type, maxBodyBytes); }

    /** As read, but an empty body is null (a call whose every field is optional). */
    <T> T readOptional(ServerRequest req, Class<T> type) throws IOException {
        byte[] body = req.content().hasEntity() ? capped(req, maxBodyBytes) : new byte[0];
        return body.length == 0 ? null : SeedFile.JSON.readValue(body, type);
    }

    /** A record feed's batch (issue 9): the operator's own data, capped like a seed. */
    <T> T readLarge(ServerRequest req, Class<T> type) throws IOException { return read(req, type, seedMaxBytes); }

    /** A seed document: the operator's own file, so it may be far larger than other admin bodies (D28). */
    SeedFile readSeed(ServerRequest req) throws IOException { return read(req, SeedFile.class, seedMaxBytes); }

    private static <T> T read(ServerRequest req, Class<T> type, int cap) throws IOException {
        byte[] body = req.content().hasEntity() ? capped(req, cap) : new byte[0];
        if (body.length == 0) throw new ApiException(ErrorCode.PARAM_EMPTY, "body");
        String ct = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("application/json");
        ObjectMapper m = ct.contains("yaml") ? SeedFile.YAML : SeedFile.JSON;
        return m.readValue(body, type);
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
        try {
            res.status(status);
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(Json.MAPPER.writeValueAsBytes(new Envelope(code, msg, clock.millis(), null)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
