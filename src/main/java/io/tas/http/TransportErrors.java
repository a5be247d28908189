package io.tas.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.tas.error.ErrorCode;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

/**
 * Answers for requests Helidon refuses before routing (issue 12 item 8): a request line longer than 2 KB (414),
 * headers over 16 KB or a malformed head (400). They carry the §2.1 envelope with 40017 like every other refusal, so a
 * client that reads the code sees why; Helidon's own answer had an empty body. Oversized headers stay 400, not 431
 * (RFC 6585 §5): Helidon hands a direct handler no cause for a refused head, so the two cannot be told apart here, and
 * every §-refusal of this API is a 400 anyway. Nothing from the request is echoed. Server-side failures keep
 * Helidon's handling.
 */
public final class TransportErrors implements DirectHandler {
    private final Clock clock;
    private final int maxHeadersSize;

    private TransportErrors(Clock clock, int maxHeadersSize) {
        this.clock = clock;
        this.maxHeadersSize = maxHeadersSize;
    }

    /** The API listener's direct handlers: this one for the refusals a client caused. */
    public static DirectHandlers handlers(Clock clock, int maxHeadersSize) {
        TransportErrors h = new TransportErrors(clock, maxHeadersSize);
        return DirectHandlers.builder()
                .addHandler(EventType.BAD_REQUEST, h)
                .addHandler(EventType.PAYLOAD_TOO_LARGE, h)
                .addHandler(EventType.HTTP_VERSION_NOT_SUPPORTED, h)
                .addHandler(EventType.OTHER, h)
                .build();
    }

    /** Helidon calls this one (with no exception for a refused head, so its message is not available here). */
    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status defaultStatus,
                                    ServerResponseHeaders headers, Throwable thrown) {
        if (defaultStatus.code() >= 500) return DirectHandler.defaultHandler().handle(request, eventType, defaultStatus, headers, thrown);
        return handle(request, eventType, defaultStatus, headers, "");
    }

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status defaultStatus,
                                    ServerResponseHeaders headers, String message) {
        Status status = defaultStatus;
        String why;
        if (status.code() == Status.REQUEST_URI_TOO_LONG_414.code()) {
            why = "request line too long";
        } else if (status.code() == Status.REQUEST_ENTITY_TOO_LARGE_413.code()) {
            why = "request body too large";
        } else {
            why = "request head refused (malformed, or headers larger than " + maxHeadersSize + " bytes)";
        }
        if (status.code() >= 500) return DirectHandler.defaultHandler().handle(request, eventType, defaultStatus, headers, message);
        byte[] body;
        try {
            body = Json.MAPPER.writeValueAsBytes(new Envelope(ErrorCode.PARAM_VERIFICATION_FAILED.code(),
                    ErrorCode.PARAM_VERIFICATION_FAILED.message(why), clock.millis(), null));
        } catch (JsonProcessingException e) {
            body = ("{\"code\":\"40017\",\"msg\":\"Parameter verification failed\",\"requestTime\":" + clock.millis() + ",\"data\":null}")
                    .getBytes(StandardCharsets.US_ASCII);
        }
        headers.set(HeaderNames.CONTENT_TYPE, "application/json");
        return TransportResponse.builder().status(status).headers(headers).keepAlive(false).entity(body).build();
    }
}
