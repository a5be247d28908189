package io.tas.convert;

import org.jooq.Condition;
import org.jooq.DSLContext;

import java.util.List;

import static io.tas.store.generated.Tables.CONVERT_ORDER;

/** SQL for convert orders. */
final class ConvertStore {

    void insert(DSLContext dsl, ConvertOrder o) {
        dsl.insertInto(CONVERT_ORDER)
                .set(CONVERT_ORDER.ORDER_ID, o.orderId()).set(CONVERT_ORDER.FROM_COIN, o.fromCoin()).set(CONVERT_ORDER.UID, o.uid())
                .set(CONVERT_ORDER.FROM_AMOUNT, o.fromAmount()).set(CONVERT_ORDER.FROM_COIN_PRICE, o.fromCoinPrice())
                .set(CONVERT_ORDER.TO_COIN, o.toCoin()).set(CONVERT_ORDER.TO_AMOUNT, o.toAmount())
                .set(CONVERT_ORDER.TO_COIN_PRICE, o.toCoinPrice()).set(CONVERT_ORDER.FEE, o.fee())
                .set(CONVERT_ORDER.FEE_COIN, o.feeCoin()).set(CONVERT_ORDER.STATUS, o.status())
                .set(CONVERT_ORDER.CREATED_TIME, o.createdTime())
                .execute();
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
