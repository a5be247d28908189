package io.tas.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tas.openapi.RowSchemas.Field;
import io.tas.openapi.RowSchemas.Param;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON Schema (2020-12, as OpenAPI 3.1 uses it) of a row's answer data and parameters, from its row facts. */
final class FieldSchemas {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private FieldSchemas() {}

    /** The schema of `data`; a row with no data facts answers data null. */
    static ObjectNode data(List<Field> fields, String row) {
        Map<String, Field> byPath = new LinkedHashMap<>();
        for (Field f : fields) {
            if (byPath.put(f.path(), f) != null) throw new IllegalStateException(row + ": field " + f.path() + " twice");
            if (!f.path().equals("data") && !f.path().startsWith("data.") && !f.path().startsWith("data[]")) {
                throw new IllegalStateException(row + ": field " + f.path() + " is not under data");
            }
        }
        if (byPath.isEmpty()) return (ObjectNode) F.objectNode().put("type", "null");
        for (String p : byPath.keySet()) {
            String parent = parent(p);
            if (parent != null && !byPath.containsKey(parent)) throw new IllegalStateException(row + ": " + p + " has no declared parent " + parent);
        }
        return schema("data", byPath);
    }

    /** The parent path of a field: data.list[].x → data.list[], data.list[] → data.list, data → none. */
    private static String parent(String path) {
        if (path.endsWith("[]")) return path.substring(0, path.length() - 2);
        int dot = path.lastIndexOf('.');
        return dot < 0 ? null : path.substring(0, dot);
    }

    private static ObjectNode schema(String path, Map<String, Field> byPath) {
        Field f = byPath.get(path);
        ObjectNode s = F.objectNode();
        List<String> types = List.of(f.type().split("\\|"));
        if (types.contains("any")) return s;
        ArrayNode typeNode = F.arrayNode();
        for (String t : types) typeNode.add(t.equals("map") ? "object" : t);
        if (typeNode.size() == 1) s.set("type", typeNode.get(0)); else s.set("type", typeNode);
        if (types.contains("object")) {
            ObjectNode props = s.putObject("properties");
            ArrayNode required = F.arrayNode();
            String prefix = path + ".";
            for (String p : byPath.keySet()) {
                if (!p.startsWith(prefix)) continue;
                String name = p.substring(prefix.length());
                if (name.contains(".") || name.endsWith("[]") || name.equals("*")) continue;
                props.set(name, schema(p, byPath));
                if (!byPath.get(p).optional()) required.add(name);
            }
            if (!required.isEmpty()) s.set("required", required);
            s.put("additionalProperties", false); // issue 29: a field the document does not name fails the contract
        }
        if (types.contains("map")) {
            s.set("additionalProperties", byPath.containsKey(path + ".*") ? schema(path + ".*", byPath) : F.objectNode());
        }
        if (types.contains("array")) {
            s.set("items", byPath.containsKey(path + "[]") ? schema(path + "[]", byPath) : F.objectNode());
        }
        limits(s, f.limits(), types.contains("null"));
        return s;
    }

    /** A parameter's schema: query values are strings on the wire; body fields may be any JSON type. */
    static ObjectNode param(Param p) {
        ObjectNode s = F.objectNode();
        List<String> types = List.of(p.type().split("\\|"));
        if (!types.contains("any")) {
            if (types.size() == 1) s.put("type", types.get(0));
            else s.set("type", F.arrayNode().addAll(types.stream().map(F::textNode).toList()));
        }
        limits(s, p.limits(), types.contains("null"));
        return s;
    }

    private static void limits(ObjectNode s, Map<String, String> limits, boolean nullable) {
        limits.forEach((k, v) -> {
            switch (k) {
                case "enum" -> {
                    ArrayNode values = s.putArray("enum");
                    for (String e : v.split("\\|")) values.add(e);
                    if (nullable) values.addNull();
                }
                case "ci-enum" -> { // a closed set the row takes in any letter case (category, side): a pattern, not an enum
                    StringBuilder re = new StringBuilder("^(");
                    for (String e : v.split("\\|")) {
                        if (re.length() > 2) re.append('|');
                        for (char c : e.toCharArray()) {
                            // the values are letters, digits, '-' and '_': nothing else needs escaping
                            re.append(Character.isLetter(c) ? "[" + Character.toLowerCase(c) + Character.toUpperCase(c) + "]" : String.valueOf(c));
                        }
                    }
                    s.put("pattern", re.append(")$").toString());
                    s.put("description", "one of " + v.replace("|", ", ") + ", in any letter case");
                }
                case "maxLength", "minLength", "maxItems", "minItems" -> s.put(k, Integer.parseInt(v));
                case "maximum", "minimum" -> s.put(k, new java.math.BigDecimal(v));
                case "pattern", "format", "const" -> s.put(k, v);
                case "default" -> {
                    if (v.matches("-?\\d{1,18}")) s.put(k, Long.parseLong(v)); else s.put(k, v);
                }
                default -> throw new IllegalStateException("unknown limit " + k);
            }
        });
    }
}
