package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON type of every field of the spec's resource tables (§2), read from src/test/resources/wire-types.txt, checked
 * against real answers of the demo accounts: a string where the spec says string, a Number where it says Number, an
 * object, an array. Each field listed must be present in every item, with its type.
 *
 * File format: `row <who> <target>` starts a row (who: MAIN or CLASSIC; `row <who> POST <path> <json body>` for a POST
 * row, the body without spaces); then lines `<path> <type>`, where a path is
 * `data`, `data.list`, `data[]` (each item of the data array), `data.list[].twapParams[].duration` and so on, and a type
 * is string, number, boolean, array, object or null. `#` starts a comment.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class WireTypesTest {
    @Parameter Databases.Kind kind;

    record Row(String who, String target, String postBody, List<String[]> fields) {}

    @Test
    void everyFieldHasTheSpecsType() throws IOException {
        TestServer server = ServerPool.next(kind);
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Row row : rows()) {
            ServerPool.nextSecond(kind); // 1/s rows
            Credentials who = row.who().equals("CLASSIC") ? Credentials.CLASSIC : Credentials.MAIN_RW;
            ApiClient.Reply reply = row.postBody() == null ? server.client(who).get(row.target())
                    : server.client(who).post(row.target(), row.postBody());
            if (!reply.code().equals("00000")) {
                problems.add(row.target() + ": " + reply.raw());
                continue;
            }
            for (String[] f : row.fields()) {
                List<JsonNode> nodes = at(reply.body(), f[0]);
                if (nodes.isEmpty()) problems.add(row.target() + " " + f[0] + ": no value to check (empty list or missing)");
                for (JsonNode n : nodes) {
                    checked++;
                    if (!type(n).equals(f[1])) problems.add(row.target() + " " + f[0] + ": " + type(n) + " (" + n + "), spec: " + f[1]);
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(checked).isPositive();
    }

    /** Every node at the path; "[]" fans out over an array's items, a missing field is a MissingNode ("missing"). */
    private static List<JsonNode> at(JsonNode root, String path) {
        List<JsonNode> current = List.of(root);
        for (String part : path.split("\\.")) {
            boolean each = part.endsWith("[]");
            String name = each ? part.substring(0, part.length() - 2) : part;
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode n : current) {
                JsonNode v = n.path(name);
                if (each) v.forEach(next::add);
                else next.add(v);
            }
            current = next;
        }
        return current;
    }

    private static String type(JsonNode n) {
        if (n.isMissingNode()) return "missing";
        if (n.isTextual()) return "string";
        if (n.isNumber()) return "number";
        if (n.isBoolean()) return "boolean";
        if (n.isArray()) return "array";
        if (n.isObject()) return "object";
        return "null";
    }

    private static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        try (InputStream in = WireTypesTest.class.getResourceAsStream("/wire-types.txt")) {
            Row row = null;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) continue;
                String[] w = line.split("\\s+");
                if (w[0].equals("row")) {
                    row = w[2].equals("POST") ? new Row(w[1], w[3], w[4], new ArrayList<>()) : new Row(w[1], w[2], null, new ArrayList<>());
                    rows.add(row);
                } else {
                    row.fields().add(new String[]{w[0], w[1]});
                }
            }
        }
        return rows;
    }
}
