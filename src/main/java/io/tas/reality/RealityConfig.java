package io.tas.reality;

import io.tas.config.Config;

import java.util.Map;

/**
 * Simulated execution of Reality orders (issue 10): on, orders fill against the tickers; off, they rest (frozen) until
 * cancelled. TAS_SIMULATED_EXECUTION=on|off (also true|false); unset, it follows the sandbox flag (on in `./tas demo`,
 * off in a plain `./tas serve`). Any other value refuses the start (Config.Invalid: one clear line, no stack trace).
 */
public record RealityConfig(boolean simulatedExecution) {
    public static RealityConfig fromEnv(Map<String, String> env, boolean sandbox) {
        return new RealityConfig(onOff(env, "TAS_SIMULATED_EXECUTION", sandbox));
    }

    /** An on/off setting: on|off|true|false (any case); unset or blank, the default. */
    static boolean onOff(Map<String, String> env, String name, boolean dflt) {
        String v = env.get(name);
        if (v == null || v.isBlank()) return dflt;
        return switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new Config.Invalid(name + " must be on or off (or true/false), not '" + v + "'");
        };
    }
}
