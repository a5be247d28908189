package io.tas.spot;

import org.jooq.Condition;
import org.jooq.DSLContext;

import java.util.List;

import static io.tas.store.generated.Tables.DEPOSIT_RECORD;

/** SQL of deposit records (V11). */
final class DepositStore {

    /** One prepared statement executed as a JDBC batch, as SpotStore. */
    void insert(DSLContext dsl, List<Deposit> rows) {
        if (rows.isEmpty()) return;
        var d = DEPOSIT_RECORD;
        var batch = dsl.batch(dsl.insertInto(d, d.UID, d.ORDER_ID, d.RECORD_ID, d.COIN, d.DEST, d.SIZE, d.STATUS, d.FROM_ADDRESS,
                d.TO_ADDRESS, d.CHAIN, d.C_TIME, d.U_TIME).values((Long) null, null, null, null, null, null, null, null, null, null, null, null));
        for (Deposit r : rows) {
            batch.bind(r.uid(), r.orderId(), r.recordId(), r.coin(), r.dest(), r.size(), r.status(), r.fromAddress(), r.toAddress(),
                    r.chain(), r.cTime(), r.uTime());
        }
        batch.execute();
    }

    List<Long> existingIds(DSLContext dsl, long uid, List<Long> ids) {
        if (ids.isEmpty()) return List.of();
        return dsl.select(DEPOSIT_RECORD.ORDER_ID).from(DEPOSIT_RECORD)
                .where(DEPOSIT_RECORD.UID.eq(uid).and(DEPOSIT_RECORD.ORDER_ID.in(ids))).fetch(DEPOSIT_RECORD.ORDER_ID);
    }

    /** beyond-spec shapes §10: newest orderId first, strictly below the cursor, inside [from, to] on createdTime. */
    List<Deposit> page(DSLContext dsl, long uid, String coin, Long orderId, long from, long to, Long below, int limit) {
        var d = DEPOSIT_RECORD;
        Condition where = d.UID.eq(uid).and(d.C_TIME.between(from, to));
        if (coin != null) where = where.and(d.COIN.eq(coin));
        if (orderId != null) where = where.and(d.ORDER_ID.eq(orderId));
        if (below != null) where = where.and(d.ORDER_ID.lt(below));
        return dsl.selectFrom(d).where(where).orderBy(d.ORDER_ID.desc()).limit(limit)
                .fetch(r -> new Deposit(r.getUid(), r.getOrderId(), r.getRecordId(), r.getCoin(), r.getDest(), r.getSize(), r.getStatus(),
                        r.getFromAddress(), r.getToAddress(), r.getChain(), r.getCTime(), r.getUTime()));
    }
}
