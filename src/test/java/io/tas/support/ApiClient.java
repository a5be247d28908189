package io.tas.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.auth.Signature;
import io.tas.http.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;

/** A signing client that can also misbehave on purpose (skewed time, raw bodies, odd headers). */
public final class ApiClient {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String baseUrl;
    private final Credentials creds;
    private final Clock clock;
    /** The loopback address requests leave from (LoopbackClient), or null: the default one (127.0.0.1). */
    private final String fromIp;

    public ApiClient(String baseUrl, Credentials creds, Clock clock) {
        this(baseUrl, creds, clock, null);
    }

    private ApiClient(String baseUrl, Credentials creds, Clock clock, String fromIp) {
        this.baseUrl = baseUrl;
        this.creds = creds;
        this.clock = clock;
        this.fromIp = fromIp;
    }

    /** The same caller sending from another loopback address (any of 127.0.0.0/8): IP allow-lists and per-IP limits see it. */
    public ApiClient from(String localIp) { return new ApiClient(baseUrl, creds, clock, localIp); }

    /** A response: HTTP status and the parsed envelope. */
    public record Reply(int status, JsonNode body, String raw) {
        public String code() { return body.path("code").asText(); }
        public String msg() { return body.path("msg").asText(); }
        public JsonNode data() { return body.path("data"); }
    }

    public Reply get(String target) { return send("GET", target, "", 0, "application/json"); }

    public Reply post(String target, String body) { return send("POST", target, body, 0, "application/json"); }

    /** Signs with the clock shifted by skewMillis, and sends the given Content-Type (null: none). */
    /** A signed GET with extra headers (name, value pairs), such as the demo-trading header. */
    public Reply getWithHeaders(String target, String... headers) {
        return send("GET", target, "", 0, null, headers);
    }

    public Reply send(String method, String target, String body, long skewMillis, String contentType) {
        return send(method, target, body, skewMillis, contentType, new String[0]);
    }

    private Reply send(String method, String target, String body, long skewMillis, String contentType, String[] headers) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        String ts = Long.toString(clock.millis() + skewMillis);
        if (fromIp != null) return fromLoopback(method, target, body, ts, path, query, contentType, headers);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + target))
                .header("ACCESS-KEY", creds.key())
                .header("ACCESS-SIGN", Signature.sign(creds.secret(), ts, method, path, query, body))
                .header("ACCESS-TIMESTAMP", ts)
                .header("ACCESS-PASSPHRASE", creds.passphrase());
        if (contentType != null) b.header("Content-Type", contentType);
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return exchange(b.method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)), body);
    }

    private Reply fromLoopback(String method, String target, String body, String ts, String path, String query,
                               String contentType, String[] extra) {
        java.util.List<String> h = new java.util.ArrayList<>(java.util.List.of("ACCESS-KEY", creds.key(),
                "ACCESS-SIGN", Signature.sign(creds.secret(), ts, method, path, query, body),
                "ACCESS-TIMESTAMP", ts, "ACCESS-PASSPHRASE", creds.passphrase()));
        if (contentType != null) h.addAll(java.util.List.of("Content-Type", contentType));
        h.addAll(java.util.List.of(extra));
        LoopbackClient.Response r = LoopbackClient.send(fromIp, URI.create(baseUrl).getPort(), method, target, body, h.toArray(String[]::new));
        ChildAnswers.read(method, URI.create(baseUrl + target), body, r.status(), r.raw());
        return new Reply(r.status(), r.body(), r.raw());
    }

    /** An unsigned request with exactly the given headers (name, value pairs). */
    public static Reply raw(String url, String method, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return exchange(b.method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)), body);
    }

    /** An unsigned POST whose body is streamed without a Content-Length (chunked). */
    public static Reply rawStreamed(String url, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return exchange(b.POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes))), body);
    }

    private static Reply exchange(HttpRequest.Builder b, String requestBody) {
        try {
            HttpRequest request = b.build();
            HttpResponse<String> res = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            ChildAnswers.read(request.method(), request.uri(), requestBody, res.statusCode(), res.body());
            JsonNode json;
            try {
                json = Json.MAPPER.readTree(res.body());
            } catch (IOException e) {
                json = Json.MAPPER.createObjectNode().put("unparsed", res.body());
            }
            return new Reply(res.statusCode(), json, res.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
