package io.tas.jobs;

import io.tas.config.Config;

import java.time.Duration;
import java.util.Map;

/**
 * The job scheduler's settings. pollInterval: how often (real time) a node looks for due jobs on its own; an admin
 * run-due call looks at once. runDueTimeout: how long run-due waits for the due jobs to finish.
 */
public record JobsConfig(Duration pollInterval, Duration runDueTimeout) {
    public static JobsConfig fromEnv(Map<String, String> env) {
        return new JobsConfig(Config.millis(env, "TAS_JOBS_POLL_MS", 10_000, 10, 3_600_000),
                Config.millis(env, "TAS_JOBS_RUN_DUE_TIMEOUT_MS", 15_000, 0, 600_000));
    }
}
