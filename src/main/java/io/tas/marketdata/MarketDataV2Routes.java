package io.tas.marketdata;

import io.tas.account.AccountEnums.Category;
import io.tas.common.TimeWindow;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.MetadataRoutes;
import io.tas.market.PriceService;
import io.tas.market.Ticker;
import io.tas.trade.TradingService;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The classic (v2) public market data of the engine (issue 26): spot tickers, order book, candles and trades; futures
 * ticker(s), merged depth, candles, trades and the current funding rate. Shapes from the platform's pages (docs mirror
 * spot/market/*.md and contract/market/*.md), every value a string; served from the same tickers, book and trade tape
 * as the v3 rows. Parameter errors as the v2 family answers them (wire facts §7): 40019 a missing one, 40020 a bad
 * value, 40034 an unknown symbol (D182).
 */
public final class MarketDataV2Routes implements Routes.Feature {
    /** Futures categories in the order a symbol under the wrong productType is looked for (D182). */
    private static final List<Category> FUTURES = List.of(Category.USDT_FUTURES, Category.USDC_FUTURES, Category.COIN_FUTURES);
    /** spot/market/Get-Orderbook.md: default and maximum 150. */
    static final int SPOT_BOOK_MAX = 150;
    /** contract/market/Get-Merge-Depth.md: default 100; "max" is the deepest synthetic book an instrument can have (D183). */
    static final int MERGE_DEPTH_DEFAULT = 100;
    static final int MERGE_DEPTH_MAX = 200;
    /** Merge-depth precisions: scale0 is the price tick, each next one ten times coarser. */
    private static final int MAX_SCALE = 3;

    private final MarketService market;
    private final TradeTape tape;
    private final TradingService trading;
    private final PriceService prices;

    public MarketDataV2Routes(MarketService market, TradeTape tape, TradingService trading, PriceService prices) {
        this.market = market;
        this.tape = tape;
        this.trading = trading;
        this.prices = prices;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.V2_SPOT_TICKERS, this::spotTickers);
        routes.bind(Endpoint.V2_SPOT_ORDERBOOK, this::spotOrderBook);
        routes.bind(Endpoint.V2_SPOT_CANDLES, r -> spotCandles(r, false));
        routes.bind(Endpoint.V2_SPOT_HISTORY_CANDLES, r -> spotCandles(r, true));
        routes.bind(Endpoint.V2_SPOT_FILLS, this::spotFills);
        routes.bind(Endpoint.V2_SPOT_FILLS_HISTORY, this::spotFillsHistory);
        routes.bind(Endpoint.V2_MIX_TICKER, this::mixTicker);
        routes.bind(Endpoint.V2_MIX_TICKERS, this::mixTickers);
        routes.bind(Endpoint.V2_MIX_MERGE_DEPTH, this::mergeDepth);
        routes.bind(Endpoint.V2_MIX_CANDLES, r -> mixCandles(r, false));
        routes.bind(Endpoint.V2_MIX_HISTORY_CANDLES, r -> mixCandles(r, true));
        routes.bind(Endpoint.V2_MIX_FILLS_HISTORY, this::mixFillsHistory);
        routes.bind(Endpoint.V2_MIX_CURRENT_FUND_RATE, this::fundingRate);
    }

    // ---- tickers

    /** spot/market/Get-Tickers.md, in its field order. */
    public record SpotTickerView(String symbol, String high24h, String open, String lastPr, String low24h, String quoteVolume,
                                 String baseVolume, String usdtVolume, String bidPr, String askPr, String bidSz, String askSz,
                                 String openUtc, String ts, String changeUtc24h, String change24h) {}

    /** contract/market/Get-Ticker.md and Get-All-Symbol-Ticker.md, in their field order. */
    public record MixTickerView(String symbol, String lastPr, String askPr, String bidPr, String bidSz, String askSz,
                                String high24h, String low24h, String ts, String change24h, String baseVolume,
                                String quoteVolume, String usdtVolume, String openUtc, String changeUtc24h, String indexPrice,
                                String fundingRate, String holdingAmount, String deliveryStartTime, String deliveryTime,
                                String deliveryStatus, String open24h, String markPrice) {}

    /** All spot tickers, or the one symbol's (40034 without a ticker). */
    private List<SpotTickerView> spotTickers(ApiRequest r) {
        String symbol = upper(r.params().get("symbol"));
        List<Ticker> ts = symbol == null ? market.tickers(Category.SPOT, null)
                : List.of(market.ticker(Category.SPOT, symbol).orElseThrow(() -> notExist(symbol)));
        Quotes quotes = new Quotes(Category.SPOT);
        return ts.stream().map(t -> new SpotTickerView(t.symbol(), Json.plain(t.highPrice24h()), Json.plain(t.openPrice24h()),
                Json.plain(t.lastPrice()), Json.plain(t.lowPrice24h()), Json.plain(t.turnover24h()), Json.plain(t.volume24h()),
                quotes.usdt(t.symbol(), t.turnover24h()), Json.plain(t.bid1Price()), Json.plain(t.ask1Price()),
                Json.plain(t.bid1Size()), Json.plain(t.ask1Size()), Json.plain(t.openPrice24h()), Long.toString(t.ts()),
                Json.plain(t.price24hPcnt()), Json.plain(t.price24hPcnt()))).toList();
    }

    /** One contract's ticker, as an array of one (the docs' example); the symbol is served under any productType (D182). */
    private List<MixTickerView> mixTicker(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category asked = productType(p);
        String symbol = upper(p.get("symbol"));
        Category c = contract(asked, symbol, cat -> market.ticker(cat, symbol).isPresent());
        return List.of(mixView(market.ticker(c, symbol).orElseThrow(), new Quotes(c)));
    }

    private List<MixTickerView> mixTickers(ApiRequest r) {
        Params p = r.params().require("productType");
        Category c = productType(p);
        if (c == null) return List.of();
        Quotes quotes = new Quotes(c);
        return market.tickers(c, null).stream().map(t -> mixView(t, quotes)).toList();
    }

    private static MixTickerView mixView(Ticker t, Quotes quotes) {
        return new MixTickerView(t.symbol(), Json.plain(t.lastPrice()), Json.plain(t.ask1Price()), Json.plain(t.bid1Price()),
                Json.plain(t.bid1Size()), Json.plain(t.ask1Size()), Json.plain(t.highPrice24h()), Json.plain(t.lowPrice24h()),
                Long.toString(t.ts()), Json.plain(t.price24hPcnt()), Json.plain(t.volume24h()), Json.plain(t.turnover24h()),
                quotes.usdt(t.symbol(), t.turnover24h()), Json.plain(t.openPrice24h()), Json.plain(t.price24hPcnt()),
                Json.plain(t.indexPrice()), Json.plain(t.fundingRate() == null ? BigDecimal.ZERO : t.fundingRate()),
                Json.plain(t.openInterest()), Json.str(t.deliveryStartTime()), Json.str(t.deliveryTime()),
                t.deliveryStatus() == null ? "" : t.deliveryStatus(), Json.plain(t.openPrice24h()), Json.plain(t.markPrice()));
    }

    // ---- order books

    /** spot/market/Get-Orderbook.md: {asks, bids, ts}, levels ["price","size"], best first. */
    public record BookView(List<List<String>> asks, List<List<String>> bids, String ts) {}

    /** contract/market/Get-Merge-Depth.md. */
    public record MergeDepthView(List<List<String>> asks, List<List<String>> bids, String ts, String scale, String precision,
                                 String isMaxPrecision) {}

    /** type step0 to step5 accepted, the book always answered unmerged (D183); limit up to 150, more is 150. */
    private BookView spotOrderBook(ApiRequest r) {
        Params p = r.params().require("symbol");
        p.parsed("type", s -> {
            if (!s.matches("step[0-5]")) throw new IllegalArgumentException(s);
            return s;
        });
        int limit = limit(p, SPOT_BOOK_MAX, SPOT_BOOK_MAX);
        String symbol = upper(p.get("symbol"));
        if (!hasInstrument(Category.SPOT, symbol)) throw notExist(symbol);
        TradingService.Book b = trading.orderBook(Category.SPOT, symbol, limit);
        return new BookView(levels(b.asks()), levels(b.bids()), Long.toString(b.ts()));
    }

    /**
     * precision scaleN merges the book into steps of the price tick × 10^N (asks rounded up, bids down, sizes summed);
     * limit 1/5/15/50/max as documented, or any count from 1 (D183).
     */
    private MergeDepthView mergeDepth(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category asked = productType(p);
        Integer precision = p.parsed("precision", s -> {
            if (!s.matches("scale[0-9]")) throw new IllegalArgumentException(s);
            return Math.min(s.charAt(5) - '0', MAX_SCALE); // a scale beyond the coarsest is answered with it (the docs)
        });
        int scale = precision == null ? 0 : precision;
        int limit = "max".equalsIgnoreCase(p.get("limit")) ? MERGE_DEPTH_MAX : limit(p, MERGE_DEPTH_DEFAULT, MERGE_DEPTH_MAX);
        String symbol = upper(p.get("symbol"));
        Category c = contract(asked, symbol, cat -> hasInstrument(cat, symbol));
        Instrument inst = market.instrument(c, symbol);
        BigDecimal step = BigDecimal.ONE.movePointLeft(market.pricePrecision(inst)).movePointRight(scale);
        List<List<String>> asks, bids;
        long ts;
        if (scale == 0) {
            TradingService.Book b = trading.orderBook(c, symbol, limit);
            asks = levels(b.asks());
            bids = levels(b.bids());
            ts = b.ts();
        } else {
            TradingService.Book b = trading.orderBook(c, symbol, MERGE_DEPTH_MAX);
            asks = levels(merged(b.asks(), step, RoundingMode.CEILING, limit));
            bids = levels(merged(b.bids(), step, RoundingMode.FLOOR, limit));
            ts = b.ts();
        }
        return new MergeDepthView(asks, bids, Long.toString(ts), Json.plain(step), "scale" + scale, scale == MAX_SCALE ? "YES" : "NO");
    }

    /**
     * Levels (best first) merged into steps; when the levels read were as many as asked for, the last merged step may
     * miss deeper levels and is left out.
     */
    static List<BigDecimal[]> merged(List<BigDecimal[]> levels, BigDecimal step, RoundingMode mode, int limit) {
        Map<BigDecimal, BigDecimal> out = new LinkedHashMap<>();
        for (BigDecimal[] l : levels) {
            BigDecimal price = l[0].divide(step, 0, mode).multiply(step).stripTrailingZeros();
            if (price.signum() > 0) out.merge(price, l[1], BigDecimal::add);
        }
        List<BigDecimal[]> list = new ArrayList<>();
        out.forEach((price, size) -> list.add(new BigDecimal[]{price, size}));
        if (levels.size() >= MERGE_DEPTH_MAX && !list.isEmpty()) list.removeLast();
        return list.size() > limit ? list.subList(0, limit) : list;
    }

    private static List<List<String>> levels(List<BigDecimal[]> levels) {
        return levels.stream().map(l -> List.of(Json.plain(l[0]), Json.plain(l[1]))).toList();
    }

    // ---- candles

    /** kLineType of the futures candles (case-blind: ccxt sends mark/index lower case); all answer the trade candles (D163). */
    private enum KLineType { MARKET, MARK, INDEX }

    /** Rows [ts, open, high, low, close, baseVolume, usdtVolume, quoteVolume], oldest first. */
    private List<List<String>> spotCandles(ApiRequest r, boolean history) {
        Params p = history ? r.params().require("symbol", "granularity", "endTime") : r.params().require("symbol", "granularity");
        Granularity g = p.parsed("granularity", s -> Granularity.spot(s).orElseThrow());
        Long start = p.millis("startTime");
        Long end = p.millis("endTime");
        int limit = limit(p, 100, history ? 200 : 1000);
        String symbol = upper(p.get("symbol"));
        if (!MarketDataRoutes.known(market, Category.SPOT, symbol)) throw notExist(symbol);
        Quotes quotes = new Quotes(Category.SPOT);
        return tape.candles(Category.SPOT, symbol, g.buckets(), start == null ? 0 : start, end == null ? r.now() : end, limit).stream()
                .map(c -> List.of(Long.toString(c.ts()), Json.plain(c.open()), Json.plain(c.high()), Json.plain(c.low()),
                        Json.plain(c.close()), Json.plain(c.volume()), quotes.usdt(symbol, c.turnover()), Json.plain(c.turnover())))
                .toList();
    }

    /** Rows [ts, open, high, low, close, baseVolume, quoteVolume], oldest first. */
    private List<List<String>> mixCandles(ApiRequest r, boolean history) {
        Params p = r.params().require("symbol", "productType", "granularity");
        Category asked = productType(p);
        Granularity g = p.parsed("granularity", s -> Granularity.mix(s).orElseThrow());
        p.parsed("kLineType", s -> KLineType.valueOf(io.tas.common.Ascii.upper(s)));
        Long start = p.millis("startTime");
        Long end = p.millis("endTime");
        int limit = limit(p, 100, history ? 200 : 1000);
        String symbol = upper(p.get("symbol"));
        Category c = contract(asked, symbol, cat -> MarketDataRoutes.known(market, cat, symbol));
        return tape.candles(c, symbol, g.buckets(), start == null ? 0 : start, end == null ? r.now() : end, limit).stream()
                .map(k -> List.of(Long.toString(k.ts()), Json.plain(k.open()), Json.plain(k.high()), Json.plain(k.low()),
                        Json.plain(k.close()), Json.plain(k.volume()), Json.plain(k.turnover())))
                .toList();
    }

    // ---- trades

    /** spot/market/Get-Recent-Trades.md and Get-Market-Trades.md, in their field order. */
    public record SpotTradeView(String symbol, String tradeId, String side, String price, String size, String ts) {}

    /** contract/market/Get-Fills-History.md, in its field order. */
    public record MixTradeView(String tradeId, String price, String size, String side, String ts, String symbol) {}

    /** Recent trades: newest first, the taker's side lower case as the page's example; limit up to 500 (D184). */
    private List<SpotTradeView> spotFills(ApiRequest r) {
        Params p = r.params().require("symbol");
        int limit = limit(p, 100, 500);
        String symbol = upper(p.get("symbol"));
        if (!MarketDataRoutes.known(market, Category.SPOT, symbol)) throw notExist(symbol);
        return tape.trades(Category.SPOT, symbol, limit).stream().map(t -> new SpotTradeView(symbol, Long.toString(t.execId()),
                t.side(), Json.plain(t.price()), Json.plain(t.size()), Long.toString(t.ts()))).toList();
    }

    /** Trades of a window (TimeWindow, D184) below idLessThan, newest first; side "Buy"/"Sell"; limit up to 1000. */
    private List<SpotTradeView> spotFillsHistory(ApiRequest r) {
        Params p = r.params().require("symbol");
        var window = TimeWindow.V2_SPOT_FILLS_HISTORY.resolve(p.millis("startTime"), p.millis("endTime"), r.now());
        int limit = limit(p, 500, 1000);
        Long idLessThan = p.id("idLessThan");
        String symbol = upper(p.get("symbol"));
        if (!MarketDataRoutes.known(market, Category.SPOT, symbol)) throw notExist(symbol);
        if (window.isEmpty()) return List.of();
        return tape.trades(Category.SPOT, symbol, limit, idLessThan, window.from(), window.to()).stream()
                .map(t -> new SpotTradeView(symbol, Long.toString(t.execId()), capitalised(t.side()), Json.plain(t.price()),
                        Json.plain(t.size()), Long.toString(t.ts()))).toList();
    }

    private List<MixTradeView> mixFillsHistory(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category asked = productType(p);
        var window = TimeWindow.V2_MIX_FILLS_HISTORY.resolve(p.millis("startTime"), p.millis("endTime"), r.now());
        int limit = limit(p, 500, 1000);
        Long idLessThan = p.id("idLessThan");
        String symbol = upper(p.get("symbol"));
        Category c = contract(asked, symbol, cat -> MarketDataRoutes.known(market, cat, symbol));
        if (window.isEmpty()) return List.of();
        return tape.trades(c, symbol, limit, idLessThan, window.from(), window.to()).stream()
                .map(t -> new MixTradeView(Long.toString(t.execId()), Json.plain(t.price()), Json.plain(t.size()),
                        capitalised(t.side()), Long.toString(t.ts()), symbol)).toList();
    }

    private static String capitalised(String side) { return side.substring(0, 1).toUpperCase(Locale.ROOT) + side.substring(1); }

    // ---- funding

    /** contract/market/Get-Current-Funding-Rate.md: the v3 row's shape (D164); without a symbol, every contract's. */
    private List<MarketDataRoutes.FundRateView> fundingRate(ApiRequest r) {
        Params p = r.params().require("productType");
        Category asked = productType(p);
        String symbol = upper(p.get("symbol"));
        if (symbol == null) {
            return asked == null ? List.of() : market.tickers(asked, null).stream().map(t -> MarketDataRoutes.fundRate(t, r.now())).toList();
        }
        Category c = contract(asked, symbol, cat -> market.ticker(cat, symbol).isPresent());
        return List.of(MarketDataRoutes.fundRate(market.ticker(c, symbol).orElseThrow(), r.now()));
    }

    // ---- parameters

    /**
     * The futures category of productType, in any case (the docs' examples send usdt-futures). A demo type (S-prefixed)
     * is null: it holds no contracts here (D72). Anything else is answered as the platform answers it on the tickers
     * row, 40019 naming the value (wire facts §7, D182).
     */
    private static Category productType(Params p) {
        String sent = p.get("productType");
        String v = io.tas.common.Ascii.upper(sent);
        if (MetadataRoutes.DEMO_PRODUCT_TYPES.contains(v)) return null;
        try {
            Category c = Category.fromWire(v);
            if (c.isFutures()) return c;
        } catch (RuntimeException e) {
            // not a category: refused below
        }
        throw new ApiException(ErrorCode.PARAM_EMPTY, sent);
    }

    /** The asked category when it has the symbol, else the first futures category that has it (wire facts §4), else 40034. */
    private static Category contract(Category asked, String symbol, Predicate<Category> has) {
        if (asked != null && has.test(asked)) return asked;
        return FUTURES.stream().filter(has).findFirst().orElseThrow(() -> notExist(symbol));
    }

    private boolean hasInstrument(Category c, String symbol) {
        return market.instruments(c).stream().anyMatch(i -> i.symbol().equals(symbol));
    }

    /** From 1; the default when absent; more than the most is answered with the most (as D163); 0, negative or garbage 40020. */
    private static int limit(Params p, int defaultValue, int most) {
        return Math.min(p.intInRange("limit", defaultValue, 1, Integer.MAX_VALUE), most);
    }

    private static ApiException notExist(String symbol) { return new ApiException(ErrorCode.PARAM_NOT_EXIST, symbol); }

    private static String upper(String v) { return io.tas.common.Ascii.upper(v); }

    /**
     * USDT volumes (D185): a quote volume valued at its quote coin's USDT price now (USDT and USD are 1); "0" when the quote
     * coin has no price. The quote coin is the instrument's, else the category's (USDT, USDC, USD) or a USDT suffix.
     */
    private final class Quotes {
        private final Category category;
        private final Map<String, String> bySymbol = new java.util.HashMap<>();

        Quotes(Category category) {
            this.category = category;
            for (Instrument i : market.instruments(category)) bySymbol.put(i.symbol(), i.quoteCoin());
        }

        String usdt(String symbol, BigDecimal quoteVolume) {
            if (quoteVolume == null) return "";
            return price(quote(symbol)).map(px -> Json.plain(quoteVolume.multiply(px))).orElse("0");
        }

        private String quote(String symbol) {
            String q = bySymbol.get(symbol);
            if (q != null) return q;
            return switch (category) {
                case USDT_FUTURES -> "USDT";
                case USDC_FUTURES -> "USDC";
                case COIN_FUTURES -> "USD";
                default -> symbol.endsWith(PriceService.QUOTE) ? PriceService.QUOTE : null;
            };
        }

        private Optional<BigDecimal> price(String coin) {
            if (coin == null) return Optional.empty();
            if (coin.equals("USD")) return Optional.of(BigDecimal.ONE); // USD figures treat USDT as USD (docs/formulas.md)
            return prices.usdtPrice(coin);
        }
    }
}
