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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 (D187): the classic account's v2 channels and the public book, trade and candle channels, on H2 and
 * PostgreSQL. Each push is checked against figures by hand (spot fee 0.1% in the coin received, a resting order fills as
 * the maker at its own price) and against the REST row after it; the incremental book is rebuilt here from its snapshot
 * and updates, and its CRC-32 computed here, apart from the server's code.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class StreamV2ApiTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private String spot, base;

    private String pair() {
        String tag = kind.name().charAt(0) + "" + NAMES.incrementAndGet();
        base = "WV" + tag;
        spot = base + "USDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDT\"}"));
        ticker("100.01", "99.99");
        return tag;
    }

    private void ticker(String ask, String bid) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"lastPrice\":\"" + bid + "\",\"ask1Price\":\""
                + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}"));
    }

    /** A classic account with a read-and-write key and 1000 USDT of spot. */
    private Credentials classic(String tag, long[] uid) {
        uid[0] = admin.createAccount("{\"username\":\"wsv2-" + tag + "\",\"accountMode\":\"CLASSIC\"}");
        String key = admin.createKey(uid[0], "Classic1", "read-and-write", "[]");
        admin.deposit(uid[0], "spot", "USDT", "1000");
        return new Credentials(key, admin.lastSecret, "Classic1");
    }

    private static boolean is(JsonNode n, String channel, String instType) {
        return channel.equals(n.path("arg").path("channel").asText()) && instType.equals(n.path("arg").path("instType").asText()) && n.has("data");
    }

    private static JsonNode coin(JsonNode push, String coin) {
        for (JsonNode c : push.path("data")) if (c.path("coin").asText().equals(coin)) return c;
        return null;
    }

    @Test
    void classicChannelsPushWhatTheV2RowsShow() throws Exception {
        String tag = pair();
        long[] uid = new long[1];
        Credentials creds = classic(tag, uid);
        ApiClient c = server.client(creds);
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v2/ws/private")) {
            ws.login(creds, server.clock.millis(), null);
            assertThat(ws.next(n -> n.has("event")).path("event").asText()).isEqualTo("login");
            // A classic key has the v2 channels only: the unified account topic is 30001.
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"}]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30001);
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"SPOT\",\"channel\":\"account\",\"coin\":\"default\"},"
                    + "{\"instType\":\"SPOT\",\"channel\":\"orders\",\"instId\":\"default\"},{\"instType\":\"SPOT\",\"channel\":\"fill\",\"instId\":\"default\"}]}");
            JsonNode snapshot = ws.next(n -> is(n, "account", "SPOT"));
            assertThat(snapshot.path("action").asText()).isEqualTo("snapshot");
            JsonNode usdt = coin(snapshot, "USDT");
            assertThat(usdt.path("available").asText()).isEqualTo("1000");
            assertThat(usdt.path("frozen").asText()).isEqualTo("0");
            assertThat(usdt.has("limitAvailable") && usdt.has("uTime") && usdt.has("locked")).isTrue();

            // A limit buy of 2 at 100 rests between the bid and the ask: 200 USDT frozen.
            ApiClient.Reply placed = c.post("/api/v2/spot/trade/place-order", "{\"symbol\":\"" + spot
                    + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"force\":\"gtc\",\"size\":\"2\",\"price\":\"100\",\"clientOid\":\"v2-" + tag + "\"}");
            ok(placed);
            String id = placed.data().path("orderId").asText();
            JsonNode live = ws.next(n -> is(n, "orders", "SPOT")).path("data").path(0);
            assertThat(live.path("orderId").asText()).isEqualTo(id);
            assertThat(live.path("clientOid").asText()).isEqualTo("v2-" + tag);
            assertThat(live.path("instId").asText()).isEqualTo(spot);
            assertThat(live.path("status").asText()).isEqualTo("live");
            assertThat(live.path("newSize").asText()).isEqualTo("2");
            assertThat(live.path("price").asText()).isEqualTo("100");
            assertThat(live.has("posMode")).as("a spot order carries no posMode (ccxt would parse it as futures)").isFalse();
            JsonNode frozen = ws.next(n -> is(n, "account", "SPOT") && "200".equals(coin(n, "USDT").path("frozen").asText()));
            assertThat(coin(frozen, "USDT").path("available").asText()).isEqualTo("800");

            // The ask falls to 99.5: the buy fills as maker at 100; 2 bought, fee 0.002 of the base.
            ticker("99.5", "99.4");
            JsonNode filled = ws.next(n -> is(n, "orders", "SPOT") && n.path("data").path(0).path("status").asText().equals("filled"))
                    .path("data").path(0);
            assertThat(filled.path("accBaseVolume").asText()).isEqualTo("2");
            assertThat(new BigDecimal(filled.path("priceAvg").asText())).isEqualByComparingTo("100");
            assertThat(filled.path("feeDetail").path(0).path("fee").asText()).isEqualTo("-0.002");
            JsonNode fill = ws.next(n -> is(n, "fill", "SPOT")).path("data").path(0);
            assertThat(fill.path("orderId").asText()).isEqualTo(id);
            assertThat(fill.path("symbol").asText()).isEqualTo(spot);
            assertThat(fill.path("tradeScope").asText()).isEqualTo("maker");
            assertThat(fill.path("priceAvg").asText()).isEqualTo("100");
            assertThat(fill.path("size").asText()).isEqualTo("2");
            assertThat(fill.path("amount").asText()).isEqualTo("200");
            assertThat(fill.path("feeDetail").path(0).path("feeCoin").asText()).isEqualTo(base);
            assertThat(fill.path("feeDetail").path(0).path("totalFee").asText()).isEqualTo("-0.002");
            // The REST fills row after it shows the same fill.
            JsonNode rest = c.get("/api/v2/spot/trade/fills?symbol=" + spot).data().path(0);
            assertThat(rest.path("tradeId").asText()).isEqualTo(fill.path("tradeId").asText());
            assertThat(rest.path("size").asText()).isEqualTo("2");
            JsonNode after = ws.next(n -> is(n, "account", "SPOT") && coin(n, base) != null);
            assertThat(coin(after, base).path("available").asText()).isEqualTo("1.998");
            assertThat(coin(after, "USDT").path("available").asText()).isEqualTo("800");
            assertThat(coin(after, "USDT").path("frozen").asText()).isEqualTo("0");
        }
    }

    /** A perpetual of its own (ticker 100.01 / 99.99, mark 99.99) and a classic account with 1000 USDT of futures margin. */
    private record Futures(String perp, String contract, Credentials creds, ApiClient client) {}

    private static final String FUTURES_TICKER = "{\"category\":\"USDT-FUTURES\",\"symbol\":\"%s\",\"lastPrice\":\"%s\",\"ask1Price\":\"%s\","
            + "\"bid1Price\":\"%s\",\"ask1Size\":\"10\",\"bid1Size\":\"10\",\"markPrice\":\"%s\",\"indexPrice\":\"%s\",\"fundingRate\":\"0\"}";

    private Futures futures(String prefix) {
        String tag = kind.name().charAt(0) + "" + NAMES.incrementAndGet();
        String perp = prefix + tag + "USDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + perp + "\",\"baseCoin\":\"" + prefix + tag
                + "\",\"quoteCoin\":\"USDT\",\"marginCoin\":\"USDT\",\"maxLeverage\":\"50\",\"mmrTiers\":[{\"maxNotional\":\"1000000\",\"mmr\":\"0.005\"}]}"));
        ok(admin.post("/admin/v1/tickers", String.format(FUTURES_TICKER, perp, "100", "100.01", "99.99", "99.99", "99.99")));
        long uid = admin.createAccount("{\"username\":\"ws-" + prefix + tag + "\",\"accountMode\":\"CLASSIC\"}");
        Credentials creds = new Credentials(admin.createKey(uid, "Classic1", "read-and-write", "[]"), admin.lastSecret, "Classic1");
        admin.deposit(uid, "unified", "USDT", "1000");
        return new Futures(perp, "\"symbol\":\"" + perp + "\",\"productType\":\"USDT-FUTURES\",\"marginCoin\":\"USDT\"", creds, server.client(creds));
    }

    /**
     * D206: the orders-algo channel pushes a classic account's TP/SL as the plan channel does: live when placed (the
     * orderId the REST row answered, the trigger, the part it closes, sell to close a long, the position's posMode),
     * executed when the mark crosses it, and the reduce-only close it made shows on the orders channel.
     */
    @Test
    void aTakeProfitIsPushedOnTheOrdersAlgoChannelPlacedAndExecuted() throws Exception {
        Futures f = futures("PWA");
        String perp = f.perp(), contract = f.contract();
        Credentials creds = f.creds();
        ApiClient c = f.client();
        ok(c.post("/api/v2/mix/order/place-order", "{" + contract + ",\"marginMode\":\"crossed\",\"side\":\"buy\",\"orderType\":\"market\",\"size\":\"3\"}"));
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v2/ws/private")) {
            ws.login(creds, server.clock.millis(), null);
            assertThat(ws.next(n -> n.has("event")).path("event").asText()).isEqualTo("login");
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"USDT-FUTURES\",\"channel\":\"orders-algo\",\"instId\":\"default\"},"
                    + "{\"instType\":\"USDT-FUTURES\",\"channel\":\"orders\",\"instId\":\"default\"}]}");
            assertThat(ws.next(n -> "subscribe".equals(n.path("event").asText())).path("arg").path("channel").asText()).isEqualTo("orders-algo");

            // Take profit of 2 of the 3 long at mark 105, as a market close.
            ApiClient.Reply placed = c.post("/api/v2/mix/order/place-tpsl-order", "{" + contract + ",\"planType\":\"profit_plan\","
                    + "\"triggerPrice\":\"105\",\"triggerType\":\"mark_price\",\"holdSide\":\"long\",\"size\":\"2\",\"clientOid\":\"tp-" + perp + "\"}");
            ok(placed);
            String id = placed.data().path("orderId").asText();
            JsonNode live = ws.next(n -> is(n, "orders-algo", "USDT-FUTURES")).path("data").path(0);
            assertThat(live.path("orderId").asText()).isEqualTo(id);
            assertThat(live.path("clientOid").asText()).isEqualTo("tp-" + perp);
            assertThat(live.path("instId").asText()).isEqualTo(perp);
            assertThat(live.path("status").asText()).isEqualTo("live");
            assertThat(live.path("triggerPrice").asText()).isEqualTo("105");
            assertThat(live.path("price").asText()).isEqualTo("105");
            assertThat(live.path("executePrice").asText()).isEqualTo("0");
            assertThat(live.path("triggerType").asText()).isEqualTo("mark_price");
            assertThat(live.path("planType").asText()).isEqualTo("tp");
            assertThat(live.path("size").asText()).isEqualTo("2");
            assertThat(live.path("orderType").asText()).isEqualTo("market");
            assertThat(live.path("side").asText()).as("one-way mode: a long is closed by selling").isEqualTo("sell");
            assertThat(live.path("triggerTime").asText()).as("live: the platform's sample repeats cTime").isEqualTo(live.path("cTime").asText());
            assertThat(live.path("enterPointSource").asText()).isEqualTo("API");
            assertThat(live.path("posSide").asText()).isEqualTo("long");
            assertThat(live.path("tradeSide").asText()).isEqualTo("close");
            assertThat(live.path("posMode").asText()).as("ccxt parses an order without posMode as spot").isEqualTo("one_way_mode");
            assertThat(live.path("marginMode").asText()).isEqualTo("crossed");

            // The mark reaches 105: the plan runs, closing 2 at the bid 104.99.
            ok(admin.post("/admin/v1/tickers", String.format(FUTURES_TICKER, perp, "105", "105.01", "104.99", "105", "105")));
            JsonNode executed = ws.next(n -> is(n, "orders-algo", "USDT-FUTURES") && n.path("data").path(0).path("status").asText().equals("executed"))
                    .path("data").path(0);
            assertThat(executed.path("orderId").asText()).isEqualTo(id);
            JsonNode close = ws.next(n -> is(n, "orders", "USDT-FUTURES") && n.path("data").path(0).path("status").asText().equals("filled")
                    && n.path("data").path(0).path("tradeSide").asText().equals("close")).path("data").path(0);
            assertThat(close.path("side").asText()).isEqualTo("sell");
            assertThat(close.path("accBaseVolume").asText()).isEqualTo("2");
            assertThat(new BigDecimal(close.path("priceAvg").asText())).isEqualByComparingTo("104.99");
        }
    }

    /** D206: in hedge mode the plan's side is the position's direction (buy for a long), as the orders channel spells it. */
    @Test
    void aHedgedStopLossIsPushedWithThePositionsDirection() throws Exception {
        Futures f = futures("PWH");
        String perp = f.perp(), contract = f.contract();
        Credentials creds = f.creds();
        ApiClient c = f.client();
        ok(c.post("/api/v2/mix/account/set-position-mode", "{\"productType\":\"USDT-FUTURES\",\"posMode\":\"hedge_mode\"}"));
        ok(c.post("/api/v2/mix/order/place-order", "{" + contract + ",\"marginMode\":\"crossed\",\"side\":\"buy\",\"tradeSide\":\"open\","
                + "\"orderType\":\"market\",\"size\":\"1\"}"));
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v2/ws/private")) {
            ws.login(creds, server.clock.millis(), null);
            assertThat(ws.next(n -> n.has("event")).path("event").asText()).isEqualTo("login");
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"USDT-FUTURES\",\"channel\":\"orders-algo\",\"instId\":\"" + perp + "\"}]}");
            ws.next(n -> "subscribe".equals(n.path("event").asText()));
            // A stop-loss of the whole long at mark 95, by the last price, as a limit at 94.
            ApiClient.Reply placed = c.post("/api/v2/mix/order/place-tpsl-order", "{" + contract + ",\"planType\":\"pos_loss\","
                    + "\"triggerPrice\":\"95\",\"triggerType\":\"fill_price\",\"executePrice\":\"94\",\"holdSide\":\"long\"}");
            ok(placed);
            JsonNode live = ws.next(n -> is(n, "orders-algo", "USDT-FUTURES")).path("data").path(0);
            assertThat(live.path("orderId").asText()).isEqualTo(placed.data().path("orderId").asText());
            // A whole-position plan is stored as a stop-loss of the position's size when placed (D206).
            assertThat(live.path("planType").asText()).isEqualTo("sl");
            assertThat(live.path("size").asText()).as("the long's size").isEqualTo("1");
            assertThat(live.path("triggerType").asText()).isEqualTo("fill_price");
            assertThat(live.path("executePrice").asText()).isEqualTo("94");
            assertThat(live.path("orderType").asText()).isEqualTo("limit");
            assertThat(live.path("posMode").asText()).isEqualTo("hedge_mode");
            assertThat(live.path("side").asText()).as("hedge mode: the long's direction").isEqualTo("buy");
            assertThat(live.path("posSide").asText()).isEqualTo("long");
            assertThat(live.path("tradeSide").asText()).isEqualTo("close");
        }
    }

    @Test
    void aUnifiedKeyHasNoClassicChannels() throws Exception {
        pair();
        Credentials unified = admin.fundedAccount("wsv2-unified-" + NAMES.incrementAndGet(), "USDT", "10");
        try (StreamClient ws = new StreamClient(server.baseUrl(), "/v2/ws/private")) {
            ws.login(unified, server.clock.millis(), null);
            assertThat(ws.next(n -> n.has("event")).path("event").asText()).isEqualTo("login");
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"SPOT\",\"channel\":\"account\",\"coin\":\"default\"}]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30001);
            // Spot has no positions channel, and a public channel must name a book that exists.
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"SPOT\",\"channel\":\"positions\",\"instId\":\"default\"}]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30001);
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"SPOT\",\"channel\":\"candle7m\",\"instId\":\"" + spot + "\"}]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30001);
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"SPOT\",\"channel\":\"trade\",\"instId\":\"NOPEUSDT\"}]}");
            assertThat(ws.next(n -> n.has("event")).path("code").asInt()).isEqualTo(30001);
        }
    }

    /** The incremental book, rebuilt here: price → size per side; a size of 0 removes the level. */
    private static final class Book {
        final TreeMap<BigDecimal, String[]> asks = new TreeMap<>(), bids = new TreeMap<>(Comparator.reverseOrder());

        void apply(JsonNode data) {
            apply(asks, data.path("asks"));
            apply(bids, data.path("bids"));
        }

        private static void apply(TreeMap<BigDecimal, String[]> side, JsonNode levels) {
            for (JsonNode l : levels) {
                String price = l.path(0).asText(), size = l.path(1).asText();
                if (new BigDecimal(size).signum() == 0) side.remove(new BigDecimal(price));
                else side.put(new BigDecimal(price), new String[]{price, size});
            }
        }

        /** ccxt.pro's rule: the best 25 bids and asks interleaved as price:size, CRC-32 as a signed int. */
        long checksum() {
            List<String[]> b = new ArrayList<>(bids.values()), a = new ArrayList<>(asks.values());
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                if (i < b.size()) parts.add(b.get(i)[0] + ":" + b.get(i)[1]);
                if (i < a.size()) parts.add(a.get(i)[0] + ":" + a.get(i)[1]);
            }
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(String.join(":", parts).getBytes(StandardCharsets.UTF_8));
            return (int) crc.getValue();
        }

        String best() { return bids.firstEntry().getValue()[0] + "x" + bids.firstEntry().getValue()[1] + " / " + asks.firstEntry().getValue()[0]
                + "x" + asks.firstEntry().getValue()[1]; }
    }

    @Test
    void theIncrementalBookTradesAndCandlesFollowTheEngine() throws Exception {
        String tag = pair();
        long[] uid = new long[1];
        ApiClient c = server.client(classic(tag, uid));
        try (StreamClient pub = new StreamClient(server.baseUrl(), "/v2/ws/public")) {
            pub.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"SPOT\",\"channel\":\"books\",\"instId\":\"" + spot + "\"},"
                    + "{\"instType\":\"SPOT\",\"channel\":\"trade\",\"instId\":\"" + spot + "\"},"
                    + "{\"instType\":\"SPOT\",\"channel\":\"candle1m\",\"instId\":\"" + spot + "\"}]}");
            Book book = new Book();
            JsonNode snap = pub.next(n -> is(n, "books", "SPOT")).path("data").path(0);
            book.apply(snap);
            assertThat(snap.path("checksum").asLong()).isEqualTo(book.checksum());
            assertThat(book.best()).isEqualTo("99.99x5 / 100.01x5");

            // A resting buy of 2 at 100 becomes the best bid: one update, one level.
            ok(c.post("/api/v2/spot/trade/place-order", "{\"symbol\":\"" + spot
                    + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"force\":\"gtc\",\"size\":\"2\",\"price\":\"100\"}"));
            JsonNode up = pub.next(n -> is(n, "books", "SPOT") && "update".equals(n.path("action").asText())).path("data").path(0);
            assertThat(up.path("bids").toString()).isEqualTo("[[\"100\",\"2\"]]");
            assertThat(up.path("asks")).isEmpty();
            book.apply(up);
            assertThat(up.path("checksum").asLong()).isEqualTo(book.checksum());

            // The ask falls to 99.5: the buy fills (a trade, 2 at 100, the taker sold), and the synthetic levels move.
            ticker("99.5", "99.4");
            for (int i = 0; i < 3; i++) {
                JsonNode u = pub.next(n -> is(n, "books", "SPOT") && "update".equals(n.path("action").asText())).path("data").path(0);
                book.apply(u);
                assertThat(u.path("checksum").asLong()).as("update %d", i).isEqualTo(book.checksum());
                if (book.best().equals("99.4x5 / 99.5x5")) break;
            }
            assertThat(book.best()).isEqualTo("99.4x5 / 99.5x5");
            // The book rebuilt from the pushes is the REST order book after them, level for level.
            JsonNode rest = server.client(Credentials.MAIN_RW).get("/api/v2/spot/market/orderbook?symbol=" + spot + "&limit=50").data();
            assertThat(levels(book.bids)).isEqualTo(rest.path("bids").toString());
            assertThat(levels(book.asks)).isEqualTo(rest.path("asks").toString());

            JsonNode trade = pub.next(n -> is(n, "trade", "SPOT")).path("data").path(0);
            assertThat(trade.path("price").asText() + " " + trade.path("size").asText() + " " + trade.path("side").asText()).isEqualTo("100 2 sell");
            JsonNode candle = pub.next(n -> is(n, "candle1m", "SPOT") && n.path("data").path(0).path(5).asText().equals("2")).path("data").path(0);
            // [ts, open, high, low, close, base volume, quote volume, usdt volume]: the only trade of the pair, 2 at 100.
            assertThat(candle.path(4).asText()).isEqualTo("100");
            assertThat(candle.path(6).asText()).isEqualTo("200");
        }
    }

    private static String levels(TreeMap<BigDecimal, String[]> side) {
        return side.values().stream().map(l -> "[\"" + l[0] + "\",\"" + l[1] + "\"]").toList().toString().replace(" ", "");
    }
}
