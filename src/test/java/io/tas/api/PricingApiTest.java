package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prices as the money rows use them (docs/formulas.md, D20, D22), on accounts and coins of this class's own, so
 * no demo figure and no other test's ticker is involved: a debt that cannot be valued, and the free-equity cap of
 * max-withdrawal.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class PricingApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;
    Admin admin;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        admin = new Admin(server);
    }

    private void ok(Reply r) { assertThat(r.code()).as(r.raw()).isEqualTo("00000"); }

    private void spotTicker(String coin, String lastPrice) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + coin + "USDT\",\"lastPrice\":\"" + lastPrice + "\"}"));
    }

    private void ledger(String op, long uid, String account, String coin, String amount, String ref) {
        ok(admin.post("/admin/v1/ledger/" + op, "{\"uid\":" + uid + ",\"account\":\"" + account + "\",\"coin\":\"" + coin
                + "\",\"amount\":\"" + amount + "\",\"ref\":\"" + ref + "-" + uid + "\"}"));
    }

    @Test
    void loanDataAnswers40098WhileADebtCoinHasNoPrice() {
        Credentials c = admin.fundedAccount("pricing-loan-" + kind, "USDT", "50");
        long uid = admin.lastUid;
        ApiClient client = server.client(c);
        ledger("borrow", uid, "unified", "USDT", "10", "loan-usdt");
        assertThat(client.get("/api/v3/trade/loan-data").data().get("currentLoans").asText()).isEqualTo("10");

        // A debt in a coin without a SPOT ticker against USDT: the total cannot be valued, and is never guessed.
        ledger("borrow", uid, "unified", "PRNOP", "1", "loan-prnop");
        Reply r = client.get("/api/v3/trade/loan-data");
        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        assertThat(r.code()).as(r.raw()).isEqualTo("40098");
        assertThat(r.msg()).isEqualTo("No price for PRNOP");
        assertThat(r.data().isNull()).isTrue();

        // A ticker whose last price is 0 is no price either (docs/formulas.md, Prices).
        spotTicker("PRNOP", "0");
        ServerPool.nextSecond(kind);
        assertThat(client.get("/api/v3/trade/loan-data").code()).isEqualTo("40098");

        // Once priced, the same debt is counted: 10 USDT x 1 + 1 PRNOP x 3 = 13.
        spotTicker("PRNOP", "3");
        ServerPool.nextSecond(kind);
        JsonNode d = client.get("/api/v3/trade/loan-data").data();
        assertThat(d.get("currentLoans").asText()).isEqualTo("13");
        assertThat(d.get("debtCoinList")).extracting(n -> n.get("coin").asText() + "=" + n.get("debt").asText())
                .containsExactlyInAnyOrder("USDT=10", "PRNOP=1");
        admin.assertConserved();
    }

    /** The demo's BGB ticker (seeds/demo.yaml), put back after the test took the price away. */
    private static final String BGB = "{\"category\":\"SPOT\",\"symbol\":\"BGBUSDT\",\"lastPrice\":\"6.4321\",\"openPrice24h\":\"6.31\","
            + "\"highPrice24h\":\"6.5\",\"lowPrice24h\":\"6.29\",\"ask1Price\":\"6.4322\",\"bid1Price\":\"6.4321\",\"ask1Size\":\"1500\","
            + "\"bid1Size\":\"2210\",\"price24hPcnt\":\"0.0193\",\"volume24h\":\"4501223\",\"turnover24h\":\"28951230.5\"}";

    @Test
    void smallAssetsAnswer40098WhileThePlatformTokenHasNoPrice() {
        Credentials c = admin.fundedAccount("pricing-dust-" + kind, "DOGE", "1");
        ApiClient client = server.client(c);
        assertThat(client.get("/api/v3/convert/small-assets").data()).extracting(n -> n.get("coin").asText()).containsExactly("DOGE");
        try {
            spotTicker("BGB", "0"); // every estimate is in the platform token: without its price there is none
            ServerPool.nextSecond(kind);
            Reply list = client.get("/api/v3/convert/small-assets");
            assertThat(list.status()).as(list.raw()).isEqualTo(400);
            assertThat(list.code()).as(list.raw()).isEqualTo("40098");
            assertThat(list.msg()).isEqualTo("No price for BGB");
            Reply trade = client.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"DOGE\"]}");
            assertThat(trade.code()).as(trade.raw()).isEqualTo("40098");
            assertThat(admin.balances(admin.lastUid)).containsEntry("unified/DOGE", "1/0/0");
        } finally {
            ok(admin.post("/admin/v1/tickers", BGB));
        }
    }

    @Test
    void maxWithdrawalIsCappedByFreeEquityWhenAnotherCoinIsOwed() {
        spotTicker("PRCOL", "2.7"); // collateral
        spotTicker("PRDBT", "40");  // owed
        Credentials c = admin.fundedAccount("pricing-mw-" + kind, "USDT", "100", "PRCOL", "80");
        long uid = admin.lastUid;
        ledger("deposit", uid, "spot", "PRCOL", "10", "mw-spot");
        // Borrow 6 PRDBT and spend them: available 0, debt 6.
        ledger("borrow", uid, "unified", "PRDBT", "6", "mw-borrow");
        ledger("adjust", uid, "unified", "PRDBT", "-6", "mw-spend");
        assertThat(admin.balances(uid)).containsEntry("unified/PRDBT", "0/0/6").containsEntry("unified/PRCOL", "80/0/0");
        ApiClient client = server.client(c);

        // freeEquity = 100 USDT x 1 + 80 PRCOL x 2.7 - 6 PRDBT x 40 = 100 + 216 - 240 = 76 USDT.
        // PRCOL: available - debt = 80, but freeEquity / price = 76 / 2.7 = 28.148148148... -> floor8 28.14814814.
        JsonNode col = client.get("/api/v3/account/max-withdrawal?coin=PRCOL").data();
        assertThat(col.get("utaMaxWithdrawal").asText()).isEqualTo("28.14814814");
        assertThat(col.get("spotMaxWithdrawal").asText()).isEqualTo("10");
        assertThat(col.get("otcMaxWithdrawal").asText()).isEqualTo("0");
        assertThat(col.get("totalMaxWithdrawal").asText()).isEqualTo("38.14814814"); // 10 + 28.14814814

        // USDT: available - debt = 100, freeEquity / 1 = 76 -> 76.
        JsonNode usdt = client.get("/api/v3/account/max-withdrawal?coin=USDT").data();
        assertThat(usdt.get("utaMaxWithdrawal").asText()).isEqualTo("76");
        assertThat(usdt.get("totalMaxWithdrawal").asText()).isEqualTo("76");

        // The owed coin itself: available - debt = 0 - 6 < 0 -> 0.
        assertThat(client.get("/api/v3/account/max-withdrawal?coin=PRDBT").data().get("utaMaxWithdrawal").asText()).isEqualTo("0");
        admin.assertConserved();
    }
}
