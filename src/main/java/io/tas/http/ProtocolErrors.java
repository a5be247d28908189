package io.tas.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.tas.error.ErrorCode;

import java.time.Clock;

/**
 * Requests Helidon refuses before routing (a request line it cannot parse, HTTP/2.0 on the HTTP/1 listener, a target
 * or head over its limits, a header line that is not one) still get the envelope (spec §2.1): HTTP 400 with 40017, or
 * 40015 (HTTP 400, D93) for Helidon's own failure. Issue 12 fuzz found Helidon's plain-text 400/414/505 answers. The message
 * is fixed: nothing of the refused request is echoed.
 */
public final class ProtocolErrors implements DirectHandler {
    private final Clock clock;

    private ProtocolErrors(Clock clock) { this.clock = clock; }

    /** The handlers for every event type. */
    public static DirectHandlers all(Clock clock) {
        ProtocolErrors handler = new ProtocolErrors(clock);
        DirectHandlers.Builder b = DirectHandlers.builder();
        for (EventType t : EventType.values()) b.addHandler(t, handler);
        return b.build();
    }

    /** Why, from what Helidon tells a direct handler (no cause for a refused head: oversized and malformed look alike). */
    private static String why(EventType eventType, Status defaultStatus) {
        if (eventType == EventType.PAYLOAD_TOO_LARGE || defaultStatus.code() == 413) return "request body too large";
        if (defaultStatus.code() == 414) return "request line too long";
        if (defaultStatus.code() == 505) return "HTTP version not supported, use HTTP/1.1";
        return "malformed HTTP request (or headers larger than " + SlowClients.MAX_HEADERS_SIZE + " bytes)";
    }

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status defaultStatus,
                                    ServerResponseHeaders headers, String message) {
        ErrorCode code = eventType == EventType.INTERNAL_ERROR ? ErrorCode.SYSTEM_ERROR : ErrorCode.PARAM_VERIFICATION_FAILED;
        String msg = code == ErrorCode.SYSTEM_ERROR ? code.message() : code.message(why(eventType, defaultStatus));
        byte[] body;
        try {
            body = Json.MAPPER.writeValueAsBytes(new Envelope(code.code(), msg, clock.millis(), null));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        headers.set(HeaderNames.CONTENT_TYPE, "application/json");
        return TransportResponse.builder()
                .status(Status.create(code.httpStatus()))
                .headers(headers)
                .keepAlive(false) // the stream is not trusted after a framing error: close it
                .entity(body)
                .build();
    }
}
