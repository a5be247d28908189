package io.tas.common;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Query strings as clients send them: pairs split on '&' and the first '=', percent-decoded. */
public final class QueryString {
    private QueryString() {}

    public record Pair(String key, String value) {}

    public static List<Pair> decode(String rawQuery) {
        List<Pair> pairs = new ArrayList<>();
        if (rawQuery == null || rawQuery.isEmpty()) return pairs;
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) continue;
            int eq = part.indexOf('=');
            pairs.add(new Pair(decodeComponent(eq < 0 ? part : part.substring(0, eq)), decodeComponent(eq < 0 ? "" : part.substring(eq + 1))));
        }
        return pairs;
    }

    private static String decodeComponent(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s; // a malformed escape is taken as written
        }
    }
}
