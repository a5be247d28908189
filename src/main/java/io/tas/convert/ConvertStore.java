package io.tas.convert;

import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Query;

import java.util.List;

import static io.tas.store.generated.Tables.CONVERT_ORDER;

/** SQL for convert orders. */
final class ConvertStore {

    /** The coins of one trade in one statement (sent with the ledger's writes). */
    Query insert(DSLContext dsl, List<ConvertOrder> orders) {
        var insert = dsl.insertInto(CONVERT_ORDER, CONVERT_ORDER.ORDER_ID, CONVERT_ORDER.FROM_COIN, CONVERT_ORDER.UID,
                CONVERT_ORDER.FROM_AMOUNT, CONVERT_ORDER.FROM_COIN_PRICE, CONVERT_ORDER.TO_COIN, CONVERT_ORDER.TO_AMOUNT,
                CONVERT_ORDER.TO_COIN_PRICE, CONVERT_ORDER.FEE, CONVERT_ORDER.FEE_COIN, CONVERT_ORDER.STATUS, CONVERT_ORDER.CREATED_TIME);
        for (ConvertOrder o : orders) {
            insert = insert.values(o.orderId(), o.fromCoin(), o.uid(), o.fromAmount(), o.fromCoinPrice(), o.toCoin(), o.toAmount(),
                    o.toCoinPrice(), o.fee(), o.feeCoin(), o.status(), o.createdTime());
        }
        return insert;
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
