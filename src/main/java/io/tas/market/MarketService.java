package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;
import io.tas.store.Tx;

import java.util.*;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Instruments and tickers: provisioned through the admin surface, read by the public API and by
 * pricing on every money request. Reads come from an in-memory snapshot of both tables, reloaded after
 * any change (this node's, or another node's via the change feed).
 */
public final class MarketService {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MarketService.class);
    private static final String TOPIC = "market";
    private final Database db;
    private final ChangeFeed changes;
    private final TickerStore store = new TickerStore();
    private final InstrumentStore instruments = new InstrumentStore();
    private final AtomicLong version = new AtomicLong();
    private volatile Snapshot snapshot;

    private record Snapshot(long version, Map<Category, NavigableMap<String, Ticker>> tickers, Map<String, Instrument> instruments) {}

    /** Told of every ticker this node committed on its own (not a seed's: a seed provisions, it does not trade). */
    private final List<java.util.function.Consumer<Ticker>> tickerListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public MarketService(Database db, ChangeFeed changes) {
        this.db = db;
        this.changes = changes;
        changes.subscribe(key -> { if (key.equals(TOPIC) || key.equals(ChangeFeed.EVERYTHING)) invalidate(); });
    }

    /** Told before the listeners: what shows the ticker alone and waits for nothing they write (its stream channel; D232). */
    private final List<java.util.function.Consumer<Ticker>> tickerWatchers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Registers work that follows a committed ticker update (the engine's sweep, candles, TP/SL); register before serving. */
    public void onTicker(java.util.function.Consumer<Ticker> listener) { tickerListeners.add(listener); }

    /** Registers a watcher told of a committed ticker before any listener runs; it should not block. */
    public void watchTicker(java.util.function.Consumer<Ticker> watcher) { tickerWatchers.add(watcher); }

    /**
     * Stores a ticker in a transaction of its own; after the commit the snapshot is dropped and every ticker listener
     * runs (a price move fills the orders it crosses). A listener's failure never fails the update (D83).
     */
    public void putTicker(Ticker t) {
        db.tx(tx -> {
            putTicker(tx, t);
            tx.afterCommit(() -> {
                for (var w : tickerWatchers) {
                    try {
                        w.accept(t);
                    } catch (RuntimeException e) { // the sweep after it must still run
                        LOG.warn("a ticker watcher failed on {}: {}", t.symbol(), e.getClass().getSimpleName());
                    }
                }
                tickerListeners.forEach(l -> l.accept(t));
            });
            return null;
        });
    }

    /** Stores a ticker in the caller's transaction (a seed): nothing follows it but the snapshot's drop. */
    public void putTicker(Tx tx, Ticker t) {
        if (t.category() == Category.MARGIN) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        store.upsert(tx.dsl(), t);
        changes.publish(tx, TOPIC);
        invalidateAround(tx);
    }

    public void putInstrument(Instrument i) {
        db.tx(tx -> { putInstrument(tx, i); return null; });
    }

    public void putInstrument(Tx tx, Instrument i) {
        if (i.category().isFutures() && (i.marginCoin() == null || i.maxLeverage() == null || i.maxLeverage().signum() <= 0)) {
            throw new ApiException(ErrorCode.PARAM_EMPTY, "marginCoin,maxLeverage");
        }
        instruments.upsert(tx.dsl(), i);
        changes.publish(tx, TOPIC);
        invalidateAround(tx);
    }

    /**
     * Drops the snapshot now, so the rest of the transaction (a seed opening positions on the instrument it defines)
     * reads its own writes (Database.cacheRead), and again after the commit, so nobody keeps a snapshot loaded before it.
     */
    private void invalidateAround(Tx tx) {
        invalidate();
        tx.afterCommit(this::invalidate);
    }



    /** One ticker, if provisioned. */
    public Optional<Ticker> ticker(Category category, String symbol) {
        NavigableMap<String, Ticker> byCategory = snapshot().tickers().get(category);
        return Optional.ofNullable(byCategory == null ? null : byCategory.get(symbol));
    }

    /** §4.8: all tickers of a category by symbol, or the one symbol (25100 when it does not exist). */
    public List<Ticker> tickers(Category category, String symbol) {
        if (symbol != null) {
            return List.of(ticker(category, symbol).orElseThrow(() -> new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol)));
        }
        NavigableMap<String, Ticker> byCategory = snapshot().tickers().get(category);
        return byCategory == null ? List.of() : List.copyOf(byCategory.values());
    }

    /** A known instrument, or 25100 (trading pair does not exist). */
    public Instrument instrument(Category category, String symbol) {
        Instrument i = snapshot().instruments().get(category.wire() + " " + symbol);
        if (i == null) throw new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol);
        return i;
    }

    /** Price decimals (D72): the most among the ticker's last/bid/ask (at least 1); the default without a ticker. */
    public int pricePrecision(Instrument i) {
        Category tickerCategory = i.category() == Category.MARGIN ? Category.SPOT : i.category();
        Ticker t = ticker(tickerCategory, i.symbol()).orElse(null);
        if (t == null) return Instrument.DEFAULT_PRICE_DECIMALS;
        // Every order asks this more than once; a ticker's decimals are worked out once per ticker (D225).
        String key = tickerCategory.wire() + " " + i.symbol();
        Precision memo = precisions.get(key);
        if (memo != null && memo.ticker() == t) return memo.decimals();
        int scale = 1;
        for (java.math.BigDecimal v : new java.math.BigDecimal[]{t.lastPrice(), t.ask1Price(), t.bid1Price()}) {
            if (v != null) scale = Math.max(scale, v.stripTrailingZeros().scale());
        }
        precisions.put(key, new Precision(t, scale));
        return scale;
    }

    /** A ticker's price decimals, by book: one entry per symbol, kept while the ticker is the same object. */
    private record Precision(Ticker ticker, int decimals) {}
    private final java.util.concurrent.ConcurrentHashMap<String, Precision> precisions = new java.util.concurrent.ConcurrentHashMap<>();

    /** Every instrument of a category, by symbol (beyond-spec metadata rows). */
    public List<Instrument> instruments(Category category) {
        return snapshot().instruments().values().stream().filter(i -> i.category() == category)
                .sorted(Comparator.comparing(Instrument::symbol)).toList();
    }

    /** Every instrument, by category then symbol. */
    public List<Instrument> instruments() {
        return snapshot().instruments().values().stream()
                .sorted(Comparator.comparing(Instrument::category).thenComparing(Instrument::symbol)).toList();
    }

    /** Whether the coin is the base or quote coin of a MARGIN pair (§4.1.2: it has a margin leverage). */
    public boolean isMarginCoin(String coin) {
        return snapshot().instruments().values().stream().anyMatch(i -> i.category() == Category.MARGIN
                && (i.baseCoin().equals(coin) || i.quoteCoin().equals(coin)));
    }

    /** Drops the snapshot; the next read loads both tables again. */
    public void invalidate() {
        version.incrementAndGet();
        snapshot = null;
    }

    private Snapshot snapshot() {
        Snapshot s = snapshot;
        if (s != null) return s;
        long v = version.get();
        Map<Category, NavigableMap<String, Ticker>> tickers = new EnumMap<>(Category.class);
        Map<String, Instrument> insts = new HashMap<>();
        db.cacheRead(dsl -> {
            for (Ticker t : store.all(dsl)) tickers.computeIfAbsent(t.category(), c -> new TreeMap<>()).put(t.symbol(), t);
            for (Instrument i : instruments.all(dsl)) insts.put(i.category().wire() + " " + i.symbol(), i);
            return null;
        });
        Snapshot loaded = new Snapshot(v, tickers, insts);
        // Install only if nothing changed while loading; otherwise the next read loads again.
        if (version.get() == v) snapshot = loaded;
        return loaded;
    }
}
