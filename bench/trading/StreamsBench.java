import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Issue 27's stream benchmarks (bench/run trading --targets streams). A program of three files (java StreamsBench.java
 * finds the others beside it, JEP 458): TradingBench's signed HTTP client and account seed, and LeanWebSockets, the
 * clients read by a few selector threads. Loopback only; every loop is bounded in count and time.
 *
 *   seed  OUT_DIR N       streams-seed.yaml: N unified accounts (one key each, 1,000,000 USDT and 10,000 WSB) and the
 *                         pair WSBUSDT (100.01 / 99.99, 1,000,000 a level, so every market order fills at level 1)
 *   run   PORT ADMIN_PORT SERVER_PID N RATE SECONDS MOVES
 *         1. N connections (100 per local address 127.0.1.x, the per-IP limit), each logged in with its own account's key
 *            and subscribed to account, position, order and fill (UTA) and the WSBUSDT ticker; all account snapshots in;
 *         2. a warm-up pass of N orders, one per account, at RATE (untimed; its figures are printed), then RATE market
 *            orders a second for SECONDS, account i % N each: every `order` push of a filled order is timed from its
 *            updatedTime (the order's commit time, the server's clock) to its arrival (also reported: the slowest of
 *            each second);
 *         3. MOVES ticker moves 300 ms apart, after 3 untimed ones: every ticker push on every connection timed from
 *            the ticker's ts;
 *         the server's VmRSS before the connections, after them, after the orders (and its peak while they run).
 */
public class StreamsBench {
    static final long UID0 = 3_300_000_000L;
    static final String SYMBOL = "WSBUSDT";

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "seed" -> seed(Path.of(args[1]), Integer.parseInt(args[2]));
            case "run" -> run(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), Integer.parseInt(args[6]), Integer.parseInt(args[7]), args.length > 8 ? Integer.parseInt(args[8]) : 64);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void seed(Path dir, int n) throws Exception {
        StringBuilder y = new StringBuilder("instruments:\n  - { category: SPOT, symbol: " + SYMBOL + ", baseCoin: WSB, quoteCoin: USDT }\n");
        y.append("tickers:\n  - { category: SPOT, symbol: ").append(SYMBOL)
                .append(", lastPrice: \"99.99\", ask1Price: \"100.01\", bid1Price: \"99.99\", ask1Size: \"1000000\", bid1Size: \"1000000\" }\n");
        y.append("accounts:\n");
        for (int a = 0; a < n; a++) TradingBench.account(y, UID0 + a, "stream-" + a, "USDT", "1000000", "WSB", "10000", false);
        Files.writeString(dir.resolve("streams-seed.yaml"), y);
    }

    /** One connection's received frames, timed on arrival. */
    static final class Client {
        final long uid;
        final CountDownLatch snapshot = new CountDownLatch(1);
        volatile boolean loggedIn;
        LeanWebSockets.Conn ws;

        Client(long uid) { this.uid = uid; }

        void received(String f, long now) {
            if (!loggedIn && f.contains("\"event\":\"login\"")) {
                loggedIn = true;
                String subscribe = "{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"},{\"instType\":\"UTA\",\"topic\":\"position\"},"
                        + "{\"instType\":\"UTA\",\"topic\":\"order\"},{\"instType\":\"UTA\",\"topic\":\"fill\"},"
                        + "{\"instType\":\"spot\",\"topic\":\"ticker\",\"symbol\":\"" + SYMBOL + "\"}]}";
                send(subscribe);
                return;
            }
            // The topic is in the arg, near the start: one short scan tells a push's kind.
            int t = f.indexOf("\"topic\":\"");
            if (t < 0) return;
            if (f.startsWith("account\"", t + 9)) {
                if (f.contains("\"action\":\"snapshot\"")) snapshot.countDown();
            } else if (f.startsWith("order\"", t + 9)) {
                if (!f.contains("\"orderStatus\":\"filled\"")) return;
                Matcher m = UPDATED.matcher(f);
                if (m.find()) {
                    long lag = now - Long.parseLong(m.group(1));
                    if (!TIMED) {
                        WARMUP_LAG.add(lag);
                        return;
                    }
                    ORDER_LAG.add(lag);
                    ORDER_MAX_BY_SECOND.merge(now / 1000, lag, Math::max);
                }
            } else if (MOVES_STARTED && f.startsWith("ticker\"", t + 9)) {
                long ts = tickerTs(f);
                if (ts > 0) {
                    if (MOVING) FANOUT_LAG.add(now - ts);
                    BY_MOVE.computeIfAbsent(ts, x -> new ConcurrentLinkedQueue<>()).add(now - ts);
                }
            }
        }

        void send(String text) {
            try {
                ws.sendText(text);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    static final Pattern UPDATED = Pattern.compile("\"updatedTime\":\"(\\d+)\"");
    /**
     * The ts of a ticker push's first row ("data":[{..."ts":"..."}), or -1: two scans, not a regex, so the 5,000 readers'
     * CPU a message stays small beside the server's on the same two cores.
     */
    static long tickerTs(String f) {
        int data = f.indexOf("\"data\":[{");
        if (data < 0) return -1;
        int ts = f.indexOf("\"ts\":\"", data);
        int end = f.indexOf('}', data);
        if (ts < 0 || (end >= 0 && end < ts)) return -1;
        long v = 0;
        int i = ts + 6;
        for (char ch; i < f.length() && (ch = f.charAt(i)) >= '0' && ch <= '9'; i++) v = v * 10 + (ch - '0');
        return i == ts + 6 ? -1 : v;
    }
    static final ConcurrentLinkedQueue<Long> ORDER_LAG = new ConcurrentLinkedQueue<>(), FANOUT_LAG = new ConcurrentLinkedQueue<>();
    /** The warm-up moves began (their arrivals are reported by move), the timed ones began. */
    static volatile boolean MOVES_STARTED, MOVING;
    /** The warm-up pass's pushes (one order per account), and whether the timed orders began. */
    static final ConcurrentLinkedQueue<Long> WARMUP_LAG = new ConcurrentLinkedQueue<>();
    static volatile boolean TIMED;
    /** The slowest commit-to-push of each second of the orders (arrival second): where the p99 comes from. */
    static final java.util.concurrent.ConcurrentSkipListMap<Long, Long> ORDER_MAX_BY_SECOND = new java.util.concurrent.ConcurrentSkipListMap<>();
    /** The fan-out's lags by move (the ticker's ts): each move's first, median and last arrival are reported. */
    static final java.util.concurrent.ConcurrentSkipListMap<Long, ConcurrentLinkedQueue<Long>> BY_MOVE = new java.util.concurrent.ConcurrentSkipListMap<>();
    /**
     * Untimed moves before the timed ones (bench/run trading --fanout-warmup-moves, default 15). With 3, the first
     * 5 to 10 timed moves were the slowest of each run (last arrivals 53 to 64 ms where the later ones took 34 to 50):
     * the JIT compiled the fan-out's loop at tier 4 only after about 10 moves of 5,000 pushes (D232).
     */
    static final int WARMUP_MOVES = Integer.getInteger("fanoutWarmup", 15);
    /** The clients' selector threads (bench/run trading --stream-readers). */
    static final int READERS = Integer.getInteger("readers", 2);

    static void run(int port, int adminPort, long pid, int n, int rate, int seconds, int moves, int threads) throws Exception {
        long rss0 = TradingBench.rssKb(pid);
        // 1. the connections, 100 per local address
        List<Client> clients = new ArrayList<>();
        LeanWebSockets sockets = new LeanWebSockets(READERS);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Client c = new Client(UID0 + i);
            c.ws = sockets.connect("127.0.1." + (1 + i / 100), port, "/v3/ws/private", c::received);
            c.send(login(c.uid));
            clients.add(c);
        }
        for (Client c : clients) {
            if (!c.snapshot.await(Math.max(1, 300 - (System.nanoTime() - t0) / 1_000_000_000L), TimeUnit.SECONDS)) {
                throw new IllegalStateException("no account snapshot for " + c.uid + " within 300 s");
            }
        }
        double connectSeconds = (System.nanoTime() - t0) / 1e9;
        // As real clients do: a text ping every 20 s, or the server closes a connection idle for 2 minutes (30 s of
        // orders plus the waits outlast that, and a closed connection misses the fan-out). One send at a time each.
        // Each client on its own phase of the 20 s, as clients that connected at different times do (all 5,000 at once
        // made a burst the orders' pushes waited behind: the slowest second of a run, 508 ms, was the pings').
        Thread pinger = Thread.ofPlatform().daemon().start(() -> {
            long pingStart = System.nanoTime();
            for (long round = 1; !Thread.currentThread().isInterrupted(); round++) {
                for (int i = 0; i < clients.size(); i++) {
                    long wait = pingStart + (round * 20_000L + i * 20_000L / clients.size()) * 1_000_000L - System.nanoTime();
                    try {
                        if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                    try {
                        clients.get(i).send("ping");
                    } catch (java.io.UncheckedIOException gone) {
                        // a connection the server closed: the fan-out count shows it
                    }
                }
            }
        });
        Thread.sleep(2_000);
        long rss1 = TradingBench.rssKb(pid);
        System.out.printf(Locale.ROOT, "[streams] %d connections logged in and subscribed in %.1f s; server VmRSS %d MB -> %d MB%n",
                n, connectSeconds, rss0 / 1024, rss1 / 1024);

        // 2. RATE market orders a second, paced, from `threads` keep-alive connections (each waits for its answer)
        AtomicLong sent = new AtomicLong(), errors = new AtomicLong(), peak = new AtomicLong(rss1);
        long total = (long) rate * seconds;
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(TradingBench.rssKb(pid), Math::max);
                try { Thread.sleep(200); } catch (InterruptedException e) { return; }
            }
        });
        // A warm-up pass first, one order per account at the same rate, untimed: each account's first order reads its key
        // and settings and builds its first pushes, and each connection's first frames meet cold socket buffers on both
        // ends (the first pass's pushes were up to 300 ms late where the rest were under 50 ms; its figures are printed).
        AtomicLong warmSent = new AtomicLong(), warmErrors = new AtomicLong();
        sendOrders(port, n, rate, threads, 0, n, System.nanoTime(), warmSent, warmErrors);
        long warmWait = System.nanoTime() + 30_000_000_000L;
        while (WARMUP_LAG.size() < warmSent.get() - warmErrors.get() && System.nanoTime() < warmWait) Thread.sleep(100);
        long[] warm = sorted(WARMUP_LAG);
        System.out.printf(Locale.ROOT, "[streams] warm-up pass, one order per account (untimed): %d pushes, p50 %d ms, p99 %d ms, max %d ms, %d errors%n",
                warm.length, pct(warm, 50), pct(warm, 99), pct(warm, 100), warmErrors.get());
        TIMED = true;
        long start = System.nanoTime();
        sendOrders(port, n, rate, threads, n, total, start, sent, errors);
        double orderSeconds = (System.nanoTime() - start) / 1e9;
        long endWait = System.nanoTime() + 30_000_000_000L;
        while (ORDER_LAG.size() < sent.get() - errors.get() && System.nanoTime() < endWait) Thread.sleep(100);
        sampler.interrupt();
        Thread.sleep(2_000);
        long rss2 = TradingBench.rssKb(pid);
        // The server's own share: a commit heard → its pushes queued on every subscriber's connection (its timer's
        // window covers the orders; the moves come after).
        try (TradingBench.Conn admin = new TradingBench.Conn(adminPort)) {
            String metrics = admin.exchange(TradingBench.admin("GET", "/metrics", "", adminPort));
            StringBuilder lag = new StringBuilder();
            for (String line : metrics.split("\n")) {
                if (line.startsWith("tas_ws_push_lag_seconds{") || line.startsWith("tas_ws_push_lag_seconds_max")) {
                    lag.append(' ').append(line.replaceAll("\\{.*quantile=\"([0-9.]+)\".*}", "_p$1").replace("tas_ws_push_lag_seconds", ""));
                }
            }
            System.out.println("[streams] the server's push lag (commit heard -> pushes queued), seconds:" + lag);
        }

        // 3. fan-out: ticker moves, every connection subscribed
        long messages0 = 0, cpu0 = 0, serverTicks0 = 0;
        try (TradingBench.Conn admin = new TradingBench.Conn(adminPort)) {
            // The first moves are not timed, as the taker load is primed: in every run the first move was two to three
            // times slower than the rest (its code paths not yet run this often), and the next ones until C2 compiled them.
            MOVES_STARTED = true;
            for (int m = -WARMUP_MOVES; m < moves; m++) {
                if (m == 0) {
                    Thread.sleep(1_000); // the last warm-up pushes are in
                    messages0 = sockets.messages();
                    cpu0 = sockets.readerCpuNanos();
                    serverTicks0 = cpuTicks(pid);
                    MOVING = true;
                }
                String bid = m % 2 == 0 ? "99.98" : "99.99", ask = m % 2 == 0 ? "100.02" : "100.01";
                admin.exchange(TradingBench.admin("POST", "/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL
                        + "\",\"lastPrice\":\"" + bid + "\",\"ask1Price\":\"" + ask + "\",\"bid1Price\":\"" + bid
                        + "\",\"ask1Size\":\"1000000\",\"bid1Size\":\"1000000\"}", adminPort));
                Thread.sleep(300);
            }
        }
        long fanWait = System.nanoTime() + 30_000_000_000L;
        while (FANOUT_LAG.size() < (long) moves * n && System.nanoTime() < fanWait) Thread.sleep(100);

        long messages = sockets.messages() - messages0, cpu = sockets.readerCpuNanos() - cpu0, serverTicks = cpuTicks(pid) - serverTicks0;
        System.out.printf(Locale.ROOT, "[streams] fan-out: the server used %d ms of CPU, %.1f us a message%n",
                serverTicks * 10, messages == 0 ? 0 : serverTicks * 10_000.0 / messages);
        System.out.printf(Locale.ROOT, "[streams] fan-out: the clients' reader threads took %d messages on %.0f ms of CPU (%.1f us a message)%n",
                messages, cpu / 1e6, messages == 0 ? 0 : cpu / 1e3 / messages);
        System.out.println("[streams] commit-to-push, the slowest of each second in ms: " + ORDER_MAX_BY_SECOND.values());
        StringBuilder byMove = new StringBuilder();
        for (java.util.Map.Entry<Long, ConcurrentLinkedQueue<Long>> e : BY_MOVE.entrySet()) {
            long[] l = sorted(e.getValue());
            if (Boolean.getBoolean("moveTimes")) byMove.append(' ').append(e.getKey() % 1_000_000).append(':');
            byMove.append(' ').append(l[0]).append('/').append(pct(l, 50)).append('/').append(l[l.length - 1]);
        }
        System.out.println("[streams] fan-out by move (the first " + WARMUP_MOVES + " untimed), first/median/last arrival in ms:" + byMove);
        long[] order = sorted(ORDER_LAG), fan = sorted(FANOUT_LAG);
        System.out.printf(Locale.ROOT, "RESULT streams connections=%d orders=%d orders_per_s=%.0f errors=%d order_pushes=%d push_p50_ms=%d push_p99_ms=%d "
                        + "push_max_ms=%d fanout_moves=%d fanout_pushes=%d fanout_p50_ms=%d fanout_p99_ms=%d rss_start_mb=%d rss_connected_mb=%d "
                        + "rss_after_orders_mb=%d rss_peak_mb=%d rss_growth_mb=%d%n",
                n, sent.get(), sent.get() / orderSeconds, errors.get(), order.length, pct(order, 50), pct(order, 99), pct(order, 100),
                moves, fan.length, pct(fan, 50), pct(fan, 99), rss0 / 1024, rss1 / 1024, rss2 / 1024, peak.get() / 1024,
                (Math.max(peak.get(), rss2) - rss0) / 1024);
        pinger.interrupt();
        sockets.close();
    }

    /**
     * `count` market orders, order k (from `first` on) at start + (k - first) / rate, account k % n, buying on even passes
     * over the accounts and selling on odd ones, from `threads` keep-alive connections each waiting for its answer.
     * Bounded in time: a sender stops 60 s after the orders were due to end.
     */
    static void sendOrders(int port, int n, int rate, int threads, long first, long count, long start, AtomicLong sent, AtomicLong errors)
            throws InterruptedException {
        long limitNanos = (count / rate + 60) * 1_000_000_000L;
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            senders.add(Thread.ofPlatform().start(() -> {
                try (TradingBench.Conn conn = new TradingBench.Conn(port)) {
                    for (long k = first + me; k < first + count; k += threads) {
                        long due = start + (k - first) * 1_000_000_000L / rate;
                        long wait = due - System.nanoTime();
                        if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        if (System.nanoTime() - start > limitNanos) break;
                        long uid = UID0 + (k % n);
                        String body = (k / n) % 2 == 0
                                ? "{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL + "\",\"side\":\"buy\",\"orderType\":\"market\",\"qty\":\"100\"}"
                                : "{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL + "\",\"side\":\"sell\",\"orderType\":\"market\",\"qty\":\"1\"}";
                        String r = conn.exchange(TradingBench.signed(port, uid, "POST", "/api/v3/trade/place-order", "", body));
                        sent.incrementAndGet();
                        if (!r.startsWith("200 ") || !r.contains("\"00000\"")) errors.incrementAndGet();
                    }
                } catch (Exception e) {
                    errors.incrementAndGet();
                }
            }));
        }
        for (Thread t : senders) t.join();
    }

    /** The process's user and system CPU time in clock ticks (1/100 s), from /proc. */
    static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    static String login(long uid) throws Exception {
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(TradingBench.secret(uid).getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String sign = Base64.getEncoder().encodeToString(mac.doFinal((ts + "GET/user/verify").getBytes(StandardCharsets.UTF_8)));
        return "{\"op\":\"login\",\"args\":[{\"apiKey\":\"" + TradingBench.key(uid) + "\",\"passphrase\":\"" + TradingBench.PASS
                + "\",\"timestamp\":\"" + ts + "\",\"sign\":\"" + sign + "\"}]}";
    }

    static long[] sorted(ConcurrentLinkedQueue<Long> q) {
        long[] a = q.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    static long pct(long[] sorted, int p) {
        if (sorted.length == 0) return -1;
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1 < 0 ? 0 : (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
