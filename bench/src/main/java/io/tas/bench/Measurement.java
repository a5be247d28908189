package io.tas.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The clock and the summary of one closed-loop measurement, shared by the HTTP load ({@link LoadGen}) and the JDBC
 * loop ({@link JdbcLoop}): a warm-up that is not recorded, then the measured window. A request belongs to the window
 * when it was <em>started</em> inside it. Workers call {@link #startRequest()} before each request (false: stop, the
 * window is over or the hard cap on requests is reached); the driving thread calls {@link #drive}, which blocks
 * through warm-up and window, prints progress and samples CPU at the window's edges.
 */
final class Measurement {
    static final long HIGHEST_MICROS = TimeUnit.SECONDS.toMicros(60);
    private static final int ERROR_SAMPLES = 5;

    final String label;
    final long t0;
    final long measureStart;
    final long measureEnd;
    private final long maxRequests;
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong capReachedAt = new AtomicLong(Long.MAX_VALUE);
    private final List<String> errorSamples = new ArrayList<>();
    private final CountDownLatch sampled = new CountDownLatch(1);
    private CpuSample before;
    private CpuSample after;
    private long issuedAtStart;
    private long issuedAtMid;
    private long issuedAtEnd;

    Measurement(String label, double warmupSeconds, double seconds, long maxRequests) {
        if (warmupSeconds < 0 || warmupSeconds > 600) throw new IllegalArgumentException("--warmup-seconds must be 0..600");
        if (seconds <= 0 || seconds > 600) throw new IllegalArgumentException("--seconds must be >0 and <=600");
        if (maxRequests < 1) throw new IllegalArgumentException("--max-requests must be >= 1");
        this.label = label;
        this.maxRequests = maxRequests;
        this.t0 = System.nanoTime();
        this.measureStart = t0 + (long) (warmupSeconds * 1e9);
        this.measureEnd = measureStart + (long) (seconds * 1e9);
    }

    /** New histogram for one worker's latencies in microseconds (1 µs .. 60 s, 3 significant digits). */
    static Histogram histogram() {
        return new Histogram(HIGHEST_MICROS, 3);
    }

    /** Records the latency of a request started at {@code startNanos} and answered at {@code endNanos}. */
    static void record(Histogram h, long startNanos, long endNanos) {
        h.recordValue(Math.min(Math.max(1, (endNanos - startNanos) / 1000), HIGHEST_MICROS));
    }

    boolean timeLeft() {
        return System.nanoTime() < measureEnd && capReachedAt.get() == Long.MAX_VALUE;
    }

    /** Counts a request about to start; false when no request may start any more (window over, or cap reached). */
    boolean startRequest() {
        if (!timeLeft()) {
            return false;
        }
        if (issued.incrementAndGet() > maxRequests) {
            capReachedAt.compareAndSet(Long.MAX_VALUE, System.nanoTime());
            return false;
        }
        return true;
    }

    boolean measured(long startNanos) {
        return startNanos >= measureStart && startNanos < measureEnd;
    }

    /** Keeps the first few error descriptions (any phase) for the log and the result file. */
    void sampleError(String text) {
        synchronized (errorSamples) {
            if (errorSamples.size() < ERROR_SAMPLES) {
                String t = text.replaceAll("\\s+", " ");
                errorSamples.add(t.length() > 400 ? t.substring(0, 400) + "..." : t);
            }
        }
    }

    /** Blocks until the end of the measured window: progress lines, CPU samples at the window's edges. */
    void drive(double progressSeconds, long serverPid, String auxName) throws InterruptedException {
        progressUntil("warm-up", measureStart, progressSeconds);
        before = CpuSample.take(serverPid, auxName);
        System.out.printf(Locale.ROOT, "[%s] warm-up done: %d requests issued, measuring...%n", label, issued.get());
        long mid = measureStart + (measureEnd - measureStart) / 2;
        issuedAtStart = issued.get();
        progressUntil("measure", mid, progressSeconds);
        issuedAtMid = issued.get();
        progressUntil("measure", measureEnd, progressSeconds);
        issuedAtEnd = issued.get();
        after = CpuSample.take(serverPid, auxName);
        sampled.countDown();
    }

    /**
     * Waits (at most 10 s) until {@link #drive} took the CPU sample at the window's end. A worker that holds a
     * database connection calls it before closing the connection: the sample sums the CPU of the database's
     * processes that exist at that moment, and a backend that already quit would drop out of the sum.
     */
    void awaitWindowSampled() throws InterruptedException {
        sampled.await(10, TimeUnit.SECONDS);
    }

    private void progressUntil(String phase, long until, double every) throws InterruptedException {
        if (every <= 0) {
            sleepUntil(until);
            return;
        }
        long step = (long) (every * 1e9);
        long last = issued.get();
        long lastT = System.nanoTime();
        while (System.nanoTime() < until) {
            long next = Math.min(until, lastT + step);
            sleepUntil(next);
            long now = System.nanoTime();
            long cur = issued.get();
            if (now - lastT >= step / 2) {
                System.out.printf(Locale.ROOT, "[%s]   %-7s t=%5.1fs  %,9.0f req/s%n", label, phase, (now - t0) / 1e9,
                        (cur - last) / ((now - lastT) / 1e9));
            }
            last = cur;
            lastT = now;
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long d;
        while ((d = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(Math.min(d, TimeUnit.MILLISECONDS.toNanos(200)));
        }
    }

    /**
     * The result of the run (after {@link #drive} and after every worker stopped). {@code errors} is the breakdown
     * of failed requests by kind; the keys are those the summary table knows (non200, bad_body, io_errors, ...).
     * Callers may add keys to the returned map before {@link #write}.
     */
    Map<String, String> summary(Histogram all, long ok, Map<String, Long> errors, long warmupResponses) {
        long windowEnd = Math.min(measureEnd, capReachedAt.get());
        double windowSec = Math.max(1e-9, (windowEnd - measureStart) / 1e9);
        boolean capped = capReachedAt.get() != Long.MAX_VALUE;
        long errorSum = errors.values().stream().mapToLong(Long::longValue).sum();

        Map<String, String> r = new LinkedHashMap<>();
        r.put("label", label);
        r.put("rps", fmt(ok / windowSec, 1));
        r.put("p50_ms", fmt(ms(all.getValueAtPercentile(50)), 3));
        r.put("p90_ms", fmt(ms(all.getValueAtPercentile(90)), 3));
        r.put("p99_ms", fmt(ms(all.getValueAtPercentile(99)), 3));
        r.put("p999_ms", fmt(ms(all.getValueAtPercentile(99.9)), 3));
        r.put("max_ms", fmt(ms(all.getMaxValue()), 3));
        r.put("mean_ms", fmt(all.getMean() / 1000.0, 3));
        r.put("errors", Long.toString(errorSum));
        r.put("ok", Long.toString(ok));
        errors.forEach((k, v) -> r.put(k, Long.toString(v)));
        r.put("error_kinds", String.join(",", errors.keySet()));
        synchronized (errorSamples) {
            if (!errorSamples.isEmpty()) {
                // Properties syntax: a backslash would be read as an escape.
                r.put("first_error", errorSamples.getFirst().replace('\\', '/'));
            }
        }
        r.put("measured_responses", Long.toString(all.getTotalCount()));
        r.put("warmup_responses", Long.toString(warmupResponses));
        r.put("issued_total", Long.toString(issued.get()));
        r.put("window_s", fmt(windowSec, 3));
        r.put("cap_reached", Boolean.toString(capped));
        // Throughput of the first half of the window relative to the second half: well below 1 means the JITs
        // were still warming up when measurement began (raise --warmup-seconds).
        long firstHalf = issuedAtMid - issuedAtStart;
        long secondHalf = issuedAtEnd - issuedAtMid;
        r.put("half_ratio", secondHalf > 0 && !capped ? fmt((double) firstHalf / secondHalf, 3) : "n/a");
        cpu(r, before, after);
        return r;
    }

    /** The CPU columns (load generator = this JVM, server, aux, others, irq) between two samples, into r. */
    static void cpu(Map<String, String> r, CpuSample before, CpuSample after) {
        double wall = (after.wallNanos() - before.wallNanos()) / 1e9;
        double loadCpu = (after.selfCpuNanos() - before.selfCpuNanos()) / 1e9 / wall;
        r.put("loadgen_cpu_cores", fmt(loadCpu, 2));
        double srv = 0;
        if (before.serverTicks() >= 0 && after.serverTicks() >= 0) {
            srv = (after.serverTicks() - before.serverTicks()) / (double) CpuSample.CLK_TCK / wall;
            r.put("server_cpu_cores", fmt(srv, 2));
        } else {
            r.put("server_cpu_cores", "n/a");
        }
        double aux = 0;
        if (before.auxTicks() >= 0 && after.auxTicks() >= 0) {
            aux = Math.max(0, after.auxTicks() - before.auxTicks()) / (double) CpuSample.CLK_TCK / wall;
            r.put("aux_cpu_cores", fmt(aux, 2));
        } else {
            r.put("aux_cpu_cores", "n/a");
        }
        if (before.sysTotal() > 0 && after.sysTotal() > before.sysTotal()) {
            double busy = 1.0 - (double) (after.sysIdle() - before.sysIdle()) / (after.sysTotal() - before.sysTotal());
            r.put("machine_busy_pct", fmt(busy * 100, 1));
            int ncpu = Runtime.getRuntime().availableProcessors();
            double ticks = (after.sysTotal() - before.sysTotal()) / (double) ncpu; // per CPU over the window
            double irq = (after.sysIrq() - before.sysIrq()) / ticks;
            r.put("irq_cpu_cores", fmt(irq, 2));
            // CPU used by everything else on the machine (builds, other services): > ~0.1 means a noisy run. Interrupt
            // time is left out: on loopback it is the kernel moving the measured traffic's packets (a JDBC loop at
            // 64 connections makes ~0.3 cores of it), and no process is billed for it.
            r.put("other_cpu_cores", fmt(Math.max(0, busy * ncpu - srv - loadCpu - aux - irq), 2));
        } else {
            r.put("machine_busy_pct", "n/a");
            r.put("irq_cpu_cores", "n/a");
            r.put("other_cpu_cores", "n/a");
        }
    }

    /** Prints the result (and the first error responses) and writes it to {@code resultFile} (may be null). */
    void write(Map<String, String> r, String auxName, String resultFile) throws IOException {
        StringBuilder kinds = new StringBuilder();
        for (String k : r.get("error_kinds").split(",")) {
            if (!k.isEmpty()) kinds.append(kinds.isEmpty() ? "" : " ").append(k).append('=').append(r.get(k));
        }
        System.out.printf(Locale.ROOT,
                "[%s] rps=%s p50=%sms p90=%sms p99=%sms p99.9=%sms max=%sms errors=%s (%s) measured=%s window=%ss "
                        + "cpu(server=%s loadgen=%s %s=%s irq=%s other=%s machine-busy=%s%%)%s%n",
                label, r.get("rps"), r.get("p50_ms"), r.get("p90_ms"), r.get("p99_ms"), r.get("p999_ms"), r.get("max_ms"),
                r.get("errors"), kinds, r.get("measured_responses"), r.get("window_s"), r.get("server_cpu_cores"),
                r.get("loadgen_cpu_cores"), auxName == null ? "aux" : auxName, r.get("aux_cpu_cores"),
                r.get("irq_cpu_cores"), r.get("other_cpu_cores"), r.get("machine_busy_pct"),
                "true".equals(r.get("cap_reached")) ? " [HARD REQUEST CAP REACHED]" : "");
        synchronized (errorSamples) {
            if (!errorSamples.isEmpty()) {
                System.out.printf("[%s] first error responses (any phase, at most %d):%n", label, ERROR_SAMPLES);
                errorSamples.forEach(e -> System.out.printf("[%s]   %s%n", label, e));
            }
        }
        // The one-line form bench/run-money's table reads.
        System.out.printf(Locale.ROOT, "RESULT %s rps=%s p50=%s p99=%s ok=%s errors=%s seconds=%s%n",
                label.replace(' ', '_'), r.get("rps"), r.get("p50_ms"), r.get("p99_ms"), r.get("ok"), r.get("errors"),
                r.get("window_s"));
        if (resultFile != null) {
            StringBuilder sb = new StringBuilder();
            r.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            Files.writeString(Path.of(resultFile), sb.toString());
        }
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    static String fmt(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
