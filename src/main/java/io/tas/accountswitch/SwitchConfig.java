package io.tas.accountswitch;

import java.time.Duration;
import java.util.Map;

/** §3.1 / §8 "account switch to classic takes about one minute": how long after the request its job finishes it. */
public record SwitchConfig(Duration delay) {
    public static final Duration DEFAULT_DELAY = Duration.ofSeconds(60);

    public static SwitchConfig fromEnv(Map<String, String> env) {
        String v = env.get("TAS_ACCOUNT_SWITCH_DELAY_MS");
        if (v == null || v.isBlank()) return new SwitchConfig(DEFAULT_DELAY);
        try {
            long ms = Long.parseLong(v.trim());
            if (ms >= 0) return new SwitchConfig(Duration.ofMillis(ms));
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("TAS_ACCOUNT_SWITCH_DELAY_MS must be a whole number of milliseconds, 0 or more, not '" + v + "'");
    }
}
