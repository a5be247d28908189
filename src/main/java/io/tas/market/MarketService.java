package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;

import java.util.*;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Instruments and tickers: provisioned through the admin surface, read by the public API and by
 * pricing on every money request. Reads come from an in-memory snapshot of both tables, reloaded after
 * any change (this node's, or another node's via the change feed).
 */
public final class MarketService {
    private static final String TOPIC = "market";
    private final Database db;
    private final ChangeFeed changes;
    private final TickerStore store = new TickerStore();
    private final InstrumentStore instruments = new InstrumentStore();
    private final AtomicLong version = new AtomicLong();
    private volatile Snapshot snapshot;

    private record Snapshot(long version, Map<Category, NavigableMap<String, Ticker>> tickers, Map<String, Instrument> instruments) {}

    public MarketService(Database db, ChangeFeed changes) {
        this.db = db;
        this.changes = changes;
        changes.subscribe(key -> { if (key.equals(TOPIC) || key.equals(ChangeFeed.EVERYTHING)) invalidate(); });
    }

    public void putTicker(Ticker t) {
        if (t.category() == Category.MARGIN) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        db.tx(dsl -> { store.upsert(dsl, t); changes.publish(TOPIC); return null; });
        invalidate();
    }

    public void putInstrument(Instrument i) {
        if (i.category().isFutures() && (i.marginCoin() == null || i.maxLeverage() == null || i.maxLeverage().signum() <= 0)) {
            throw new ApiException(ErrorCode.PARAM_EMPTY, "marginCoin,maxLeverage");
        }
        db.tx(dsl -> { instruments.upsert(dsl, i); changes.publish(TOPIC); return null; });
        invalidate();
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
        return ticker(tickerCategory, i.symbol()).map(t -> {
            int scale = 1;
            for (java.math.BigDecimal v : new java.math.BigDecimal[]{t.lastPrice(), t.ask1Price(), t.bid1Price()}) {
                if (v != null) scale = Math.max(scale, v.stripTrailingZeros().scale());
            }
            return scale;
        }).orElse(Instrument.DEFAULT_PRICE_DECIMALS);
    }

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
        var dsl = db.dsl();
        Map<Category, NavigableMap<String, Ticker>> tickers = new EnumMap<>(Category.class);
        for (Ticker t : store.all(dsl)) tickers.computeIfAbsent(t.category(), c -> new TreeMap<>()).put(t.symbol(), t);
        Map<String, Instrument> insts = new HashMap<>();
        for (Instrument i : instruments.all(dsl)) insts.put(i.category().wire() + " " + i.symbol(), i);
        Snapshot loaded = new Snapshot(v, tickers, insts);
        // Install only if nothing changed while loading; otherwise the next read loads again.
        if (version.get() == v) snapshot = loaded;
        return loaded;
    }
}
