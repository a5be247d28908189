package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25: the v3 order rows on the matching engine, on H2 and PostgreSQL. Each test trades its own new instruments
 * (the server is shared), so no other test's ticker or order touches its book. Every amount is computed by hand in
 * the comments: spot fees 0.1% maker and taker (D72), futures maker 0.02% and taker 0.06% (D156) unless a test sets the
 * instrument's own (D222), leverage 10 by default, synthetic levels 5 bps apart with the ticker's level-1 size (D155).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class TradingApiTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v3/trade/place-order";
    private static final String INFO = "/api/v3/trade/order-info?orderId=";
    private static final String INSTRUMENTS = "/admin/v1/instruments";

    private String spot;   // e.g. TA3USDT, base TA3
    private String base;
    private String perp;   // e.g. PA3USDT, USDT-FUTURES
    private String perpBase;
    private long uid;

    /** New instruments for this test, with tickers ask 100.01 / bid 99.99 (sizes as given), and a funded account. */
    private ApiClient setUp(String levelSize, String... coinAmounts) {
        int n = NAMES.incrementAndGet();
        String tag = kind.name().charAt(0) + "" + n;
        base = "TA" + tag;
        spot = base + "USDT";
        perpBase = "PA" + tag;
        perp = perpBase + "USDT";
        ok(admin.post(INSTRUMENTS, spotInstrument("")));
        ok(admin.post(INSTRUMENTS, perpInstrument("")));
        ticker("SPOT", spot, "100.01", "99.99", levelSize);
        ticker("USDT-FUTURES", perp, "100.01", "99.99", levelSize);
        ApiClient c = server.client(admin.fundedAccount("trade-" + kind + "-" + n, coinAmounts));
        uid = admin.lastUid;
        return c;
    }

    /** This test's spot pair as the admin instruments API takes it, with extra fields (",\"bookLevels\":3"). */
    private String spotInstrument(String extra) {
        return "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDT\"" + extra + "}";
    }

    /** This test's contract, leverage up to 50, one tier, with extra fields. */
    private String perpInstrument(String extra) {
        return "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\",\"baseCoin\":\"" + perpBase + "\",\"quoteCoin\":\"USDT\","
                + "\"marginCoin\":\"USDT\",\"maxLeverage\":\"50\",\"mmrTiers\":[{\"maxNotional\":\"1000000\",\"mmr\":\"0.005\"}]" + extra + "}";
    }

    private static String fees(String maker, String taker) {
        return ",\"makerFeeRate\":\"" + maker + "\",\"takerFeeRate\":\"" + taker + "\"";
    }

    private void ticker(String category, String symbol, String ask, String bid, String size) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"" + bid
                + "\",\"ask1Price\":\"" + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"" + size + "\",\"bid1Size\":\"" + size
                + "\",\"markPrice\":\"" + bid + "\",\"indexPrice\":\"" + bid + "\"}"));
    }

    private static String order(String category, String symbol, String side, String type, String qty, String price, String extra) {
        return "{\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"orderType\":\"" + type
                + "\",\"qty\":\"" + qty + "\"" + (price == null ? "" : ",\"price\":\"" + price + "\"") + (extra == null ? "" : "," + extra) + "}";
    }

    private static String id(Reply r) {
        ok(r);
        return r.data().get("orderId").asText();
    }

    @Test
    void aRestingLimitBuyFreezesItsCostAndFillsAsMakerWhenTheTickerCrossesIt() {
        ApiClient c = setUp("5", "USDT", "1000");
        // Limit buy 2 at 100, below the ask 100.01: it rests, 2 x 100 = 200 USDT frozen.
        String buy = id(c.post(PLACE, order("SPOT", spot, "buy", "limit", "2", "100", "\"timeInForce\":\"gtc\"")));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "800/200/0");
        JsonNode live = c.get(INFO + buy).data();
        assertThat(live.get("orderStatus").asText()).isEqualTo("live");
        assertThat(live.get("cumExecQty").asText()).isEqualTo("0");
        assertThat(live.get("reduceOnly").asText()).isEqualTo("NO");
        JsonNode open = c.get("/api/v3/trade/unfilled-orders?category=SPOT&symbol=" + spot).data();
        assertThat(open.get("list")).hasSize(1);
        // The book shows the resting bid ahead of the synthetic 99.99.
        JsonNode book = c.get("/api/v3/market/orderbook?category=SPOT&symbol=" + spot + "&limit=2").data();
        assertThat(book.get("b").toString()).isEqualTo("[[\"100\",\"2\"],[\"99.99\",\"5\"]]");
        assertThat(book.get("a").get(0).toString()).isEqualTo("[\"100.01\",\"5\"]");

        // The ask falls to 99.5: the order fills as the maker at its own price 100: 200 USDT, maker fee 2 x 0.001 = 0.002 base.
        ticker("SPOT", spot, "99.5", "99.4", "5");
        JsonNode filled = c.get(INFO + buy).data();
        assertThat(filled.get("orderStatus").asText()).isEqualTo("filled");
        assertThat(filled.get("cumExecQty").asText()).isEqualTo("2");
        assertThat(filled.get("cumExecValue").asText()).isEqualTo("200");
        assertThat(filled.get("avgPrice").asText()).isEqualTo("100");
        assertThat(filled.get("feeDetail").get(0).get("fee").asText()).isEqualTo("0.002");
        assertThat(filled.get("feeDetail").get(0).get("feeCoin").asText()).isEqualTo(base);
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "800/0/0").containsEntry("unified/" + base, "1.998/0/0");
        assertThat(c.get("/api/v3/trade/unfilled-orders?category=SPOT").data().get("list")).isEmpty();
        assertThat(c.get("/api/v3/trade/history-orders?category=SPOT").data().get("list").get(0).get("orderId").asText()).isEqualTo(buy);
        JsonNode fill = c.get("/api/v3/trade/fills?category=SPOT").data().get("list").get(0);
        assertThat(fill.get("orderId").asText()).isEqualTo(buy);
        assertThat(fill.get("tradeScope").asText()).isEqualTo("maker");
        admin.assertConserved();
    }

    @Test
    void aMarketBuyWithAQuoteBudgetWalksTheSyntheticLevels() {
        ApiClient c = setUp("1", "USDT", "1000");
        // Levels of 1: 100.01; 100.01 + 100.01 x 0.0005 = 100.060005 -> up to 2 decimals 100.07; then 100.11001 -> 100.12.
        // Budget 150: 1 at 100.01 (100.01 spent, 49.99 left); floor4(49.99 / 100.07) = 0.4995 at 100.07 = 49.984965;
        // 0.005035 left buys nothing at 100.12. Base 1.4995, taker fee 0.001 + 0.0004995 = 0.0014995 in base.
        String buy = id(c.post(PLACE, order("SPOT", spot, "buy", "market", "150", null, null)));
        JsonNode o = c.get(INFO + buy).data();
        assertThat(o.get("orderStatus").asText()).isEqualTo("filled");
        assertThat(o.get("cumExecQty").asText()).isEqualTo("1.4995");
        assertThat(o.get("cumExecValue").asText()).isEqualTo("149.994965");
        assertThat(o.get("feeDetail").get(0).get("fee").asText()).isEqualTo("0.0014995");
        // USDT 1000 - 149.994965 = 850.005035 (the unspent 0.005035 of the freeze back); base 1.4995 - 0.0014995 = 1.4980005.
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "850.005035/0/0").containsEntry("unified/" + base, "1.4980005/0/0");
        admin.assertConserved();
    }

    /** A seller whose sell of 1 base at 100 rests (above the bid 99.99, 1 base frozen), and a buyer with 1000 USDT. */
    private record Counterparties(ApiClient seller, long sellerUid, String sell, ApiClient buyer, long buyerUid) {}

    private Counterparties restingSellAt100() {
        ApiClient seller = setUp("5", "USDT", "10");
        long sellerUid = uid;
        ok(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + sellerUid + ",\"account\":\"unified\",\"coin\":\"" + base
                + "\",\"amount\":\"5\",\"ref\":\"seed-" + base + "\"}"));
        String sell = id(seller.post(PLACE, order("SPOT", spot, "sell", "limit", "1", "100", null)));
        assertThat(admin.balances(sellerUid)).containsEntry("unified/" + base, "4/1/0");
        ApiClient buyer = server.client(admin.fundedAccount("buyer-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "1000"));
        return new Counterparties(seller, sellerUid, sell, buyer, admin.lastUid);
    }

    /** The buyer bought the resting 1 base at 100 as taker: 100 USDT for 1 base less 0.001; the seller got 100 less 0.1. */
    private void tradedAtTheRestingPrice(Counterparties p, String buy) {
        assertThat(admin.balances(p.buyerUid())).containsEntry("unified/USDT", "900/0/0").containsEntry("unified/" + base, "0.999/0/0");
        assertThat(admin.balances(p.sellerUid())).containsEntry("unified/USDT", "109.9/0/0").containsEntry("unified/" + base, "4/0/0");
        assertThat(p.seller().get(INFO + p.sell()).data().get("orderStatus").asText()).isEqualTo("filled");
        assertThat(p.buyer().get(INFO + buy).data().get("orderStatus").asText()).isEqualTo("filled");
        admin.assertConserved();
    }

    @Test
    void twoAccountsTradeWithEachOtherAtTheRestingPrice() {
        Counterparties p = restingSellAt100();
        // Buy 1 at 100: the synthetic ask 100.01 is above the limit; the resting sell at 100 fills it. Buyer pays 100 and
        // a taker fee of 0.001 base; the seller gets 100 less a maker fee of 0.1 USDT.
        tradedAtTheRestingPrice(p, id(p.buyer().post(PLACE, order("SPOT", spot, "buy", "limit", "1", "100", null))));
    }

    @Test
    void aMarketBuyTakesARestingSellBeforeTheSyntheticAsk() {
        Counterparties p = restingSellAt100();
        // A market buy of 100 USDT: the resting sell at 100 is below the synthetic ask 100.01, so the order's batch sees it
        // cross (D213) and the locked path fills all 100 USDT against it. Filled at the synthetic ask instead, the buyer
        // would get 0.9999 base less its fee and the sell would still rest.
        tradedAtTheRestingPrice(p, id(p.buyer().post(PLACE, order("SPOT", spot, "buy", "market", "100", null, null))));
    }

    @Test
    void aFuturesPositionOpensAtMarketAndClosesByAReduceOnlyLimitWithItsPnl() {
        ApiClient c = setUp("10", "USDT", "1000");
        // Market buy 2 at the ask 100.01: margin 2 x 100.01 / 10 = 20.002, taker fee 200.02 x 0.0006 = 0.120012.
        String open = id(c.post(PLACE, order("USDT-FUTURES", perp, "buy", "market", "2", null, null)));
        assertThat(c.get(INFO + open).data().get("orderStatus").asText()).isEqualTo("filled");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "979.877988/20.002/0");
        JsonNode pos = c.get("/api/v3/position/current-position?category=USDT-FUTURES&symbol=" + perp).data().get("list").get(0);
        assertThat(pos.get("total").asText()).isEqualTo("2");
        assertThat(pos.get("avgPrice").asText()).isEqualTo("100.01");
        // Reduce-only sell 2 at 110 rests (bid 99.99) and freezes nothing; a bid of 110.5 fills it as the maker at 110:
        // PnL 2 x (110 - 100.01) = 19.98, maker fee 220 x 0.0002 = 0.044, margin 20.002 back:
        // 979.877988 + 20.002 + 19.98 - 0.044 = 1019.815988.
        String close = id(c.post(PLACE, order("USDT-FUTURES", perp, "sell", "limit", "2", "110", "\"reduceOnly\":\"YES\"")));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "979.877988/20.002/0");
        ticker("USDT-FUTURES", perp, "110.6", "110.5", "10");
        JsonNode closed = c.get(INFO + close).data();
        assertThat(closed.get("orderStatus").asText()).isEqualTo("filled");
        assertThat(closed.get("reduceOnly").asText()).isEqualTo("YES");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1019.815988/0/0");
        assertThat(c.get("/api/v3/position/current-position?category=USDT-FUTURES&symbol=" + perp).data().get("list")).isEmpty();
        // Nothing left to close.
        assertError(c.post(PLACE, order("USDT-FUTURES", perp, "sell", "market", "1", null, "\"reduceOnly\":\"yes\"")), "25227");
        admin.assertConserved();
    }

    @Test
    void aClientOidRepeatAnswersTheFirstOrderAndAnotherPayloadIsRefusedChangingNothing() {
        ApiClient c = setUp("5", "USDT", "1000");
        String first = id(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1", "90", "\"clientOid\":\"bot-1\"")));
        String again = id(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1", "90", "\"clientOid\":\"bot-1\"")));
        assertThat(again).isEqualTo(first);
        String before = admin.stateHash();
        assertError(c.post(PLACE, order("SPOT", spot, "buy", "limit", "2", "90", "\"clientOid\":\"bot-1\"")), "25212");
        assertThat(admin.stateHash()).isEqualTo(before);
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "910/90/0");
        // Cancel by clientOid releases exactly the freeze; a second cancel finds no working order.
        ok(c.post("/api/v3/trade/cancel-order", "{\"symbol\":\"" + spot + "\",\"clientOid\":\"bot-1\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        assertError(c.post("/api/v3/trade/cancel-order", "{\"orderId\":\"" + first + "\"}"), "25204");
        assertThat(c.get(INFO + first).data().get("orderStatus").asText()).isEqualTo("cancelled");
    }

    @Test
    void timeInForceRulesAndRefusalsChangeNothing() {
        ApiClient c = setUp("1", "USDT", "1000");
        // Post-only at 100.01 would take the ask: cancelled, nothing frozen.
        String post = id(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1", "100.01", "\"timeInForce\":\"post_only\"")));
        assertThat(c.get(INFO + post).data().get("orderStatus").asText()).isEqualTo("cancelled");
        // Fill-or-kill 3 at 100.07: only 1 + 1 is offered up to that price: cancelled whole.
        String fok = id(c.post(PLACE, order("SPOT", spot, "buy", "limit", "3", "100.07", "\"timeInForce\":\"FOK\"")));
        assertThat(c.get(INFO + fok).data().get("cumExecQty").asText()).isEqualTo("0");
        // IOC 3 at 100.07 takes 1 at 100.01 and 1 at 100.07 = 200.08, the rest cancelled; taker fee 0.002 base.
        String ioc = id(c.post(PLACE, order("SPOT", spot, "buy", "limit", "3", "100.07", "\"timeInForce\":\"ioc\"")));
        JsonNode o = c.get(INFO + ioc).data();
        assertThat(o.get("orderStatus").asText()).isEqualTo("cancelled");
        assertThat(o.get("cumExecQty").asText()).isEqualTo("2");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "799.92/0/0").containsEntry("unified/" + base, "1.998/0/0");
        String before = admin.stateHash();
        assertError(c.post(PLACE, order("SPOT", spot, "buy", "limit", "10", "90", null)), "25202");
        assertError(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1.00001", "90", null)), "25610");
        assertError(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1", "90.001", null)), "25244");
        assertError(c.post(PLACE, order("SPOT", "NOPEUSDT", "buy", "limit", "1", "90", null)), "25100");
        assertError(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1", null, null)), "40019");
        assertThat(admin.stateHash()).isEqualTo(before);
        admin.assertConserved();
    }

    @Test
    void anInstrumentsOwnBookShapeSetsItsLevelsStepAndDepth() {
        ApiClient c = setUp("5", "USDT", "10");
        ok(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"" + base
                + "\",\"amount\":\"10\",\"ref\":\"shape-" + base + "\"}"));
        // Three levels 100 bps apart, 2 each (the ticker's size 5 no longer counts): bids 99.99; 99.99 - 0.9999 = 98.9901
        // -> down to 2 decimals 98.99; 99.99 - 1.9998 = 97.9902 -> 97.99.
        ok(admin.post(INSTRUMENTS, spotInstrument(",\"bookLevels\":3,\"bookStepBps\":\"100\",\"bookLevelSize\":\"2\"")));
        JsonNode book = c.get("/api/v3/market/orderbook?category=SPOT&symbol=" + spot + "&limit=10").data();
        assertThat(book.get("b").toString()).isEqualTo("[[\"99.99\",\"2\"],[\"98.99\",\"2\"],[\"97.99\",\"2\"]]");
        // A market sell of 7 takes the 6 the book offers: 2 x 99.99 + 2 x 98.99 + 2 x 97.99 = 593.94, fee 0.59394 USDT;
        // the last 1 is cancelled with the order. USDT 10 + 593.94 - 0.59394 = 603.34606; base 10 - 6 = 4.
        String sell = id(c.post(PLACE, order("SPOT", spot, "sell", "market", "7", null, null)));
        JsonNode o = c.get(INFO + sell).data();
        assertThat(o.get("orderStatus").asText()).isEqualTo("cancelled");
        assertThat(o.get("cumExecQty").asText()).isEqualTo("6");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "603.34606/0/0").containsEntry("unified/" + base, "4/0/0");
        assertError(admin.post(INSTRUMENTS, spotInstrument(",\"bookLevels\":0")), "40020");
        admin.assertConserved();
    }

    /** The fee of an order's one fill, as the v3 fills row shows it (paid: positive). */
    private static String fillFee(ApiClient c, String category, String orderId) {
        JsonNode list = c.get("/api/v3/trade/fills?category=" + category + "&orderId=" + orderId).data().get("list");
        assertThat(list).hasSize(1);
        return list.get(0).get("feeDetail").get(0).get("fee").asText();
    }

    @Test
    void aSpotPairsOwnFeeRatesChargeItsTakerAndMakerFills() {
        ApiClient c = setUp("5", "USDT", "1000");
        // D222: maker 0.05 %, taker 0.2 %, set by a seed (the admin instruments API takes the same fields).
        ok(admin.post("/admin/v1/seed", "{\"instruments\":[" + spotInstrument(fees("0.0005", "0.002")) + "]}"));
        // A market buy of 100.01 USDT takes 1 base at the ask 100.01 (level 1 holds 5): taker fee 1 x 0.002 = 0.002 base
        // (0.001 at the default rate). USDT 1000 - 100.01 = 899.99; base 1 - 0.002 = 0.998.
        String taker = id(c.post(PLACE, order("SPOT", spot, "buy", "market", "100.01", null, null)));
        assertThat(fillFee(c, "SPOT", taker)).isEqualTo("0.002");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "899.99/0/0").containsEntry("unified/" + base, "0.998/0/0");
        // A limit buy of 2 at 100 rests (2 x 100 = 200 frozen). The ask falls to 99.5 and it fills as the maker at 100:
        // maker fee 2 x 0.0005 = 0.001 base. USDT 899.99 - 200 = 699.99; base 0.998 + 2 - 0.001 = 2.997.
        String maker = id(c.post(PLACE, order("SPOT", spot, "buy", "limit", "2", "100", null)));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "699.99/200/0");
        ticker("SPOT", spot, "99.5", "99.4", "5");
        JsonNode filled = c.get(INFO + maker).data();
        assertThat(filled.get("orderStatus").asText()).isEqualTo("filled");
        assertThat(filled.get("feeDetail").get(0).get("fee").asText()).isEqualTo("0.001");
        assertThat(fillFee(c, "SPOT", maker)).isEqualTo("0.001");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "699.99/0/0").containsEntry("unified/" + base, "2.997/0/0");
        admin.assertConserved();
    }

    @Test
    void aContractsOwnFeeRatesChargeItsFillsAndTheFreezeOfAnOpeningLimitOrder() {
        ApiClient c = setUp("10", "USDT", "1000");
        ok(admin.post(INSTRUMENTS, perpInstrument(fees("0.0001", "0.001"))));
        // Market buy 2 at the ask 100.01: margin 2 x 100.01 / 10 = 20.002, taker fee 200.02 x 0.001 = 0.20002 (0.120012
        // at the default 0.06 %). USDT 1000 - 20.002 - 0.20002 = 979.79798, the margin frozen.
        String open = id(c.post(PLACE, order("USDT-FUTURES", perp, "buy", "market", "2", null, null)));
        assertThat(fillFee(c, "USDT-FUTURES", open)).isEqualTo("0.20002");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "979.79798/20.002/0");
        // An opening limit buy of 1 at 90 rests and freezes its margin 1 x 90 / 10 = 9 and the taker fee 90 x 0.001 = 0.09:
        // 9.09 (9.054 at the default). 979.79798 - 9.09 = 970.70798; frozen 20.002 + 9.09 = 29.092.
        String limit = id(c.post(PLACE, order("USDT-FUTURES", perp, "buy", "limit", "1", "90", null)));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "970.70798/29.092/0");
        // The ask falls to 89.5: it fills as the maker at 90, fee 90 x 0.0001 = 0.009; its 9.09 goes back and 9 of it
        // becomes margin. 970.70798 + 9.09 - 9 - 0.009 = 970.78898; frozen 20.002 + 9 = 29.002.
        ticker("USDT-FUTURES", perp, "89.5", "89.4", "10");
        assertThat(c.get(INFO + limit).data().get("orderStatus").asText()).isEqualTo("filled");
        assertThat(fillFee(c, "USDT-FUTURES", limit)).isEqualTo("0.009");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "970.78898/29.002/0");
        admin.assertConserved();
    }

    /** The one row of symbol in a metadata row's list. */
    private static JsonNode row(ApiClient c, String target, String symbol) {
        JsonNode found = null;
        for (JsonNode n : c.get(target).data()) if (n.get("symbol").asText().equals(symbol)) found = n;
        assertThat(found).as(symbol + " in " + target).isNotNull();
        return found;
    }

    private static void advertises(JsonNode row, String maker, String taker) {
        assertThat(row.get("makerFeeRate").asText()).as(row.toString()).isEqualTo(maker);
        assertThat(row.get("takerFeeRate").asText()).as(row.toString()).isEqualTo(taker);
    }

    @Test
    void theMetadataRowsAdvertiseAnInstrumentsOwnFeeRates() {
        ApiClient c = setUp("5", "USDT", "10");
        String contracts = "/api/v2/mix/market/contracts?productType=USDT-FUTURES&symbol=" + perp;
        // Without their own rates: the defaults, 0.1 % spot (D72), 0.02 % / 0.06 % futures (D156).
        advertises(row(c, "/api/v3/market/instruments?category=SPOT&symbol=" + spot, spot), "0.001", "0.001");
        advertises(row(c, contracts, perp), "0.0002", "0.0006");
        ok(admin.post(INSTRUMENTS, spotInstrument(fees("0.0005", "0.002"))));
        ok(admin.post(INSTRUMENTS, perpInstrument(fees("0.0001", "0.00075"))));
        ok(admin.post(INSTRUMENTS, "{\"category\":\"MARGIN\",\"symbol\":\"" + spot + "\",\"baseCoin\":\"" + base
                + "\",\"quoteCoin\":\"USDT\"" + fees("0.00025", "0.0015") + "}"));
        advertises(row(c, "/api/v3/market/instruments?category=SPOT&symbol=" + spot, spot), "0.0005", "0.002");
        advertises(row(c, "/api/v2/spot/public/symbols?symbol=" + spot, spot), "0.0005", "0.002");
        advertises(row(c, "/api/v3/market/instruments?category=USDT-FUTURES&symbol=" + perp, perp), "0.0001", "0.00075");
        advertises(row(c, contracts, perp), "0.0001", "0.00075");
        advertises(row(c, "/api/v3/market/instruments?category=MARGIN&symbol=" + spot, spot), "0.00025", "0.0015");
        advertises(row(c, "/api/v2/margin/currencies", spot), "0.00025", "0.0015");
    }

    @Test
    void badFeeRatesAreRefusedChangingNothingAndARepostWithoutThemGoesBackToTheDefault() {
        ApiClient c = setUp("5", "USDT", "1000");
        ok(admin.post(INSTRUMENTS, spotInstrument(fees("0.0005", "0.002"))));
        String before = admin.stateHash();
        // Negative, above 0.1 (10 %), 9 decimals, not a number; as strings and as JSON numbers; on either rate.
        for (String bad : java.util.List.of("\"-0.0001\"", "\"0.10000001\"", "0.2", "\"0.000000001\"", "0.000000001", "\"abc\"", "true")) {
            assertError(admin.post(INSTRUMENTS, spotInstrument(",\"takerFeeRate\":" + bad)), "40020");
            assertError(admin.post(INSTRUMENTS, spotInstrument(",\"makerFeeRate\":" + bad)), "40020");
        }
        assertError(admin.post("/admin/v1/seed", "{\"instruments\":[" + spotInstrument(fees("0.0005", "-1")) + "]}"), "40020");
        assertThat(admin.stateHash()).isEqualTo(before);
        // Still 0.2 %: a market buy of 100.01 USDT takes 1 base at 100.01, fee 1 x 0.002 = 0.002 base.
        assertThat(fillFee(c, "SPOT", id(c.post(PLACE, order("SPOT", spot, "buy", "market", "100.01", null, null))))).isEqualTo("0.002");
        // The bounds themselves are rates: 0 and 0.1, with trailing zeros up to 8 decimals.
        ok(admin.post(INSTRUMENTS, spotInstrument(fees("0", "0.10000000"))));
        advertises(row(c, "/api/v2/spot/public/symbols?symbol=" + spot, spot), "0", "0.1");
        // Re-posted without them, as without a book shape (D155, D222): the default 0.1 % again, 1 x 0.001 = 0.001 base.
        ok(admin.post(INSTRUMENTS, spotInstrument("")));
        assertThat(fillFee(c, "SPOT", id(c.post(PLACE, order("SPOT", spot, "buy", "market", "100.01", null, null))))).isEqualTo("0.001");
        // USDT 1000 - 2 x 100.01 = 799.98; base 1 - 0.002 + 1 - 0.001 = 1.997.
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "799.98/0/0").containsEntry("unified/" + base, "1.997/0/0");
        admin.assertConserved();
    }
}
