package io.tas.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Minimal "--name value" / "--name=value" flag parser. Unknown flags are rejected by {@link #done()}. */
final class Args {
    private final Map<String, String> values = new LinkedHashMap<>();
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
                values.put(name, value);
            } else {
                positional.add(a);
            }
        }
    }

    String str(String name, String def) {
        used.add(name);
        return values.getOrDefault(name, def);
    }

    String required(String name) {
        used.add(name);
        String v = values.get(name);
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
