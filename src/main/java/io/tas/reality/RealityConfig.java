package io.tas.reality;

import java.util.Map;

/**
 * Simulated execution of Reality orders (issue 10): on, orders fill against the tickers; off, they rest (frozen) until
 * cancelled. TAS_SIMULATED_EXECUTION=on|off; unset, it follows the sandbox flag (on in `./tas demo`, off in a plain
 * `./tas serve`).
 */
public record RealityConfig(boolean simulatedExecution) {
    public static RealityConfig fromEnv(Map<String, String> env, boolean sandbox) {
        String v = env.get("TAS_SIMULATED_EXECUTION");
        return new RealityConfig(v == null || v.isBlank() ? sandbox : "on".equalsIgnoreCase(v));
    }
}
