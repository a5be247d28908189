package io.tas.jobs;

import java.time.Duration;

/**
 * The job scheduler's settings. pollInterval: how often (real time) a node looks for due jobs on its own; an admin
 * run-due call looks at once. runDueTimeout: how long run-due waits for the due jobs to finish.
 */
public record JobsConfig(Duration pollInterval, Duration runDueTimeout) {
    /** TAS_JOBS_POLL_MS and TAS_JOBS_RUN_DUE_TIMEOUT_MS unset (read in Config.fromEnv). */
    public static final JobsConfig DEFAULTS = new JobsConfig(Duration.ofSeconds(10), Duration.ofSeconds(15));
}
