package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.admin.SandboxClock;
import io.tas.client.SandboxClient;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 28 items 1 and 4 (D188, D189): snapshots of the demo world and the clock that freezes, sets and resumes, on H2
 * and PostgreSQL. A restore puts back every table (the state hash proves it), the caches (an account's settings read
 * through the API), the clock, and the ID generator (the same order placed after two restores gets the same id).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class SandboxSnapshotsApiTest {
    @Parameter Databases.Kind kind;
    static final long T = 1767571200000L;
    private TestServer server;
    private SandboxClient sandbox;
    private Admin admin;
    private ApiClient main;

    @BeforeEach
    void start() {
        server = TestServer.start(kind, new SandboxClock(), c -> c.withRateLimits(false));
        sandbox = new SandboxClient(server.adminUrl(), TestServer.ADMIN_TOKEN);
        admin = new Admin(server);
        main = new ApiClient(server.baseUrl(), Credentials.MAIN_RW, Clock.systemUTC());
    }

    @AfterEach
    void stop() { server.close(); }

    private static final String ORDER = "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\",\"price\":\"50000\"}";

    @Test
    void aRestorePutsBackEveryTableEveryCacheAndTheClock() {
        sandbox.freeze(T);
        String saved = admin.stateHash();
        JsonNode snapshot = sandbox.saveSnapshot("demo");
        assertThat(snapshot.get("rows").asLong()).isGreaterThan(300);
        assertThat(snapshot.get("createdTime").asLong()).isEqualTo(T);
        assertThat(snapshot.get("frozen").asBoolean()).isTrue();

        // A test's worth of changes: an order, a setting (cached), a deposit, a ticker, an hour of time.
        assertThat(main.post("/api/v3/trade/place-order", ORDER).code()).isEqualTo("00000");
        assertThat(main.post("/api/v3/account/switch-deduct", "{\"deduct\":\"off\"}").code()).isEqualTo("00000");
        assertThat(main.get("/api/v3/account/deduct-info").data().get("deduct").asText()).isEqualTo("off");
        admin.post("/admin/v1/ledger/deposit", "{\"uid\":1000000001,\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"snap-" + kind + "\"}");
        admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"lastPrice\":\"1\",\"ask1Price\":\"1.1\",\"bid1Price\":\"1\"}");
        sandbox.resume();
        sandbox.advance(Duration.ofHours(1));
        assertThat(admin.stateHash()).isNotEqualTo(saved);

        JsonNode restored = sandbox.restoreSnapshot("demo");
        assertThat(restored.get("rows").asLong()).isEqualTo(snapshot.get("rows").asLong());
        assertThat(restored.get("wrote").asText()).as("only the differences were written").isEqualTo("changes");
        assertThat(admin.stateHash()).isEqualTo(saved);
        assertThat(main.get("/api/v3/account/deduct-info").data().get("deduct").asText()).as("the cached settings follow").isEqualTo("on");
        assertThat(main.get("/api/v3/trade/unfilled-orders?category=SPOT").data().path("list").size()).isZero();
        Reply ticker = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=SPOT&symbol=BTCUSDT", "GET", "");
        assertThat(ticker.data().get(0).get("lastPrice").asText()).isEqualTo("97250.5");
        assertThat(sandbox.now()).isEqualTo(T);
        assertThat(sandbox.clock().get("frozen").asBoolean()).isTrue();
    }

    /**
     * Two rows that swapped a unique value cannot be merged back one by one (the first update would collide with the
     * second row): the restore falls back to emptying and refilling every table, in the same one transaction.
     */
    @Test
    void aDifferenceTheConstraintsRefuseIsRestoredByRewritingEverything() throws Exception {
        String saved = admin.stateHash();
        sandbox.saveSnapshot("swap");
        try (var c = java.sql.DriverManager.getConnection(server.db.url(), server.db.user(), ""); var st = c.createStatement()) {
            var rs = st.executeQuery("select order_id, seq from strategy_order order by seq fetch first 2 rows only");
            rs.next();
            long a = rs.getLong(1), seqA = rs.getLong(2);
            rs.next();
            long b = rs.getLong(1), seqB = rs.getLong(2);
            st.executeUpdate("update strategy_order set seq = -1 where order_id = " + a);
            st.executeUpdate("update strategy_order set seq = " + seqA + " where order_id = " + b);
            st.executeUpdate("update strategy_order set seq = " + seqB + " where order_id = " + a);
        }
        assertThat(admin.stateHash()).isNotEqualTo(saved);
        JsonNode restored = sandbox.restoreSnapshot("swap");
        assertThat(restored.get("wrote").asText()).isEqualTo("everything");
        assertThat(admin.stateHash()).isEqualTo(saved);
    }

    /**
     * D205: a restore skips (H2) the tables untouched since they last equalled that snapshot. Two snapshots restored in
     * turn, one table changed behind the service's back (another session), and a restore of the first after the
     * second: each lands on its own state hash, whichever tables the other restore or the stray write moved.
     */
    @Test
    void twoSnapshotsRestoredInTurnEachLandOnTheirOwnState() throws Exception {
        sandbox.saveSnapshot("a");
        String a = admin.stateHash();
        admin.post("/admin/v1/ledger/deposit", "{\"uid\":1000000001,\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"turn-" + kind + "\"}");
        assertThat(main.post("/api/v3/trade/place-order", ORDER).code()).isEqualTo("00000");
        sandbox.saveSnapshot("b");
        String b = admin.stateHash();
        assertThat(b).isNotEqualTo(a);
        for (int round = 0; round < 2; round++) {
            sandbox.restoreSnapshot("a");
            assertThat(admin.stateHash()).as("a, round %d", round).isEqualTo(a);
            sandbox.restoreSnapshot("b");
            assertThat(admin.stateHash()).as("b, round %d", round).isEqualTo(b);
        }
        sandbox.restoreSnapshot("b"); // nothing changed since: every table skipped on H2, still b
        assertThat(admin.stateHash()).isEqualTo(b);
        try (var c = java.sql.DriverManager.getConnection(server.db.url(), server.db.user(), ""); var st = c.createStatement()) {
            st.executeUpdate("update ticker set last_price = last_price + 1");
        }
        assertThat(admin.stateHash()).isNotEqualTo(b);
        assertThat(sandbox.restoreSnapshot("b").get("wrote").asText()).isEqualTo("changes");
        assertThat(admin.stateHash()).as("the stray write undone").isEqualTo(b);
        assertThat(sandbox.restoreSnapshot("a").get("wrote").asText()).isEqualTo("changes");
        assertThat(admin.stateHash()).isEqualTo(a);
    }

    /** A restore pushes the restored account to its stream subscribers: USDT +5 by a deposit, then back. */
    @Test
    void aRestorePushesTheRestoredAccountToItsSubscribers() throws Exception {
        sandbox.saveSnapshot("ws");
        try (io.tas.support.StreamClient ws = new io.tas.support.StreamClient(server.baseUrl(), "/v3/ws/private")) {
            ws.login(Credentials.MAIN_RW, System.currentTimeMillis(), null);
            ws.next(n -> "login".equals(n.path("event").asText()));
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"}]}");
            java.math.BigDecimal saved = usdt(ws.next(n -> "snapshot".equals(n.path("action").asText())));
            admin.post("/admin/v1/ledger/deposit", "{\"uid\":1000000001,\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"ws-restore\"}");
            assertThat(usdt(ws.next(n -> "update".equals(n.path("action").asText())))).isEqualByComparingTo(saved.add(java.math.BigDecimal.valueOf(5)));
            sandbox.restoreSnapshot("ws");
            assertThat(usdt(ws.next(n -> "update".equals(n.path("action").asText())))).as("pushed as restored").isEqualByComparingTo(saved);
        }
    }

    private static java.math.BigDecimal usdt(JsonNode accountPush) {
        for (JsonNode c : accountPush.path("data").path(0).path("coin")) {
            if (c.path("coin").asText().equals("USDT")) return new java.math.BigDecimal(c.path("available").asText());
        }
        throw new AssertionError("no USDT in " + accountPush);
    }

    @Test
    void aReplayAfterARestoreMintsTheSameIds() {
        sandbox.freeze(T);
        sandbox.saveSnapshot("replay");
        String first = main.post("/api/v3/trade/place-order", ORDER).data().get("orderId").asText();
        String second = main.post("/api/v3/trade/place-order", ORDER).data().get("orderId").asText();
        sandbox.restoreSnapshot("replay");
        assertThat(main.post("/api/v3/trade/place-order", ORDER).data().get("orderId").asText()).isEqualTo(first);
        assertThat(main.post("/api/v3/trade/place-order", ORDER).data().get("orderId").asText()).isEqualTo(second);
        assertThat(main.get("/api/v3/trade/unfilled-orders?category=SPOT").data().path("list").size()).isEqualTo(2);
    }

    @Test
    void theClockFreezesSetsAdvancesAndResumes() throws Exception {
        long machine = System.currentTimeMillis();
        JsonNode frozen = sandbox.freeze(null);
        assertThat(frozen.get("frozen").asBoolean()).isTrue();
        long at = frozen.get("now").asLong();
        assertThat(at).isBetween(machine - 1_000, machine + 60_000);
        Thread.sleep(30);
        assertThat(sandbox.now()).as("frozen").isEqualTo(at);
        assertThat(sandbox.setClock(T).get("now").asLong()).as("back in time").isEqualTo(T);
        assertThat(sandbox.advance(Duration.ofMinutes(1)).get("now").asLong()).isEqualTo(T + 60_000);
        // Requests answer in sandbox time, and clients still sign with their own clock.
        Reply info = main.get("/api/v3/account/info");
        assertThat(info.code()).isEqualTo("00000");
        assertThat(info.body().get("requestTime").asLong()).isEqualTo(T + 60_000);
        JsonNode running = sandbox.resume();
        assertThat(running.get("frozen").asBoolean()).isFalse();
        Thread.sleep(30);
        assertThat(sandbox.now()).as("running again from where it stood").isBetween(T + 60_030, T + 60_000 + 60_000);
        assertThat(sandbox.setClock(T).get("now").asLong()).isBetween(T, T + 1_000);
        for (String bad : new String[]{"{\"at\":1}", "{\"at\":\"soon\"}", "{}"}) {
            Reply r = admin.post("/admin/v1/sandbox/clock/set", bad);
            assertThat(r.code()).as(bad).isIn("40019", "40020");
        }
    }

    @Test
    void badSnapshotCallsAreRefusedAndChangeNothing() throws Exception {
        sandbox.saveSnapshot("keep");
        String before = admin.stateHash();
        assertThatThrownBy(() -> sandbox.restoreSnapshot("missing")).isInstanceOfSatisfying(SandboxClient.Refused.class,
                e -> assertThat(e.code()).isEqualTo("40034"));
        assertThatThrownBy(() -> sandbox.saveSnapshot("no spaces")).isInstanceOfSatisfying(SandboxClient.Refused.class,
                e -> assertThat(e.code()).isEqualTo("40020"));
        assertThatThrownBy(() -> sandbox.saveSnapshot("")).isInstanceOfSatisfying(SandboxClient.Refused.class,
                e -> assertThat(e.code()).isEqualTo("40019"));
        assertThatThrownBy(() -> sandbox.deleteSnapshot("missing")).isInstanceOf(SandboxClient.Refused.class);
        // A snapshot saved under another schema version may not fit the tables: refused.
        sandbox.saveSnapshot("old");
        try (var c = java.sql.DriverManager.getConnection(server.db.url(), server.db.user(), ""); var st = c.createStatement()) {
            st.executeUpdate("update sandbox_snapshot set schema_version = '1' where name = 'old'");
        }
        assertThatThrownBy(() -> sandbox.restoreSnapshot("old")).isInstanceOfSatisfying(SandboxClient.Refused.class,
                e -> assertThat(e.getMessage()).contains("40017", "another schema version"));
        sandbox.deleteSnapshot("old");
        assertThat(admin.stateHash()).isEqualTo(before);
        // Saving under a name replaces it; a reset keeps snapshots; delete drops one.
        sandbox.saveSnapshot("keep");
        admin.post("/admin/v1/reset", "");
        assertThat(sandbox.snapshots().findValues("name").stream().map(JsonNode::asText).toList()).containsExactly("keep");
        sandbox.restoreSnapshot("keep");
        assertThat(admin.stateHash()).isEqualTo(before);
        sandbox.deleteSnapshot("keep");
        assertThat(sandbox.snapshots().size()).isZero();
    }
}
