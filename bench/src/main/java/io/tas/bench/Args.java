package io.tas.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Minimal "--name value" / "--name=value" flag parser. A flag given twice keeps both values ({@link #all}); the
 * single-value getters take the last. Unknown flags are rejected by {@link #done()}.
 */
final class Args {
    private final Map<String, List<String>> values = new LinkedHashMap<>();
    private final List<String> positional = new ArrayList<>();
    private final java.util.Set<String> used = new java.util.HashSet<>();

    Args(String[] argv, int from) {
        for (int i = from; i < argv.length; i++) {
            String a = argv[i];
            if (a.startsWith("--")) {
                String name;
                String value;
                int eq = a.indexOf('=');
                if (eq > 0) {
                    name = a.substring(2, eq);
                    value = a.substring(eq + 1);
                } else {
                    name = a.substring(2);
                    if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
                        value = argv[++i];
                    } else {
                        value = "true";
                    }
                }
                values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else {
                positional.add(a);
            }
        }
    }

    String str(String name, String def) {
        used.add(name);
        List<String> v = values.get(name);
        return v == null ? def : v.getLast();
    }

    /** Every value of a flag that may be repeated, in order; {@code def} when it was not given. */
    List<String> all(String name, List<String> def) {
        used.add(name);
        return values.getOrDefault(name, def);
    }

    String required(String name) {
        String v = str(name, null);
        if (v == null) {
            throw new IllegalArgumentException("missing required flag --" + name);
        }
        return v;
    }

    int integer(String name, int def) {
        String v = str(name, null);
        return v == null ? def : Integer.parseInt(v.trim());
    }

    long lng(String name, long def) {
        String v = str(name, null);
        return v == null ? def : Long.parseLong(v.trim());
    }

    double dbl(String name, double def) {
        String v = str(name, null);
        return v == null ? def : Double.parseDouble(v.trim());
    }

    List<String> positional() {
        return positional;
    }

    /** Fails on flags that no one asked for (typos). */
    void done() {
        for (String k : values.keySet()) {
            if (!used.contains(k)) {
                throw new IllegalArgumentException("unknown flag --" + k);
            }
        }
    }
}
