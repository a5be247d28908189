import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue-3 benchmark: POST small-assets-trade and GET max-withdrawal against the service on PostgreSQL.
 * Single-file program (java MoneyBench.java ...); bench/run-money drives it, and runs the JDBC baseline (the bench
 * tool's jdbc-loop) on the same database in the same run. Every loop is bounded in count and time; traffic goes to
 * loopback only.
 *
 *   seed   OUT ACCOUNTS COINS          write the seed: ACCOUNTS accounts with one key each, COINS dust coins each
 *   http   PORT ACCOUNTS COINS WARMUP SECONDS   run the two HTTP loads, one connection per account
 */
public class MoneyBench {
    static String key(int a) { return String.format("bg_bench%024d", a); }
    static String secret(int a) { return "bench-secret-" + a; }
    static final String PASS = "BenchPass1";
    static final long UID0 = 2_000_000_000L;
    static final long UID1 = 2_100_000_000L;
    static final int LIGHT = 100_000;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "seed" -> seed(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "http" -> http(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]), Integer.parseInt(args[5]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    // ------------------------------------------------------------------ seed
    static void seed(Path out, int accounts, int coins) throws Exception {
        StringBuilder y = new StringBuilder("tickers:\n  - { category: SPOT, symbol: BGBUSDT, lastPrice: \"6.5\" }\n");
        for (int c = 0; c < coins; c++) y.append("  - { category: SPOT, symbol: D").append(c).append("USDT, lastPrice: \"1\" }\n");
        y.append("accounts:\n");
        // Light accounts for max-withdrawal: a realistic handful of coins each (UID1 + a).
        for (int a = 0; a < accounts; a++) {
            y.append("  - uid: ").append(UID1 + a).append("\n    username: bench-light-").append(a).append('\n');
            y.append("    apiKeys: [ { accessKey: ").append(key(LIGHT + a)).append(", secret: ").append(secret(LIGHT + a))
                    .append(", passphrase: ").append(PASS).append(", permissions: [uta_mgt, uta_trade] } ]\n");
            y.append("    balances:\n      - { account: unified, coin: USDT, available: \"10000\", debt: \"100\" }\n");
            for (int c = 0; c < 6; c++) y.append("      - { account: unified, coin: D").append(c).append(", available: \"1\" }\n");
            y.append("      - { account: spot, coin: USDT, available: \"50\" }\n");
        }
        for (int a = 0; a < accounts; a++) {
            y.append("  - uid: ").append(UID0 + a).append("\n    username: bench-").append(a).append('\n');
            y.append("    apiKeys: [ { accessKey: ").append(key(a)).append(", secret: ").append(secret(a))
                    .append(", passphrase: ").append(PASS).append(", permissions: [uta_mgt, uta_trade] } ]\n");
            y.append("    balances:\n      - { account: unified, coin: USDT, available: \"10000\" }\n");
            for (int c = 0; c < coins; c++) y.append("      - { account: unified, coin: D").append(c).append(", available: \"1\" }\n");
        }
        Files.writeString(out, y);
    }

    // ------------------------------------------------------------------ HTTP loads
    record Result(String name, long ok, long errors, double seconds, long[] latenciesNanos) {
        double rps() { return ok / seconds; }
        double pct(double p) {
            if (latenciesNanos.length == 0) return 0;
            return latenciesNanos[Math.min(latenciesNanos.length - 1, (int) Math.ceil(p * latenciesNanos.length) - 1)] / 1e6;
        }
    }

    /** One request as raw HTTP/1.1 bytes (keep-alive). */
    interface Call { byte[] build(int account, int n); }

    /** A minimal blocking HTTP/1.1 client on one keep-alive socket: cheap, so the server gets the CPU. */
    static final class Conn implements AutoCloseable {
        private final java.net.Socket socket;
        private final java.io.InputStream in;
        private final java.io.OutputStream out;
        private final byte[] buf = new byte[65536];

        Conn(int port) throws java.io.IOException {
            socket = new java.net.Socket("127.0.0.1", port);
            socket.setTcpNoDelay(true);
            in = new java.io.BufferedInputStream(socket.getInputStream(), 65536);
            out = socket.getOutputStream();
        }

        /** Sends the request; returns "status body". */
        String exchange(byte[] request) throws java.io.IOException {
            out.write(request);
            out.flush();
            String status = line();
            int length = 0;
            for (String h = line(); !h.isEmpty(); h = line()) {
                if (h.regionMatches(true, 0, "content-length:", 0, 15)) length = Integer.parseInt(h.substring(15).trim());
            }
            int read = 0;
            while (read < length) {
                int n = in.read(buf, read, length - read);
                if (n < 0) throw new java.io.EOFException();
                read += n;
            }
            return status.substring(9, 12) + " " + new String(buf, 0, read, StandardCharsets.UTF_8);
        }

        private String line() throws java.io.IOException {
            StringBuilder sb = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) throw new java.io.EOFException();
                if (c != '\r') sb.append((char) c);
            }
            return sb.toString();
        }

        @Override public void close() throws java.io.IOException { socket.close(); }
    }

    static void http(int port, int accounts, int coins, int warmup, int seconds) throws Exception {
        Call maxWithdrawal = (a, n) -> signed(port, LIGHT + a, "GET", "/api/v3/account/max-withdrawal", "coin=USDT", "");
        Call trade = (a, n) -> signed(port, a, "POST", "/api/v3/convert/small-assets-trade", "", "{\"fromCoinList\":[\"D" + n + "\"]}");
        // max-withdrawal first: trades do not change what it reads much, and it needs no preparation.
        print(run("max-withdrawal", port, accounts, Integer.MAX_VALUE, warmup, seconds, maxWithdrawal));
        // Each trade converts the next dust coin of its account; an account stops when its coins run out.
        print(run("small-assets-trade", port, accounts, coins, warmup, seconds, trade));
    }

    static Result run(String name, int port, int connections, int perConnectionCap, int warmup, int seconds, Call call) throws Exception {
        long warmEnd = System.nanoTime() + warmup * 1_000_000_000L;
        long end = warmEnd + seconds * 1_000_000_000L;
        AtomicLong ok = new AtomicLong(), errors = new AtomicLong();
        List<long[]> lat = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(connections);
        for (int a = 0; a < connections; a++) {
            int account = a;
            long[] mine = new long[2_000_000];
            lat.add(mine);
            threads.add(Thread.ofPlatform().start(() -> {
                int n = 0, recorded = 0;
                try (Conn conn = new Conn(port)) {
                    while (n < perConnectionCap && System.nanoTime() < end) {
                        long t0 = System.nanoTime();
                        String r = conn.exchange(call.build(account, n++));
                        long t1 = System.nanoTime();
                        if (t0 < warmEnd) continue;
                        if (r.startsWith("200 ") && r.contains("\"00000\"")) {
                            ok.incrementAndGet();
                            if (recorded < mine.length) mine[recorded++] = t1 - t0;
                        } else {
                            errors.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    errors.incrementAndGet();
                } finally {
                    if (recorded < mine.length) mine[recorded] = -1;
                    done.countDown();
                }
            }));
        }
        done.await();
        long measuredEnd = Math.min(System.nanoTime(), end);
        double secs = Math.max(0.001, (measuredEnd - warmEnd) / 1e9);
        long[] all = lat.stream().flatMapToLong(x -> Arrays.stream(x).takeWhile(v -> v > 0)).sorted().toArray();
        return new Result(name, ok.get(), errors.get(), secs, all);
    }

    static final ThreadLocal<java.util.Map<Integer, Mac>> MACS = ThreadLocal.withInitial(java.util.HashMap::new);

    static byte[] signed(int port, int account, String method, String path, String query, String body) {
        String ts = Long.toString(System.currentTimeMillis());
        String target = path + (query.isEmpty() ? "" : "?" + query);
        String pre = ts + method + target + body;
        Mac mac = MACS.get().computeIfAbsent(account, a -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(new SecretKeySpec(secret(a).getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                return m;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        String sign = Base64.getEncoder().encodeToString(mac.doFinal(pre.getBytes(StandardCharsets.UTF_8)));
        byte[] payload = body.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nACCESS-KEY: " + key(account) + "\r\nACCESS-SIGN: " + sign + "\r\nACCESS-TIMESTAMP: " + ts
                + "\r\nACCESS-PASSPHRASE: " + PASS + "\r\nContent-Type: application/json\r\nContent-Length: " + payload.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(h, h.length + payload.length);
        System.arraycopy(payload, 0, all, h.length, payload.length);
        return all;
    }

    static void print(Result r) {
        System.out.printf("RESULT %s rps=%.1f p50=%.3f p99=%.3f ok=%d errors=%d seconds=%.2f%n",
                r.name().replace(' ', '_'), r.rps(), r.pct(0.50), r.pct(0.99), r.ok(), r.errors(), r.seconds());
    }
}
