package io.tas.api;

import io.tas.accountswitch.AccountSwitchService;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static io.tas.store.generated.Tables.LEDGER_TX;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two nodes on one PostgreSQL, both polling for due jobs and both told to run them at the same moment: each switch's
 * job runs exactly once in all (db-scheduler picks a row by its version, so only one node gets it).
 */
class AccountSwitchNodesTest {
    private static final int ACCOUNTS = 8;

    @Test
    void twoNodesRunEachSwitchJobExactlyOnce() throws Exception {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer a = TestServer.start(Databases.Kind.POSTGRES, clock, false);
             TestServer b = TestServer.secondNode(a, false)) {
            Admin admin = new Admin(a);
            List<Long> uids = new ArrayList<>();
            List<ApiClient> clients = new ArrayList<>();
            for (int i = 0; i < ACCOUNTS; i++) {
                var creds = admin.fundedAccount("nodes-" + i, "USDT", Integer.toString(10 + i));
                uids.add(admin.lastUid);
                // Through node A: node B learns of A's new keys by NOTIFY a few milliseconds later (D39).
                clients.add(a.client(creds));
                Reply r = clients.get(i).post("/api/v3/account/switch", "");
                assertThat(r.code()).as(r.raw()).isEqualTo("00000");
            }

            clock.advance(Duration.ofMinutes(1));
            CyclicBarrier together = new CyclicBarrier(2);
            // Threads of their own: the common pool may have a single worker on this machine, and the barrier needs two.
            java.util.concurrent.Executor two = r -> Thread.ofPlatform().daemon().start(r);
            var runA = CompletableFuture.supplyAsync(() -> runDue(a, together), two);
            var runB = CompletableFuture.supplyAsync(() -> runDue(b, together), two);
            assertThat(runA.get(60, TimeUnit.SECONDS).data().get("remaining").asInt()).isZero();
            assertThat(runB.get(60, TimeUnit.SECONDS).data().get("remaining").asInt()).isZero();

            long ranOnA = a.app.jobs().executions(AccountSwitchService.TASK);
            long ranOnB = b.app.jobs().executions(AccountSwitchService.TASK);
            assertThat(ranOnA + ranOnB).as("runs on A (%d) and B (%d)", ranOnA, ranOnB).isEqualTo(ACCOUNTS);
            for (int i = 0; i < ACCOUNTS; i++) {
                Reply status = clients.get(i).get("/api/v3/account/switch-status");
                assertThat(status.data().get("status").asText()).as(status.raw()).isEqualTo("success");
                long uid = uids.get(i);
                assertThat(a.app.database().autoCommit().fetchCount(LEDGER_TX,
                        LEDGER_TX.KIND.eq(AccountSwitchService.LEDGER_KIND).and(LEDGER_TX.UID.eq(uid)))).isEqualTo(1);
                assertThat(admin.balances(uid)).containsExactlyEntriesOf(java.util.Map.of("spot/USDT", Integer.toString(10 + i) + "/0/0"));
            }
            admin.assertConserved();
        }
    }

    private static Reply runDue(TestServer node, CyclicBarrier together) {
        try {
            together.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new Admin(node).post("/admin/v1/jobs/run-due", "");
    }
}
