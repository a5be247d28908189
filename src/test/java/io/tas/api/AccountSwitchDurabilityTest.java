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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;

import static io.tas.store.generated.Tables.ACCOUNT_SWITCH;
import static io.tas.store.generated.Tables.LEDGER_TX;
import static io.tas.store.generated.Tables.SCHEDULED_TASKS;
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

    /**
     * A node killed while it ran the job leaves the job's row picked by a node that is gone: the next run-due releases
     * it (its lease is absent) and runs it, once, instead of waiting for db-scheduler's missed heartbeats.
     */
    @Test
    void aJobPickedByANodeThatIsGoneRunsAtTheNextRunDueOnce() {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(kind, clock, false)) {
            Admin admin = new Admin(server);
            Credentials creds = admin.fundedAccount("gone-node-" + kind, "USDT", "75");
            long uid = admin.lastUid;
            assertThat(server.client(creds).post("/api/v3/account/switch", "").code()).isEqualTo("00000");
            // Its heartbeat as fresh as can be: only the absent lease of node 1023 says that the node is gone.
            int picked = server.app.database().autoCommit().update(SCHEDULED_TASKS).set(SCHEDULED_TASKS.PICKED, true)
                    .set(SCHEDULED_TASKS.PICKED_BY, "tas-node-1023").set(SCHEDULED_TASKS.LAST_HEARTBEAT, OffsetDateTime.ofInstant(clock.instant().plus(Duration.ofHours(1)), ZoneOffset.UTC))
                    .where(SCHEDULED_TASKS.TASK_NAME.eq(AccountSwitchService.TASK)).execute();
            assertThat(picked).isEqualTo(1);

            clock.advance(Duration.ofMinutes(1));
            Reply run = admin.post("/admin/v1/jobs/run-due", "");
            assertThat(run.data().get("remaining").asInt()).as(run.raw()).isZero();
            assertThat(server.client(creds).get("/api/v3/account/switch-status").data().get("status").asText()).isEqualTo("success");
            assertThat(server.app.jobs().executions(AccountSwitchService.TASK)).isEqualTo(1);
            assertThat(transfers(server, uid)).isEqualTo(1);
            assertThat(admin.balances(uid)).isEqualTo(Map.of("spot/USDT", "75/0/0"));
        }
    }

    private static int transfers(TestServer s, long uid) {
        return s.app.database().autoCommit().fetchCount(LEDGER_TX, LEDGER_TX.KIND.eq(AccountSwitchService.LEDGER_KIND).and(LEDGER_TX.UID.eq(uid)));
    }
}
