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
 * another account's taker) end in exactly one outcome, with the balances computed by hand for it. Each race trades
 * instruments of its own on a server of its own with rate limits off (320 placements from one UID in a second would
 * meet the place-order limit on the shared servers).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class OrderRaceTest {
    private static final Map<Databases.Kind, TestServer> SERVERS = new EnumMap<>(Databases.Kind.class);
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v3/trade/place-order";
    private static final String CANCEL = "/api/v3/trade/cancel-order";
    private static final String INFO = "/api/v3/trade/order-info?orderId=";
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

    private static Sends sendAtOnce(ApiClient c, String body, int threads, int each) throws Exception {
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
                        Reply r = c.post(PLACE, body);
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
        TestServer s = server();
        Admin admin = new Admin(s);
        String base = newSpot(admin), symbol = base + "USDT";
        ApiClient c = s.client(admin.fundedAccount("oid-race-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "1000"));
        long uid = admin.lastUid;

        // A limit buy of 1 at 90 rests below the ask 100.01 and freezes 90 USDT: 32 clients x 10 sends of it.
        Sends resting = sendAtOnce(c, order(symbol, "buy", "1", "90", "gtc", "race-rest"), 32, 10);
        // A marketable IOC buy of 1 at 100.01 takes the synthetic ask: 100.01 USDT for 1 base less a taker fee of 0.001.
        Sends taking = sendAtOnce(c, order(symbol, "buy", "1", "100.01", "ioc", "race-take"), 32, 10);

        for (Sends x : List.of(resting, taking)) {
            // Every answer is the one order, or a clean refusal (HTTP 400, never a server failure).
            assertThat(x.orderIds()).as("orderIds answered %s", x.codes()).hasSize(1);
            assertThat(x.codes()).as("codes").doesNotContainKey("40015");
            x.refusals().forEach(r -> assertThat(r).startsWith("400 "));
        }
        String restId = resting.orderIds().iterator().next(), takeId = taking.orderIds().iterator().next();
        JsonNode open = c.get("/api/v3/trade/unfilled-orders?category=SPOT&symbol=" + symbol).data().get("list");
        assertThat(open).hasSize(1);
        assertThat(open.get(0).get("orderId").asText()).isEqualTo(restId);
        JsonNode done = c.get("/api/v3/trade/history-orders?category=SPOT&symbol=" + symbol).data().get("list");
        assertThat(done).hasSize(1);
        assertThat(done.get(0).get("orderId").asText()).isEqualTo(takeId);
        assertThat(done.get(0).get("cumExecQty").asText()).isEqualTo("1");
        JsonNode fills = c.get("/api/v3/trade/fills?category=SPOT").data().get("list");
        assertThat(fills).as("one fill, of the IOC order").hasSize(1);
        assertThat(fills.get(0).get("orderId").asText()).isEqualTo(takeId);
        // 1000 - 90 frozen - 100.01 spent = 809.99; base 1 - 0.001 = 0.999.
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "809.99/90/0").containsEntry("unified/" + base, "0.999/0/0").hasSize(2);
        admin.assertConserved();
        Proof.print("order races " + kind + ": one clientOid x 320 sends (32 clients x 10), twice (resting, taking): 1 orderId each, "
                + "answers " + resting.codes() + " and " + taking.codes() + ", 1 order each, one freeze (90), one fill (1 at 100.01), conserved");
    }

    @Test
    void sixtyFourCancelsRacingATickerSweepOrATakerEndInExactlyOneOutcome() throws Exception {
        TestServer s = server();
        Admin admin = new Admin(s);
        long seed = Long.getLong("proof.seed", System.nanoTime());
        Random random = new Random(seed);
        int filled = 0, cancelled = 0;
        for (int round = 0; round < 2 * ROUNDS; round++) {
            boolean byTicker = round % 2 == 0;
            String base = newSpot(admin), symbol = base + "USDT";
            Credentials buyerKey = admin.fundedAccount("cancel-race-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "1000");
            long buyer = admin.lastUid;
            ApiClient buyerClient = s.client(buyerKey);
            ApiClient seller = s.client(admin.fundedAccount("cancel-race-seller-" + kind + "-" + NAMES.incrementAndGet(), base, "2"));
            long sellerUid = admin.lastUid;
            // The resting order: buy 2 at 100, below the ask 100.01: 200 USDT frozen.
            Reply placed = buyerClient.post(PLACE, order(symbol, "buy", "2", "100", "gtc", null));
            ok(placed);
            String orderId = placed.data().get("orderId").asText();
            assertThat(admin.balances(buyer)).containsEntry("unified/USDT", "800/200/0");

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
                        return buyerClient.post(CANCEL, "{\"orderId\":\"" + orderId + "\"}");
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
                for (Future<Reply> f : cancels) f.get(60, TimeUnit.SECONDS);
                ok(fill.get(60, TimeUnit.SECONDS));
            } finally {
                pool.shutdownNow();
            }
            Map<String, Integer> codes = new TreeMap<>();
            for (Future<Reply> f : cancels) {
                Reply r = f.get();
                codes.merge(r.code(), 1, Integer::sum);
                if (r.code().equals("00000")) assertThat(r.data().get("orderId").asText()).isEqualTo(orderId);
            }
            String at = "round " + round + " (" + (byTicker ? "ticker" : "taker") + ", " + (cancelsLate ? "cancels" : "fill") + " " + delayMicros
                    + " us late, seed " + seed + "): cancels " + codes;
            assertThat(codes.keySet()).as(at).isSubsetOf("00000", "25204");
            JsonNode o = buyerClient.get(INFO + orderId).data();
            String status = o.get("orderStatus").asText();
            JsonNode fills = buyerClient.get("/api/v3/trade/fills?category=SPOT&orderId=" + orderId).data().get("list");
            Map<String, String> buyerBalances = admin.balances(buyer), sellerBalances = admin.balances(sellerUid);
            if (status.equals("filled")) {
                filled++;
                // Filled first: every cancel found no working order.
                assertThat(codes).as(at).containsExactly(Map.entry("25204", 64));
                assertThat(o.get("cumExecQty").asText()).isEqualTo("2");
                assertThat(fills).as(at).hasSize(1);
                assertThat(fills.get(0).get("execQty").asText()).isEqualTo("2");
                assertThat(fills.get(0).get("execPrice").asText()).isEqualTo("100");
                // The buyer paid 200 from the freeze and got 2 less the maker fee 0.002.
                assertThat(buyerBalances).as(at).containsEntry("unified/USDT", "800/0/0").containsEntry("unified/" + base, "1.998/0/0").hasSize(2);
                // The taker seller got 200 less the taker fee 0.2; the ticker round leaves the seller's 2 untouched.
                if (byTicker) assertThat(sellerBalances).as(at).containsExactly(Map.entry("unified/" + base, "2/0/0"));
                else assertThat(sellerBalances).as(at).containsExactly(Map.entry("unified/USDT", "199.8/0/0"));
            } else {
                cancelled++;
                assertThat(status).as(at).isEqualTo("cancelled");
                // Cancelled first: one cancel succeeded, the other 63 found no working order; nothing filled.
                assertThat(codes).as(at).containsExactly(Map.entry("00000", 1), Map.entry("25204", 63));
                assertThat(o.get("cumExecQty").asText()).isEqualTo("0");
                assertThat(fills).as(at).isEmpty();
                // The freeze released once: 1000 again, nothing frozen. The seller's IOC found nothing and was cancelled.
                assertThat(buyerBalances).as(at).containsExactly(Map.entry("unified/USDT", "1000/0/0"));
                assertThat(sellerBalances).as(at).containsExactly(Map.entry("unified/" + base, "2/0/0"));
            }
            admin.assertConserved();
        }
        assertThat(filled + cancelled).isEqualTo(2 * ROUNDS);
        Proof.print("order races " + kind + ": 64 cancels vs a fill of one resting order, " + 2 * ROUNDS + " rounds (ticker sweep, taker): "
                + filled + " filled (every cancel 25204), " + cancelled + " cancelled (exactly one cancel ok, no fill), balances as computed, conserved (seed " + seed + ")");
    }
}
