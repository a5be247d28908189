package io.tas.bench;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Summary table from per-target result files (written by `load --result-file`). The first target labelled
 * --baseline (default "netty-baseline") is the denominator of the "vs baseline" ratio.
 * Usage: report --out FILE [--header-file FILE] [--baseline LABEL] result1.properties [label=FAILED:reason ...]
 */
final class Report {

    static int run(Args a) throws IOException {
        String out = a.str("out", null);
        String headerFile = a.str("header-file", null);
        String baselineLabel = a.str("baseline", "netty-baseline");
        a.done();

        List<Properties> rows = new ArrayList<>();
        for (String p : a.positional()) {
            Properties props = new Properties();
            if (p.startsWith("missing:")) { // missing:<label>:<reason>
                String[] parts = p.split(":", 3);
                props.setProperty("label", parts[1]);
                props.setProperty("missing", parts.length > 2 ? parts[2] : "not run");
            } else {
                props.load(new StringReader(Files.readString(Path.of(p))));
            }
            rows.add(props);
        }
        double baseRps = -1, baseP99 = -1;
        for (Properties r : rows) {
            if (baselineLabel.equals(r.getProperty("label")) && r.getProperty("rps") != null) {
                baseRps = Double.parseDouble(r.getProperty("rps"));
                baseP99 = Double.parseDouble(r.getProperty("p99_ms"));
                break;
            }
        }

        StringBuilder sb = new StringBuilder();
        if (headerFile != null && Files.exists(Path.of(headerFile))) {
            sb.append(Files.readString(Path.of(headerFile)));
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '\n') sb.append('\n');
            sb.append('\n');
        }
        String fmt = "%-17s %10s %9s %9s %9s %8s %8s %11s %10s %8s %8s %8s %8s %7s%n";
        sb.append(String.format(Locale.ROOT, fmt, "target", "rps", "p50 ms", "p99 ms", "p99.9 ms", "p99/p50", "errors",
                "vs baseline", "p99 vs bl", "srv cpu", "db cpu", "load cpu", "oth cpu", "rss MB"));
        sb.append(String.format(Locale.ROOT, fmt, "-".repeat(17), "-".repeat(10), "-".repeat(9), "-".repeat(9),
                "-".repeat(9), "-".repeat(8), "-".repeat(8), "-".repeat(11), "-".repeat(10), "-".repeat(8), "-".repeat(8),
                "-".repeat(8), "-".repeat(8), "-".repeat(7)));
        List<String> notes = new ArrayList<>();
        for (Properties r : rows) {
            String label = r.getProperty("label");
            if (r.getProperty("missing") != null) {
                sb.append(String.format(Locale.ROOT, "%-17s %s%n", label, "NOT MEASURED: " + r.getProperty("missing")));
                continue;
            }
            double rps = Double.parseDouble(r.getProperty("rps"));
            String ratio;
            if (label.equals(baselineLabel)) {
                ratio = "1.000";
            } else if (baseRps > 0) {
                ratio = String.format(Locale.ROOT, "%.3f", rps / baseRps);
            } else {
                ratio = "n/a";
            }
            sb.append(String.format(Locale.ROOT, fmt, label,
                    String.format(Locale.ROOT, "%,.0f", rps),
                    r.getProperty("p50_ms"), r.getProperty("p99_ms"), r.getProperty("p999_ms"), tail(r),
                    r.getProperty("errors"), ratio,
                    baseP99 > 0 ? String.format(Locale.ROOT, "%.2fx", Double.parseDouble(r.getProperty("p99_ms")) / baseP99) : "n/a",
                    r.getProperty("server_cpu_cores"), r.getProperty("aux_cpu_cores", "n/a").replace("n/a", "-"),
                    r.getProperty("loadgen_cpu_cores"), r.getProperty("other_cpu_cores", "n/a"),
                    r.getProperty("server_rss_max_mb", "-")));
            if (!"0".equals(r.getProperty("errors"))) {
                StringBuilder kinds = new StringBuilder();
                for (String k : r.getProperty("error_kinds", "non200,bad_body,io_errors,timeouts,connect_errors").split(",")) {
                    kinds.append(' ').append(k).append('=').append(r.getProperty(k));
                }
                notes.add(label + ": errors" + kinds + " (not a valid measurement)");
            }
            if (r.getProperty("first_error") != null) {
                notes.add(label + ": first error: " + r.getProperty("first_error"));
            }
            String oth = r.getProperty("other_cpu_cores", "n/a");
            if (!oth.equals("n/a") && Double.parseDouble(oth) > 0.15) {
                notes.add(label + ": " + oth + " cores used by other processes during the window (noisy run; re-run on a quiet machine)");
            }
            String half = r.getProperty("half_ratio", "n/a");
            if (!half.equals("n/a") && Double.parseDouble(half) < 0.85) {
                notes.add(label + ": first half of the window ran at " + half
                        + "x the second half; likely still warming up (raise --warmup-seconds)");
            }
            if (Integer.parseInt(r.getProperty("attempts", "1")) > 1) {
                notes.add(label + ": measured " + r.getProperty("attempts")
                        + " times (errors, or other processes took CPU, in the window); shown is the least disturbed attempt, one without errors if any");
            }
            if ("true".equals(r.getProperty("cap_reached"))) {
                notes.add(label + ": hard request cap reached; window shortened to " + r.getProperty("window_s") + "s");
            }
            if (!"0".equals(r.getProperty("reconnects", "0"))) {
                notes.add(label + ": " + r.getProperty("reconnects") + " reconnect(s) (server closed connections)");
            }
        }
        sb.append('\n');
        sb.append("rps = successful responses (HTTP 200 and body contains \"00000\"; with wrk: HTTP 2xx) per second of the measured window\n");
        sb.append("p99 vs bl = p99 / the baseline's p99; rss MB = the server's largest VmRSS sampled during the load\n");
        sb.append("srv/db/load/oth cpu = CPU cores used during the measured window by the server JVM / the PostgreSQL processes /\n"
                + "  the load-generator JVM / everything else but interrupts (other cpu > 0.15 = noisy run; irq = interrupt time)\n");
        for (Properties r : rows) {
            if (r.getProperty("missing") == null) {
                sb.append(String.format(Locale.ROOT, "%-17s measured=%s window=%ss p90=%sms max=%sms mean=%sms machine-busy=%s%% irq=%s 1st/2nd-half=%s%n",
                        r.getProperty("label"), r.getProperty("measured_responses"), r.getProperty("window_s"),
                        r.getProperty("p90_ms"), r.getProperty("max_ms"), r.getProperty("mean_ms"),
                        r.getProperty("machine_busy_pct"), r.getProperty("irq_cpu_cores", "n/a"), r.getProperty("half_ratio", "n/a")));
            }
        }
        for (String n : notes) {
            sb.append("NOTE ").append(n).append('\n');
        }
        System.out.print(sb);
        if (out != null) {
            Path o = Path.of(out);
            if (o.getParent() != null) Files.createDirectories(o.getParent());
            Files.writeString(o, sb.toString());
        }
        return 0;
    }

    /** p99 / p50: how far the slow tail is from the typical request (1.0 = no tail). */
    private static String tail(Properties r) {
        double p50 = Double.parseDouble(r.getProperty("p50_ms"));
        return p50 > 0 ? String.format(Locale.ROOT, "%.2fx", Double.parseDouble(r.getProperty("p99_ms")) / p50) : "n/a";
    }
}
