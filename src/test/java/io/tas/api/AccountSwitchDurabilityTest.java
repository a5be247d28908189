package io.tas.api;

import io.tas.accountswitch.AccountSwitchService;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.Map;

import static io.tas.store.generated.Tables.ACCOUNT_SWITCH;
import static io.tas.store.generated.Tables.LEDGER_TX;
import static org.assertj.core.api.Assertions.assertThat;

/** The switch's job is durable: a node that stops before the job is due leaves it to the next one, which runs it once. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class AccountSwitchDurabilityTest {
    @Parameter Databases.Kind kind;

    @Test
    void aRestartBeforeTheJobRunsResumesItAndItRunsExactlyOnce() {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        TestServer first = TestServer.start(kind, clock, false);
        TestServer server = first;
        try {
            Admin admin = new Admin(first);
            Credentials creds = admin.fundedAccount("restart-" + kind, "USDT", "250");
            ApiClient c = first.client(creds);
            long uid = admin.lastUid;
            Reply accepted = c.post("/api/v3/account/switch", "");
            assertThat(accepted.code()).as(accepted.raw()).isEqualTo("00000");

            server = first.restart(); // the first node stops with the job still waiting for its minute
            admin = new Admin(server);
            c = server.client(creds);
            assertThat(c.get("/api/v3/account/switch-status").data().get("status").asText()).isEqualTo("process");
            assertThat(c.get("/api/v3/account/settings").data().get("accountMode").asText()).isEqualTo("switching");

            clock.advance(Duration.ofMinutes(1));
            Reply run = admin.post("/admin/v1/jobs/run-due", "");
            assertThat(run.data().get("remaining").asInt()).as(run.raw()).isZero();
            assertThat(c.get("/api/v3/account/switch-status").data().get("status").asText()).isEqualTo("success");
            assertThat(first.app.jobs().executions(AccountSwitchService.TASK)).isZero();
            assertThat(server.app.jobs().executions(AccountSwitchService.TASK)).isEqualTo(1);
            assertThat(transfers(server, uid)).isEqualTo(1);
            assertThat(admin.balances(uid)).isEqualTo(Map.of("spot/USDT", "250/0/0"));

            // Another restart and a day later: nothing is left to run, nothing changes.
            var finished = server.app.database().autoCommit().fetchOne(ACCOUNT_SWITCH, ACCOUNT_SWITCH.UID.eq(uid));
            server = server.restart();
            clock.advance(Duration.ofDays(1));
            run = new Admin(server).post("/admin/v1/jobs/run-due", "");
            assertThat(run.data().get("due").asInt()).as(run.raw()).isZero();
            assertThat(server.app.jobs().executions(AccountSwitchService.TASK)).isZero();
            assertThat(server.app.database().autoCommit().fetchOne(ACCOUNT_SWITCH, ACCOUNT_SWITCH.UID.eq(uid))).isEqualTo(finished);
            assertThat(transfers(server, uid)).isEqualTo(1);
            new Admin(server).assertConserved();
        } finally {
            server.close();
        }
    }

    private static int transfers(TestServer s, long uid) {
        return s.app.database().autoCommit().fetchCount(LEDGER_TX, LEDGER_TX.KIND.eq(AccountSwitchService.LEDGER_KIND).and(LEDGER_TX.UID.eq(uid)));
    }
}
