package io.tas.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;

/**
 * The JSON Schema of an admin body from the Java record Jackson reads it into (issue 29, D198): so the admin document
 * cannot drift from what the route accepts. Types as Jackson takes them: a number may come as a string, an enum by its
 * constant's name; every field may be left out (the control plane's own checks name a missing one).
 */
final class RecordSchemas {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RecordSchemas() {}

    static ObjectNode of(String className) {
        try {
            return of(Class.forName(className), 0);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("admin body type " + className + " is not a class", e);
        }
    }

    private static ObjectNode of(Type type, int depth) {
        if (depth > 8) return F.objectNode(); // no admin body nests this deep; a cycle must not recurse forever
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            if (Collection.class.isAssignableFrom(raw)) {
                ObjectNode s = F.objectNode().put("type", "array");
                s.set("items", of(p.getActualTypeArguments()[0], depth + 1));
                return s;
            }
            if (Map.class.isAssignableFrom(raw)) {
                ObjectNode s = F.objectNode().put("type", "object");
                s.set("additionalProperties", of(p.getActualTypeArguments()[1], depth + 1));
                return s;
            }
            return of(raw, depth);
        }
        Class<?> c = (Class<?>) type;
        if (c == String.class) return types("string");
        if (c == BigDecimal.class || c == Double.class || c == double.class) return types("string", "number");
        if (c == Long.class || c == long.class || c == Integer.class || c == int.class) return types("string", "integer");
        if (c == Boolean.class || c == boolean.class) return types("boolean");
        if (c.isEnum()) {
            ObjectNode s = types("string");
            ArrayNode values = s.putArray("enum");
            java.lang.reflect.Method wire = null; // Jackson writes and reads an enum by its @JsonValue, else by name
            for (java.lang.reflect.Method m : c.getMethods()) {
                if (m.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonValue.class) && m.getParameterCount() == 0) wire = m;
            }
            for (Object constant : c.getEnumConstants()) {
                try {
                    values.add(wire == null ? ((Enum<?>) constant).name() : String.valueOf(wire.invoke(constant)));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return s;
        }
        if (c.isRecord()) {
            ObjectNode s = types("object");
            ObjectNode props = s.putObject("properties");
            for (RecordComponent rc : c.getRecordComponents()) props.set(rc.getName(), of(rc.getGenericType(), depth + 1));
            return s;
        }
        return F.objectNode(); // anything Jackson maps on its own terms
    }

    private static ObjectNode types(String... names) {
        ObjectNode s = F.objectNode();
        if (names.length == 1) s.put("type", names[0]);
        else {
            ArrayNode t = s.putArray("type");
            for (String n : names) t.add(n);
        }
        return s;
    }
}
