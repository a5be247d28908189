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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;

/** The admin listener's request handling: bearer token, body reading (JSON or YAML), envelope and error mapping. */
final class AdminHttp {
    private static final Logger log = LoggerFactory.getLogger(AdminHttp.class);
    private final byte[] token;
    private final Clock clock;

    AdminHttp(String token, Clock clock) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.clock = clock;
    }

    interface AdminHandler { Object handle(ServerRequest req) throws IOException; }

    Handler guarded(AdminHandler h) {
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
    static <T> T read(ServerRequest req, Class<T> type) throws IOException {
        byte[] body = req.content().hasEntity() ? req.content().inputStream().readAllBytes() : new byte[0];
        if (body.length == 0) throw new ApiException(ErrorCode.PARAM_EMPTY, "body");
        String ct = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("application/json");
        ObjectMapper m = ct.contains("yaml") ? SeedFile.YAML : Json.MAPPER;
        return m.readValue(body, type);
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
