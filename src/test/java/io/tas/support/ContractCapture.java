package io.tas.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tas.http.AnswerTap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tool, not a test: with -Dtas.contract.capture=FILE the run records what each row answered (the data's field paths,
 * their JSON types and whether every item had them, the codes, the parameters of successful calls) and writes it in
 * the rows format at the end, as a draft to compare with openapi/rows.txt after a change (docs/openapi.md).
 */
final class ContractCapture implements AnswerTap {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final class Stats {
        final Set<String> types = new ConcurrentSkipListSet<>();
        final AtomicLong seen = new AtomicLong();
        final AtomicLong objects = new AtomicLong(); // times the value was an object: what a child's presence is counted against
        final Set<String> values = new ConcurrentSkipListSet<>(); // a string field's values, up to 20: enum candidates
    }

    private static final class RowStats {
        final Map<String, Stats> fields = new ConcurrentHashMap<>();
        final Map<String, Stats> params = new ConcurrentHashMap<>();
        final Set<String> codes = new ConcurrentSkipListSet<>();
        final Map<String, Boolean> reads = new ConcurrentHashMap<>(); // parameter → read through Params.require
        final Map<String, String> ranges = new ConcurrentHashMap<>(); // integer parameter → "minimum=.. maximum=.. default=.."
        final AtomicLong successes = new AtomicLong();
        volatile String example;
        volatile String bodyType;
    }

    private final Map<String, RowStats> rows = new ConcurrentHashMap<>();

    static ContractCapture install(Path file) {
        ContractCapture c = new ContractCapture();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> c.write(file)));
        return c;
    }

    @Override
    public void answered(Surface surface, String method, String template, String rawQuery, byte[] requestBody, int status, byte[] body) {
        RowStats row = rows.computeIfAbsent(surface + " " + method + " " + template, k -> new RowStats());
        JsonNode answer;
        try {
            answer = JSON.readTree(body);
        } catch (IOException e) {
            return;
        }
        String code = answer.path("code").asText();
        if (!code.equals("00000")) {
            row.codes.add(status + ":" + code);
            return;
        }
        row.successes.incrementAndGet();
        walk(row.fields, "data", answer.get("data"));
        if (method.equals("GET") && rawQuery != null && !rawQuery.isEmpty()) {
            Set<String> names = new TreeSet<>();
            for (var pair : io.tas.common.QueryString.decode(rawQuery)) names.add(pair.key());
            names.forEach(n -> param(row, n, "string"));
            if (row.example == null) row.example = rawQuery;
        } else if (requestBody != null && requestBody.length > 0) {
            try {
                JsonNode b = JSON.readTree(requestBody);
                JsonNode item = b.isArray() && !b.isEmpty() ? b.get(0) : b;
                for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    param(row, e.getKey(), type(e.getValue()));
                }
                if (row.example == null) row.example = JSON.writeValueAsString(b);
            } catch (IOException ignored) {
                // a body the row accepted but that is no JSON object is not a parameter list
            }
        }
    }

    @Override
    public void parameterRead(String method, String path, String name, boolean required) {
        rows.computeIfAbsent("PUBLIC " + method + " " + path, k -> new RowStats()).reads.merge(name, required, Boolean::logicalOr);
    }

    @Override
    public void parameterRange(String method, String path, String name, int min, int max, int defaultValue) {
        rows.computeIfAbsent("PUBLIC " + method + " " + path, k -> new RowStats()).ranges.put(name, ContractValidator.range(min, max, defaultValue));
    }

    @Override
    public void adminBodyRead(String method, String pattern, String type) {
        rows.computeIfAbsent("ADMIN " + method + " " + pattern, k -> new RowStats()).bodyType = type;
    }

    private static void param(RowStats row, String name, String type) {
        Stats s = row.params.computeIfAbsent(name, k -> new Stats());
        s.types.add(type);
        s.seen.incrementAndGet();
    }

    private static void walk(Map<String, Stats> fields, String path, JsonNode n) {
        Stats s = fields.computeIfAbsent(path, k -> new Stats());
        s.types.add(type(n));
        s.seen.incrementAndGet();
        if (n == null) return;
        if (n.isTextual() && s.values.size() <= 20) s.values.add(n.asText());
        if (n.isObject()) s.objects.incrementAndGet();
        if (n.isObject()) n.fields().forEachRemaining(e -> walk(fields, path + "." + e.getKey(), e.getValue()));
        if (n.isArray()) n.forEach(item -> walk(fields, path + "[]", item));
    }

    private static String type(JsonNode n) {
        if (n == null || n.isNull()) return "null";
        if (n.isTextual()) return "string";
        if (n.isIntegralNumber()) return "integer";
        if (n.isNumber()) return "number";
        if (n.isBoolean()) return "boolean";
        return n.isArray() ? "array" : "object";
    }

    private void write(Path file) {
        StringBuilder out = new StringBuilder("# drafted by ContractCapture: types and presence as observed, codes as status:code\n");
        new TreeMap<>(rows).forEach((key, row) -> {
            out.append("\nrow ").append(key).append("   # ").append(row.successes).append(" successes\n");
            if (row.bodyType != null) out.append("body ").append(row.bodyType).append('\n');
            if (row.example != null) out.append("example ").append(row.example).append('\n');
            row.params.forEach((name, s) -> out.append("param ").append(name).append(' ').append(String.join("|", s.types))
                    .append(s.seen.get() == row.successes.get() ? " required" : "").append('\n'));
            new TreeMap<>(row.ranges).forEach((name, range) -> out.append("range ").append(name).append(' ').append(range).append('\n'));
            new TreeMap<>(row.reads).forEach((name, req) -> out.append("read ").append(name).append(req ? " required" : "").append('\n'));
            if (!row.codes.isEmpty()) out.append("codes ").append(String.join(" ", row.codes)).append('\n');
            new TreeMap<>(row.fields).forEach((path, s) -> {
                Stats parent = row.fields.get(parentOf(path));
                boolean optional = parent != null && !path.endsWith("[]") && s.seen.get() < parent.objects.get();
                out.append(path).append(' ').append(String.join("|", s.types)).append(optional ? "?" : "");
                if (!s.values.isEmpty() && s.values.size() <= 20) out.append("   # values ").append(String.join("|", s.values));
                out.append('\n');
            });
        });
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String parentOf(String path) {
        if (path.endsWith("[]")) return path.substring(0, path.length() - 2);
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(0, dot);
    }
}
