package io.tas.marketdata;

import io.tas.account.AccountEnums.Category;
import io.tas.market.Ticker;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.store.Tx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.util.List;

/**
 * The engine's public trades: every fill is recorded here in the fill's own transaction, so recent trades and candles
 * show exactly what committed. Ticker moves follow on the current minute's candle (D162). Reads for the v3 market rows.
 */
public class TradeTape {
    private static final Logger LOG = LoggerFactory.getLogger(TradeTape.class);
    private final Database db;
    private final IdGenerator ids;
    private final MarketDataStore store = new MarketDataStore();

    /** A tape that records nothing: for unit tests of the engine without a database. */
    public TradeTape() { this(null, null); }

    public TradeTape(Database db, IdGenerator ids) {
        this.db = db;
        this.ids = ids;
    }

    /** The book a category trades on: MARGIN orders trade on the spot pair's book (D160). */
    public static Category book(Category c) { return c == Category.MARGIN ? Category.SPOT : c; }

    /** One trade: price, base size and the taker's side (buy, sell), at ts (ms). */
    public void record(Tx tx, Category category, String symbol, BigDecimal price, BigDecimal size, String takerSide, long ts) {
        if (ids == null) return;
        if (price.signum() <= 0 || size.signum() <= 0 || !(takerSide.equals("buy") || takerSide.equals("sell"))) {
            throw new IllegalArgumentException("trade " + symbol + " " + takerSide + " " + size + " @ " + price);
        }
        Category c = book(category);
        store.insertTrade(tx.dsl(), ids.next(), c, symbol, price, size, takerSide, ts);
        store.addToCandle(tx.dsl(), c, symbol, Interval.M1.bucket(ts), price, size, price.multiply(size));
    }

    /**
     * After a committed ticker update (MarketService.onTicker): the minute of its ts gets its lastPrice as the close,
     * and as the high or low when beyond them, without volume. A ticker without a price (0) moves nothing. A failure
     * is logged, never thrown: the ticker has committed, and the listeners after this one must still run.
     */
    public void onTicker(Ticker t) {
        if (db == null || t.lastPrice() == null || t.lastPrice().signum() <= 0) return;
        try {
            db.tx(tx -> {
                store.addToCandle(tx.dsl(), t.category(), t.symbol(), Interval.M1.bucket(t.ts()), t.lastPrice(), BigDecimal.ZERO, BigDecimal.ZERO);
                return null;
            });
        } catch (RuntimeException e) {
            LOG.warn("candle of ticker {} {} not moved: {}", t.category().wire(), t.symbol(), e.toString());
        }
    }

    /** The newest trades of the book, newest first. */
    List<MarketDataStore.Trade> trades(Category category, String symbol, int limit) {
        return db.read(dsl -> store.trades(dsl, book(category), symbol, limit));
    }

    /** The newest `limit` candles whose start is in [from, to], oldest first. */
    List<MarketDataStore.Candle> candles(Category category, String symbol, Interval interval, long from, long to, int limit) {
        return db.read(dsl -> store.candles(dsl, book(category), symbol, interval, from, to, limit));
    }
}
