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
 * Issue 25: the batch, modify, symbol-wide cancel, close-positions and TP/SL rows, hedge mode and an inverse contract,
 * on H2 and PostgreSQL, each test on instruments of its own. Amounts by hand in the comments (rules in TradingApiTest).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class TradingRowsApiTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v3/trade/place-order";
    private static final String INFO = "/api/v3/trade/order-info?orderId=";
    private String tag;
    private long uid;

    private ApiClient account(String... coinAmounts) {
        tag = kind.name().charAt(0) + "" + NAMES.incrementAndGet();
        ApiClient c = server.client(admin.fundedAccount("rows-" + kind + "-" + tag, coinAmounts));
        uid = admin.lastUid;
        return c;
    }

    private void instrument(String json) { ok(admin.post("/admin/v1/instruments", json)); }

    private void ticker(String category, String symbol, String ask, String bid, String size, String mark) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"" + bid
                + "\",\"ask1Price\":\"" + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"" + size + "\",\"bid1Size\":\"" + size
                + "\",\"markPrice\":\"" + mark + "\",\"indexPrice\":\"" + mark + "\"}"));
    }

    private static String id(Reply r) {
        ok(r);
        return r.data().get("orderId").asText();
    }

    @Test
    void batchPlaceModifyAndCancelRows() {
        ApiClient c = account("USDT", "1000");
        String spot = "TB" + tag + "USDT";
        instrument("{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"baseCoin\":\"TB" + tag + "\",\"quoteCoin\":\"USDT\"}");
        ticker("SPOT", spot, "100.01", "99.99", "5", "100");
        // Two resting buys, 1 at 90 and 1 at 91: 181 frozen. A third line with a price off the step fails alone (25244);
        // a line that is no order at all (a bad side) refuses the whole batch, nothing placed.
        assertError(c.post("/api/v3/trade/place-batch", "[{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"90\"},"
                + "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"up\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"91\"}]"), "40020");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1000/0/0");
        Reply batch = c.post("/api/v3/trade/place-batch", "[{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"90\"},"
                + "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"91\",\"clientOid\":\"b2\"},"
                + "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"91.001\"}]");
        ok(batch);
        JsonNode lines = batch.data();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(2).get("code").asText()).isEqualTo("25244");
        String first = lines.get(0).get("orderId").asText();
        String second = lines.get(1).get("orderId").asText();
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "819/181/0");
        // Modify the first to 2 at 95: 190 + 91 = 281 frozen.
        ok(c.post("/api/v3/trade/modify-order", "{\"orderId\":\"" + first + "\",\"qty\":\"2\",\"price\":\"95\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "719/281/0");
        assertThat(c.get(INFO + first).data().get("price").asText()).isEqualTo("95");
        assertError(c.post("/api/v3/trade/modify-order", "{\"orderId\":\"" + first + "\",\"qty\":\"2\",\"price\":\"95\"}"), "25571");
        // The second moved to 100.01 meets the ask: it fills as the maker at 100.01, fee 0.001 base; 91 back, 100.01 paid.
        ok(c.post("/api/v3/trade/modify-order", "{\"clientOid\":\"b2\",\"price\":\"100.01\"}"));
        assertThat(c.get(INFO + second).data().get("orderStatus").asText()).isEqualTo("filled");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "709.99/190/0").containsEntry("unified/TB" + tag, "0.999/0/0");
        // cancel-batch: the first cancels, an unknown id fails alone with 25204.
        Reply cancels = c.post("/api/v3/trade/cancel-batch", "[{\"orderId\":\"" + first + "\",\"symbol\":\"" + spot + "\",\"category\":\"SPOT\"},"
                + "{\"orderId\":\"42\",\"symbol\":\"" + spot + "\",\"category\":\"SPOT\"}]");
        ok(cancels);
        assertThat(cancels.data().get(0).get("orderId").asText()).isEqualTo(first);
        assertThat(cancels.data().get(1).get("code").asText()).isEqualTo("25204");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "899.99/0/0");
        // cancel-symbol-order with two new resting orders: both cancelled, all freezes back.
        id(c.post(PLACE, "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"80\"}"));
        id(c.post(PLACE, "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"sell\",\"orderType\":\"limit\",\"qty\":\"0.5\",\"price\":\"120\"}"));
        Reply all = c.post("/api/v3/trade/cancel-symbol-order", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\"}");
        ok(all);
        assertThat(all.data().get("list")).hasSize(2);
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "899.99/0/0").containsEntry("unified/TB" + tag, "0.999/0/0");
        admin.assertConserved();
    }

    @Test
    void hedgeModeTakeProfitTriggerAndClosePositions() {
        ApiClient c = account("USDT", "1000");
        String perp = "PB" + tag + "USDT";
        instrument("{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\",\"baseCoin\":\"PB" + tag + "\",\"quoteCoin\":\"USDT\","
                + "\"marginCoin\":\"USDT\",\"maxLeverage\":\"50\",\"mmrTiers\":[{\"maxNotional\":\"1000000\",\"mmr\":\"0.005\"}]}");
        ticker("USDT-FUTURES", perp, "100.01", "99.99", "10", "100");
        ok(c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}"));
        String open = "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\",\"orderType\":\"market\",\"qty\":\"1\",";
        assertError(c.post(PLACE, open + "\"side\":\"buy\"}"), "40019"); // hedge mode names the position
        // Long 1 at the ask 100.01: margin 10.001, fee 0.060006. Short 1 at the bid 99.99: margin 9.999, fee 0.059994.
        id(c.post(PLACE, open + "\"side\":\"buy\",\"posSide\":\"long\"}"));
        id(c.post(PLACE, open + "\"side\":\"sell\",\"posSide\":\"short\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "979.88/20/0");
        // Take profit on the long at 105 (mark price); one below the entry is refused.
        assertError(c.post("/api/v3/trade/place-strategy-order", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp
                + "\",\"posSide\":\"long\",\"takeProfit\":\"99\"}"), "25579");
        String tp = id(c.post("/api/v3/trade/place-strategy-order", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp
                + "\",\"posSide\":\"long\",\"takeProfit\":\"105\"}"));
        assertThat(c.get("/api/v3/trade/unfilled-strategy-orders?category=USDT-FUTURES").data().toString()).contains(tp);
        // Mark 105.5: the TP closes the long by a market sell at the bid 105.5: PnL 5.49, fee 0.0633, margin 10.001 back:
        // 979.88 + 10.001 + 5.49 - 0.0633 = 995.3077.
        ticker("USDT-FUTURES", perp, "105.6", "105.5", "10", "105.5");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "995.3077/9.999/0");
        assertThat(c.get("/api/v3/trade/unfilled-strategy-orders?category=USDT-FUTURES").data().toString()).doesNotContain(tp);
        assertError(c.post(PLACE, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\",\"orderType\":\"market\",\"qty\":\"1\","
                + "\"side\":\"sell\",\"posSide\":\"long\"}"), "25227");
        // close-positions: the short is bought back at the ask 105.6: PnL -5.61, fee 0.06336, margin 9.999 back: 999.63334.
        Reply closed = c.post("/api/v3/trade/close-positions", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\"}");
        ok(closed);
        assertThat(closed.data().get("list")).hasSize(1);
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "999.63334/0/0");
        ok(c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"one_way_mode\"}"));
        admin.assertConserved();
    }

    @Test
    void anInverseContractMarginsAndPaysInTheBaseCoin() {
        String coin = "CB" + kind.name().charAt(0) + NAMES.get();
        ApiClient c = account(coin, "10");
        coin = "CB" + tag;
        ok(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"" + coin + "\",\"amount\":\"10\",\"ref\":\"inv-" + tag + "\"}"));
        String inverse = coin + "USD";
        instrument("{\"category\":\"COIN-FUTURES\",\"symbol\":\"" + inverse + "\",\"baseCoin\":\"" + coin + "\",\"quoteCoin\":\"USD\","
                + "\"marginCoin\":\"" + coin + "\",\"maxLeverage\":\"50\",\"mmrTiers\":[{\"maxNotional\":\"1000000\",\"mmr\":\"0.005\"}]}");
        ticker("COIN-FUTURES", inverse, "100.01", "99.99", "10", "100");
        // Long 2 at 100.01: margin 2 / 10 = 0.2, fee 2 x 0.0006 = 0.0012 in the coin: 10 - 0.2 - 0.0012 = 9.7988.
        id(c.post(PLACE, "{\"category\":\"COIN-FUTURES\",\"symbol\":\"" + inverse + "\",\"side\":\"buy\",\"orderType\":\"market\",\"qty\":\"2\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/" + coin, "9.7988/0.2/0");
        // Sold at the bid 110: PnL 2 x (110 - 100.01) / 110 = 0.181636363636363636 (18 decimals), fee 0.0012:
        // 9.7988 + 0.2 + 0.181636363636363636 - 0.0012 = 10.179236363636363636.
        ticker("COIN-FUTURES", inverse, "110.01", "110", "10", "110");
        id(c.post(PLACE, "{\"category\":\"COIN-FUTURES\",\"symbol\":\"" + inverse + "\",\"side\":\"sell\",\"orderType\":\"market\",\"qty\":\"2\",\"reduceOnly\":\"yes\"}"));
        assertThat(admin.balances(uid)).containsEntry("unified/" + coin, "10.179236363636363636/0/0");
        admin.assertConserved();
    }
}
