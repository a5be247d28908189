package io.tas.marketdata;

import io.tas.account.AccountEnums.Category;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static io.tas.store.generated.Tables.MARKET_CANDLE;
import static io.tas.store.generated.Tables.MARKET_TRADE;

/** SQL for the public trades and the 1-minute candles. */
final class MarketDataStore {
    /** One public trade; side is the taker's. */
    record Trade(long execId, BigDecimal price, BigDecimal size, String side, long ts) {}

    /** One candle: ts is its bucket's start; volume in base coin, turnover in quote coin. */
    record Candle(long ts, BigDecimal open, BigDecimal high, BigDecimal low, BigDecimal close, BigDecimal volume, BigDecimal turnover) {}

    private static final io.tas.store.PgCopy.Shape TRADE_ROW = io.tas.store.PgCopy.shape(MARKET_TRADE, List.of(MARKET_TRADE.EXEC_ID,
            MARKET_TRADE.CATEGORY, MARKET_TRADE.SYMBOL, MARKET_TRADE.PRICE, MARKET_TRADE.SIZE, MARKET_TRADE.SIDE, MARKET_TRADE.TS));

    /** Many trades in one statement (PgCopy.insert): execId, category, symbol, price, size, side, ts per row. */
    void insertTrades(DSLContext dsl, List<Object[]> rows) {
        io.tas.store.PgCopy.insert(dsl, TRADE_ROW, rows);
    }

    /** foldIntoCandle on PostgreSQL as plain SQL: once per group commit, nothing rendered (D213). */
    private static final String FOLD_PG = "insert into market_candle (category, symbol, ts, open_price, high_price, low_price, close_price,"
            + " base_volume, quote_turnover) values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (category, symbol, ts) do update set"
            + " high_price = greatest(market_candle.high_price, excluded.high_price), low_price = least(market_candle.low_price,"
            + " excluded.low_price), close_price = excluded.close_price, base_volume = market_candle.base_volume + excluded.base_volume,"
            + " quote_turnover = market_candle.quote_turnover + excluded.quote_turnover";

    /**
     * Folds trades of one minute (or a ticker move: one price, no volume) into its candle in one statement: open and
     * close are the first and last price, high and low the extremes, volumes the sums. ON CONFLICT on PostgreSQL, which
     * waits for a concurrent insert of the same key instead of failing, and MERGE on H2, where writers run one at a time
     * anyway (D113). High, low and the volumes are computed from the row as it is then.
     */
    void foldIntoCandle(DSLContext dsl, Category category, String symbol, long minute, BigDecimal open, BigDecimal high,
                        BigDecimal low, BigDecimal close, BigDecimal size, BigDecimal turnover) {
        if (dsl.dialect() == org.jooq.SQLDialect.POSTGRES) {
            io.tas.store.PgCopy.runLast(dsl, new io.tas.store.PgCopy.Part(FOLD_PG, (conn, ps, first) -> {
                ps.setString(first, category.wire());
                ps.setString(first + 1, symbol);
                ps.setLong(first + 2, minute);
                BigDecimal[] values = {open, high, low, close, size, turnover};
                for (int i = 0; i < values.length; i++) ps.setBigDecimal(first + 3 + i, values[i]);
                return first + 3 + values.length;
            }));
            return;
        }
        var c = MARKET_CANDLE;
        dsl.insertInto(c, c.CATEGORY, c.SYMBOL, c.TS, c.OPEN_PRICE, c.HIGH_PRICE, c.LOW_PRICE, c.CLOSE_PRICE, c.BASE_VOLUME, c.QUOTE_TURNOVER)
                .values(category.wire(), symbol, minute, open, high, low, close, size, turnover)
                .onConflict(c.CATEGORY, c.SYMBOL, c.TS).doUpdate()
                .set(c.HIGH_PRICE, DSL.greatest(c.HIGH_PRICE, DSL.val(high, c.HIGH_PRICE)))
                .set(c.LOW_PRICE, DSL.least(c.LOW_PRICE, DSL.val(low, c.LOW_PRICE)))
                .set(c.CLOSE_PRICE, close)
                .set(c.BASE_VOLUME, c.BASE_VOLUME.plus(size))
                .set(c.QUOTE_TURNOVER, c.QUOTE_TURNOVER.plus(turnover))
                .execute();
    }

    /** The newest trades, newest first. */
    List<Trade> trades(DSLContext dsl, Category category, String symbol, int limit) {
        return trades(dsl, category, symbol, limit, null, null, null);
    }

    /** The newest trades with an execId below idLessThan and a ts in [from, to] (each bound optional), newest first. */
    List<Trade> trades(DSLContext dsl, Category category, String symbol, int limit, Long idLessThan, Long from, Long to) {
        var t = MARKET_TRADE;
        var where = t.CATEGORY.eq(category.wire()).and(t.SYMBOL.eq(symbol));
        if (idLessThan != null) where = where.and(t.EXEC_ID.lt(idLessThan));
        if (from != null) where = where.and(t.TS.ge(from));
        if (to != null) where = where.and(t.TS.le(to));
        return dsl.selectFrom(t).where(where)
                .orderBy(t.TS.desc(), t.EXEC_ID.desc()).limit(limit)
                .fetch(r -> new Trade(r.getExecId(), r.getPrice(), r.getSize(), r.getSide(), r.getTs()));
    }

    /**
     * The newest `limit` buckets whose start is in [from, to], oldest first, each folded from its 1-minute rows up to
     * `to`. Only buckets with a row exist (D161). The minutes are grouped in SQL by the buckets' fixed step; for months
     * (a step of a day) the steps are read newest first until `limit` months are found.
     */
    List<Candle> candles(DSLContext dsl, Category category, String symbol, Buckets buckets, long from, long to, int limit) {
        var c = MARKET_CANDLE;
        var where = c.CATEGORY.eq(category.wire()).and(c.SYMBOL.eq(symbol)).and(c.TS.le(to));
        Buckets step = buckets.step();
        // Integer division on both databases; DISTINCT over a derived table, as H2 refuses GROUP BY on that expression.
        var minutes = dsl.select(step.sql(c.TS).as("b")).from(c).where(where).asTable("t");
        Field<Long> bucket = minutes.field("b", Long.class);
        var newestFirst = dsl.selectDistinct(bucket).from(minutes).where(bucket.ge(from)).orderBy(bucket.desc());
        List<Long> newest;
        if (step.equals(buckets)) {
            newest = newestFirst.limit(limit).fetch(bucket);
        } else {
            newest = new ArrayList<>();
            try (var cursor = newestFirst.fetchLazy()) {
                while (cursor.hasNext()) {
                    long start = buckets.start(cursor.fetchNext().value1());
                    if (start < from) break; // older steps start older buckets
                    if (!newest.isEmpty() && newest.getLast() == start) continue;
                    if (newest.size() == limit) break;
                    newest.add(start);
                }
            }
        }
        if (newest.isEmpty()) return List.of();
        long oldest = newest.getLast();
        List<Candle> out = new ArrayList<>();
        for (var r : dsl.selectFrom(c).where(where).and(c.TS.ge(oldest)).orderBy(c.TS).fetch()) {
            long b = buckets.start(r.getTs());
            Candle last = out.isEmpty() ? null : out.getLast();
            if (last == null || last.ts() != b) {
                out.add(new Candle(b, r.getOpenPrice(), r.getHighPrice(), r.getLowPrice(), r.getClosePrice(), r.getBaseVolume(), r.getQuoteTurnover()));
            } else {
                out.set(out.size() - 1, new Candle(b, last.open(), last.high().max(r.getHighPrice()), last.low().min(r.getLowPrice()),
                        r.getClosePrice(), last.volume().add(r.getBaseVolume()), last.turnover().add(r.getQuoteTurnover())));
            }
        }
        return out;
    }
}
