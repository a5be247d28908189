package io.tas.conformance;

import io.tas.admin.SandboxClock;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28 "must show", from JavaScript: conformance/sandbox-suite.mjs drives the real ccxt 4.5.84 and the sandbox
 * module clients/js/tas-sandbox.mjs the way a trading team's suite would (frozen clock, snapshot, a 429 on the next
 * cancel and the bot's retry seen in the journal, the account switch past a clock advance, twice) and compares the
 * rounds' transcripts byte for byte. The script resets the world, so it gets a server of its own: a sandbox clock and
 * the journal on. The lines below are its output of a passing run.
 */
class SandboxConformanceTest {
    @Test
    void aTradingTeamsSuiteRunsTwiceWithTheSameBytes() throws Exception {
        NodeConformance.ensureInstalled();
        try (TestServer server = TestServer.start(Databases.Kind.H2, new SandboxClock(), c -> c.withJournalUnlessSet())) {
            ProcessBuilder pb = new ProcessBuilder("node", "sandbox-suite.mjs");
            NodeConformance.serverEnv(pb.environment(), server);
            // Round 1's transcript under target/, for a reader of the run.
            pb.environment().put("TAS_SUITE_TRANSCRIPT", Path.of("target", "sandbox-suite-js.txt").toAbsolutePath().toString());
            long t0 = System.nanoTime();
            NodeConformance.Result r = NodeConformance.run(pb, 120);
            System.out.printf("%s(sandbox-suite.mjs: %d ms)%n", r.output(), (System.nanoTime() - t0) / 1_000_000);
            assertThat(r.output()).contains(
                    "ok set-up: reset, freeze, seed, saveSnapshot (frozen at 2026-01-05T00:00:00.000Z, snapshot js-suite)",
                    "ok a refused admin call raises SandboxRefused (restore of an unknown snapshot -> 40034)");
            for (int round = 1; round <= 2; round++) {
                String p = "ok round " + round + ": ";
                assertThat(r.output()).contains(
                        p + "restoreSnapshot (clock frozen at T, state hash as saved, no rules, empty journal)",
                        p + "createOrder limit buy rests (0.01@80000; USDT 9200/800)",
                        p + "cancelOrder retried after one 429 (DDoSProtection, retried: journal 429 (the rule), then 00000)",
                        p + "fetchOrder canceled, freeze released (canceled, filled 0; USDT 10000/0)",
                        p + "account switch waits for the clock (process, still process after run-due, success 2 min later)",
                        p + "a new ccxt sees a classic account (uta=false, spot USDT 10000/0)",
                        p + "transcript (11 answers, 13 journal entries)");
            }
            assertThat(r.output()).contains("ok rounds 1 and 2 are byte-identical (24 lines, ",
                    "ok the other sandbox calls (faults add/remove, journal filters and clear, set, resume, freeze, deleteSnapshot)");
            assertThat(r.output()).containsPattern("(?m)^18 passed, 0 failed$");
            assertThat(r.exit()).as(r.output()).isZero();
        }
    }
}
