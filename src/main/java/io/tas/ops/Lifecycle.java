package io.tas.ops;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/** Shutdown helpers (D84): every step runs, failures are logged and do not skip the steps after them. */
public final class Lifecycle {
    private static final Logger log = LoggerFactory.getLogger(Lifecycle.class);

    private Lifecycle() {}

    public static void closeAll(Runnable... steps) {
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (RuntimeException e) {
                log.warn("shutdown step failed ({}: {}); going on with the next", e.getClass().getSimpleName(), e.getMessage());
            }
        }
    }

    public static void pause(Duration d) {
        if (d.isZero()) return;
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
