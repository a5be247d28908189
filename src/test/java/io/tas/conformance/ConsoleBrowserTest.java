package io.tas.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.admin.SandboxClock;
import io.tas.support.ApiClient;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29 item 4: conformance/console-browser.mjs drives the admin console in Debian's headless Chromium (playwright-core,
 * bin/test-setup installs chromium) against a real server on each database. Every figure it reports is checked here
 * against one computed from the admin API's balances before the run: the deposit moves USDT by exactly its amount, the
 * order freezes qty x price, the restore puts back the balance at the save. Full-page screenshots of every page go to
 * target/console-screenshots/ (a CI artifact).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class ConsoleBrowserTest {
    @Parameter Databases.Kind kind;
    private static final long UID = 1000000001L;
    private static final BigDecimal DEPOSIT = new BigDecimal("1234.5678");
    private static final BigDecimal DEPOSIT2 = new BigDecimal("55.5");
    /** Below the demo's best bid (97250.5) and between two synthetic levels (5 bps apart), so its level is its own. */
    private static final BigDecimal PRICE = new BigDecimal("97000");
    private static final BigDecimal QTY = new BigDecimal("0.001");

    @Test
    void theConsoleWorksInARealBrowser() throws Exception {
        NodeConformance.ensureInstalled();
        // A server of its own: the script restores a snapshot, which puts the whole world back.
        try (TestServer server = TestServer.start(kind, new SandboxClock(), c -> c.withJournalUnlessSet())) {
            BigDecimal before = usdtAvailable(server);
            ProcessBuilder pb = new ProcessBuilder("node", "console-browser.mjs");
            NodeConformance.serverEnv(pb.environment(), server);
            Path shots = Path.of("target", "console-screenshots").toAbsolutePath();
            pb.environment().put("TAS_SHOTS", shots.toString());
            pb.environment().put("TAS_CONSOLE_UID", Long.toString(UID));
            pb.environment().put("TAS_CONSOLE_DEPOSIT", DEPOSIT.toPlainString());
            pb.environment().put("TAS_CONSOLE_DEPOSIT2", DEPOSIT2.toPlainString());
            pb.environment().put("TAS_CONSOLE_PRICE", PRICE.toPlainString());
            pb.environment().put("TAS_CONSOLE_QTY", QTY.toPlainString());
            long t0 = System.nanoTime();
            NodeConformance.Result r = NodeConformance.run(pb, 120);
            System.out.printf("%s(console-browser.mjs on %s: %d ms)%n", r.output(), kind, (System.nanoTime() - t0) / 1_000_000);

            BigDecimal deposited = before.add(DEPOSIT);
            BigDecimal ordered = deposited.subtract(QTY.multiply(PRICE)); // a spot limit buy freezes qty x price (engine.md)
            assertThat(r.output()).contains(
                    "ok a wrong token is refused (HTTP 401, no cookie)",
                    "ok create a key: its secret is shown once (a 64-digit secret, gone after a reload)",
                    "ok the new key signs REST calls (ccxt fetchBalance USDT free = console's " + plain(before) + ")",
                    "ok deposit through the console (USDT available " + plain(before) + " -> " + plain(deposited) + ")",
                    "ok a bad amount is refused on the page and changes nothing (HTTP 400: ",
                    "ok an order placed through the API is in the open orders and the book (buy BTCUSDT " + plain(QTY) + " @ "
                            + plain(PRICE) + " live; USDT available " + plain(deposited) + " -> " + plain(ordered) + "; book "
                            + plain(PRICE) + ": resting " + plain(QTY) + ", merged " + plain(QTY) + ")",
                    "ok save a snapshot, deposit, restore: the balance is back (USDT available " + plain(ordered) + " -> "
                            + plain(ordered.add(DEPOSIT2)) + " -> " + plain(ordered) + ", order still open)",
                    "ok the account page: live positions (",
                    "ok the journal shows the key's calls (",
                    "ok clock: freeze and resume (frozen, then running)",
                    "ok faults: add and remove a rule (rule 1 added and removed)",
                    "ok every other page answers (books, classic-account, futures-book)",
                    "ok the OpenAPI viewers render every operation (openapi " + operations(server.baseUrl() + "/openapi.json")
                            + ", admin-openapi " + operations(server.adminUrl() + "/admin/openapi.json") + ")",
                    "ok log out (back to the login page)");
            assertThat(r.output()).containsPattern("ok log in with the admin token \\(\\d+ accounts: 1000000001 unified, .*1000000005 classic");
            assertThat(r.output()).containsPattern("(?m)^15 passed, 0 failed$");
            assertThat(r.exit()).as(r.output()).isZero();
            for (String page : new String[]{"login", "accounts", "key-created", "book", "snapshots", "account", "journal", "clock", "faults",
                    "books", "classic-account", "futures-book", "openapi", "admin-openapi"}) {
                assertThat(shots.resolve(page + ".png")).as(page).isNotEmptyFile();
            }
            // The restore put the balance back for the service too, not only on the page.
            assertThat(usdtAvailable(server)).isEqualByComparingTo(ordered);
        }
    }

    /** The operations a served OpenAPI document describes, counted from its JSON (not from the viewer). */
    private static int operations(String url) {
        JsonNode doc = ApiClient.raw(url, "GET", "").body();
        int n = 0;
        for (JsonNode item : doc.path("paths")) n += item.size();
        assertThat(n).as(url).isPositive();
        return n;
    }

    private static String plain(BigDecimal v) { return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString(); }

    private static BigDecimal usdtAvailable(TestServer server) {
        ApiClient.Reply r = ApiClient.raw(server.adminUrl() + "/admin/v1/accounts/" + UID + "/balances", "GET", "",
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
        assertThat(r.code()).isEqualTo("00000");
        for (JsonNode b : r.data()) {
            if (b.get("account").asText().equals("unified") && b.get("coin").asText().equals("USDT")) return new BigDecimal(b.get("available").asText());
        }
        return BigDecimal.ZERO;
    }
}
