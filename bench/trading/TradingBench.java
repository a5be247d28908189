import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 25's trading benchmarks, the parts the bench tool's `load` does not do. Single-file program (java
 * TradingBench.java ...); bench/run-trading drives it. Every loop is bounded in count and time; loopback only.
 *
 *   seed   OUT_DIR TAKERS SWEEPERS RSS_ACCOUNTS
 *          seed.yaml (instruments BTCUSDT, SWPUSDT, RSS0USDT.., their tickers, funded unified accounts with one key each)
 *          and takers.cred (the taker accounts' credentials for `bench.jar load --credentials-file`)
 *   sweep  PORT ADMIN_PORT SWEEPERS PER_ACCOUNT CONCURRENCY JDBC_URL|- LABEL [WARMUPS]
 *          WARMUPS untimed sweeps first (PER_ACCOUNT / 5 buys each, filled, the ticker moved back); then
 *          each sweeper rests PER_ACCOUNT limit buys on SWPUSDT below the ask; one POST /admin/v1/tickers moves the
 *          ask below all of them; measured: the ticker call, and (JDBC_URL) when a poll of the working orders first
 *          reads 0; then checks every order filled, every freeze released and the ledger check
 *   rss    PORT SERVER_PID RSS_ACCOUNTS TOTAL MAX_SECONDS EVERY
 *          RSS_ACCOUNTS connections place a limit buy on RSS<i>USDT (one symbol each) and cancel it, TOTAL orders in all (or MAX_SECONDS);
 *          the server's VmRSS at the start, every EVERY orders and at the end
 */
public class TradingBench {
    static final String PASS = "BenchPass1";
    static final long TAKER_UID0 = 3_000_000_000L;
    static final long SWEEP_UID0 = 3_100_000_000L;
    static final long RSS_UID0 = 3_200_000_000L;
    static final String ADMIN_TOKEN = "tas-demo-admin-token"; // the demo token, accepted with serve --sandbox
    static final String SWEEP_SYMBOL = "SWPUSDT";

    static String key(long uid) { return "bg_trade" + String.format("%024d", uid); }
    static String secret(long uid) { return "trade-secret-" + uid; }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "seed" -> seed(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    args.length > 5 && args[5].equals("classic"));
            case "sweep" -> sweep(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), args[6], args[7], args.length > 8 ? Integer.parseInt(args[8]) : 0);
            case "rss" -> rss(Integer.parseInt(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), Integer.parseInt(args[6]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    // ------------------------------------------------------------------ seed
    /** classicTakers: the taker accounts are classic, their coins spot balances (the v2 spot rows' family, issue 26). */
    static void seed(Path dir, int takers, int sweepers, int rssAccounts, boolean classicTakers) throws Exception {
        StringBuilder y = new StringBuilder("instruments:\n");
        List<String> bases = new ArrayList<>(List.of("BTC", "SWP"));
        for (int a = 0; a < rssAccounts; a++) bases.add("RSS" + a);
        for (String s : bases) {
            y.append("  - { category: SPOT, symbol: ").append(s).append("USDT, baseCoin: ").append(s).append(", quoteCoin: USDT }\n");
        }
        // BTCUSDT: level 1 at 100000.1 / 100000.0, 5 per level (the synthetic book, D155); SWPUSDT and RSS<i>USDT 100.01 / 99.99.
        y.append("tickers:\n");
        y.append("  - { category: SPOT, symbol: BTCUSDT, lastPrice: \"100000\", ask1Price: \"100000.1\", bid1Price: \"100000\", ask1Size: \"5\", bid1Size: \"5\" }\n");
        for (String b : bases.subList(1, bases.size())) {
            y.append("  - { category: SPOT, symbol: ").append(b).append("USDT")
                    .append(", lastPrice: \"99.99\", ask1Price: \"100.01\", bid1Price: \"99.99\", ask1Size: \"5\", bid1Size: \"5\" }\n");
        }
        y.append("accounts:\n");
        StringBuilder cred = new StringBuilder("# accessKey secret passphrase uid (TradingBench seed, " + takers + " taker accounts)\n");
        for (int a = 0; a < takers; a++) {
            long uid = TAKER_UID0 + a;
            account(y, uid, "taker-" + a, "USDT", "10000000", "BTC", "1000", classicTakers);
            cred.append(key(uid)).append(' ').append(secret(uid)).append(' ').append(PASS).append(' ').append(uid).append('\n');
        }
        for (int a = 0; a < sweepers; a++) account(y, SWEEP_UID0 + a, "sweep-" + a, "USDT", "1000000", null, null, false);
        for (int a = 0; a < rssAccounts; a++) account(y, RSS_UID0 + a, "rss-" + a, "USDT", "1000000", null, null, false);
        Files.writeString(dir.resolve("seed.yaml"), y);
        Files.writeString(dir.resolve("takers.cred"), cred);
    }

    static void account(StringBuilder y, long uid, String name, String coin1, String amount1, String coin2, String amount2, boolean classic) {
        y.append("  - uid: ").append(uid).append("\n    username: bench-").append(name).append('\n');
        if (classic) y.append("    accountMode: CLASSIC\n");
        String wallet = classic ? "spot" : "unified";
        y.append("    apiKeys: [ { accessKey: ").append(key(uid)).append(", secret: ").append(secret(uid))
                .append(", passphrase: ").append(PASS).append(", permissions: [uta_mgt, uta_trade] } ]\n");
        y.append("    balances:\n      - { account: ").append(wallet).append(", coin: ").append(coin1).append(", available: \"").append(amount1).append("\" }\n");
        if (coin2 != null) y.append("      - { account: ").append(wallet).append(", coin: ").append(coin2).append(", available: \"").append(amount2).append("\" }\n");
    }

    // ------------------------------------------------------------------ sweep
    static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*\"(\\d+)\"");
    static final Pattern FROZEN = Pattern.compile("\"frozen\"\\s*:\\s*\"([^\"]+)\"");

    static void sweep(int port, int adminPort, int sweepers, int perAccount, int concurrency, String jdbcUrl, String label, int warmups) throws Exception {
        // 0. Warm-up sweeps (untimed for the target): a fifth as many orders each, filled by a ticker move, then the ticker
        //    back. The first sweep after the start runs the fill path cold (interpreted, then compiled while it runs).
        double coldMs = -1;
        for (int w = 1; w <= warmups; w++) {
            long[] warm = placeResting(port, sweepers, Math.max(1, perAccount / 5), concurrency);
            long sent = System.nanoTime();
            String answer = moveTicker(adminPort, DOWN);
            double ms = (System.nanoTime() - sent) / 1e6;
            if (w == 1) coldMs = ms;
            System.out.printf(Locale.ROOT, "[%s] warm-up sweep %d: %d resting buys, ticker call %s in %.1f ms%n", label, w, warm[0],
                    answer.substring(0, Math.min(40, answer.length())), ms);
            moveTicker(adminPort, UP);
        }
        long[] resting = placeResting(port, sweepers, perAccount, concurrency);
        double placeSeconds = resting[2] / 1e9;
        System.out.printf(Locale.ROOT, "[%s] placed %d resting limit buys on %s from %d accounts in %.2f s (%.0f orders/s, %d connections); refused %d%s%n",
                label, resting[0], SWEEP_SYMBOL, sweepers, placeSeconds, resting[0] / placeSeconds, concurrency, resting[1],
                firstRefusal.get() == null ? "" : ": " + firstRefusal.get());
        // 2. Every one of them is working.
        long working = working(port, sweepers);
        System.out.printf(Locale.ROOT, "[%s] working before the ticker: %d%n", label, working);

        // 3. The ticker move: ask 90.01 / bid 89.99, below every resting buy (99.00 .. 99.99).
        AtomicLong zeroAt = new AtomicLong(-1), polls = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong tickerSent = new AtomicLong();
        Thread poller = null;
        if (!jdbcUrl.equals("-")) {
            Connection db = DriverManager.getConnection(jdbcUrl, "postgres", "");
            poller = Thread.ofPlatform().start(() -> {
                try (db; Statement s = db.createStatement()) {
                    long end = System.nanoTime() + 300_000_000_000L;
                    while (!stop.get() && System.nanoTime() < end) {
                        // The book's own filter (OrderStore.RESTING): PostgreSQL counts from the resting-order index (D177), so
                        // the poll costs the sweep no scan every 5 ms (exists: it stops at the first resting order).
                        try (ResultSet rs = s.executeQuery("select exists (select 1 from trade_order where category = 'SPOT' and symbol = '"
                                + SWEEP_SYMBOL + "' and status in ('live', 'partially_filled') and order_type = 'limit')")) {
                            rs.next();
                            polls.incrementAndGet();
                            if (tickerSent.get() > 0 && !rs.getBoolean(1)) { zeroAt.set(System.nanoTime()); return; }
                        }
                        Thread.sleep(5);
                    }
                } catch (Exception e) {
                    System.out.println("[" + label + "] poll failed: " + e);
                }
            });
        }
        long sent;
        String answer;
        try (Conn c = new Conn(adminPort)) {
            byte[] req = admin("POST", "/admin/v1/tickers", DOWN, adminPort);
            sent = System.nanoTime();
            tickerSent.set(sent);
            answer = c.exchange(req);
        }
        long returned = System.nanoTime();
        if (poller != null) {
            poller.join(310_000);
            stop.set(true);
        }
        double callMs = (returned - sent) / 1e6;
        double zeroMs = zeroAt.get() > 0 ? (zeroAt.get() - sent) / 1e6 : -1;
        System.out.printf(Locale.ROOT, "[%s] ticker call: %s in %.1f ms%s%n", label, answer.substring(0, Math.min(80, answer.length())), callMs,
                zeroMs < 0 ? "" : String.format(Locale.ROOT, "; SQL poll (every 5 ms, %d polls) first read 0 working orders at %.1f ms", polls.get(), zeroMs));

        // 4. Checks: nothing working, nothing frozen, the ledger balanced.
        long left = working(port, sweepers);
        double frozen = 0;
        try (Conn c = new Conn(adminPort)) {
            for (int a = 0; a < sweepers; a++) {
                String r = c.exchange(admin("GET", "/admin/v1/accounts/" + (SWEEP_UID0 + a) + "/balances", "", adminPort));
                Matcher m = FROZEN.matcher(r);
                while (m.find()) frozen += Math.abs(Double.parseDouble(m.group(1)));
            }
            String check = c.exchange(admin("GET", "/admin/v1/ledger/check", "", adminPort));
            boolean ok = check.contains("\"ok\":true");
            System.out.printf(Locale.ROOT, "[%s] after: working %d, frozen over the %d accounts %s, ledger check %s%n", label, left, sweepers,
                    frozen == 0 ? "0" : Double.toString(frozen), ok ? "ok" : "FAILED " + check);
            System.out.printf(Locale.ROOT, "RESULT %s orders=%d placed_s=%.2f place_rps=%.0f ticker_ms=%.1f poll_zero_ms=%.1f working_after=%d frozen_after=%s ledger_ok=%s warmups=%d cold_ms=%.1f%n",
                    label, resting[0], placeSeconds, resting[0] / placeSeconds, callMs, zeroMs, left, frozen == 0 ? "0" : Double.toString(frozen), ok,
                    warmups, coldMs);
        }
    }

    /** The sweep's ticker move: ask 90.01 / bid 89.99, below every resting buy (99.00 .. 99.99). */
    static final String DOWN = "{\"category\":\"SPOT\",\"symbol\":\"" + SWEEP_SYMBOL + "\",\"lastPrice\":\"89.99\",\"ask1Price\":\"90.01\","
            + "\"bid1Price\":\"89.99\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}";
    /** The seed's ticker, ask 100.01 / bid 99.99, back after a warm-up sweep. */
    static final String UP = "{\"category\":\"SPOT\",\"symbol\":\"" + SWEEP_SYMBOL + "\",\"lastPrice\":\"99.99\",\"ask1Price\":\"100.01\","
            + "\"bid1Price\":\"99.99\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}";
    /** The first refused placement of the run, printed with the placement line. */
    static final AtomicReference<String> firstRefusal = new AtomicReference<>();

    static String moveTicker(int adminPort, String ticker) throws IOException {
        try (Conn c = new Conn(adminPort)) {
            return c.exchange(admin("POST", "/admin/v1/tickers", ticker, adminPort));
        }
    }

    /**
     * Resting limit buys, 99.00 .. 99.99 (below the ask 100.01, above the bid 99.99 for some: a buy at 99.99 or below
     * rests either way, the synthetic book offers no asks below 100.01), qty 1: {placed, refused, nanoseconds}.
     */
    static long[] placeResting(int port, int sweepers, int perAccount, int concurrency) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + 600_000_000_000L;
        AtomicLong placed = new AtomicLong(), refused = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < concurrency; t++) {
            int me = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try (Conn c = new Conn(port)) {
                    for (int a = me; a < sweepers; a += concurrency) {
                        long uid = SWEEP_UID0 + a;
                        for (int i = 0; i < perAccount && System.nanoTime() < deadline; i++) {
                            String price = String.format(Locale.ROOT, "%.2f", 99.00 + ((a * perAccount + i) % 100) / 100.0);
                            String r = c.exchange(signed(port, uid, "POST", "/api/v3/trade/place-order", "",
                                    "{\"category\":\"SPOT\",\"symbol\":\"" + SWEEP_SYMBOL + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\""
                                            + price + "\",\"timeInForce\":\"gtc\"}"));
                            if (r.startsWith("200 ") && r.contains("\"00000\"")) placed.incrementAndGet();
                            else { refused.incrementAndGet(); firstRefusal.compareAndSet(null, r); }
                        }
                    }
                } catch (IOException e) {
                    refused.incrementAndGet();
                    firstRefusal.compareAndSet(null, e.toString());
                }
            }));
        }
        for (Thread t : threads) t.join();
        return new long[]{placed.get(), refused.get(), System.nanoTime() - t0};
    }

    /** Working orders of the sweep accounts, through the API: the unfilled-orders pages of each account. */
    static long working(int port, int sweepers) throws IOException {
        long n = 0;
        try (Conn c = new Conn(port)) {
            for (int a = 0; a < sweepers; a++) {
                long uid = SWEEP_UID0 + a;
                String cursor = "";
                for (int page = 0; page < 50; page++) {
                    String q = "category=SPOT&symbol=" + SWEEP_SYMBOL + "&limit=100" + (cursor.isEmpty() ? "" : "&cursor=" + cursor);
                    String r = c.exchange(signed(port, uid, "GET", "/api/v3/trade/unfilled-orders", q, ""));
                    Matcher m = ORDER_ID.matcher(r);
                    while (m.find()) n++;
                    Matcher cur = Pattern.compile("\"cursor\"\\s*:\\s*\"(\\d*)\"").matcher(r);
                    cursor = cur.find() ? cur.group(1) : "";
                    if (cursor.isEmpty()) break;
                }
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ rss
    static void rss(int port, long pid, int accounts, int total, int maxSeconds, int every) throws Exception {
        long end = System.nanoTime() + maxSeconds * 1_000_000_000L;
        AtomicLong issued = new AtomicLong(), done = new AtomicLong(), errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long t0 = System.nanoTime();
        System.out.printf(Locale.ROOT, "RSS orders=0 rss_mb=%d seconds=0.0%n", rssKb(pid) / 1024);
        List<Thread> threads = new ArrayList<>();
        for (int a = 0; a < accounts; a++) {
            long uid = RSS_UID0 + a;
            String symbol = "RSS" + a + "USDT"; // one symbol per connection: the loop is not held up by one book lock
            threads.add(Thread.ofPlatform().start(() -> {
                try (Conn c = new Conn(port)) {
                    while (System.nanoTime() < end && issued.incrementAndGet() <= total) {
                        String r = c.exchange(signed(port, uid, "POST", "/api/v3/trade/place-order", "",
                                "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.1\",\"price\":\"50\"}"));
                        Matcher m = ORDER_ID.matcher(r);
                        if (!r.startsWith("200 ") || !m.find()) { errors.incrementAndGet(); firstError.compareAndSet(null, r); continue; }
                        String x = c.exchange(signed(port, uid, "POST", "/api/v3/trade/cancel-order", "",
                                "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + m.group(1) + "\"}"));
                        if (!x.startsWith("200 ") || !x.contains("\"00000\"")) { errors.incrementAndGet(); firstError.compareAndSet(null, x); }
                        done.incrementAndGet();
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, e.toString());
                }
            }));
        }
        long next = every, maxKb = 0;
        while (threads.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(20);
            long kb = rssKb(pid);
            maxKb = Math.max(maxKb, kb);
            if (done.get() >= next) {
                System.out.printf(Locale.ROOT, "RSS orders=%d rss_mb=%d seconds=%.1f%n", next, kb / 1024, (System.nanoTime() - t0) / 1e9);
                next += every;
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        long kb = rssKb(pid);
        maxKb = Math.max(maxKb, kb);
        System.out.printf(Locale.ROOT, "RSS orders=%d rss_mb=%d seconds=%.1f (end)%n", done.get(), kb / 1024, secs);
        System.out.printf(Locale.ROOT, "RESULT rss orders=%d seconds=%.1f place_cancel_per_s=%.0f rss_end_mb=%d rss_max_mb=%d errors=%d%s%n",
                done.get(), secs, done.get() / secs, kb / 1024, maxKb / 1024, errors.get(), firstError.get() == null ? "" : " first_error=" + firstError.get().replace(' ', '_'));
    }

    static long rssKb(long pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (l.startsWith("VmRSS:")) return Long.parseLong(l.replaceAll("\\D", ""));
            }
        } catch (IOException e) {
            // the process is gone
        }
        return 0;
    }

    // ------------------------------------------------------------------ HTTP
    /** A minimal blocking HTTP/1.1 client on one keep-alive socket. */
    static final class Conn implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private byte[] buf = new byte[65536];

        Conn(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(330_000);
            in = new BufferedInputStream(socket.getInputStream(), 65536);
            out = socket.getOutputStream();
        }

        /** Sends the request; returns "status body". */
        String exchange(byte[] request) throws IOException {
            out.write(request);
            out.flush();
            String status = line();
            int length = 0;
            for (String h = line(); !h.isEmpty(); h = line()) {
                if (h.regionMatches(true, 0, "content-length:", 0, 15)) length = Integer.parseInt(h.substring(15).trim());
            }
            if (length > buf.length) buf = new byte[length];
            int read = 0;
            while (read < length) {
                int n = in.read(buf, read, length - read);
                if (n < 0) throw new EOFException();
                read += n;
            }
            return status.substring(9, 12) + " " + new String(buf, 0, read, StandardCharsets.UTF_8);
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) throw new EOFException();
                if (c != '\r') sb.append((char) c);
            }
            return sb.toString();
        }

        @Override public void close() throws IOException { socket.close(); }
    }

    static final ThreadLocal<java.util.Map<Long, Mac>> MACS = ThreadLocal.withInitial(java.util.HashMap::new);

    static byte[] signed(int port, long uid, String method, String path, String query, String body) {
        String ts = Long.toString(System.currentTimeMillis());
        String target = path + (query.isEmpty() ? "" : "?" + query);
        Mac mac = MACS.get().computeIfAbsent(uid, u -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(new SecretKeySpec(secret(u).getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                return m;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        String sign = Base64.getEncoder().encodeToString(mac.doFinal((ts + method + target + body).getBytes(StandardCharsets.UTF_8)));
        return request(method, target, port, "ACCESS-KEY: " + key(uid) + "\r\nACCESS-SIGN: " + sign + "\r\nACCESS-TIMESTAMP: " + ts
                + "\r\nACCESS-PASSPHRASE: " + PASS + "\r\n", body);
    }

    static byte[] admin(String method, String path, String body, int port) {
        return request(method, path, port, "Authorization: Bearer " + ADMIN_TOKEN + "\r\n", body);
    }

    static byte[] request(String method, String target, int port, String headers, String body) {
        byte[] payload = body.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + headers
                + "Content-Type: application/json\r\n" + (method.equals("GET") ? "" : "Content-Length: " + payload.length + "\r\n") + "\r\n";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(h, h.length + payload.length);
        System.arraycopy(payload, 0, all, h.length, payload.length);
        return all;
    }
}
