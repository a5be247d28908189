package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admin money inputs are checked before they reach SQL (issue 7, item 1): a value the ledger cannot store is an
 * HTTP 400 with a documented code, never a 500; nothing changes; concurrent users' trades are not affected.
 * A ref reused with another payload is refused, like a reused idempotency key with other parameters.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class AdminMoneyInputTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private String name() { return "input-" + kind + "-" + NAMES.incrementAndGet(); }


    private Reply deposit(long uid, String amount, String ref) {
        return admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\""
                + amount + "\",\"ref\":\"" + ref + "\"}");
    }

    @Test
    void unstorableDepositsAre400WithTheirCodeAndChangeNothingWhileTradesGoOn() throws Exception {
        admin.fundedAccount(name(), "USDT", "100");
        long victim = admin.lastUid;
        // Traders converting dust at the same time: each has one DOGE worth 0.38 USDT.
        List<Credentials> traders = new ArrayList<>();
        for (int i = 0; i < 8; i++) traders.add(admin.fundedAccount(name(), "DOGE", "1", "BGB", "1"));
        Map<String, String> before = admin.balances(victim);

        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reply>> trades = new ArrayList<>();
        List<Future<Reply>> bad = new ArrayList<>();
        for (Credentials t : traders) {
            ApiClient c = server.client(t);
            trades.add(pool.submit(() -> { start.await(); return c.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"DOGE\"]}"); }));
            bad.add(pool.submit(() -> { start.await(); return deposit(victim, "5", "r".repeat(200)); }));
        }
        start.countDown();
        for (Future<Reply> f : trades) assertThat(f.get(60, TimeUnit.SECONDS).code()).as("trade").isEqualTo("00000");
        for (Future<Reply> f : bad) {
            assertError(f.get(60, TimeUnit.SECONDS), "40808", "Parameter verification exception ref is longer than 128 characters");
        }
        pool.shutdown();

        assertError(deposit(victim, "1e30", name()), "40808", "Parameter verification exception amount has more than 20 integer digits");
        assertError(deposit(victim, "0.0000000000000000001", name()), "40808",
                "Parameter verification exception amount checkBDScale error value=0.0000000000000000001 checkScale=18");
        Reply adjust = admin.post("/admin/v1/ledger/adjust", "{\"uid\":" + victim + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"-1.1234567890123456789\",\"ref\":\"" + name() + "\"}");
        assertThat(adjust.code()).as(adjust.raw()).isEqualTo("40808");
        Reply borrow = admin.post("/admin/v1/ledger/borrow", "{\"uid\":" + victim + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"1e25\",\"ref\":\"" + name() + "\"}");
        assertThat(borrow.code()).as(borrow.raw()).isEqualTo("40808");

        assertThat(admin.balances(victim)).isEqualTo(before);
        admin.assertConserved();
    }

    @Test
    void aBalanceCannotBePushedBeyondWhatTheLedgerStores() {
        admin.fundedAccount(name(), "USDT", "99999999999999999999"); // 20 integer digits: the most a balance holds
        long uid = admin.lastUid;
        Reply more = deposit(uid, "1", name());
        assertError(more, "40808", "Parameter verification exception balance would exceed 20 integer digits");
        assertThat(admin.balances(uid).get("unified/USDT")).isEqualTo("99999999999999999999/0/0");
    }

    @Test
    void theSameRefWithAnotherAmountIsRefusedAndTheSameOneIsARepeat() {
        admin.fundedAccount(name(), "USDT", "10");
        long uid = admin.lastUid;
        String ref = name();
        Reply first = deposit(uid, "5", ref);
        assertThat(first.data().get("repeated").asBoolean()).isFalse();
        Reply other = deposit(uid, "6", ref);
        assertError(other, "40017", "Parameter verification failed ref " + ref + " was already used with different parameters");
        Reply again = deposit(uid, "5.000", ref); // the same amount, written differently
        assertThat(again.data().get("repeated").asBoolean()).as(again.raw()).isTrue();
        assertThat(again.data().get("txId").asText()).isEqualTo(first.data().get("txId").asText());
        Reply otherAccount = admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"spot\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"" + ref + "\"}");
        assertThat(otherAccount.code()).as(otherAccount.raw()).isEqualTo("40017");
        assertThat(admin.balances(uid)).containsExactlyEntriesOf(Map.of("unified/USDT", "15/0/0"));
    }

    @Test
    void concurrentFirstCallsWithOneRefPostOnce() throws Exception {
        admin.fundedAccount(name(), "USDT", "10");
        long uid = admin.lastUid;
        String same = name(), differing = name();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reply>> sameAmount = new ArrayList<>(), otherAmounts = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            int n = i;
            sameAmount.add(pool.submit(() -> { start.await(); return deposit(uid, "1", same); }));
            otherAmounts.add(pool.submit(() -> { start.await(); return deposit(uid, Integer.toString(n + 1), differing); }));
        }
        start.countDown();
        int fresh = 0, repeats = 0;
        for (Future<Reply> f : sameAmount) {
            Reply r = f.get(60, TimeUnit.SECONDS);
            assertThat(r.code()).as(r.raw()).isEqualTo("00000");
            if (r.data().get("repeated").asBoolean()) repeats++; else fresh++;
        }
        assertThat(fresh).isEqualTo(1);
        assertThat(repeats).isEqualTo(15);
        int winners = 0;
        for (Future<Reply> f : otherAmounts) {
            Reply r = f.get(60, TimeUnit.SECONDS);
            if (r.code().equals("00000")) winners++;
            else assertThat(r.code()).as(r.raw()).isEqualTo("40017");
        }
        pool.shutdown();
        assertThat(winners).as("exactly one of sixteen different amounts under one ref").isEqualTo(1);
        admin.assertConserved();
    }

    @Test
    void aBorrowsRefCannotNameARepay() {
        admin.fundedAccount(name(), "USDT", "10");
        long uid = admin.lastUid;
        String ref = name();
        String borrow = "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"" + ref + "\"}";
        assertThat(admin.post("/admin/v1/ledger/borrow", borrow).data().get("repeated").asBoolean()).isFalse();
        Reply repay = admin.post("/admin/v1/ledger/borrow", borrow.replace("\"5\"", "\"-5\""));
        assertError(repay, "40017", "Parameter verification failed ref " + ref + " was already used with different parameters");
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "15/0/5");
    }

    /** D57: only the unified account borrows; a classic account's debt would be unseen and never charged. */
    @Test
    void aClassicAccountCannotBeGivenDebt() {
        long classic = admin.createAccount("{\"username\":\"" + name() + "\",\"accountMode\":\"CLASSIC\"}");
        admin.settleJobs(); // D96: no other test's switch job may land between the two hashes
        String before = admin.stateHash();
        assertError(admin.post("/admin/v1/ledger/borrow", "{\"uid\":" + classic + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"100\",\"ref\":\"" + name() + "\"}"),
                "40017", "Parameter verification failed uid " + classic + " is a classic account, which cannot borrow");
        // Nor through a seed: debt named on the spot account, or on a classic account's unified one.
        long uid = 1778000000L + NAMES.incrementAndGet() * 10 + kind.ordinal();
        assertError(admin.post("/admin/v1/seed", "{\"accounts\":[{\"uid\":" + uid + ",\"username\":\"" + name() + "\",\"balances\":["
                + "{\"account\":\"spot\",\"coin\":\"USDT\",\"available\":\"5\",\"debt\":\"100\"}]}]}"), "40017",
                "Parameter verification failed debt of USDT on the spot account: only the unified account borrows");
        assertError(admin.post("/admin/v1/seed", "{\"accounts\":[{\"uid\":" + uid + ",\"username\":\"" + name() + "\",\"accountMode\":\"CLASSIC\","
                + "\"balances\":[{\"account\":\"unified\",\"coin\":\"USDT\",\"debt\":\"100\"}]}]}"), "40017",
                "Parameter verification failed uid " + uid + " is a classic account, which cannot borrow");
        assertThat(admin.stateHash()).as("refusals change nothing").isEqualTo(before);
        assertThat(admin.get("/admin/v1/accounts/" + uid).code()).as("the failed seed left no account").isEqualTo("40034");
    }

    /** A negative opening balance or debt in a seed is refused like a negative deposit, not skipped. */
    @Test
    void aNegativeSeedBalanceOrDebtIsRefused() {
        admin.settleJobs();
        String before = admin.stateHash();
        long uid = 1779000000L + NAMES.incrementAndGet() * 10 + kind.ordinal();
        String seed = "{\"accounts\":[{\"uid\":" + uid + ",\"username\":\"" + name() + "\",\"balances\":[";
        assertError(admin.post("/admin/v1/seed", seed + "{\"account\":\"unified\",\"coin\":\"USDT\",\"available\":\"-5\"}]}]}"),
                "40020", "Parameter available error");
        assertError(admin.post("/admin/v1/seed", seed + "{\"account\":\"unified\",\"coin\":\"USDT\",\"available\":\"5\",\"debt\":\"-1\"}]}]}"),
                "40020", "Parameter debt error");
        assertThat(admin.stateHash()).as("refusals change nothing").isEqualTo(before);
        assertThat(admin.get("/admin/v1/accounts/" + uid).code()).as("the failed seed left no account").isEqualTo("40034");
        // Zero is still a valid opening figure.
        assertThat(admin.post("/admin/v1/seed", seed + "{\"account\":\"unified\",\"coin\":\"USDT\",\"available\":\"0\",\"debt\":\"0\"}]}]}").code())
                .isEqualTo("00000");
    }

    @Test
    void aControlCharacterInAnAdminTextIs400() {
        admin.fundedAccount(name(), "USDT", "10");
        long uid = admin.lastUid;
        Map<String, String> before = admin.balances(uid);
        // PostgreSQL refuses U+0000 in a text column: it must never get that far.
        assertError(deposit(uid, "1", "nul\\u0000ref"), "40020", "Parameter ref error");
        assertError(admin.post("/admin/v1/accounts", "{\"username\":\"line\\nbreak\"}"), "40020", "Parameter username error");
        assertThat(admin.balances(uid)).isEqualTo(before);
    }

    @Test
    void aCoinTheLedgerCannotStoreIs400OnTheApiToo() {
        // A ticker whose base coin is longer than a balance's coin column, then a trade naming that coin.
        String coin = "LONGCOINNAME12345";
        assertThat(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + coin + "USDT\",\"lastPrice\":\"0.1\"}").code())
                .isEqualTo("00000");
        Credentials c = admin.fundedAccount(name(), "BGB", "1");
        Reply trade = server.client(c).post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"" + coin + "\"]}");
        assertError(trade, "40020", "Parameter fromCoinList error");
    }

    @Test
    void otherAdminInputsTheDatabaseCannotHoldAre400() {
        Reply ticker = admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"BIGUSDT\",\"lastPrice\":\"1e30\"}");
        assertError(ticker, "40808", "Parameter verification exception lastPrice has more than 20 integer digits");
        Reply account = admin.post("/admin/v1/accounts", "{\"username\":\"" + "u".repeat(65) + "\"}");
        assertError(account, "40808", "Parameter verification exception username is longer than 64 characters");
        Reply leverage = admin.post("/admin/v1/positions", "{\"uid\":1000000002,\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\"long\",\"leverage\":\"2.555\",\"size\":\"0.001\",\"price\":\"95000\"}");
        assertError(leverage, "40808", "Parameter verification exception leverage checkBDScale error value=2.555 checkScale=2");
        Reply symbol = admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + "S".repeat(40) + "\",\"lastPrice\":\"1\"}");
        assertThat(symbol.code()).as(symbol.raw()).isEqualTo("40020");
        Reply tickerCheck = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=SPOT&symbol=BIGUSDT", "GET", "");
        assertThat(tickerCheck.code()).isEqualTo("25100");
    }
}
