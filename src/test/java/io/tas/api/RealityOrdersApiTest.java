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
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static io.tas.store.generated.Tables.SPOT_FILL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10 items 1-2: §4.7 Reality orders, on H2 and PostgreSQL, orders of the matching engine (D223): they rest in the
 * pair's one SPOT book, walk the synthetic levels (level 1 the ticker's best ask/bid with its size, then one level each 5
 * bps of the best price further out, rounded away from the middle to the pair's decimals, D155) and a crossing ticker
 * fills a resting one in full at its own price as the maker. Each test trades its own new Reality pair (the engine pool's
 * server is shared), with its own funded account. Amounts are hand-computed in the comments; fee rate 0.1% maker and
 * taker (D72).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RealityOrdersApiTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v3/trade/place-reality-order";
    private static final String CANCEL = "/api/v3/trade/cancel-reality-order";

    private String base;
    private String symbol;
    private long uid;
    private io.tas.support.Credentials creds;

    /** A new Reality pair (e.g. RLH3USDT, base RLH3) with the given best ask/bid (sizes 100), and a new funded account. */
    private ApiClient setUp(String ask, String bid, boolean allowListed, String... coinAmounts) {
        int n = NAMES.incrementAndGet();
        base = "RL" + kind.name().charAt(0) + n;
        symbol = base + "USDT";
        ok(admin.post("/admin/v1/instruments", instrument() + ",\"reality\":true}"));
        ticker(ask, "100", bid, "100");
        return account("reality-" + kind + "-" + n, allowListed, coinAmounts);
    }

    /** Another account on the test's pair (uid is its UID afterwards); the coin "BASE" stands for the pair's base coin. */
    private ApiClient account(String name, boolean allowListed, String... coinAmounts) {
        String[] coins = coinAmounts.clone();
        for (int i = 0; i < coins.length; i += 2) if (coins[i].equals("BASE")) coins[i] = base;
        creds = admin.fundedAccount(name, coins);
        ApiClient c = server.client(creds);
        uid = admin.lastUid;
        if (allowListed) ok(admin.post("/admin/v1/accounts/" + uid + "/reality-allow-list", "{\"allowed\":true}"));
        return c;
    }

    /** The test pair's instrument, without its closing brace. */
    private String instrument() {
        return "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDT\"";
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

    /** D223: one account's resting Reality order is the maker of another's Reality market order, ahead of the synthetic levels. */
    @Test
    void aRealityMarketBuyOfOneAccountFillsAnotherAccountsRestingRealitySellFirst() {
        ApiClient maker = setUp("200.5", "200.25", true, "BASE", "3");
        long makerUid = uid;
        // A sells 3 at 200.4, between the bid and the ask: it rests, the best ask of the book, 3 base frozen.
        String sell = maker.post(PLACE, order(symbol, "sell", "limit", "3", "200.4", null)).data().get("orderId").asText();
        assertThat(admin.balances(makerUid)).containsEntry("unified/" + base, "0/3/0");

        // B buys at market for 1000 USDT: 3 at 200.4 from A = 601.2 (398.8 left), then the synthetic ask 200.5:
        // floor4(398.8 / 200.5 = 1.98902...) = 1.989 = 398.7945 (0.0055 left, which buys nothing at 200.61).
        // B's taker fees 3 x 0.001 + 1.989 x 0.001 = 0.004989 base: base 4.989 - 0.004989 = 4.984011, USDT 0.0055.
        // A, the maker: USDT 601.2 - 0.6012 fee = 600.5988, base 0.
        ApiClient taker = account("reality-taker-" + kind, true, "USDT", "1000");
        String buy = taker.post(PLACE, order(symbol, "buy", "market", "1000", null, null)).data().get("orderId").asText();
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "0.0055/0/0").containsEntry("unified/" + base, "4.984011/0/0");
        assertThat(admin.balances(makerUid)).isEqualTo(Map.of("unified/USDT", "600.5988/0/0")); // no base left
        assertThat(orderRow(buy).get("filledAmount").asText()).isEqualTo("999.9945");
        JsonNode makerFill = maker.get("/api/v3/trade/fills?category=SPOT&orderId=" + sell).data().get("list").get(0);
        assertThat(List.of(makerFill.get("execPrice").asText(), makerFill.get("execQty").asText(), makerFill.get("tradeScope").asText()))
                .containsExactly("200.4", "3", "maker");
        admin.assertConserved();
    }

    /** D223: a Reality order is a SPOT order of the v3 order rows; the engine's own cancel-order cancels it too. */
    @Test
    void aRealityOrderIsListedByTheV3OrderRowsAsTheSpotOrderItIs() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");
        // Limit buy 2 at 150: it rests, 300 USDT frozen.
        String id = c.post(PLACE, order(symbol, "buy", "limit", "2", "150", "v3-1")).data().get("orderId").asText();
        JsonNode info = c.get("/api/v3/trade/order-info?orderId=" + id).data();
        assertThat(List.of(info.get("category").asText(), info.get("symbol").asText(), info.get("orderStatus").asText(), info.get("price").asText(),
                info.get("qty").asText(), info.get("timeInForce").asText(), info.get("clientOid").asText()))
                .containsExactly("SPOT", symbol, "live", "150", "2", "gtc", "v3-1");
        JsonNode open = c.get("/api/v3/trade/unfilled-orders?category=SPOT&symbol=" + symbol).data().get("list");
        assertThat(open).hasSize(1);
        assertThat(open.get(0).get("orderId").asText()).isEqualTo(id);
        // One clientOid per account across both rows: the v3 row's replay check calls it another order (25212).
        assertError(c.post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol
                + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"2\",\"price\":\"150\",\"clientOid\":\"v3-1\"}"), "25212");

        // The v3 cancel-order cancels it (an engine order): the 300 comes back.
        ok(c.post("/api/v3/trade/cancel-order", "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + id + "\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        assertThat(c.get("/api/v3/trade/history-orders?category=SPOT").data().get("list").get(0).get("orderStatus").asText()).isEqualTo("cancelled");

        // A plain spot order is not a Reality order: cancel-reality-order does not find it (40034), and its clientOid
        // sent to place-reality-order is another order's (40017).
        String plainId = c.post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol
                + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"100\",\"clientOid\":\"plain-1\"}").data().get("orderId").asText();
        assertError(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + plainId + "\"}"), "40034");
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1", "100", "plain-1")), "40017");
        ok(c.post("/api/v3/trade/cancel-order", "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + plainId + "\"}"));
        assertThat(admin.get("/admin/v1/accounts/" + uid + "/reality-orders").data()).hasSize(1);
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        admin.assertConserved();
    }

    /** §4.7: a Reality pair is for allow-listed UIDs on the engine's own rows too (D223): the allow-list is not bypassed. */
    @Test
    void theV3OrderRowsKeepTheAllowListOnARealityPair() {
        ApiClient c = setUp("200.5", "200.25", false, "USDT", "1000");
        String v3 = "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"2\",\"price\":\"150\"}";
        assertError(c.post("/api/v3/trade/place-order", v3), "40014");
        // A batch line on the pair fails alone with the same code.
        Reply batch = c.post("/api/v3/trade/place-batch", "[" + v3 + "]");
        ok(batch);
        assertThat(batch.data().get(0).get("code").asText()).isEqualTo("40014");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        // Allow-listed, the same order rests: 2 x 150 = 300 USDT frozen.
        ok(admin.post("/admin/v1/accounts/" + uid + "/reality-allow-list", "{\"allowed\":true}"));
        ok(c.post("/api/v3/trade/place-order", v3));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "700/300/0");
        admin.assertConserved();
    }

    /** D223: a Reality order is pushed on the order and fill channels as every engine order, after its commit. */
    @Test
    void aRealityOrderItsFillAndACancelArePushed() throws Exception {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");
        try (io.tas.support.StreamClient ws = new io.tas.support.StreamClient(server.baseUrl(), "/v3/ws/private")) {
            ws.login(creds, server.clock.millis(), null);
            ws.next(n -> "login".equals(n.path("event").asText()));
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"order\"},{\"instType\":\"UTA\",\"topic\":\"fill\"}],\"uta\":true}");
            ws.next(n -> "subscribe".equals(n.path("event").asText()) && "fill".equals(n.path("arg").path("topic").asText()));
            // Limit buy 1 at 200 rests (200 frozen); the ask falls to 199.9: it fills as the maker at 200.
            String id = c.post(PLACE, order(symbol, "buy", "limit", "1", "200", null)).data().get("orderId").asText();
            JsonNode live = ws.next(n -> pushed(n, "order", id, "live"));
            assertThat(live.path("data").path(0).path("category").asText()).isEqualTo("spot");
            ticker("199.9", "100", "199.8", "100");
            ws.next(n -> pushed(n, "order", id, "filled"));
            JsonNode fill = ws.next(n -> "fill".equals(n.path("arg").path("topic").asText()) && n.has("data")).path("data").path(0);
            assertThat(List.of(fill.path("orderId").asText(), fill.path("tradeScope").asText(), fill.path("execPrice").asText()))
                    .containsExactly(id, "maker", "200");
            // A sell of 0.5 at 300 rests and is cancelled through the Reality row.
            String sell = c.post(PLACE, order(symbol, "sell", "limit", "0.5", "300", null)).data().get("orderId").asText();
            ok(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + sell + "\"}"));
            ws.next(n -> pushed(n, "order", sell, "cancelled"));
        }
        admin.assertConserved();
    }

    private static boolean pushed(JsonNode n, String topic, String orderId, String status) {
        JsonNode o = n.path("data").path(0);
        return topic.equals(n.path("arg").path("topic").asText()) && orderId.equals(o.path("orderId").asText()) && status.equals(o.path("orderStatus").asText());
    }

    /** D155/D223: a Reality market buy walks the synthetic levels, each the ticker's level-1 size. */
    @Test
    void aRealityMarketBuyWalksTwoSyntheticLevels() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");
        ticker("200.5", "2", "200.25", "2");
        // Levels of 2: 200.5; 200.5 + 200.5 x 0.0005 = 200.60025 -> up to 2 decimals 200.61; then 200.7005 -> 200.71.
        // Budget 700: 2 at 200.5 = 401 (299 left); floor4(299 / 200.61 = 1.49045...) = 1.4904 at 200.61 = 298.989144
        // (0.010856 left, nothing at 200.71). Base 3.4904, taker fees 0.002 + 0.0014904 = 0.0034904 base.
        // USDT 1000 - 401 - 298.989144 = 300.010856; base 3.4904 - 0.0034904 = 3.4869096.
        String buy = c.post(PLACE, order(symbol, "buy", "market", "700", null, null)).data().get("orderId").asText();
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "300.010856/0/0").containsEntry("unified/" + base, "3.4869096/0/0");
        List<SpotFillRecord> fills = fills();
        assertThat(fills).hasSize(2);
        assertThat(fills.stream().map(f -> plain(f.getPriceAvg()) + " x " + plain(f.getSize())).toList()).containsExactly("200.5 x 2", "200.61 x 1.4904");
        JsonNode row = orderRow(buy);
        assertThat(List.of(row.get("status").asText(), row.get("filledQty").asText(), row.get("filledAmount").asText()))
                .containsExactly("filled", "3.4904", "699.989144");
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

        // The ask 149.5 with a size of 1.25 (1 decimal now). Limit buy 3 at 149.5 freezes 448.5 and takes level 1 as
        // the taker: 1.25 at 149.5 = 186.875 USDT, fee 0.00125 base; level 2 (149.5 + 0.07475 -> up to 149.6) is above
        // its limit, so 1.75 rests, 448.5 - 186.875 = 261.625 still frozen. Cancel by orderId (it wins over a wrong
        // clientOid): the 261.625 comes back. USDT 1000 - 186.875 = 813.125; base 1.25 - 0.00125 = 1.24875.
        ticker("149.5", "1.25", "149", "100");
        Reply b = c.post(PLACE, order(symbol, "buy", "limit", "3", "149.5", "b-1"));
        ok(b);
        String bId = b.data().get("orderId").asText();
        assertThat(orderRow(bId).get("status").asText()).isEqualTo("partially_filled");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "551.5/261.625/0").containsEntry("unified/" + base, "1.24875/0/0");
        ok(c.post(CANCEL, "{\"symbol\":\"" + symbol + "\",\"orderId\":\"" + bId + "\",\"clientOid\":\"no-such\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "813.125/0/0").containsEntry("unified/" + base, "1.24875/0/0");
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

    /** 32 clients x 10 sends of one clientOid: one order, one orderId, one freeze (the race body: Races.clientOidReplay). */
    @Test
    void clientOidReplayRaceGivesOneOrder() throws Exception {
        try (TestServer own = TestServer.start(kind, new MutableClock(System.currentTimeMillis()), false)) {
            io.tas.support.Proof.print(io.tas.proof.Races.clientOidReplay(List.of(own), 32, 10).proof(kind + " 1 node"));
        }
    }

    // --- review fixes (D81-D83 updates)

    private static String cancelBody(String symbol, String idField, String id) {
        return "{" + (symbol == null ? "" : "\"symbol\":\"" + symbol + "\",") + "\"" + idField + "\":\"" + id + "\"}";
    }

    /** Item 1: cancel finds the order by account and id, uses its own symbol, and needs neither the allow-list nor the flag. */
    @Test
    void aWorkingOrderStaysCancellableAfterItsPairLosesTheFlagAndTheAccountLeavesTheAllowList() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");
        String a = c.post(PLACE, order(symbol, "buy", "limit", "1", "100", "k-1")).data().get("orderId").asText();
        ok(c.post(PLACE, order(symbol, "buy", "limit", "2", "100", "k-2")));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "700/300/0");
        // Re-posting the instrument without "reality" keeps the flag: placing still works.
        ok(admin.post("/admin/v1/instruments", instrument() + "}"));
        Reply d = c.post(PLACE, order(symbol, "buy", "limit", "1", "100", null));
        ok(d);
        ok(c.post(CANCEL, cancelBody(symbol, "orderId", d.data().get("orderId").asText())));

        // The flag taken away explicitly and the account off the allow-list: placing is refused, cancelling is not.
        ok(admin.post("/admin/v1/instruments", instrument() + ",\"reality\":false}"));
        ok(admin.post("/admin/v1/accounts/" + uid + "/reality-allow-list", "{\"allowed\":false}"));
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1", "100", null)), "40014");
        Map<String, String> before = admin.balances(uid);
        assertThat(before).containsEntry("unified/USDT", "700/300/0");
        // The symbol is required and must be the order's.
        assertError(c.post(CANCEL, cancelBody("BTCUSDT", "orderId", a)), "40034");
        assertError(c.post(CANCEL, cancelBody("NOPEUSDT", "clientOid", "k-2")), "40034");
        assertError(c.post(CANCEL, cancelBody(null, "orderId", a)), "40019", "Parameter symbol cannot be empty");
        assertThat(admin.balances(uid)).isEqualTo(before);

        ok(c.post(CANCEL, cancelBody(symbol, "orderId", a)));
        ok(c.post(CANCEL, cancelBody(symbol, "clientOid", "k-2")));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        assertThat(orderRow(a).get("status").asText()).isEqualTo("cancelled");
        admin.assertConserved();
    }

    /**
     * Item 2: a ticker of 16 decimals; prices are validated at 14 (40808, nothing changes). D223: a taker fill at the
     * 16-decimal ask is worth an amount of 20 decimals, rounded half-even to the ledger's 18, as every engine fill is.
     */
    @Test
    void tickerPricesOfSixteenDecimalsNeverReachTheLedgerUnrounded() {
        ApiClient c = setUp("200.1234567890123456", "200.1234567890123455", true, "USDT", "1000", "BASE", "10");
        Map<String, String> before = admin.balances(uid);
        // 16 decimals are more than the 14 Reality prices may have (D82): 40808.
        assertError(c.post(PLACE, order(symbol, "sell", "limit", "1.2345", "300.1234567890123456", null)), "40808");
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1", "100.123456789012345", null)), "40808");
        assertThat(admin.balances(uid)).isEqualTo(before);
        assertThat(fills()).isEmpty();

        // Market buy of 100 USDT: floor4(100 / 200.1234567890123456 = 0.49969...) = 0.4996 at the ask, amount
        // 99.98167901179056786176 -> 99.981679011790567862 (18 decimals, half-even); the 0.0183... left buys nothing at
        // level 2 (about 200.22). Taker fee 0.4996 x 0.001 = 0.0004996 base.
        // USDT 1000 - 99.981679011790567862 = 900.018320988209432138; base 10 + 0.4996 - 0.0004996 = 10.4991004.
        ok(c.post(PLACE, order(symbol, "buy", "market", "100", null, null)));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "900.018320988209432138/0/0")
                .containsEntry("unified/" + base, "10.4991004/0/0");

        // 14 decimals rest, and fill as the maker at their own price: 1.2345 x 210.12345678901234 = 259.397407406035733730
        // (18 decimals); fee 0.259397407406035733730 -> 0.259397407406035734 (18, half-even).
        // USDT 900.018320988209432138 + 259.39740740603573373 - 0.259397407406035734 = 1159.156330986839130134.
        Reply sell = c.post(PLACE, order(symbol, "sell", "limit", "1.2345", "210.12345678901234", null));
        ok(sell);
        ticker("210.2000000000000001", "100", "210.1300000000000001", "100");
        assertThat(orderRow(sell.data().get("orderId").asText()).get("status").asText()).isEqualTo("filled");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1159.156330986839130134/0/0")
                .containsEntry("unified/" + base, "9.2646004/0/0");
        admin.assertConserved();
    }

    /** Item 4 (D82): a market sell is worth qty x the best bid, in the quote coin, and needs the 1 USDT minimum. */
    @Test
    void aMarketSellNeedsTheMinimumValueAtTheBestBid() {
        ApiClient c = setUp("0.51", "0.5", true, "BASE", "10");
        Map<String, String> before = admin.balances(uid);
        // 1.9999 x 0.5 = 0.99995 USDT < 1.
        assertError(c.post(PLACE, order(symbol, "sell", "market", "1.9999", null, null)), "40017",
                "Parameter verification failed order value is below the minimum 1 USDT");
        assertThat(admin.balances(uid)).isEqualTo(before);
        // 2 x 0.5 = 1 USDT, taker fee 0.001 USDT.
        ok(c.post(PLACE, order(symbol, "sell", "market", "2", null, null)));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "0.999/0/0").containsEntry("unified/" + base, "8/0/0");
        admin.assertConserved();
    }

    /** Item 5: a retry of an accepted order replays even when the tickers' decimals have since shrunk. */
    @Test
    void aRetryReplaysBeforeTheDecimalsAreCheckedAgain() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");
        Reply first = c.post(PLACE, order(symbol, "buy", "limit", "1", "100.25", "retry-1"));
        ok(first);
        ticker("201.5", "100", "201", "100"); // 1 decimal now: 100.25 would be refused as a new order
        assertError(c.post(PLACE, order(symbol, "buy", "limit", "1", "100.25", null)), "40808");
        Reply again = c.post(PLACE, order(symbol, "buy", "limit", "1", "100.25", "retry-1"));
        ok(again);
        assertThat(again.data().get("orderId").asText()).isEqualTo(first.data().get("orderId").asText());
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "899.75/100.25/0");
        ok(c.post(CANCEL, cancelBody(symbol, "clientOid", "retry-1")));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        admin.assertConserved();
    }

    /** Item 5: the feed keeps the pair's decimals it started with, also after prices that strip to fewer. */
    @Test
    void thePriceFeedKeepsThePairsDecimals() {
        setUp("230.3", "230.1", false, "USDT", "1");
        // mid 230.2, half spread 0.1, last with 2 decimals: a step's prices all strip to 1 decimal when its last ends in 0.
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"230.25\",\"ask1Price\":\"230.3\","
                + "\"bid1Price\":\"230.1\",\"ask1Size\":\"100\",\"bid1Size\":\"100\"}"));
        int twoDecimals = 0;
        for (int i = 0; i < 60; i++) {
            server.app.priceFeed().step();
            BigDecimal last = server.app.database().read(dsl -> dsl.select(io.tas.store.generated.Tables.TICKER.LAST_PRICE)
                    .from(io.tas.store.generated.Tables.TICKER).where(io.tas.store.generated.Tables.TICKER.SYMBOL.eq(symbol),
                            io.tas.store.generated.Tables.TICKER.CATEGORY.eq("SPOT")).fetchOne().value1());
            if (last.stripTrailingZeros().scale() == 2) twoDecimals++;
        }
        // About 9 steps in 10 end in a non-zero second decimal; a walk that lost its decimals would keep at most 1.
        assertThat(twoDecimals).isGreaterThan(30);
    }

    /** Item 7: a constraint other than the clientOid key refuses the order (40017), never a 5xx, and writes nothing. */
    @Test
    void anotherDatabaseConstraintIsA4xxNotA5xx() {
        ApiClient c = setUp("200.5", "200.25", true, "USDT", "1000");
        Map<String, String> before = admin.balances(uid);
        String name = "reality_test_qty_" + kind.name().toLowerCase();
        server.app.database().tx(tx -> tx.dsl().execute("alter table trade_order add constraint " + name + " check (qty <> 7.7777)"));
        try {
            assertError(c.post(PLACE, order(symbol, "buy", "limit", "7.7777", "100", null)), "40017");
            assertError(c.post(PLACE, order(symbol, "buy", "limit", "7.7777", "100", "cons-1")), "40017");
        } finally {
            server.app.database().tx(tx -> tx.dsl().execute("alter table trade_order drop constraint " + name));
        }
        assertThat(admin.balances(uid)).isEqualTo(before);
        assertThat(admin.get("/admin/v1/accounts/" + uid + "/reality-orders").data()).isEmpty();
        admin.assertConserved();
    }

    /**
     * Item 8: a platform-token fee that rounds to 0 is no deduction. D223: a MARGIN order is the SPOT order it trades (D82):
     * its fills and its order row are SPOT, and a SPOT send of the same payload under its clientOid replays it.
     */
    @Test
    void aTokenFeeOfZeroFallsBackAndAMarginOrderIsTheSpotOrderItTrades() {
        try (TestServer own = TestServer.start(kind, new MutableClock(System.currentTimeMillis()), false)) {
            Admin ownAdmin = new Admin(own);
            // BGB at 10^15 USDT: the fee of 200 USDT, 200 x 0.001 x 0.8 / 10^15 = 1.6e-16 BGB, is 0 at 12 decimals.
            ok(ownAdmin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"BGBUSDT\",\"lastPrice\":\"1000000000000000\"}"));
            ok(ownAdmin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"AAPLXUSDT\",\"lastPrice\":\"99.5\",\"ask1Price\":\"100\","
                    + "\"bid1Price\":\"99.5\",\"ask1Size\":\"100\",\"bid1Size\":\"100\"}"));
            ApiClient c = own.client(ownAdmin.fundedAccount("token-zero-" + kind, "USDT", "1000", "BGB", "1"));
            long ownUid = ownAdmin.lastUid;
            ok(ownAdmin.post("/admin/v1/accounts/" + ownUid + "/reality-allow-list", "{\"allowed\":true}"));
            ok(c.post("/api/v3/account/switch-deduct", "{\"deduct\":\"on\"}"));
            ok(c.post(PLACE, order("AAPLXUSDT", "buy", "limit", "2", "101", null)));
            // The fee is taken from the base coin received: 2 x 0.001 = 0.002; BGB untouched.
            assertThat(ownAdmin.balances(ownUid)).containsEntry("unified/USDT", "800/0/0").containsEntry("unified/AAPLX", "1.998/0/0")
                    .containsEntry("unified/BGB", "1/0/0");
            String margin = "{\"category\":\"MARGIN\",\"symbol\":\"AAPLXUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"101\","
                    + "\"clientOid\":\"m-1\"}";
            Reply m = c.post(PLACE, margin);
            ok(m);
            Reply spotReplay = c.post(PLACE, margin.replace("MARGIN", "SPOT"));
            ok(spotReplay);
            assertThat(spotReplay.data().get("orderId").asText()).isEqualTo(m.data().get("orderId").asText());
            assertThat(c.get("/api/v3/trade/order-info?orderId=" + m.data().get("orderId").asText()).data().get("category").asText()).isEqualTo("SPOT");
            List<SpotFillRecord> fills = own.app.database().read(dsl -> dsl.selectFrom(SPOT_FILL).where(SPOT_FILL.UID.eq(ownUid))
                    .orderBy(SPOT_FILL.TRADE_ID).fetch());
            assertThat(fills).hasSize(2);
            assertThat(List.of(fills.get(0).getDeduction(), fills.get(0).getFeeCoin(), plain(fills.get(0).getTotalFee()), fills.get(0).getCategory()))
                    .containsExactly("no", "AAPLX", "-0.002", "SPOT");
            assertThat(fills.get(1).getCategory()).isEqualTo("SPOT");
            ownAdmin.assertConserved();
        }
    }
}
