package io.tas.cli;

import io.tas.Main;
import io.tas.config.Config;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI as a user types it: `tas call` signs for real, `tas admin` provisions through the admin API. */
class CliTest {
    static TestServer server;

    @BeforeAll
    static void start() { server = TestServer.start(Databases.Kind.H2, Clock.systemUTC(), false); }

    @AfterAll
    static void stop() { server.close(); }

    record Run(int exit, String out) {}

    private static Run tas(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(new PrintWriter(out, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString());
    }

    private static String[] admin(String... rest) {
        String[] head = {"admin", "--admin-url", server.adminUrl(), "--token", TestServer.ADMIN_TOKEN};
        String[] all = new String[head.length + rest.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(rest, 0, all, head.length, rest.length);
        return all;
    }

    @Test
    void callSignsWithTheDemoKeyAndExitsZeroOnSuccess() {
        Run r = tas("call", "GET", "/api/v3/account/settings", "--base-url", server.baseUrl());
        assertThat(r.out()).contains("\"code\":\"00000\"", "\"uid\":\"1000000001\"");
        assertThat(r.exit()).isZero();
        Run bad = tas("call", "GET", "/api/v3/account/settings", "--base-url", server.baseUrl(), "--passphrase", "nope");
        assertThat(bad.out()).contains("\"code\":\"40012\"");
        assertThat(bad.exit()).isEqualTo(1);
    }

    @Test
    void adminCreatesAnAccountAndAKeyThatCallWorksWith() throws Exception {
        Run acc = tas(admin("create-account", "--json", "{\"uid\":1888000001,\"username\":\"cli-user\"}"));
        assertThat(acc.exit()).as(acc.out()).isZero();
        Run key = tas(admin("create-key", "--uid", "1888000001", "--passphrase", "CliPass1", "--permissions", "uta_mgt"));
        assertThat(key.exit()).as(key.out()).isZero();
        var data = io.tas.http.Json.MAPPER.readTree(key.out()).get("data");
        Run call = tas("call", "GET", "/api/v3/account/info", "--base-url", server.baseUrl(),
                "--key", data.get("accessKey").asText(), "--secret", data.get("secret").asText(), "--passphrase", "CliPass1");
        assertThat(call.out()).contains("\"userId\":\"1888000001\"", "\"permissions\":[\"uta_mgt\"]");
        Run revoke = tas(admin("revoke-key", data.get("accessKey").asText()));
        assertThat(revoke.exit()).isZero();
        assertThat(tas("call", "GET", "/api/v3/account/info", "--base-url", server.baseUrl(),
                "--key", data.get("accessKey").asText(), "--secret", data.get("secret").asText(), "--passphrase", "CliPass1").out())
                .contains("\"code\":\"40006\"");
    }

    @Test
    void adminSeedsAYamlFileAndSetsTickers(@TempDir Path dir) throws Exception {
        Path seed = dir.resolve("scenario.yaml");
        Files.writeString(seed, """
                accounts:
                  - uid: 1888000100
                    username: yaml-user
                    subAccounts:
                      - { uid: 1888000101, username: yaml-sub, type: agent }
                tickers:
                  - { category: SPOT, symbol: CLIUSDT, lastPrice: "2.5" }
                """);
        assertThat(tas(admin("seed", seed.toString())).exit()).isZero();
        assertThat(tas(admin("set-ticker", "--json", "{\"category\":\"SPOT\",\"symbol\":\"CLIUSDT\",\"lastPrice\":\"2.75\"}")).exit()).isZero();
        Run t = tas("call", "GET", "/api/v3/market/tickers?category=SPOT&symbol=CLIUSDT", "--base-url", server.baseUrl());
        assertThat(t.out()).contains("\"lastPrice\":\"2.75\"");
        Run bad = tas(admin("create-account", "--json", "{\"username\":\"x\",\"type\":\"robot\"}"));
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("\"code\":\"40020\"");
    }

    /**
     * Issue 9's three doors: a seed file lists fills and withdrawals (times as "ago"), tas admin ingest-fills and
     * ingest-withdrawals send a JSON array as one batch, and a bad record refuses its whole batch.
     */
    @Test
    void adminIngestsFillsAndWithdrawalsFromSeedsAndFiles(@TempDir Path dir) throws Exception {
        Path seed = dir.resolve("records.yaml");
        Files.writeString(seed, """
                accounts:
                  - uid: 1888000300
                    username: cli-classic
                    accountMode: CLASSIC
                    apiKeys:
                      - { accessKey: bg_cli_classic_0000000000000300, secret: cli-classic-secret-300, passphrase: CliPass3, permType: read-only }
                    fills:
                      - { tradeId: "900", symbol: BTCUSDT, side: buy, priceAvg: "100", size: "0.5", amount: "50", feeDetail: { feeCoin: BTC, totalFee: "-0.0005" }, ago: PT1H }
                    withdrawals:
                      - { orderId: "700", coin: USDT, size: "12", dest: internal_transfer, status: pending, ago: P2D }
                """);
        Run seeded = tas(admin("seed", seed.toString()));
        assertThat(seeded.exit()).as(seeded.out()).isZero();
        Path fills = dir.resolve("fills.json");
        Files.writeString(fills, "[{\"symbol\":\"ETHUSDT\",\"side\":\"sell\",\"priceAvg\":\"2000\",\"size\":\"0.1\",\"feeDetail\":{\"feeCoin\":\"USDT\"}}]");
        Run ingested = tas(admin("ingest-fills", "--uid", "1888000300", fills.toString()));
        assertThat(ingested.exit()).as(ingested.out()).isZero();
        assertThat(ingested.out()).contains("\"stored\":1");
        Path withdrawals = dir.resolve("withdrawals.json");
        Files.writeString(withdrawals, "[{\"coin\":\"USDT\",\"size\":\"1\"},{\"coin\":\"USDT\",\"size\":\"1\",\"status\":\"lost\"}]");
        Run refused = tas(admin("ingest-withdrawals", "--uid", "1888000300", withdrawals.toString()));
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.out()).contains("\"code\":\"40020\"", "Parameter records[1].status error");
        String[] creds = {"--base-url", server.baseUrl(), "--key", "bg_cli_classic_0000000000000300", "--secret", "cli-classic-secret-300",
                "--passphrase", "CliPass3"};
        Run read = tas(java.util.stream.Stream.concat(java.util.stream.Stream.of("call", "GET", "/api/v2/spot/trade/fills"),
                java.util.Arrays.stream(creds)).toArray(String[]::new));
        assertThat(read.out()).contains("\"symbol\":\"ETHUSDT\"", "\"amount\":\"200\"", "\"tradeId\":\"900\"", "\"totalFee\":\"-0.0005\"");
        long now = System.currentTimeMillis();
        Run w = tas(java.util.stream.Stream.concat(java.util.stream.Stream.of("call", "GET",
                "/api/v2/spot/wallet/withdrawal-records?startTime=" + (now - 3 * 86_400_000L) + "&endTime=" + now), java.util.Arrays.stream(creds))
                .toArray(String[]::new));
        assertThat(w.out()).contains("\"orderId\":\"700\"", "\"status\":\"pending\"", "\"type\":\"withdraw\"").doesNotContain("\"size\":\"1\"");
    }

    /**
     * Issue 10: a unified account's records through the same doors: a seed lists fills with a category, withdrawals and
     * deposits, tas admin ingest-deposits sends a batch, and the v3 rows read them.
     */
    @Test
    void adminIngestsUnifiedRecordsFromSeedsAndFiles(@TempDir Path dir) throws Exception {
        Path seed = dir.resolve("unified-records.yaml");
        Files.writeString(seed, """
                accounts:
                  - uid: 1888000400
                    username: cli-unified-records
                    apiKeys:
                      - { accessKey: bg_cli_unified_000000000000400, secret: cli-unified-secret-400, passphrase: CliPass4, permType: read-only }
                    fills:
                      - { tradeId: "901", category: USDT-FUTURES, symbol: ETHUSDT, side: sell, priceAvg: "3000", size: "0.5", execPnl: "12.5", feeDetail: { feeCoin: USDT, totalFee: "-0.9" }, ago: PT1H }
                    withdrawals:
                      - { orderId: "701", coin: USDT, size: "12", ago: P2D }
                    deposits:
                      - { orderId: "601", coin: BTC, size: "0.25", recordId: "0xabc", chain: BTC, ago: P1D }
                """);
        Run seeded = tas(admin("seed", seed.toString()));
        assertThat(seeded.exit()).as(seeded.out()).isZero();
        Path deposits = dir.resolve("deposits.json");
        Files.writeString(deposits, "[{\"coin\":\"USDT\",\"size\":\"40\",\"dest\":\"internal_transfer\"}]");
        Run ingested = tas(admin("ingest-deposits", "--uid", "1888000400", deposits.toString()));
        assertThat(ingested.exit()).as(ingested.out()).isZero();
        assertThat(ingested.out()).contains("\"stored\":1");
        Files.writeString(deposits, "[{\"coin\":\"USDT\",\"size\":\"1\"},{\"coin\":\"USDT\",\"size\":\"1\",\"status\":\"lost\"}]");
        Run refused = tas(admin("ingest-deposits", "--uid", "1888000400", deposits.toString()));
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.out()).contains("\"code\":\"40020\"", "Parameter records[1].status error");
        String[] creds = {"--base-url", server.baseUrl(), "--key", "bg_cli_unified_000000000000400", "--secret", "cli-unified-secret-400",
                "--passphrase", "CliPass4"};
        Run fills = tas(java.util.stream.Stream.concat(java.util.stream.Stream.of("call", "GET", "/api/v3/trade/fills"),
                java.util.Arrays.stream(creds)).toArray(String[]::new));
        assertThat(fills.out()).contains("\"execId\":\"901\"", "\"category\":\"USDT-FUTURES\"", "\"execValue\":\"1500\"",
                "\"fee\":\"0.9\"", "\"execPnl\":\"12.5\"");
        long now = System.currentTimeMillis();
        String window = "?startTime=" + (now - 3 * 86_400_000L) + "&endTime=" + (now + 60_000);
        Run d = tas(java.util.stream.Stream.concat(java.util.stream.Stream.of("call", "GET", "/api/v3/account/deposit-records" + window),
                java.util.Arrays.stream(creds)).toArray(String[]::new));
        assertThat(d.out()).contains("\"orderId\":\"601\"", "\"recordId\":\"0xabc\"", "\"size\":\"40\"", "\"dest\":\"internal_transfer\"")
                .doesNotContain("\"size\":\"1\"");
        Run w = tas(java.util.stream.Stream.concat(java.util.stream.Stream.of("call", "GET", "/api/v3/account/withdrawal-records" + window),
                java.util.Arrays.stream(creds)).toArray(String[]::new));
        assertThat(w.out()).contains("\"orderId\":\"701\"", "\"type\":\"withdraw\"");
    }

    @Test
    void historyPositionsComeFromASeedAndFromTheAdminCommand(@TempDir Path dir) throws Exception {
        long now = System.currentTimeMillis();
        Path seed = dir.resolve("history.yaml");
        Files.writeString(seed, """
                accounts:
                  - uid: 1888000200
                    username: history-user
                    accountMode: CLASSIC
                    apiKeys:
                      - { accessKey: bg_cli_history_0001, secret: cli-history-secret-0001, passphrase: CliHist1, permissions: [] }
                    historyPositions:
                      - { positionId: "1888000200000001", category: USDT-FUTURES, symbol: BTCUSDT, posSide: short, openPriceAvg: "96000",
                          closePriceAvg: "95000", openTotalPos: "0.2", closeTotalPos: "0.2", cumRealisedPnl: "200", openFeeTotal: "-1.5",
                          closeFeeTotal: "-1.5", netProfit: "197", createdTime: %d, updatedTime: %d }
                    historyPositionSeries:
                      - { count: 3, category: USDT-FUTURES, startMinutesAgo: 5, everyMinutes: 60, contracts: [ { symbol: ETHUSDT, price: "3400", size: "1" } ] }
                """.formatted(now - 7_200_000, now - 3_600_000));
        assertThat(tas(admin("seed", seed.toString())).exit()).isZero();
        Path batch = dir.resolve("batch.json");
        Files.writeString(batch, "{\"records\":[{\"uid\":1888000200,\"category\":\"COIN-FUTURES\",\"symbol\":\"BTCUSD\",\"holdSide\":\"long\","
                + "\"openAvgPrice\":\"95000\",\"closeAvgPrice\":\"96000\",\"openTotalPos\":\"0.01\",\"pnl\":\"0.000001\",\"utime\":" + now + "}]}");
        Run in = tas(admin("history-positions", "--file", batch.toString()));
        assertThat(in.exit()).as(in.out()).isZero();
        assertThat(in.out()).contains("\"count\":1");
        Run bad = tas(admin("history-positions", "--json", "{\"records\":[{\"uid\":1888000200,\"category\":\"USDT-FUTURES\"}]}"));
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("\"code\":\"40017\"", "records[0].symbol is required");
        String[] key = {"--base-url", server.baseUrl(), "--key", "bg_cli_history_0001", "--secret", "cli-history-secret-0001", "--passphrase", "CliHist1"};
        Run usdt = tas(concat(new String[]{"call", "GET", "/api/v2/mix/position/history-position"}, key));
        assertThat(usdt.exit()).as(usdt.out()).isZero();
        assertThat(usdt.out()).contains("\"positionId\":\"1888000200000001\"", "\"holdSide\":\"short\"", "\"netProfit\":\"197\"",
                "\"closeAvgPrice\":\"95000\"", "\"symbol\":\"ETHUSDT\"");
        Run coin = tas(concat(new String[]{"call", "GET", "/api/v2/mix/position/history-position?productType=COIN-FUTURES"}, key));
        assertThat(coin.out()).contains("\"symbol\":\"BTCUSD\"", "\"pnl\":\"0.000001\"", "\"closeTotalPos\":\"0.01\"");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void adminProvisionsInstrumentsAndMovesMoneyThroughTheLedger() {
        assertThat(tas(admin("set-instrument", "--json", "{\"category\":\"SPOT\",\"symbol\":\"SOLUSDT\",\"baseCoin\":\"SOL\",\"quoteCoin\":\"USDT\"}")).exit()).isZero();
        assertThat(tas(admin("deposit", "--json", "{\"uid\":1000000002,\"account\":\"spot\",\"coin\":\"SOL\",\"amount\":\"3\",\"ref\":\"cli-1\"}")).exit()).isZero();
        assertThat(tas(admin("adjust", "--json", "{\"uid\":1000000002,\"account\":\"spot\",\"coin\":\"SOL\",\"amount\":\"-1\",\"ref\":\"cli-2\"}")).exit()).isZero();
        assertThat(tas(admin("balances", "1000000002")).out()).contains("\"account\":\"spot\",\"coin\":\"SOL\",\"available\":\"2\"");
        assertThat(tas(admin("ledger-check")).out()).contains("\"ok\":true");
        Run bad = tas(admin("adjust", "--json", "{\"uid\":1000000002,\"account\":\"spot\",\"coin\":\"SOL\",\"amount\":\"-5\",\"ref\":\"cli-3\"}"));
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("\"code\":\"25202\"");
    }

    @Test
    void adminIngestsStrategyOrdersAndSetsTheProfitSummary(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String order = "{\"type\":\"trigger\",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"qty\":\"1\",\"posSide\":\"long\","
                + "\"status\":\"success\",\"triggerPrice\":\"90000\"}";
        Run one = tas(admin("strategy-orders", "--json", "{\"uid\":1000000001,\"records\":[" + order + "]}"));
        assertThat(one.out()).contains("\"count\":1");
        assertThat(one.exit()).isZero();
        Path file = dir.resolve("batch.json");
        Files.writeString(file, "{\"uid\":1000000001,\"records\":[" + order + "," + order + "]}");
        assertThat(tas(admin("strategy-orders", "--file", file.toString())).out()).contains("\"count\":2");
        Run bad = tas(admin("strategy-orders", "--json", "{\"uid\":1000000001,\"records\":[" + order.replace("success", "done") + "]}"));
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("\"code\":\"40020\"", "records[0].status");
        assertThat(tas(admin("strategy-orders")).exit()).isNotZero();
        Run summary = tas(admin("profit-summary", "--json", "{\"uid\":1000000001,\"totalProfit\":\"5\",\"totalAllocatedProfit\":\"1\",\"totalPendingProfit\":\"0\"}"));
        assertThat(summary.exit()).isZero();
        assertThat(summary.out()).contains("\"totalProfit\":\"5\"");
    }

    @Test
    void endpointsPrintsTheInventory() {
        Run r = tas("endpoints");
        assertThat(r.out()).contains("| GET | `/api/v3/account/info` |", "| GET | `/api/v2/spot/public/coins` | public | read | 20/s/IP | beyond spec | done |")
                .hasLineCount(2 + io.tas.http.Endpoint.values().length); // header, separator, one line a catalog row
        int rows = io.tas.http.Endpoint.values().length;
        Run summary = tas("endpoints", "--summary");
        assertThat(summary.out()).contains("| `/api/v3/account/` |", "| `/api/v2/margin/` | 1 | 0 | 1 |")
                .contains("| all | " + rows + " | 30 | " + rows + " |");
    }

    @Test
    void theNodeIdFlagWinsOverTheEnvironment() {
        Map<String, String> env = Map.of("TAS_NODE_ID", "3");
        ServeCommand flagged = new ServeCommand();
        new CommandLine(flagged).parseArgs("--node-id", "12");
        assertThat(flagged.options.apply(env).nodeId()).isEqualTo(12);
        ServeCommand plain = new ServeCommand();
        new CommandLine(plain).parseArgs();
        assertThat(plain.options.apply(env).nodeId()).isEqualTo(3);
        assertThat(plain.options.apply(Map.of()).nodeId()).as("unset: lease any free id").isNull();
    }

    @Test
    void theTrustedProxiesFlagWinsOverTheEnvironment() {
        Map<String, String> env = Map.of("TAS_TRUSTED_PROXIES", "10.0.0.5");
        ServeCommand flagged = new ServeCommand();
        new CommandLine(flagged).parseArgs("--trusted-proxies", "10.1.0.0/16,::1");
        assertThat(flagged.options.apply(env).trustedProxies()).isEqualTo("10.1.0.0/16,::1");
        ServeCommand plain = new ServeCommand();
        new CommandLine(plain).parseArgs();
        assertThat(plain.options.apply(env).trustedProxies()).isEqualTo("10.0.0.5");
        assertThat(plain.options.apply(Map.of()).trustedProxies()).as("unset: no proxy trusted").isEmpty();
    }

    @Test
    void anotherDatabaseUrlKeepsTheCredentialsOfTheEnvironment() {
        Map<String, String> env = Map.of("TAS_DB_USER", "alice", "TAS_DB_PASSWORD", "s3cret");
        ServeCommand urlOnly = new ServeCommand();
        new CommandLine(urlOnly).parseArgs("--db-url", "jdbc:postgresql://db:5432/tas");
        Config c = urlOnly.options.apply(env);
        assertThat(c.dbUrl()).isEqualTo("jdbc:postgresql://db:5432/tas");
        assertThat(c.dbUser()).isEqualTo("alice");
        assertThat(c.dbPassword()).isEqualTo("s3cret");
        assertThat(urlOnly.options.apply(Map.of()).dbUser()).as("no variable: the URL's database's default").isEqualTo("postgres");
        ServeCommand all = new ServeCommand();
        new CommandLine(all).parseArgs("--db-url", "jdbc:h2:mem:x", "--db-user", "bob", "--db-password", "pw");
        assertThat(all.options.apply(env).dbUser()).isEqualTo("bob");
        assertThat(all.options.apply(env).dbPassword()).isEqualTo("pw");
        ServeCommand userOnly = new ServeCommand();
        new CommandLine(userOnly).parseArgs("--db-user", "carol");
        assertThat(userOnly.options.apply(env).dbPassword()).as("the variable's password with the flag's user").isEqualTo("s3cret");
    }

    /**
     * The account switch as a sandbox user drives it: tas call switches a fresh account, tas admin clock-advance
     * --run-due finishes it without waiting a minute, and tas call (signing with the machine's time while the sandbox
     * clock is a minute ahead) reads success. A service on the system clock refuses the advance.
     */
    @Test
    void adminClockAdvanceAndRunDueFinishAnAccountSwitch() throws Exception {
        try (TestServer sandbox = TestServer.start(Databases.Kind.H2, new io.tas.admin.SandboxClock(), c -> c.withRateLimits(false).withJournalUnlessSet())) {
            String[] head = {"admin", "--admin-url", sandbox.adminUrl(), "--token", TestServer.ADMIN_TOKEN};
            java.util.function.Function<String[], String[]> admin = rest -> java.util.stream.Stream.concat(
                    java.util.Arrays.stream(head), java.util.Arrays.stream(rest)).toArray(String[]::new);
            assertThat(tas(admin.apply(new String[] {"create-account", "--json", "{\"uid\":1888000200,\"username\":\"cli-switch\"}"})).exit()).isZero();
            Run key = tas(admin.apply(new String[] {"create-key", "--uid", "1888000200", "--passphrase", "CliPass2"}));
            var data = io.tas.http.Json.MAPPER.readTree(key.out()).get("data");
            String[] creds = {"--base-url", sandbox.baseUrl(), "--key", data.get("accessKey").asText(), "--secret", data.get("secret").asText(),
                    "--passphrase", "CliPass2"};
            java.util.function.Function<String[], String[]> call = rest -> java.util.stream.Stream.concat(
                    java.util.stream.Stream.of("call"), java.util.stream.Stream.concat(java.util.Arrays.stream(rest), java.util.Arrays.stream(creds)))
                    .toArray(String[]::new);

            Run switched = tas(call.apply(new String[] {"POST", "/api/v3/account/switch"}));
            assertThat(switched.exit()).as(switched.out()).isZero();
            assertThat(tas(call.apply(new String[] {"GET", "/api/v3/account/switch-status"})).out()).contains("\"status\":\"process\"");

            Run ran = tas(admin.apply(new String[] {"clock-advance", "60000", "--run-due"}));
            assertThat(ran.exit()).as(ran.out()).isZero();
            assertThat(ran.out()).contains("\"due\":1", "\"remaining\":0");
            assertThat(tas(call.apply(new String[] {"GET", "/api/v3/account/switch-status"})).out())
                    .contains("\"status\":\"success\",\"reason\":\"\"");
            assertThat(tas(call.apply(new String[] {"GET", "/api/v3/account/settings"})).out()).contains("\"code\":\"40084\"");
            Run idle = tas(admin.apply(new String[] {"run-due"}));
            assertThat(idle.exit()).isZero();
            assertThat(idle.out()).contains("\"due\":0");

            // Issue 28: the clock, a snapshot, a fault and the journal from the command line.
            assertThat(tas(admin.apply(new String[] {"clock", "freeze", "1767571200000"})).out()).contains("\"now\":\"1767571200000\"", "\"frozen\":true");
            assertThat(tas(admin.apply(new String[] {"clock", "advance", "1000"})).out()).contains("\"now\":\"1767571201000\"");
            assertThat(tas(admin.apply(new String[] {"snapshot", "save", "cli"})).out()).contains("\"name\":\"cli\"", "\"createdTime\":\"1767571201000\"");
            assertThat(tas(admin.apply(new String[] {"faults", "add", "{\"path\":\"/api/v3/account/info\",\"action\":\"error\",\"code\":\"40015\",\"count\":1}"})).out())
                    .contains("\"id\":\"1\"", "\"action\":\"error\"");
            assertThat(tas(call.apply(new String[] {"GET", "/api/v3/account/info"})).out()).contains("\"code\":\"40015\"");
            assertThat(tas(admin.apply(new String[] {"faults"})).out()).contains("\"fired\":1");
            Run journal = tas(admin.apply(new String[] {"journal", "--path", "/api/v3/account/info", "--limit", "1"}));
            assertThat(journal.out()).contains("\"code\":\"40015\"", "\"fault\":\"1\"", "\"ACCESS-SIGN\":\"***\"");
            assertThat(tas(admin.apply(new String[] {"snapshot", "restore", "cli"})).exit()).isZero();
            assertThat(tas(admin.apply(new String[] {"clock", "resume"})).out()).contains("\"frozen\":false");
            Run unknown = tas(admin.apply(new String[] {"snapshot", "restore", "none"}));
            assertThat(unknown.exit()).isEqualTo(1);
            assertThat(unknown.out()).contains("\"code\":\"40034\"");
        }
        // This class's shared server runs on the system clock: it cannot be moved.
        Run refused = tas(admin("clock-advance", "60000"));
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.out()).contains("\"code\":\"40017\"", "the clock can only be moved in a sandbox");
    }
}
