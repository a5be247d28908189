package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.Proof;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, races on one symbol's book (the book lock, D154), on H2 and PostgreSQL: one clientOid sent 320 times at
 * once makes one order and one freeze; 64 cancels racing the fill of one resting order (by a ticker sweep or by
 * another account's taker) end in exactly one outcome, with the balances computed by hand for it. These two run for a
 * unified account on the v3 rows and for a classic one on the v2 spot rows (issue 26: its spot balances, its codes).
 * Two ticker moves at once fill each of 1,200 crossed orders of unified accounts once (D219). Each race trades
 * instruments of its own on a server of its own with rate limits off (320 placements from one UID in a second would
 * meet the place-order limit on the shared servers).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class OrderRaceTest {
    private static final Map<Databases.Kind, TestServer> SERVERS = new EnumMap<>(Databases.Kind.class);
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v3/trade/place-order";

    /** The rows and vocabulary of one account family: the v3 unified rows, or the v2 classic spot rows (D171, D172). */
    private record Family(String name, String place, String cancel, String notFound, String wallet) {
        static final Family UNIFIED = new Family("unified", PLACE, "/api/v3/trade/cancel-order", "25204", "unified");
        static final Family CLASSIC = new Family("classic", "/api/v2/spot/trade/place-order", "/api/v2/spot/trade/cancel-order", "43001", "spot");

        boolean classic() { return this == CLASSIC; }

        String order(String symbol, String side, String qty, String price, String tif, String clientOid) {
            if (!classic()) return OrderRaceTest.order(symbol, side, qty, price, tif, clientOid);
            return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"orderType\":\"limit\",\"size\":\"" + qty + "\",\"price\":\""
                    + price + "\",\"force\":\"" + tif + "\"" + (clientOid == null ? "" : ",\"clientOid\":\"" + clientOid + "\"") + "}";
        }

        String cancelBody(String symbol, String orderId) {
            return classic() ? "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + orderId + "\"}" : "{\"orderId\":\"" + orderId + "\"}";
        }

        /** An account of the family with a read-and-write key and one funded coin (spot for a classic one). */
        ApiClient account(TestServer s, Admin admin, String name, String coin, String amount, long[] uid) {
            if (!classic()) {
                ApiClient c = s.client(admin.fundedAccount(name, coin, amount));
                uid[0] = admin.lastUid;
                return c;
            }
            uid[0] = admin.createAccount("{\"username\":\"" + name + "\",\"accountMode\":\"CLASSIC\"}");
            String key = admin.createKey(uid[0], "Race1", "read-and-write", "[]");
            admin.deposit(uid[0], "spot", coin, amount);
            return s.client(new Credentials(key, admin.lastSecret, "Race1"));
        }

        /** The order's status, base filled and the account's fills of it (size@price), read through the family's rows. */
        String[] read(ApiClient c, String symbol, String orderId) {
            if (classic()) {
                JsonNode o = c.get("/api/v2/spot/trade/orderInfo?orderId=" + orderId).data().get(0);
                List<String> fills = new ArrayList<>();
                c.get("/api/v2/spot/trade/fills?symbol=" + symbol + "&orderId=" + orderId).data()
                        .forEach(f -> fills.add(f.get("size").asText() + "@" + f.get("priceAvg").asText()));
                return new String[]{o.get("status").asText(), o.get("baseVolume").asText(), String.join(",", fills)};
            }
            JsonNode o = c.get("/api/v3/trade/order-info?orderId=" + orderId).data();
            List<String> fills = new ArrayList<>();
            c.get("/api/v3/trade/fills?category=SPOT&orderId=" + orderId).data().get("list")
                    .forEach(f -> fills.add(f.get("execQty").asText() + "@" + f.get("execPrice").asText()));
            return new String[]{o.get("orderStatus").asText(), o.get("cumExecQty").asText(), String.join(",", fills)};
        }

        /** orderIds of the account's working, then finished, orders on the symbol. */
        List<List<String>> orders(ApiClient c, String symbol) {
            JsonNode open = classic() ? c.get("/api/v2/spot/trade/unfilled-orders?symbol=" + symbol).data()
                    : c.get("/api/v3/trade/unfilled-orders?category=SPOT&symbol=" + symbol).data().get("list");
            JsonNode done = classic() ? c.get("/api/v2/spot/trade/history-orders?symbol=" + symbol).data()
                    : c.get("/api/v3/trade/history-orders?category=SPOT&symbol=" + symbol).data().get("list");
            List<String> a = new ArrayList<>(), b = new ArrayList<>();
            open.forEach(o -> a.add(o.get("orderId").asText()));
            done.forEach(o -> b.add(o.get("orderId").asText()));
            return List.of(a, b);
        }
    }
    /** Rounds of the cancel race per fill kind (a ticker sweep, a taker of another account). */
    private static final int ROUNDS = Proof.longRun() ? 20 : 3;

    @Parameter Databases.Kind kind;

    private TestServer server() {
        synchronized (SERVERS) {
            return SERVERS.computeIfAbsent(kind, k -> TestServer.start(k, new MutableClock(System.currentTimeMillis()), false));
        }
    }

    @AfterAll
    static void stopServers() {
        synchronized (SERVERS) {
            SERVERS.values().forEach(TestServer::close);
            SERVERS.clear();
        }
    }

    /** A new spot instrument (base coin returned, symbol = base + "USDT") with a ticker ask 100.01 / bid 99.99, 5 a level. */
    private String newSpot(Admin admin) {
        String base = "OR" + kind.name().charAt(0) + NAMES.incrementAndGet();
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + base + "USDT\",\"baseCoin\":\"" + base
                + "\",\"quoteCoin\":\"USDT\"}"));
        ticker(admin, base + "USDT", "100.01", "99.99");
        return base;
    }

    static Reply ticker(Admin admin, String symbol, String ask, String bid) {
        Reply r = admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"" + bid
                + "\",\"ask1Price\":\"" + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}");
        ok(r);
        return r;
    }

    static String order(String symbol, String side, String qty, String price, String tif, String clientOid) {
        return "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"orderType\":\"limit\",\"qty\":\"" + qty
                + "\",\"price\":\"" + price + "\",\"timeInForce\":\"" + tif + "\"" + (clientOid == null ? "" : ",\"clientOid\":\"" + clientOid + "\"") + "}";
    }

    /** Every reply of the race: the set of orderIds answered, and every refusal (code: raw) for the assertion message. */
    private record Sends(Set<String> orderIds, Map<String, Integer> codes, List<String> refusals) {}

    private static Sends sendAtOnce(ApiClient c, String path, String body, int threads, int each) throws Exception {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        Map<String, Integer> codes = new ConcurrentHashMap<>();
        List<String> refusals = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        Reply r = c.post(path, body);
                        codes.merge(r.code(), 1, Integer::sum);
                        if (r.code().equals("00000")) ids.add(r.data().get("orderId").asText());
                        else refusals.add(r.status() + " " + r.raw());
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        return new Sends(ids, new TreeMap<>(codes), refusals);
    }

    @Test
    void oneClientOidSentThreeHundredTwentyTimesAtOnceMakesOneOrderAndOneFreeze() throws Exception {
        for (Family f : List.of(Family.UNIFIED, Family.CLASSIC)) clientOidRace(f);
    }

    private void clientOidRace(Family f) throws Exception {
        TestServer s = server();
        Admin admin = new Admin(s);
        String base = newSpot(admin), symbol = base + "USDT";
        long[] uid = new long[1];
        ApiClient c = f.account(s, admin, "oid-race-" + f.name() + "-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "1000", uid);

        // A limit buy of 1 at 90 rests below the ask 100.01 and freezes 90 USDT: 32 clients x 10 sends of it.
        Sends resting = sendAtOnce(c, f.place(), f.order(symbol, "buy", "1", "90", "gtc", "race-rest"), 32, 10);
        // A marketable IOC buy of 1 at 100.01 takes the synthetic ask: 100.01 USDT for 1 base less a taker fee of 0.001.
        Sends taking = sendAtOnce(c, f.place(), f.order(symbol, "buy", "1", "100.01", "ioc", "race-take"), 32, 10);

        for (Sends x : List.of(resting, taking)) {
            // Every answer is the one order, or a clean refusal (HTTP 400, never a server failure).
            assertThat(x.orderIds()).as("%s orderIds answered %s", f.name(), x.codes()).hasSize(1);
            assertThat(x.codes()).as("codes").doesNotContainKey("40015");
            x.refusals().forEach(r -> assertThat(r).startsWith("400 "));
        }
        String restId = resting.orderIds().iterator().next(), takeId = taking.orderIds().iterator().next();
        assertThat(f.orders(c, symbol)).as(f.name() + ": working, then finished orders").containsExactly(List.of(restId), List.of(takeId));
        assertThat(f.read(c, symbol, takeId)).as(f.name() + ": the IOC order, its one fill").containsExactly("filled", "1", "1@100.01");
        assertThat(f.read(c, symbol, restId)[2]).as("no fill of the resting order").isEmpty();
        // 1000 - 90 frozen - 100.01 spent = 809.99; base 1 - 0.001 = 0.999; on the family's wallet.
        assertThat(admin.balances(uid[0])).containsEntry(f.wallet() + "/USDT", "809.99/90/0").containsEntry(f.wallet() + "/" + base, "0.999/0/0").hasSize(2);
        admin.assertConserved();
        Proof.print("order races " + kind + " (" + f.name() + "): one clientOid x 320 sends (32 clients x 10), twice (resting, taking): 1 orderId each, "
                + "answers " + resting.codes() + " and " + taking.codes() + ", 1 order each, one freeze (90), one fill (1 at 100.01), conserved");
    }

    /**
     * D219: two ticker moves at once, each sweeping 1,200 crossed buys of 8 accounts (more than a page, so on PostgreSQL
     * each sweep runs two pages at a time on disjoint accounts, and the two sweeps overlap): every order fills once, at
     * its own price, and each account ends as computed by hand.
     */
    @Test
    void twoTickerMovesAtOnceFillEachCrossedOrderOnce() throws Exception {
        TestServer s = server();
        Admin admin = new Admin(s);
        String base = newSpot(admin), symbol = base + "USDT";
        int accounts = 8, each = 150;
        List<ApiClient> clients = new ArrayList<>();
        List<Long> uids = new ArrayList<>();
        for (int a = 0; a < accounts; a++) {
            clients.add(s.client(admin.fundedAccount("sweeps-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "20000")));
            uids.add(admin.lastUid);
        }
        ExecutorService pool = Executors.newFixedThreadPool(accounts);
        try {
            List<Future<?>> placed = new ArrayList<>();
            for (ApiClient c : clients) {
                placed.add(pool.submit(() -> {
                    // Buys of 1 at 95, 96, 97, 98, 99, 95, ...: below the ask 100.01, they rest.
                    for (int i = 0; i < each; i++) ok(c.post(PLACE, order(symbol, "buy", "1", Integer.toString(95 + i % 5), "gtc", null)));
                    return null;
                }));
            }
            for (Future<?> f : placed) f.get(120, TimeUnit.SECONDS);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Reply>> moves = new ArrayList<>();
            // The second move leaves the last price out (zero): it moves no candle, so it does not wait for the first
            // sweep's pages, whose trades update the minute's candle row, and the two sweeps overlap.
            for (String last : List.of(",\"lastPrice\":\"89\"", "")) {
                moves.add(pool.submit(() -> {
                    start.await();
                    return admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\"" + last
                            + ",\"ask1Price\":\"90\",\"bid1Price\":\"89\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}");
                }));
            }
            start.countDown();
            for (Future<Reply> m : moves) ok(m.get(120, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        // Each account paid 30 x (95 + 96 + 97 + 98 + 99) = 14,550 from its 20,000 and got 150 less the maker fee of 0.1 %.
        for (int a = 0; a < accounts; a++) {
            assertThat(clients.get(a).get("/api/v3/trade/unfilled-orders?category=SPOT&symbol=" + symbol).data().get("list")).as("working orders").isEmpty();
            assertThat(admin.balances(uids.get(a))).as("account %d", a)
                    .containsExactly(Map.entry("unified/" + base, "149.85/0/0"), Map.entry("unified/USDT", "5450/0/0"));
        }
        admin.assertConserved();
        Proof.print("order races " + kind + ": two ticker moves at once over 1,200 crossed buys of 8 accounts: every order filled once, balances as computed, conserved");
    }

    @Test
    void sixtyFourCancelsRacingATickerSweepOrATakerEndInExactlyOneOutcome() throws Exception {
        for (Family f : List.of(Family.UNIFIED, Family.CLASSIC)) cancelRace(f);
    }

    /** The buyer is of the family; the taker seller a unified account (one book for both, D171). */
    private void cancelRace(Family f) throws Exception {
        TestServer s = server();
        Admin admin = new Admin(s);
        long seed = Long.getLong("proof.seed", System.nanoTime());
        Random random = new Random(seed);
        int filled = 0, cancelled = 0;
        for (int round = 0; round < 2 * ROUNDS; round++) {
            boolean byTicker = round % 2 == 0;
            String base = newSpot(admin), symbol = base + "USDT";
            long[] buyerUid = new long[1];
            ApiClient buyerClient = f.account(s, admin, "cancel-race-" + f.name() + "-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "1000", buyerUid);
            long buyer = buyerUid[0];
            String wallet = f.wallet();
            ApiClient seller = s.client(admin.fundedAccount("cancel-race-seller-" + kind + "-" + NAMES.incrementAndGet(), base, "2"));
            long sellerUid = admin.lastUid;
            // The resting order: buy 2 at 100, below the ask 100.01: 200 USDT frozen.
            Reply placed = buyerClient.post(f.place(), f.order(symbol, "buy", "2", "100", "gtc", null));
            ok(placed);
            String orderId = placed.data().get("orderId").asText();
            assertThat(admin.balances(buyer)).containsEntry(wallet + "/USDT", "800/200/0");

            // Who starts late, and by how much: the cancels (the fill then usually wins) or the fill (the cancels usually win).
            boolean cancelsLate = (round / 2) % 2 == 0;
            int delayMicros = random.nextInt(cancelsLate ? 12_000 : 3_000);
            ExecutorService pool = Executors.newFixedThreadPool(65);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Reply>> cancels = new ArrayList<>();
            Future<Reply> fill;
            try {
                for (int i = 0; i < 64; i++) {
                    cancels.add(pool.submit(() -> {
                        start.await();
                        if (cancelsLate) TimeUnit.MICROSECONDS.sleep(delayMicros);
                        return buyerClient.post(f.cancel(), f.cancelBody(symbol, orderId));
                    }));
                }
                fill = pool.submit(() -> {
                    start.await();
                    if (!cancelsLate) TimeUnit.MICROSECONDS.sleep(delayMicros);
                    // The ask falls to 99.5: the buy at 100 fills as the maker at 100 against the synthetic book; or another
                    // account sells 2 at 100 IOC (the bid 99.99 is below its limit): it takes the resting buy only.
                    return byTicker ? ticker(admin, symbol, "99.5", "99.4") : seller.post(PLACE, order(symbol, "sell", "2", "100", "ioc", null));
                });
                start.countDown();
                for (Future<Reply> c : cancels) c.get(60, TimeUnit.SECONDS);
                ok(fill.get(60, TimeUnit.SECONDS));
            } finally {
                pool.shutdownNow();
            }
            Map<String, Integer> codes = new TreeMap<>();
            for (Future<Reply> c : cancels) {
                Reply r = c.get();
                codes.merge(r.code(), 1, Integer::sum);
                if (r.code().equals("00000")) assertThat(r.data().get("orderId").asText()).isEqualTo(orderId);
            }
            String at = f.name() + " round " + round + " (" + (byTicker ? "ticker" : "taker") + ", " + (cancelsLate ? "cancels" : "fill") + " " + delayMicros
                    + " us late, seed " + seed + "): cancels " + codes;
            assertThat(codes.keySet()).as(at).isSubsetOf("00000", f.notFound());
            String[] o = f.read(buyerClient, symbol, orderId);
            String status = o[0];
            Map<String, String> buyerBalances = admin.balances(buyer), sellerBalances = admin.balances(sellerUid);
            if (status.equals("filled")) {
                filled++;
                // Filled first: every cancel found no working order.
                assertThat(codes).as(at).containsExactly(Map.entry(f.notFound(), 64));
                assertThat(o[1]).isEqualTo("2");
                assertThat(o[2]).as(at + ": its one fill").isEqualTo("2@100");
                // The buyer paid 200 from the freeze and got 2 less the maker fee 0.002.
                assertThat(buyerBalances).as(at).containsEntry(wallet + "/USDT", "800/0/0").containsEntry(wallet + "/" + base, "1.998/0/0").hasSize(2);
                // The taker seller got 200 less the taker fee 0.2; the ticker round leaves the seller's 2 untouched.
                if (byTicker) assertThat(sellerBalances).as(at).containsExactly(Map.entry("unified/" + base, "2/0/0"));
                else assertThat(sellerBalances).as(at).containsExactly(Map.entry("unified/USDT", "199.8/0/0"));
            } else {
                cancelled++;
                assertThat(status).as(at).isEqualTo("cancelled");
                // Cancelled first: one cancel succeeded, the other 63 found no working order; nothing filled.
                assertThat(codes).as(at).containsExactly(Map.entry("00000", 1), Map.entry(f.notFound(), 63));
                assertThat(o[1]).isEqualTo("0");
                assertThat(o[2]).as(at).isEmpty();
                // The freeze released once: 1000 again, nothing frozen. The seller's IOC found nothing and was cancelled.
                assertThat(buyerBalances).as(at).containsExactly(Map.entry(wallet + "/USDT", "1000/0/0"));
                assertThat(sellerBalances).as(at).containsExactly(Map.entry("unified/" + base, "2/0/0"));
            }
            admin.assertConserved();
        }
        assertThat(filled + cancelled).isEqualTo(2 * ROUNDS);
        Proof.print("order races " + kind + " (" + f.name() + "): 64 cancels vs a fill of one resting order, " + 2 * ROUNDS + " rounds (ticker sweep, taker): "
                + filled + " filled (every cancel " + f.notFound() + "), " + cancelled + " cancelled (exactly one cancel ok, no fill), balances as computed, conserved (seed " + seed + ")");
    }
}
