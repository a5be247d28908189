package io.tas.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * `ingest-fills`: feeds --count generated spot fills (§2.17) of one account into the server's admin batch endpoint
 * (POST --path, default /admin/v1/records/fills), --batch records per call, --concurrency calls in flight at once
 * (one thread each, closed loop), and reports the wall time from the first call sent to the last answer.
 *
 * <p>Fill i (0-based, oldest first): cTime = uTime = start + i * span / count, where the span ends --margin-minutes
 * before now and starts --days days before now (so every fill stays inside the 90-day window while the paging runs);
 * priceAvg has 2 decimals and size 4, and amount is their exact product (6 decimals, computed in integers);
 * tradeId is left to the server (time-ordered IDs) unless --trade-ids is given. Batches are built as the calls go
 * (streamed: no more than --concurrency batches exist at once).
 */
final class FillFeed {
    private static final String[] SYMBOLS = {"BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT"};

    private FillFeed() {
    }

    static int run(Args a) throws Exception {
        String host = a.str("host", "127.0.0.1");
        int adminPort = Integer.parseInt(a.required("admin-port"));
        String path = a.str("path", "/admin/v1/records/fills");
        String token = a.str("admin-token", "tas-demo-admin-token"); // the demo token, accepted with serve --sandbox
        long uid = a.lng("uid", 1000000005L);
        int count = a.integer("count", 1_000_000);
        int batch = a.integer("batch", 5000);
        int concurrency = a.integer("concurrency", 4);
        double days = a.dbl("days", 89);
        double marginMinutes = a.dbl("margin-minutes", 10);
        boolean tradeIds = Boolean.parseBoolean(a.str("trade-ids", "false"));
        String envelope = a.str("envelope", "{\"uid\":{uid},\"records\":{records}}");
        List<String> expect = a.all("expect", List.of("00000"));
        int timeoutSeconds = a.integer("request-timeout-seconds", 120);
        double maxSeconds = a.dbl("max-seconds", 300);
        String resultFile = a.str("result-file", null);
        String label = a.str("label", "ingest-fills");
        long serverPid = a.lng("server-pid", -1);
        String auxName = a.str("aux-cpu-process", null);
        a.done();
        if (count < 1 || count > 20_000_000) throw new IllegalArgumentException("--count must be 1..20000000");
        if (batch < 1 || batch > 100_000) throw new IllegalArgumentException("--batch must be 1..100000");
        if (concurrency < 1 || concurrency > 64) throw new IllegalArgumentException("--concurrency must be 1..64");
        if (!envelope.contains("{records}")) throw new IllegalArgumentException("--envelope needs {records}");

        long now = System.currentTimeMillis();
        long end = now - (long) (marginMinutes * 60_000);
        long start = now - (long) (days * 86_400_000L);
        if (start >= end) throw new IllegalArgumentException("--days must reach further back than --margin-minutes");
        Gen gen = new Gen(uid, count, start, end, tradeIds);

        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create("http://" + host + ":" + adminPort + path);
        int batches = (count + batch - 1) / batch;
        AtomicLong nextBatch = new AtomicLong();
        AtomicLong stored = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        long deadline = System.nanoTime() + (long) (maxSeconds * 1e9);
        List<Histogram> hists = new ArrayList<>();
        System.out.printf(Locale.ROOT, "[%s] POST %s: %d fills of uid %d, %d per call, %d calls in flight, cTime %d..%d%n",
                label, uri, count, uid, batch, concurrency, start, end);
        CpuSample cpuBefore = CpuSample.take(serverPid, auxName);
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        List<Future<String>> workers = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            Histogram h = Measurement.histogram();
            hists.add(h);
            workers.add(pool.submit(() -> {
                StringBuilder sb = new StringBuilder(batch * 400);
                for (long b; (b = nextBatch.getAndIncrement()) < batches; ) {
                    if (System.nanoTime() > deadline) return "stopped: --max-seconds " + maxSeconds + " reached";
                    int from = (int) (b * batch);
                    int to = Math.min(count, from + batch);
                    sb.setLength(0);
                    sb.append('[');
                    for (int i = from; i < to; i++) {
                        if (i > from) sb.append(',');
                        gen.fill(sb, i);
                    }
                    sb.append(']');
                    String body = envelope.replace("{uid}", Long.toString(uid)).replace("{records}", sb);
                    byte[] raw = body.getBytes(StandardCharsets.UTF_8);
                    long s = System.nanoTime();
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(timeoutSeconds))
                            .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(raw)).build(), HttpResponse.BodyHandlers.ofString());
                    Measurement.record(h, s, System.nanoTime());
                    if (r.statusCode() != 200 || !expect.stream().allMatch(r.body()::contains)) {
                        String text = r.body();
                        return "batch " + b + " (fills " + from + ".." + (to - 1) + ") -> HTTP " + r.statusCode() + " "
                                + (text.length() > 600 ? text.substring(0, 600) + "..." : text);
                    }
                    stored.addAndGet(to - from);
                    bytes.addAndGet(raw.length);
                }
                return null;
            }));
        }
        pool.shutdown();
        List<String> failures = new ArrayList<>();
        for (Future<String> f : workers) {
            try {
                String err = f.get(Math.max(1, (long) maxSeconds + timeoutSeconds + 10), TimeUnit.SECONDS);
                if (err != null) failures.add(err);
            } catch (Exception e) {
                failures.add(String.valueOf(e));
            }
        }
        pool.shutdownNow();
        double seconds = (System.nanoTime() - t0) / 1e9;
        CpuSample cpuAfter = CpuSample.take(serverPid, auxName);
        Histogram all = Measurement.histogram();
        hists.forEach(all::add);

        Map<String, String> r = new LinkedHashMap<>();
        r.put("label", label);
        r.put("records", Long.toString(stored.get()));
        r.put("wanted", Integer.toString(count));
        r.put("seconds", String.format(Locale.ROOT, "%.2f", seconds));
        r.put("records_per_s", String.format(Locale.ROOT, "%.0f", stored.get() / seconds));
        r.put("batch", Integer.toString(batch));
        r.put("concurrency", Integer.toString(concurrency));
        r.put("calls", Long.toString(all.getTotalCount()));
        r.put("mb_sent", String.format(Locale.ROOT, "%.1f", bytes.get() / 1e6));
        r.put("call_p50_ms", ms(all.getValueAtPercentile(50)));
        r.put("call_p99_ms", ms(all.getValueAtPercentile(99)));
        r.put("call_max_ms", ms(all.getMaxValue()));
        r.put("errors", Integer.toString(failures.size()));
        Measurement.cpu(r, cpuBefore, cpuAfter);
        StringBuilder out = new StringBuilder();
        r.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        System.out.printf(Locale.ROOT, "[%s] %d of %d fills in %.2f s = %s fills/s (%d calls, %s MB; per call p50 %s ms, p99 %s ms, max %s ms)%n",
                label, stored.get(), count, seconds, r.get("records_per_s"), all.getTotalCount(), r.get("mb_sent"),
                r.get("call_p50_ms"), r.get("call_p99_ms"), r.get("call_max_ms"));
        System.out.printf(Locale.ROOT, "[%s] cpu cores during the ingest: server=%s postgres=%s feeder=%s other=%s irq=%s%n", label,
                r.get("server_cpu_cores"), r.get("aux_cpu_cores"), r.get("loadgen_cpu_cores"), r.get("other_cpu_cores"),
                r.get("irq_cpu_cores"));
        failures.forEach(f -> System.out.println("[" + label + "] ERROR " + f));
        if (resultFile != null) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(resultFile), out);
        }
        return failures.isEmpty() && stored.get() == count ? 0 : 2;
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

    /**
     * Deterministic fill i of the feed, as §2.17 JSON: decimals as strings, feeDetail an object; orderId (two fills per
     * order), tradeId (only with --trade-ids) and the times as JSON numbers (the feed's input accepts both).
     */
    private record Gen(long uid, int count, long start, long end, boolean tradeIds) {
        void fill(StringBuilder sb, int i) {
            long t = start + (long) ((end - start) * (double) i / count);
            long h = mix(i);
            long priceCents = 100 + Math.floorMod(h, 9_000_000L);      // 1.00 .. 90000.99
            long sizeUnits = 1 + Math.floorMod(h >>> 24, 99_999L);     // 0.0001 .. 9.9999
            long amountMicro = priceCents * sizeUnits;                 // exact: 2 + 4 = 6 decimals
            boolean taker = (h & 1) == 0;
            long feeMicro = amountMicro / 1000;                        // 0.1 %, in the quote coin
            sb.append("{\"symbol\":\"").append(SYMBOLS[(int) ((h >>> 8) & 3)])
                    .append("\",\"orderId\":").append(2_000_000_000_000L + i / 2);
            if (tradeIds) sb.append(",\"tradeId\":").append(3_000_000_000_000L + i);
            sb.append(",\"orderType\":\"").append((h & 2) == 0 ? "limit" : "market")
                    .append("\",\"side\":\"").append((h & 4) == 0 ? "buy" : "sell")
                    .append("\",\"priceAvg\":\"");
            decimal(sb, priceCents, 2);
            sb.append("\",\"size\":\"");
            decimal(sb, sizeUnits, 4);
            sb.append("\",\"amount\":\"");
            decimal(sb, amountMicro, 6);
            sb.append("\",\"tradeScope\":\"").append(taker ? "taker" : "maker")
                    .append("\",\"feeDetail\":{\"deduction\":\"no\",\"feeCoin\":\"USDT\",\"totalDeductionFee\":\"0\",\"totalFee\":\"");
            decimal(sb, feeMicro, 6);
            sb.append("\"},\"cTime\":").append(t).append(",\"uTime\":").append(t).append('}');
        }

        private static long mix(long x) {
            x += 0x9E3779B97F4A7C15L;
            x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
            x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
            return (x ^ (x >>> 31)) & Long.MAX_VALUE;
        }

        /** unscaled / 10^scale, plain (e.g. 123456, 4 -> "12.3456"). */
        private static void decimal(StringBuilder sb, long unscaled, int scale) {
            String digits = Long.toString(unscaled);
            if (digits.length() <= scale) {
                sb.append("0.");
                for (int k = digits.length(); k < scale; k++) sb.append('0');
                sb.append(digits);
            } else {
                sb.append(digits, 0, digits.length() - scale).append('.').append(digits, digits.length() - scale, digits.length());
            }
        }
    }
}
