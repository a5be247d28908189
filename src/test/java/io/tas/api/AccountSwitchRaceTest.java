package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24 item 1 (D141): a switch to classic moves every change that committed before it, and no change lands in
 * between. The test holds a lock on one of the account's unified balance rows from a connection of its own, so the
 * switch's job stops after it has read the balances; meanwhile an admin deposit of a coin the account never held and a
 * small-asset trade that creates BGB are sent. Whatever was acknowledged while the switch was under way must have moved
 * to spot. Before D141 both committed beside the blocked switch and stayed in unified rows of a now classic account.
 * PostgreSQL only: on H2 one session writes at a time (D113), so no write can run beside the switch there.
 */
class AccountSwitchRaceTest {
    private static final long MINUTE = 60_000;

    @Test
    void whatCommitsWhileTheSwitchRunsIsMovedOrComesAfterIt() throws Exception {
        TestServer server = ServerPool.next(Databases.Kind.POSTGRES);
        Admin admin = new Admin(server);
        ApiClient client = server.client(admin.fundedAccount("switch-race-" + System.nanoTime(), "USDT", "100", "DOGE", "12.5"));
        long uid = admin.lastUid;
        ok(client.post("/api/v3/account/switch", ""));

        try (Connection blocker = DriverManager.getConnection(server.db.url(), server.db.user(), "")) {
            blocker.setAutoCommit(false);
            try (PreparedStatement s = blocker.prepareStatement(
                    "select available from balance where uid = ? and account_type = 'unified' and coin = 'USDT' for update")) {
                s.setLong(1, uid);
                s.executeQuery().close();
            }
            ok(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":" + MINUTE + "}"));
            CompletableFuture<Reply> runDue = CompletableFuture.supplyAsync(() -> admin.post("/admin/v1/jobs/run-due", ""));
            awaitLockWaiters(server, 1); // the switch, stopped at the balance row after reading the balances

            CompletableFuture<Reply> deposit = CompletableFuture.supplyAsync(() -> admin.post("/admin/v1/ledger/deposit",
                    "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"XRP\",\"amount\":\"1.8\",\"ref\":\"race-" + uid + "\"}"));
            CompletableFuture<Reply> trade = CompletableFuture.supplyAsync(() -> client.post("/api/v3/convert/small-assets-trade",
                    "{\"fromCoinList\":[\"DOGE\"]}"));
            // Each either finishes beside the switch or waits for it on a lock. Both are group-commit changes, so they may
            // wait in one batch (one lock waiter for two requests): wait until one of them finished or waits, then give the
            // other a moment. A request still running when the blocker lets go commits after the switch, which is what
            // the "after" assertions below expect of it: it cannot commit beside the switch once the switch holds its locks.
            awaitUntil(() -> waiters(server) >= 2 || deposit.isDone() || trade.isDone());
            Thread.sleep(300);
            boolean depositBeside = deposit.isDone();
            boolean tradeBeside = trade.isDone();
            blocker.rollback();

            Reply ran = runDue.get(60, TimeUnit.SECONDS);
            for (int i = 0; i < 10 && ran.data().get("remaining").asInt() > 0; i++) ran = admin.post("/admin/v1/jobs/run-due", "");
            assertThat(ran.data().get("remaining").asInt()).as(ran.raw()).isZero();
            Reply deposited = deposit.get(60, TimeUnit.SECONDS);
            Reply traded = trade.get(60, TimeUnit.SECONDS);
            ok(deposited);
            assertThat(admin.get("/admin/v1/accounts/" + uid).data().get("kind").asText()).isEqualTo("CLASSIC");
            Map<String, String> balances = admin.balances(uid);

            // Acknowledged while the switch was under way: it committed before the switch did, so the switch moved it.
            if (depositBeside) assertThat(balances).as("deposit acknowledged during the switch").containsEntry("spot/XRP", "1.8/0/0").doesNotContainKey("unified/XRP");
            // Otherwise it came after, into the classic account's futures balance (unified rows, D141).
            else assertThat(balances).containsEntry("unified/XRP", "1.8/0/0");
            if (tradeBeside && traded.code().equals("00000")) {
                assertThat(balances).as("BGB bought during the switch").containsKey("spot/BGB").doesNotContainKey("unified/BGB");
            } else {
                // After the switch the account is classic under its lock: the v3 trade is refused and changes nothing.
                assertThat(traded.code()).as(traded.raw()).isEqualTo("40084");
                assertThat(balances).doesNotContainKey("unified/BGB").doesNotContainKey("spot/BGB").containsEntry("spot/DOGE", "12.5/0/0");
            }
            assertThat(balances).containsEntry("spot/USDT", "100/0/0").doesNotContainKey("unified/USDT").doesNotContainKey("unified/DOGE");
            admin.assertConserved();
        }
    }

    /** Backends of the server's database waiting for a lock. */
    private static int waiters(TestServer server) {
        try (Connection c = DriverManager.getConnection(server.db.url(), server.db.user(), "");
             PreparedStatement s = c.prepareStatement(
                     "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
             ResultSet r = s.executeQuery()) {
            r.next();
            return r.getInt(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitLockWaiters(TestServer server, int n) throws InterruptedException {
        awaitUntil(() -> waiters(server) >= n);
    }

    /** Polls a condition that the requests in flight make true (not a domain transition), up to 30 s. */
    private static void awaitUntil(BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for the requests in flight");
            Thread.sleep(20);
        }
    }
}
