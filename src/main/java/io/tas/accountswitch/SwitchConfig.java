package io.tas.accountswitch;

import java.time.Duration;

/** §3.1 / §8 "account switch to classic takes about one minute": how long after the request its job finishes it. */
public record SwitchConfig(Duration delay) {
    /** TAS_ACCOUNT_SWITCH_DELAY_MS unset (read in Config.fromEnv). */
    public static final Duration DEFAULT_DELAY = Duration.ofSeconds(60);
}
