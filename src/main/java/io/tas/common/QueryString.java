package io.tas.common;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Query strings as clients send them: pairs split on '&' and the first '=', percent-decoded. */
public final class QueryString {
    private QueryString() {}

    public record Pair(String key, String value) {}

    public static List<Pair> decode(String rawQuery) { return decode(rawQuery, false); }

    /**
     * As decode, but a malformed escape throws IllegalArgumentException instead of being taken as written (the admin
     * console's forms, application/x-www-form-urlencoded, refuse it).
     */
    public static List<Pair> decodeStrict(String rawQuery) { return decode(rawQuery, true); }

    private static List<Pair> decode(String rawQuery, boolean strict) {
        List<Pair> pairs = new ArrayList<>();
        if (rawQuery == null || rawQuery.isEmpty()) return pairs;
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) continue;
            int eq = part.indexOf('=');
            pairs.add(new Pair(decodeComponent(eq < 0 ? part : part.substring(0, eq), strict),
                    decodeComponent(eq < 0 ? "" : part.substring(eq + 1), strict)));
        }
        return pairs;
    }

    private static String decodeComponent(String s, boolean strict) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            if (strict) throw e;
            return s; // a malformed escape is taken as written
        }
    }
}
