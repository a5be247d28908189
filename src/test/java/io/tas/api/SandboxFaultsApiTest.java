package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.admin.SandboxClock;
import io.tas.client.SandboxClient;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.StreamClient;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 28 items 2 and 3 (D190, D191): fault rules on REST rows and WebSocket traffic, and the request journal, on H2 and
 * PostgreSQL. A fault before a write refuses it with nothing changed (the state hash proves it); a fault after a write
 * commits it and loses the answer, and the client's retry with the same clientOid gets the same order.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class SandboxFaultsApiTest {
    @Parameter Databases.Kind kind;
    private static final Map<Databases.Kind, TestServer> SERVERS = new java.util.EnumMap<>(Databases.Kind.class);
    private TestServer server;
    private SandboxClient sandbox;
    private Admin admin;

    @BeforeEach
    void start() {
        server = SERVERS.computeIfAbsent(kind, k -> TestServer.start(k, new SandboxClock(),
                // Rate limits off: a 429 here is a fault's, never the limiter's.
                c -> c.withJournalUnlessSet().withRateLimits(false)));
        sandbox = new SandboxClient(server.adminUrl(), TestServer.ADMIN_TOKEN);
        admin = new Admin(server);
        sandbox.clearFaults();
        sandbox.clearJournal();
        if (sandbox.clock().get("frozen").asBoolean()) sandbox.resume();
    }

    @AfterAll
    static void stop() {
        SERVERS.values().forEach(TestServer::close);
        SERVERS.clear();
    }

    private ApiClient client(Credentials c) { return new ApiClient(server.baseUrl(), c, Clock.systemUTC()); }

    private static int n;

    private Credentials funded() { return admin.fundedAccount("faults-" + kind + "-" + (++n), "USDT", "1000"); }

    private static String order(String clientOid) {
        return "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\",\"price\":\"50000\",\"clientOid\":\"" + clientOid + "\"}";
    }

    @Test
    void aFaultBeforeAWriteRefusesItWithTheRealCodeAndChangesNothing() {
        ApiClient bot = client(funded());
        sandbox.addFault(Map.of("method", "POST", "path", "/api/v3/trade/place-*", "action", "error", "code", "40015", "count", 2));
        String before = admin.stateHash();
        for (int i = 0; i < 2; i++) {
            Reply r = bot.post("/api/v3/trade/place-order", order("refused-" + i));
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.code()).isEqualTo("40015");
            assertThat(r.msg()).isEqualTo("System is abnormal, please try again later");
        }
        assertThat(admin.stateHash()).as("a faulted write is refused before it runs").isEqualTo(before);
        assertThat(bot.post("/api/v3/trade/place-order", order("passes")).code()).as("the count is used up").isEqualTo("00000");
        assertThat(sandbox.faults().get(0).get("fired").asInt()).isEqualTo(2);
        assertThat(bot.get("/api/v3/trade/unfilled-orders?category=SPOT").data().path("list").size()).isEqualTo(1);
    }

    @Test
    void aFaultAfterAWriteCommitsItAndLosesTheAnswerSoARetryGetsTheSameOrder() {
        ApiClient bot = client(funded());
        sandbox.addFault(Map.of("path", "/api/v3/trade/place-order", "action", "drop", "when", "after", "count", 1));
        assertThatThrownBy(() -> bot.post("/api/v3/trade/place-order", order("lost-answer"))).as("the connection is dropped with no answer")
                .isInstanceOf(RuntimeException.class);
        Reply retry = bot.post("/api/v3/trade/place-order", order("lost-answer"));
        assertThat(retry.code()).as(retry.raw()).isEqualTo("00000");
        JsonNode open = bot.get("/api/v3/trade/unfilled-orders?category=SPOT").data().path("list");
        assertThat(open.size()).as("one order, committed by the first call").isEqualTo(1);
        assertThat(open.get(0).get("orderId").asText()).isEqualTo(retry.data().get("orderId").asText());
        // 0.001 x 50000 USDT frozen once.
        JsonNode usdt = bot.get("/api/v3/account/assets").data().path("assets");
        JsonNode row = null;
        for (JsonNode a : usdt) if (a.get("coin").asText().equals("USDT")) row = a;
        assertThat(row.get("locked").asText()).isEqualTo("50");
        JsonNode sent = sandbox.journal(Map.of("path", "/api/v3/trade/place-order"));
        assertThat(sent.size()).isEqualTo(2);
        assertThat(sent.get(0).get("code").asText()).isEqualTo("drop");
        assertThat(sent.get(0).get("status").isNull()).isTrue();
    }

    @Test
    void aBareFiveHundredAndAnAddedDelay() {
        ApiClient bot = client(funded());
        sandbox.addFault(Map.of("method", "GET", "path", "/api/v3/account/assets", "action", "http", "status", 503, "count", 1));
        Reply r = bot.get("/api/v3/account/assets");
        assertThat(r.status()).isEqualTo(503);
        assertThat(r.code()).isEqualTo("40015");
        sandbox.addFault(Map.of("path", "/api/v3/account/info", "action", "latency", "delayMs", 400, "count", 1));
        long t0 = System.nanoTime();
        assertThat(bot.get("/api/v3/account/info").code()).as("a delay, then the real answer").isEqualTo("00000");
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(400);
        assertThat(sandbox.journal(Map.of("path", "/api/v3/account/info")).get(0).get("tookMs").asLong()).isGreaterThanOrEqualTo(400);
    }

    @Test
    void aProbabilityDrawsFromTheRuleSeedSoTheSameRequestsFireTheSameFaults() {
        Credentials who = funded();
        ApiClient bot = client(who);
        List<List<String>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            sandbox.clearFaults();
            sandbox.addFault(Map.of("path", "/api/v3/account/settings", "apiKey", who.key(), "action", "error", "code", "429", "probability", "0.5", "seed", 7));
            List<String> codes = new ArrayList<>();
            for (int i = 0; i < 24; i++) codes.add(bot.get("/api/v3/account/settings").code());
            runs.add(codes);
        }
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
        assertThat(runs.get(0)).contains("429", "00000");
        // Another key's calls neither fire the rule nor use up its draws.
        ApiClient other = client(funded());
        assertThat(other.get("/api/v3/account/settings").code()).isEqualTo("00000");
    }

    @Test
    void aRuleExpiresOnTheSandboxClock() {
        ApiClient bot = client(funded());
        sandbox.freeze(null);
        sandbox.addFault(Map.of("path", "/api/v3/account/info", "action", "error", "code", "40008", "expiresInMs", 60_000));
        assertThat(bot.get("/api/v3/account/info").code()).isEqualTo("40008");
        sandbox.advance(Duration.ofSeconds(59));
        assertThat(bot.get("/api/v3/account/info").code()).as("frozen time: still live").isEqualTo("40008");
        sandbox.advance(Duration.ofSeconds(1));
        assertThat(bot.get("/api/v3/account/info").code()).isEqualTo("00000");
        assertThat(sandbox.faults().get(0).get("fired").asInt()).isEqualTo(2);
    }

    @Test
    void badRulesAreRefusedAndAResetClearsRulesAndJournal() {
        record Case(Map<String, Object> rule, String code) {}
        List<Case> cases = List.of(
                new Case(Map.of(), "40019"),
                new Case(Map.of("action", "explode"), "40020"),
                new Case(Map.of("action", "error"), "40019"),
                new Case(Map.of("action", "error", "code", "00000"), "40020"),
                new Case(Map.of("action", "error", "code", "12345"), "40020"),
                new Case(Map.of("action", "http", "status", 404), "40020"),
                new Case(Map.of("action", "latency"), "40019"),
                new Case(Map.of("action", "latency", "delayMs", 3_600_000), "40020"),
                new Case(Map.of("action", "drop-push"), "40020"),
                new Case(Map.of("target", "ws-push", "action", "error", "code", "30001"), "40020"),
                new Case(Map.of("action", "latency", "delayMs", 5, "when", "after"), "40020"),
                new Case(Map.of("action", "drop", "probability", "1.5"), "40020"),
                new Case(Map.of("action", "drop", "count", 0), "40020"),
                new Case(Map.of("action", "drop", "path", "no-slash"), "40020"),
                new Case(Map.of("action", "drop", "method", "PUT"), "40020"));
        for (Case c : cases) {
            assertThatThrownBy(() -> sandbox.addFault(c.rule())).as(c.rule().toString())
                    .isInstanceOfSatisfying(SandboxClient.Refused.class, e -> assertThat(e.code()).isEqualTo(c.code()));
        }
        assertThat(sandbox.faults().size()).as("nothing refused was kept").isZero();
        JsonNode rule = sandbox.addFault(Map.of("path", "/api/v2/public/time", "action", "drop"));
        assertThatThrownBy(() -> sandbox.removeFault("999999")).isInstanceOf(SandboxClient.Refused.class);
        sandbox.removeFault(rule.get("id").asText());
        assertThat(sandbox.faults().size()).isZero();
        sandbox.addFault(Map.of("path", "/api/v2/public/time", "action", "drop"));
        ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=SPOT", "GET", "");
        assertThat(sandbox.journal(Map.of()).size()).isPositive();
        admin.post("/admin/v1/reset", "");
        assertThat(sandbox.faults().size()).isZero();
        assertThat(sandbox.journal(Map.of()).size()).isZero();
        SERVERS.remove(kind).close(); // the next test starts on a seeded world again
    }

    @Test
    void theJournalKeepsWhatWasSentWithSecretsRedactedAndFilters() {
        Credentials who = funded();
        ApiClient bot = client(who);
        long from = sandbox.now();
        bot.get("/api/v3/account/settings");
        // A body field named like a secret is redacted, wherever it is.
        bot.post("/api/v3/account/switch-deduct", "{\"deduct\":\"on\",\"extra\":{\"passphrase\":\"Secret123\"}}");
        JsonNode all = sandbox.journal(Map.of("apiKey", who.key()));
        assertThat(all.size()).isEqualTo(2);
        JsonNode get = all.get(0);
        assertThat(get.get("method").asText()).isEqualTo("GET");
        assertThat(get.get("path").asText()).isEqualTo("/api/v3/account/settings");
        assertThat(get.get("headers").get("ACCESS-KEY").asText()).isEqualTo(who.key());
        assertThat(get.get("headers").get("ACCESS-SIGN").asText()).isEqualTo("***");
        assertThat(get.get("headers").get("ACCESS-PASSPHRASE").asText()).isEqualTo("***");
        assertThat(get.get("code").asText()).isEqualTo("00000");
        assertThat(get.get("time").asLong()).isGreaterThanOrEqualTo(from);
        String posted = all.get(1).get("body").asText();
        assertThat(posted).contains("\"passphrase\":\"***\"", "\"deduct\":\"on\"").doesNotContain("Secret123");
        assertThat(all.toString()).doesNotContain(who.passphrase()).doesNotContain(who.secret());
        assertThat(sandbox.journal(Map.of("apiKey", who.key(), "path", "/api/v3/account/switch-*")).size()).isEqualTo(1);
        assertThat(sandbox.journal(Map.of("apiKey", who.key(), "method", "GET")).size()).isEqualTo(1);
        assertThat(sandbox.journal(Map.of("apiKey", who.key(), "afterSeq", get.get("seq").asText())).size()).isEqualTo(1);
        assertThat(sandbox.journal(Map.of("apiKey", who.key(), "until", from - 1)).size()).isZero();
        assertThat(sandbox.journal(Map.of("apiKey", who.key(), "limit", 1)).get(0).get("path").asText()).isEqualTo("/api/v3/account/switch-deduct");
    }

    @Test
    void webSocketFramesAreJournaledAndOpsAndPushesCanFail() throws Exception {
        Credentials who = funded();
        long uid = admin.lastUid;
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private")) {
            sandbox.addFault(Map.of("target", "ws-op", "op", "subscribe", "apiKey", who.key(), "action", "error", "code", "30007", "count", 1));
            ws.login(who, System.currentTimeMillis(), null);
            ws.next(f -> "login".equals(f.path("event").asText()));
            String sub = "{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"}]}";
            ws.send(sub);
            JsonNode refused = ws.next(f -> "error".equals(f.path("event").asText()));
            assertThat(refused.get("code").asInt()).isEqualTo(30007);
            ws.send(sub);
            ws.next(f -> "account".equals(f.path("arg").path("topic").asText()) && "snapshot".equals(f.path("action").asText()));
            // Account pushes are lost while the rule lives; the next one after it goes arrives with the new balance.
            sandbox.addFault(Map.of("target", "ws-push", "topic", "account", "uid", Long.toString(uid), "action", "drop-push"));
            admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"ws-fault-1-" + kind + "\"}");
            Thread.sleep(500);
            assertThat(ws.kept()).as("the push was dropped").noneMatch(f -> f.has("action") && "account".equals(f.path("arg").path("topic").asText()));
            sandbox.clearFaults();
            admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"7\",\"ref\":\"ws-fault-2-" + kind + "\"}");
            JsonNode push = ws.next(f -> f.has("action") && "account".equals(f.path("arg").path("topic").asText()));
            assertThat(push.toString()).contains("1012");
            JsonNode frames = sandbox.journal(Map.of("apiKey", who.key(), "kind", "ws"));
            assertThat(frames.size()).isEqualTo(3);
            assertThat(frames.get(0).get("method").asText()).isEqualTo("login");
            assertThat(frames.get(0).get("path").asText()).isEqualTo("/v3/ws/private");
            assertThat(frames.get(0).get("body").asText()).contains("\"sign\":\"***\"", "\"passphrase\":\"***\"").doesNotContain(who.passphrase());
            assertThat(frames.get(1).get("code").asText()).isEqualTo("30007");
            assertThat(frames.get(2).get("fault").isNull()).isTrue();
        }
    }
}
