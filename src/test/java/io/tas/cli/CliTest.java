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
    void endpointsPrintsTheInventory() {
        Run r = tas("endpoints");
        assertThat(r.out()).contains("| GET | `/api/v3/account/info` |").hasLineCount(33);
    }

    @Test
    void theNodeIdFlagWinsOverTheEnvironment() {
        Config env = Config.fromEnv(Map.of("TAS_NODE_ID", "3"));
        ServeCommand flagged = new ServeCommand();
        new CommandLine(flagged).parseArgs("--node-id", "12");
        assertThat(flagged.options.apply(env).nodeId()).isEqualTo(12);
        ServeCommand plain = new ServeCommand();
        new CommandLine(plain).parseArgs();
        assertThat(plain.options.apply(env).nodeId()).isEqualTo(3);
        assertThat(plain.options.apply(Config.fromEnv(Map.of())).nodeId()).as("unset: lease any free id").isNull();
    }
}
