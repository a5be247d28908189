package io.tas.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The sandbox controls from a Java test suite (issue 28 item 5): the clock, reset and seed, snapshots, fault rules and
 * the request journal, over the admin API. Every call answers the envelope's data, or throws {@link Refused} with the
 * code. The JavaScript twin is clients/js/tas-sandbox.mjs.
 * <pre>{@code
 * var sandbox = new SandboxClient("http://127.0.0.1:8081", "tas-demo-admin-token");
 * sandbox.freeze(1767225600000L);
 * sandbox.saveSnapshot("start");
 * sandbox.addFault(Map.of("path", "/api/v3/trade/cancel-order", "action", "error", "code", "429", "count", 1));
 * }</pre>
 */
public final class SandboxClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An admin call the service refused: its code ("40017", ...) and message. */
    public static final class Refused extends RuntimeException {
        private final String code;
        public Refused(String code, String message) {
            super(code + " " + message);
            this.code = code;
        }
        public String code() { return code; }
    }

    private final String adminUrl;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public SandboxClient(String adminUrl, String token) {
        this.adminUrl = adminUrl.endsWith("/") ? adminUrl.substring(0, adminUrl.length() - 1) : adminUrl;
        this.token = token;
    }

    // ---- the clock
    public JsonNode clock() { return get("/admin/v1/sandbox/clock"); }
    /** Freezes the clock at epochMillis, or where it stands when null. */
    public JsonNode freeze(Long epochMillis) { return post("/admin/v1/sandbox/clock/freeze", epochMillis == null ? null : Map.of("at", epochMillis)); }
    public JsonNode setClock(long epochMillis) { return post("/admin/v1/sandbox/clock/set", Map.of("at", epochMillis)); }
    public JsonNode advance(Duration d) { return post("/admin/v1/sandbox/clock/advance", Map.of("ms", d.toMillis())); }
    public JsonNode resume() { return post("/admin/v1/sandbox/clock/resume", null); }
    /** Runs the jobs due now (an account switch past its minute, ...) and waits for them. */
    public JsonNode runDue() { return post("/admin/v1/jobs/run-due", null); }
    /** The sandbox time, epoch ms. */
    public long now() { return clock().get("now").asLong(); }

    // ---- the world
    public void reset() { post("/admin/v1/reset", null); }
    /** Applies a seed document (JSON, as the seed files of tas demo are in YAML or JSON). */
    public JsonNode seed(String json) { return send("POST", "/admin/v1/seed", json); }
    public JsonNode stateHash() { return get("/admin/v1/state-hash"); }

    // ---- snapshots
    public JsonNode saveSnapshot(String name) { return post("/admin/v1/sandbox/snapshots", Map.of("name", name)); }
    public JsonNode restoreSnapshot(String name) { return post("/admin/v1/sandbox/snapshots/restore", Map.of("name", name)); }
    public void deleteSnapshot(String name) { post("/admin/v1/sandbox/snapshots/delete", Map.of("name", name)); }
    public JsonNode snapshots() { return get("/admin/v1/sandbox/snapshots"); }

    // ---- faults
    /** Adds a rule, e.g. {path, action: "error", code: "429", count: 1}; answers it with its id. */
    public JsonNode addFault(Map<String, ?> rule) { return post("/admin/v1/sandbox/faults", rule); }
    public JsonNode faults() { return get("/admin/v1/sandbox/faults"); }
    public void removeFault(String id) { post("/admin/v1/sandbox/faults/remove", Map.of("id", id)); }
    public void clearFaults() { post("/admin/v1/sandbox/faults/clear", null); }

    // ---- the journal
    /** Journal entries, oldest first; filter keys: apiKey, kind, method, path ('*' allowed), since, until, afterSeq, limit. */
    public JsonNode journal(Map<String, ?> filter) {
        StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
        new LinkedHashMap<>(filter).forEach((k, v) -> q.add(k + "=" + URLEncoder.encode(String.valueOf(v), StandardCharsets.UTF_8)));
        return get("/admin/v1/sandbox/journal" + q);
    }
    public void clearJournal() { post("/admin/v1/sandbox/journal/clear", null); }

    // ---- plumbing
    public JsonNode get(String path) { return send("GET", path, null); }

    public JsonNode post(String path, Object body) {
        try {
            return send("POST", path, body == null ? null : JSON.writeValueAsString(body));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private JsonNode send(String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(adminUrl + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode env = JSON.readTree(res.body());
            if (!(env instanceof ObjectNode) || !"00000".equals(env.path("code").asText())) {
                throw new Refused(env.path("code").asText(String.valueOf(res.statusCode())), env.path("msg").asText(res.body()));
            }
            return env.get("data");
        } catch (IOException e) {
            throw new IllegalStateException("admin API unreachable at " + adminUrl + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
