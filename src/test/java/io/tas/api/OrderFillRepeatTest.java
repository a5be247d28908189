package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25: what the race and node proofs (OrderRaceTest, TwoNodeOrdersTest, OrderCrashIT) found, each alone, on H2
 * and PostgreSQL. A resting order fills in parts over several transactions (two takers, a taker then a ticker sweep)
 * and is modified more than once; an account's order may cross its own resting order (stpMode "none", the default).
 * Fees 0.1% maker and taker, in the coin received.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class OrderFillRepeatTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String PLACE = "/api/v3/trade/place-order";
    private static final String INFO = "/api/v3/trade/order-info?orderId=";

    private String base, symbol;

    /** A new spot instrument with a ticker ask 100.01 / bid 99.99. */
    private void newSpot() {
        base = "OF" + kind.name().charAt(0) + NAMES.incrementAndGet();
        symbol = base + "USDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDT\"}"));
        ticker("100.01", "99.99");
    }

    private void ticker(String ask, String bid) {
        ok(OrderRaceTest.ticker(admin, symbol, ask, bid));
    }

    private ApiClient account(String... coinAmounts) {
        return server.client(admin.fundedAccount("fill-repeat-" + kind + "-" + NAMES.incrementAndGet(), coinAmounts));
    }

    private static String id(Reply r) {
        ok(r);
        return r.data().get("orderId").asText();
    }

    @Test
    void aRestingOrderFillsByTwoTakersInTurn() {
        newSpot();
        ApiClient seller = account(base, "2");
        long sellerUid = admin.lastUid;
        // Sell 2 at 100 rests (bid 99.99); each buyer takes 1 of it at 100 (the synthetic ask 100.01 is above the limit).
        String sell = id(seller.post(PLACE, OrderRaceTest.order(symbol, "sell", "2", "100", "gtc", null)));
        ApiClient first = account("USDT", "1000"), second = account("USDT", "1000");
        long secondUid = admin.lastUid;
        id(first.post(PLACE, OrderRaceTest.order(symbol, "buy", "1", "100", "gtc", null)));
        assertThat(seller.get(INFO + sell).data().get("orderStatus").asText()).isEqualTo("partially_filled");
        // The second partial fill of the maker.
        id(second.post(PLACE, OrderRaceTest.order(symbol, "buy", "1", "100", "gtc", null)));
        assertThat(seller.get(INFO + sell).data().get("orderStatus").asText()).isEqualTo("filled");
        // Seller: 200 less two maker fees of 0.1; second buyer: 900 USDT and 1 - 0.001 base.
        assertThat(admin.balances(sellerUid)).containsExactly(java.util.Map.entry("unified/USDT", "199.8/0/0"));
        assertThat(admin.balances(secondUid)).containsEntry("unified/USDT", "900/0/0").containsEntry("unified/" + base, "0.999/0/0");
        admin.assertConserved();
    }

    @Test
    void aPartlyFilledRestingOrderFillsWhenTheTickerCrossesIt() {
        newSpot();
        ApiClient seller = account(base, "2");
        long sellerUid = admin.lastUid;
        String sell = id(seller.post(PLACE, OrderRaceTest.order(symbol, "sell", "2", "100", "gtc", null)));
        id(account("USDT", "1000").post(PLACE, OrderRaceTest.order(symbol, "buy", "1", "100", "gtc", null)));
        // The bid rises to 100.5: the sell's other 1 fills as the maker at 100.
        ticker("100.6", "100.5");
        assertThat(seller.get(INFO + sell).data().get("orderStatus").asText()).isEqualTo("filled");
        assertThat(admin.balances(sellerUid)).containsExactly(java.util.Map.entry("unified/USDT", "199.8/0/0"));
        admin.assertConserved();
    }

    @Test
    void aRestingOrderIsModifiedTwice() {
        newSpot();
        ApiClient c = account("USDT", "1000");
        long uid = admin.lastUid;
        String buy = id(c.post(PLACE, OrderRaceTest.order(symbol, "buy", "1", "90", "gtc", null)));
        ok(c.post("/api/v3/trade/modify-order", "{\"orderId\":\"" + buy + "\",\"price\":\"91\"}"));
        ok(c.post("/api/v3/trade/modify-order", "{\"orderId\":\"" + buy + "\",\"price\":\"92\"}"));
        assertThat(c.get(INFO + buy).data().get("price").asText()).isEqualTo("92");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "908/92/0");
        admin.assertConserved();
    }

    /**
     * stpMode is "none" (the default, shown on every order): an account's order that crosses its own resting order
     * trades with it, as on the platform.
     */
    @Test
    void anOrderCrossingTheAccountsOwnRestingOrderTradesWithIt() {
        newSpot();
        ApiClient c = account("USDT", "1000");
        long uid = admin.lastUid;
        admin.deposit(uid, "unified", base, "5");
        // Sell 1 at 100 rests (bid 99.99); buy 1 at 100 crosses it: the account trades with itself.
        String sell = id(c.post(PLACE, OrderRaceTest.order(symbol, "sell", "1", "100", "gtc", null)));
        String buy = id(c.post(PLACE, OrderRaceTest.order(symbol, "buy", "1", "100", "gtc", null)));
        assertThat(c.get(INFO + sell).data().get("orderStatus").asText()).isEqualTo("filled");
        assertThat(c.get(INFO + buy).data().get("orderStatus").asText()).isEqualTo("filled");
        // Base: 5 - 1 + 1 - 0.001 taker fee = 4.999; USDT: 1000 - 100 + 100 - 0.1 maker fee = 999.9.
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "999.9/0/0").containsEntry("unified/" + base, "4.999/0/0");
        admin.assertConserved();
    }
}
