package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 8 account configuration over HTTP on H2 and PostgreSQL: set-leverage and pre-set-leverage, set-hold-mode,
 * switch-deduct and deduct-info, set-margin, adjust-account-mode, delta-info. Every write is read back; every refusal
 * leaves settings, balances and positions byte-identical. Writes use fresh accounts (the demo ones are shared).
 * Numbers are hand-computed in the comments and in docs/formulas.md.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class AccountConfigApiTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private ApiClient fresh(String... coinAmounts) {
        return server.client(admin.fundedAccount("config-" + kind + "-" + NAMES.incrementAndGet(), coinAmounts));
    }



    /** Everything a refused request must leave as it was: settings, balances and positions, byte for byte. */
    private String state(ApiClient c, long uid) {
        return c.get("/api/v3/account/settings").data().toString() + admin.balances(uid)
                + admin.get("/admin/v1/accounts/" + uid + "/positions").data();
    }

    private JsonNode symbolConfig(ApiClient c, String symbol) {
        for (JsonNode n : c.get("/api/v3/account/settings").data().get("symbolConfigList")) {
            if (n.get("symbol").asText().equals(symbol)) return n;
        }
        return null;
    }

    private long openPosition(long uid, String side, String mode, String size, String price) {
        Reply r = admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\""
                + side + "\",\"marginMode\":\"" + mode + "\",\"leverage\":\"10\",\"size\":\"" + size + "\",\"price\":\"" + price + "\",\"fee\":\"0\"}");
        ok(r);
        return r.data().get("id").asLong();
    }

    private JsonNode position(long uid) { return admin.get("/admin/v1/accounts/" + uid + "/positions").data().get(0); }

    // --- set-leverage

    @Test
    void setLeverageReadsBackPerContractAndPerSide() {
        ApiClient c = fresh("USDT", "100");
        Reply r = c.post("/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"25\"}");
        ok(r);
        assertThat(r.data().asText()).isEqualTo("success");
        JsonNode btc = symbolConfig(c, "BTCUSDT");
        assertThat(btc.get("category").asText()).isEqualTo("USDT-FUTURES");
        assertThat(btc.get("marginMode").asText()).isEqualTo("crossed"); // the default
        assertThat(btc.get("leverage").asText()).isEqualTo("25");
        // Isolated, one side: posSide names it, the other keeps the crossed leverage it had.
        ok(c.post("/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"marginMode\":\"isolated\",\"posSide\":\"short\",\"leverage\":\"7.5\"}"));
        btc = symbolConfig(c, "BTCUSDT");
        assertThat(btc.get("marginMode").asText()).isEqualTo("isolated");
        assertThat(btc.get("longLeverage").asText()).isEqualTo("25");
        assertThat(btc.get("shortLeverage").asText()).isEqualTo("7.5");
        // long/shortLeverage win over leverage, and need no posSide.
        ok(c.post("/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"marginMode\":\"isolated\",\"leverage\":\"3\",\"longLeverage\":\"40\",\"shortLeverage\":\"50\"}"));
        btc = symbolConfig(c, "BTCUSDT");
        assertThat(btc.get("leverage").asText()).isEqualTo("40");
        assertThat(btc.get("shortLeverage").asText()).isEqualTo("50");
        // MARGIN takes a coin, crossed only.
        ok(c.post("/api/v3/account/set-leverage", "{\"category\":\"MARGIN\",\"coin\":\"BTC\",\"leverage\":\"4\"}"));
        JsonNode coins = c.get("/api/v3/account/settings").data().get("coinConfigList");
        assertThat(coins.toString()).isEqualTo("[{\"coin\":\"BTC\",\"leverage\":\"4\"}]");
    }

    @Test
    void leverageBoundsAndMissingParametersChangeNothing() {
        ApiClient c = fresh("USDT", "100");
        long uid = admin.lastUid;
        ok(c.post("/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"20\"}"));
        String before = state(c, uid);
        String path = "/api/v3/account/set-leverage";
        for (String bad : new String[]{"0", "-1", "126", "abc", "1e2", "0.5"}) {
            assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"" + bad + "\"}"), "40020", "Parameter leverage error");
        }
        ServerPool.nextSecond(kind); // 10/s/UID (§8)
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"2.555\"}"), "40808", null);
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"2.0000000000000000001\"}"), "40808", null);
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"\"}"), "40019", "Parameter leverage cannot be empty");
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\"}"), "40019", "Parameter leverage cannot be empty");
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"leverage\":\"5\"}"), "40019", "Parameter symbol cannot be empty");
        assertError(c.post(path, "{\"category\":\"MARGIN\",\"leverage\":\"5\"}"), "40019", "Parameter coin cannot be empty");
        assertError(c.post(path, "{\"category\":\"MARGIN\",\"coin\":\"BTC\",\"leverage\":\"11\"}"), "40020", "Parameter leverage error");
        ServerPool.nextSecond(kind);
        assertError(c.post(path, "{\"category\":\"MARGIN\",\"coin\":\"BTC\",\"marginMode\":\"isolated\",\"leverage\":\"2\"}"), "40020", "Parameter marginMode error");
        assertError(c.post(path, "{\"category\":\"MARGIN\",\"coin\":\"NOPE\",\"leverage\":\"2\"}"), "40034", "Parameter NOPE does not exist");
        assertError(c.post(path, "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"leverage\":\"2\"}"), "40020", "Parameter category error");
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"NOPEUSDT\",\"leverage\":\"2\"}"), "25100", "Trading pair NOPEUSDT does not exist");
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"marginMode\":\"isolated\",\"leverage\":\"5\"}"), "40019", "Parameter posSide cannot be empty");
        assertThat(state(c, uid)).isEqualTo(before);
    }

    @Test
    void leverageMovesTheMarginOfOpenPositionsThroughTheLedger() {
        // 2000 USDT; 0.1 BTC long isolated at 95000, 10x: margin 950, available 1050.
        ApiClient c = fresh("USDT", "2000");
        long uid = admin.lastUid;
        openPosition(uid, "long", "isolated", "0.1", "95000");
        String path = "/api/v3/account/set-leverage";
        String isolatedLong = "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"marginMode\":\"isolated\",\"posSide\":\"long\",\"leverage\":\"";
        // 20x frees half the margin: 950 + 9500/20 - 9500/10 = 475.
        ok(c.post(path, isolatedLong + "20\"}"));
        assertThat(position(uid).get("leverage").asText()).isEqualTo("20");
        assertThat(position(uid).get("marginSize").asText()).isEqualTo("475");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1525/475/0");
        assertThat(symbolConfig(c, "BTCUSDT").get("longLeverage").asText()).isEqualTo("20");
        // 4x needs 2375 - 475 = 1900 more, with 1525 free: 25202, nothing changed.
        String before = state(c, uid);
        assertError(c.post(path, isolatedLong + "4\"}"), "25202", "Insufficient balance");
        assertThat(state(c, uid)).isEqualTo(before);
        // 5x needs 1900 - 475 = 1425: accepted.
        ok(c.post(path, isolatedLong + "5\"}"));
        assertThat(position(uid).get("marginSize").asText()).isEqualTo("1900");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "100/1900/0");
        // The margin mode cannot change under an open position.
        before = state(c, uid);
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"5\"}"), "40017",
                "Parameter verification failed marginMode cannot change while a position is open");
        assertThat(state(c, uid)).isEqualTo(before);
        admin.assertConserved();
    }

    @Test
    void preSetLeverageEstimatesAndChangesNothing() {
        ApiClient c = fresh("USDT", "2000");
        long uid = admin.lastUid;
        openPosition(uid, "long", "isolated", "0.1", "95000");
        String before = state(c, uid);
        Reply r = c.get("/api/v3/account/pre-set-leverage?category=USDT-FUTURES&symbol=BTCUSDT&marginMode=isolated&posSide=long&leverage=20");
        ok(r);
        JsonNode d = r.data();
        assertThat(d.properties().stream().map(java.util.Map.Entry::getKey).toList())
                .containsExactly("estMaxOpen", "estMaxBorrowable", "requiredMargin", "marginChange");
        // requiredMargin = 0.1 x 95000 / 20 = 475 USD; marginChange = 475 - 950 = -475;
        // estMaxOpen = (1050 + 475) x 20 / 97258.8 (mark) = 0.313596301..., floored to 8 decimals.
        assertThat(d.get("requiredMargin").asText()).isEqualTo("475");
        assertThat(d.get("marginChange").asText()).isEqualTo("-475");
        assertThat(d.get("estMaxOpen").asText()).isEqualTo("0.3135963");
        assertThat(d.get("estMaxBorrowable").asText()).isEmpty();
        // The spec's `cross` is accepted like `crossed`; no open crossed position: nothing required.
        JsonNode cross = c.get("/api/v3/account/pre-set-leverage?category=USDT-FUTURES&symbol=BTCUSDT&marginMode=cross&leverage=10").data();
        assertThat(cross.get("requiredMargin").asText()).isEqualTo("0");
        assertThat(cross.get("marginChange").asText()).isEqualTo("0");
        // MARGIN: equity 2000 (1050 + 950 frozen), no debt: at 3x up to 2000 x 2 = 4000 USDT borrowable.
        JsonNode margin = c.get("/api/v3/account/pre-set-leverage?category=MARGIN&coin=USDT&marginMode=cross&leverage=3").data();
        assertThat(margin.get("estMaxBorrowable").asText()).isEqualTo("4000");
        assertThat(margin.get("estMaxOpen").asText()).isEmpty();
        assertError(c.get("/api/v3/account/pre-set-leverage?category=USDT-FUTURES&symbol=BTCUSDT&leverage=10"), "40019", "Parameter marginMode cannot be empty");
        assertError(c.get("/api/v3/account/pre-set-leverage?category=USDT-FUTURES&symbol=BTCUSDT&marginMode=sideways&leverage=10"), "40020", "Parameter marginMode error");
        assertThat(state(c, uid)).isEqualTo(before);
    }

    // --- set-margin

    @Test
    void isolatedMarginMovesTheLiquidationPriceAndRemovalIsBounded() {
        ApiClient c = fresh("USDT", "2000");
        long uid = admin.lastUid;
        openPosition(uid, "long", "isolated", "0.1", "95000");
        // liquidation = (95000 x 0.1 - 950) / (0.1 x (1 - 0.004)) = 85843.37349398 (docs/formulas.md).
        assertThat(position(uid).get("liquidationPrice").asText()).isEqualTo("85843.37349398");
        String path = "/api/v3/account/set-margin";
        String base = "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\",";
        Reply r = c.post(path, base + "\"operation\":\"add\",\"amount\":\"500\"}");
        ok(r);
        assertThat(r.data().asText()).isEqualTo("success");
        assertThat(position(uid).get("marginSize").asText()).isEqualTo("1450");
        assertThat(position(uid).get("liquidationPrice").asText()).isEqualTo("80823.29317269"); // (9500 - 1450) / 0.0996
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "550/1450/0");
        // Removable: 1450 + min(uPnL 225.88, 0) - max(IM 950, MM 38.9) = 500.
        String before = state(c, uid);
        assertError(c.post(path, base + "\"operation\":\"remove\",\"amount\":\"500.01\"}"), "40017",
                "Parameter verification failed amount exceeds the removable margin 500");
        assertError(c.post(path, base + "\"operation\":\"add\",\"amount\":\"600\"}"), "25202", "Insufficient balance");
        assertError(c.post(path, base + "\"operation\":\"take\",\"amount\":\"1\"}"), "40020", "Parameter operation error");
        assertError(c.post(path, base + "\"operation\":\"add\",\"amount\":\"0\"}"), "40020", "Parameter amount error");
        assertError(c.post(path, base + "\"operation\":\"add\",\"amount\":\"0.1234567890123456789\"}"), "40808",
                "Parameter verification exception amount checkBDScale error value=0.1234567890123456789 checkScale=18");
        assertError(c.post(path, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"short\",\"operation\":\"add\",\"amount\":\"1\"}"),
                "40034", "Parameter position does not exist");
        assertThat(state(c, uid)).isEqualTo(before);
        ok(c.post(path, base + "\"operation\":\"remove\",\"amount\":\"500\"}"));
        assertThat(position(uid).get("marginSize").asText()).isEqualTo("950");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "1050/950/0");
        admin.assertConserved();
    }

    /** D116: a bare JSON number is its exact value, never a double's 17 digits (the spec's clients send strings; others may not). */
    @Test
    void aBareJsonNumberIsTakenAtItsExactValue() {
        ApiClient c = fresh("USDT", "2000");
        long uid = admin.lastUid;
        openPosition(uid, "long", "isolated", "0.1", "95000");
        String path = "/api/v3/account/set-margin";
        String base = "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\",\"operation\":";
        String before = state(c, uid);
        // 19 decimals are refused, not rounded to 0.12345678901234568 and moved.
        assertError(c.post(path, base + "\"add\",\"amount\":0.1234567890123456789}"), "40808",
                "Parameter verification exception amount checkBDScale error value=0.1234567890123456789 checkScale=18");
        // A hundred million digits in plain form: refused from its exponent form, never written out.
        assertError(c.post(path, base + "\"add\",\"amount\":1e100000000}"), "40020", "Parameter amount error");
        // An exponent past a BigDecimal's range is a malformed body, not a server failure.
        assertError(c.post(path, base + "\"add\",\"amount\":1E-2147483649}"), "40017", null);
        assertThat(state(c, uid)).isEqualTo(before);
        // A small amount moves exactly, written plainly or with an exponent (a double printed 0.0005 as 5.0E-4: 40020).
        ok(c.post(path, base + "\"add\",\"amount\":0.0005}"));
        assertThat(position(uid).get("marginSize").asText()).isEqualTo("950.0005");
        ok(c.post(path, base + "\"remove\",\"amount\":5E-4}"));
        assertThat(state(c, uid)).isEqualTo(before);
        admin.assertConserved();
    }

    @Test
    void marginOfACrossedPositionCannotBeSet() {
        ApiClient c = fresh("USDT", "2000");
        long uid = admin.lastUid;
        openPosition(uid, "short", "crossed", "0.01", "95000");
        String before = state(c, uid);
        assertError(c.post("/api/v3/account/set-margin", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"short\",\"operation\":\"add\",\"amount\":\"1\"}"),
                "40017", "Parameter verification failed margin can only be adjusted on an isolated position");
        assertThat(state(c, uid)).isEqualTo(before);
    }

    // --- hold mode, deduct

    @Test
    void holdModeIsRefusedWhilePositionsAreOpen() {
        ApiClient c = fresh("USDT", "2000");
        long uid = admin.lastUid;
        Reply r = c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}");
        ok(r);
        assertThat(r.data().asText()).isEqualTo("success");
        assertThat(c.get("/api/v3/account/settings").data().get("holdMode").asText()).isEqualTo("hedge_mode");
        long id = openPosition(uid, "long", "crossed", "0.01", "95000");
        assertThat(position(uid).get("posMode").asText()).isEqualTo("hedge_mode");
        String before = state(c, uid);
        assertError(c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"one_way_mode\"}"), "25010", "Unsupported position mode switch");
        assertError(c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"both\"}"), "40020", "Parameter holdMode error");
        assertError(c.post("/api/v3/account/set-hold-mode", "{}"), "40019", "Parameter holdMode cannot be empty");
        assertThat(state(c, uid)).isEqualTo(before);
        ok(admin.post("/admin/v1/positions/" + id + "/close", "{\"price\":\"95000\",\"fee\":\"0\"}"));
        ok(c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"one_way_mode\"}"));
        assertThat(c.get("/api/v3/account/settings").data().get("holdMode").asText()).isEqualTo("one_way_mode");
    }

    @Test
    void switchDeductReadsBackThroughDeductInfo() {
        ApiClient c = fresh();
        assertThat(c.get("/api/v3/account/deduct-info").data().toString()).isEqualTo("{\"deduct\":\"off\"}");
        Reply r = c.post("/api/v3/account/switch-deduct", "{\"deduct\":\"on\"}");
        ok(r);
        assertThat(r.data().isBoolean()).isTrue();
        assertThat(r.data().asBoolean()).isTrue();
        ServerPool.nextSecond(kind); // 1/s/UID (§8)
        assertThat(c.get("/api/v3/account/deduct-info").data().get("deduct").asText()).isEqualTo("on");
        ServerPool.nextSecond(kind);
        assertError(c.post("/api/v3/account/switch-deduct", "{\"deduct\":\"yes\"}"), "40020", "Parameter deduct error");
        ServerPool.nextSecond(kind);
        assertThat(c.get("/api/v3/account/deduct-info").data().get("deduct").asText()).isEqualTo("on");
    }

    // --- adjust-account-mode, delta-info

    @Test
    void accountLevelAndDeltaSwitch() {
        ApiClient c = fresh();
        String path = "/api/v3/account/adjust-account-mode";
        Reply r = c.post(path, "{\"mode\":\"advanced\",\"deltaSwitch\":\"yes\"}");
        ok(r);
        assertThat(r.data().isNull()).isTrue();
        JsonNode s = c.get("/api/v3/account/settings").data();
        assertThat(s.get("accountLevel").asText() + "/" + s.get("deltaSwitch").asText()).isEqualTo("advanced/yes");
        // deltaSwitch counts only with advanced: other levels turn delta-neutral off.
        ServerPool.nextSecond(kind);
        ok(c.post(path, "{\"mode\":\"isolated\",\"deltaSwitch\":\"yes\"}"));
        s = c.get("/api/v3/account/settings").data();
        assertThat(s.get("accountLevel").asText() + "/" + s.get("deltaSwitch").asText()).isEqualTo("isolated/no");
        // The deprecated delta is advanced with deltaSwitch yes (§4.1.4, §9.2).
        ServerPool.nextSecond(kind);
        ok(c.post(path, "{\"mode\":\"delta\"}"));
        s = c.get("/api/v3/account/settings").data();
        assertThat(s.get("accountLevel").asText() + "/" + s.get("deltaSwitch").asText()).isEqualTo("advanced/yes");
        ServerPool.nextSecond(kind);
        ok(c.post(path, "{\"mode\":\"basic\"}"));
        s = c.get("/api/v3/account/settings").data();
        assertThat(s.get("accountLevel").asText() + "/" + s.get("deltaSwitch").asText()).isEqualTo("basic/no");
        ServerPool.nextSecond(kind);
        assertError(c.post(path, "{\"mode\":\"expert\"}"), "40020", "Parameter mode error");
        ServerPool.nextSecond(kind);
        assertError(c.post(path, "{}"), "40019", "Parameter mode cannot be empty");
    }

    @Test
    void aParentAdjustsItsOwnSubAccountAndNoOneElse() {
        ApiClient parent = fresh();
        long parentUid = admin.lastUid;
        Reply created = admin.post("/admin/v1/accounts?parentUid=" + parentUid, "{\"username\":\"config-sub-" + NAMES.incrementAndGet() + "\"}");
        ok(created);
        long sub = created.data().get("uid").asLong();
        ApiClient subClient = server.client(new Credentials(admin.createKey(sub, "SubKey1", "read-only", "[\"uta_mgt\"]"), admin.lastSecret, "SubKey1"));
        ApiClient stranger = fresh();
        long strangerUid = admin.lastUid;
        ok(parent.post("/api/v3/account/adjust-account-mode", "{\"mode\":\"isolated\",\"targetUid\":\"" + sub + "\"}"));
        assertThat(subClient.get("/api/v3/account/settings").data().get("accountLevel").asText()).isEqualTo("isolated");
        String strangerBefore = state(stranger, strangerUid);
        ServerPool.nextSecond(kind);
        // A stranger's UID and an unknown UID answer alike, and nothing changes.
        assertError(parent.post("/api/v3/account/adjust-account-mode", "{\"mode\":\"isolated\",\"targetUid\":\"" + strangerUid + "\"}"),
                "40034", "Parameter targetUid does not exist");
        ServerPool.nextSecond(kind);
        assertError(parent.post("/api/v3/account/adjust-account-mode", "{\"mode\":\"isolated\",\"targetUid\":\"999999999999\"}"),
                "40034", "Parameter targetUid does not exist");
        ServerPool.nextSecond(kind);
        // A sub-account cannot act on its parent either.
        assertError(stranger.post("/api/v3/account/adjust-account-mode", "{\"mode\":\"isolated\",\"targetUid\":\"" + parentUid + "\"}"),
                "40034", "Parameter targetUid does not exist");
        assertThat(state(stranger, strangerUid)).isEqualTo(strangerBefore);
        assertThat(parent.get("/api/v3/account/settings").data().get("accountLevel").asText()).isEqualTo("basic");
    }

    @Test
    void deltaInfoOnlyWhileDeltaSwitchIsYes() {
        // 10000 USDT and 0.1 BTC; 0.08 BTC short: holding 0.1, futures -0.08.
        ApiClient c = fresh("USDT", "10000", "BTC", "0.1");
        long uid = admin.lastUid;
        openPosition(uid, "short", "crossed", "0.08", "95000");
        assertError(c.get("/api/v3/account/delta-info"), "40017", "Parameter verification failed deltaSwitch is no");
        ok(c.post("/api/v3/account/adjust-account-mode", "{\"mode\":\"advanced\",\"deltaSwitch\":\"yes\"}"));
        JsonNode d = c.get("/api/v3/account/delta-info").data();
        // positionRatio = |0.1 - 0.08| / (0.1 + 0.08) = 0.11111111; deltaEquityRatio = 0.02 x 97250.5 / (10000 + 0.1 x 97250.5)
        //   = 1945.01 / 19725.05 = 0.09860609.
        assertThat(d.get("list").toString()).isEqualTo("[{\"coin\":\"BTC\",\"positionRatio\":\"0.11111111\"}]");
        assertThat(d.get("deltaEquityRatio").asText()).isEqualTo("0.09860609");
        assertThat(d.get("deltaThreshold").asText()).isEqualTo("0.2");
        assertThat(d.get("positionThreshold").asText()).isEqualTo("0.2");
    }

    // --- permissions (§5) and account kinds

    @Test
    void permissionMatrixOfTheConfigurationRows() {
        String[][] writes = {
                {"/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"5\"}"},
                {"/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}"},
                {"/api/v3/account/switch-deduct", "{\"deduct\":\"off\"}"},
                {"/api/v3/account/set-margin", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\",\"operation\":\"add\",\"amount\":\"1\"}"},
                {"/api/v3/account/adjust-account-mode", "{\"mode\":\"basic\"}"}};
        String[] reads = {"/api/v3/account/pre-set-leverage?category=USDT-FUTURES&symbol=BTCUSDT&marginMode=crossed&leverage=5",
                "/api/v3/account/deduct-info", "/api/v3/account/delta-info"};
        String demoBefore = server.client(Credentials.MAIN_RW).get("/api/v3/account/settings").data().toString();
        ApiClient readOnly = server.client(Credentials.MAIN_RO);
        ApiClient classic = server.client(Credentials.CLASSIC);
        long uid = admin.createAccount("{\"username\":\"config-nomgt-" + NAMES.incrementAndGet() + "\"}");
        ApiClient noMgt = server.client(new Credentials(admin.createKey(uid, "NoMgt1", "read-and-write", "[\"uta_trade\"]"), admin.lastSecret, "NoMgt1"));
        for (String[] w : writes) {
            ServerPool.nextSecond(kind);
            assertError(readOnly.post(w[0], w[1]), "40014", "Incorrect permissions, need read-and-write permissions");
            assertError(noMgt.post(w[0], w[1]), "40014", "Incorrect permissions, need uta_mgt permissions");
            assertError(classic.post(w[0], w[1]), "40084", null);
        }
        for (String path : reads) {
            ServerPool.nextSecond(kind);
            assertError(noMgt.get(path), "40014", "Incorrect permissions, need uta_mgt permissions");
            assertError(classic.get(path), "40084", null);
        }
        // The read-only key reads.
        ok(readOnly.get(reads[0]));
        ok(readOnly.get(reads[1]));
        assertThat(server.client(Credentials.MAIN_RW).get("/api/v3/account/settings").data().toString()).isEqualTo(demoBefore);
    }
}
