package io.tas.convert;

import io.tas.store.generated.tables.records.ConvertOrderRecord;
import org.jooq.Condition;
import org.jooq.DSLContext;

import java.util.List;

import static io.tas.store.generated.Tables.CONVERT_ORDER;

/** SQL for convert orders. */
final class ConvertStore {

    /** The coins of one trade as records, inserted by the ledger with its own writes. */
    List<ConvertOrderRecord> records(List<ConvertOrder> orders) {
        return orders.stream().map(o -> new ConvertOrderRecord(o.orderId(), o.fromCoin(), o.uid(), o.fromAmount(), o.fromCoinPrice(),
                o.toCoin(), o.toAmount(), o.toCoinPrice(), o.fee(), o.feeCoin(), o.status(), o.createdTime())).toList();
    }

    /** The newest `limit` orders (all their coins) matching the filter, below the cursor. */
    List<ConvertOrder> page(DSLContext dsl, long uid, Long orderId, long from, long to, Long cursorBelow, int limit) {
        Condition where = CONVERT_ORDER.UID.eq(uid).and(CONVERT_ORDER.CREATED_TIME.between(from, to));
        if (orderId != null) where = where.and(CONVERT_ORDER.ORDER_ID.eq(orderId));
        if (cursorBelow != null) where = where.and(CONVERT_ORDER.ORDER_ID.lt(cursorBelow));
        List<Long> ids = dsl.selectDistinct(CONVERT_ORDER.ORDER_ID).from(CONVERT_ORDER).where(where)
                .orderBy(CONVERT_ORDER.ORDER_ID.desc()).limit(limit).fetch(CONVERT_ORDER.ORDER_ID);
        if (ids.isEmpty()) return List.of();
        return dsl.selectFrom(CONVERT_ORDER).where(CONVERT_ORDER.ORDER_ID.in(ids).and(CONVERT_ORDER.UID.eq(uid)))
                .orderBy(CONVERT_ORDER.ORDER_ID.desc(), CONVERT_ORDER.FROM_COIN)
                .fetch(r -> new ConvertOrder(r.getOrderId(), r.getUid(), r.getFromCoin(), r.getFromAmount(), r.getFromCoinPrice(),
                        r.getToCoin(), r.getToAmount(), r.getToCoinPrice(), r.getFee(), r.getFeeCoin(), r.getStatus(), r.getCreatedTime()));
    }
}
