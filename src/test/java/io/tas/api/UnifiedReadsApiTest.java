package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10 item 4, the v3 unified reads ccxt uses (beyond-spec shapes §7, §8), on H2 and PostgreSQL:
 * GET /api/v3/account/assets and GET /api/v3/position/current-position. Fresh accounts (the demo ones are shared);
 * amounts hand-computed in the comments, price-dependent ones from the tickers read in the test.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class UnifiedReadsApiTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private ApiClient fresh(String... coinAmounts) {
        return server.client(admin.fundedAccount("v3reads-" + kind + "-" + NAMES.incrementAndGet(), coinAmounts));
    }

    private void openPosition(long uid, String symbol, String side, String size, String price) {
        ok(admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"" + symbol
                + "\",\"holdSide\":\"" + side + "\",\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"" + size
                + "\",\"price\":\"" + price + "\",\"fee\":\"0.5\"}"));
    }

    private BigDecimal ticker(ApiClient c, String category, String symbol, String field) {
        Reply r = c.get("/api/v3/market/tickers?category=" + category + "&symbol=" + symbol);
        ok(r);
        return new BigDecimal(r.data().get(0).get(field).asText());
    }

    private static String money(BigDecimal v) {
        BigDecimal r = v.setScale(8, RoundingMode.HALF_EVEN);
        return r.signum() == 0 ? "0" : r.stripTrailingZeros().toPlainString();
    }

    private static JsonNode coin(JsonNode assets, String coin) {
        for (JsonNode a : assets.get("assets")) if (a.get("coin").asText().equals(coin)) return a;
        return null;
    }

    @Test
    void assetsAreTheLedgerAndThePositionsHandComputed() {
        ApiClient c = fresh("USDT", "1000", "BTC", "0.1");
        long uid = admin.lastUid;
        ApiClient other = fresh("ETH", "3"); // isolation: never listed for c
        // Long 0.01 BTCUSDT at 90000, 10x: margin 0.01 x 90000 / 10 = 90 frozen; fee 0.5 paid from available:
        // USDT available 1000 - 90 - 0.5 = 909.5, locked 90.
        openPosition(uid, "BTCUSDT", "long", "0.01", "90000");
        BigDecimal btc = ticker(c, "SPOT", "BTCUSDT", "lastPrice");
        BigDecimal mark = ticker(c, "USDT-FUTURES", "BTCUSDT", "markPrice");
        Reply r = c.get("/api/v3/account/assets");
        ok(r);
        JsonNode d = r.data();
        assertThat(d.isObject()).isTrue();
        assertThat(d.get("assets").size()).isEqualTo(2); // USDT and BTC only: no other account's ETH
        assertThat(coin(d, "ETH")).isNull();
        JsonNode usdt = coin(d, "USDT");
        BigDecimal upl = new BigDecimal("0.01").multiply(mark.subtract(new BigDecimal("90000")));
        assertThat(usdt.get("available").asText()).isEqualTo("909.5");
        assertThat(usdt.get("locked").asText()).isEqualTo("90");
        assertThat(usdt.get("debt").asText()).isEqualTo("0");
        assertThat(usdt.get("balance").asText()).isEqualTo("999.5");
        BigDecimal usdtEquity = new BigDecimal("999.5").add(upl);
        assertThat(usdt.get("equity").asText()).isEqualTo(money(usdtEquity));
        assertThat(usdt.get("usdValue").asText()).isEqualTo(money(usdtEquity));
        JsonNode b = coin(d, "BTC");
        assertThat(b.get("available").asText()).isEqualTo("0.1");
        assertThat(b.get("locked").asText()).isEqualTo("0");
        assertThat(b.get("balance").asText()).isEqualTo("0.1");
        assertThat(b.get("equity").asText()).isEqualTo("0.1");
        BigDecimal btcUsd = new BigDecimal("0.1").multiply(btc);
        assertThat(b.get("usdValue").asText()).isEqualTo(money(btcUsd));
        BigDecimal total = usdtEquity.add(btcUsd);
        assertThat(d.get("usdtEquity").asText()).isEqualTo(money(total));
        assertThat(d.get("accountEquity").asText()).isEqualTo(money(total));
        assertThat(d.get("effEquity").asText()).isEqualTo(money(total));
        assertThat(d.get("btcEquity").asText()).isEqualTo(money(total.divide(btc, MathContext.DECIMAL128)));
        assertThat(d.get("unrealisedPnl").asText()).isEqualTo(money(upl));
        assertThat(d.get("usdtUnrealisedPnl").asText()).isEqualTo(money(upl));
        assertThat(d.get("btcUnrealizedPnl").asText()).isEqualTo(money(upl.divide(btc, MathContext.DECIMAL128)));
        assertThat(d.get("imr").asText()).isEqualTo("90");
        assertThat(new BigDecimal(d.get("mmr").asText())).isPositive();
        // Every field a string (§0: the platform sends decimal strings), assets an array.
        List<String> notStrings = new ArrayList<>();
        d.fields().forEachRemaining(e -> { if (!e.getKey().equals("assets") && !e.getValue().isTextual()) notStrings.add(e.getKey()); });
        for (JsonNode a : d.get("assets")) a.fields().forEachRemaining(e -> { if (!e.getValue().isTextual()) notStrings.add(e.getKey()); });
        assertThat(notStrings).isEmpty();
        // The other account sees its own coin only.
        Reply o = other.get("/api/v3/account/assets");
        ok(o);
        assertThat(o.data().get("assets").size()).isEqualTo(1);
        assertThat(coin(o.data(), "ETH").get("balance").asText()).isEqualTo("3");
        assertThat(o.data().get("unrealisedPnl").asText()).isEqualTo("0");
    }

    @Test
    void unpricedCoinIsListedButCountsZero() {
        // UNPRX has no SPOT ticker against USDT: its row shows the ledger, its USD value is 0, never a guessed price.
        ApiClient c = fresh("USDT", "100", "UNPRX", "0.000000000000000001");
        Reply r = c.get("/api/v3/account/assets");
        ok(r);
        JsonNode u = coin(r.data(), "UNPRX");
        assertThat(u.get("balance").asText()).isEqualTo("0.000000000000000001"); // ledger figures exact (scale 18)
        assertThat(u.get("equity").asText()).isEqualTo("0.000000000000000001");
        assertThat(u.get("usdValue").asText()).isEqualTo("0");
        assertThat(r.data().get("usdtEquity").asText()).isEqualTo("100");
        assertThat(r.data().get("mgnRatio").asText()).isEqualTo("0");
    }

    @Test
    void emptyAccountHasNoAssetRows() {
        ApiClient c = fresh();
        Reply r = c.get("/api/v3/account/assets");
        ok(r);
        assertThat(r.data().get("assets").isArray()).isTrue();
        assertThat(r.data().get("assets").size()).isZero();
        assertThat(r.data().get("usdtEquity").asText()).isEqualTo("0");
    }

    @Test
    void currentPositionsOfTheCategoryHandComputed() {
        ApiClient c = fresh("USDT", "2000");
        long uid = admin.lastUid;
        ApiClient other = fresh("USDT", "2000");
        openPosition(admin.lastUid, "BTCUSDT", "short", "0.02", "91000"); // the other account's: never listed for c
        openPosition(uid, "BTCUSDT", "long", "0.01", "90000");
        openPosition(uid, "ETHUSDT", "long", "1", "3000");
        BigDecimal mark = ticker(c, "USDT-FUTURES", "BTCUSDT", "markPrice");
        Reply r = c.get("/api/v3/position/current-position?category=USDT-FUTURES");
        ok(r);
        JsonNode list = r.data().get("list");
        assertThat(r.data().isObject()).isTrue();
        assertThat(list.size()).isEqualTo(2);
        Reply one = c.get("/api/v3/position/current-position?category=USDT-FUTURES&symbol=btcusdt");
        ok(one);
        assertThat(one.data().get("list").size()).isEqualTo(1);
        JsonNode p = one.data().get("list").get(0);
        assertThat(p.get("category").asText()).isEqualTo("USDT-FUTURES");
        assertThat(p.get("symbol").asText()).isEqualTo("BTCUSDT");
        assertThat(p.get("marginCoin").asText()).isEqualTo("USDT");
        assertThat(p.get("holdMode").asText()).isEqualTo("one_way_mode");
        assertThat(p.get("posSide").asText()).isEqualTo("long");
        assertThat(p.get("marginMode").asText()).isEqualTo("isolated");
        assertThat(p.get("positionBalance").asText()).isEqualTo("90"); // 0.01 x 90000 / 10
        assertThat(p.get("total").asText()).isEqualTo("0.01");
        assertThat(p.get("available").asText()).isEqualTo("0.01");
        assertThat(p.get("frozen").asText()).isEqualTo("0");
        assertThat(p.get("leverage").asText()).isEqualTo("10");
        assertThat(p.get("curRealisedPnl").asText()).isEqualTo("0");
        assertThat(p.get("avgPrice").asText()).isEqualTo("90000");
        assertThat(p.get("positionStatus").asText()).isEqualTo("normal");
        BigDecimal upl = new BigDecimal("0.01").multiply(mark.subtract(new BigDecimal("90000")));
        assertThat(p.get("unrealisedPnl").asText()).isEqualTo(money(upl));
        assertThat(p.get("profitRate").asText()).isEqualTo(money(upl.divide(new BigDecimal("90"), MathContext.DECIMAL128)));
        assertThat(new BigDecimal(p.get("markPrice").asText())).isEqualByComparingTo(mark);
        assertThat(new BigDecimal(p.get("mmr").asText())).isPositive();
        assertThat(new BigDecimal(p.get("liquidationPrice").asText())).isPositive().isLessThan(new BigDecimal("90000"));
        assertThat(p.get("openFeeTotal").asText()).isEqualTo("-0.5"); // paid: negative
        assertThat(p.get("closeFeeTotal").asText()).isEqualTo("0");
        assertThat(p.get("totalFunding").asText()).isEqualTo("0");
        assertThat(Long.parseLong(p.get("createdTime").asText())).isPositive();
        List<String> notStrings = new ArrayList<>();
        for (JsonNode x : list) x.fields().forEachRemaining(e -> { if (!e.getValue().isTextual()) notStrings.add(e.getKey()); });
        assertThat(notStrings).isEmpty();
        // Filters: posSide, another category, an unknown symbol.
        ok(r = c.get("/api/v3/position/current-position?category=USDT-FUTURES&posSide=short"));
        assertThat(r.data().get("list").size()).isZero();
        ok(r = c.get("/api/v3/position/current-position?category=COIN-FUTURES"));
        assertThat(r.data().get("list").size()).isZero();
        ok(r = c.get("/api/v3/position/current-position?category=USDT-FUTURES&symbol=NOPEUSDT"));
        assertThat(r.data().get("list").size()).isZero();
        // The other account sees only its short.
        ok(r = other.get("/api/v3/position/current-position?category=USDT-FUTURES"));
        assertThat(r.data().get("list").size()).isEqualTo(1);
        assertThat(r.data().get("list").get(0).get("posSide").asText()).isEqualTo("short");
    }

    @Test
    void currentPositionParameters() {
        ApiClient c = fresh("USDT", "10");
        assertError(c.get("/api/v3/position/current-position"), "40019", "Parameter category cannot be empty");
        assertError(c.get("/api/v3/position/current-position?category=SPOT"), "40020", "Parameter category error");
        assertError(c.get("/api/v3/position/current-position?category=USDT-FUTURES&posSide=up"), "40020", "Parameter posSide error");
    }

    @Test
    void familyAndPermissionGuards() {
        ApiClient classic = server.client(Credentials.CLASSIC);
        long uid = admin.createAccount("{\"username\":\"v3reads-perm-" + kind + "-" + NAMES.incrementAndGet() + "\"}");
        ApiClient noMgt = server.client(new Credentials(admin.createKey(uid, "NoMgt1", "read-and-write", "[\"uta_trade\"]"), admin.lastSecret, "NoMgt1"));
        ApiClient noTrade = server.client(new Credentials(admin.createKey(uid, "NoTrd1", "read-and-write", "[\"uta_mgt\"]"), admin.lastSecret, "NoTrd1"));
        ApiClient readOnly = server.client(new Credentials(admin.createKey(uid, "ReadOnly1", "read-only", "[\"uta_mgt\",\"uta_trade\"]"), admin.lastSecret, "ReadOnly1"));
        String assets = "/api/v3/account/assets";
        String positions = "/api/v3/position/current-position?category=USDT-FUTURES";
        assertError(classic.get(assets), "40084", null);
        assertError(classic.get(positions), "40084", null);
        assertError(noMgt.get(assets), "40014", "Incorrect permissions, need uta_mgt permissions");
        assertError(noTrade.get(positions), "40014", "Incorrect permissions, need uta_trade permissions");
        ok(noTrade.get(assets));
        ok(noMgt.get(positions));
        ok(readOnly.get(assets)); // read rows: a read-only key is enough
        ok(readOnly.get(positions));
    }

    @Test
    void demoMainAccountReads() {
        ApiClient main = server.client(Credentials.MAIN_RO);
        Reply r = main.get("/api/v3/position/current-position?category=USDT-FUTURES");
        ok(r);
        assertThat(r.data().get("list").size()).isEqualTo(2); // the seed's BTCUSDT long and ETHUSDT short
        Reply a = main.get("/api/v3/account/assets");
        ok(a);
        JsonNode usdt = coin(a.data(), "USDT");
        assertThat(usdt.get("debt").asText()).isEqualTo("2000");
    }
}
