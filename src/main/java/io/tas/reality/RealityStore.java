package io.tas.reality;

import io.tas.store.generated.tables.records.RealityOrderRecord;
import org.jooq.DSLContext;

import java.util.List;
import java.util.Optional;

import static io.tas.store.generated.Tables.REALITY_ORDER;

/** SQL for Reality orders. */
final class RealityStore {
    private static final List<String> WORKING = List.of(RealityOrder.LIVE, RealityOrder.PARTIALLY_FILLED);

    void insert(DSLContext dsl, RealityOrder o) {
        dsl.executeInsert(record(dsl, o));
    }

    void update(DSLContext dsl, RealityOrder o) {
        dsl.update(REALITY_ORDER)
                .set(REALITY_ORDER.FROZEN, o.frozen())
                .set(REALITY_ORDER.FILLED_QTY, o.filledQty())
                .set(REALITY_ORDER.FILLED_AMOUNT, o.filledAmount())
                .set(REALITY_ORDER.STATUS, o.status())
                .set(REALITY_ORDER.U_TIME, o.uTime())
                .where(REALITY_ORDER.UID.eq(o.uid()), REALITY_ORDER.ORDER_ID.eq(o.orderId())).execute();
    }

    Optional<RealityOrder> byClientOid(DSLContext dsl, long uid, String clientOid) {
        return dsl.selectFrom(REALITY_ORDER).where(REALITY_ORDER.UID.eq(uid), REALITY_ORDER.CLIENT_OID.eq(clientOid))
                .fetchOptional().map(RealityStore::toOrder);
    }

    Optional<RealityOrder> byId(DSLContext dsl, long uid, long orderId) {
        return dsl.selectFrom(REALITY_ORDER).where(REALITY_ORDER.UID.eq(uid), REALITY_ORDER.ORDER_ID.eq(orderId))
                .fetchOptional().map(RealityStore::toOrder);
    }

    /** Working orders of a symbol, oldest first (time priority among the orders one ticker update fills). */
    /**
     * The next page of working orders of one symbol that a ticker at ask/bid crosses (buys at or above the ask, sells at
     * or below the bid, market orders at any price; a missing side crosses nothing), oldest first, after the order id
     * `after` (issue 24 item 10: a tick reads pages, never every working order at once).
     */
    List<RealityOrder> crossing(DSLContext dsl, String symbol, java.math.BigDecimal ask, java.math.BigDecimal bid, long after, int limit) {
        org.jooq.Condition market = REALITY_ORDER.ORDER_TYPE.eq("market");
        org.jooq.Condition buys = ask == null ? org.jooq.impl.DSL.falseCondition()
                : REALITY_ORDER.SIDE.eq("buy").and(market.or(REALITY_ORDER.PRICE.ge(ask)));
        org.jooq.Condition sells = bid == null ? org.jooq.impl.DSL.falseCondition()
                : REALITY_ORDER.SIDE.eq("sell").and(market.or(REALITY_ORDER.PRICE.le(bid)));
        return dsl.selectFrom(REALITY_ORDER)
                .where(REALITY_ORDER.SYMBOL.eq(symbol), REALITY_ORDER.STATUS.in(WORKING), REALITY_ORDER.ORDER_ID.gt(after), buys.or(sells))
                .orderBy(REALITY_ORDER.ORDER_ID).limit(limit).fetch(RealityStore::toOrder);
    }

    int workingCount(DSLContext dsl, long uid) {
        return dsl.fetchCount(REALITY_ORDER, REALITY_ORDER.UID.eq(uid), REALITY_ORDER.STATUS.in(WORKING));
    }

    /** An account's orders, newest first (admin view). */
    List<RealityOrder> ofAccount(DSLContext dsl, long uid, int limit) {
        return dsl.selectFrom(REALITY_ORDER).where(REALITY_ORDER.UID.eq(uid)).orderBy(REALITY_ORDER.ORDER_ID.desc())
                .limit(limit).fetch(RealityStore::toOrder);
    }

    private static RealityOrderRecord record(DSLContext dsl, RealityOrder o) {
        RealityOrderRecord r = dsl.newRecord(REALITY_ORDER);
        r.setUid(o.uid());
        r.setOrderId(o.orderId());
        r.setClientOid(o.clientOid());
        r.setCategory(o.category());
        r.setSymbol(o.symbol());
        r.setBaseCoin(o.baseCoin());
        r.setQuoteCoin(o.quoteCoin());
        r.setSide(o.side());
        r.setOrderType(o.orderType());
        r.setPrice(o.price());
        r.setQty(o.qty());
        r.setFrozenCoin(o.frozenCoin());
        r.setFrozen(o.frozen());
        r.setFilledQty(o.filledQty());
        r.setFilledAmount(o.filledAmount());
        r.setStatus(o.status());
        r.setCTime(o.cTime());
        r.setUTime(o.uTime());
        return r;
    }

    private static RealityOrder toOrder(RealityOrderRecord r) {
        return new RealityOrder(r.getUid(), r.getOrderId(), r.getClientOid(), r.getCategory(), r.getSymbol(), r.getBaseCoin(),
                r.getQuoteCoin(), r.getSide(), r.getOrderType(), r.getPrice(), r.getQty(), r.getFrozenCoin(), r.getFrozen(),
                r.getFilledQty(), r.getFilledAmount(), r.getStatus(), r.getCTime(), r.getUTime());
    }
}
