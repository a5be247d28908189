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

    /**
     * What one statement folds into a minute's candle row of one writer (D221): trades of that minute, or a ticker move
     * (one price, no volume). openId and closeId are the IDs of the first and last print, which order the rows' opens
     * and closes when they are merged.
     */
    record Fold(Category category, String symbol, long minute, int writer, BigDecimal open, long openId, BigDecimal high,
                BigDecimal low, BigDecimal close, long closeId, BigDecimal size, BigDecimal turnover) {}

    /** foldIntoCandle on PostgreSQL as plain SQL: once per group commit, nothing rendered (D213). */
    private static final String FOLD_PG = "insert into market_candle (category, symbol, ts, writer, open_price, open_id, high_price,"
            + " low_price, close_price, close_id, base_volume, quote_turnover) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " on conflict (category, symbol, ts, writer) do update set"
            + " open_price = case when excluded.open_id < market_candle.open_id then excluded.open_price else market_candle.open_price end,"
            + " open_id = least(market_candle.open_id, excluded.open_id),"
            + " high_price = greatest(market_candle.high_price, excluded.high_price), low_price = least(market_candle.low_price,"
            + " excluded.low_price),"
            + " close_price = case when excluded.close_id > market_candle.close_id then excluded.close_price else market_candle.close_price end,"
            + " close_id = greatest(market_candle.close_id, excluded.close_id),"
            + " base_volume = market_candle.base_volume + excluded.base_volume,"
            + " quote_turnover = market_candle.quote_turnover + excluded.quote_turnover";

    /**
     * Folds f into its writer's row of the minute in one statement: the open and close of the earlier and later print,
     * high and low the extremes, volumes the sums. ON CONFLICT on PostgreSQL, which waits for a concurrent insert of the
     * same key instead of failing, and MERGE on H2, where writers run one at a time anyway (D113). Each ledger writer
     * folds into a row of its own (D221), so no writer waits for another's commit on this row.
     */
    void foldIntoCandle(DSLContext dsl, Fold f) {
        if (dsl.dialect() == org.jooq.SQLDialect.POSTGRES) {
            io.tas.store.PgCopy.runLast(dsl, new io.tas.store.PgCopy.Part(FOLD_PG, (conn, ps, first) -> {
                ps.setString(first, f.category().wire());
                ps.setString(first + 1, f.symbol());
                ps.setLong(first + 2, f.minute());
                ps.setInt(first + 3, f.writer());
                ps.setBigDecimal(first + 4, f.open());
                ps.setLong(first + 5, f.openId());
                ps.setBigDecimal(first + 6, f.high());
                ps.setBigDecimal(first + 7, f.low());
                ps.setBigDecimal(first + 8, f.close());
                ps.setLong(first + 9, f.closeId());
                ps.setBigDecimal(first + 10, f.size());
                ps.setBigDecimal(first + 11, f.turnover());
                return first + 12;
            }));
            return;
        }
        var c = MARKET_CANDLE;
        dsl.insertInto(c, c.CATEGORY, c.SYMBOL, c.TS, c.WRITER, c.OPEN_PRICE, c.OPEN_ID, c.HIGH_PRICE, c.LOW_PRICE, c.CLOSE_PRICE, c.CLOSE_ID,
                        c.BASE_VOLUME, c.QUOTE_TURNOVER)
                .values(f.category().wire(), f.symbol(), f.minute(), f.writer(), f.open(), f.openId(), f.high(), f.low(), f.close(), f.closeId(),
                        f.size(), f.turnover())
                .onConflict(c.CATEGORY, c.SYMBOL, c.TS, c.WRITER).doUpdate()
                .set(c.OPEN_PRICE, DSL.when(c.OPEN_ID.gt(f.openId()), DSL.val(f.open(), c.OPEN_PRICE)).otherwise(c.OPEN_PRICE))
                .set(c.OPEN_ID, DSL.least(c.OPEN_ID, DSL.val(f.openId(), c.OPEN_ID)))
                .set(c.HIGH_PRICE, DSL.greatest(c.HIGH_PRICE, DSL.val(f.high(), c.HIGH_PRICE)))
                .set(c.LOW_PRICE, DSL.least(c.LOW_PRICE, DSL.val(f.low(), c.LOW_PRICE)))
                .set(c.CLOSE_PRICE, DSL.when(c.CLOSE_ID.lt(f.closeId()), DSL.val(f.close(), c.CLOSE_PRICE)).otherwise(c.CLOSE_PRICE))
                .set(c.CLOSE_ID, DSL.greatest(c.CLOSE_ID, DSL.val(f.closeId(), c.CLOSE_ID)))
                .set(c.BASE_VOLUME, c.BASE_VOLUME.plus(f.size()))
                .set(c.QUOTE_TURNOVER, c.QUOTE_TURNOVER.plus(f.turnover()))
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
        // A bucket's rows (its minutes, and each minute's writers' rows, D221) merge into one candle: the open of the
        // row with the earliest first print, the close of the row with the latest last print.
        List<Candle> out = new ArrayList<>();
        long openId = 0, closeId = 0;
        for (var r : dsl.selectFrom(c).where(where).and(c.TS.ge(oldest)).orderBy(c.TS, c.WRITER).fetch()) {
            long b = buckets.start(r.getTs());
            Candle last = out.isEmpty() ? null : out.getLast();
            if (last == null || last.ts() != b) {
                out.add(new Candle(b, r.getOpenPrice(), r.getHighPrice(), r.getLowPrice(), r.getClosePrice(), r.getBaseVolume(), r.getQuoteTurnover()));
                openId = r.getOpenId();
                closeId = r.getCloseId();
                continue;
            }
            boolean earlierOpen = r.getOpenId() < openId, laterClose = r.getCloseId() >= closeId;
            out.set(out.size() - 1, new Candle(b, earlierOpen ? r.getOpenPrice() : last.open(), last.high().max(r.getHighPrice()),
                    last.low().min(r.getLowPrice()), laterClose ? r.getClosePrice() : last.close(), last.volume().add(r.getBaseVolume()),
                    last.turnover().add(r.getQuoteTurnover())));
            openId = Math.min(openId, r.getOpenId());
            closeId = Math.max(closeId, r.getCloseId());
        }
        return out;
    }
}
