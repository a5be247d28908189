package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.account.AccountEnums.Category;
import io.tas.marketdata.TradeTape;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.names;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26: the classic (v2) public market-data rows over the engine's tickers, book and trade tape, on H2 and
 * PostgreSQL. Each test makes its own instruments on the engine pool's server. Every figure is computed by hand in the
 * comments: synthetic levels of 3 × 2 at 100 bps from ask 100.01 / bid 99.99 (D155; away from the mid to 2 decimals),
 * candle buckets in UTC+8 for the plain 6h/12h/day/week/month granularities and in UTC for the "utc" ones (D181).
 * Tickers are set with an old ts, so their price moves land on a 2023 minute, away from the trades' candles (D162).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class MarketDataV2ApiTest extends EngineServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    /** 2024-01-01T00:00:00Z, a Monday. */
    private static final long T0 = 1_704_067_200_000L;
    private static final long MIN = 60_000;
    private static final long H = 3_600_000L;
    private static final long D = 24 * H;
    /** The tickers' ts: 2023-11-14T22:13:20Z. */
    private static final long TICKER_TS = 1_700_000_000_000L;
    private static final String PLACE = "/api/v3/trade/place-order";

    private String tag() { return "V" + kind.name().charAt(0) + NAMES.incrementAndGet(); }

    /** A public GET, one fresh rate-limit second after the previous call (the rows allow 10 or 20 a second per IP). */
    private Reply get(String pathAndQuery) {
        ServerPool.clock(kind, "engine").advance(Duration.ofMillis(1001));
        return ApiClient.raw(server.baseUrl() + pathAndQuery, "GET", "");
    }

    private JsonNode data(String pathAndQuery) {
        Reply r = get(pathAndQuery);
        ok(r);
        return r.data();
    }

    private void instrument(String category, String symbol, String base, String quote) {
        String futures = category.equals("SPOT") ? "" : ",\"marginCoin\":\"" + quote + "\",\"maxLeverage\":\"50\","
                + "\"mmrTiers\":[{\"maxNotional\":\"1000000\",\"mmr\":\"0.005\"}]";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\",\"baseCoin\":\""
                + base + "\",\"quoteCoin\":\"" + quote + "\",\"bookLevels\":3,\"bookStepBps\":\"100\",\"bookLevelSize\":\"2\"" + futures + "}"));
    }

    /** A ticker from "name", "value" pairs, at TICKER_TS. */
    private void ticker(String category, String symbol, String... fields) {
        StringBuilder sb = new StringBuilder("{\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\",\"ts\":" + TICKER_TS);
        for (int i = 0; i < fields.length; i += 2) sb.append(",\"").append(fields[i]).append("\":\"").append(fields[i + 1]).append('"');
        ok(admin.post("/admin/v1/tickers", sb.append('}').toString()));
    }

    /** Ask 100.01 / bid 99.99, last 99.99 (price precision 2). */
    private void bookTicker(String category, String symbol) {
        ticker(category, symbol, "lastPrice", "99.99", "ask1Price", "100.01", "bid1Price", "99.99", "ask1Size", "5", "bid1Size", "5",
                "markPrice", "99.99", "indexPrice", "99.99");
    }

    private static String order(String category, String symbol, String side, String type, String qty, String price, String tif) {
        return "{\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"orderType\":\"" + type
                + "\",\"qty\":\"" + qty + "\"" + (price == null ? "" : ",\"price\":\"" + price + "\"")
                + (tif == null ? "" : ",\"timeInForce\":\"" + tif + "\"") + "}";
    }

    /** A row of strings joined with spaces; every field must be a JSON string. */
    private static String joined(JsonNode row) {
        List<String> fields = new ArrayList<>();
        for (JsonNode f : row) {
            assertThat(f.isTextual()).as(row.toString()).isTrue();
            fields.add(f.asText());
        }
        return String.join(" ", fields);
    }

    /** The rows of a candles answer, each checked for its width and joined with spaces. */
    private List<String> candles(String pathAndQuery, int width) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : data(pathAndQuery)) {
            assertThat(c.size()).as(c.toString()).isEqualTo(width);
            out.add(joined(c));
        }
        return out;
    }

    private static String text(JsonNode o, String... fields) {
        List<String> out = new ArrayList<>();
        for (String f : fields) {
            assertThat(o.get(f).isTextual()).as(f + " in " + o).isTrue();
            out.add(o.get(f).asText());
        }
        return String.join(" ", out);
    }

    // ---- tickers and funding

    @Test
    void tickersAreTheAdminTickersInTheV2Shapes() {
        String t = tag();
        String spot = t + "USDT";
        ticker("SPOT", spot, "lastPrice", "101.5", "openPrice24h", "100", "highPrice24h", "103", "lowPrice24h", "99", "ask1Price", "101.6",
                "bid1Price", "101.4", "ask1Size", "2", "bid1Size", "3", "price24hPcnt", "0.015", "volume24h", "1234.5", "turnover24h", "125000.25");
        JsonNode row = data("/api/v2/spot/market/tickers?symbol=" + spot).get(0);
        assertThat(names(row)).containsExactly("symbol", "high24h", "open", "lastPr", "low24h", "quoteVolume", "baseVolume",
                "usdtVolume", "bidPr", "askPr", "bidSz", "askSz", "openUtc", "ts", "changeUtc24h", "change24h");
        // usdtVolume = the quote volume (USDT quote); openUtc and changeUtc24h repeat the 24h open and change (D185).
        assertThat(text(row, "symbol", "high24h", "open", "lastPr", "low24h", "quoteVolume", "baseVolume", "usdtVolume", "bidPr",
                "askPr", "bidSz", "askSz", "openUtc", "ts", "changeUtc24h", "change24h"))
                .isEqualTo(spot + " 103 100 101.5 99 125000.25 1234.5 125000.25 101.4 101.6 3 2 100 " + TICKER_TS + " 0.015 0.015");
        // Lower case is the same pair; without a symbol every spot ticker, this one among them.
        assertThat(data("/api/v2/spot/market/tickers?symbol=" + spot.toLowerCase()).get(0)).isEqualTo(row);
        List<JsonNode> all = new ArrayList<>();
        data("/api/v2/spot/market/tickers").forEach(all::add);
        assertThat(all).contains(row).hasSizeGreaterThan(1);

        // A pair quoted in another coin: its USDT volume at that coin's USDT price, 50 x 2 = 100; none without a price.
        String quote = "Q" + t;
        ticker("SPOT", quote + "USDT", "lastPrice", "2");
        instrument("SPOT", "B" + t + quote, "B" + t, quote);
        ticker("SPOT", "B" + t + quote, "lastPrice", "1", "turnover24h", "50");
        assertThat(data("/api/v2/spot/market/tickers?symbol=B" + t + quote).get(0).get("usdtVolume").asText()).isEqualTo("100");
        instrument("SPOT", "C" + t + "N" + t, "C" + t, "N" + t);
        ticker("SPOT", "C" + t + "N" + t, "lastPrice", "1", "turnover24h", "50");
        assertThat(data("/api/v2/spot/market/tickers?symbol=C" + t + "N" + t).get(0).get("usdtVolume").asText()).isEqualTo("0");

        // Futures: markPrice present (ccxt reads a contract by it), holdingAmount the open interest.
        String perp = "P" + t + "USDT";
        ticker("USDT-FUTURES", perp, "lastPrice", "50.5", "openPrice24h", "50", "highPrice24h", "52", "lowPrice24h", "49",
                "ask1Price", "50.6", "bid1Price", "50.4", "ask1Size", "7", "bid1Size", "8", "price24hPcnt", "0.01", "volume24h", "10",
                "turnover24h", "505", "indexPrice", "50.45", "markPrice", "50.48", "fundingRate", "0.0001", "openInterest", "1234");
        JsonNode m = data("/api/v2/mix/market/ticker?productType=USDT-FUTURES&symbol=" + perp);
        assertThat(m).hasSize(1);
        assertThat(names(m.get(0))).containsExactly("symbol", "lastPr", "askPr", "bidPr", "bidSz", "askSz", "high24h", "low24h", "ts",
                "change24h", "baseVolume", "quoteVolume", "usdtVolume", "openUtc", "changeUtc24h", "indexPrice", "fundingRate",
                "holdingAmount", "deliveryStartTime", "deliveryTime", "deliveryStatus", "open24h", "markPrice");
        assertThat(text(m.get(0), "symbol", "lastPr", "askPr", "bidPr", "bidSz", "askSz", "high24h", "low24h", "ts", "change24h",
                "baseVolume", "quoteVolume", "usdtVolume", "openUtc", "changeUtc24h", "indexPrice", "fundingRate", "holdingAmount",
                "open24h", "markPrice"))
                .isEqualTo(perp + " 50.5 50.6 50.4 8 7 52 49 " + TICKER_TS + " 0.01 10 505 505 50 0.01 50.45 0.0001 1234 50 50.48");
        assertThat(text(m.get(0), "deliveryStartTime", "deliveryTime", "deliveryStatus")).isEqualTo("  "); // a perpetual
        // productType in any case, and a contract asked under another productType is served (wire facts §4, D182).
        assertThat(data("/api/v2/mix/market/ticker?productType=usdt-futures&symbol=" + perp)).isEqualTo(m);
        assertThat(data("/api/v2/mix/market/ticker?productType=COIN-FUTURES&symbol=" + perp)).isEqualTo(m);
        List<JsonNode> perps = new ArrayList<>();
        data("/api/v2/mix/market/tickers?productType=USDT-FUTURES").forEach(perps::add);
        assertThat(perps).contains(m.get(0));
        assertThat(data("/api/v2/mix/market/tickers?productType=SUSDT-FUTURES")).isEmpty(); // a demo type holds nothing (D72)
        // An inverse contract's quote is USD, valued as USDT: usdtVolume = quoteVolume.
        String inverse = "I" + t + "USD";
        ticker("COIN-FUTURES", inverse, "lastPrice", "3", "turnover24h", "300", "markPrice", "3");
        assertThat(data("/api/v2/mix/market/ticker?productType=COIN-FUTURES&symbol=" + inverse).get(0).get("usdtVolume").asText()).isEqualTo("300");

        // Funding: the ticker's rate, 8 hours, the next 00:00/08:00/16:00 UTC after now (D164); without a symbol, all.
        JsonNode f = data("/api/v2/mix/market/current-fund-rate?productType=USDT-FUTURES&symbol=" + perp);
        long now = server.clock.millis();
        long next = (now / (8 * H) + 1) * 8 * H;
        assertThat(f).hasSize(1);
        assertThat(names(f.get(0))).containsExactly("symbol", "fundingRate", "fundingRateInterval", "nextUpdate", "minFundingRate", "maxFundingRate");
        assertThat(text(f.get(0), "symbol", "fundingRate", "fundingRateInterval", "nextUpdate", "minFundingRate", "maxFundingRate"))
                .isEqualTo(perp + " 0.0001 8 " + next + " -0.003 0.003");
        List<String> rates = new ArrayList<>();
        data("/api/v2/mix/market/current-fund-rate?productType=USDT-FUTURES").forEach(r -> rates.add(r.get("symbol").asText() + " " + r.get("fundingRate").asText()));
        assertThat(rates).contains(perp + " 0.0001").doesNotContain(inverse + " 0");
        assertThat(data("/api/v2/mix/market/current-fund-rate?productType=SCOIN-FUTURES")).isEmpty();
    }

    // ---- order books

    /**
     * Spot: resting buy 1.5 @ 100 and sell 0.5 @ 100.5 among the synthetic levels asks 100.01, 101.0101 -> 101.02,
     * 102.0102 -> 102.02 and bids 99.99, 98.9901 -> 98.99, 97.9902 -> 97.99, 2 each.
     */
    @Test
    void theSpotBookShowsRestingOrdersAmongTheSyntheticLevels() {
        String t = tag();
        String spot = t + "USDT";
        instrument("SPOT", spot, t, "USDT");
        bookTicker("SPOT", spot);
        ApiClient c = server.client(admin.fundedAccount("v2book-" + kind + "-" + t, "USDT", "1000", t, "10"));
        ok(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1.5", "100", "gtc")));
        ok(c.post(PLACE, order("SPOT", spot, "sell", "limit", "0.5", "100.5", "gtc")));

        long before = server.clock.millis();
        JsonNode book = data("/api/v2/spot/market/orderbook?symbol=" + spot);
        assertThat(names(book)).containsExactly("asks", "bids", "ts");
        assertThat(book.get("asks").toString()).isEqualTo("[[\"100.01\",\"2\"],[\"100.5\",\"0.5\"],[\"101.02\",\"2\"],[\"102.02\",\"2\"]]");
        assertThat(book.get("bids").toString()).isEqualTo("[[\"100\",\"1.5\"],[\"99.99\",\"2\"],[\"98.99\",\"2\"],[\"97.99\",\"2\"]]");
        assertThat(Long.parseLong(book.get("ts").asText())).isGreaterThan(before);
        // limit: the best levels; type step0-step5 are accepted and answer the book unmerged (D183); ccxt's limit as sent.
        JsonNode two = data("/api/v2/spot/market/orderbook?symbol=" + spot + "&limit=2&type=step1");
        assertThat(two.get("asks").toString()).isEqualTo("[[\"100.01\",\"2\"],[\"100.5\",\"0.5\"]]");
        assertThat(two.get("bids").toString()).isEqualTo("[[\"100\",\"1.5\"],[\"99.99\",\"2\"]]");
        assertThat(data("/api/v2/spot/market/orderbook?symbol=" + spot + "&limit=500").get("asks")).hasSize(4); // capped at 150
    }

    /**
     * Futures: a resting buy 1 @ 99.95 among the same synthetic levels; asks 100.01, 101.02, 102.02, bids 99.99, 99.95,
     * 98.99, 97.99. scale1 (0.1): asks up 100.1, 101.1, 102.1; bids down 99.9 (2 + 1), 98.9, 97.9. scale2 (1): asks 101,
     * 102, 103; bids 99 (3), 98, 97. scale3 (10): asks 110 (6), bids 90 (7), the coarsest.
     */
    @Test
    void mergeDepthMergesTheBookIntoTheRequestedPrecision() {
        String t = tag();
        String perp = "P" + t + "USDT";
        instrument("USDT-FUTURES", perp, "P" + t, "USDT");
        bookTicker("USDT-FUTURES", perp);
        ApiClient c = server.client(admin.fundedAccount("v2depth-" + kind + "-" + t, "USDT", "1000"));
        ok(c.post(PLACE, order("USDT-FUTURES", perp, "buy", "limit", "1", "99.95", "gtc")));
        String q = "/api/v2/mix/market/merge-depth?productType=USDT-FUTURES&symbol=" + perp;

        JsonNode d0 = data(q);
        assertThat(names(d0)).containsExactly("asks", "bids", "ts", "scale", "precision", "isMaxPrecision");
        assertThat(d0.get("asks").toString()).isEqualTo("[[\"100.01\",\"2\"],[\"101.02\",\"2\"],[\"102.02\",\"2\"]]");
        assertThat(d0.get("bids").toString()).isEqualTo("[[\"99.99\",\"2\"],[\"99.95\",\"1\"],[\"98.99\",\"2\"],[\"97.99\",\"2\"]]");
        assertThat(text(d0, "scale", "precision", "isMaxPrecision")).isEqualTo("0.01 scale0 NO");
        assertThat(d0.get("ts").asText()).matches("\\d{13}");

        JsonNode d1 = data(q + "&precision=scale1");
        assertThat(d1.get("asks").toString()).isEqualTo("[[\"100.1\",\"2\"],[\"101.1\",\"2\"],[\"102.1\",\"2\"]]");
        assertThat(d1.get("bids").toString()).isEqualTo("[[\"99.9\",\"3\"],[\"98.9\",\"2\"],[\"97.9\",\"2\"]]");
        assertThat(text(d1, "scale", "precision", "isMaxPrecision")).isEqualTo("0.1 scale1 NO");
        JsonNode d2 = data(q + "&precision=scale2&limit=2");
        assertThat(d2.get("asks").toString()).isEqualTo("[[\"101\",\"2\"],[\"102\",\"2\"]]");
        assertThat(d2.get("bids").toString()).isEqualTo("[[\"99\",\"3\"],[\"98\",\"2\"]]");
        assertThat(text(d2, "scale", "precision", "isMaxPrecision")).isEqualTo("1 scale2 NO");
        JsonNode d3 = data(q + "&precision=scale3");
        assertThat(d3.get("asks").toString()).isEqualTo("[[\"110\",\"6\"]]");
        assertThat(d3.get("bids").toString()).isEqualTo("[[\"90\",\"7\"]]");
        assertThat(text(d3, "scale", "precision", "isMaxPrecision")).isEqualTo("10 scale3 YES");
        // A scale beyond the coarsest is answered with the coarsest (the docs); limit "max" and a count both work.
        JsonNode d9 = data(q + "&precision=scale9&limit=max");
        assertThat(d9.get("bids").toString()).isEqualTo("[[\"90\",\"7\"]]");
        assertThat(d9.get("precision").asText()).isEqualTo("scale3");
        JsonNode top = data(q + "&limit=1");
        assertThat(top.get("asks").toString()).isEqualTo("[[\"100.01\",\"2\"]]");
        assertThat(top.get("bids").toString()).isEqualTo("[[\"99.99\",\"2\"]]");
        assertThat(data(q + "&limit=MAX").get("bids")).hasSize(4);
        // Asked under another productType, the contract is still found (wire facts §4).
        assertThat(data("/api/v2/mix/market/merge-depth?productType=USDC-FUTURES&symbol=" + perp).get("bids")).isEqualTo(d0.get("bids"));
    }

    // ---- trades and the candles they make

    /**
     * Spot trades through the engine: market sell 0.5 takes 0.5 @ 99.99; an IOC buy 1 @ 100.01 takes 1 @ 100.01; a minute
     * later a market sell 3 takes 2 @ 99.99 and 1 @ 98.99. Minute 1: O 99.99 H 100.01 L 99.99 C 100.01, volume 1.5,
     * turnover 49.995 + 100.01 = 150.005; minute 2: O 99.99 H 99.99 L 98.99 C 98.99, volume 3, turnover 199.98 + 98.99
     * = 298.97. Together: O 99.99 H 100.01 L 98.99 C 98.99, volume 4.5, turnover 448.975.
     */
    @Test
    void spotTradesAreTheFillsAndMakeTheCandles() {
        String t = tag();
        String spot = t + "USDT";
        instrument("SPOT", spot, t, "USDT");
        bookTicker("SPOT", spot);
        ApiClient c = server.client(admin.fundedAccount("v2trades-" + kind + "-" + t, "USDT", "1000", t, "10"));
        ok(c.post(PLACE, order("SPOT", spot, "sell", "market", "0.5", null, null)));
        ok(c.post(PLACE, order("SPOT", spot, "buy", "limit", "1", "100.01", "ioc")));
        long first = server.clock.millis();
        ServerPool.clock(kind, "engine").advance(Duration.ofSeconds(60));
        long second = server.clock.millis();
        ok(c.post(PLACE, order("SPOT", spot, "sell", "market", "3", null, null)));

        // fills-history: newest first (the last order's two fills, the later level last made), side capitalised.
        JsonNode h = data("/api/v2/spot/market/fills-history?symbol=" + spot);
        assertThat(h).hasSize(4);
        assertThat(names(h.get(0))).containsExactly("symbol", "tradeId", "side", "price", "size", "ts");
        List<String> rows = new ArrayList<>();
        for (JsonNode f : h) {
            rows.add(text(f, "symbol", "side", "price", "size", "ts"));
            assertThat(f.get("tradeId").asText()).matches("\\d+");
        }
        assertThat(rows).containsExactly(spot + " Sell 98.99 1 " + second, spot + " Sell 99.99 2 " + second,
                spot + " Buy 100.01 1 " + first, spot + " Sell 99.99 0.5 " + first);
        // Pages: the newest two, then the ones below the last tradeId; a window after the trades has none.
        JsonNode page = data("/api/v2/spot/market/fills-history?symbol=" + spot + "&limit=2");
        assertThat(page).hasSize(2);
        assertThat(page.get(1).get("tradeId").asText()).isEqualTo(h.get(1).get("tradeId").asText());
        JsonNode rest = data("/api/v2/spot/market/fills-history?symbol=" + spot + "&idLessThan=" + page.get(1).get("tradeId").asText());
        assertThat(rest).hasSize(2);
        assertThat(rest.get(0).get("tradeId").asText()).isEqualTo(h.get(2).get("tradeId").asText());
        assertThat(data("/api/v2/spot/market/fills-history?symbol=" + spot + "&startTime=" + (first + 1) + "&endTime=" + second)).hasSize(2);
        assertThat(data("/api/v2/spot/market/fills-history?symbol=" + spot + "&startTime=" + (second + 1))).isEmpty();
        // Recent fills: the same trades, side lower case as the page's example.
        JsonNode recent = data("/api/v2/spot/market/fills?symbol=" + spot + "&limit=3");
        assertThat(recent).hasSize(3);
        assertThat(names(recent.get(0))).containsExactly("symbol", "tradeId", "side", "price", "size", "ts");
        assertThat(text(recent.get(2), "side", "price", "size", "tradeId")).isEqualTo("buy 100.01 1 " + h.get(2).get("tradeId").asText());

        // Candles from the minute of the first trades on (the ticker's 2023 minute is before it).
        long m1 = first / MIN * MIN;
        long m2 = second / MIN * MIN;
        String q = "/api/v2/spot/market/candles?symbol=" + spot + "&startTime=" + m1;
        assertThat(candles(q + "&granularity=1min", 8)).containsExactly(
                m1 + " 99.99 100.01 99.99 100.01 1.5 150.005 150.005",
                m2 + " 99.99 99.99 98.99 98.99 3 298.97 298.97");
        assertThat(candles(q + "&granularity=1min&limit=1000", 8)).hasSize(2); // what ccxt sends
        // One 1Wutc candle holds all four unless a week boundary falls between the two minutes.
        long w1 = Math.floorDiv(m1 - 4 * D, 7 * D) * 7 * D + 4 * D;
        if (w1 == Math.floorDiv(m2 - 4 * D, 7 * D) * 7 * D + 4 * D) {
            assertThat(candles("/api/v2/spot/market/candles?symbol=" + spot + "&startTime=" + w1 + "&granularity=1Wutc", 8))
                    .containsExactly(w1 + " 99.99 100.01 98.99 98.99 4.5 448.975 448.975");
        }
        assertThat(candles("/api/v2/spot/market/history-candles?symbol=" + spot + "&granularity=1min&startTime=" + m1
                + "&endTime=" + (m2 - 1), 8)).containsExactly(m1 + " 99.99 100.01 99.99 100.01 1.5 150.005 150.005");
    }

    /** Futures: market buy 1 takes 1 @ 100.01, market sell 1 closes it at 99.99: O 100.01 H 100.01 L 99.99 C 99.99, volume 2, turnover 200. */
    @Test
    void futuresTradesAreTheFillsAndMakeTheCandles() {
        String t = tag();
        String perp = "P" + t + "USDT";
        instrument("USDT-FUTURES", perp, "P" + t, "USDT");
        bookTicker("USDT-FUTURES", perp);
        ApiClient c = server.client(admin.fundedAccount("v2perp-" + kind + "-" + t, "USDT", "1000"));
        ok(c.post(PLACE, order("USDT-FUTURES", perp, "buy", "market", "1", null, null)));
        ok(c.post(PLACE, order("USDT-FUTURES", perp, "sell", "market", "1", null, null)));
        long ts = server.clock.millis();

        JsonNode h = data("/api/v2/mix/market/fills-history?productType=USDT-FUTURES&symbol=" + perp);
        assertThat(h).hasSize(2);
        assertThat(names(h.get(0))).containsExactly("tradeId", "price", "size", "side", "ts", "symbol");
        assertThat(text(h.get(0), "price", "size", "side", "ts", "symbol")).isEqualTo("99.99 1 Sell " + ts + " " + perp);
        assertThat(text(h.get(1), "price", "size", "side", "ts", "symbol")).isEqualTo("100.01 1 Buy " + ts + " " + perp);
        assertThat(data("/api/v2/mix/market/fills-history?productType=USDT-FUTURES&symbol=" + perp + "&limit=1")).hasSize(1);
        assertThat(data("/api/v2/mix/market/fills-history?productType=COIN-FUTURES&symbol=" + perp)).isEqualTo(h);

        long m = ts / MIN * MIN;
        String q = "/api/v2/mix/market/candles?productType=USDT-FUTURES&symbol=" + perp + "&startTime=" + m;
        String minute = m + " 100.01 100.01 99.99 99.99 2 200";
        assertThat(candles(q + "&granularity=1m", 7)).containsExactly(minute);
        // kLineType MARK/INDEX (ccxt sends them lower case) answer the trade candles (D163), and history-candles too.
        assertThat(candles(q + "&granularity=1m&kLineType=mark", 7)).containsExactly(minute);
        assertThat(candles(q + "&granularity=1m&kLineType=INDEX", 7)).containsExactly(minute);
        assertThat(candles(q.replace("/candles", "/history-candles") + "&granularity=1m&limit=200", 7)).containsExactly(minute);
        // Before the trades, only the ticker's move on its own minute, without volume (D162).
        assertThat(candles("/api/v2/mix/market/candles?productType=USDT-FUTURES&symbol=" + perp + "&granularity=1m&endTime=" + (m - 1), 7))
                .containsExactly((TICKER_TS / MIN * MIN) + " 99.99 99.99 99.99 99.99 0 0");
    }

    /**
     * Candle buckets, from trades recorded on the tape at fixed times (as the engine records a fill):
     * a 2024-01-01T15:59:30Z buy 1 @ 10; b 2024-01-01T16:00:30Z (00:00:30 on Jan 2 in UTC+8) sell 2 @ 12;
     * c 2024-01-31T17:00Z (Feb 1 01:00 in UTC+8) buy 1 @ 11; d 2024-02-05T03:00Z (a Monday) sell 0.5 @ 9.
     * Turnovers 10, 24, 11, 4.5. 2024-01-01 is a Monday and day 19723 since the epoch (19723 = 3 × 6574 + 1).
     */
    @Test
    void granularitiesCutUtcAndUtcPlus8Buckets() {
        String t = tag();
        String spot = t + "USDT";
        String perp = "P" + t + "USDT";
        ticker("SPOT", spot);
        ticker("USDT-FUTURES", perp);
        long a = T0 + 15 * H + 59 * MIN + 30_000, b = T0 + 16 * H + 30_000, c = T0 + 30 * D + 17 * H, d = T0 + 35 * D + 3 * H;
        for (Category cat : List.of(Category.SPOT, Category.USDT_FUTURES)) {
            String s = cat == Category.SPOT ? spot : perp;
            trade(cat, s, "10", "1", "buy", a);
            trade(cat, s, "12", "2", "sell", b);
            trade(cat, s, "11", "1", "buy", c);
            trade(cat, s, "9", "0.5", "sell", d);
        }
        String ab = "10 12 10 12 3 34", A = "10 10 10 10 1 10", B = "12 12 12 12 2 24", C = "11 11 11 11 1 11", Dd = "9 9 9 9 0.5 4.5";
        String sq = "/api/v2/spot/market/candles?symbol=" + spot + "&granularity=";
        // UTC days; UTC+8 days start at 16:00 UTC the day before: a is Jan 1, b Jan 2, c Feb 1, d Feb 5 there.
        assertSpot(sq + "1Dutc", T0 + " " + ab, (T0 + 30 * D) + " " + C, (T0 + 35 * D) + " " + Dd);
        assertSpot(sq + "1day", (T0 - 8 * H) + " " + A, (T0 + 16 * H) + " " + B, (T0 + 30 * D + 16 * H) + " " + C, (T0 + 35 * D - 8 * H) + " " + Dd);
        // Months: UTC January holds a, b, c (C 11, volume 4, turnover 45), February d; UTC+8 January a and b, February
        // (from 2024-01-31T16:00Z) c and d: O 11 H 11 L 9 C 9, volume 1.5, turnover 15.5.
        assertSpot(sq + "1Mutc", T0 + " 10 12 10 11 4 45", (T0 + 31 * D) + " " + Dd);
        assertSpot(sq + "1M", (T0 - 8 * H) + " " + ab, (T0 + 30 * D + 16 * H) + " 11 11 9 9 1.5 15.5");
        // Weeks from Monday: UTC Jan 1, Jan 29 (c, a Wednesday), Feb 5; UTC+8 the same Mondays 8 hours earlier.
        assertSpot(sq + "1Wutc", T0 + " " + ab, (T0 + 28 * D) + " " + C, (T0 + 35 * D) + " " + Dd);
        assertSpot(sq + "1week", (T0 - 8 * H) + " " + ab, (T0 + 28 * D - 8 * H) + " " + C, (T0 + 35 * D - 8 * H) + " " + Dd);
        // 3 days from the epoch: a and b in days 19722-19724 (from T0 - 1 day); c (day 19753) from 19752, d (19758) its own;
        // in UTC+8 a is day 19723 and b 19724 there, c 19754 (from 19752), d 19758: the same starts 8 hours earlier.
        assertSpot(sq + "3Dutc", (T0 - D) + " " + ab, (T0 + 29 * D) + " " + C, (T0 + 35 * D) + " " + Dd);
        assertSpot(sq + "3day", (T0 - D - 8 * H) + " " + ab, (T0 + 29 * D - 8 * H) + " " + C, (T0 + 35 * D - 8 * H) + " " + Dd);
        // 6 and 12 hours: UTC from midnight; UTC+8 from 16:00 UTC (6h: 16, 22, 04, 10; 12h: 16, 04).
        assertSpot(sq + "6Hutc", (T0 + 12 * H) + " " + ab, (T0 + 30 * D + 12 * H) + " " + C, (T0 + 35 * D) + " " + Dd);
        assertSpot(sq + "6h", (T0 + 10 * H) + " " + A, (T0 + 16 * H) + " " + B, (T0 + 30 * D + 16 * H) + " " + C, (T0 + 35 * D - 2 * H) + " " + Dd);
        assertSpot(sq + "12Hutc", (T0 + 12 * H) + " " + ab, (T0 + 30 * D + 12 * H) + " " + C, (T0 + 35 * D) + " " + Dd);
        assertSpot(sq + "12h", (T0 + 4 * H) + " " + A, (T0 + 16 * H) + " " + B, (T0 + 30 * D + 16 * H) + " " + C, (T0 + 35 * D - 8 * H) + " " + Dd);
        assertSpot(sq + "4h", (T0 + 12 * H) + " " + A, (T0 + 16 * H) + " " + B, (T0 + 30 * D + 16 * H) + " " + C, d / (4 * H) * 4 * H + " " + Dd);
        assertSpot(sq + "1min", (a / MIN * MIN) + " " + A, (b / MIN * MIN) + " " + B, c + " " + C, d + " " + Dd);
        // limit and times with months: the newest month; a start after a month's start leaves that month out; an end
        // before c leaves c and d out.
        assertSpot(sq + "1M&limit=1", (T0 + 30 * D + 16 * H) + " 11 11 9 9 1.5 15.5");
        assertSpot(sq + "1M&startTime=" + T0, (T0 + 30 * D + 16 * H) + " 11 11 9 9 1.5 15.5");
        assertSpot(sq + "1M&startTime=" + (T0 - 8 * H) + "&endTime=" + (T0 + 20 * D), (T0 - 8 * H) + " " + ab);
        assertSpot(sq + "1day&limit=2&endTime=" + c, (T0 + 16 * H) + " " + B, (T0 + 30 * D + 16 * H) + " " + C);
        assertSpot("/api/v2/spot/market/history-candles?symbol=" + spot + "&granularity=1Mutc&endTime=" + (T0 + 31 * D - 1), T0 + " 10 12 10 11 4 45");

        // Futures spellings over the same trades: 1D is the UTC+8 day, 2H (ccxt's), 1M the UTC+8 month, 3D, 1Wutc.
        String mq = "/api/v2/mix/market/candles?productType=USDT-FUTURES&symbol=" + perp + "&granularity=";
        assertThat(candles(mq + "1D", 7)).containsExactly((T0 - 8 * H) + " " + A, (T0 + 16 * H) + " " + B, (T0 + 30 * D + 16 * H) + " " + C,
                (T0 + 35 * D - 8 * H) + " " + Dd);
        assertThat(candles(mq + "2H", 7)).containsExactly((T0 + 14 * H) + " " + A, (T0 + 16 * H) + " " + B, (T0 + 30 * D + 16 * H) + " " + C,
                (T0 + 35 * D + 2 * H) + " " + Dd);
        assertThat(candles(mq + "1M", 7)).containsExactly((T0 - 8 * H) + " " + ab, (T0 + 30 * D + 16 * H) + " 11 11 9 9 1.5 15.5");
        assertThat(candles(mq + "3D", 7)).containsExactly((T0 - D - 8 * H) + " " + ab, (T0 + 29 * D - 8 * H) + " " + C, (T0 + 35 * D - 8 * H) + " " + Dd);
        assertThat(candles(mq + "1Wutc", 7)).containsExactly(T0 + " " + ab, (T0 + 28 * D) + " " + C, (T0 + 35 * D) + " " + Dd);
        assertThat(candles(mq + "1Mutc&limit=5000", 7)).containsExactly(T0 + " 10 12 10 11 4 45", (T0 + 31 * D) + " " + Dd);
        assertThat(candles("/api/v2/mix/market/history-candles?productType=USDT-FUTURES&symbol=" + perp + "&granularity=1H&endTime=" + (T0 + D), 7))
                .containsExactly((T0 + 15 * H) + " " + A, (T0 + 16 * H) + " " + B);
    }

    /** A spot candles answer: 8 strings a row, usdtVol = quoteVol for a USDT pair (each expected row is ts o h l c vol turnover). */
    private void assertSpot(String pathAndQuery, String... rows) {
        List<String> expected = new ArrayList<>();
        for (String r : rows) expected.add(r + " " + r.substring(r.lastIndexOf(' ') + 1));
        assertThat(candles(pathAndQuery, 8)).as(pathAndQuery).containsExactlyElementsOf(expected);
    }

    /** One trade recorded as the engine records a fill: in a transaction, through the app's tape. */
    private void trade(Category category, String symbol, String price, String size, String side, long ts) {
        TradeTape tape = server.app.services().tape();
        server.app.database().tx(tx -> {
            tape.record(tx, category, symbol, new BigDecimal(price), new BigDecimal(size), side, ts);
            return null;
        });
    }

    // ---- bad input

    @Test
    void badParametersAreRefusedWithTheV2Codes() {
        String t = tag();
        String spot = t + "USDT";
        String perp = "P" + t + "USDT";
        instrument("SPOT", spot, t, "USDT");
        bookTicker("SPOT", spot);
        instrument("USDT-FUTURES", perp, "P" + t, "USDT");
        bookTicker("USDT-FUTURES", perp);
        String s = "/api/v2/spot/market/";
        String m = "/api/v2/mix/market/";
        String mp = "productType=USDT-FUTURES&symbol=" + perp;

        // Missing parameters: 40019 naming them all.
        assertError(get(s + "candles"), "40019", "Parameter symbol,granularity cannot be empty");
        assertError(get(s + "history-candles?symbol=" + spot + "&granularity=1min"), "40019", "Parameter endTime cannot be empty");
        assertError(get(s + "orderbook"), "40019", "Parameter symbol cannot be empty");
        assertError(get(s + "fills"), "40019", "Parameter symbol cannot be empty");
        assertError(get(s + "fills-history"), "40019", "Parameter symbol cannot be empty");
        assertError(get(m + "ticker?symbol=" + perp), "40019", "Parameter productType cannot be empty");
        assertError(get(m + "tickers"), "40019", "Parameter productType cannot be empty");
        assertError(get(m + "merge-depth?productType=USDT-FUTURES"), "40019", "Parameter symbol cannot be empty");
        assertError(get(m + "candles?" + mp), "40019", "Parameter granularity cannot be empty");
        assertError(get(m + "fills-history?symbol=" + perp), "40019", "Parameter productType cannot be empty");
        assertError(get(m + "current-fund-rate"), "40019", "Parameter productType cannot be empty");
        // An unknown productType: the platform's answer on the tickers row (wire facts §7), on every row.
        assertError(get(m + "tickers?productType=NOPE-FUTURES"), "40019", "Parameter NOPE-FUTURES cannot be empty");
        assertError(get(m + "ticker?productType=SPOT&symbol=" + perp), "40019", "Parameter SPOT cannot be empty");
        assertError(get(m + "candles?productType=MARGIN&symbol=" + perp + "&granularity=1m"), "40019", "Parameter MARGIN cannot be empty");

        // Granularities are spelled per family, exactly.
        for (String g : List.of("1m", "1H", "1D", "1W", "2H", "1hour", "1MIN", "1mutc", "")) {
            Reply r = get(s + "candles?symbol=" + spot + "&granularity=" + g);
            if (g.isEmpty()) assertError(r, "40019", "Parameter granularity cannot be empty");
            else assertError(r, "40020", "Parameter granularity error");
        }
        for (String g : List.of("1min", "1h", "1day", "1week", "1d", "5M")) {
            assertError(get(m + "candles?" + mp + "&granularity=" + g), "40020", "Parameter granularity error");
        }
        // Bad values: 40020 naming the parameter.
        assertError(get(s + "candles?symbol=" + spot + "&granularity=1min&limit=0"), "40020", "Parameter limit error");
        assertError(get(s + "candles?symbol=" + spot + "&granularity=1min&limit=-5"), "40020", "Parameter limit error");
        assertError(get(s + "candles?symbol=" + spot + "&granularity=1min&limit=ten"), "40020", "Parameter limit error");
        assertError(get(s + "candles?symbol=" + spot + "&granularity=1min&startTime=yesterday"), "40020", "Parameter startTime error");
        assertError(get(s + "history-candles?symbol=" + spot + "&granularity=1min&endTime=1.5"), "40020", "Parameter endTime error");
        assertError(get(m + "candles?" + mp + "&granularity=1m&kLineType=premium"), "40020", "Parameter kLineType error");
        assertError(get(m + "candles?" + mp + "&granularity=1m&limit=0"), "40020", "Parameter limit error");
        assertError(get(s + "orderbook?symbol=" + spot + "&type=step6"), "40020", "Parameter type error");
        assertError(get(s + "orderbook?symbol=" + spot + "&limit=0"), "40020", "Parameter limit error");
        assertError(get(m + "merge-depth?" + mp + "&precision=scale"), "40020", "Parameter precision error");
        assertError(get(m + "merge-depth?" + mp + "&limit=mx"), "40020", "Parameter limit error");
        assertError(get(s + "fills?symbol=" + spot + "&limit=0"), "40020", "Parameter limit error");
        assertError(get(s + "fills-history?symbol=" + spot + "&idLessThan=abc"), "40020", "Parameter idLessThan error");
        assertError(get(m + "fills-history?" + mp + "&limit=x"), "40020", "Parameter limit error");
        // Windows: start after end, or more than 7 days, is 40017 (D184).
        long now = server.clock.millis();
        assertError(get(s + "fills-history?symbol=" + spot + "&startTime=" + now + "&endTime=" + (now - 1)), "40017",
                "Parameter verification failed startTime is after endTime");
        assertError(get(m + "fills-history?" + mp + "&startTime=" + (now - 8 * D) + "&endTime=" + now), "40017",
                "Parameter verification failed time range between startTime and endTime exceeds 7 days");

        // Unknown symbols: 40034, on every row with a symbol (wire facts §7).
        for (String row : List.of("tickers?symbol=NOSUCHUSDT", "orderbook?symbol=NOSUCHUSDT", "candles?symbol=NOSUCHUSDT&granularity=1min",
                "history-candles?symbol=NOSUCHUSDT&granularity=1min&endTime=1", "fills?symbol=NOSUCHUSDT", "fills-history?symbol=NOSUCHUSDT")) {
            assertError(get(s + row), "40034", "Parameter NOSUCHUSDT does not exist");
        }
        for (String row : List.of("ticker", "merge-depth", "candles", "history-candles", "fills-history", "current-fund-rate")) {
            assertError(get(m + row + "?productType=USDT-FUTURES&symbol=NOSUCHUSDT&granularity=1m"), "40034", "Parameter NOSUCHUSDT does not exist");
        }
        // A spot pair is no contract, and a contract no spot pair.
        assertError(get(m + "ticker?productType=USDT-FUTURES&symbol=" + spot), "40034", "Parameter " + spot + " does not exist");
        assertError(get(s + "orderbook?symbol=" + perp), "40034", "Parameter " + perp + " does not exist");

        // Fine: more than the most is answered with the most; an empty tape is an empty list.
        assertThat(data(s + "fills?symbol=" + spot + "&limit=100000")).isEmpty();
        assertThat(data(s + "fills-history?symbol=" + spot + "&limit=5000")).isEmpty();
        assertThat(data(s + "candles?symbol=" + spot + "&granularity=1min&limit=5000&startTime=" + (T0 + D))).isEmpty();
        assertThat(data(m + "history-candles?" + mp + "&granularity=1m&limit=999&startTime=" + T0)).isEmpty();
    }
}
