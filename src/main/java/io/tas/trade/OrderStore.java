package io.tas.trade;

import io.tas.account.AccountEnums.Category;
import io.tas.store.PgCopy;
import io.tas.store.generated.tables.records.TradeOrderRecord;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import static io.tas.store.generated.Tables.BOOK_LOCK;
import static io.tas.store.generated.Tables.TRADE_ORDER;

/** SQL for the engine's orders and the per-symbol book lock. */
final class OrderStore {
    static final List<String> WORKING = List.of(TradeOrder.LIVE, TradeOrder.PARTIALLY_FILLED);
    /**
     * D170: the working statuses as literals, not bind values. With bind values PostgreSQL's generic plan cannot tell
     * that working orders are a sliver of the table and scans it (1 ms per order at 300k orders); literals let it read
     * the column's statistics and take the book index.
     */
    private static final Condition IS_WORKING = TRADE_ORDER.STATUS.in(WORKING.stream().map(DSL::inline).toList());
    /** The book: working limit orders, with literals (not binds) so PostgreSQL matches its partial indexes (D177, V21). */
    private static final Condition RESTING = IS_WORKING.and(TRADE_ORDER.ORDER_TYPE.eq(DSL.inline("limit")));

    /**
     * Takes the symbol's book lock for the rest of the transaction (D154): every change to a symbol's orders holds it, on
     * every node, so matching sees one book. The row is created on first use; a concurrent creation is ignored.
     */
    void lockBook(DSLContext dsl, Category category, String symbol) { lockBookRow(dsl, category, symbol, false); }

    /**
     * D219, PostgreSQL only: the book lock shared by a sweep's parallel pages. It keeps out every other change to the
     * book (they take it exclusively), not the other pages; those lock their own orders (crossedBy).
     */
    void lockBookShared(DSLContext dsl, Category category, String symbol) { lockBookRow(dsl, category, symbol, true); }

    private static void lockBookRow(DSLContext dsl, Category category, String symbol, boolean shared) {
        dsl.insertInto(BOOK_LOCK, BOOK_LOCK.CATEGORY, BOOK_LOCK.SYMBOL).values(category.wire(), symbol).onDuplicateKeyIgnore().execute();
        var row = dsl.select(BOOK_LOCK.SYMBOL).from(BOOK_LOCK).where(BOOK_LOCK.CATEGORY.eq(category.wire()), BOOK_LOCK.SYMBOL.eq(symbol));
        (shared ? row.forShare() : row.forUpdate()).fetch();
    }

    void insert(DSLContext dsl, TradeOrder o) { write(dsl, List.of(o), List.of()); }

    /**
     * Orders in one statement each way (the engine's batched writes, D213): new ones inserted (PgCopy.insert), changed
     * ones updated, on PostgreSQL from arrays, on H2 as one JDBC batch.
     */
    void write(DSLContext dsl, List<TradeOrder> inserts, List<TradeOrder> updates) {
        PgCopy.insert(dsl, ORDER_ROW, inserts.stream().map(OrderStore::row).toList());
        if (updates.isEmpty()) return;
        // One UPDATE … FROM changes a row once: an order changed twice in the batch is written as it ended (last wins).
        java.util.Map<Long, TradeOrder> last = new java.util.LinkedHashMap<>();
        updates.forEach(o -> last.put(o.orderId(), o));
        List<Object[]> rows = last.values().stream().map(o -> new Object[]{o.price(), o.qty(), o.frozen(), o.cumExecQty(),
                o.cumExecValue(), o.fee(), o.feeCoin(), o.status(), o.cancelReason(), o.uTime(), o.orderId()}).toList();
        if (dsl.dialect() == SQLDialect.POSTGRES) PgCopy.run(dsl, PgCopy.arrays(UPDATE_FROM_ARRAYS, UPDATE_ARRAYS, rows));
        else PgCopy.batch(dsl, UPDATE_ONE, rows);
    }

    /**
     * D177, D213: a batch's order updates (a sweep page's thousand, a group commit's few) as one statement on PostgreSQL,
     * the new values sent as arrays and joined by order_id (a JDBC batch executes them one by one, as H2 does).
     */
    private static final String UPDATE_FROM_ARRAYS = "update trade_order t set price = u.price, qty = u.qty, frozen = u.frozen,"
            + " cum_exec_qty = u.cum_exec_qty, cum_exec_value = u.cum_exec_value, fee = u.fee, fee_coin = u.fee_coin, status = u.status,"
            + " cancel_reason = u.cancel_reason, u_time = u.u_time from unnest(?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[],"
            + " ?::numeric[], ?::numeric[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[]) as u(price, qty, frozen,"
            + " cum_exec_qty, cum_exec_value, fee, fee_coin, status, cancel_reason, u_time, order_id) where t.order_id = u.order_id";
    private static final List<String> UPDATE_ARRAYS = List.of("numeric", "numeric", "numeric", "numeric", "numeric", "numeric", "text",
            "text", "text", "bigint", "bigint");
    private static final String UPDATE_ONE = "update trade_order set price = ?, qty = ?, frozen = ?, cum_exec_qty = ?, cum_exec_value = ?,"
            + " fee = ?, fee_coin = ?, status = ?, cancel_reason = ?, u_time = ? where order_id = ?";

    /** Orders by id, as the caller's transaction sees them (a sweep's page, read again under the book lock). */
    List<TradeOrder> byIds(DSLContext dsl, Collection<Long> orderIds) {
        return dsl.selectFrom(TRADE_ORDER).where(TRADE_ORDER.ORDER_ID.in(orderIds)).orderBy(TRADE_ORDER.ORDER_ID).fetch(OrderStore::toOrder);
    }

    void update(DSLContext dsl, TradeOrder o) { write(dsl, List.of(), List.of(o)); }

    Optional<TradeOrder> byId(DSLContext dsl, long uid, long orderId) {
        return dsl.selectFrom(TRADE_ORDER).where(TRADE_ORDER.UID.eq(uid), TRADE_ORDER.ORDER_ID.eq(orderId)).fetchOptional().map(OrderStore::toOrder);
    }

    Optional<TradeOrder> byClientOid(DSLContext dsl, long uid, String clientOid) {
        return dsl.selectFrom(TRADE_ORDER).where(TRADE_ORDER.UID.eq(uid), TRADE_ORDER.CLIENT_OID.eq(clientOid)).fetchOptional().map(OrderStore::toOrder);
    }

    /**
     * Working orders on the other side of a taker that its price crosses, best price first and oldest first at a price
     * (price-time priority); limitPrice null = any price (a market order). At most `limit` rows.
     */
    List<TradeOrder> crossing(DSLContext dsl, Category category, String symbol, boolean takerBuys, BigDecimal limitPrice, int limit) {
        Condition c = TRADE_ORDER.CATEGORY.eq(category.wire()).and(TRADE_ORDER.SYMBOL.eq(symbol)).and(RESTING)
                .and(TRADE_ORDER.SIDE.eq(takerBuys ? "sell" : "buy"));
        if (limitPrice != null) c = c.and(takerBuys ? TRADE_ORDER.PRICE.le(limitPrice) : TRADE_ORDER.PRICE.ge(limitPrice));
        return dsl.selectFrom(TRADE_ORDER).where(c)
                .orderBy(takerBuys ? TRADE_ORDER.PRICE.asc() : TRADE_ORDER.PRICE.desc(), TRADE_ORDER.ORDER_ID.asc())
                .limit(limit).fetch(OrderStore::toOrder);
    }

    /** The best resting buy and sell of a book (null when that side is empty). */
    record BookTop(BigDecimal bestBid, BigDecimal bestAsk) {
        /** Whether a resting order crosses a taker (D168's test); limitPrice null = any price (a market order). */
        boolean crosses(boolean takerBuys, BigDecimal limitPrice) {
            BigDecimal best = takerBuys ? bestAsk : bestBid;
            if (best == null) return false;
            return limitPrice == null || (takerBuys ? best.compareTo(limitPrice) <= 0 : best.compareTo(limitPrice) >= 0);
        }
    }

    private static final String BOOK_TOP = "select (select max(price) from trade_order where category = ? and symbol = ? and side = 'buy' and "
            + "status in ('" + String.join("', '", WORKING) + "') and order_type = 'limit'), "
            + "(select min(price) from trade_order where category = ? and symbol = ? and side = 'sell' and "
            + "status in ('" + String.join("', '", WORKING) + "') and order_type = 'limit')";

    /**
     * The book's best resting prices, read once per group-commit batch for its fast-path takers (D168's test, D213): on
     * PostgreSQL in the round trip of the batch's locks (D218), else on its own. Plain SQL (D170); the resting-order
     * index answers each side with one index probe (D177); its literals are RESTING's.
     */
    io.tas.ledger.Ledger.Read<BookTop> bookTopRead(Object key, Category category, String symbol) {
        return new io.tas.ledger.Ledger.Read<>(key, BOOK_TOP, (c, ps, first) -> {
            ps.setString(first, category.wire());
            ps.setString(first + 1, symbol);
            ps.setString(first + 2, category.wire());
            ps.setString(first + 3, symbol);
            return first + 4;
        }, rs -> {
            rs.next();
            return new BookTop(rs.getBigDecimal(1), rs.getBigDecimal(2));
        });
    }

    /**
     * Working limit orders a synthetic best ask/bid crosses (buys at or above the ask, sells at or below the bid), oldest
     * first; of some accounts only when uids is not null, each order locked when asked (D219: a sweep's parallel pages
     * under the shared book lock). PostgreSQL locks the rows in orderId order and reads again one that a concurrent page
     * or sweep changed before it got the lock: an order filled meanwhile no longer matches and is left out.
     */
    List<TradeOrder> crossedBy(DSLContext dsl, Category category, String symbol, BigDecimal ask, BigDecimal bid, long afterId, int limit,
                               Collection<Long> uids, boolean lock) {
        var page = dsl.selectFrom(TRADE_ORDER)
                .where(crossed(category, symbol, ask, bid), TRADE_ORDER.ORDER_ID.gt(afterId), uids == null ? DSL.noCondition() : TRADE_ORDER.UID.in(uids))
                .orderBy(TRADE_ORDER.ORDER_ID).limit(limit);
        return (lock ? page.forUpdate() : page).fetch(OrderStore::toOrder);
    }

    /** How many resting orders each account has that the ask or bid crosses, by uid (a sweep's split into pages, D219). */
    java.util.SortedMap<Long, Integer> crossedPerAccount(DSLContext dsl, Category category, String symbol, BigDecimal ask, BigDecimal bid) {
        java.util.SortedMap<Long, Integer> out = new java.util.TreeMap<>();
        dsl.select(TRADE_ORDER.UID, DSL.count()).from(TRADE_ORDER).where(crossed(category, symbol, ask, bid)).groupBy(TRADE_ORDER.UID)
                .forEach(r -> out.put(r.value1(), r.value2()));
        return out;
    }

    /** The symbol's resting orders the ask or bid crosses: buys at or above the ask, sells at or below the bid. */
    private static Condition crossed(Category category, String symbol, BigDecimal ask, BigDecimal bid) {
        Condition buys = ask == null ? DSL.falseCondition() : TRADE_ORDER.SIDE.eq("buy").and(TRADE_ORDER.PRICE.ge(ask));
        Condition sells = bid == null ? DSL.falseCondition() : TRADE_ORDER.SIDE.eq("sell").and(TRADE_ORDER.PRICE.le(bid));
        return DSL.and(TRADE_ORDER.CATEGORY.eq(category.wire()), TRADE_ORDER.SYMBOL.eq(symbol), RESTING, buys.or(sells));
    }

    /** The resting limit orders of a symbol aggregated by price: the book's real levels (price, base size left). */
    List<BigDecimal[]> levels(DSLContext dsl, Category category, String symbol, boolean bids, int depth) {
        var left = DSL.sum(TRADE_ORDER.QTY.minus(TRADE_ORDER.CUM_EXEC_QTY));
        return dsl.select(TRADE_ORDER.PRICE, left).from(TRADE_ORDER)
                .where(TRADE_ORDER.CATEGORY.eq(category.wire()), TRADE_ORDER.SYMBOL.eq(symbol), RESTING,
                        TRADE_ORDER.SIDE.eq(bids ? "buy" : "sell"))
                .groupBy(TRADE_ORDER.PRICE).orderBy(bids ? TRADE_ORDER.PRICE.desc() : TRADE_ORDER.PRICE.asc()).limit(depth)
                .fetch(r -> new BigDecimal[]{r.value1(), r.value2()});
    }

    /** An account's working orders, newest first, optionally of one category/symbol, below a cursor. */
    List<TradeOrder> working(DSLContext dsl, long uid, String category, String symbol, Long below, int limit) {
        return page(dsl, uid, category, symbol, below, limit, IS_WORKING, null, null);
    }

    /** An account's finished orders (filled, cancelled), newest first. */
    List<TradeOrder> finished(DSLContext dsl, long uid, String category, String symbol, Long below, int limit, Long start, Long end) {
        return page(dsl, uid, category, symbol, below, limit, IS_WORKING.not(), start, end);
    }

    private List<TradeOrder> page(DSLContext dsl, long uid, String category, String symbol, Long below, int limit, Condition status,
                                  Long start, Long end) {
        Condition c = TRADE_ORDER.UID.eq(uid).and(status);
        if (category != null) c = c.and(TRADE_ORDER.CATEGORY.eq(category));
        if (symbol != null) c = c.and(TRADE_ORDER.SYMBOL.eq(symbol));
        if (below != null) c = c.and(TRADE_ORDER.ORDER_ID.lt(below));
        if (start != null) c = c.and(TRADE_ORDER.C_TIME.ge(start));
        if (end != null) c = c.and(TRADE_ORDER.C_TIME.le(end));
        return dsl.selectFrom(TRADE_ORDER).where(c).orderBy(TRADE_ORDER.ORDER_ID.desc()).limit(limit).fetch(OrderStore::toOrder);
    }

    /** An account's working Reality orders, or its other working orders (D223: the switch names each kind). */
    int workingCount(DSLContext dsl, long uid, boolean reality) {
        return dsl.fetchCount(TRADE_ORDER, TRADE_ORDER.UID.eq(uid), IS_WORKING, TRADE_ORDER.REALITY.eq(reality));
    }

    /** An account's Reality orders of every status, newest first (the admin view). */
    List<TradeOrder> realityOrders(DSLContext dsl, long uid, int limit) {
        return dsl.selectFrom(TRADE_ORDER).where(TRADE_ORDER.UID.eq(uid), TRADE_ORDER.REALITY.isTrue())
                .orderBy(TRADE_ORDER.ORDER_ID.desc()).limit(limit).fetch(OrderStore::toOrder);
    }

    int workingCount(DSLContext dsl, long uid, Category category, String symbol) {
        return dsl.fetchCount(TRADE_ORDER, TRADE_ORDER.UID.eq(uid), TRADE_ORDER.CATEGORY.eq(category.wire()),
                TRADE_ORDER.SYMBOL.eq(symbol), IS_WORKING);
    }

    /**
     * How many working orders each account has (settings changes: pending orders block a hold-mode change). Reality
     * orders do not: D82 keeps them out of a futures setting (D223).
     */
    java.util.Map<Long, Integer> workingCounts(DSLContext dsl, Collection<Long> uids) {
        return dsl.select(TRADE_ORDER.UID, DSL.count()).from(TRADE_ORDER)
                .where(TRADE_ORDER.UID.in(uids), IS_WORKING, TRADE_ORDER.REALITY.isFalse()).groupBy(TRADE_ORDER.UID)
                .fetchMap(r -> r.value1(), r -> r.value2());
    }

    /** Every column of trade_order, in the order row() gives them. */
    private static final PgCopy.Shape ORDER_ROW = PgCopy.shape(TRADE_ORDER, List.of(TRADE_ORDER.ORDER_ID, TRADE_ORDER.UID,
            TRADE_ORDER.CLIENT_OID, TRADE_ORDER.CATEGORY, TRADE_ORDER.SYMBOL, TRADE_ORDER.SIDE, TRADE_ORDER.ORDER_TYPE,
            TRADE_ORDER.TIME_IN_FORCE, TRADE_ORDER.PRICE, TRADE_ORDER.QTY, TRADE_ORDER.POS_SIDE, TRADE_ORDER.HOLD_MODE,
            TRADE_ORDER.TRADE_SIDE, TRADE_ORDER.REDUCE_ONLY, TRADE_ORDER.MARGIN_MODE, TRADE_ORDER.LEVERAGE, TRADE_ORDER.FROZEN_COIN,
            TRADE_ORDER.FROZEN, TRADE_ORDER.CUM_EXEC_QTY, TRADE_ORDER.CUM_EXEC_VALUE, TRADE_ORDER.FEE, TRADE_ORDER.FEE_COIN,
            TRADE_ORDER.STATUS, TRADE_ORDER.CANCEL_REASON, TRADE_ORDER.C_TIME, TRADE_ORDER.U_TIME, TRADE_ORDER.CLASSIC,
            TRADE_ORDER.REALITY));

    private static Object[] row(TradeOrder o) {
        return new Object[]{o.orderId(), o.uid(), o.clientOid(), o.category().wire(), o.symbol(), o.side(), o.orderType(),
                o.timeInForce(), o.price(), o.qty(), o.posSide(), o.holdMode(), o.tradeSide(), o.reduceOnly(), o.marginMode(),
                o.leverage(), o.frozenCoin(), o.frozen(), o.cumExecQty(), o.cumExecValue(), o.fee(), o.feeCoin(), o.status(),
                o.cancelReason(), o.cTime(), o.uTime(), o.classic(), o.reality()};
    }

    static TradeOrder toOrder(TradeOrderRecord r) {
        return new TradeOrder(r.getOrderId(), r.getUid(), r.getClientOid(), Category.fromWire(r.getCategory()), r.getSymbol(),
                r.getSide(), r.getOrderType(), r.getTimeInForce(), r.getPrice(), r.getQty(), r.getPosSide(), r.getHoldMode(),
                r.getTradeSide(), r.getReduceOnly(), r.getMarginMode(), r.getLeverage(), r.getFrozenCoin(), r.getFrozen(),
                r.getCumExecQty(), r.getCumExecValue(), r.getFee(), r.getFeeCoin(), r.getStatus(), r.getCancelReason(),
                r.getCTime(), r.getUTime(), r.getClassic(), r.getReality());
    }
}
