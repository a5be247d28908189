package io.tas.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.tas.auth.Authenticator;
import io.tas.auth.Caller;
import io.tas.auth.SignedRequest;
import io.tas.common.QueryString;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ratelimit.RateLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The DESIGN request path in one straight line with early returns (by exception):
 * catalog lookup -> Content-Type and body -> auth -> guards -> rate limit -> parameters -> handler -> envelope.
 */
public final class RequestPipeline {
    private static final Logger log = LoggerFactory.getLogger(RequestPipeline.class);
    private static final HeaderName ACCESS_KEY = HeaderNames.create("ACCESS-KEY");
    private static final HeaderName ACCESS_SIGN = HeaderNames.create("ACCESS-SIGN");
    private static final HeaderName ACCESS_TIMESTAMP = HeaderNames.create("ACCESS-TIMESTAMP");
    private static final HeaderName ACCESS_PASSPHRASE = HeaderNames.create("ACCESS-PASSPHRASE");
    private static final HeaderName REMAINING = HeaderNames.create("x-mbx-used-remain-limit");
    private static final HeaderName X_FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");
    private static final byte[] EMPTY = new byte[0];
    public static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");
    /** The SLF4J MDC key of the request id: every log line written while a request is handled carries it. */
    public static final String MDC_REQUEST_ID = "requestId";
    /** tas_request_duration's buckets: a Prometheus histogram with these bounds (and +Inf). */
    private static final java.time.Duration[] LATENCY_BUCKETS = java.util.stream.LongStream.of(1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500)
            .mapToObj(java.time.Duration::ofMillis).toArray(java.time.Duration[]::new);
    /** The outcome tag: the HTTP status class of the answer. */
    private static final String[] OUTCOMES = {"2xx", "4xx", "5xx"};
    private static final int ROWS = Endpoint.values().length;

    private final Map<String, Map<String, Endpoint>> byMethodThenPath = new HashMap<>();
    private final Routes routes;
    private final Authenticator authenticator;
    private final Guards guards;
    private final RateLimiter limiter;
    private final Clock clock;
    private final int maxBodyBytes;
    private final MeterRegistry metrics;
    private final TrustedProxies trustedProxies;
    private final AtomicLong errorIds = new AtomicLong();
    private final java.util.concurrent.ConcurrentMap<String, io.micrometer.core.instrument.Counter> counters = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Endpoint, io.micrometer.core.instrument.Counter> successes = new java.util.EnumMap<>(Endpoint.class);
    /** tas_rate_limit_rejections_total by row: its bucket was empty (reason quota). */
    private final Map<Endpoint, io.micrometer.core.instrument.Counter> quotaRejections = new java.util.EnumMap<>(Endpoint.class);
    /** As quotaRejections, refused by this node's share of the quota because Redis could not answer (reason redis_unavailable, D124). */
    private final Map<Endpoint, io.micrometer.core.instrument.Counter> unavailableRejections = new java.util.EnumMap<>(Endpoint.class);
    private final io.tas.store.DatabaseErrors databaseErrors;
    /** One Timer per row (and one for "unknown") and outcome, made on first use: [row ordinal (or last) * 3 + outcome]. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<io.micrometer.core.instrument.Timer> timers =
            new java.util.concurrent.atomic.AtomicReferenceArray<>((ROWS + 1) * OUTCOMES.length);
    /** Generated request ids: a random 32-bit prefix per process and a counter (distinct within a process; across nodes and restarts but for a 1 in 2^32 chance). */
    private final String requestIdPrefix = String.format("%08x", new java.security.SecureRandom().nextInt()) + "-";
    private final AtomicLong requestIds = new AtomicLong();
    /** Issue 28: the sandbox's fault rules and request journal (none on a service). */
    private io.tas.sandbox.Faults faults;
    private io.tas.sandbox.RequestJournal journal;

    public RequestPipeline(Routes routes, Authenticator authenticator, io.tas.account.AccountService accounts,
                           RateLimiter limiter, Clock clock, int maxBodyBytes, MeterRegistry metrics) {
        this(routes, authenticator, accounts, limiter, clock, maxBodyBytes, metrics, TrustedProxies.NONE);
    }

    public RequestPipeline(Routes routes, Authenticator authenticator, io.tas.account.AccountService accounts,
                           RateLimiter limiter, Clock clock, int maxBodyBytes, MeterRegistry metrics, TrustedProxies trustedProxies) {
        this.trustedProxies = trustedProxies;
        for (Endpoint e : Endpoint.values()) byMethodThenPath.computeIfAbsent(e.method(), m -> new HashMap<>()).put(e.path(), e);
        this.routes = routes;
        this.authenticator = authenticator;
        this.guards = new Guards(accounts);
        this.limiter = limiter;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
        this.metrics = metrics;
        for (Endpoint e : Endpoint.values()) successes.put(e, metrics.counter("tas_requests_total", "endpoint", e.name(), "code", ErrorCode.SUCCESS.code()));
        // Registered at zero, as the rows are known: rate() then counts a row's first 429 too.
        for (Endpoint e : Endpoint.values()) {
            quotaRejections.put(e, rejections(metrics, e, "quota"));
            if (limiter.shared()) unavailableRejections.put(e, rejections(metrics, e, "redis_unavailable"));
        }
        this.databaseErrors = new io.tas.store.DatabaseErrors(metrics);
        if (authenticator != null) { // D122: 429s given because an IP or a key used up its failed authentications
            io.micrometer.core.instrument.FunctionCounter.builder("tas_auth_failure_refusals_total", authenticator, Authenticator::refusedByIp)
                    .tag("subject", "ip").description("signed requests refused with 429 because their IP or key used up its failed authentications (D122)")
                    .register(metrics);
            io.micrometer.core.instrument.FunctionCounter.builder("tas_auth_failure_refusals_total", authenticator, Authenticator::refusedByKey)
                    .tag("subject", "key").description("signed requests refused with 429 because their IP or key used up its failed authentications (D122)")
                    .register(metrics);
        }
    }

    /** Issue 28: every request passes the sandbox's fault rules and is kept in its journal (when that is on). */
    public RequestPipeline sandbox(io.tas.sandbox.Faults faults, io.tas.sandbox.RequestJournal journal) {
        this.faults = faults;
        this.journal = journal;
        return this;
    }

    /** What the journal keeps of a request, filled in as the pipeline learns it. */
    private static final class Exchange {
        final ServerRequest req;
        byte[] body = EMPTY;
        io.tas.sandbox.FaultRule fault;
        Exchange(ServerRequest req) { this.req = req; }
    }

    /** The answer of a fault that sends a bare HTTP status (a 5xx), before or after the handler ran. */
    private static final class FaultStatus extends RuntimeException {
        final int status;
        FaultStatus(int status) { super(null, null, false, false); this.status = status; }
    }

    /** §8: a row's limit is per UID when it is signed and says so, else per IP (see the subject in handle). */
    static String limitScope(Endpoint ep) {
        return ep.scope() == Endpoint.Scope.UID && !ep.isPublic() ? "uid" : "ip";
    }

    private static io.micrometer.core.instrument.Counter rejections(MeterRegistry metrics, Endpoint ep, String reason) {
        return io.micrometer.core.instrument.Counter.builder("tas_rate_limit_rejections_total")
                .description("requests refused with 429 by the rate limiter (§8), by row, limit scope and reason")
                .tag("endpoint", ep.name()).tag("scope", limitScope(ep)).tag("reason", reason).register(metrics);
    }

    public void handle(ServerRequest req, ServerResponse res) {
        long started = System.nanoTime();
        String requestId = requestId(req.headers().first(REQUEST_ID).orElse(null));
        res.header(REQUEST_ID, requestId);
        org.slf4j.MDC.put(MDC_REQUEST_ID, requestId);
        try {
            handle(req, res, started);
        } finally {
            org.slf4j.MDC.remove(MDC_REQUEST_ID);
        }
    }

    /** The caller's X-Request-Id when it is a sane token (1 to 64 of [A-Za-z0-9._-]), else a new one. */
    String requestId(String given) {
        return saneRequestId(given) ? given : requestIdPrefix + Long.toHexString(requestIds.incrementAndGet());
    }

    static boolean saneRequestId(String id) {
        if (id == null || id.isEmpty() || id.length() > 64) return false;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) return false;
        }
        return true;
    }

    private void handle(ServerRequest req, ServerResponse res, long started) {
        long now = clock.millis();
        Endpoint ep = null;
        Exchange x = new Exchange(req);
        try {
            Map<String, Endpoint> byPath = byMethodThenPath.get(req.prologue().method().text());
            ep = byPath == null ? null : byPath.get(req.path().rawPath());
            if (ep == null) throw new ApiException(ErrorCode.URL_NOT_FOUND);

            boolean post = ep.method().equals("POST");
            if (post && !isJson(req.headers().first(HeaderNames.CONTENT_TYPE).orElse(null))) {
                throw new ApiException(ErrorCode.CONTENT_TYPE_INVALID);
            }
            byte[] body = readBody(req);
            x.body = body;
            String rawQuery = req.query().rawValue();
            String ip = clientIp(req);

            Caller caller = null;
            if (!ep.isPublic()) {
                caller = authenticator.authenticate(new SignedRequest(ep.method(), ep.path(), rawQuery, body,
                        header(req, ACCESS_KEY), header(req, ACCESS_SIGN), header(req, ACCESS_TIMESTAMP),
                        header(req, ACCESS_PASSPHRASE), ip));
                guards.check(ep, caller);
            }

            RateLimiter.Decision d = limiter.tryAcquire(ep.name(),
                    ep.scope() == Endpoint.Scope.UID && caller != null ? Long.toString(caller.uid()) : ip, ep.ratePerSecond());
            if (d.remaining() != Long.MAX_VALUE) res.header(REMAINING, Long.toString(d.remaining()));
            if (!d.allowed()) {
                var rejected = (d.alone() ? unavailableRejections : quotaRejections).get(ep);
                if (rejected != null) rejected.increment();
                throw new ApiException(ErrorCode.TOO_MANY_REQUESTS);
            }

            // Issue 28 (D190): a fault fires after authentication and the rate limit, so it picks valid calls of a key.
            Long uid = caller == null ? null : caller.uid();
            if (faults != null) {
                x.fault = faults.fire(io.tas.sandbox.FaultRule.Target.REST, io.tas.sandbox.FaultRule.When.BEFORE, ep.method(), ep.path(), uid,
                        header(req, ACCESS_KEY));
                if (x.fault != null) answerFault(x.fault);
            }

            Map<String, String> query = rawQuery == null || rawQuery.isEmpty() ? Map.of() : new HashMap<>();
            for (QueryString.Pair p : QueryString.decode(rawQuery)) query.putIfAbsent(p.key(), p.value());
            JsonNode json = post ? parseJsonBody(body, ep.takesArrayBody()) : null;

            ApiHandler handler = routes.handler(ep);
            if (handler == null) throw new ApiException(ErrorCode.NOT_IMPLEMENTED, ep.method() + " " + ep.path());

            Object data = handler.handle(new ApiRequest(ep, caller, query, json, ip, now));
            if (faults != null) { // the handler committed; an "after" rule loses its answer
                io.tas.sandbox.FaultRule after = faults.fire(io.tas.sandbox.FaultRule.Target.REST, io.tas.sandbox.FaultRule.When.AFTER,
                        ep.method(), ep.path(), uid, header(req, ACCESS_KEY));
                if (after != null) {
                    x.fault = after;
                    answerFault(after);
                }
            }
            send(res, 200, Envelope.success(now, data), ep, ErrorCode.SUCCESS.code(), started, x);
        } catch (ApiException e) {
            send(res, e.error().httpStatus(), new Envelope(e.error().code(), e.getMessage(), now, null), ep, e.error().code(), started, x);
        } catch (FaultStatus f) {
            ErrorCode sys = ErrorCode.SYSTEM_ERROR;
            send(res, f.status, new Envelope(sys.code(), sys.message(), now, null), ep, sys.code(), started, x);
        } catch (io.helidon.webserver.CloseConnectionException e) {
            journal(x, ep, null, "drop", started);
            throw e; // Helidon closes the connection with no answer
        } catch (RuntimeException | Error e) {
            // Even an Error (say, a stack overflow in one ledger change, rethrown to its caller) gets the envelope.
            long id = errorIds.incrementAndGet();
            databaseErrors.record(e); // tas_db_errors_total: the one place a database failure becomes an answer
            log.error("unexpected failure #{} on {} {}", id, req.prologue().method().text(), req.path().rawPath(), e);
            ErrorCode sys = ErrorCode.SYSTEM_ERROR;
            send(res, sys.httpStatus(), new Envelope(sys.code(), sys.message(), now, null), ep, sys.code(), started, x);
        }
    }

    /** A fault's answer: a real code in the envelope, a bare 5xx, a dropped connection; latency waits and goes on. */
    private static void answerFault(io.tas.sandbox.FaultRule f) {
        switch (f.action()) {
            case ERROR -> throw new ApiException(f.errorCode());
            case HTTP -> throw new FaultStatus(f.status());
            case DROP -> throw new io.helidon.webserver.CloseConnectionException("fault " + f.id() + ": connection dropped");
            case LATENCY -> {
                try {
                    Thread.sleep(f.delayMs());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            default -> throw new IllegalStateException("not a REST fault: " + f.action());
        }
    }

    private void journal(Exchange x, Endpoint ep, Integer status, String code, long started) {
        if (journal == null || !journal.enabled()) return;
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        for (io.helidon.http.Header h : x.req.headers()) headers.put(h.name(), h.value());
        journal.record("rest", header(x.req, ACCESS_KEY), x.req.prologue().method().text(), x.req.path().rawPath(),
                x.req.query().rawValue(), headers, x.body, status, code,
                java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), x.fault == null ? null : Long.toString(x.fault.id()));
    }

    /** §1 convention 2 and wire facts §6: POST bodies are application/json, a charset suffix is fine. */
    static boolean isJson(String contentType) {
        if (contentType == null) return false;
        String base = contentType.split(";", 2)[0].trim();
        return base.equalsIgnoreCase("application/json");
    }

    private byte[] readBody(ServerRequest req) {
        if (!req.content().hasEntity()) return EMPTY;
        long declared = req.headers().first(HeaderNames.CONTENT_LENGTH).map(RequestPipeline::length).orElse(-1L);
        if (declared > maxBodyBytes) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "request body larger than " + maxBodyBytes + " bytes");
        byte[] bytes;
        try (InputStream in = req.content().inputStream()) {
            if (declared >= 0) {
                // A declared length is read into an array of its size: no growing buffers, no second read to drain (D225).
                bytes = new byte[(int) declared];
                if (in.readNBytes(bytes, 0, bytes.length) < bytes.length) throw new IOException("body shorter than its Content-Length");
            } else {
                bytes = in.readNBytes(maxBodyBytes + 1);
            }
            SlowClients.bodyRead(); // TAS_REQUEST_READ_TIMEOUT_MS bounds the client's sending, not our work
        } catch (IOException | RuntimeException e) {
            // A broken framing (say, a chunk size that is not hex) surfaces here as Helidon's runtime exception:
            // the client's fault, so 40017, not a 5xx (issue 12 fuzz, FuzzProofTest).
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "unreadable request body");
        }
        if (bytes.length > maxBodyBytes) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "request body larger than " + maxBodyBytes + " bytes");
        return bytes;
    }

    private static final byte[] SUCCESS_HEAD = "{\"code\":\"00000\",\"msg\":\"success\",\"requestTime\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] DATA = ",\"data\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** The success envelope around data that is already JSON (same bytes Jackson would write). */
    private static byte[] successWith(long requestTime, RawJson raw) {
        byte[] time = Long.toString(requestTime).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = new byte[SUCCESS_HEAD.length + time.length + DATA.length + raw.utf8().length + 1];
        int i = 0;
        System.arraycopy(SUCCESS_HEAD, 0, out, i, SUCCESS_HEAD.length);
        i += SUCCESS_HEAD.length;
        System.arraycopy(time, 0, out, i, time.length);
        i += time.length;
        System.arraycopy(DATA, 0, out, i, DATA.length);
        i += DATA.length;
        System.arraycopy(raw.utf8(), 0, out, i, raw.utf8().length);
        out[out.length - 1] = '}';
        return out;
    }

    private static long length(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "malformed Content-Length");
        }
    }

    /**
     * A body is one JSON value: "{}x" or "{} {}" is malformed, not {} (issue 12 fuzz: it was taken as {}). A number
     * keeps the exact value and scale it was sent with (D116): read as a double, 0.1234567890123456789 became
     * 0.12345678901234568 and passed the decimals check as another amount.
     */
    private static final com.fasterxml.jackson.databind.ObjectReader ONE_JSON_VALUE =
            Json.MAPPER.reader().with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .without(com.fasterxml.jackson.databind.cfg.JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);

    /**
     * Wire facts §1.3: an empty body and {} both mean "no parameters". Anything else must be a JSON object, or an array
     * on the batch rows that take one (order-entry-wire.md: cancel-batch and place-batch send a top-level array).
     */
    private static JsonNode parseJsonBody(byte[] body, boolean arrayAllowed) {
        if (body.length == 0) return Json.MAPPER.createObjectNode();
        try {
            JsonNode n = ONE_JSON_VALUE.readTree(body);
            if (n == null || !(n.isObject() || arrayAllowed && n.isArray())) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "body must be a JSON object");
            }
            return n;
        } catch (JsonProcessingException | NumberFormatException e) {
            // Jackson throws the bare NumberFormatException for a number whose exponent overflows (1E-2147483649).
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "malformed JSON body");
        } catch (IOException e) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "unreadable request body");
        }
    }

    private static String header(ServerRequest req, HeaderName name) {
        return req.headers().first(name).orElse(null);
    }

    /** The caller's IP for IP allow-lists and per-IP rate limits: the peer, or who a trusted proxy says it forwarded (TrustedProxies). */
    private String clientIp(ServerRequest req) {
        SocketAddress address = req.remotePeer().address();
        if (!(address instanceof InetSocketAddress isa) || isa.getAddress() == null) return String.valueOf(address);
        if (trustedProxies.isEmpty() || !req.headers().contains(X_FORWARDED_FOR)) return isa.getAddress().getHostAddress();
        return trustedProxies.clientIp(isa.getAddress(), req.headers().get(X_FORWARDED_FOR).allValues());
    }

    private void send(ServerResponse res, int status, Envelope envelope, Endpoint ep, String code, long started, Exchange x) {
        journal(x, ep, status, code, started);
        if (ep != null && status == 200) {
            successes.get(ep).increment();
        } else {
            String endpoint = ep == null ? "unknown" : ep.name();
            counters.computeIfAbsent(endpoint + ' ' + code, k -> metrics.counter("tas_requests_total", "endpoint", endpoint, "code", code)).increment();
        }
        try {
            res.status(status);
            res.header(io.helidon.http.HeaderValues.CONTENT_TYPE_JSON); // a constant: no header built per answer
            byte[] bytes = envelope.data() instanceof RawJson raw ? successWith(envelope.requestTime(), raw) : Json.MAPPER.writeValueAsBytes(envelope);
            res.send(bytes);
            AnswerTap tap = AnswerTap.installed();
            // A fault's answer is the sandbox's deliberate lie, not the row's contract (D195).
            if (tap != null && ep != null && x.fault == null) {
                tap.answered(AnswerTap.Surface.PUBLIC, ep.method(), ep.path(), x.req.query().rawValue(), x.body, status, bytes);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } finally {
            timer(ep, status, code).record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    /** The row's latency Timer for this status class, registered on the row's first answer of that class. */
    private io.micrometer.core.instrument.Timer timer(Endpoint ep, int status, String code) {
        // "5xx" is a server failure: 40015 goes out with HTTP 400 like the platform's (D93), but it is no client's mistake.
        boolean serverFailure = status >= 500 || ErrorCode.SYSTEM_ERROR.code().equals(code);
        int outcome = serverFailure ? 2 : status < 400 ? 0 : 1;
        int i = (ep == null ? ROWS : ep.ordinal()) * OUTCOMES.length + outcome;
        io.micrometer.core.instrument.Timer t = timers.get(i);
        if (t == null) {
            // Two first answers at once both register: the registry hands both the same Timer.
            t = io.micrometer.core.instrument.Timer.builder("tas_request_duration")
                    .description("time from a request's arrival in the pipeline to its answer being sent, by catalog row and status class")
                    .tag("endpoint", ep == null ? "unknown" : ep.name()).tag("outcome", OUTCOMES[outcome])
                    .serviceLevelObjectives(LATENCY_BUCKETS)
                    .register(metrics);
            timers.set(i, t);
        }
        return t;
    }
}
