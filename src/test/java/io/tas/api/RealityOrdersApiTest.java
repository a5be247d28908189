package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.store.generated.tables.records.SpotFillRecord;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static io.tas.store.generated.Tables.SPOT_FILL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10 items 1-2: §4.7 Reality orders with simulated execution, on H2 and PostgreSQL, on the demo Reality pair
 * AAPLXUSDT, each test with its own funded account and its own tickers. Amounts are hand-computed in the comments; fee
 * rate 0.1% maker and taker (D72).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RealityOrdersApiTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v3/trade/place-reality-order";
    private static final String CANCEL = "/api/v3/trade/cancel-reality-order";

    private String base;
    private String symbol;
    private long uid;

    /**
     * The demo's Reality pair AAPLXUSDT with the given best ask/bid (sizes 100), and a new account holding the balances.
     * The pair is shared (the registry of the shared server is read by other tests), so every test leaves no working
     * order behind: a later ticker update would fill it.
     */
    private ApiClient setUp(String ask, String bid, boolean allowListed, String... coinAmounts) {
        int n = NAMES.incrementAndGet();
        base = "AAPLX";
        symbol = "AAPLXUSDT";
        ticker(ask, "100", bid, "100");
        ApiClient c = server.client(admin.fundedAccount("reality-" + kind + "-" + n, coinAmounts));
        uid = admin.lastUid;
        if (allowListed) ok(admin.post("/admin/v1/accounts/" + uid + "/reality-allow-list", "{\"allowed\":true}"));
        return c;
    }

    private void ticker(String ask, String askSize, String bid, String bidSize) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"" + bid
                + "\",\"ask1Price\":\"" + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"" + askSize + "\",\"bid1Size\":\"" + bidSize + "\"}"));
    }

    private static String order(String symbol, String side, String type, String qty, String price, String clientOid) {
        return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"orderType\":\"" + type + "\",\"qty\":\"" + qty + "\""
                + (price == null ? "" : ",\"price\":\"" + price + "\"") + (clientOid == null ? "" : ",\"clientOid\":\"" + clientOid + "\"") + "}";
    }

    private JsonNode orderRow(String orderId) {
        for (JsonNode o : admin.get("/admin/v1/accounts/" + uid + "/reality-orders").data()) {
            if (o.get("orderId").asText().equals(orderId)) return o;
        }
        throw new AssertionError("no order " + orderId);
    }

    private List<SpotFillRecord> fills() {
        return server.app.database().read(dsl -> dsl.selectFrom(SPOT_FILL).where(SPOT_FILL.UID.eq(uid)).orderBy(SPOT_FILL.TRADE_ID).fetch());
    }

    private static String plain(BigDecimal v) { return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString(); }

    @Test
    void marketBuyWithQuoteQtyThenRestingLimitSellFilledByATickerUpdate() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "5000");

        // Market buy, qty 1000 USDT (quote), at the ask 200.5: base = floor4(1000 / 200.5 = 4.98753...) = 4.9875,
        // amount = 4.9875 x 200.5 = 999.99375, taker fee = 4.9875 x 0.001 = 0.0049875 base; the unused 0.00625 USDT of
        // the freeze goes back. USDT 5000 - 999.99375 = 4000.00625; base 4.9875 - 0.0049875 = 4.9825125.
        Reply buy = c.post(PLACE, order(symbol, "buy", "market", "1000", null, null));
        ok(buy);
        String buyId = buy.data().get("orderId").asText();
        assertThat(buy.data().get("clientOid").asText()).isEmpty();
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "4000.00625/0/0").containsEntry("unified/" + base, "4.9825125/0/0");
        assertThat(orderRow(buyId).get("status").asText()).isEqualTo("filled");
        assertThat(orderRow(buyId).get("frozen").asText()).isEqualTo("0");

        // Limit sell 4 at 210, above the bid 200.25: it rests, 4 base frozen.
        Reply sell = c.post(PLACE, order(symbol, "sell", "limit", "4", "210", "sell-1"));
        ok(sell);
        String sellId = sell.data().get("orderId").asText();
        assertThat(sell.data().get("clientOid").asText()).isEqualTo("sell-1");
        assertThat(orderRow(sellId).get("status").asText()).isEqualTo("live");
        assertThat(admin.balances(uid)).containsEntry("unified/" + base, "0.9825125/4/0").containsEntry("unified/USDT", "4000.00625/0/0");

        // A bid below the limit changes nothing; the bid 210.5 crosses it: it fills as the maker at its price 210:
        // amount 4 x 210 = 840, maker fee 840 x 0.001 = 0.84 USDT. USDT 4000.00625 + 840 - 0.84 = 4839.16625.
        ticker("210.2", "100", "209.99", "100");
        assertThat(orderRow(sellId).get("status").asText()).isEqualTo("live");
        ticker("210.6", "100", "210.5", "100");
        assertThat(orderRow(sellId).get("status").asText()).isEqualTo("filled");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "4839.16625/0/0").containsEntry("unified/" + base, "0.9825125/0/0");

        // §2.17 fills, in the same transactions as the ledger movements.
        List<SpotFillRecord> fills = fills();
        assertThat(fills).hasSize(2);
        SpotFillRecord f1 = fills.get(0);
        assertThat(f1.getOrderId()).isEqualTo(Long.parseLong(buyId));
        assertThat(List.of(f1.getSymbol(), f1.getOrderType(), f1.getSide(), f1.getTradeScope(), f1.getDeduction(), f1.getFeeCoin()))
                .containsExactly(symbol, "market", "buy", "taker", "no", base);
        assertThat(List.of(plain(f1.getPriceAvg()), plain(f1.getSize()), plain(f1.getAmount()), plain(f1.getTotalFee()), plain(f1.getTotalDeductionFee())))
                .containsExactly("200.5", "4.9875", "999.99375", "-0.0049875", "0");
        SpotFillRecord f2 = fills.get(1);
        assertThat(f2.getOrderId()).isEqualTo(Long.parseLong(sellId));
        assertThat(List.of(f2.getOrderType(), f2.getSide(), f2.getTradeScope(), f2.getDeduction(), f2.getFeeCoin()))
                .containsExactly("limit", "sell", "maker", "no", "USDT");
        assertThat(List.of(plain(f2.getPriceAvg()), plain(f2.getSize()), plain(f2.getAmount()), plain(f2.getTotalFee())))
                .containsExactly("210", "4", "840", "-0.84");

        // A filled order cannot be cancelled.
        assertError(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + sellId + "\"}"), "40017");
        admin.assertConserved();
    }

    @Test
    void withFeeDeductionOnTheFeeIsPaidInThePlatformTokenAndFallsBackToTheReceivedCoinWhenShort() {
        ApiClient c = setUp("100", "99.5", true, "USDT", "1000", "BGB", "0.03");
        ok(c.post("/api/v3/account/switch-deduct", "{\"deduct\":\"on\"}"));
        BigDecimal bgb = new BigDecimal(c.get("/api/v3/market/tickers?category=SPOT&symbol=BGBUSDT").data().get(0).get("lastPrice").asText());

        // Limit buy 2 at 101 crosses the ask 100 at once: a taker fill at 100, amount 200. Fee in BGB:
        // 200 x 0.001 x 0.8 / BGB price (0.0249 BGB at the demo's 6.4321), 12 decimals rounded down; the base coin is
        // received whole.
        Reply buy = c.post(PLACE, order(symbol, "buy", "limit", "2", "101", null));
        ok(buy);
        BigDecimal fee = new BigDecimal("200").multiply(new BigDecimal("0.0008")).divide(bgb, MathContext.DECIMAL128).setScale(12, RoundingMode.DOWN);
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "800/0/0").containsEntry("unified/" + base, "2/0/0")
                .containsEntry("unified/BGB", plain(new BigDecimal("0.03").subtract(fee)) + "/0/0");
        SpotFillRecord f = fills().getFirst();
        assertThat(List.of(f.getTradeScope(), f.getDeduction(), f.getFeeCoin(), plain(f.getTotalDeductionFee()), plain(f.getTotalFee())))
                .containsExactly("taker", "yes", "BGB", plain(fee.negate()), plain(fee.negate()));
        assertThat(orderRow(buy.data().get("orderId").asText()).get("status").asText()).isEqualTo("filled");

        // A market buy of 790 USDT would need a BGB fee of 790 x 0.0008 / price (0.098), more than the BGB left: the fee
        // falls back to the coin received: base 790 / 100 = 7.9, fee 0.0079 base; base 2 + 7.9 - 0.0079 = 9.8921.
        ok(c.post(PLACE, order(symbol, "buy", "market", "790", null, null)));
        BigDecimal bgbFee2 = new BigDecimal("790").multiply(new BigDecimal("0.0008")).divide(bgb, MathContext.DECIMAL128);
        assertThat(bgbFee2).isGreaterThan(new BigDecimal("0.03").subtract(fee)); // the premise: BGB is short
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "10/0/0").containsEntry("unified/" + base, "9.8921/0/0");
        SpotFillRecord f2 = fills().getLast();
        assertThat(List.of(f2.getDeduction(), f2.getFeeCoin(), plain(f2.getTotalFee()))).containsExactly("no", base, "-0.0079");
        admin.assertConserved();
    }

    @Test
    void placeThenCancelReleasesTheFrozenBalanceExactlyAlsoAfterAPartialFill() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");

        // Limit buy 2 at 100.25: rests, freezes 200.5 USDT. Cancel by clientOid: all of it comes back.
        Reply a = c.post(PLACE, order(symbol, "buy", "limit", "2", "100.25", "a-1"));
        ok(a);
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "799.5/200.5/0");
        Reply cancelled = c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"clientOid\":\"a-1\"}");
        ok(cancelled);
        assertThat(cancelled.data().get("orderId").asText()).isEqualTo(a.data().get("orderId").asText());
        assertThat(cancelled.data().get("clientOid").asText()).isEqualTo("a-1");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        assertThat(orderRow(a.data().get("orderId").asText()).get("status").asText()).isEqualTo("cancelled");
        // Not twice.
        assertError(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"clientOid\":\"a-1\"}"), "40017");

        // Limit buy 3 at 150 (freezes 450); an ask of 149.5 with size 1.25 fills 1.25 at 150 (187.5 USDT, maker fee
        // 0.00125 base): partially filled, 262.5 still frozen. Cancel by orderId (it wins over a wrong clientOid):
        // the 262.5 comes back. USDT 1000 - 187.5 = 812.5; base 1.25 - 0.00125 = 1.24875.
        Reply b = c.post(PLACE, order(symbol, "buy", "limit", "3", "150", "b-1"));
        ok(b);
        String bId = b.data().get("orderId").asText();
        ticker("149.5", "1.25", "149", "100");
        assertThat(orderRow(bId).get("status").asText()).isEqualTo("partially_filled");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "550/262.5/0").containsEntry("unified/" + base, "1.24875/0/0");
        ok(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + bId + "\",\"clientOid\":\"no-such\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "812.5/0/0").containsEntry("unified/" + base, "1.24875/0/0");
        JsonNode row = orderRow(bId);
        assertThat(List.of(row.get("status").asText(), row.get("filledQty").asText(), row.get("frozen").asText()))
                .containsExactly("cancelled", "1.25", "0");

        // Cancel without ids, with an unknown one, on another pair.
        assertError(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\"}"), "40019", "Parameter orderId or clientOid cannot be empty");
        assertError(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"orderId\":\"12345\"}"), "40034");
        admin.assertConserved();
    }

    @Test
    void refusalsChangeNothing() {
        ApiClient c = setUp("200.5", "200.25", false, "USDT", "1000", "BTC", "1");
        Map<String, String> before = admin.balances(uid);

        // Not on the allow-list (the catalog's guard): 40014, nothing frozen.
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1", "100", null)), "40014", "Incorrect permissions, need reality allow-list permissions");
        assertThat(admin.balances(uid)).isEqualTo(before);

        ok(admin.post("/admin/v1/accounts/" + uid + "/reality-allow-list", "{\"allowed\":true}"));
        // A pair that is not a Reality pair (BTCUSDT exists but is not flagged) and an unknown one: 25100.
        assertError(c.post(PLACE, order("BTCUSDT", "sell", "market", "0.5", null, null)), "25100", "Trading pair BTCUSDT does not exist");
        assertError(c.post(PLACE, order("NOPEUSDT", "buy", "limit", "1", "100", null)), "25100");
        // Insufficient balance (1000 USDT, 10 x 200 = 2000 needed), bad input.
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "10", "200", null)), "25202");
        assertError(c.post(PLACE, order(symbol, "sell", "limit", "1", "250", null)), "25202");
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1", null, null)), "40019", "Parameter price cannot be empty");
        assertError(c.post(PLACE, "{\"symbol\":\"" + symbol + "\",\"side\":\"buy\",\"orderType\":\"limit\"}"), "40019", "Parameter qty cannot be empty");
        assertError(c.post(PLACE, order(symbol, "hold", "limit", "1", "100", null)), "40020", "Parameter side error");
        assertError(c.post(PLACE, order(symbol, "buy", "stop", "1", "100", null)), "40020", "Parameter orderType error");
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "-1", "100", null)), "40020", "Parameter qty error");
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1.00001", "100", null)), "40808");
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1", "100.001", null)), "40808");
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "0.001", "100", null)), "40017");
        assertThat(admin.balances(uid)).isEqualTo(before);

        // The same clientOid with another payload: 40017, and the first order stays the only one.
        Reply first = c.post(PLACE, order(symbol, "buy", "limit", "1", "100", "same"));
        ok(first);
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "2", "100", "same")), "40017",
                "Parameter verification failed clientOid same was already used with different parameters");
        Reply again = c.post(PLACE, order(symbol, "buy", "limit", "1", "100.00", "same"));
        ok(again);
        assertThat(again.data().get("orderId").asText()).isEqualTo(first.data().get("orderId").asText());
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "900/100/0");
        ok(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"clientOid\":\"same\"}"));
        assertThat(admin.balances(uid)).isEqualTo(before);
        admin.assertConserved();
    }

    @Test
    void aWorkingOrderKeepsTheAccountUnifiedUntilItIsCancelled() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");
        Reply placed = c.post(PLACE, order(symbol, "buy", "limit", "1", "100", null));
        ok(placed);
        ok(c.post("/api/v3/account/switch", "{}"));
        runDueAfter(60_000);
        JsonNode failed = c.get("/api/v3/account/switch-status").data();
        assertThat(failed.get("status").asText()).isEqualTo("fail");
        assertThat(failed.get("reason").asText()).isEqualTo("the account has 1 working Reality order");
        assertThat(admin.balances(uid)).isEqualTo(Map.of("unified/USDT", "900/100/0"));

        ok(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + placed.data().get("orderId").asText() + "\"}"));
        io.tas.support.ServerPool.nextSecond(kind);
        ok(c.post("/api/v3/account/switch", "{}"));
        runDueAfter(60_000);
        assertThat(c.get("/api/v3/account/switch-status").data().get("status").asText()).isEqualTo("success");
        assertThat(admin.balances(uid)).isEqualTo(Map.of("spot/USDT", "1000/0/0"));
        admin.assertConserved();
    }

    private void runDueAfter(long ms) {
        ok(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":" + ms + "}"));
        ok(admin.post("/admin/v1/jobs/run-due", ""));
    }

    /** 32 threads x 10 sends of one clientOid: one order, one orderId, one freeze. A server of its own, without rate limits. */
    @Test
    void clientOidReplayRaceGivesOneOrder() throws Exception {
        try (TestServer own = TestServer.start(kind, new MutableClock(System.currentTimeMillis()), false)) {
            Admin ownAdmin = new Admin(own);
            String coin = "RACE" + kind.name().charAt(0) + NAMES.incrementAndGet();
            ok(ownAdmin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + coin + "USDT\",\"baseCoin\":\"" + coin
                    + "\",\"quoteCoin\":\"USDT\",\"reality\":true}"));
            ok(ownAdmin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + coin + "USDT\",\"lastPrice\":\"50\",\"ask1Price\":\"50.5\",\"bid1Price\":\"50\"}"));
            ApiClient c = own.client(ownAdmin.fundedAccount("race-" + kind, "USDT", "1000"));
            long raceUid = ownAdmin.lastUid;
            ok(ownAdmin.post("/admin/v1/accounts/" + raceUid + "/reality-allow-list", "{\"allowed\":true}"));
            String body = order(coin + "USDT", "buy", "limit", "3", "40", "race-1"); // rests: freezes 120 USDT

            Set<String> ids = ConcurrentHashMap.newKeySet();
            Set<String> codes = ConcurrentHashMap.newKeySet();
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(32);
            try {
                List<Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    done.add(pool.submit(() -> {
                        go.await();
                        for (int i = 0; i < 10; i++) {
                            Reply r = c.post(PLACE, body);
                            codes.add(r.code());
                            if (r.code().equals("00000")) ids.add(r.data().get("orderId").asText());
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : done) f.get();
            } finally {
                pool.shutdownNow();
            }
            assertThat(codes).containsExactly("00000");
            assertThat(ids).hasSize(1);
            JsonNode orders = ownAdmin.get("/admin/v1/accounts/" + raceUid + "/reality-orders").data();
            assertThat(orders).hasSize(1);
            assertThat(orders.get(0).get("orderId").asText()).isEqualTo(ids.iterator().next());
            assertThat(ownAdmin.balances(raceUid)).containsEntry("unified/USDT", "880/120/0");
            ownAdmin.assertConserved();
        }
    }
}
