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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 3 rows over HTTP on H2 and PostgreSQL: max-withdrawal, small-asset conversion, loan data.
 * The demo main account is only read here (its numbers are the hand-computed examples of docs/formulas.md);
 * anything that moves money uses a fresh account.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class MoneyApiTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    @Parameter Databases.Kind kind;
    TestServer server;
    Admin admin;
    ApiClient demo;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        admin = new Admin(server);
        demo = server.client(Credentials.MAIN_RW);
    }

    private String name() { return "money-" + kind + "-" + NAMES.incrementAndGet(); }


    // --- worked examples on the demo account (docs/formulas.md)

    @Test
    void maxWithdrawalOfTheDemoAccount() {
        JsonNode usdt = demo.get("/api/v3/account/max-withdrawal?coin=USDT").data();
        // unified USDT available = 25000 + 2000 borrowed - 475 (BTC isolated margin) - 350 (ETH crossed margin)
        //   - 2.85 - 4.2 (open fees) = 26167.95; minus the 2000 debt = 24167.95, below free equity (about 59k USDT).
        assertThat(usdt.get("utaMaxWithdrawal").asText()).isEqualTo("24167.95");
        assertThat(usdt.get("spotMaxWithdrawal").asText()).isEqualTo("500");
        assertThat(usdt.get("otcMaxWithdrawal").asText()).isEqualTo("1200");
        assertThat(usdt.get("totalMaxWithdrawal").asText()).isEqualTo("25867.95");
        // ETH: available 1.2 + 0.5 borrowed = 1.7, minus debt 0.5.
        assertThat(demo.get("/api/v3/account/max-withdrawal?coin=ETH").data().get("utaMaxWithdrawal").asText()).isEqualTo("1.2");
    }

    @Test
    void smallAssetsOfTheDemoAccount() {
        JsonNode list = demo.get("/api/v3/convert/small-assets").data();
        assertThat(list).extracting(n -> n.get("coin").asText()).containsExactly("DOGE", "PEPE", "USDC", "XRP");
        JsonNode doge = list.get(0);
        // 12.5 DOGE x 0.3812 = 4.765 USDT < 5; / 6.4321 BGB = 0.74081559 (floor 8); fee 2% = 0.01481631; net 0.72599928.
        assertThat(doge.get("available").asText()).isEqualTo("12.5");
        assertThat(doge.get("estimatedCoin").asText()).isEqualTo("BGB");
        assertThat(doge.get("estimatedAmount").asText()).isEqualTo("0.72599928");
        assertThat(doge.get("feeDetail").get("feeRate").asText()).isEqualTo("0.02");
        assertThat(doge.get("feeDetail").get("fee").asText()).isEqualTo("0.01481631");
        assertThat(doge.get("cTime").asText()).isEqualTo(Long.toString(server.clock.millis()));
        // Never the platform token; never a coin worth 5 USDT or more (BTC, ETH, USDT).
        assertThat(list).extracting(n -> n.get("coin").asText()).doesNotContain("BGB", "BTC", "ETH", "USDT");
    }

    @Test
    void loanDataOfTheDemoAccount() {
        JsonNode d = demo.get("/api/v3/trade/loan-data").data();
        assertThat(d.get("currentLoans").asText()).isEqualTo("3710.59"); // 2000 USDT x 1 + 0.5 ETH x 3421.18
        long hour = 3_600_000L;
        assertThat(d.get("interestPaymentTime").asLong()).isEqualTo((server.clock.millis() / hour + 1) * hour);
        JsonNode usdt = d.get("debtCoinList").get(1);
        assertThat(usdt.get("coin").asText()).isEqualTo("USDT");
        assertThat(usdt.get("debt").asText()).isEqualTo("2000");
        assertThat(usdt.get("interestFreeAmount").asText()).isEqualTo("500");
        assertThat(usdt.get("interestRateNextHour").asText()).isEqualTo("0.049932"); // 0.0000057 / h x 8760
    }

    // --- conversion moves money exactly once, all or nothing

    @Test
    void tradeConvertsEveryListedCoinAndRecordsHistory() {
        Credentials c = admin.fundedAccount(name(), "DOGE", "12.5", "XRP", "1.8", "BGB", "1", "USDT", "10");
        long uid = admin.lastUid;
        ApiClient client = server.client(c);
        Reply trade = client.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"DOGE\",\"XRP\"]}");
        assertThat(trade.code()).as(trade.raw()).isEqualTo("00000");
        assertThat(trade.data().get("fromCoin")).extracting(JsonNode::asText).containsExactly("DOGE", "XRP");
        assertThat(trade.data().get("toCoin").asText()).isEqualTo("BGB");
        String orderId = trade.data().get("orderId").asText();

        Map<String, String> after = admin.balances(uid);
        assertThat(after).doesNotContainKeys("unified/DOGE", "unified/XRP"); // converted to zero: no longer listed
        assertThat(after.get("unified/BGB")).isEqualTo("2.33222773/0/0"); // 1 + 0.72599928 + 0.60622845
        admin.assertConserved();

        JsonNode history = client.get("/api/v3/convert/small-assets-history").data();
        assertThat(history.get("list")).hasSize(2);
        JsonNode doge = history.get("list").get(0);
        assertThat(doge.get("orderId").asText()).isEqualTo(orderId);
        assertThat(doge.get("fromCoin").asText()).isEqualTo("DOGE");
        assertThat(doge.get("fromAmount").asText()).isEqualTo("12.5");
        assertThat(doge.get("fromCoinPrice").asText()).isEqualTo("0.3812");
        assertThat(doge.get("toAmount").asText()).isEqualTo("0.72599928");
        assertThat(doge.get("toCoinPrice").asText()).isEqualTo("6.4321");
        assertThat(doge.get("feeDetail").get("fee").asText()).isEqualTo("0.01481631");
        assertThat(doge.get("feeDetail").get("feeCoin").asText()).isEqualTo("BGB");
        assertThat(doge.get("status").asText()).isEqualTo("success");
        assertThat(history.get("cursor").asText()).isEqualTo(orderId);
        assertThat(client.get("/api/v3/convert/small-assets-history?orderId=" + orderId).data().get("list")).hasSize(2);
        assertThat(client.get("/api/v3/convert/small-assets-history?cursor=" + orderId).data().get("list")).isEmpty();
    }

    @Test
    void historyPagesByOrderBelowTheCursor() {
        Credentials c = admin.fundedAccount(name(), "BGB", "1", "DOGE", "1", "XRP", "1", "PEPE", "1000");
        ApiClient client = server.client(c);
        for (String coin : new String[]{"DOGE", "XRP", "PEPE"}) {
            ServerPool.nextSecond(kind);
            assertThat(client.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"" + coin + "\"]}").code()).isEqualTo("00000");
        }
        JsonNode p1 = client.get("/api/v3/convert/small-assets-history?limit=2").data();
        assertThat(p1.get("list")).extracting(n -> n.get("fromCoin").asText()).containsExactly("PEPE", "XRP");
        JsonNode p2 = client.get("/api/v3/convert/small-assets-history?limit=2&cursor=" + p1.get("cursor").asText()).data();
        assertThat(p2.get("list")).extracting(n -> n.get("fromCoin").asText()).containsExactly("DOGE");
    }

    @Test
    void aTradeWithOneCoinThatDoesNotQualifyChangesNothing() {
        Credentials c = admin.fundedAccount(name(), "DOGE", "12.5", "ETH", "1", "BGB", "1");
        long uid = admin.lastUid;
        ApiClient client = server.client(c);
        Map<String, String> before = admin.balances(uid);
        String trade = "/api/v3/convert/small-assets-trade";
        assertError(client.post(trade, "{\"fromCoinList\":[\"DOGE\",\"ETH\"]}"), "40017", "Parameter verification failed ETH is not a small asset");
        assertError(client.post(trade, "{\"fromCoinList\":[\"DOGE\",\"BGB\"]}"), "40017", "Parameter verification failed BGB is the target coin");
        assertError(client.post(trade, "{\"fromCoinList\":[\"DOGE\",\"NOPE\"]}"), "40034", "Parameter NOPE does not exist");
        assertError(client.post(trade, "{\"fromCoinList\":[\"XRP\"]}"), "40017", "Parameter verification failed XRP is not a small asset");
        assertError(client.post(trade, "{\"fromCoinList\":[\"DOGE\",\"DOGE\"]}"), "40020", "Parameter fromCoinList error");
        ServerPool.nextSecond(kind);
        assertError(client.post(trade, "{\"fromCoinList\":\"DOGE\"}"), "40020", "Parameter fromCoinList error");
        assertError(client.post(trade, "{\"fromCoinList\":[1]}"), "40020", "Parameter fromCoinList error");
        assertError(client.post(trade, "{\"fromCoinList\":[]}"), "40019", "Parameter fromCoinList cannot be empty");
        assertError(client.post(trade, "{}"), "40019", "Parameter fromCoinList cannot be empty");
        assertThat(admin.balances(uid)).isEqualTo(before);
        assertThat(client.get("/api/v3/convert/small-assets-history").data().get("list")).isEmpty();
    }

    @Test
    void historyRejectsBadRangesAndLimits() {
        ApiClient client = server.client(admin.fundedAccount(name()));
        long now = server.clock.millis();
        long day = Duration.ofDays(1).toMillis();
        String h = "/api/v3/convert/small-assets-history";
        assertError(client.get(h + "?limit=101"), "40020", "Parameter limit error");
        assertError(client.get(h + "?limit=x"), "40020", "Parameter limit error");
        assertError(client.get(h + "?startTime=" + (now - 31 * day) + "&endTime=" + now), "40017", "Parameter verification failed time range between startTime and endTime exceeds 30 days");
        assertError(client.get(h + "?startTime=" + now + "&endTime=" + (now - day)), "40017", "Parameter verification failed startTime is after endTime");
        ServerPool.nextSecond(kind);
        assertError(client.get(h + "?startTime=" + (now - 91 * day) + "&endTime=" + (now - 85 * day)), "40017", "Parameter verification failed startTime is older than 90 days");
        assertError(client.get(h + "?startTime=-5"), "40020", "Parameter startTime error");
        assertError(client.get(h + "?orderId=abc"), "40020", "Parameter orderId error");
        assertThat(client.get(h + "?startTime=" + (now - 10 * day)).code()).isEqualTo("00000");
    }

    @Test
    void maxWithdrawalBadInput() {
        assertError(demo.get("/api/v3/account/max-withdrawal"), "40019", "Parameter coin cannot be empty");
        assertError(demo.get("/api/v3/account/max-withdrawal?coin=NOPE"), "40034", "Parameter NOPE does not exist");
        assertError(demo.get("/api/v3/account/max-withdrawal?coin=usdt%20x"), "40020", "Parameter coin error");
        // Issue 24 item 10: a coin parameter is case-insensitive here as on the other rows.
        JsonNode lower = demo.get("/api/v3/account/max-withdrawal?coin=usdt").data();
        assertThat(lower.get("coin").asText()).isEqualTo("USDT");
        assertThat(lower.get("utaMaxWithdrawal").asText()).isEqualTo("24167.95");
    }

    @Test
    void maxWithdrawalNeverExceedsWhatTheAccountHas() {
        Credentials c = admin.fundedAccount(name(), "USDT", "100");
        long uid = admin.lastUid;
        assertThat(admin.post("/admin/v1/ledger/borrow", "{\"uid\":" + uid + ",\"coin\":\"USDT\",\"amount\":\"40\",\"ref\":\"b-" + uid + "\"}").code()).isEqualTo("00000");
        JsonNode m = server.client(c).get("/api/v3/account/max-withdrawal?coin=USDT").data();
        assertThat(m.get("utaMaxWithdrawal").asText()).isEqualTo("100"); // 140 available - 40 debt
        JsonNode loans = server.client(c).get("/api/v3/trade/loan-data").data();
        assertThat(loans.get("currentLoans").asText()).isEqualTo("40");
        assertThat(loans.get("debtCoinList").get(0).get("interestRateNextHour").asText()).isEqualTo("0.049932");
    }

    // --- ledger administration

    @Test
    void repeatingAnAdjustmentWithTheSameReferenceChangesTheBalanceOnce() {
        admin.fundedAccount(name(), "USDT", "10");
        long uid = admin.lastUid;
        String op = "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"-2.5\",\"ref\":\"adj-" + uid + "\"}";
        Reply first = admin.post("/admin/v1/ledger/adjust", op);
        Reply again = admin.post("/admin/v1/ledger/adjust", op);
        assertThat(first.data().get("repeated").asBoolean()).isFalse();
        assertThat(again.data().get("repeated").asBoolean()).isTrue();
        assertThat(again.data().get("txId").asText()).isEqualTo(first.data().get("txId").asText());
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("7.5/0/0");
        admin.assertConserved();
    }

    @Test
    void anAdjustmentBelowZeroIsRefusedAndChangesNothing() {
        admin.fundedAccount(name(), "USDT", "10");
        long uid = admin.lastUid;
        Reply r = admin.post("/admin/v1/ledger/adjust", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"-10.01\",\"ref\":\"neg-" + uid + "\"}");
        assertError(r, "25202", "Insufficient balance");
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("10/0/0");
        assertError(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"-1\",\"ref\":\"x\"}"), "40020", null);
        assertError(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"vault\",\"coin\":\"USDT\",\"amount\":\"1\",\"ref\":\"y\"}"), "40020", null);
        assertError(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"1\"}"), "40019", null);
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("10/0/0");
    }

    @Test
    void positionsMoveMarginPnlAndFeesThroughTheLedger() {
        admin.fundedAccount(name(), "USDT", "1000");
        long uid = admin.lastUid;
        Reply open = admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\"long\","
                + "\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.01\",\"price\":\"90000\",\"fee\":\"0.54\"}");
        assertThat(open.code()).as(open.raw()).isEqualTo("00000");
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("909.46/90/0"); // margin 0.01 x 90000 / 10 = 90
        String id = open.data().get("id").asText();
        Reply close = admin.post("/admin/v1/positions/" + id + "/close", "{\"price\":\"91000\",\"fee\":\"0.546\"}");
        assertThat(close.code()).as(close.raw()).isEqualTo("00000");
        assertThat(close.data().get("status").asText()).isEqualTo("closed");
        assertThat(close.data().get("achievedProfits").asText()).isEqualTo("10");    // (91000 - 90000) x 0.01
        // 909.46 + 90 margin back + 10 PnL - 0.546 fee
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("1008.914/0/0");
        admin.assertConserved();
        assertError(admin.post("/admin/v1/positions/" + id + "/close", "{\"price\":\"91000\"}"), "40034", null);
    }

    /**
     * D140: an inverse position's entry is the size-weighted mean, so the whole pays what its legs pay. Long 1 BTC of
     * BTCUSD at 100 (10x: margin 0.1 BTC), add 1 at 200 (margin 0.1), close 2 at 200: the legs earn 1 x (200 - 100) / 200
     * + 1 x 0 = 0.5 BTC. The harmonic entry (133.33...) paid 0.66666667.
     */
    @Test
    void anInversePositionAddedToAtAnotherPricePaysWhatItsLegsEarn() {
        admin.fundedAccount(name(), "BTC", "1");
        long uid = admin.lastUid;
        Reply open = admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"COIN-FUTURES\",\"symbol\":\"BTCUSD\","
                + "\"holdSide\":\"long\",\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"1\",\"price\":\"100\"}");
        assertThat(open.code()).as(open.raw()).isEqualTo("00000");
        String id = open.data().get("id").asText();
        Reply add = admin.post("/admin/v1/positions/" + id + "/fill", "{\"size\":\"1\",\"price\":\"200\"}");
        assertThat(add.code()).as(add.raw()).isEqualTo("00000");
        assertThat(new java.math.BigDecimal(add.data().get("openPriceAvg").asText())).isEqualByComparingTo("150");
        assertThat(admin.balances(uid).get("unified/BTC")).isEqualTo("0.8/0.2/0");
        Reply close = admin.post("/admin/v1/positions/" + id + "/close", "{\"price\":\"200\"}");
        assertThat(close.code()).as(close.raw()).isEqualTo("00000");
        assertThat(new java.math.BigDecimal(close.data().get("achievedProfits").asText())).isEqualByComparingTo("0.5");
        assertThat(admin.balances(uid).get("unified/BTC")).isEqualTo("1.5/0/0"); // 0.8 + 0.2 margin back + 0.5
        admin.assertConserved();
    }

    /** D120: a matching engine that retries an open, fill or close with its ref gets the position, not a second change. */
    @Test
    void aPositionChangeRetriedWithItsRefAppliesOnce() throws Exception {
        admin.fundedAccount(name(), "USDT", "1000");
        long uid = admin.lastUid;
        String ref = name();
        String openBody = "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\"long\","
                + "\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.01\",\"price\":\"90000\",\"fee\":\"0.54\",\"ref\":\"" + ref + "-open\"}";
        Reply open = admin.post("/admin/v1/positions", openBody);
        assertThat(open.code()).as(open.raw()).isEqualTo("00000");
        String id = open.data().get("id").asText();
        Reply again = admin.post("/admin/v1/positions", openBody.replace("\"0.01\"", "\"0.0100\""));
        assertThat(again.code()).as("a repeat, trailing zeros aside: " + again.raw()).isEqualTo("00000");
        assertThat(again.data().get("id").asText()).isEqualTo(id);
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("909.46/90/0");

        // Eight concurrent sends of one fill: one adds 0.01 at 92000 (margin 92, fee 0.5), the others answer the position.
        String fill = "{\"size\":\"0.01\",\"price\":\"92000\",\"fee\":\"0.5\",\"ref\":\"" + ref + "-fill\"}";
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Reply>> sends = new ArrayList<>();
        for (int i = 0; i < 8; i++) sends.add(pool.submit(() -> admin.post("/admin/v1/positions/" + id + "/fill", fill)));
        for (Future<Reply> f : sends) {
            Reply r = f.get(60, TimeUnit.SECONDS);
            assertThat(r.code()).as(r.raw()).isEqualTo("00000");
            assertThat(r.data().get("size").asText()).as(r.raw()).isEqualTo("0.02");
        }
        pool.shutdown();
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("816.96/182/0");

        // The ref on another request is refused and changes nothing.
        admin.settleJobs();
        String before = admin.stateHash();
        assertError(admin.post("/admin/v1/positions/" + id + "/fill", fill.replace("92000", "92001")), "40017",
                "Parameter verification failed ref " + ref + "-fill was already used with different parameters");
        assertError(admin.post("/admin/v1/positions/" + id + "/close", "{\"price\":\"91000\",\"ref\":\"" + ref + "-open\"}"), "40017", null);
        assertThat(admin.stateHash()).isEqualTo(before);

        String close = "{\"price\":\"91000\",\"fee\":\"1\",\"ref\":\"" + ref + "-close\"}";
        Reply closed = admin.post("/admin/v1/positions/" + id + "/close", close);
        assertThat(closed.data().get("status").asText()).as(closed.raw()).isEqualTo("closed");
        // A retry of the close answers the closed position instead of 40034; without the ref it is 40034 as before.
        Reply closedAgain = admin.post("/admin/v1/positions/" + id + "/close", close);
        assertThat(closedAgain.code()).as(closedAgain.raw()).isEqualTo("00000");
        assertThat(closedAgain.data().get("status").asText()).isEqualTo("closed");
        assertError(admin.post("/admin/v1/positions/" + id + "/close", "{\"price\":\"91000\"}"), "40034", null);
        // 816.96 + 182 margin back + 0 PnL (entry 91000, close 91000) - 1 fee
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("997.96/0/0");
        admin.assertConserved();
        // A seed is one transaction: its positions take no ref (a ref there would quietly merge two listed positions).
        long seeded = 1779500000L + NAMES.incrementAndGet() * 10 + kind.ordinal();
        assertError(admin.post("/admin/v1/seed", "{\"accounts\":[{\"uid\":" + seeded + ",\"username\":\"" + name() + "\","
                + "\"balances\":[{\"account\":\"unified\",\"coin\":\"USDT\",\"available\":\"1000\"}],"
                + "\"positions\":[{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\"long\",\"leverage\":\"10\","
                + "\"size\":\"0.01\",\"price\":\"90000\",\"ref\":\"" + ref + "-seed\"}]}]}"), "40020", "Parameter ref error");
    }
}
