package io.tas.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The wire shape of each row, read from a resource (src/main/resources/openapi/*.txt): the one source the OpenAPI
 * documents, and through them the contract test, are built from (issue 29, D196). The format is a line per fact:
 * <pre>
 * row ACCOUNT_INFO                  a catalog row (Endpoint name), or "row GET /admin/v1/accounts/{uid}" on the admin side
 * summary Account information       one line for the document
 * param symbol string required enum=A|B maxLength=32    a query parameter (GET) or a body field (POST); ci-enum=A|B
 *                                   is a set taken in any letter case; minimum, maximum, default, pattern as in JSON Schema
 * example category=SPOT             a query string, or a JSON body without spaces
 * body io.tas.admin.SeedFile$SeedKey   (admin) the Java record the route reads its JSON body into
 * codes 40019 40020                 the row's own error codes (the common ones are added from the catalog)
 * data object                       the answer's data: a path, its JSON type, '?' when it may be absent
 * data.list[].symbol string enum=BTCUSDT|ETHUSDT
 * data.byCoin map                   an object with keys of its own; `data.byCoin.* string` types the values
 * </pre>
 * Types: string, number, integer, boolean, object, array, null, map, any, or unions such as string|null.
 */
public final class RowSchemas {
    public record Param(String name, String type, boolean required, Map<String, String> limits) {}

    public record Field(String path, String type, boolean optional, Map<String, String> limits) {}

    public record Row(String key, String summary, List<Param> params, String example, List<String> codes, List<Field> fields, String bodyType) {}

    private RowSchemas() {}

    /** The rows of a resource, by key, in file order. */
    public static Map<String, Row> load(String resource) {
        try (InputStream in = RowSchemas.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Row> parse(String text, String source) {
        Map<String, Row> rows = new LinkedHashMap<>();
        String key = null;
        String summary = null;
        String example = null;
        String bodyType = null;
        List<Param> params = null;
        List<String> codes = null;
        List<Field> fields = null;
        int n = 0;
        for (String raw : (text + "\nrow <end>").split("\n")) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] w = line.split("\\s+");
            String rest = line.substring(w[0].length()).strip();
            switch (w[0]) {
                case "row" -> {
                    if (key != null && rows.put(key, new Row(key, summary, List.copyOf(params), example, List.copyOf(codes), List.copyOf(fields), bodyType)) != null) {
                        throw new IllegalStateException(source + ": row " + key + " twice");
                    }
                    key = rest;
                    summary = null;
                    example = null;
                    bodyType = null;
                    params = new ArrayList<>();
                    codes = new ArrayList<>();
                    fields = new ArrayList<>();
                }
                case "summary" -> summary = rest;
                case "example" -> example = rest;
                case "body" -> bodyType = rest;
                case "codes" -> codes.addAll(List.of(rest.split("\\s+")));
                case "param" -> {
                    Map<String, String> limits = limits(w, 3, source, n);
                    params.add(new Param(w[1], w[2], limits.remove("required") != null, limits));
                }
                default -> {
                    if (key == null || w.length < 2) throw new IllegalStateException(source + ":" + n + ": not a row fact: " + line);
                    boolean optional = w[1].endsWith("?");
                    fields.add(new Field(w[0], optional ? w[1].substring(0, w[1].length() - 1) : w[1], optional, limits(w, 2, source, n)));
                }
            }
        }
        return rows;
    }

    /** `required`, `enum=a|b`, `maxLength=32` and so on; `required` maps to itself. */
    private static Map<String, String> limits(String[] w, int from, String source, int line) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = from; i < w.length; i++) {
            int eq = w[i].indexOf('=');
            if (w[i].equals("required")) out.put("required", "required");
            else if (eq > 0) out.put(w[i].substring(0, eq), w[i].substring(eq + 1));
            else throw new IllegalStateException(source + ":" + line + ": unknown word " + w[i]);
        }
        return out;
    }
}
