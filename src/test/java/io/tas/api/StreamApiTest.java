package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.StreamClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, the first streams (D186): the v3 WebSocket paths on the API port, on H2 and PostgreSQL. Login as ccxt sends
 * it, the text ping, the errors of websocket-wire.md, the account snapshot on subscribe, and pushes after a commit: an
 * order placed, filled by a ticker move and cancelled, the account after each and after a deposit, and the public ticker. Figures by hand:
 * spot fee 0.1% (D72), a resting order fills as the maker at its own price (D155).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class StreamApiTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private String spot, base;
    private long uid;

    private Credentials setUp() {
        String tag = kind.name().charAt(0) + "" + NAMES.incrementAndGet();
        base = "WS" + tag;
        spot = base + "USDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDT\"}"));
        ticker("100.01", "99.99");
        Credentials c = admin.fundedAccount("stream-" + tag, "USDT", "1000");
        uid = admin.lastUid;
        return c;
    }

    private void ticker(String ask, String bid) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"lastPrice\":\"" + bid + "\",\"ask1Price\":\""
                + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}"));
    }

    private String placed(ApiClient c, String side, String qty, String price) {
        ApiClient.Reply r = c.post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"side\":\"" + side
                + "\",\"orderType\":\"limit\",\"qty\":\"" + qty + "\",\"price\":\"" + price + "\"}");
        ok(r);
        return r.data().path("orderId").asText();
    }

    /** A deposit of USDT into the test account's unified balance, under a ref of its own. */
    private void deposit(String amount, String ref) {
        ok(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\""
                + amount + "\",\"ref\":\"" + ref + "-" + uid + "\"}"));
    }

    private static boolean is(JsonNode n, String topic, String action) {
        return topic.equals(n.path("arg").path("topic").asText()) && action.equals(n.path("action").asText());
    }

    private static BigDecimal coin(JsonNode accountPush, String coin, String field) {
        for (JsonNode c : accountPush.path("data").path(0).path("coin")) {
            if (c.path("coin").asText().equals(coin)) return new BigDecimal(c.path(field).asText());
        }
        return BigDecimal.ZERO;
    }

    @Test
    void loginErrorsAndPingAreTheRealOnes() throws Exception {
        Credentials creds = setUp();
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private")) {
            ws.send("ping");
            assertThat(ws.nextText(5_000)).isEqualTo("pong");
            // A private topic before login: 30004 (ccxt and bitget-api then log in again).
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"}]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30004);
            ws.login(creds, server.clock.millis(), "bm90IHRoZSBzaWdu");
            JsonNode bad = ws.next(n -> n.has("event"));
            assertThat(bad.path("event").asText()).isEqualTo("error");
            assertThat(bad.path("code").asInt()).isEqualTo(30015);
            ws.login(creds, server.clock.millis(), null);
            JsonNode good = ws.next(n -> n.has("event"));
            assertThat(good.path("event").asText()).isEqualTo("login");
            assertThat(good.path("code").isNumber()).as("bitget-api needs the number 0").isTrue();
            assertThat(good.path("code").asInt()).isZero();
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"SPOT\",\"topic\":\"nope\"}]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30001);
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"spot\",\"topic\":\"books5\",\"symbol\":\"NOPEUSDT\"}]}");
            JsonNode noBook = ws.next(n -> n.has("event"));
            assertThat(noBook.path("event").asText()).as("refused before any ack").isEqualTo("error");
            assertThat(noBook.path("code").asInt()).isEqualTo(30001);
            ws.send("{not json");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30016);
            // A classic account's key logs in, but the v3 private topics are not its channels.
            try (StreamClient classic = new StreamClient(server.baseUrl(), "/v3/ws/private")) {
                classic.login(Credentials.CLASSIC, server.clock.millis(), null);
                assertThat(classic.next(n -> n.has("event")).path("code").asInt()).isZero();
                classic.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"}]}");
                assertThat(classic.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30001);
            }
        }
    }

    /** websocket-wire.md "Keep-alive": 10 messages a second (30006 beyond), 30003 for an unknown op, closed after 2 silent minutes. */
    @Test
    void theDocumentedLimitsHold() throws Exception {
        setUp();
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/public")) {
            ws.send("{\"op\":\"trade\",\"args\":[]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30003);
            Thread.sleep(1_100); // a new second
            // 25 frames at once: however they fall into seconds, one second holds more than 10 of them.
            for (int i = 0; i < 25; i++) ws.send("ping");
            assertThat(ws.next(n -> n.path("code").asInt() == 30006).path("event").asText()).isEqualTo("error");
        }
        try (StreamClient idle = new StreamClient(server.baseUrl(), "/v3/ws/public")) {
            idle.send("ping");
            assertThat(idle.nextText(5_000)).isEqualTo("pong");
            // The sweeper's check, as it will run 121 s from now.
            assertThat(server.app.streams().closeIdle(System.nanoTime() + 121_000_000_000L)).isGreaterThanOrEqualTo(1);
            assertThat(idle.closed.get(5, java.util.concurrent.TimeUnit.SECONDS)).startsWith("1000");
        }
    }

    /**
     * D193: a futures ticker that moves the mark price pushes the position of an account holding the contract, with the
     * unrealised PnL at the new mark: long 2 @ 100, mark 105 -> (105 - 100) x 2 = 10.
     */
    @Test
    void aMarkPriceMovePushesThePositionsHeldInTheContract() throws Exception {
        Credentials creds = setUp();
        String perp = base + "PUSDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\",\"baseCoin\":\"" + base
                + "P\",\"quoteCoin\":\"USDT\",\"marginCoin\":\"USDT\",\"maxLeverage\":20,\"mmrTiers\":[{\"maxNotional\":100000,\"mmr\":\"0.005\"}]}"));
        futuresTicker(perp, "100", "100");
        ok(admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp
                + "\",\"holdSide\":\"long\",\"marginMode\":\"crossed\",\"leverage\":10,\"size\":\"2\",\"price\":\"100\",\"fee\":\"0\"}"));
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private")) {
            ws.login(creds, server.clock.millis(), null);
            ws.next(n -> "login".equals(n.path("event").asText()));
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"position\"}]}");
            JsonNode snapshot = ws.next(n -> is(n, "position", "snapshot")).path("data").get(0);
            assertThat(new BigDecimal(snapshot.path("unrealisedPnl").asText())).isEqualByComparingTo("0");
            futuresTicker(perp, "105", "105"); // no ledger change at all: the mark alone moved
            JsonNode moved = ws.next(n -> is(n, "position", "update")).path("data").get(0);
            assertThat(moved.path("symbol").asText()).isEqualTo(perp);
            assertThat(new BigDecimal(moved.path("markPrice").asText())).isEqualByComparingTo("105");
            assertThat(new BigDecimal(moved.path("unrealisedPnl").asText())).isEqualByComparingTo("10");
        }
    }

    /**
     * A drain pushes many accounts from one read of their balances and positions (D210): a mark move pushes six holders
     * at once (four lanes, so at least two share a drain), each with its own figures: long n @ 100, mark 105 -> unrealised
     * PnL 5n on both topics; the USDT each was funded with (1,000 + 100n) as its own REST assets row shows it.
     */
    @Test
    void aDrainOfManyAccountsPushesEachItsOwnFigures() throws Exception {
        setUp();
        String perp = base + "DUSDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\",\"baseCoin\":\"" + base
                + "D\",\"quoteCoin\":\"USDT\",\"marginCoin\":\"USDT\",\"maxLeverage\":20,\"mmrTiers\":[{\"maxNotional\":100000,\"mmr\":\"0.005\"}]}"));
        futuresTicker(perp, "100", "100");
        java.util.List<StreamClient> clients = new java.util.ArrayList<>();
        java.util.List<ApiClient> rest = new java.util.ArrayList<>();
        java.util.Set<BigDecimal> balances = new java.util.HashSet<>();
        try {
            for (int n = 1; n <= 6; n++) {
                Credentials creds = admin.fundedAccount("drain-" + base + "-" + n, "USDT", Integer.toString(1000 + 100 * n));
                ok(admin.post("/admin/v1/positions", "{\"uid\":" + admin.lastUid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp
                        + "\",\"holdSide\":\"long\",\"marginMode\":\"crossed\",\"leverage\":10,\"size\":\"" + n + "\",\"price\":\"100\",\"fee\":\"0\"}"));
                StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private");
                clients.add(ws);
                rest.add(server.client(creds));
                ws.login(creds, server.clock.millis(), null);
                ws.next(m -> "login".equals(m.path("event").asText()));
                ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"},{\"instType\":\"UTA\",\"topic\":\"position\"}]}");
                ws.next(m -> is(m, "account", "snapshot"));
                ws.next(m -> is(m, "position", "snapshot"));
            }
            futuresTicker(perp, "105", "105"); // one mark move: the six holders' pushes wait on their lanes together
            for (int n = 1; n <= 6; n++) {
                StreamClient ws = clients.get(n - 1);
                JsonNode position = ws.next(m -> is(m, "position", "update")).path("data").get(0);
                assertThat(new BigDecimal(position.path("size").asText())).isEqualByComparingTo(Integer.toString(n));
                assertThat(new BigDecimal(position.path("unrealisedPnl").asText())).isEqualByComparingTo(Integer.toString(5 * n));
                JsonNode account = ws.next(m -> is(m, "account", "update"));
                assertThat(new BigDecimal(account.path("data").path(0).path("unrealisedPnL").asText())).isEqualByComparingTo(Integer.toString(5 * n));
                ApiClient.Reply assets = rest.get(n - 1).get("/api/v3/account/assets");
                ok(assets);
                BigDecimal restBalance = null;
                for (JsonNode a : assets.data().path("assets")) if (a.path("coin").asText().equals("USDT")) restBalance = new BigDecimal(a.path("balance").asText());
                assertThat(coin(account, "USDT", "balance")).isEqualByComparingTo(restBalance);
                balances.add(restBalance.stripTrailingZeros());
            }
            assertThat(balances).hasSize(6); // six different balances: a push of another account's would not match its REST row
        } finally {
            for (StreamClient ws : clients) ws.close();
        }
    }

    /**
     * D226: a commit that lands while a drain of its account is about to read is shown by that read, and its own drain
     * pushes nothing more: a state is pushed once. The first deposit's drain is held before its read while a second
     * deposit commits; one push then shows both (1000 + 5 + 7 = 1012), none repeats it, and a third deposit is pushed.
     */
    @Test
    void aCommitLandingBeforeADrainsReadIsPushedOnce() throws Exception {
        Credentials creds = setUp();
        io.tas.stream.StreamHub hub = server.app.streams();
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1), release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private")) {
            ws.login(creds, server.clock.millis(), null);
            ws.next(n -> "login".equals(n.path("event").asText()));
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"}]}");
            ws.next(n -> is(n, "account", "snapshot"));
            hub.beforeAccountRead(() -> {
                if (!first.getAndSet(false)) return;
                held.countDown();
                try {
                    release.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                deposit("5", "d226-a");
                assertThat(held.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("the first drain reached its read").isTrue();
                deposit("7", "d226-b"); // committed and heard while that drain waits
            } finally {
                release.countDown();
                hub.beforeAccountRead(null);
            }
            JsonNode both = ws.next(n -> is(n, "account", "update"));
            assertThat(coin(both, "USDT", "available")).isEqualByComparingTo("1012");
            deposit("1", "d226-c");
            JsonNode third = ws.next(n -> is(n, "account", "update"));
            assertThat(coin(third, "USDT", "available")).as("the push after the held one (1012 pushed twice without D226)").isEqualByComparingTo("1013");
        }
    }

    /**
     * D212: a ticker move visits its book's own subscribers, once each. One connection follows another book; one
     * unsubscribes and subscribes again; one goes away. The book's index then holds exactly the two live subscriptions,
     * and a move reaches each of them once, and no other.
     */
    @Test
    void aTickerMoveReachesEachSubscriberOfItsBookOnce() throws Exception {
        setUp();
        String other = spot.replace("USDT", "USDC");
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + other + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDC\"}"));
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + other + "\",\"lastPrice\":\"1\",\"ask1Price\":\"1.01\",\"bid1Price\":\"1\"}"));
        io.tas.stream.StreamHub hub = server.app.streams();
        io.tas.account.AccountEnums.Category category = io.tas.account.AccountEnums.Category.SPOT;
        String mine = "{\"op\":\"subscribe\",\"args\":[{\"instType\":\"spot\",\"topic\":\"ticker\",\"symbol\":\"" + spot + "\"}]}";
        java.util.function.Predicate<JsonNode> tick = n -> is(n, "ticker", "snapshot");
        try (StreamClient a = new StreamClient(server.baseUrl(), "/v3/ws/public");
             StreamClient b = new StreamClient(server.baseUrl(), "/v3/ws/public");
             StreamClient gone = new StreamClient(server.baseUrl(), "/v3/ws/public");
             StreamClient elsewhere = new StreamClient(server.baseUrl(), "/v3/ws/public")) {
            for (StreamClient c : java.util.List.of(a, b, gone)) {
                c.send(mine);
                c.next(tick); // the snapshot on subscribe
            }
            b.send(mine.replace("\"subscribe\"", "\"unsubscribe\""));
            b.next(n -> "unsubscribe".equals(n.path("event").asText()));
            b.send(mine);
            b.next(tick);
            elsewhere.send(mine.replace(spot, other));
            elsewhere.next(tick);
            gone.close();
            long end = System.nanoTime() + 10_000_000_000L;
            while (hub.followersOf(category, spot) != 2 && System.nanoTime() < end) Thread.sleep(50);
            assertThat(hub.followersOf(category, spot)).as("the live subscriptions on the book").isEqualTo(2);
            assertThat(hub.followersOf(category, other)).isEqualTo(1);

            for (String ask : java.util.List.of("100.5", "100.7")) {
                ticker(ask, "99.9");
                for (StreamClient c : java.util.List.of(a, b)) {
                    JsonNode push = c.next(tick);
                    assertThat(push.path("data").path(0).path("ask1Price").asText()).isEqualTo(ask);
                    assertThat(push.path("data").path(0).path("symbol").asText()).isEqualTo(spot);
                }
            }
            Thread.sleep(300); // a second push of a move would have arrived by now
            for (StreamClient c : java.util.List.of(a, b, elsewhere)) {
                assertThat(c.kept()).as("no push twice, none for another book").noneMatch(tick);
            }
        }
    }

    private void futuresTicker(String symbol, String last, String mark) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"" + last
                + "\",\"ask1Price\":\"" + last + "\",\"bid1Price\":\"" + last + "\",\"ask1Size\":\"5\",\"bid1Size\":\"5\",\"markPrice\":\""
                + mark + "\",\"indexPrice\":\"" + mark + "\"}"));
    }

    /**
     * Issue 27 item 3: the v3 strategy-order topic. An admin ingest of a pending TP/SL order and its cancel through the
     * API are each pushed after their commit, with the fields of the REST rows (§2.19) that show the order then.
     */
    @Test
    void strategyOrdersArePushedOnTheStrategyOrderTopic() throws Exception {
        Credentials creds = setUp();
        ApiClient c = server.client(creds);
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private")) {
            ws.login(creds, server.clock.millis(), null);
            ws.next(n -> "login".equals(n.path("event").asText()));
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"strategy-order\"}]}");
            ws.next(n -> "subscribe".equals(n.path("event").asText()));
            ApiClient.Reply ingested = admin.post("/admin/v1/records/strategy-orders", "{\"uid\":" + uid + ",\"records\":["
                    + StrategyOrdersApiTest.order("tpsl", "pending", ",\"clientOid\":\"ws-tpsl\"") + "]}");
            ok(ingested);
            String id = ingested.data().get("orderIds").get(0).asText();
            JsonNode placed = ws.next(n -> is(n, "strategy-order", "snapshot"));
            JsonNode row = c.get("/api/v3/trade/unfilled-strategy-orders?category=USDT-FUTURES").data().get(0);
            assertThat(placed.path("data").get(0)).isEqualTo(row);
            assertThat(row.get("orderId").asText()).isEqualTo(id);

            ok(c.post("/api/v3/trade/cancel-strategy-order", "{\"orderId\":\"" + id + "\"}"));
            JsonNode cancelled = ws.next(n -> is(n, "strategy-order", "snapshot")).path("data").get(0);
            assertThat(cancelled.get("orderId").asText()).isEqualTo(id);
            assertThat(cancelled.get("status").asText()).isEqualTo("cancelled");
            JsonNode history = c.get("/api/v3/trade/history-strategy-orders?category=USDT-FUTURES").data().path("list").get(0);
            assertThat(cancelled).isEqualTo(history);
        }
    }

    @Test
    void anOrderItsFillAndItsCancelArePushedAfterTheirCommit() throws Exception {
        Credentials creds = setUp();
        ApiClient c = server.client(creds);
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private");
             StreamClient pub = new StreamClient(server.baseUrl(), "/v3/ws/public")) {
            ws.login(creds, server.clock.millis(), null);
            ws.next(n -> "login".equals(n.path("event").asText()));
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"},{\"instType\":\"UTA\",\"topic\":\"order\"},"
                    + "{\"instType\":\"UTA\",\"topic\":\"fill\"}],\"uta\":true}");
            JsonNode ack = ws.next(n -> "subscribe".equals(n.path("event").asText()));
            assertThat(ack.path("arg").path("topic").asText()).isEqualTo("account");
            // Every arg is in before the first change: the last ack (args are handled in order).
            ws.next(n -> "subscribe".equals(n.path("event").asText()) && "fill".equals(n.path("arg").path("topic").asText()));
            JsonNode snapshot = ws.next(n -> is(n, "account", "snapshot"));
            assertThat(coin(snapshot, "USDT", "available")).isEqualByComparingTo("1000");
            assertThat(coin(snapshot, "USDT", "balance")).isEqualByComparingTo("1000");

            pub.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"spot\",\"topic\":\"ticker\",\"symbol\":\"" + spot + "\"},"
                    + "{\"instType\":\"spot\",\"topic\":\"books5\",\"symbol\":\"" + spot + "\"}]}");
            pub.next(n -> "subscribe".equals(n.path("event").asText()) && "books5".equals(n.path("arg").path("topic").asText()));
            // The ticker answers its current state at once (D187): a watchTicker resolves without waiting for a move.
            JsonNode first = pub.next(n -> "ticker".equals(n.path("arg").path("topic").asText()) && n.has("data"));
            assertThat(new BigDecimal(first.path("data").path(0).path("lastPrice").asText())).isEqualByComparingTo("99.99");
            // books5 answers the book at once: the ticker's level 1 (ask 100.01, bid 99.99, 5 each) and 4 more a side.
            JsonNode book = pub.next(n -> "books5".equals(n.path("arg").path("topic").asText()) && n.has("action")).path("data").path(0);
            assertThat(book.path("a")).hasSize(5);
            assertThat(book.path("a").path(0).toString()).isEqualTo("[\"100.01\",\"5\"]");
            assertThat(book.path("b").path(0).toString()).isEqualTo("[\"99.99\",\"5\"]");

            // A limit buy of 2 at 100 rests below the ask: 200 USDT frozen.
            String id = placed(c, "buy", "2", "100");
            JsonNode live = ws.next(n -> is(n, "order", "snapshot"));
            assertThat(live.path("data").path(0).path("orderId").asText()).isEqualTo(id);
            assertThat(live.path("data").path(0).path("orderStatus").asText()).isEqualTo("live");
            assertThat(live.path("data").path(0).path("category").asText()).isEqualTo("spot");
            // The resting buy is the best bid now: the book is pushed again.
            JsonNode bid = pub.next(n -> "books5".equals(n.path("arg").path("topic").asText()) && n.has("action")
                    && n.path("data").path(0).path("b").path(0).path(0).asText().equals("100"));
            assertThat(bid.path("data").path(0).path("b").path(0).path(1).asText()).isEqualTo("2");
            JsonNode frozen = ws.next(n -> is(n, "account", "update"));
            assertThat(coin(frozen, "USDT", "available")).isEqualByComparingTo("800");
            assertThat(coin(frozen, "USDT", "locked")).isEqualByComparingTo("200");

            // The ask falls to 99.5: the buy fills as maker at 100; 2 bought, fee 2 x 0.1% = 0.002 of the base.
            ticker("99.5", "99.4");
            JsonNode tick = pub.next(n -> "ticker".equals(n.path("arg").path("topic").asText()) && n.has("data"));
            assertThat(tick.path("arg").path("instType").asText()).isEqualTo("spot");
            assertThat(new BigDecimal(tick.path("data").path(0).path("lastPrice").asText())).isEqualByComparingTo("99.4");
            // D232: the ticker goes out before the move's sweep, the book after it: never crossed, the filled buy gone.
            JsonNode swept = pub.next(n -> "books5".equals(n.path("arg").path("topic").asText()) && n.has("action")).path("data").path(0);
            assertThat(swept.path("b").path(0).toString()).isEqualTo("[\"99.4\",\"5\"]");
            assertThat(swept.path("a").path(0).toString()).isEqualTo("[\"99.5\",\"5\"]");
            JsonNode filled = ws.next(n -> is(n, "order", "snapshot") && n.path("data").path(0).path("orderStatus").asText().equals("filled"));
            assertThat(new BigDecimal(filled.path("data").path(0).path("cumExecQty").asText())).isEqualByComparingTo("2");
            JsonNode fill = ws.next(n -> is(n, "fill", "snapshot")).path("data").path(0);
            assertThat(fill.path("orderId").asText()).isEqualTo(id);
            assertThat(fill.path("category").asText()).isEqualTo("spot");
            assertThat(fill.path("tradeScope").asText()).isEqualTo("maker");
            assertThat(new BigDecimal(fill.path("execPrice").asText())).isEqualByComparingTo("100");
            assertThat(new BigDecimal(fill.path("execQty").asText())).isEqualByComparingTo("2");
            assertThat(new BigDecimal(fill.path("execValue").asText())).isEqualByComparingTo("200");
            assertThat(fill.path("feeDetail").path(0).path("feeCoin").asText()).isEqualTo(base);
            assertThat(new BigDecimal(fill.path("feeDetail").path(0).path("fee").asText())).isEqualByComparingTo("0.002");
            JsonNode after = ws.next(n -> is(n, "account", "update") && coin(n, base, "available").signum() > 0);
            assertThat(coin(after, base, "available")).isEqualByComparingTo("1.998");
            assertThat(coin(after, "USDT", "balance")).isEqualByComparingTo("800");
            assertThat(coin(after, "USDT", "locked")).isEqualByComparingTo("0");

            // A sell of 1 at 200 rests above the bid; cancelled, its freeze (1 of the base) goes back.
            String sell = placed(c, "sell", "1", "200");
            ok(c.post("/api/v3/trade/cancel-order", "{\"orderId\":\"" + sell + "\"}"));
            JsonNode cancelled = ws.next(n -> is(n, "order", "snapshot") && n.path("data").path(0).path("orderStatus").asText().equals("cancelled"));
            assertThat(cancelled.path("data").path(0).path("orderId").asText()).isEqualTo(sell);
            JsonNode back = ws.next(n -> is(n, "account", "update") && coin(n, base, "locked").signum() == 0
                    && coin(n, base, "available").compareTo(new BigDecimal("1.998")) == 0);
            assertThat(coin(back, "USDT", "available")).isEqualByComparingTo("800");
            assertThat(ws.kept()).as("each fill pushed once, none for the cancel").noneMatch(n -> is(n, "fill", "snapshot"));

            // Any committed money change pushes the account, not only orders: a deposit of 50 USDT.
            admin.deposit(uid, "unified", "USDT", "50");
            JsonNode deposited = ws.next(n -> is(n, "account", "update") && coin(n, "USDT", "available").compareTo(new BigDecimal("850")) == 0);
            assertThat(coin(deposited, "USDT", "balance")).isEqualByComparingTo("850");
        }
    }
}
