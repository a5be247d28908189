package io.tas.stream;

import io.tas.account.AccountEnums.Category;
import io.tas.http.Json;
import io.tas.market.Ticker;
import io.tas.marketdata.StreamFeed;
import io.tas.trade.TradingService;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The public channels of one node (D187): tickers, whole books (books1/5/15/50), the incremental `books` channel, trades
 * and candles, pushed when a symbol's ticker, book or trades change. Runs on the hub's pusher thread only, so the
 * incremental book's base and the trades already pushed are one consistent state, and a snapshot on subscribe is taken
 * after every earlier update went out.
 */
final class MarketPushes {
    /** The incremental book keeps this many levels a side; its checksum covers the best 25 (ccxt.pro's rule). */
    static final int BOOK_LEVELS = 50, CHECKSUM_LEVELS = 25, TRADE_SNAPSHOT = 50, CANDLE_SNAPSHOT = 50;
    /** D232: a move's ticker channels go out first, the rest after the move's sweep and candle fold (never changed). */
    static final java.util.Set<StreamChannel.Kind> ALL = java.util.EnumSet.allOf(StreamChannel.Kind.class),
            TICKERS = java.util.EnumSet.of(StreamChannel.Kind.TICKER),
            ALL_BUT_TICKERS = java.util.EnumSet.complementOf(java.util.EnumSet.of(StreamChannel.Kind.TICKER));
    private final TradingService trading;
    private final StreamFeed feed;
    /** The incremental book last pushed, by category and symbol, while someone subscribes to it. */
    private final Map<String, Book> books = new HashMap<>();
    /** The trades pushed lately, by category and symbol (the newest 1,000 ids), while someone subscribes. */
    private final Map<String, Set<Long>> tradesPushed = new HashMap<>();

    MarketPushes(TradingService trading, StreamFeed feed) {
        this.trading = trading;
        this.feed = feed;
    }

    /** A book's key ("CATEGORY|SYMBOL"): this class's state and the hub's index of public subscriptions use it. */
    static String bookKey(Category category, String symbol) { return category.wire() + "|" + symbol; }

    /** Levels as pushed: [price, size] strings, best first; seq counts the book's pushes, checksum is the whole book's. */
    record Book(List<List<String>> asks, List<List<String>> bids, long seq, long checksum) {}

    /**
     * A symbol's ticker (when t is not null), book or trades may have changed: each ready subscription on it (followers,
     * the hub's index of that book's public subscriptions) gets its push, each figure read once for all of them.
     */
    void changed(Collection<StreamConnection.Sub> followers, Category category, String symbol, Ticker t, long ts) {
        changed(followers, category, symbol, t, ts, ALL);
    }

    /** As changed, for the channels of these kinds only (the state of the others is left as it is). */
    void changed(Collection<StreamConnection.Sub> followers, Category category, String symbol, Ticker t, long ts,
                         java.util.Set<StreamChannel.Kind> kinds) {
        String key = bookKey(category, symbol);
        Map<String, StreamConnection.Data> memo = new HashMap<>(); // each push's data serialized once for all
        List<Book> delta = null;
        List<StreamFeed.Trade> newTrades = null;
        TradingService.Book[] whole = new TradingService.Book[1];
        boolean incremental = false, trades = false;
        for (StreamConnection.Sub s : followers) {
            StreamConnection c = s.owner();
            StreamChannel ch = s.channel();
            if (!s.ready() || !kinds.contains(ch.kind()) || !ch.shows(category, symbol)) continue;
            switch (ch.kind()) {
                case TICKER -> {
                    if (t != null) c.push(s, "snapshot", memo.computeIfAbsent(ch.v2() ? "t2" : "t3", k -> data(List.of(ticker(ch, t)))), ts);
                }
                case BOOK -> {
                    if (whole[0] == null) whole[0] = trading.orderBook(category, symbol, BOOK_LEVELS);
                    c.push(s, "snapshot", memo.computeIfAbsent("b" + ch.v2() + ch.depth(), k -> data(List.of(depthBook(ch, whole[0])))), ts);
                }
                case INCREMENTAL_BOOK -> {
                    incremental = true;
                    if (delta == null) { // one delta for both families: the state moves on once
                        if (whole[0] == null) whole[0] = trading.orderBook(category, symbol, BOOK_LEVELS);
                        delta = delta(key, whole[0]);
                    }
                    if (delta.isEmpty()) continue;
                    Book d = delta.getFirst();
                    c.push(s, "update", memo.computeIfAbsent("i" + ch.v2(), k -> data(List.of(incrementalView(ch.v2(), d, ts)))), ts);
                }
                case TRADE -> {
                    trades = true;
                    if (newTrades == null) newTrades = newTrades(key, category, symbol); // once for both families
                    List<StreamFeed.Trade> read = newTrades;
                    StreamConnection.Data fresh = memo.computeIfAbsent("T" + ch.v2(), k -> data(trades(ch, read)));
                    if (!fresh.empty()) c.push(s, "update", fresh, ts);
                }
                case CANDLE -> {
                    StreamConnection.Data now = memo.computeIfAbsent("c" + ch.v2() + ch.series(), k -> data(candles(ch, category, symbol, ts, 1)));
                    if (!now.empty()) c.push(s, "update", now, ts);
                }
                default -> { }
            }
        }
        // Nobody follows it any more: a later subscriber starts from a fresh snapshot.
        if (!incremental && kinds.contains(StreamChannel.Kind.INCREMENTAL_BOOK)) books.remove(key);
        if (!trades && kinds.contains(StreamChannel.Kind.TRADE)) tradesPushed.remove(key);
    }

    /**
     * A new subscription's snapshot (`ready` is false until it is sent): the other subscribers of its kind get what
     * changed first, so the snapshot is the base the next update applies to.
     */
    void snapshot(Collection<StreamConnection.Sub> followers, StreamConnection c, StreamConnection.Sub s, long ts) {
        StreamChannel ch = s.channel();
        Category category = ch.category();
        String symbol = ch.target(), key = bookKey(category, symbol);
        switch (ch.kind()) {
            case BOOK -> c.push(s, "snapshot", List.of(depthBook(ch, trading.orderBook(category, symbol, BOOK_LEVELS))), ts);
            case INCREMENTAL_BOOK -> {
                changed(followers, category, symbol, null, ts, java.util.EnumSet.of(StreamChannel.Kind.INCREMENTAL_BOOK));
                Book b = books.computeIfAbsent(key, k -> levels(trading.orderBook(category, symbol, BOOK_LEVELS), 0));
                c.push(s, "snapshot", List.of(incrementalView(ch.v2(), b, ts)), ts);
            }
            case TRADE -> {
                changed(followers, category, symbol, null, ts, java.util.EnumSet.of(StreamChannel.Kind.TRADE));
                List<StreamFeed.Trade> newest = feed.trades(category, symbol, TRADE_SNAPSHOT);
                tradesPushed.computeIfAbsent(key, k -> seen()).addAll(newest.stream().map(StreamFeed.Trade::id).toList()); // the base of its updates
                if (!newest.isEmpty()) c.push(s, "snapshot", trades(ch, newest), ts); // none yet: nothing (ccxt would resolve [])
            }
            case CANDLE -> {
                List<?> recent = candles(ch, category, symbol, ts, CANDLE_SNAPSHOT);
                if (!recent.isEmpty()) c.push(s, "snapshot", recent, ts);
            }
            default -> { }
        }
    }

    // --- books

    private Object depthBook(StreamChannel ch, TradingService.Book b) {
        List<List<String>> asks = strings(b.asks(), ch.depth()), bids = strings(b.bids(), ch.depth());
        String ts = Long.toString(b.ts());
        if (!ch.v2()) return new StreamViews.BookView(asks, bids, ts, ts);
        return new V2Book(asks, bids, checksum(asks, bids), ts);
    }

    /** v2 books1/5/15: asks and bids as the spot and contract docs spell them, with the checksum. */
    record V2Book(List<List<String>> asks, List<List<String>> bids, long checksum, String ts) {}

    /** The incremental channel: v2 `asks`/`bids`, v3 `a`/`b` with seq and pseq; a level of size 0 is removed. */
    record V2Incremental(List<List<String>> asks, List<List<String>> bids, long checksum, String seq, String ts) {}

    record V3Incremental(List<List<String>> a, List<List<String>> b, long checksum, String pseq, String seq, String ts) {}

    /** A snapshot (the whole book) or a delta (levels changed), as the family spells it; the checksum is the book's after it. */
    private static Object incrementalView(boolean v2, Book b, long ts) {
        String t = Long.toString(ts);
        return v2 ? new V2Incremental(b.asks(), b.bids(), b.checksum(), Long.toString(b.seq()), t)
                : new V3Incremental(b.asks(), b.bids(), b.checksum(), Long.toString(Math.max(0, b.seq() - 1)), Long.toString(b.seq()), t);
    }

    /** The levels changed since the book last pushed, as a Book holding only them (empty: nothing changed); the state moves on. */
    private List<Book> delta(String key, TradingService.Book now) {
        Book before = books.get(key);
        if (before == null) return List.of(); // no one has a snapshot yet: the first one is taken on subscribe
        Book after = levels(now, before.seq() + 1);
        List<List<String>> asks = diff(before.asks(), after.asks()), bids = diff(before.bids(), after.bids());
        if (asks.isEmpty() && bids.isEmpty()) return List.of();
        books.put(key, after);
        return List.of(new Book(asks, bids, after.seq(), after.checksum()));
    }

    /** Levels gone are sent with size 0, new or resized ones with their size. */
    private static List<List<String>> diff(List<List<String>> before, List<List<String>> after) {
        Map<String, String> old = new LinkedHashMap<>();
        before.forEach(l -> old.put(l.get(0), l.get(1)));
        List<List<String>> out = new ArrayList<>();
        Set<String> kept = new java.util.HashSet<>();
        for (List<String> l : after) {
            kept.add(l.get(0));
            if (!l.get(1).equals(old.get(l.get(0)))) out.add(l);
        }
        for (String price : old.keySet()) if (!kept.contains(price)) out.add(List.of(price, "0"));
        return out;
    }

    private static Book levels(TradingService.Book b, long seq) {
        List<List<String>> asks = strings(b.asks(), BOOK_LEVELS), bids = strings(b.bids(), BOOK_LEVELS);
        return new Book(asks, bids, seq, checksum(asks, bids));
    }

    private static List<List<String>> strings(List<BigDecimal[]> levels, int depth) {
        return levels.stream().limit(depth).map(l -> List.of(Json.plain(l[0]), Json.plain(l[1]))).toList();
    }

    /**
     * The book's CRC-32 as ccxt.pro checks it: the best 25 bids and asks interleaved (bid, ask, bid, …) as
     * "price:size" strings joined by ':', as a signed 32-bit integer.
     */
    static long checksum(List<List<String>> asks, List<List<String>> bids) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < CHECKSUM_LEVELS; i++) {
            if (i < bids.size()) append(s, bids.get(i));
            if (i < asks.size()) append(s, asks.get(i));
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(s.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return (int) crc.getValue();
    }

    private static void append(StringBuilder s, List<String> level) {
        if (!s.isEmpty()) s.append(':');
        s.append(level.get(0)).append(':').append(level.get(1));
    }

    // --- trades and candles

    private List<StreamFeed.Trade> newTrades(String key, Category category, String symbol) {
        Set<Long> pushed = tradesPushed.get(key);
        if (pushed == null) return List.of(); // no snapshot yet: the first one is taken on subscribe
        List<StreamFeed.Trade> out = new ArrayList<>();
        for (StreamFeed.Trade t : feed.trades(category, symbol, TRADE_SNAPSHOT)) if (pushed.add(t.id())) out.add(t);
        return out; // newest first, as the snapshot
    }

    private static Set<Long> seen() {
        return java.util.Collections.newSetFromMap(new LinkedHashMap<>() {
            @Override protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) { return size() > 1_000; }
        });
    }

    /** v3 publicTrade {i, L, P, v, S, T}; v2 trade {ts, price, size, side, tradeId}. */
    record V3Trade(String i, String L, String P, String v, String S, String T) {}

    record V2Trade(String ts, String price, String size, String side, String tradeId) {}

    private static List<?> trades(StreamChannel ch, List<StreamFeed.Trade> trades) {
        return trades.stream().map(t -> ch.v2()
                ? (Object) new V2Trade(Long.toString(t.ts()), Json.plain(t.price()), Json.plain(t.size()), t.side(), Long.toString(t.id()))
                : new V3Trade(Long.toString(t.id()), Long.toString(t.id()), Json.plain(t.price()), Json.plain(t.size()), t.side(),
                        Long.toString(t.ts()))).toList();
    }

    /** v3 kline {start, open, close, high, low, volume, turnover}; v2 candles are arrays (ts, o, h, l, c, base, quote, usdt). */
    record Kline(String start, String open, String close, String high, String low, String volume, String turnover) {}

    private List<?> candles(StreamChannel ch, Category category, String symbol, long now, int count) {
        StreamFeed.Series series = StreamFeed.series(ch.v2(), ch.series()).orElseThrow();
        return feed.candles(category, symbol, series, now, count).stream().map(c -> ch.v2()
                ? (Object) List.of(Long.toString(c.ts()), Json.plain(c.open()), Json.plain(c.high()), Json.plain(c.low()), Json.plain(c.close()),
                        Json.plain(c.volume()), Json.plain(c.turnover()), Json.plain(c.turnover()))
                : new Kline(Long.toString(c.ts()), Json.plain(c.open()), Json.plain(c.close()), Json.plain(c.high()), Json.plain(c.low()),
                        Json.plain(c.volume()), Json.plain(c.turnover()))).toList();
    }

    private static StreamConnection.Data data(List<?> items) { return StreamConnection.Data.of(items); }

    private static Object ticker(StreamChannel ch, Ticker t) { return ch.v2() ? StreamViewsV2.ticker(t) : StreamViews.ticker(t); }
}
