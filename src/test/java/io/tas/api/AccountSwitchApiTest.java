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

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.store.generated.Tables.ACCOUNT_SWITCH;
import static io.tas.store.generated.Tables.LEDGER_TX;
import static io.tas.store.generated.Tables.SCHEDULED_TASKS;
import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * POST /api/v3/account/switch and GET /api/v3/account/switch-status (§3.1, §2.6) over HTTP on H2 and PostgreSQL.
 * Time moves through the admin clock and run-due calls, never by sleeping. Every test switches fresh accounts: the
 * demo accounts are shared by other test classes.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class AccountSwitchApiTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final long MINUTE = 60_000;
    private static final String CLASSIC_ON_V3 = "You are in Classic Account mode, and the Unified Account API is not supported at this time";

    private String name() { return "switch-" + kind + "-" + NAMES.incrementAndGet(); }

    private static JsonNode status(ApiClient c) {
        Reply r = c.get("/api/v3/account/switch-status");
        ok(r);
        return r.data();
    }

    /** The sandbox controls as a user calls them: move the clock, then run what is due. */
    private JsonNode advanceAndRunDue(long ms) {
        if (ms > 0) ok(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":" + ms + "}"));
        Reply run = admin.post("/admin/v1/jobs/run-due", "");
        ok(run);
        assertThat(run.data().get("remaining").asInt()).as(run.raw()).isZero();
        return run.data();
    }

    private void deposit(long uid, String account, String coin, String amount) {
        ok(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"" + account + "\",\"coin\":\"" + coin
                + "\",\"amount\":\"" + amount + "\",\"ref\":\"sw-" + uid + "-" + account + "-" + coin + "\"}"));
    }

    private int switchTransfers(long uid) {
        return server.app.database().autoCommit().fetchCount(LEDGER_TX, LEDGER_TX.KIND.eq("account_switch").and(LEDGER_TX.UID.eq(uid)));
    }

    @Test
    void aSwitchIsInProcessForAMinuteThenTheAccountIsClassicWithItsUnifiedBalancesInSpot() {
        ApiClient c = server.client(admin.fundedAccount(name(), "USDT", "100", "BTC", "0.5"));
        long uid = admin.lastUid;
        deposit(uid, "spot", "USDT", "7");
        deposit(uid, "otc", "ETH", "2");

        Reply accepted = c.post("/api/v3/account/switch", "");
        ok(accepted);
        assertThat(accepted.body().get("data").isNull()).as("§4.1: data null").isTrue();
        Reply settings = c.get("/api/v3/account/settings");
        ok(settings);
        assertThat(settings.data().get("accountMode").asText()).isEqualTo("switching");
        JsonNode process = status(c);
        assertThat(process.get("status").asText()).isEqualTo("process");
        assertThat(process.get("reason").asText()).as("§2.6: present, empty unless fail").isEmpty();

        // Due-ness follows the service clock: nothing runs before the minute is over, however often run-due is called.
        advanceAndRunDue(0);
        advanceAndRunDue(MINUTE - 1);
        assertThat(status(c).get("status").asText()).isEqualTo("process");
        JsonNode ran = advanceAndRunDue(1);
        assertThat(ran.get("due").asInt()).isPositive();

        JsonNode done = status(c);
        assertThat(done.get("status").asText()).isEqualTo("success");
        assertThat(done.get("reason").asText()).isEmpty();
        // A classic account now: v3 unified rows answer 40084 at once (the cache was dropped), v2 rows pass the family
        // guard (all-position answers, with no positions, never 40085), and account/info still answers.
        assertError(c.get("/api/v3/account/settings"), "40084", CLASSIC_ON_V3);
        assertError(c.post("/api/v3/account/switch", ""), "40084", CLASSIC_ON_V3);
        Reply all = c.get("/api/v2/mix/position/all-position?productType=USDT-FUTURES");
        ok(all);
        assertThat(all.data().isArray() && all.data().isEmpty()).as(all.raw()).isTrue();
        ok(c.get("/api/v3/account/info"));
        ServerPool.nextSecond(kind);
        assertThat(status(c).get("status").asText()).isEqualTo("success");

        // The unified balances moved to spot in one ledger transaction; OTC is left alone; money is conserved.
        assertThat(admin.balances(uid)).isEqualTo(Map.of("spot/USDT", "107/0/0", "spot/BTC", "0.5/0/0", "otc/ETH", "2/0/0"));
        assertThat(switchTransfers(uid)).isEqualTo(1);
        admin.assertConserved();
        assertThat(admin.get("/admin/v1/accounts/" + uid).data().get("kind").asText()).isEqualTo("CLASSIC");
    }

    @Test
    void anOpenPositionFailsTheSwitchWithAReasonAndChangesNothingElse() {
        ApiClient c = server.client(admin.fundedAccount(name(), "USDT", "1000"));
        long uid = admin.lastUid;
        Reply open = admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\"long\","
                + "\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.01\",\"price\":\"90000\",\"fee\":\"0.54\"}");
        ok(open);
        Map<String, String> before = admin.balances(uid);

        ok(c.post("/api/v3/account/switch", "{}"));
        advanceAndRunDue(MINUTE);

        JsonNode failed = status(c);
        assertThat(failed.get("status").asText()).isEqualTo("fail");
        assertThat(failed.get("reason").asText()).isEqualTo("the account holds 1 open futures position");
        Reply settings = c.get("/api/v3/account/settings");
        ok(settings);
        assertThat(settings.data().get("accountMode").asText()).isEqualTo("unified");
        assertThat(admin.balances(uid)).isEqualTo(before);
        assertThat(switchTransfers(uid)).isZero();

        // Once the position is closed, a new request gets a new job, which succeeds.
        ok(admin.post("/admin/v1/positions/" + open.data().get("id").asText() + "/close", "{\"price\":\"90000\",\"fee\":\"0\"}"));
        ServerPool.nextSecond(kind);
        ok(c.post("/api/v3/account/switch", ""));
        assertThat(status(c).get("status").asText()).isEqualTo("process");
        assertThat(status(c).get("reason").asText()).isEmpty();
        advanceAndRunDue(MINUTE);
        assertThat(status(c).get("status").asText()).isEqualTo("success");
        assertThat(admin.balances(uid)).isEqualTo(Map.of("spot/USDT", "999.46/0/0"));
        assertThat(switchTransfers(uid)).isEqualTo(1);
        admin.assertConserved();
    }

    @Test
    void aDebtFailsTheSwitch() {
        ApiClient c = server.client(admin.fundedAccount(name(), "USDT", "100"));
        long uid = admin.lastUid;
        ok(admin.post("/admin/v1/ledger/borrow", "{\"uid\":" + uid + ",\"coin\":\"USDT\",\"amount\":\"40\",\"ref\":\"sw-b-" + uid + "\"}"));
        Map<String, String> before = admin.balances(uid);

        ok(c.post("/api/v3/account/switch", ""));
        advanceAndRunDue(MINUTE);

        JsonNode failed = status(c);
        assertThat(failed.get("status").asText()).isEqualTo("fail");
        assertThat(failed.get("reason").asText()).isEqualTo("the unified account has debts in USDT");
        assertThat(c.get("/api/v3/account/settings").data().get("accountMode").asText()).isEqualTo("unified");
        assertThat(admin.balances(uid)).isEqualTo(before);
        assertThat(switchTransfers(uid)).isZero();
    }

    @Test
    void aSecondRequestWhileInProcessIsAcceptedAndKeepsTheFirstDueTime() {
        ApiClient c = server.client(admin.fundedAccount(name(), "USDT", "5"));
        long uid = admin.lastUid;
        ok(c.post("/api/v3/account/switch", ""));
        ServerPool.nextSecond(kind); // 1001 ms later
        Reply again = c.post("/api/v3/account/switch", "{}");
        ok(again);
        assertThat(status(c).get("status").asText()).isEqualTo("process");
        advanceAndRunDue(MINUTE - 1001); // the first request's minute is over; the second did not push it back
        assertThat(status(c).get("status").asText()).isEqualTo("success");
        assertThat(switchTransfers(uid)).isEqualTo(1);
        assertThat(server.app.database().autoCommit().fetchOne(ACCOUNT_SWITCH, ACCOUNT_SWITCH.UID.eq(uid)).getAttempt()).isEqualTo(1);
    }

    /** A job that runs again (a node died after the commit, before the job's row was removed) changes nothing. */
    @Test
    void aRepeatedRunOfAFinishedJobChangesNothing() {
        ApiClient c = server.client(admin.fundedAccount(name(), "USDT", "12"));
        long uid = admin.lastUid;
        ok(c.post("/api/v3/account/switch", ""));
        advanceAndRunDue(MINUTE);
        assertThat(status(c).get("status").asText()).isEqualTo("success");
        var finished = server.app.database().autoCommit().fetchOne(ACCOUNT_SWITCH, ACCOUNT_SWITCH.UID.eq(uid));

        server.app.database().autoCommit().insertInto(SCHEDULED_TASKS)
                .set(SCHEDULED_TASKS.TASK_NAME, "account-switch").set(SCHEDULED_TASKS.TASK_INSTANCE, uid + "-1")
                .set(SCHEDULED_TASKS.EXECUTION_TIME, OffsetDateTime.ofInstant(server.clock.instant(), ZoneOffset.UTC))
                .set(SCHEDULED_TASKS.PICKED, false).set(SCHEDULED_TASKS.VERSION, 1L).execute();
        long runs = server.app.jobs().executions("account-switch");
        advanceAndRunDue(0);
        assertThat(server.app.jobs().executions("account-switch")).as("the job ran again").isGreaterThan(runs);

        assertThat(server.app.database().autoCommit().fetchOne(ACCOUNT_SWITCH, ACCOUNT_SWITCH.UID.eq(uid))).isEqualTo(finished);
        assertThat(switchTransfers(uid)).isEqualTo(1);
        assertThat(admin.balances(uid)).isEqualTo(Map.of("spot/USDT", "12/0/0"));
    }

    @Test
    void onlyAUnifiedParentWithAReadAndWriteKeyMaySwitch() {
        // A sub-account: 40068 on both rows (D5). The classic sub-account: 40084 first on switch (D6), 40068 on status.
        assertError(server.client(Credentials.SUB).post("/api/v3/account/switch", ""), "40068", "Disable subaccount access");
        assertError(server.client(Credentials.SUB).get("/api/v3/account/switch-status"), "40068", "Disable subaccount access");
        assertError(server.client(Credentials.CLASSIC).post("/api/v3/account/switch", ""), "40084", CLASSIC_ON_V3);
        assertError(server.client(Credentials.CLASSIC).get("/api/v3/account/switch-status"), "40068", "Disable subaccount access");

        // A read-only key: switch is a write row (40014); switch-status is a read row.
        admin.fundedAccount(name());
        long uid = admin.lastUid;
        String ro = admin.createKey(uid, "ReadOnly1", "read-only", "[\"uta_mgt\"]");
        ApiClient readOnly = server.client(new Credentials(ro, admin.lastSecret, "ReadOnly1"));
        assertError(readOnly.post("/api/v3/account/switch", ""), "40014", "Incorrect permissions, need read-and-write permissions");
        assertError(readOnly.get("/api/v3/account/switch-status"), "40017", "Parameter verification failed no account switch was requested");
        String noMgt = admin.createKey(uid, "NoMgt1", "read-and-write", "[\"uta_trade\"]");
        assertError(server.client(new Credentials(noMgt, admin.lastSecret, "NoMgt1")).post("/api/v3/account/switch", ""),
                "40014", "Incorrect permissions, need uta_mgt permissions");
        assertThat(server.app.database().autoCommit().fetchCount(ACCOUNT_SWITCH, ACCOUNT_SWITCH.UID.eq(uid))).isZero();
    }

    @Test
    void theStatusIsTheCallersOwnAndNeverSwitchedIs40017() {
        ApiClient switching = server.client(admin.fundedAccount(name()));
        long switchingUid = admin.lastUid;
        ApiClient stranger = server.client(admin.fundedAccount(name()));
        ok(switching.post("/api/v3/account/switch", ""));
        assertThat(status(switching).get("status").asText()).isEqualTo("process");
        String never = "Parameter verification failed no account switch was requested";
        assertError(stranger.get("/api/v3/account/switch-status"), "40017", never);
        assertError(stranger.get("/api/v3/account/switch-status?uid=" + switchingUid), "40017", never);
        assertThat(stranger.get("/api/v3/account/settings").data().get("accountMode").asText()).isEqualTo("unified");
    }

    @Test
    void theSandboxClockRefusesBadAdvances() {
        assertError(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":0}"), "40020", "Parameter ms error");
        assertError(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":-5}"), "40020", "Parameter ms error");
        assertError(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":\"soon\"}"), "40020", "Parameter ms error");
        assertError(admin.post("/admin/v1/sandbox/clock/advance", "{}"), "40019", "Parameter ms cannot be empty");
        assertError(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":999999999999999}"), "40020", "Parameter ms error");
        long before = server.clock.millis();
        Reply ok = admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":1500}");
        ok(ok);
        assertThat(ok.data().get("now").asLong()).isEqualTo(before + 1500);
        assertThat(admin.get("/admin/v1/sandbox/clock").data().get("adjustable").asBoolean()).isTrue();
    }
}
