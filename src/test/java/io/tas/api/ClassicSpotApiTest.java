package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26: classic accounts trade spot through the v2 rows on the engine of the v3 rows, on H2 and PostgreSQL. A classic
 * spot order settles on the account's spot balances (D171); the unified family's codes come back in the classic
 * family's (D172). Fees 0.1% taker and maker in the coin received; figures by hand in the comments.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class ClassicSpotApiTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v2/spot/trade/place-order";
    private String tag;

    /** A classic account with a read-and-write key and the given spot balances. */
    private ApiClient classic(long[] uidOut, String... coinAmounts) {
        long uid = admin.createAccount("{\"username\":\"classic-" + kind + "-" + NAMES.incrementAndGet() + "\",\"accountMode\":\"CLASSIC\"}");
        String key = admin.createKey(uid, "Classic1", "read-and-write", "[]");
        for (int i = 0; i < coinAmounts.length; i += 2) admin.deposit(uid, "spot", coinAmounts[i], coinAmounts[i + 1]);
        uidOut[0] = uid;
        return server.client(new Credentials(key, admin.lastSecret, "Classic1"));
    }

    /** A spot pair of this test, ask 100.01 / bid 99.99, 5 a level. */
    private String pair() {
        tag = kind.name().charAt(0) + "" + NAMES.incrementAndGet();
        String symbol = "CS" + tag + "USDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"baseCoin\":\"CS" + tag + "\",\"quoteCoin\":\"USDT\"}"));
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"100\",\"ask1Price\":\"100.01\","
                + "\"bid1Price\":\"99.99\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}"));
        return symbol;
    }

    /** The reply's data, after checking it succeeded. */
    private static JsonNode data(Reply r) {
        ok(r);
        return r.data();
    }

    private static String limit(String symbol, String side, String size, String price, String extra) {
        return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"orderType\":\"limit\",\"force\":\"GTC\",\"size\":\"" + size
                + "\",\"price\":\"" + price + "\"" + extra + "}";
    }

    @Test
    void aClassicSpotOrderMovesSpotBalancesAndReadsInV2Shapes() throws Exception {
        String s = pair();
        String base = "CS" + tag;
        long[] uid = new long[1];
        ApiClient c = classic(uid, "USDT", "1000", base, "3");
        // A resting buy of 2 at 99.5 freezes 199 USDT of spot.
        Reply placed = c.post(PLACE, limit(s, "buy", "2", "99.5", ",\"clientOid\":\"cs-1\""));
        ok(placed);
        String id = placed.data().get("orderId").asText();
        assertThat(placed.data().get("clientOid").asText()).isEqualTo("cs-1");
        assertThat(admin.balances(uid[0])).containsEntry("spot/USDT", "801/199/0").doesNotContainKey("unified/USDT");
        // orderInfo answers a one-element list; unfilled rows carry the price in priceAvg and the fill price in basePrice.
        JsonNode info = data(c.get("/api/v2/spot/trade/orderInfo?orderId=" + id));
        assertThat(info).hasSize(1);
        assertThat(info.get(0).get("status").asText()).isEqualTo("live");
        assertThat(info.get(0).get("price").asText()).isEqualTo("99.5");
        assertThat(info.get(0).get("priceAvg").asText()).isEqualTo("0");
        assertThat(info.get(0).get("userId").asText()).isEqualTo(Long.toString(uid[0]));
        assertThat(info.get(0).has("basePrice")).isFalse();
        JsonNode open = data(c.get("/api/v2/spot/trade/unfilled-orders?symbol=" + s));
        assertThat(open).hasSize(1);
        assertThat(open.get(0).get("priceAvg").asText()).isEqualTo("99.5");
        assertThat(open.get(0).get("basePrice").asText()).isEqualTo("0");
        assertThat(open.get(0).has("price")).isFalse();
        // A market sell of 3 walks the bids: 3 x 99.99 = 299.97, fee 0.29997 USDT: 801 + 299.97 - 0.29997 = 1100.67003.
        String sold = data(c.post(PLACE, "{\"symbol\":\"" + s + "\",\"side\":\"sell\",\"orderType\":\"market\",\"force\":\"gtc\",\"size\":\"3\"}")).get("orderId").asText();
        assertThat(admin.balances(uid[0])).containsEntry("spot/USDT", "1100.67003/199/0").doesNotContainKey("spot/" + base);
        JsonNode row = data(c.get("/api/v2/spot/trade/orderInfo?orderId=" + sold)).get(0);
        assertThat(row.get("status").asText()).isEqualTo("filled");
        assertThat(row.get("baseVolume").asText()).isEqualTo("3");
        assertThat(row.get("quoteVolume").asText()).isEqualTo("299.97");
        assertThat(row.get("priceAvg").asText()).isEqualTo("99.99");
        assertThat(row.get("orderSource").asText()).isEqualTo("market");
        // feeDetail is a JSON-encoded string: the fee coin's entry holds the negative total.
        JsonNode fee = new com.fasterxml.jackson.databind.ObjectMapper().readTree(row.get("feeDetail").asText());
        assertThat(fee.get("USDT").get("feeCoinCode").asText()).isEqualTo("USDT");
        assertThat(fee.get("USDT").get("totalFee").decimalValue()).isEqualByComparingTo("-0.29997");
        assertThat(fee.get("newFees").get("t").decimalValue()).isEqualByComparingTo("-0.29997");
        // history-orders lists the filled sell; the v2 fills row shows its fill.
        JsonNode history = data(c.get("/api/v2/spot/trade/history-orders?symbol=" + s));
        assertThat(history).extracting(h -> h.get("orderId").asText()).containsExactly(sold);
        JsonNode fills = data(c.get("/api/v2/spot/trade/fills?symbol=" + s));
        assertThat(fills).extracting(f -> f.get("orderId").asText()).containsExactly(sold);
        // Spot assets: the coins held (the base coin, all sold, is gone); a bad assetType is 40020.
        JsonNode assets = data(c.get("/api/v2/spot/account/assets"));
        assertThat(assets).extracting(a -> a.get("coin").asText() + " " + a.get("available").asText() + "/" + a.get("frozen").asText())
                .containsExactly("USDT 1100.67003/199");
        assertThat(data(c.get("/api/v2/spot/account/assets?coin=usdt")).get(0).get("available").asText()).isEqualTo("1100.67003");
        assertError(c.get("/api/v2/spot/account/assets?assetType=some"), "40020");
        // cancel gives the 199 back; a second cancel is 43001 and changes nothing.
        data(c.post("/api/v2/spot/trade/cancel-order", "{\"symbol\":\"" + s + "\",\"orderId\":\"" + id + "\"}"));
        assertThat(admin.balances(uid[0])).containsEntry("spot/USDT", "1299.67003/0/0");
        String hash = admin.stateHash();
        assertError(c.post("/api/v2/spot/trade/cancel-order", "{\"symbol\":\"" + s + "\",\"orderId\":\"" + id + "\"}"), "43001");
        assertThat(admin.stateHash()).isEqualTo(hash);
        admin.assertConserved();
    }

    @Test
    void refusalsAreTheClassicFamilysAndChangeNothing() {
        String s = pair();
        long[] uid = new long[1];
        ApiClient c = classic(uid, "USDT", "100");
        data(c.post(PLACE, limit(s, "buy", "0.5", "99", ",\"clientOid\":\"dup\"")));
        ApiClient unified = server.client(admin.fundedAccount("unified-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "100"));
        String hash = admin.stateHash();
        // 2 x 99 = 198 > 50.5 left: 43012; another payload under a used clientOid: 45034; 0.001 x 99 < 1 USDT: 45110.
        assertError(c.post(PLACE, limit(s, "buy", "2", "99", "")), "43012");
        assertError(c.post(PLACE, limit(s, "buy", "0.2", "99", ",\"clientOid\":\"dup\"")), "45034");
        assertError(c.post(PLACE, limit(s, "buy", "0.001", "99", "")), "45110");
        assertError(c.post(PLACE, "{\"symbol\":\"" + s + "\",\"side\":\"up\",\"orderType\":\"limit\",\"size\":\"1\",\"price\":\"99\"}"), "40020");
        assertThat(admin.stateHash()).isEqualTo(hash);
        // The same payload again answers the first order; an unknown order reads as an empty list.
        assertThat(data(c.post(PLACE, limit(s, "buy", "0.5", "99", ",\"clientOid\":\"dup\""))).get("clientOid").asText()).isEqualTo("dup");
        assertThat(data(c.get("/api/v2/spot/trade/orderInfo?orderId=1"))).isEmpty();
        // A unified account is refused the v2 rows (40085); a classic one the v3 order rows (40084).
        assertError(unified.post(PLACE, limit(s, "buy", "0.5", "99", "")), "40085");
        assertError(c.post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + s + "\",\"side\":\"buy\",\"orderType\":\"limit\","
                + "\"qty\":\"0.5\",\"price\":\"99\"}"), "40084");
        assertThat(admin.stateHash()).isEqualTo(hash);
    }

    @Test
    void aClassicMakerAndAUnifiedTakerTradeOnOneBook() {
        String s = pair();
        String base = "CS" + tag;
        long[] maker = new long[1];
        ApiClient classic = classic(maker, base, "2");
        ApiClient unified = server.client(admin.fundedAccount("taker-" + kind + "-" + NAMES.incrementAndGet(), "USDT", "1000"));
        long taker = admin.lastUid;
        // The classic account offers 1.5 at 100, inside the synthetic spread; the unified market buy of 200 USDT takes it
        // first: 1.5 x 100 = 150, then the 50 left at the ask 100.01: 50 / 100.01 = 0.49995, 0.4999 (49.994999).
        String ask = data(classic.post(PLACE, limit(s, "sell", "1.5", "100", ""))).get("orderId").asText();
        assertThat(admin.balances(maker[0])).containsEntry("spot/" + base, "0.5/1.5/0");
        data(unified.post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + s + "\",\"side\":\"buy\",\"orderType\":\"market\",\"qty\":\"200\"}"));
        // Maker (classic, spot balances): receives 150 less the 0.1% maker fee 0.15 = 149.85 USDT.
        assertThat(admin.balances(maker[0])).containsEntry("spot/" + base, "0.5/0/0").containsEntry("spot/USDT", "149.85/0/0")
                .doesNotContainKey("unified/USDT");
        // Taker (unified): pays 150 + 49.994999 = 199.994999; gets 1.9999 less the 0.1% taker fee 0.0019999 = 1.9979001.
        assertThat(admin.balances(taker)).containsEntry("unified/USDT", "800.005001/0/0").containsEntry("unified/" + base, "1.9979001/0/0");
        JsonNode row = data(classic.get("/api/v2/spot/trade/orderInfo?orderId=" + ask)).get(0);
        assertThat(row.get("status").asText()).isEqualTo("filled");
        assertThat(row.get("quoteVolume").asText()).isEqualTo("150");
        admin.assertConserved();
    }
}
