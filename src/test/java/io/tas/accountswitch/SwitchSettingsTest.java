package io.tas.accountswitch;

import io.tas.admin.SandboxClock;
import io.tas.jobs.JobsConfig;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The switch's settings from the environment, and the sandbox clock it is usually finished with. */
class SwitchSettingsTest {
    @Test
    void theDelayIsAMinuteUnlessSetAndNeverNegative() {
        assertThat(delay(Map.of())).isEqualTo(Duration.ofSeconds(60));
        assertThat(delay(Map.of("TAS_ACCOUNT_SWITCH_DELAY_MS", " 1500 "))).isEqualTo(Duration.ofMillis(1500));
        assertThat(delay(Map.of("TAS_ACCOUNT_SWITCH_DELAY_MS", "0"))).isZero();
        assertThatThrownBy(() -> delay(Map.of("TAS_ACCOUNT_SWITCH_DELAY_MS", "-1")))
                .hasMessage("TAS_ACCOUNT_SWITCH_DELAY_MS must be 0..86400000 ms, got -1");
        assertThatThrownBy(() -> delay(Map.of("TAS_ACCOUNT_SWITCH_DELAY_MS", "soon"))).hasMessageContaining("got soon");
    }

    private static Duration delay(Map<String, String> env) {
        return io.tas.config.Config.fromEnv(env).features().accountSwitch().delay();
    }

    private static JobsConfig jobs(Map<String, String> env) {
        return io.tas.config.Config.fromEnv(env).features().jobs();
    }

    @Test
    void jobsPollEveryTenSecondsUnlessSet() {
        JobsConfig defaults = jobs(Map.of());
        assertThat(defaults.pollInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.runDueTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(jobs(Map.of("TAS_JOBS_POLL_MS", "250")).pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThatThrownBy(() -> jobs(Map.of("TAS_JOBS_POLL_MS", "0"))).hasMessageContaining("must be 10..3600000 ms");
    }

    @Test
    void theSandboxClockOnlyMovesForwardAndLeavesTheMachineClockAlone() {
        Clock machine = Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC);
        SandboxClock sandbox = new SandboxClock(machine);
        sandbox.advance(Duration.ofMinutes(1));
        assertThat(sandbox.millis()).isEqualTo(1_060_000);
        assertThat(sandbox.machine().millis()).isEqualTo(1_000_000);
        assertThatThrownBy(() -> sandbox.advance(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sandbox.advance(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(sandbox.millis()).isEqualTo(1_060_000);
    }
}
