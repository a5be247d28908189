package io.tas.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tas.error.ErrorCode;
import io.tas.http.Endpoint;
import io.tas.openapi.RowSchemas.Param;
import io.tas.openapi.RowSchemas.Row;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3.1 documents (issue 29): the public one from the endpoint catalog and openapi/rows.txt, the admin one
 * from the admin routes as registered and openapi/admin-rows.txt. Every schema is inline (no $ref), so an operation's
 * answer schema can be validated on its own. A row without facts, or facts without a row, fail the build of the
 * document (and so the start and the tests).
 */
public final class OpenApiDocument {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    public static final String PUBLIC_ROWS = "/openapi/rows.txt";
    public static final String ADMIN_ROWS = "/openapi/admin-rows.txt";
    private static final Pattern PATH_PARAM = Pattern.compile("\\{([A-Za-z]+)}");
    /** Answered by any row: a failure of ours (D93) and an unreadable or oversized body. */
    private static final List<ErrorCode> ANY_ROW = List.of(ErrorCode.SYSTEM_ERROR, ErrorCode.PARAM_VERIFICATION_FAILED);
    /** Answered by a signed row before its handler runs (wire facts §3). */
    private static final List<ErrorCode> SIGNED = List.of(ErrorCode.ACCESS_KEY_EMPTY, ErrorCode.ACCESS_SIGN_EMPTY,
            ErrorCode.ACCESS_TIMESTAMP_INVALID, ErrorCode.ACCESS_KEY_INVALID, ErrorCode.TIMESTAMP_EXPIRED, ErrorCode.SIGNATURE_ERROR,
            ErrorCode.ACCESS_PASSPHRASE_EMPTY, ErrorCode.PASSPHRASE_INCORRECT, ErrorCode.USER_STATUS_ABNORMAL,
            ErrorCode.PERMISSION_DENIED, ErrorCode.INVALID_IP);

    private OpenApiDocument() {}

    /** The public API's document. */
    public static ObjectNode publicApi(String version) {
        Map<String, Row> rows = new LinkedHashMap<>(RowSchemas.load(PUBLIC_ROWS));
        ObjectNode doc = head("Trading Account Service API", version,
                "The exchange's V3 unified-account and V2 classic rows as this service answers them. Every answer is the envelope "
                        + "{code, msg, requestTime, data}; codes other than 00000 come with HTTP 400, and 429 with HTTP 429. "
                        + "Signed rows need the four ACCESS-* headers (docs/endpoints.md, wire facts §1).");
        ObjectNode schemes = doc.putObject("components").putObject("securitySchemes");
        for (String h : List.of("ACCESS-KEY", "ACCESS-SIGN", "ACCESS-TIMESTAMP", "ACCESS-PASSPHRASE")) {
            schemes.putObject(h).put("type", "apiKey").put("in", "header").put("name", h);
        }
        ObjectNode paths = doc.putObject("paths");
        for (Endpoint e : Endpoint.values()) {
            Row row = rows.remove(e.name());
            if (row == null) throw new IllegalStateException(PUBLIC_ROWS + ": no row " + e.name());
            ObjectNode op = operation(paths, e.method(), e.path(), e.name(), row, e.takesArrayBody());
            op.putArray("tags").add(e.family() == Endpoint.Family.CLASSIC ? "classic (v2)" : e.isPublic() ? "public" : "unified (v3)");
            if (!e.isPublic()) {
                ObjectNode req = op.putArray("security").addObject();
                schemes.fieldNames().forEachRemaining(h -> req.putArray(h));
            }
            op.putObject("x-rate-limit").put("perSecond", e.ratePerSecond()).put("per", e.scope().name());
            if (!e.isPublic()) op.put("x-permission", e.permission().wire()).put("x-access", e.access().name().toLowerCase());
            if (!e.section().equals("-")) op.put("x-spec-section", e.section());
            responses(op, row, commonCodes(e), true);
        }
        if (!rows.isEmpty()) throw new IllegalStateException(PUBLIC_ROWS + ": rows not in the catalog: " + rows.keySet());
        return doc;
    }

    /** The admin API's document: one operation per registered route (method and pattern). */
    public static ObjectNode adminApi(String version, Collection<String[]> routes) {
        Map<String, Row> rows = new LinkedHashMap<>(RowSchemas.load(ADMIN_ROWS));
        ObjectNode doc = head("Trading Account Service admin API", version,
                "The control plane on the admin listener: provisioning, money, records, seeds and the sandbox controls "
                        + "(docs/sandbox.md). Every call needs `Authorization: Bearer <admin token>`.");
        doc.putObject("components").putObject("securitySchemes").putObject("adminToken").put("type", "http").put("scheme", "bearer");
        ObjectNode paths = doc.putObject("paths");
        for (String[] route : routes) {
            String key = route[0] + " " + route[1];
            Row row = rows.remove(key);
            if (row == null) throw new IllegalStateException(ADMIN_ROWS + ": no row " + key);
            ObjectNode op = operation(paths, route[0], route[1], operationId(key), row, false);
            op.putArray("tags").add(route[1].split("/").length > 3 ? route[1].split("/")[3] : "admin");
            op.putArray("security").addObject().putArray("adminToken");
            // Any admin call: a failure of ours, a malformed body or path, a named account, key or position that does not exist.
            List<String> codes = new ArrayList<>(List.of(ErrorCode.SYSTEM_ERROR.code(), ErrorCode.PARAM_VERIFICATION_FAILED.code(),
                    ErrorCode.PARAM_NOT_EXIST.code()));
            if (route[0].equals("POST")) {
                codes.addAll(List.of(ErrorCode.PARAM_EMPTY.code(), ErrorCode.PARAM_ERROR.code(), ErrorCode.PARAM_VERIFICATION_EXCEPTION.code()));
            }
            responses(op, row, codes, false);
            op.with("responses").putObject("401").put("description", "no or a wrong admin token: code 40006")
                    .putObject("content").putObject("application/json").set("schema", envelopeError(List.of(ErrorCode.ACCESS_KEY_INVALID.code())));
        }
        if (!rows.isEmpty()) throw new IllegalStateException(ADMIN_ROWS + ": rows no route registers: " + rows.keySet());
        return doc;
    }

    private static ObjectNode head(String title, String version, String description) {
        ObjectNode doc = F.objectNode();
        doc.put("openapi", "3.1.0");
        doc.putObject("info").put("title", title).put("version", version).put("description", description);
        doc.putArray("servers").addObject().put("url", "/");
        return doc;
    }

    private static ObjectNode operation(ObjectNode paths, String method, String path, String id, Row row, boolean arrayBody) {
        ObjectNode item = paths.has(path) ? (ObjectNode) paths.get(path) : paths.putObject(path);
        ObjectNode op = item.putObject(method.toLowerCase());
        op.put("operationId", id);
        if (row.summary() != null) op.put("summary", row.summary());
        ArrayNode parameters = F.arrayNode();
        Matcher m = PATH_PARAM.matcher(path);
        while (m.find()) parameters.addObject().put("name", m.group(1)).put("in", "path").put("required", true).putObject("schema").put("type", "string");
        if (method.equals("GET")) {
            for (Param p : row.params()) {
                ObjectNode q = parameters.addObject().put("name", p.name()).put("in", "query").put("required", p.required());
                q.set("schema", FieldSchemas.param(p));
            }
            if (row.example() != null) op.put("x-example-query", row.example());
        } else if (row.bodyType() != null) {
            ObjectNode media = op.putObject("requestBody").put("required", true).putObject("content").putObject("application/json");
            media.set("schema", RecordSchemas.of(row.bodyType()));
            op.put("x-body-type", row.bodyType());
        } else if (!row.params().isEmpty()) {
            ObjectNode body = F.objectNode().put("type", "object");
            ObjectNode props = body.putObject("properties");
            ArrayNode required = F.arrayNode();
            for (Param p : row.params()) {
                props.set(p.name(), FieldSchemas.param(p));
                if (p.required()) required.add(p.name());
            }
            if (!required.isEmpty()) body.set("required", required);
            ObjectNode schema = arrayBody ? (ObjectNode) F.objectNode().put("type", "array").set("items", body) : body;
            ObjectNode media = op.putObject("requestBody").put("required", !required.isEmpty())
                    .putObject("content").putObject("application/json");
            media.set("schema", schema);
            if (row.example() != null) media.set("example", parseExample(row));
        }
        if (!parameters.isEmpty()) op.set("parameters", parameters);
        return op;
    }

    private static com.fasterxml.jackson.databind.JsonNode parseExample(Row row) {
        try {
            return io.tas.http.Json.MAPPER.readTree(row.example());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(row.key() + ": example is not JSON: " + row.example());
        }
    }

    private static void responses(ObjectNode op, Row row, List<String> common, boolean rateLimited) {
        ObjectNode responses = op.putObject("responses");
        ObjectNode ok = F.objectNode().put("type", "object").put("additionalProperties", false);
        ObjectNode props = ok.putObject("properties");
        props.putObject("code").put("const", "00000");
        props.putObject("msg").put("const", "success");
        props.putObject("requestTime").put("type", "integer");
        props.set("data", FieldSchemas.data(row.fields(), row.key()));
        ok.putArray("required").add("code").add("msg").add("requestTime").add("data");
        responses.putObject("200").put("description", "success: code 00000")
                .putObject("content").putObject("application/json").set("schema", ok);
        TreeSet<String> codes = new TreeSet<>(common);
        codes.addAll(row.codes());
        for (String c : row.codes()) {
            if (Arrays.stream(ErrorCode.values()).noneMatch(e -> e.code().equals(c))) throw new IllegalStateException(row.key() + ": unknown code " + c);
        }
        responses.putObject("400").put("description", "refused: codes " + String.join(", ", codes))
                .putObject("content").putObject("application/json").set("schema", envelopeError(codes));
        if (rateLimited) {
            responses.putObject("429").put("description", "over the row's rate limit: code 429")
                    .putObject("content").putObject("application/json").set("schema", envelopeError(List.of(ErrorCode.TOO_MANY_REQUESTS.code())));
        }
    }

    private static ObjectNode envelopeError(Collection<String> codes) {
        ObjectNode s = F.objectNode().put("type", "object").put("additionalProperties", false);
        ObjectNode props = s.putObject("properties");
        ArrayNode e = props.putObject("code").put("type", "string").putArray("enum");
        codes.forEach(e::add);
        props.putObject("msg").put("type", "string");
        props.putObject("requestTime").put("type", "integer");
        props.putObject("data").put("type", "null");
        s.putArray("required").add("code").add("msg").add("requestTime").add("data");
        return s;
    }

    private static List<String> commonCodes(Endpoint e) {
        List<String> codes = new ArrayList<>();
        ANY_ROW.forEach(c -> codes.add(c.code()));
        if (e.method().equals("POST")) codes.add(ErrorCode.CONTENT_TYPE_INVALID.code());
        if (!e.isPublic()) SIGNED.forEach(c -> codes.add(c.code()));
        if (e.family() == Endpoint.Family.UNIFIED && !e.isPublic()) codes.add(ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API.code());
        if (e.family() == Endpoint.Family.CLASSIC && !e.isPublic()) codes.add(ErrorCode.UNIFIED_ACCOUNT_ON_CLASSIC_API.code());
        if (e.guards().contains(Endpoint.Guard.MAIN_ONLY) || e.guards().contains(Endpoint.Guard.PARENT_ONLY)) {
            codes.add(ErrorCode.SUB_ACCOUNT_FORBIDDEN.code());
        }
        return codes;
    }

    /** "POST /admin/v1/sandbox/clock/freeze" → "postSandboxClockFreeze". */
    private static String operationId(String key) {
        StringBuilder id = new StringBuilder(key.substring(0, key.indexOf(' ')).toLowerCase());
        for (String part : key.substring(key.indexOf(' ') + 1).split("[/{}-]")) {
            if (part.isEmpty() || part.equals("admin") || part.equals("v1")) continue;
            id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return id.toString();
    }
}
