package io.tas.strategy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import io.tas.http.Json;
import io.tas.store.generated.tables.records.StrategyOrderRecord;
import io.tas.strategy.StrategyOrder.Type;
import org.jooq.Condition;
import org.jooq.DSLContext;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.tas.store.generated.Tables.STRATEGY_ORDER;

/** SQL for strategy orders. */
final class StrategyStore {

    /** The parameter list as stored: JSON text of the checked items. */
    static String paramsJson(List<?> params) {
        try {
            return Json.MAPPER.writeValueAsString(params);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<?> params(Type type, String json) {
        if (json == null || type.paramsField() == null) return List.of();
        Class<?> item = switch (type) {
            case oco -> StrategyOrder.OcoParam.class;
            case trailing_stop -> StrategyOrder.TrailingStopParam.class;
            case iceberg -> StrategyOrder.IcebergParam.class;
            case twap -> StrategyOrder.TwapParam.class;
            case tpsl, trigger -> throw new IllegalStateException();
        };
        JavaType listType = Json.MAPPER.getTypeFactory().constructCollectionType(List.class, item);
        try {
            return List.copyOf((List<?>) Json.MAPPER.readValue(json, listType));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored params of a " + type + " order are not readable", e);
        }
    }

    /** Which of these order IDs are taken. */
    Set<Long> existing(DSLContext dsl, Collection<Long> ids) {
        Set<Long> out = new HashSet<>();
        for (var chunk : chunks(List.copyOf(ids), 1000)) {
            out.addAll(dsl.select(STRATEGY_ORDER.ORDER_ID).from(STRATEGY_ORDER).where(STRATEGY_ORDER.ORDER_ID.in(chunk)).fetch(STRATEGY_ORDER.ORDER_ID));
        }
        return out;
    }

    private static <T> List<List<T>> chunks(List<T> all, int size) {
        List<List<T>> out = new java.util.ArrayList<>();
        for (int i = 0; i < all.size(); i += size) out.add(all.subList(i, Math.min(all.size(), i + size)));
        return out;
    }

    /** One prepared statement, executed as a JDBC batch (PostgreSQL: multi-row inserts, D27). seq is the database's. */
    void insert(DSLContext dsl, List<StrategyOrder> orders) {
        var s = STRATEGY_ORDER;
        var batch = dsl.batch(dsl.insertInto(s, s.ORDER_ID, s.UID, s.CLIENT_OID, s.CATEGORY, s.ORDER_TYPE, s.SYMBOL, s.QTY, s.POS_SIDE,
                s.STATUS, s.TRIGGER_TYPE, s.TP_TRIGGER_BY, s.SL_TRIGGER_BY, s.TAKE_PROFIT, s.STOP_LOSS, s.TP_ORDER_TYPE, s.SL_ORDER_TYPE,
                s.TP_LIMIT_PRICE, s.SL_LIMIT_PRICE, s.TRIGGER_BY, s.TRIGGER_PRICE, s.TRIGGER_ORDER_TYPE, s.TRIGGER_ORDER_PRICE, s.PARAMS,
                s.CREATED_TIME, s.UPDATED_TIME).values((Long) null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null));
        for (StrategyOrder o : orders) {
            batch.bind(o.orderId(), o.uid(), o.clientOid(), o.category(), o.type().name(), o.symbol(), o.qty(), o.posSide(),
                    o.status(), o.triggerType(), o.tpTriggerBy(), o.slTriggerBy(), o.takeProfit(), o.stopLoss(), o.tpOrderType(),
                    o.slOrderType(), o.tpLimitPrice(), o.slLimitPrice(), o.triggerBy(), o.triggerPrice(), o.triggerOrderType(),
                    o.triggerOrderPrice(), o.params().isEmpty() ? null : paramsJson(o.params()), o.createdTime(), o.updatedTime());
        }
        batch.execute();
    }

    /** The order ID of uid's row with this seq, or null. */
    Long orderIdOfSeq(DSLContext dsl, long uid, long seq) {
        return dsl.select(STRATEGY_ORDER.ORDER_ID).from(STRATEGY_ORDER)
                .where(STRATEGY_ORDER.SEQ.eq(seq).and(STRATEGY_ORDER.UID.eq(uid))).fetchOne(STRATEGY_ORDER.ORDER_ID);
    }

    /** Newest first (by order ID), finished orders only, below the cursor's order ID. */
    List<StrategyOrder> history(DSLContext dsl, long uid, String category, String type, long from, long to, Long belowOrderId, int limit) {
        Condition where = filter(uid, category, type).and(STRATEGY_ORDER.STATUS.notIn(StrategyOrder.OPEN_STATUSES))
                .and(STRATEGY_ORDER.CREATED_TIME.between(from, to));
        if (belowOrderId != null) where = where.and(STRATEGY_ORDER.ORDER_ID.lt(belowOrderId));
        return dsl.selectFrom(STRATEGY_ORDER).where(where).orderBy(STRATEGY_ORDER.ORDER_ID.desc()).limit(limit).fetch(StrategyStore::order);
    }

    /** Every working order, newest first. */
    /** uid's orders of these ids, oldest first. */
    List<StrategyOrder> byIds(DSLContext dsl, long uid, java.util.Collection<Long> ids) {
        return dsl.selectFrom(STRATEGY_ORDER).where(STRATEGY_ORDER.UID.eq(uid).and(STRATEGY_ORDER.ORDER_ID.in(ids)))
                .orderBy(STRATEGY_ORDER.ORDER_ID).fetch(StrategyStore::order);
    }

    List<StrategyOrder> open(DSLContext dsl, long uid, String category, String type) {
        return dsl.selectFrom(STRATEGY_ORDER).where(filter(uid, category, type).and(STRATEGY_ORDER.STATUS.in(StrategyOrder.OPEN_STATUSES)))
                .orderBy(STRATEGY_ORDER.ORDER_ID.desc()).fetch(StrategyStore::order);
    }

    /** Pending tpsl orders of one symbol placed through the API, oldest first (the engine checks their triggers, D159). */
    List<StrategyOrder> pendingTpsl(DSLContext dsl, String category, String symbol) {
        return dsl.select(STRATEGY_ORDER.fields()).from(STRATEGY_ORDER).join(io.tas.store.generated.Tables.TPSL_TRIGGER)
                .on(io.tas.store.generated.Tables.TPSL_TRIGGER.ORDER_ID.eq(STRATEGY_ORDER.ORDER_ID))
                .where(STRATEGY_ORDER.CATEGORY.eq(category), STRATEGY_ORDER.SYMBOL.eq(symbol),
                        STRATEGY_ORDER.ORDER_TYPE.eq("tpsl"), STRATEGY_ORDER.STATUS.eq("pending"))
                .orderBy(STRATEGY_ORDER.ORDER_ID).fetch(r -> order(r.into(STRATEGY_ORDER)));
    }

    /** Marks an order as one the engine triggers (placed through place-strategy-order). */
    void markTriggered(DSLContext dsl, long uid, long orderId) {
        dsl.insertInto(io.tas.store.generated.Tables.TPSL_TRIGGER).set(io.tas.store.generated.Tables.TPSL_TRIGGER.ORDER_ID, orderId)
                .set(io.tas.store.generated.Tables.TPSL_TRIGGER.UID, uid).execute();
    }

    /** uid's working order with this orderId (wins) or clientOid, the newest when a clientOid names several, locked. */
    java.util.Optional<StrategyOrder> findOpen(DSLContext dsl, long uid, Long orderId, String clientOid) {
        Condition c = STRATEGY_ORDER.UID.eq(uid).and(orderId != null ? STRATEGY_ORDER.ORDER_ID.eq(orderId) : STRATEGY_ORDER.CLIENT_OID.eq(clientOid))
                .and(STRATEGY_ORDER.STATUS.in(StrategyOrder.OPEN_STATUSES));
        return dsl.selectFrom(STRATEGY_ORDER).where(c).orderBy(STRATEGY_ORDER.ORDER_ID.desc()).limit(1).forUpdate()
                .fetchOptional().map(StrategyStore::order);
    }

    /** Moves a pending order to a final status; false when it was no longer pending (another node or a cancel won). */
    boolean finish(DSLContext dsl, long uid, long orderId, String status, long now) {
        return dsl.update(STRATEGY_ORDER).set(STRATEGY_ORDER.STATUS, status).set(STRATEGY_ORDER.UPDATED_TIME, now)
                .where(STRATEGY_ORDER.UID.eq(uid), STRATEGY_ORDER.ORDER_ID.eq(orderId), STRATEGY_ORDER.STATUS.in(StrategyOrder.OPEN_STATUSES))
                .execute() == 1;
    }

    /** Working orders per account, for accounts that have any. */
    Map<Long, Integer> openCounts(DSLContext dsl, Collection<Long> uids) {
        Map<Long, Integer> out = new HashMap<>();
        dsl.select(STRATEGY_ORDER.UID, org.jooq.impl.DSL.count()).from(STRATEGY_ORDER)
                .where(STRATEGY_ORDER.UID.in(uids).and(STRATEGY_ORDER.STATUS.in(StrategyOrder.OPEN_STATUSES)))
                .groupBy(STRATEGY_ORDER.UID)
                .forEach(r -> out.put(r.value1(), r.value2()));
        return out;
    }

    private static Condition filter(long uid, String category, String type) {
        Condition c = STRATEGY_ORDER.UID.eq(uid).and(STRATEGY_ORDER.CATEGORY.eq(category));
        return type == null ? c : c.and(STRATEGY_ORDER.ORDER_TYPE.eq(type));
    }

    private static StrategyOrder order(StrategyOrderRecord r) {
        Type type = Type.fromWire(r.getOrderType());
        return new StrategyOrder(r.getOrderId(), r.getSeq(), r.getUid(), r.getClientOid(), r.getCategory(), type, r.getSymbol(),
                r.getQty(), r.getPosSide(), r.getStatus(), r.getTriggerType(), r.getTpTriggerBy(), r.getSlTriggerBy(),
                r.getTakeProfit(), r.getStopLoss(), r.getTpOrderType(), r.getSlOrderType(), r.getTpLimitPrice(), r.getSlLimitPrice(),
                r.getTriggerBy(), r.getTriggerPrice(), r.getTriggerOrderType(), r.getTriggerOrderPrice(), params(type, r.getParams()),
                r.getCreatedTime(), r.getUpdatedTime());
    }
}
