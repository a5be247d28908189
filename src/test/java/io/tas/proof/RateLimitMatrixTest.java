package io.tas.proof;

import io.tas.api.Admin;
import io.tas.http.Endpoint;
import io.tas.proof.MatrixAccounts.Account;
import io.tas.proof.MatrixAccounts.KeySpec;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 7: every catalog row driven at twice its §8 limit inside one window: exactly the limit gets past the
 * limiter and exactly the limit answers 429, and a second caller (another UID; another address for the per-IP rows) in
 * the same window gets no 429. The limit each row must have is SpecRows' (§8), not the catalog's. The clock stands
 * still (RateLimitApiTest's class comment: the pool's clock moves only when a test moves it), so counts are exact.
 * A write row's answer to the calls after the first may be a refusal of its own (a second conversion of the same coins,
 * a second cancel): only 429 is counted, since the limiter runs before the row's own checks (D10).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RateLimitMatrixTest {
    @Parameter Databases.Kind kind;

    @Test
    void everyRowAtTwiceItsLimitAcceptsExactlyTheQuotaAndOthersAreNotThrottled() {
        TestServer server = ServerPool.next(kind);
        Admin admin = new Admin(server);
        MatrixAccounts accounts = new MatrixAccounts(server, admin, "limits-" + kind);
        // [unified, classic] for the caller driven over the limit and for the other caller.
        Account[] first = {accounts.unified(KeySpec.FULL, null), accounts.classic(KeySpec.FULL)};
        Account[] other = {accounts.unified(KeySpec.FULL, null), accounts.classic(KeySpec.FULL)};
        // Per-IP rows: addresses no other test uses, so their buckets start full whatever ran before.
        String firstIp = "127.0.0.5";
        String otherIp = "127.0.0.6";

        int rows = 0;
        long sent = 0;
        for (Endpoint row : RowRequests.ordered()) {
            SpecRows.Rule rule = SpecRows.of(row);
            int limit = rule.perSecond();
            int family = row.family() == Endpoint.Family.CLASSIC ? 1 : 0;
            Account a = first[family];
            Account b = other[family];
            ApiClient callerA = rule.perIp() ? a.client().from(firstIp) : a.client();
            ApiClient callerB = rule.perIp() ? a.client().from(otherIp) : b.client();
            RowRequests.Request reqA = RowRequests.of(row, a.ctx(server));
            RowRequests.Request reqB = RowRequests.of(row, (rule.perIp() ? a : b).ctx(server));

            int throttled = throttled(row, callerA, reqA, 2 * limit);
            assertThat(throttled).as(row + ": 2 × " + limit + " calls, the ones over the limit").isEqualTo(limit);
            assertThat(throttled(row, callerB, reqB, limit)).as(row + ": another " + (rule.perIp() ? "IP" : "UID") + " in the same window").isZero();
            rows++;
            sent += 3L * limit;
        }
        accounts.settleJobs(); // the switches requested above end now, not inside a later test
        assertThat(rows).isEqualTo(Endpoint.values().length);
        io.tas.support.Proof.figure("rate-limit-matrix %s: rows=%d requests=%d accepted=quota on every row, 0 429s for other callers%n",
                kind, rows, sent);
    }

    /** How many of n calls the limiter refused (HTTP 429, code 429); any other answer got past it. */
    private static int throttled(Endpoint row, ApiClient client, RowRequests.Request req, int n) {
        int refused = 0;
        for (int i = 0; i < n; i++) {
            Reply r = req.send(client);
            if (r.status() == 429) {
                assertThat(r.code()).as(row + ": " + r.raw()).isEqualTo("429");
                assertThat(r.msg()).isEqualTo("Too Many Requests");
                refused++;
            } else {
                assertThat(r.status()).as(row + ": " + r.raw()).isIn(200, 400);
                assertThat(r.code()).as(row + ": a server failure (D93) is not an answer").isNotEqualTo("40015");
            }
        }
        return refused;
    }
}
