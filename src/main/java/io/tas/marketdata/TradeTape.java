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
        recordAll(tx.dsl(), java.util.List.of(new Print(category, symbol, price, size, takerSide, ts)));
    }

    /** A trade to record with others (recordAll): as record's arguments. */
    public record Print(Category category, String symbol, BigDecimal price, BigDecimal size, String takerSide, long ts) {}

    /**
     * Many trades in the caller's transaction, in order: one batch of trade rows, and one candle statement per symbol and
     * minute (the engine's batched fills, issue 25). The same rows and candles as record() called for each.
     */
    public void recordAll(org.jooq.DSLContext dsl, java.util.List<Print> prints) {
        if (ids == null || prints.isEmpty()) return;
        java.util.List<Object[]> rows = new java.util.ArrayList<>(prints.size());
        // In key order: writers that fold the same candles lock them in one order (PgCopy.runLast).
        java.util.Map<String, java.util.List<Minted>> byMinute = new java.util.TreeMap<>();
        for (Print p : prints) {
            if (p.price().signum() <= 0 || p.size().signum() <= 0 || !(p.takerSide().equals("buy") || p.takerSide().equals("sell"))) {
                throw new IllegalArgumentException("trade " + p);
            }
            Minted m = new Minted(ids.next(), book(p.category()), p);
            rows.add(new Object[]{m.execId(), m.book().wire(), p.symbol(), p.price(), p.size(), p.takerSide(), p.ts()});
            byMinute.computeIfAbsent(m.book().wire() + " " + p.symbol() + " " + Interval.M1.bucket(p.ts()), k -> new java.util.ArrayList<>()).add(m);
        }
        store.insertTrades(dsl, rows);
        int writer = io.tas.ledger.GroupCommit.writerNumber();
        for (java.util.List<Minted> group : byMinute.values()) {
            Minted first = group.getFirst(), last = group.getLast();
            BigDecimal high = first.print().price(), low = high, size = BigDecimal.ZERO, turnover = BigDecimal.ZERO;
            for (Minted m : group) {
                Print p = m.print();
                high = high.max(p.price());
                low = low.min(p.price());
                size = size.add(p.size());
                turnover = turnover.add(p.price().multiply(p.size()));
            }
            store.foldIntoCandle(dsl, new MarketDataStore.Fold(first.book(), first.print().symbol(), Interval.M1.bucket(first.print().ts()),
                    writer, first.print().price(), first.execId(), high, low, last.print().price(), last.execId(), size, turnover));
        }
    }

    /** A print with its trade's exec ID and book. */
    private record Minted(long execId, Category book, Print print) {}

    /**
     * After a committed ticker update (MarketService.onTicker): the minute of its ts gets its lastPrice as the close,
     * and as the high or low when beyond them, without volume. A ticker without a price (0) moves nothing. A failure
     * is logged, never thrown: the ticker has committed, and the listeners after this one must still run.
     */
    public void onTicker(Ticker t) {
        if (db == null || t.lastPrice() == null || t.lastPrice().signum() <= 0) return;
        try {
            db.tx(tx -> {
                BigDecimal p = t.lastPrice();
                long id = ids.next(); // orders this move after every print minted before it (D221)
                store.foldIntoCandle(tx.dsl(), new MarketDataStore.Fold(t.category(), t.symbol(), Interval.M1.bucket(t.ts()),
                        io.tas.ledger.GroupCommit.writerNumber(), p, id, p, p, p, id, BigDecimal.ZERO, BigDecimal.ZERO));
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

    /** The newest trades of the book with an execId below idLessThan and a ts in [from, to] (each optional), newest first. */
    List<MarketDataStore.Trade> trades(Category category, String symbol, int limit, Long idLessThan, Long from, Long to) {
        return db.read(dsl -> store.trades(dsl, book(category), symbol, limit, idLessThan, from, to));
    }

    /** The newest `limit` candles whose start is in [from, to], oldest first. */
    List<MarketDataStore.Candle> candles(Category category, String symbol, Interval interval, long from, long to, int limit) {
        return candles(category, symbol, interval.buckets(), from, to, limit);
    }

    /** As candles by interval, for any buckets (the v2 granularities). */
    List<MarketDataStore.Candle> candles(Category category, String symbol, Buckets buckets, long from, long to, int limit) {
        return db.read(dsl -> store.candles(dsl, book(category), symbol, buckets, from, to, limit));
    }
}
