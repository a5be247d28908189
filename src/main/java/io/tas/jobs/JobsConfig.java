package io.tas.jobs;

import java.time.Duration;
import java.util.Map;

/**
 * The job scheduler's settings. pollInterval: how often (real time) a node looks for due jobs on its own; an admin
 * run-due call looks at once. runDueTimeout: how long run-due waits for the due jobs to finish.
 */
public record JobsConfig(Duration pollInterval, Duration runDueTimeout) {
    public static JobsConfig fromEnv(Map<String, String> env) {
        return new JobsConfig(Duration.ofMillis(millis(env, "TAS_JOBS_POLL_MS", 10_000, 10)),
                Duration.ofMillis(millis(env, "TAS_JOBS_RUN_DUE_TIMEOUT_MS", 15_000, 0)));
    }

    static long millis(Map<String, String> env, String name, long otherwise, long min) {
        String v = env.get(name);
        if (v == null || v.isBlank()) return otherwise;
        try {
            long ms = Long.parseLong(v.trim());
            if (ms >= min) return ms;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a whole number of milliseconds, at least " + min + ", not '" + v + "'");
    }
}
