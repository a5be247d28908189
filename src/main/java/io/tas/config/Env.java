package io.tas.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one reader of TAS_* settings (issue 24 item 9), used only by Config.fromEnv. Every read names its setting and
 * the values it can take; a value outside them is a problem, and all problems of one start are reported together, one
 * clause each naming the setting (Config.Invalid), before anything opens. Unset or blank means the default.
 */
final class Env {
    /** Read by the ./tas launcher, the CLI's client commands (call, admin) or the test harness: known, never "unknown". */
    private static final Set<String> OUTSIDE_THE_SERVICE = Set.of("TAS_JAVA_HOME", "TAS_JAVA_OPTS", "TAS_PROOF_LONG",
            "TAS_BASE_URL", "TAS_API_KEY", "TAS_API_SECRET", "TAS_API_PASSPHRASE", "TAS_ADMIN_URL");

    private final Map<String, String> env;
    private final Set<String> read = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();

    Env(Map<String, String> env) { this.env = env; }

    /** The raw value, or null when unset or blank. */
    private String raw(String name) {
        read.add(name);
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v;
    }

    /** A text taken as given (tokens, keys, URLs); unset means the default. */
    String text(String name, String dflt) {
        read.add(name);
        String v = env.get(name);
        return v == null ? dflt : v;
    }

    /** A whole number within min..max. */
    int integer(String name, int dflt, int min, int max) {
        Long v = whole(name, min, max);
        return v == null ? dflt : v.intValue();
    }

    /** An optional whole number within min..max; null when unset. */
    Integer optionalInteger(String name, int min, int max) {
        Long v = whole(name, min, max);
        return v == null ? null : v.intValue();
    }

    /** Any whole number (a seed). */
    long anyLong(String name, long dflt) {
        Long v = whole(name, Long.MIN_VALUE, Long.MAX_VALUE);
        return v == null ? dflt : v;
    }

    private Long whole(String name, long min, long max) {
        String v = raw(name);
        if (v == null) return null;
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            problems.add(name + " must be a whole number, not '" + v + "'");
            return null;
        }
        if (n < min || n > max) {
            problems.add(name + " must be " + min + ".." + max + ", not " + v.trim());
            return null;
        }
        return n;
    }

    /** A duration in milliseconds within min..max. */
    Duration millis(String name, long dflt, long min, long max) {
        String v = raw(name);
        if (v == null) return Duration.ofMillis(dflt);
        long ms;
        try {
            ms = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            problems.add(name + " must be a number of milliseconds, got " + v);
            return Duration.ofMillis(dflt);
        }
        if (ms < min || ms > max) {
            problems.add(name + " must be " + min + ".." + max + " ms, got " + v);
            return Duration.ofMillis(dflt);
        }
        return Duration.ofMillis(ms);
    }

    /** on|off (also true|false), any case: "TAS_SANDBOX=true" means on, a typo stops the start. */
    boolean onOff(String name, boolean dflt) {
        String v = raw(name);
        if (v == null) return dflt;
        Boolean b = parseOnOff(v);
        if (b == null) {
            problems.add(name + " must be on or off (or true/false), not '" + v + "'");
            return dflt;
        }
        return b;
    }

    /** An optional on/off: null when unset (it then follows another setting). */
    Boolean optionalOnOff(String name) {
        String v = raw(name);
        if (v == null) return null;
        Boolean b = parseOnOff(v);
        if (b == null) problems.add(name + " must be on or off (or true/false), not '" + v + "'");
        return b;
    }

    /** on|off|true|false of a flag or variable; null for anything else. */
    static Boolean parseOnOff(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> null;
        };
    }

    /** A decimal within [min, max) or [min, max] (maxInclusive), written plainly. */
    BigDecimal decimal(String name, String dflt, BigDecimal min, boolean minInclusive, BigDecimal max, boolean maxInclusive) {
        String v = raw(name);
        if (v == null) return new BigDecimal(dflt);
        BigDecimal d;
        try {
            d = new BigDecimal(v.trim());
        } catch (NumberFormatException e) {
            problems.add(name + " must be a decimal number, not '" + v + "'");
            return new BigDecimal(dflt);
        }
        boolean low = minInclusive ? d.compareTo(min) >= 0 : d.compareTo(min) > 0;
        boolean high = maxInclusive ? d.compareTo(max) <= 0 : d.compareTo(max) < 0;
        if (!low || !high) {
            problems.add(name + " must be " + (minInclusive ? "at least " : "above ") + min.toPlainString() + " and "
                    + (maxInclusive ? "at most " : "below ") + max.toPlainString() + ", not " + v.trim());
            return new BigDecimal(dflt);
        }
        return d;
    }

    /** One of a few words. */
    String oneOf(String name, String dflt, Set<String> allowed) {
        String v = raw(name);
        if (v == null) return dflt;
        if (!allowed.contains(v.trim())) {
            problems.add(name + " must be one of " + new TreeSet<>(allowed) + ", not '" + v + "'");
            return dflt;
        }
        return v.trim();
    }

    /** A setting that must satisfy a rule the reader cannot express (say, a coin). */
    void check(boolean ok, String problem) {
        if (!ok) problems.add(problem);
    }

    /** Marks settings as known without reading them (read only when another setting turns them on). */
    void known(String... names) { read.addAll(List.of(names)); }

    /** TAS_* variables nobody read: a typo (TAS_REDIS_ULR) would otherwise be silently ignored. */
    List<String> unknown() {
        return env.keySet().stream().filter(k -> k.startsWith("TAS_") && !read.contains(k) && !OUTSIDE_THE_SERVICE.contains(k))
                .sorted().toList();
    }

    List<String> problems() { return problems; }
}
