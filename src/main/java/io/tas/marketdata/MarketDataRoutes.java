package io.tas.marketdata;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.market.MarketService;
import io.tas.market.Ticker;

import java.math.BigDecimal;
import java.util.List;

/** The v3 public market data of the engine: candles, recent trades and the current funding rate (issue 25). */
public final class MarketDataRoutes implements Routes.Feature {
    /** uta/public/Get-Candle-Data.md, Get-History-Candle-Data.md and Fills.md: at most 100 a page. */
    static final int MAX_LIMIT = 100;
    /** Bounds answered on the funding row, as the docs' example and ccxt's capture show them (D164). */
    static final String MIN_FUNDING_RATE = "-0.003";
    static final String MAX_FUNDING_RATE = "0.003";
    static final long FUNDING_PERIOD_MS = 8 * 3_600_000L;
    private static final List<Category> FUTURES = List.of(Category.USDT_FUTURES, Category.USDC_FUTURES, Category.COIN_FUTURES);

    private final MarketService market;
    private final TradeTape tape;

    public MarketDataRoutes(MarketService market, TradeTape tape) {
        this.market = market;
        this.tape = tape;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.CANDLES, this::candles);
        routes.bind(Endpoint.HISTORY_CANDLES, this::candles);
        routes.bind(Endpoint.RECENT_FILLS, this::fills);
        routes.bind(Endpoint.CURRENT_FUND_RATE, this::fundingRate);
    }

    /** Candle types of the docs; mark and index answer the candles of the trades and ticker moves (D163). */
    private enum CandleType { MARKET, MARK, INDEX }

    /** Rows [ts, open, high, low, close, baseVolume, quoteTurnover], all strings, oldest first (docs' example). */
    private List<List<String>> candles(ApiRequest r) {
        Params p = r.params().require("category", "symbol", "interval");
        Category category = p.parsed("category", Category::fromWire);
        String symbol = p.get("symbol");
        Interval interval = p.parsed("interval", s -> Interval.fromWire(s).orElseThrow());
        p.parsed("type", s -> CandleType.valueOf(io.tas.common.Ascii.upper(s)));
        Long start = p.millis("startTime");
        Long end = p.millis("endTime");
        int limit = limit(p);
        requireKnown(category, symbol);
        return tape.candles(category, symbol, interval, start == null ? 0 : start, end == null ? r.now() : end, limit).stream()
                .map(c -> List.of(Long.toString(c.ts()), Json.plain(c.open()), Json.plain(c.high()), Json.plain(c.low()),
                        Json.plain(c.close()), Json.plain(c.volume()), Json.plain(c.turnover())))
                .toList();
    }

    public record FillView(String execId, String execLinkId, String price, String size, String side, String ts) {}

    /** uta/public/Fills.md: newest first; side is the taker's, lower case. */
    private List<FillView> fills(ApiRequest r) {
        Params p = r.params().require("category", "symbol");
        Category category = p.parsed("category", Category::fromWire);
        String symbol = p.get("symbol");
        int limit = limit(p);
        requireKnown(category, symbol);
        return tape.trades(category, symbol, limit).stream().map(t -> new FillView(Long.toString(t.execId()),
                Long.toString(t.execId()), Json.plain(t.price()), Json.plain(t.size()), t.side(), Long.toString(t.ts()))).toList();
    }

    public record FundRateView(String symbol, String fundingRate, String fundingRateInterval, String nextUpdate,
                               String minFundingRate, String maxFundingRate) {}

    /** uta/public/Get-Current-Funding-Rate.md: by symbol alone (ccxt sends nothing else); a category narrows it. */
    private List<FundRateView> fundingRate(ApiRequest r) {
        Params p = r.params().require("symbol");
        String symbol = p.get("symbol");
        Category category = p.parsed("category", Category::fromWire);
        if (category != null && !category.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        Ticker t = (category == null ? FUTURES : List.of(category)).stream()
                .flatMap(c -> market.ticker(c, symbol).stream()).findFirst()
                .orElseThrow(() -> new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol));
        return List.of(fundRate(t, r.now()));
    }

    /** A futures ticker's row (D164), for this row and the v2 one. */
    static FundRateView fundRate(Ticker t, long now) {
        BigDecimal rate = t.fundingRate() == null ? BigDecimal.ZERO : t.fundingRate();
        long next = (Math.floorDiv(now, FUNDING_PERIOD_MS) + 1) * FUNDING_PERIOD_MS;
        return new FundRateView(t.symbol(), Json.plain(rate), "8", Long.toString(next), MIN_FUNDING_RATE, MAX_FUNDING_RATE);
    }

    /** 1 to 100, 100 when absent; more is answered with 100, as ccxt asks up to 1,000 candles (D163). */
    private static int limit(Params p) {
        return Math.min(p.intInRange("limit", MAX_LIMIT, 1, Integer.MAX_VALUE), MAX_LIMIT);
    }

    /** A symbol is known with a ticker of its book or an instrument of the category; else 25100 as on the tickers row. */
    private void requireKnown(Category category, String symbol) {
        if (!known(market, category, symbol)) throw new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol);
    }

    /** Whether the symbol has a ticker of its book or an instrument of the category (the v3 and v2 market rows). */
    static boolean known(MarketService market, Category category, String symbol) {
        return market.ticker(TradeTape.book(category), symbol).isPresent()
                || market.instruments(category).stream().anyMatch(i -> i.symbol().equals(symbol));
    }
}
