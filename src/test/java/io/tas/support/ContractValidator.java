package io.tas.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.tas.http.AnswerTap;
import io.tas.openapi.OpenApiDocument;
import io.tas.openapi.RowSchemas;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 29's contract check: every answer of a REST row or the admin API, validated against the OpenAPI documents the
 * service serves, with networknt's JSON Schema validator (draft 2020-12, OpenAPI 3.1's dialect). An answer with a field
 * of the wrong type, a field the document does not name, a missing required field or a code the row does not list is a
 * violation. The schemas are the documents' own, taken by path, method and status.
 */
public final class ContractValidator implements AnswerTap {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
    /** A successful call's request must meet the row's documented parameters: query ones by name, a body as a whole. */
    private final Map<String, Map<String, Schema>> queryParams = new ConcurrentHashMap<>();
    private final Map<String, java.util.Set<String>> requiredQuery = new ConcurrentHashMap<>();
    private final Map<String, Schema> bodies = new ConcurrentHashMap<>();
    private final Map<String, java.util.Set<String>> bodyProperties = new ConcurrentHashMap<>();
    private final Map<String, String> adminBodyTypes = new ConcurrentHashMap<>();
    private final Map<String, String> ranges = new ConcurrentHashMap<>(); // "row name" → range(...) as documented
    /** The parameters a handler read on this thread, judged when its answer is sent on the same thread. */
    private final ThreadLocal<java.util.Set<String>> reads = ThreadLocal.withInitial(java.util.LinkedHashSet::new);
    private final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong answers = new AtomicLong();
    private final Map<String, Boolean> rowsSeen = new ConcurrentHashMap<>();

    public ContractValidator() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        load(registry, AnswerTap.Surface.PUBLIC, OpenApiDocument.publicApi("test"));
        List<String[]> adminRoutes = RowSchemas.load(OpenApiDocument.ADMIN_ROWS).keySet().stream().map(k -> k.split(" ", 2)).toList();
        load(registry, AnswerTap.Surface.ADMIN, OpenApiDocument.adminApi("test", adminRoutes));
    }

    private void load(SchemaRegistry registry, AnswerTap.Surface surface, ObjectNode doc) {
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                String row = surface + " " + op.getKey().toUpperCase() + " " + path.getKey();
                Map<String, Schema> params = new java.util.HashMap<>();
                java.util.Set<String> required = new java.util.HashSet<>();
                for (JsonNode p : op.getValue().path("parameters")) {
                    if (!p.path("in").asText().equals("query")) continue;
                    params.put(p.path("name").asText(), registry.getSchema(p.path("schema")));
                    JsonNode ps = p.path("schema");
                    boolean integer = ps.path("type").asText().equals("integer") // or a union with it (merge-depth: 5 or "max")
                            || ps.path("type").isArray() && ps.path("type").toString().contains("\"integer\"");
                    if (integer) {
                        ranges.put(row + " " + p.path("name").asText(), range(ps.path("minimum").asInt(Integer.MIN_VALUE),
                                ps.path("maximum").asInt(Integer.MAX_VALUE), ps.path("default").asInt(0)));
                    }
                    if (p.path("required").asBoolean()) required.add(p.path("name").asText());
                }
                queryParams.put(row, params);
                requiredQuery.put(row, required);
                JsonNode body = op.getValue().at("/requestBody/content/application~1json/schema");
                if (op.getValue().has("x-body-type")) adminBodyTypes.put(row, op.getValue().get("x-body-type").asText());
                if (!body.isMissingNode()) {
                    bodies.put(row, registry.getSchema(body));
                    java.util.Set<String> names = new java.util.HashSet<>();
                    (body.has("items") ? body.get("items") : body).path("properties").fieldNames().forEachRemaining(names::add);
                    bodyProperties.put(row, names);
                }
                for (Iterator<Map.Entry<String, JsonNode>> rs = op.getValue().get("responses").fields(); rs.hasNext(); ) {
                    Map.Entry<String, JsonNode> r = rs.next();
                    JsonNode schema = r.getValue().at("/content/application~1json/schema");
                    schemas.put(key(surface, op.getKey().toUpperCase(), path.getKey(), r.getKey()), registry.getSchema(schema));
                }
            }
        }
    }

    /**
     * An answer read by a test's client from a server in another process (the integration tests' children), which
     * no tap in this JVM sees: validated the same way, once its path is matched to a documented row or route
     * ("/admin/v1/accounts/7" to "/admin/v1/accounts/{uid}"). Paths the documents do not name are not rows: skipped,
     * as the server's own tap skips them.
     */
    public void answeredElsewhere(Surface surface, String method, String path, String rawQuery, byte[] requestBody, int status, byte[] body) {
        String template = template(surface, method, path);
        if (template != null) answered(surface, method, template, rawQuery, requestBody, status, body);
    }

    private String template(Surface surface, String method, String path) {
        String prefix = surface + " " + method + " ";
        if (queryParams.containsKey(prefix + path)) return path;
        String[] segments = path.split("/", -1);
        for (String row : queryParams.keySet()) {
            if (!row.startsWith(prefix) || !row.contains("{")) continue;
            String[] pattern = row.substring(prefix.length()).split("/", -1);
            if (pattern.length != segments.length) continue;
            boolean match = true;
            for (int i = 0; i < pattern.length && match; i++) {
                match = pattern[i].startsWith("{") ? !segments[i].isEmpty() : pattern[i].equals(segments[i]);
            }
            if (match) return row.substring(prefix.length());
        }
        return null;
    }

    private static String key(AnswerTap.Surface surface, String method, String template, String status) {
        return surface + " " + method + " " + template + " " + status;
    }

    @Override
    public void answered(Surface surface, String method, String template, String rawQuery, byte[] requestBody, int status, byte[] body) {
        answers.incrementAndGet();
        rowsSeen.putIfAbsent(surface + " " + method + " " + template, Boolean.TRUE);
        String where = surface + " " + method + " " + template + (rawQuery == null || rawQuery.isEmpty() ? "" : "?" + rawQuery) + " → " + status;
        Schema schema = schemas.get(key(surface, method, template, Integer.toString(status)));
        if (schema == null) {
            violations.add(where + ": the document lists no answer with status " + status);
            return;
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(body);
        } catch (java.io.IOException e) {
            violations.add(where + ": not JSON");
            return;
        }
        String row = surface + " " + method + " " + template;
        java.util.Set<String> read = reads.get();
        for (String name : read) {
            if (!queryParams.getOrDefault(row, Map.of()).containsKey(name) && !bodyNames(row).contains(name)) {
                violations.add(where + ": the row read parameter " + name + ", which the document does not list");
            }
        }
        read.clear();
        if (status == 200) request(row, where, rawQuery, requestBody);
        List<com.networknt.schema.Error> errors = schema.validate(answer);
        if (!errors.isEmpty()) {
            String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
            violations.add(where + ": " + errors.stream().limit(5).map(com.networknt.schema.Error::toString).toList()
                    + " in " + (text.length() > 600 ? text.substring(0, 600) + "…" : text));
        }
    }

    /** How a documented integer parameter reads: the form both the document and Params.intInRange are compared in. */
    static String range(int min, int max, int defaultValue) {
        return "minimum=" + min + (max == Integer.MAX_VALUE ? "" : " maximum=" + max) + " default=" + defaultValue;
    }

    @Override
    public void parameterRange(String method, String path, String name, int min, int max, int defaultValue) {
        String row = "PUBLIC " + method + " " + path;
        String documented = ranges.get(row + " " + name);
        if (!range(min, max, defaultValue).equals(documented)) {
            violations.add(row + ": reads " + name + " as " + range(min, max, defaultValue) + ", the document says " + documented);
        }
    }

    @Override
    public void adminBodyRead(String method, String pattern, String type) {
        String documented = adminBodyTypes.get("ADMIN " + method + " " + pattern);
        if (!type.equals(documented)) violations.add("ADMIN " + method + " " + pattern + ": reads its body as " + type + ", the document says " + documented);
    }

    @Override
    public void parameterRead(String method, String path, String name, boolean required) {
        reads.get().add(name);
    }

    private java.util.Set<String> bodyNames(String row) {
        return bodyProperties.getOrDefault(row, java.util.Set.of());
    }

    /** A request the row accepted must carry every required parameter, each value as documented (an enum, say). */
    private void request(String row, String where, String rawQuery, byte[] requestBody) {
        Map<String, String> query = new java.util.HashMap<>(); // as the pipeline reads it: the first of a repeated name
        for (var pair : io.tas.common.QueryString.decode(rawQuery)) query.putIfAbsent(pair.key(), pair.value());
        if (method(row).equals("GET")) {
            for (String name : requiredQuery.getOrDefault(row, java.util.Set.of())) {
                if (query.getOrDefault(name, "").isEmpty()) violations.add(where + ": accepted without its required parameter " + name);
            }
            queryParams.getOrDefault(row, Map.of()).forEach((name, schema) -> {
                String v = query.get(name);
                if (v != null && !v.isEmpty() && !schema.validate(queryValue(v, ranges.containsKey(row + " " + name))).isEmpty()) {
                    violations.add(where + ": accepted parameter " + name + "=" + v + ", which the document does not allow");
                }
            });
        } else if (bodies.containsKey(row) && requestBody != null && requestBody.length > 0) {
            try {
                List<com.networknt.schema.Error> errors = bodies.get(row).validate(JSON.readTree(requestBody));
                if (!errors.isEmpty()) violations.add(where + ": accepted a body the document does not allow: " + errors.stream().limit(3).toList());
            } catch (java.io.IOException e) {
                violations.add(where + ": accepted a body that is not JSON");
            }
        }
    }

    /** A query value as the document types it: an integer parameter's digits are a number (limit=5). */
    private static JsonNode queryValue(String v, boolean integer) {
        return integer && v.matches("-?\\d{1,18}") ? com.fasterxml.jackson.databind.node.LongNode.valueOf(Long.parseLong(v))
                : com.fasterxml.jackson.databind.node.TextNode.valueOf(v);
    }

    private static String method(String row) { return row.split(" ")[1]; }

    public long answers() { return answers.get(); }

    public int rows() { return rowsSeen.size(); }

    public int violationCount() { return violations.size(); }

    /** The violations from index `from` on. */
    public List<String> violationsFrom(int from) {
        synchronized (violations) {
            return List.copyOf(violations.subList(Math.min(from, violations.size()), violations.size()));
        }
    }
}
