package io.tas.conformance;

import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The most used client: ccxt's `bitget` class (npm `ccxt`, pinned 4.5.84 in conformance/package-lock.json), unmodified
 * but for its `urls.api` hosts, against one real server on H2 with the demo data, rate limits on and the real clock
 * (issue 10 item 6), and the README's client snippets on the same server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CcxtConformanceTest {
    private static final String DEMO_URL = "http://127.0.0.1:8080";
    private static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        NodeConformance.ensureInstalled();
        server = TestServer.start(Databases.Kind.H2, Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
    }

    /**
     * The README's "Use it from a client" snippets (the fenced blocks after `<!-- client:ccxt -->`,
     * `<!-- client:bitget-api -->` and `<!-- client:ccxt-watch -->`) run as written against the demo seed: each is written into conformance/ (where the
     * pinned packages are installed) and run with node. The one change is the demo's base URL `http://127.0.0.1:8080`,
     * which must occur exactly once, swapped for this server's random port. Runs first, on the untouched seed.
     */
    @Test
    @Order(1)
    void readmeClientSnippetsWorkVerbatimAgainstTheDemo() throws Exception {
        NodeConformance.Result ccxt = runSnippet("ccxt");
        assertThat(ccxt.exit()).as(ccxt.output()).isZero();
        assertThat(ccxt.output()).as("ccxt snippet").isEqualTo("""
                BTC 0.35 USDT debt 2000
                ETH/USDT:USDT short 2 @ 3500
                BTC/USDT:USDT long 0.05 @ 95000
                open true
                """);
        NodeConformance.Result sdk = runSnippet("bitget-api");
        assertThat(sdk.exit()).as(sdk.output()).isZero();
        assertThat(sdk.output()).as("bitget-api snippet").isEqualTo("""
                1000000001 unified one_way_mode
                ETHUSDT short 2 @ 3500
                BTCUSDT long 0.05 @ 95000
                """);
        // Issue 27: ccxt.pro watches the balance (pushed on subscribe) and an order (pushed after its commit).
        NodeConformance.Result watch = runSnippet("ccxt-watch");
        assertThat(watch.exit()).as(watch.output()).isZero();
        assertThat(watch.output()).as("ccxt.pro snippet").isEqualTo("""
                BTC 0.35
                open
                """);
    }

    /**
     * conformance/ccxt-conformance.mjs: loadMarkets with nothing preloaded for both families (each key's family
     * auto-detected), then the unified and classic methods, their parsed results compared with the admin API's ledger
     * and positions and with raw signed calls (unified fetchMyTrades / fetchWithdrawals against the raw v3 rows).
     */
    @Test
    @Order(2)
    void ccxtWorksUnchangedForBothFamilies() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("node", "ccxt-conformance.mjs");
        NodeConformance.serverEnv(pb.environment(), server);
        long t0 = System.nanoTime();
        NodeConformance.Result r = NodeConformance.run(pb, 120);
        System.out.printf("%s(ccxt run: %d ms)%n", r.output(), (System.nanoTime() - t0) / 1_000_000);
        assertThat(r.output()).contains(
                "ok loadMarkets unified (11 markets, 3 perpetual, 9 currencies, 9 active, uta=true)",
                "ok loadMarkets classic (11 markets, margin: BTCUSDT, uta=false)",
                "ok fetchBalance unified (8 coins; USDT free 26167.95 used 825 debt 2000 total 25261.69; BTC total 0.35)",
                "ok fetchPositions unified (ETH/USDT:USDT short 2@3500 x20, BTC/USDT:USDT long 0.05@95000 x10)",
                "ok fetchTickers unified (4 tickers; BTC/USDT last 97250.5, BTC/USDT:USDT mark 97258.8)",
                "ok setLeverage unified (ETH/USDT:USDT 20 -> 25 -> 20, BTC/USDT:USDT isolated 10 -> 12 -> 10)",
                "ok setPositionMode unified (main with open positions -> 25010; unified sub one_way_mode -> hedge_mode -> one_way_mode)",
                "ok fetchPositions classic (ETH/USDT:USDT short 0.5@3450 x20, BTC/USDT:USDT long 0.02@96000 x10, BTC/USD:BTC long 0.01@96500 x10)",
                "ok fetchMyTrades classic (200 fills; BTC/USDT: 100,",
                "ok fetchWithdrawals classic (45 records, ",
                "ok fetchMyTrades unified (34 BTC/USD:BTC fills of 100; ",
                "ok fetchWithdrawals unified (30 records; ");
        assertThat(r.output()).containsPattern("(?m)^12 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }

    static String snippet(String name) throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String marker = "<!-- client:" + name + " -->\n```js\n";
        int s = readme.indexOf(marker);
        assertThat(s).as(marker + " in README.md").isNotNegative();
        int from = s + marker.length();
        return readme.substring(from, readme.indexOf("```", from));
    }

    private static NodeConformance.Result runSnippet(String name) throws Exception {
        String code = snippet(name);
        assertThat(code.split(Pattern.quote(DEMO_URL), -1)).as(name + ": the demo URL exactly once").hasSize(2);
        Path file = NodeConformance.DIR.resolve("readme-" + name + ".mjs");
        Files.writeString(file, code.replace(DEMO_URL, server.baseUrl()));
        try {
            return NodeConformance.run(new ProcessBuilder("node", file.getFileName().toString()), 60);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
