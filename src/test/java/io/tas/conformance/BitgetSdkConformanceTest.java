package io.tas.conformance;

import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real client: the bitget-api npm SDK (pinned 3.2.3 in conformance/package-lock.json), unmodified
 * but for its base URL, against a real server on H2 with rate limits on and the real clock.
 */
class BitgetSdkConformanceTest {
    @Test
    void bitgetApiSdkWorksUnchanged() throws Exception {
        NodeConformance.ensureInstalled();
        // A sandbox clock: the script moves domain time forward to finish a switch; signatures stay on the machine's clock.
        try (TestServer server = TestServer.start(Databases.Kind.H2, new io.tas.admin.SandboxClock())) {
            ProcessBuilder pb = new ProcessBuilder("node", "sdk-conformance.mjs");
            NodeConformance.serverEnv(pb.environment(), server);
            NodeConformance.Result r = NodeConformance.run(pb, 120);
            System.out.println(r.output());
            assertThat(r.output()).contains("ok wrong secret -> 40009", "ok expired timestamp", "-> 40008",
                    "ok wrong passphrase -> 40012", "ok v3 account settings", "ok v3 sub-account list",
                    "ok sub-account key calling sub-list -> 40068", "ok classic key account info",
                    "ok classic key v3 account settings -> 40084 (http=400 msg=\"You are in Classic Account mode, and the Unified Account API is not supported at this time\")",
                    "ok unified key v2 futures positions -> 40085 (http=400 msg=\"You are in Unified Account mode, and the Classic Account API is not supported at this time\")",
                    "ok v3 sub-account list paging limit=1 (3 distinct subUids)",
                    // issue 8: account configuration
                    "ok v3 pre-set-leverage", "ok v3 set-leverage + settings read back", "ok v3 set-margin add and remove",
                    "ok v3 set-margin beyond the removable margin -> 40017", "ok v3 set-hold-mode with open positions -> 25010",
                    "ok v3 switch-deduct + deduct-info", "ok v3 adjust-account-mode + delta-info",
                    "ok v3 delta-info while deltaSwitch is no -> 40017", "ok read-only key set-leverage -> 40014",
                    "ok classic key set-leverage -> 40084", "ok v3 switch to classic: process, then success, then 40084",
                    "ok v3 switch of an account with positions and debts fails with a reason", "ok sub-account key switch -> 40068",
                    "ok v3 history-position paging", "ok v3 history-position range over 30 days -> 40017",
                    "ok read-only key v3 history-position -> 40014", "ok classic key v2 all-position",
                    "ok classic key v2 single-position", "ok classic key v2 history-position paging",
                    "ok v3 history strategy orders paging (Number cursor) (135 orders)", "ok v3 unfilled strategy orders",
                    "ok v3 copy-trading profit summary",
                    "ok classic key history strategy orders -> 40084 (http=400 msg=\"You are in Classic Account mode, and the Unified Account API is not supported at this time\")",
                    "ok read-only key profit summary -> 40014",
                    "ok v3 place and cancel a Reality order", "ok v3 Reality order on a pair that is not a Reality pair -> 25100",
                    "ok demoTrading client (paptrading: 1) v3 settings and v2 classic fills",
                    // issue 9: spot fills and withdrawal records (classic demo key)
                    "ok v2 spot fills paging (3 pages with limit=1)", "ok v2 spot withdrawal records paging",
                    "ok v2 spot withdrawal records without startTime -> 40019",
                    "ok unified key v2 spot fills -> 40085 (http=400 msg=\"You are in Unified Account mode, and the Classic Account API is not supported at this time\")",
                    "ok unified key v2 withdrawal records -> 40085 (http=400 msg=\"You are in Unified Account mode, and the Classic Account API is not supported at this time\")",
                    "ok v3 trade fills paging (cursor) (150 fills)",
                    "ok v3 withdrawal records paging (cursor = smallest orderId)",
                    "ok v3 deposit records paging (cursor = smallest orderId)",
                    "ok classic key v3 trade fills -> 40084 (http=400 msg=\"You are in Classic Account mode, and the Unified Account API is not supported at this time\")");
            assertThat(r.output()).containsPattern("(?m)^\\d+ passed, 0 failed$");
            assertThat(r.exit()).as(r.output()).isZero();
        }
    }
}
