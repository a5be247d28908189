package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.account.AccountEnums.Category;
import io.tas.marketdata.TradeTape;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.names;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25: the v3 market-data rows (candles, history candles, recent fills, current funding rate) over the engine's
 * trade tape, on H2 and PostgreSQL. Trades go through the app's TradeTape in a transaction of the test's own, as the
 * engine records a fill; every test has its own symbol on the shared server. Trade times are fixed (from T0, a UTC
 * midnight), so buckets do not depend on the shared clock. Figures are hand-computed in the comments.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class MarketDataApiTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    /** 2024-01-01T00:00:00Z: before any test machine's now. */
    private static final long T0 = 1_704_067_200_000L;
    private static final long MIN = 60_000;

    /** A symbol nobody else uses, with a spot ticker without a price: known, and no candle from it. */
    private String newSpotSymbol() {
        String symbol = "MDT" + NAMES.incrementAndGet() + "USDT";
        ticker("SPOT", symbol, null, T0, null);
        return symbol;
    }

    private void ticker(String category, String symbol, String lastPrice, long ts, String fundingRate) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\","
                + (lastPrice == null ? "" : "\"lastPrice\":\"" + lastPrice + "\",")
                + (fundingRate == null ? "" : "\"fundingRate\":\"" + fundingRate + "\",") + "\"ts\":" + ts + "}"));
    }

    /** One trade recorded as the engine records a fill: in a transaction, through the app's tape. */
    private void trade(Category category, String symbol, String price, String size, String side, long ts) {
        TradeTape tape = server.app.services().tape();
        server.app.database().tx(tx -> {
            tape.record(tx, category, symbol, new BigDecimal(price), new BigDecimal(size), side, ts);
            return null;
        });
    }

    private Reply get(String pathAndQuery) {
        return ApiClient.raw(server.baseUrl() + pathAndQuery, "GET", "");
    }

    /** The rows of a candles answer, each joined with spaces. */
    private List<String> candles(String row, String query) {
        Reply r = get("/api/v3/market/" + row + "?" + query);
        ok(r);
        List<String> out = new ArrayList<>();
        for (JsonNode c : r.data()) {
            assertThat(c.size()).isEqualTo(7);
            List<String> fields = new ArrayList<>();
            for (JsonNode f : c) {
                assertThat(f.isTextual()).as(r.raw()).isTrue();
                fields.add(f.asText());
            }
            out.add(String.join(" ", fields));
        }
        return out;
    }

    /**
     * Trades of one spot symbol (turnover = price x size):
     * T0+10s buy 0.5 @ 100 (50), T0+20s sell 0.25 @ 102 (25.5), T0+50s buy 1 @ 99 (99): minute T0 is
     * O 100 H 102 L 99 C 99, volume 1.75, turnover 174.5;
     * T0+65s buy 2 @ 101 (202): minute T0+1m; T0+4m30s sell 0.1 @ 105.5 (10.55): minute T0+4m;
     * T0+5m buy 3 @ 104 (312): minute T0+5m; T0+61m sell 1 @ 110 (110): minute T0+61m.
     */
    @Test
    void candlesFoldTheTradesIntoEveryInterval() {
        String s = newSpotSymbol();
        trade(Category.SPOT, s, "100", "0.5", "buy", T0 + 10_000);
        trade(Category.SPOT, s, "102", "0.25", "sell", T0 + 20_000);
        trade(Category.SPOT, s, "99", "1", "buy", T0 + 50_000);
        trade(Category.SPOT, s, "101", "2", "buy", T0 + 65_000);
        trade(Category.SPOT, s, "105.5", "0.1", "sell", T0 + 270_000);
        trade(Category.SPOT, s, "104", "3", "buy", T0 + 300_000);
        trade(Category.SPOT, s, "110", "1", "sell", T0 + 3_660_000);
        String q = "category=SPOT&symbol=" + s + "&endTime=" + (T0 + 7_200_000);

        // 1m: one row per minute with trades, oldest first.
        List<String> minutes = List.of(
                (T0) + " 100 102 99 99 1.75 174.5",
                (T0 + MIN) + " 101 101 101 101 2 202",
                (T0 + 4 * MIN) + " 105.5 105.5 105.5 105.5 0.1 10.55",
                (T0 + 5 * MIN) + " 104 104 104 104 3 312",
                (T0 + 61 * MIN) + " 110 110 110 110 1 110");
        assertThat(candles("candles", q + "&interval=1m")).containsExactlyElementsOf(minutes);

        // 5m: [T0, T0+5m) folds minutes 0, 1 and 4: O 100 (first), H max(102, 101, 105.5) = 105.5, L 99, C 105.5
        // (last), volume 1.75 + 2 + 0.1 = 3.85, turnover 174.5 + 202 + 10.55 = 387.05.
        assertThat(candles("candles", q + "&interval=5m")).containsExactly(
                T0 + " 100 105.5 99 105.5 3.85 387.05",
                (T0 + 5 * MIN) + " 104 104 104 104 3 312",
                (T0 + 60 * MIN) + " 110 110 110 110 1 110");

        // 1H: the first hour folds all but the last trade: C 104, volume 3.85 + 3 = 6.85, turnover 387.05 + 312 = 699.05.
        assertThat(candles("candles", q + "&interval=1H")).containsExactly(
                T0 + " 100 105.5 99 104 6.85 699.05",
                (T0 + 60 * MIN) + " 110 110 110 110 1 110");
        // 1D (UTC day) and 2H (ccxt's extra interval): one bucket of everything, C 110, volume 7.85, turnover 809.05.
        assertThat(candles("candles", q + "&interval=1D")).containsExactly(T0 + " 100 110 99 110 7.85 809.05");
        assertThat(candles("candles", q + "&interval=2H")).containsExactly(T0 + " 100 110 99 110 7.85 809.05");

        // limit: the newest buckets, still oldest first.
        assertThat(candles("candles", q + "&interval=1m&limit=2")).containsExactlyElementsOf(minutes.subList(3, 5));
        assertThat(candles("candles", q + "&interval=5m&limit=1")).containsExactly((T0 + 60 * MIN) + " 110 110 110 110 1 110");
        // startTime: buckets starting at or after it; endTime: buckets and minutes up to it.
        assertThat(candles("candles", q + "&interval=1m&startTime=" + (T0 + MIN))).containsExactlyElementsOf(minutes.subList(1, 5));
        String upTo4m30 = "category=SPOT&symbol=" + s + "&endTime=" + (T0 + 270_000);
        assertThat(candles("candles", upTo4m30 + "&interval=1m")).containsExactlyElementsOf(minutes.subList(0, 3));
        assertThat(candles("candles", upTo4m30 + "&interval=5m")).containsExactly(T0 + " 100 105.5 99 105.5 3.85 387.05");
        // Nothing before the first trade.
        assertThat(candles("candles", "category=SPOT&symbol=" + s + "&interval=1m&endTime=" + (T0 - 1))).isEmpty();

        // The same candles for history-candles, for type MARK/INDEX (D163), for MARGIN (the spot book, D160), and
        // without endTime (now, after T0); more than 100 is answered with at most 100.
        List<String> fiveMinutes = candles("candles", q + "&interval=5m");
        assertThat(candles("history-candles", q + "&interval=5m")).isEqualTo(fiveMinutes);
        assertThat(candles("candles", q + "&interval=5m&type=MARK")).isEqualTo(fiveMinutes);
        assertThat(candles("candles", q + "&interval=5m&type=index")).isEqualTo(fiveMinutes);
        assertThat(candles("candles", q.replace("SPOT", "MARGIN") + "&interval=5m")).isEqualTo(fiveMinutes);
        assertThat(candles("candles", "category=SPOT&symbol=" + s + "&interval=5m&limit=500")).isEqualTo(fiveMinutes);
        // Another category's book is another book: the futures symbol of the same name has no candles.
        ticker("USDT-FUTURES", s, null, T0, "0");
        assertThat(candles("candles", q.replace("SPOT", "USDT-FUTURES") + "&interval=5m")).isEmpty();
    }

    /**
     * Ticker moves without trades: ticker 50 at T0+5s opens minute T0 (O H L C 50, no volume); a trade buy 1 @ 51 at
     * T0+10s makes H 51, C 51, volume 1, turnover 51; ticker 48 at T0+20s makes L 48, C 48; a ticker without a price
     * at T0+30s moves nothing; ticker 49 at T0+70s opens minute T0+1m at 49 with volume 0.
     */
    @Test
    void tickerMovesFollowOnTheCurrentMinute() {
        String s = newSpotSymbol();
        ticker("SPOT", s, "50", T0 + 5_000, null);
        trade(Category.SPOT, s, "51", "1", "buy", T0 + 10_000);
        ticker("SPOT", s, "48", T0 + 20_000, null);
        ticker("SPOT", s, null, T0 + 30_000, null);
        ticker("SPOT", s, "49", T0 + 70_000, null);
        String q = "category=SPOT&symbol=" + s + "&endTime=" + (T0 + 3_600_000);
        assertThat(candles("candles", q + "&interval=1m")).containsExactly(
                T0 + " 50 51 48 48 1 51",
                (T0 + MIN) + " 49 49 49 49 0 0");
        // 3m folds both: C 49, volume 1.
        assertThat(candles("candles", q + "&interval=3m")).containsExactly(T0 + " 50 51 48 49 1 51");
        // Ticker moves are not trades: the one trade is the only recent fill.
        Reply fills = get("/api/v3/market/fills?category=SPOT&symbol=" + s);
        ok(fills);
        assertThat(fills.data()).hasSize(1);
        assertThat(fills.data().get(0).get("price").asText()).isEqualTo("51");
    }

    /**
     * The candle upsert under concurrency (one statement, ON CONFLICT / MERGE): 4 threads each record trades of size 1
     * at 100, 101, ..., 109 into one new minute, each trade in its own transaction, while ticker moves to 99.5 land on
     * the same minute. Nothing fails or is lost: volume 4 x 10 = 40, turnover 4 x (100 + ... + 109) = 4 x 1045 = 4180,
     * high 109, low 99.5 (the tickers'; open and close depend on who came first).
     */
    @Test
    void concurrentTradesAndTickerMovesLoseNothing() throws Exception {
        String s = newSpotSymbol();
        var start = new java.util.concurrent.CountDownLatch(1);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(5);
        try {
            List<java.util.concurrent.Future<?>> work = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                work.add(pool.submit(() -> {
                    start.await();
                    for (int j = 0; j < 10; j++) trade(Category.SPOT, s, Integer.toString(100 + j), "1", j % 2 == 0 ? "buy" : "sell", T0 + 1_000 + j);
                    return null;
                }));
            }
            work.add(pool.submit(() -> {
                start.await();
                for (int j = 0; j < 10; j++) ticker("SPOT", s, "99.5", T0 + 30_000, null);
                return null;
            }));
            start.countDown();
            for (var w : work) w.get(60, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        List<String> rows = candles("candles", "category=SPOT&symbol=" + s + "&interval=1m&endTime=" + (T0 + MIN));
        assertThat(rows).hasSize(1);
        String[] f = rows.getFirst().split(" ");
        assertThat(List.of(f[0], f[2], f[3], f[5], f[6])).containsExactly(Long.toString(T0), "109", "99.5", "40", "4180");
        assertThat(get("/api/v3/market/fills?category=SPOT&symbol=" + s).data()).hasSize(40);
    }

    /** Trades buy 1 @ 10 (T0+1s), sell 2 @ 11 (T0+2s), buy 0.5 @ 12.5 (T0+3s): newest first, taker's side lower case. */
    @Test
    void recentFillsNewestFirst() {
        String s = newSpotSymbol();
        trade(Category.SPOT, s, "10", "1", "buy", T0 + 1_000);
        trade(Category.SPOT, s, "11.00", "2", "sell", T0 + 2_000);
        trade(Category.MARGIN, s, "12.5", "0.5", "buy", T0 + 3_000); // a margin order trades on the spot book (D160)
        Reply r = get("/api/v3/market/fills?category=SPOT&symbol=" + s);
        ok(r);
        JsonNode rows = r.data();
        assertThat(rows).hasSize(3);
        assertThat(names(rows.get(0))).containsExactly("execId", "execLinkId", "price", "size", "side", "ts");
        List<String> seen = new ArrayList<>();
        for (JsonNode f : rows) {
            seen.add(f.get("price").asText() + " " + f.get("size").asText() + " " + f.get("side").asText() + " " + f.get("ts").asText());
            assertThat(f.get("execId").asText()).matches("\\d+").isEqualTo(f.get("execLinkId").asText());
        }
        assertThat(seen).containsExactly("12.5 0.5 buy " + (T0 + 3_000), "11 2 sell " + (T0 + 2_000), "10 1 buy " + (T0 + 1_000));
        assertThat(rows.get(0).get("execId").asText()).isNotEqualTo(rows.get(1).get("execId").asText());

        Reply two = get("/api/v3/market/fills?category=MARGIN&symbol=" + s + "&limit=2");
        ok(two);
        assertThat(two.data()).hasSize(2);
        assertThat(two.data().get(0).get("execId").asText()).isEqualTo(rows.get(0).get("execId").asText());
        assertThat(two.data().get(1).get("price").asText()).isEqualTo("11");
        // The tape's trades also made the minute's candle: O 10 H 12.5 L 10 C 12.5, volume 3.5, turnover 10 + 22 + 6.25.
        assertThat(candles("candles", "category=SPOT&symbol=" + s + "&interval=1m&endTime=" + (T0 + MIN)))
                .containsExactly(T0 + " 10 12.5 10 12.5 3.5 38.25");
    }

    /** The futures ticker's funding rate; the next update is the next 00:00, 08:00 or 16:00 UTC after now. */
    @Test
    void currentFundingRateFromTheFuturesTicker() {
        String s = "MDF" + NAMES.incrementAndGet() + "USDT";
        ticker("USDT-FUTURES", s, "100", T0, "0.000125");
        long now = server.clock.millis();
        long eight = 8 * 3_600_000L;
        Reply r = get("/api/v3/market/current-fund-rate?symbol=" + s);
        ok(r);
        assertThat(r.data()).hasSize(1);
        JsonNode row = r.data().get(0);
        assertThat(names(row)).containsExactly("symbol", "fundingRate", "fundingRateInterval", "nextUpdate", "minFundingRate", "maxFundingRate");
        assertThat(List.of(row.get("symbol").asText(), row.get("fundingRate").asText(), row.get("fundingRateInterval").asText(),
                row.get("minFundingRate").asText(), row.get("maxFundingRate").asText()))
                .containsExactly(s, "0.000125", "8", "-0.003", "0.003");
        long next = Long.parseLong(row.get("nextUpdate").asText());
        assertThat(next).isEqualTo((now / eight + 1) * eight).isGreaterThan(now);
        assertThat(next % eight).isZero();

        ok(get("/api/v3/market/current-fund-rate?symbol=" + s + "&category=USDT-FUTURES"));
        assertError(get("/api/v3/market/current-fund-rate?symbol=" + s + "&category=USDC-FUTURES"), "25100");
        assertError(get("/api/v3/market/current-fund-rate?symbol=" + s + "&category=SPOT"), "40020", "Parameter category error");
        assertError(get("/api/v3/market/current-fund-rate"), "40019", "Parameter symbol cannot be empty");
        // A spot pair has no funding.
        String spot = newSpotSymbol();
        assertError(get("/api/v3/market/current-fund-rate?symbol=" + spot), "25100", "Trading pair " + spot + " does not exist");
    }

    @Test
    void badParametersAreRefusedWithTheEnvelope() {
        String s = newSpotSymbol();
        String c = "/api/v3/market/candles?";
        assertError(get(c), "40019", "Parameter category,symbol,interval cannot be empty");
        assertError(get(c + "category=SPOT&symbol=" + s), "40019", "Parameter interval cannot be empty");
        assertError(get(c + "category=SPOT&symbol=" + s + "&interval=1h"), "40020", "Parameter interval error");
        assertError(get(c + "category=SPOT&symbol=" + s + "&interval=1W"), "40020", "Parameter interval error");
        assertError(get(c + "category=spot&symbol=" + s + "&interval=1m"), "40020", "Parameter category error");
        assertError(get(c + "category=SPOT&symbol=" + s + "&interval=1m&type=premium"), "40020", "Parameter type error");
        assertError(get(c + "category=SPOT&symbol=" + s + "&interval=1m&limit=0"), "40020", "Parameter limit error");
        assertError(get(c + "category=SPOT&symbol=" + s + "&interval=1m&limit=ten"), "40020", "Parameter limit error");
        assertError(get(c + "category=SPOT&symbol=" + s + "&interval=1m&startTime=-1"), "40020", "Parameter startTime error");
        assertError(get(c + "category=SPOT&symbol=" + s + "&interval=1m&endTime=1.5"), "40020", "Parameter endTime error");
        assertError(get(c + "category=SPOT&symbol=NOSUCHUSDT&interval=1m"), "25100", "Trading pair NOSUCHUSDT does not exist");
        assertError(get("/api/v3/market/history-candles?category=SPOT&symbol=NOSUCHUSDT&interval=1m"), "25100");
        // Only the spot ticker exists: the futures book of that name is unknown.
        assertError(get(c + "category=USDT-FUTURES&symbol=" + s + "&interval=1m"), "25100");

        String f = "/api/v3/market/fills?";
        assertError(get(f), "40019", "Parameter category,symbol cannot be empty");
        assertError(get(f + "category=SPOT&symbol=" + s + "&limit=-3"), "40020", "Parameter limit error");
        assertError(get(f + "category=SPOT&symbol=NOSUCHUSDT"), "25100");
        assertError(get(f + "category=OPTIONS&symbol=" + s), "40020", "Parameter category error");
        // Fine: an empty tape, and more than 100 asked.
        Reply empty = get(f + "category=SPOT&symbol=" + s + "&limit=1000");
        ok(empty);
        assertThat(empty.data()).isEmpty();
    }
}
