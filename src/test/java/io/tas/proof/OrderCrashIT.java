package io.tas.proof;

import io.tas.api.Admin;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.Proof;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.tas.support.ServerProcess.freePort;
import static io.tas.support.ServerProcess.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25: the built service (target/tas.jar) is killed with SIGKILL while it matches: four accounts (two only buy,
 * two only sell; issue 26: one buyer and one seller classic, trading through the v2 spot rows on the same book) place
 * crossing limit orders on one symbol and cancel some, while a ticker sweep moves the ticker's
 * levels across the resting orders every few milliseconds. The service restarts on the same database (an H2 file,
 * PostgreSQL), its ledger check must hold, and {@link OrderAudit} reads the tables: every order acknowledged before
 * the kill is there, every order's fills sum to its cumExecQty (no fill lost, none half there: a maker fill without
 * its order's change or the reverse), both fills of a trade agree, no order filled beyond its qty, the book is not
 * crossed, each account's balances are what its fills give by the audit's own arithmetic, and per account and coin the
 * frozen amount is exactly what its working orders hold. Cycles per database: 2 in CI, 20 with -Dproof.long=true, or
 * -Dproof.ordercrash.cycles=n; each cycle trades a new symbol with new accounts on the database of the cycles before.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class OrderCrashIT {
    private static final int CYCLES = Integer.getInteger("proof.ordercrash.cycles", Proof.longRun() ? 20 : 2);
    /** The kill comes at a random time within this window after WARM orders were acknowledged. */
    private static final int WINDOW_MS = 1000, WARM = 20;
    @Parameter Databases.Kind kind;

    @Test
    void ordersAndFillsSurviveSigkillDuringMatchingWholeAndBalanced(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("proof.seed", System.nanoTime());
        Random random = new Random(seed);
        Databases.TestDb db = kind == Databases.Kind.POSTGRES ? Databases.create(kind) : null;
        String url = db != null ? db.url() : "jdbc:h2:file:" + dir.resolve("orders").toAbsolutePath();
        int port = freePort(), adminPort = freePort();
        String base = "http://127.0.0.1:" + port, adminUrl = "http://127.0.0.1:" + adminPort;
        Admin admin = new Admin(adminUrl);
        long started = System.nanoTime();
        int acknowledged = 0, orders = 0, fills = 0, pairs = 0;
        List<String> refusals = new ArrayList<>();
        List<Process> processes = new ArrayList<>();
        Process server = start(url, port, adminPort, dir.resolve("start.log").toFile());
        processes.add(server);
        try {
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                String coin = "OC" + kind.name().charAt(0) + cycle + "X", symbol = coin + "USDT";
                assertThat(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"baseCoin\":\"" + coin
                        + "\",\"quoteCoin\":\"USDT\"}").code()).isEqualTo("00000");
                assertThat(ticker(admin, symbol, 10_000).code()).isEqualTo("00000");
                Map<Long, Map<String, BigDecimal>> initial = new ConcurrentHashMap<>();
                List<Credentials> keys = new ArrayList<>();
                List<Long> uids = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    boolean buyer = i % 2 == 0;
                    String funded = buyer ? "USDT" : coin, amount = buyer ? "1000000" : "10000", name = "order-crash-" + seed + "-" + cycle + "-" + i;
                    if (classic(i)) {
                        long uid = admin.createAccount("{\"username\":\"" + name + "\",\"accountMode\":\"CLASSIC\"}");
                        String key = admin.createKey(uid, "Crash1", "read-and-write", "[]");
                        admin.deposit(uid, "spot", funded, amount);
                        keys.add(new Credentials(key, admin.lastSecret, "Crash1"));
                        uids.add(uid);
                    } else {
                        keys.add(admin.fundedAccount(name, funded, amount));
                        uids.add(admin.lastUid);
                    }
                    initial.put(uids.getLast(), Map.of(funded, new BigDecimal(amount)));
                }

                // The load: one client per account, and the ticker sweep; each stops at its first failure to connect.
                Map<Long, Long> acked = new ConcurrentHashMap<>();
                List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
                AtomicBoolean killed = new AtomicBoolean();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    ApiClient c = new ApiClient(base, keys.get(i), Clock.systemUTC());
                    long uid = uids.get(i);
                    boolean buyer = i % 2 == 0;
                    Random r = new Random(random.nextLong());
                    boolean classic = classic(i);
                    threads.add(Thread.ofPlatform().start(() -> trade(c, uid, buyer, classic, symbol, r, acked, unexpected, killed)));
                }
                Random tickerRandom = new Random(random.nextLong());
                threads.add(Thread.ofPlatform().start(() -> {
                    while (!killed.get()) {
                        try {
                            // Levels around 99.80 to 100.20: each move crosses some of the resting orders (99.85 to 100.15).
                            ticker(admin, symbol, 9980 + tickerRandom.nextInt(41));
                            Thread.sleep(5 + tickerRandom.nextInt(20));
                        } catch (UncheckedIOException | IllegalStateException gone) {
                            return;
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }));
                long warmBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (acked.size() < WARM && System.nanoTime() < warmBy) Thread.sleep(5);
                long killAt = random.nextInt(WINDOW_MS);
                Thread.sleep(killAt);
                killed.set(true);
                server.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
                assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
                for (Thread t : threads) {
                    t.join(30_000);
                    assertThat(t.isAlive()).as("a client still sending after the kill").isFalse();
                }
                String at = "cycle " + cycle + " (seed " + seed + ", kill " + killAt + " ms after " + WARM + " acknowledged orders)";

                // Recovery: on H2 the file is opened with the service's settings first (H2 recovers it at the open, as the
                // service's start would; the file admits one process), audited, then the service starts on it; on PostgreSQL
                // the service restarts and the tables are audited beside it. Either way the restarted service's ledger check holds.
                OrderAudit.Result audit = null;
                if (db == null) audit = audit(DriverManager.getConnection(url + ";REUSE_SPACE=FALSE;WRITE_DELAY=0", "sa", ""), symbol, coin, initial, acked);
                server = start(url, port, adminPort, dir.resolve("cycle" + cycle + "-recovered.log").toFile());
                processes.add(server);
                if (db != null) audit = audit(DriverManager.getConnection(url, db.user(), ""), symbol, coin, initial, acked);
                Reply check = admin.get("/admin/v1/ledger/check");
                assertThat(check.data().get("ok").asBoolean()).as(at + ": ledger check " + check.raw()).isTrue();
                assertThat(audit.violations()).as(at + ": " + audit.summary()).isEmpty();
                assertThat(acked).as(at + ": orders acknowledged before the kill").hasSizeGreaterThanOrEqualTo(WARM);
                refusals.addAll(unexpected.stream().map(u -> at + ": " + u).toList());
                acknowledged += acked.size();
                orders += audit.orders();
                fills += audit.fills();
                pairs += audit.pairs();
                System.out.println("OrderCrashIT[" + kind + "] " + at + ": " + audit.summary());
            }
        } finally {
            for (Process p : processes) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            if (db != null) db.close();
        }
        // Every placement of the load is affordable and every cancel finds its order or answers 25204/43001 (it filled).
        assertThat(refusals).as("replies other than success before the kills").isEmpty();
        Proof.print("order crash " + kind + ": cycles=" + CYCLES + " SIGKILLs during matching (4 accounts, 2 of them classic on the v2 rows, "
                + "placing crossing limit orders and cancelling, a ticker sweep every 5-25 ms): " + acknowledged + " acknowledged orders, " + orders + " stored, " + fills + " fills ("
                + pairs + " maker/taker pairs), 0 lost, 0 half-matched, fills = cumExecQty, frozen = working orders, balances = the fills, "
                + "conserved (seed " + seed + "; " + (System.nanoTime() - started) / 1_000_000 + " ms)");
    }

    private static OrderAudit.Result audit(Connection c, String symbol, String coin, Map<Long, Map<String, BigDecimal>> initial,
                                           Map<Long, Long> acked) throws java.sql.SQLException {
        try (c) {
            return OrderAudit.audit(c, symbol, coin, "USDT", initial, acked, false);
        }
    }

    /** Accounts 2 and 3 (a buyer and a seller) are classic: they trade through the v2 spot rows (issue 26). */
    private static boolean classic(int account) { return account >= 2; }

    /**
     * One account's client: limit orders from 99.85 to 100.15 and cancels of its own, until the server is gone; a classic
     * account's through the v2 rows (size, force; the symbol on the cancel; 43001 for an order no longer working).
     */
    private static void trade(ApiClient c, long uid, boolean buyer, boolean classic, String symbol, Random r, Map<Long, Long> acked,
                              List<String> unexpected, AtomicBoolean killed) {
        List<String> mine = new ArrayList<>();
        try {
            while (true) {
                if (!mine.isEmpty() && r.nextInt(6) == 0) {
                    String id = mine.remove(r.nextInt(mine.size()));
                    Reply x = classic ? c.post("/api/v2/spot/trade/cancel-order", "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + id + "\"}")
                            : c.post("/api/v3/trade/cancel-order", "{\"orderId\":\"" + id + "\"}");
                    if (!x.code().equals("00000") && !x.code().equals(classic ? "43001" : "25204") && !killed.get()) unexpected.add("cancel: " + x.raw());
                    continue;
                }
                String price = new BigDecimal(9985 + r.nextInt(31)).movePointLeft(2).toPlainString();
                String qty = new BigDecimal(1 + r.nextInt(20)).movePointLeft(1).toPlainString();
                String tif = r.nextInt(7) == 0 ? "ioc" : "gtc";
                String side = buyer ? "buy" : "sell";
                Reply x = classic
                        ? c.post("/api/v2/spot/trade/place-order", "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side
                                + "\",\"orderType\":\"limit\",\"size\":\"" + qty + "\",\"price\":\"" + price + "\",\"force\":\"" + tif + "\"}")
                        : c.post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"side\":\"" + side
                                + "\",\"orderType\":\"limit\",\"qty\":\"" + qty + "\",\"price\":\"" + price + "\",\"timeInForce\":\"" + tif + "\"}");
                if (x.code().equals("00000")) {
                    acked.put(Long.parseLong(x.data().get("orderId").asText()), uid);
                    if (tif.equals("gtc")) mine.add(x.data().get("orderId").asText());
                } else if (!killed.get()) {
                    unexpected.add("place: " + x.raw());
                }
            }
        } catch (UncheckedIOException | IllegalStateException gone) {
            // the kill
        }
    }

    /** The ticker's levels 0.02 either side of center/100; the last price center/100 + 0.005 keeps the price step at 0.001. */
    private static Reply ticker(Admin admin, String symbol, int center) {
        BigDecimal c = new BigDecimal(center).movePointLeft(2), d = new BigDecimal("0.02");
        return admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"" + c.add(new BigDecimal("0.005"))
                + "\",\"ask1Price\":\"" + c.add(d) + "\",\"bid1Price\":\"" + c.subtract(d) + "\",\"ask1Size\":\"1\",\"bid1Size\":\"1\"}");
    }
}
