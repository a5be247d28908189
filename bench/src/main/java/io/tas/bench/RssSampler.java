package io.tas.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The server's resident set size (VmRSS in /proc/PID/status) sampled every 200 ms while a load runs: the maximum is
 * what the machine must hold for it under that load (issue 12 item 10: RSS under load with default JVM flags).
 */
final class RssSampler {
    private final Thread thread;
    private volatile long maxKb = -1;
    private volatile boolean running = true;

    private RssSampler(long pid) {
        thread = Thread.ofPlatform().daemon().name("rss-sampler").start(() -> {
            while (running) {
                long kb = rssKb(pid);
                if (kb > maxKb) maxKb = kb;
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Samples the process pid (nothing when pid < 0). */
    static RssSampler start(long pid) {
        return new RssSampler(pid);
    }

    /** The largest VmRSS seen, in KiB (-1: none, e.g. no pid or no /proc). */
    long stop() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(2_000);
        return maxKb;
    }

    static long rssKb(long pid) {
        if (pid < 0) return -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone, or no /proc: no sample
        }
        return -1;
    }
}
