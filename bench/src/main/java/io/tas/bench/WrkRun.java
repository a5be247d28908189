package io.tas.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Drives Debian's {@code wrk} (C, epoll) instead of the Java load generator, so the load takes little CPU from the
 * server on a 2-core box. wrk cannot sign, so each phase (warm-up, then measured) is signed just before it starts:
 * every {cursor} request of --path is signed once with one timestamp into a Lua script that wrk cycles through.
 * A phase must therefore end within the platform's ±30 s timestamp window (checked). The Lua done() hook prints the
 * figures; this class adds the CPU columns (wrk = this JVM's reaped children) and writes the same result file as
 * {@code load}, so {@code report} reads both.
 */
final class WrkRun {
    /** Room left in the signature window for clock steps and wrk's own start. */
    private static final double WINDOW_MARGIN_SECONDS = 2;

    private WrkRun() {
    }

    static int run(Args a) throws Exception {
        String host = a.str("host", "127.0.0.1");
        int port = Integer.parseInt(a.required("port"));
        SignedRequests.Spec spec = SignedRequests.Spec.from(a, "/api/v3/account/settings");
        Credentials creds = Credentials.all(a).getFirst();
        int connections = a.integer("connections", 64);
        int threads = a.integer("threads", 2);
        double warmup = a.dbl("warmup-seconds", 20);
        double seconds = a.dbl("seconds", 10);
        double rate = a.dbl("rate", 0); // 0: each connection sends its next request at once (closed loop, saturating)
        String label = a.str("label", "wrk");
        String resultFile = a.str("result-file", null);
        long serverPid = a.lng("server-pid", -1L);
        String aux = a.str("aux-cpu-process", null);
        Path work = Path.of(a.str("work-dir", System.getProperty("java.io.tmpdir")));
        // Wire facts: ACCESS-TIMESTAMP within 30 s of the server clock. A sandbox server may accept a wider window
        // (TAS_TIMESTAMP_WINDOW_MS, sandbox only), and then one signing lasts a longer phase.
        double maxPhase = a.dbl("timestamp-window-seconds", 30) - WINDOW_MARGIN_SECONDS;
        a.all("expect", List.of()); // bodies are not read (a Lua response hook would cost wrk a copy of every page): fetch probes them
        a.done();
        if (warmup > maxPhase || seconds > maxPhase) {
            throw new IllegalArgumentException("wrk phases are pre-signed: --warmup-seconds and --seconds must be <= "
                    + maxPhase + " (the timestamp window, --timestamp-window-seconds, less " + WINDOW_MARGIN_SECONDS + " s)");
        }
        int requests = Math.max(1, spec.cursors().size());
        // Paced: every connection waits connections/rate between its answer and its next request, so the offered load
        // is at most `rate` requests per second; the achieved rps is reported.
        double thinkMs = rate > 0 ? connections * 1000.0 / rate : 0;
        if (warmup > 0) {
            Map<String, String> w = phase(host, port, spec, creds, requests, connections, threads, thinkMs, warmup, work.resolve(label + ".warmup"));
            System.out.printf(Locale.ROOT, "[%s] warm-up: %s requests, %s non-2xx/socket errors%n", label, w.get("requests"), w.get("errors"));
        }
        CpuSample before = withChildren(CpuSample.take(serverPid, aux));
        RssSampler rss = RssSampler.start(serverPid);
        Map<String, String> m = phase(host, port, spec, creds, requests, connections, threads, thinkMs, seconds, work.resolve(label + ".measured"));
        long rssMaxKb = rss.stop();
        CpuSample after = withChildren(CpuSample.take(serverPid, aux));

        Map<String, String> r = new LinkedHashMap<>();
        r.put("label", label);
        long ok = Long.parseLong(m.get("requests")) - Long.parseLong(m.get("errors"));
        double window = Double.parseDouble(m.get("duration_us")) / 1e6;
        r.put("rps", fmt(ok / window, 1));
        for (String p : List.of("p50", "p90", "p99", "p999", "max", "mean")) r.put(p + "_ms", fmt(Double.parseDouble(m.get(p + "_us")) / 1000, 3));
        r.put("errors", m.get("errors"));
        r.put("ok", Long.toString(ok));
        for (String k : List.of("connect", "read", "write", "status", "timeout")) r.put("wrk_" + k, m.get(k));
        r.put("error_kinds", "");
        r.put("measured_responses", m.get("requests"));
        r.put("window_s", fmt(window, 3));
        r.put("cap_reached", "false");
        r.put("loadgen", "wrk " + threads + " threads, " + connections + " connections, " + requests + " pre-signed requests per phase"
                + (rate > 0 ? ", paced at <= " + fmt(rate, 0) + " rps" : ""));
        r.put("offered_rps", rate > 0 ? fmt(rate, 0) : "unpaced");
        Measurement.cpu(r, before, after);
        if (rssMaxKb > 0) r.put("server_rss_max_mb", fmt(rssMaxKb / 1024.0, 0));
        print(label, r, aux);
        if (resultFile != null) {
            StringBuilder sb = new StringBuilder();
            r.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            Files.writeString(Path.of(resultFile), sb.toString());
        }
        return "0".equals(r.get("errors")) ? 0 : 1;
    }

    /** One wrk run of the given length over freshly signed requests; the key=value lines its done() hook printed. */
    private static Map<String, String> phase(String host, int port, SignedRequests.Spec spec, Credentials creds, int requests,
                                             int connections, int threads, double thinkMs, double seconds, Path prefix) throws IOException, InterruptedException {
        Path script = Path.of(prefix + ".lua");
        Files.writeString(script, script(host, port, spec, creds, requests, thinkMs));
        Path out = Path.of(prefix + ".out");
        Process p = new ProcessBuilder("wrk", "-t" + threads, "-c" + connections, "-d" + Math.max(1, Math.round(seconds)) + "s",
                "--timeout", "10s", "-s", script.toString(), "http://" + host + ":" + port)
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor((long) (seconds + 30), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            Files.deleteIfExists(script);
            throw new IllegalStateException("wrk did not finish within " + (seconds + 30) + " s");
        }
        Files.deleteIfExists(script); // it holds the key, the passphrase and live signatures
        String text = Files.readString(out);
        if (p.exitValue() != 0) throw new IllegalStateException("wrk exited " + p.exitValue() + ":\n" + text);
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("tas.")) {
                int eq = line.indexOf('=');
                m.put(line.substring(4, eq), line.substring(eq + 1).trim());
            }
        }
        if (!m.containsKey("requests")) throw new IllegalStateException("wrk printed no result:\n" + text);
        return m;
    }

    /** A Lua script holding every request signed now, cycled per wrk thread from a different offset. */
    static String script(String host, int port, SignedRequests.Spec spec, Credentials creds, int requests, double thinkMs) {
        Signer signer = new Signer(creds.secret());
        String ts = Long.toString(System.currentTimeMillis());
        StringBuilder sb = new StringBuilder(requests * 400).append("local reqs = {\n");
        for (int i = 0; i < requests; i++) {
            String path = spec.path(i);
            String body = spec.bodyTemplate().isEmpty() ? "" : spec.body(i);
            String raw = spec.method().name() + " " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nContent-Type: application/json\r\nACCESS-KEY: " + creds.key()
                    + "\r\nACCESS-SIGN: " + signer.sign(ts, spec.method().name(), path, body)
                    + "\r\nACCESS-TIMESTAMP: " + ts + "\r\nACCESS-PASSPHRASE: " + creds.passphrase()
                    + (body.isEmpty() ? "" : "\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length)
                    + "\r\n\r\n" + body;
            sb.append('"').append(lua(raw)).append("\",\n");
        }
        sb.append("}\n");
        // Exponential think times (mean connections/rate): arrivals like independent clients. A constant delay would
        // keep the 64 connections in step, firing together in bursts of 64 every period.
        if (thinkMs > 0) sb.append(String.format(Locale.ROOT, "function delay() return -%.3f * math.log(1 - math.random()) end%n", thinkMs));
        return sb.append("""
                local n = 0
                function setup(thread) thread:set("offset", n * 7919); n = n + 1 end
                local i = 0
                function init(args) i = offset or 0; math.randomseed(os.time() + i) end
                function request() i = i % #reqs + 1; return reqs[i] end
                function done(summary, latency, requests)
                  local e = summary.errors
                  io.write(string.format("tas.requests=%d\\ntas.duration_us=%d\\n", summary.requests, summary.duration))
                  io.write(string.format("tas.errors=%d\\n", e.connect + e.read + e.write + e.status + e.timeout))
                  io.write(string.format("tas.connect=%d\\ntas.read=%d\\ntas.write=%d\\ntas.status=%d\\ntas.timeout=%d\\n",
                    e.connect, e.read, e.write, e.status, e.timeout))
                  for _, p in ipairs({{"p50", 50}, {"p90", 90}, {"p99", 99}, {"p999", 99.9}}) do
                    io.write(string.format("tas.%s_us=%d\\n", p[1], latency:percentile(p[2])))
                  end
                  io.write(string.format("tas.max_us=%d\\ntas.mean_us=%.1f\\n", latency.max, latency.mean))
                end
                """).toString();
    }

    private static String lua(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", "\\r").replace("\n", "\\n");
    }

    /** The sample with the load generator's CPU = this JVM's reaped children (wrk), from /proc/self/stat. */
    private static CpuSample withChildren(CpuSample s) {
        long children = -1;
        try {
            String st = Files.readString(Path.of("/proc/self/stat"));
            String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
            children = Long.parseLong(f[13]) + Long.parseLong(f[14]); // cutime, cstime (fields 16, 17)
        } catch (IOException | RuntimeException e) {
            // leave -1: the loadgen column then reads as the negative of nothing useful; reported as-is
        }
        long nanos = Duration.ofMillis(children * 1000 / CpuSample.CLK_TCK).toNanos();
        return new CpuSample(s.wallNanos(), nanos, s.serverTicks(), s.auxTicks(), s.sysIdle(), s.sysTotal(), s.sysIrq());
    }

    private static void print(String label, Map<String, String> r, String aux) {
        System.out.printf(Locale.ROOT,
                "[%s] rps=%s p50=%sms p90=%sms p99=%sms p99.9=%sms max=%sms errors=%s window=%ss "
                        + "cpu(server=%s wrk=%s %s=%s irq=%s other=%s machine-busy=%s%%)%n",
                label, r.get("rps"), r.get("p50_ms"), r.get("p90_ms"), r.get("p99_ms"), r.get("p999_ms"), r.get("max_ms"),
                r.get("errors"), r.get("window_s"), r.get("server_cpu_cores"), r.get("loadgen_cpu_cores"),
                aux == null ? "aux" : aux, r.get("aux_cpu_cores"), r.get("irq_cpu_cores"), r.get("other_cpu_cores"),
                r.get("machine_busy_pct"));
        System.out.printf(Locale.ROOT, "RESULT %s rps=%s p50=%s p99=%s ok=%s errors=%s seconds=%s%n", label.replace(' ', '_'),
                r.get("rps"), r.get("p50_ms"), r.get("p99_ms"), r.get("ok"), r.get("errors"), r.get("window_s"));
    }

    private static String fmt(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
