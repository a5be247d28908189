package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.admin.SandboxClock;
import io.tas.client.SandboxClient;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28 "must show": a test suite written the way a trading team would, on H2 and PostgreSQL. Freeze the clock, place
 * an order, fault the next cancel with 429 once, assert from the journal that the client retried, advance the clock past
 * the account switch, restore the snapshot, repeat. Every answer the client got is kept in a transcript: the rounds
 * agree byte for byte, and so do the two databases.
 */
class SandboxSuiteTest {
    /** 2026-01-05T00:00:00Z: the instant the world stands at. */
    static final long T = 1767571200000L;
    static final Credentials BOT = new Credentials("bg_suite0000000000000000000000001", "suite-secret-0000000000000000000001", "SuitePass1");
    static final String SEED = """
            {"instruments": [{"category": "SPOT", "symbol": "BTCUSDT", "baseCoin": "BTC", "quoteCoin": "USDT"}],
             "tickers": [{"category": "SPOT", "symbol": "BTCUSDT", "lastPrice": "90000", "ask1Price": "90000.1", "bid1Price": "90000",
                          "ask1Size": "1", "bid1Size": "1"}],
             "accounts": [{"uid": 2000000001, "username": "suite-bot", "accountMode": "UNIFIED", "createdTime": 1767484800000,
                           "balances": [{"account": "unified", "coin": "USDT", "available": "10000"}],
                           "apiKeys": [{"label": "bot", "accessKey": "%s", "secret": "%s", "passphrase": "%s",
                                        "permType": "read-and-write", "permissions": ["uta_mgt", "uta_trade"]}]}]}
            """.formatted(BOT.key(), BOT.secret(), BOT.passphrase());

    private static final Map<Databases.Kind, String> TRANSCRIPTS = new java.util.concurrent.ConcurrentHashMap<>();

    @Test
    void h2() { TRANSCRIPTS.put(Databases.Kind.H2, suite(Databases.Kind.H2)); }

    @Test
    void postgres() { TRANSCRIPTS.put(Databases.Kind.POSTGRES, suite(Databases.Kind.POSTGRES)); }

    @AfterAll
    static void bothDatabasesAnsweredTheSameBytes() {
        if (TRANSCRIPTS.size() == 2) {
            assertThat(TRANSCRIPTS.get(Databases.Kind.H2)).isEqualTo(TRANSCRIPTS.get(Databases.Kind.POSTGRES));
        }
    }

    private static String suite(Databases.Kind kind) {
        try (TestServer server = TestServer.start(kind, new SandboxClock(), c -> c.withJournalUnlessSet())) {
            SandboxClient sandbox = new SandboxClient(server.adminUrl(), TestServer.ADMIN_TOKEN);
            // The suite's set-up: an empty world at T, the bot's account, saved.
            sandbox.reset();
            sandbox.freeze(T);
            sandbox.seed(SEED);
            sandbox.saveSnapshot("start");
            // Clients sign with their own clock, which nobody froze (D188).
            ApiClient bot = new ApiClient(server.baseUrl(), BOT, Clock.systemUTC());

            String first = round(sandbox, bot);
            String second = round(sandbox, bot);
            assertThat(second).as("a round after a restore answers the same bytes").isEqualTo(first);
            assertThat(first).contains("\"requestTime\":" + T);
            writeArtifact(kind, first);
            return first;
        }
    }

    /** One round of the suite; answers what the bot saw and what the journal recorded, without times taken or signatures. */
    private static String round(SandboxClient sandbox, ApiClient bot) {
        sandbox.restoreSnapshot("start");
        sandbox.clearJournal();
        assertThat(sandbox.clock().get("frozen").asBoolean()).isTrue();
        assertThat(sandbox.now()).isEqualTo(T);
        List<String> transcript = new ArrayList<>();

        Reply placed = bot.post("/api/v3/trade/place-order", """
                {"category":"SPOT","symbol":"BTCUSDT","side":"buy","orderType":"limit","qty":"0.01","price":"80000","clientOid":"suite-1"}""");
        assertThat(placed.code()).as(placed.raw()).isEqualTo("00000");
        transcript.add(placed.raw());
        String orderId = placed.data().get("orderId").asText();

        // The next cancel is refused with 429 once; the bot's retry logic must get the order cancelled anyway.
        JsonNode rule = sandbox.addFault(Map.of("path", "/api/v3/trade/cancel-order", "action", "error", "code", "429", "count", 1));
        Reply cancelled = cancelWithRetry(bot, orderId, transcript);
        assertThat(cancelled.code()).as(cancelled.raw()).isEqualTo("00000");
        JsonNode cancels = sandbox.journal(Map.of("path", "/api/v3/trade/cancel-order", "apiKey", BOT.key()));
        assertThat(cancels.size()).as("the bot retried once").isEqualTo(2);
        assertThat(cancels.get(0).get("code").asText()).isEqualTo("429");
        assertThat(cancels.get(0).get("status").asInt()).isEqualTo(429);
        assertThat(cancels.get(0).get("fault").asText()).isEqualTo(rule.get("id").asText());
        assertThat(cancels.get(1).get("code").asText()).isEqualTo("00000");
        assertThat(cancels.get(0).get("headers").get("ACCESS-SIGN").asText()).as("secrets are redacted").isEqualTo("***");
        assertThat(sandbox.faults().get(0).get("fired").asInt()).isEqualTo(1);
        sandbox.clearFaults();
        Reply order = bot.get("/api/v3/trade/order-info?orderId=" + orderId);
        transcript.add(order.raw());
        assertThat(order.data().get("orderStatus").asText()).isEqualTo("cancelled");

        // The switch to classic takes a minute of sandbox time; the frozen clock holds it until the suite moves it.
        Reply switched = bot.post("/api/v3/account/switch", "");
        transcript.add(switched.raw());
        transcript.add(bot.get("/api/v3/account/switch-status").raw());
        sandbox.runDue();
        assertThat(bot.get("/api/v3/account/switch-status").data().get("status").asText()).isEqualTo("process");
        sandbox.advance(Duration.ofMinutes(2));
        sandbox.runDue();
        Reply status = bot.get("/api/v3/account/switch-status");
        transcript.add(status.raw());
        assertThat(status.data().get("status").asText()).isEqualTo("success");
        transcript.add(bot.get("/api/v2/spot/account/assets").raw());

        for (JsonNode e : sandbox.journal(Map.of("apiKey", BOT.key()))) {
            transcript.add(e.get("method").asText() + " " + e.get("path").asText() + "?" + e.get("query").asText() + " " + e.get("body").asText()
                    + " -> " + e.get("status").asText() + " " + e.get("code").asText() + " at " + e.get("time").asText());
        }
        return String.join("\n", transcript);
    }

    /** The transcript under target/, for a reader of the CI run. */
    private static void writeArtifact(Databases.Kind kind, String transcript) {
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of("target", "sandbox-suite-" + kind.name().toLowerCase() + ".txt"), transcript);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A bot's cancel: on 429 it waits and tries again, at most three times. */
    private static Reply cancelWithRetry(ApiClient bot, String orderId, List<String> transcript) {
        for (int attempt = 1; ; attempt++) {
            Reply r = bot.post("/api/v3/trade/cancel-order", "{\"orderId\":\"" + orderId + "\"}");
            transcript.add(r.status() + " " + r.raw());
            if (r.status() != 429 || attempt == 3) return r;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return r;
            }
        }
    }
}
