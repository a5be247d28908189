package io.tas.spot;

import org.jooq.Condition;
import io.tas.store.PgCopy;
import org.jooq.DSLContext;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import static io.tas.store.generated.Tables.SPOT_FILL;
import static io.tas.store.generated.Tables.WITHDRAWAL_RECORD;

/** SQL of fills and withdrawal records. */
final class SpotStore {

    private static final PgCopy.Shape FILL_ROW = PgCopy.shape(SPOT_FILL, List.of(SPOT_FILL.UID, SPOT_FILL.TRADE_ID, SPOT_FILL.ORDER_ID,
            SPOT_FILL.SYMBOL, SPOT_FILL.ORDER_TYPE, SPOT_FILL.SIDE, SPOT_FILL.PRICE_AVG, SPOT_FILL.SIZE, SPOT_FILL.AMOUNT,
            SPOT_FILL.TRADE_SCOPE, SPOT_FILL.DEDUCTION, SPOT_FILL.FEE_COIN, SPOT_FILL.TOTAL_DEDUCTION_FEE, SPOT_FILL.TOTAL_FEE,
            SPOT_FILL.C_TIME, SPOT_FILL.U_TIME, SPOT_FILL.CATEGORY, SPOT_FILL.EXEC_PNL, SPOT_FILL.WIRE_JSON));

    /**
     * Every fill is stored here, with its wire JSON (D75), in one statement (PgCopy.insert: a COPY for a large batch on
     * PostgreSQL, the 1M-fill ingest; D170, D213 for the engine's group commits of a few fills each).
     */
    void insertFills(DSLContext dsl, List<SpotFill> fills) {
        PgCopy.insert(dsl, FILL_ROW, fills.stream().map(f -> new Object[]{f.uid(), f.tradeId(), f.orderId(), f.symbol(), f.orderType(),
                f.side(), f.priceAvg(), f.size(), f.amount(), f.tradeScope(), f.deduction(), f.feeCoin(), f.totalDeductionFee(),
                f.totalFee(), f.cTime(), f.uTime(), f.category(), f.execPnl(), FillWire.json(f)}).toList());
    }

    void insertWithdrawals(DSLContext dsl, List<Withdrawal> rows) {
        if (rows.isEmpty()) return;
        var w = WITHDRAWAL_RECORD;
        var batch = dsl.batch(dsl.insertInto(w, w.UID, w.ORDER_ID, w.TRADE_ID, w.COIN, w.CLIENT_OID, w.RECORD_TYPE, w.DEST, w.SIZE, w.FEE,
                w.STATUS, w.FROM_ADDRESS, w.TO_ADDRESS, w.CHAIN, w.CONFIRM, w.TAG, w.C_TIME, w.U_TIME)
                .values((Long) null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null));
        for (Withdrawal r : rows) {
            batch.bind(r.uid(), r.orderId(), r.tradeId(), r.coin(), r.clientOid(), r.type(), r.dest(), r.size(), r.fee(), r.status(),
                    r.fromAddress(), r.toAddress(), r.chain(), r.confirm(), r.tag(), r.cTime(), r.uTime());
        }
        batch.execute();
    }

    /** Which of the given trade IDs the account already has (a feed's own IDs must not collide). */
    List<Long> existingTradeIds(DSLContext dsl, long uid, List<Long> ids) {
        if (ids.isEmpty()) return List.of();
        return dsl.select(SPOT_FILL.TRADE_ID).from(SPOT_FILL).where(SPOT_FILL.UID.eq(uid).and(SPOT_FILL.TRADE_ID.in(ids))).fetch(SPOT_FILL.TRADE_ID);
    }

    List<Long> existingWithdrawalIds(DSLContext dsl, long uid, List<Long> ids) {
        if (ids.isEmpty()) return List.of();
        return dsl.select(WITHDRAWAL_RECORD.ORDER_ID).from(WITHDRAWAL_RECORD)
                .where(WITHDRAWAL_RECORD.UID.eq(uid).and(WITHDRAWAL_RECORD.ORDER_ID.in(ids))).fetch(WITHDRAWAL_RECORD.ORDER_ID);
    }

    /**
     * §4.5.1: newest tradeId first, strictly below the cursor, inside [from, to] on cTime, each fill as its stored wire
     * JSON (D75), as the driver's bytes: plain JDBC, not jOOQ, because this is the paging hot path (issue 9: no record
     * objects, no SQL rendering, no String decoding and encoding again; D108).
     */
    List<byte[]> fillJson(DSLContext dsl, long uid, String symbol, Long orderId, long from, long to, Long idLessThan, int limit) {
        // Spot fills only: an account switched from unified to classic keeps its futures and margin fills off this row.
        StringBuilder sql = new StringBuilder("select wire_json from spot_fill where uid = ? and c_time between ? and ? and category = 'SPOT'");
        if (symbol != null) sql.append(" and symbol = ?");
        if (orderId != null) sql.append(" and order_id = ?");
        if (idLessThan != null) sql.append(" and trade_id < ?");
        sql.append(" order by trade_id desc limit ?");
        // Plain JDBC skips jOOQ's execute listener (D31's guard); the one caller reads through Database.read, which checks.
        return dsl.connectionResult(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                int i = 1;
                ps.setLong(i++, uid);
                ps.setLong(i++, from);
                ps.setLong(i++, to);
                if (symbol != null) ps.setString(i++, symbol);
                if (orderId != null) ps.setLong(i++, orderId);
                if (idLessThan != null) ps.setLong(i++, idLessThan);
                ps.setInt(i, limit);
                List<byte[]> page = new ArrayList<>(limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) page.add(rs.getBytes(1)); // text as UTF-8 bytes, undecoded on PostgreSQL
                }
                return page;
            }
        });
    }

    /** beyond-spec shapes §9 (v3 fills): as fills, with a category filter instead of the symbol one. */
    List<SpotFill> fillsV3(DSLContext dsl, long uid, String category, Long orderId, long from, long to, Long below, int limit) {
        Condition where = SPOT_FILL.UID.eq(uid).and(SPOT_FILL.C_TIME.between(from, to));
        if (category != null) where = where.and(SPOT_FILL.CATEGORY.eq(category));
        if (orderId != null) where = where.and(SPOT_FILL.ORDER_ID.eq(orderId));
        if (below != null) where = where.and(SPOT_FILL.TRADE_ID.lt(below));
        return dsl.selectFrom(SPOT_FILL).where(where).orderBy(SPOT_FILL.TRADE_ID.desc()).limit(limit).fetch(SpotStore::toFill);
    }

    /** Some accounts' fills of some orders from cTime `since` on, oldest first (the spot_fill_order index). */
    List<SpotFill> fillsOfOrders(DSLContext dsl, java.util.Collection<Long> uids, java.util.Collection<Long> orderIds, long since) {
        return dsl.selectFrom(SPOT_FILL).where(SPOT_FILL.UID.in(uids), SPOT_FILL.ORDER_ID.in(orderIds), SPOT_FILL.C_TIME.ge(since))
                .orderBy(SPOT_FILL.TRADE_ID).fetch(SpotStore::toFill);
    }

    private static SpotFill toFill(io.tas.store.generated.tables.records.SpotFillRecord r) {
        return new SpotFill(r.getUid(), r.getTradeId(), r.getOrderId(), r.getSymbol(), r.getOrderType(), r.getSide(), r.getPriceAvg(),
                r.getSize(), r.getAmount(), r.getTradeScope(), r.getDeduction(), r.getFeeCoin(), r.getTotalDeductionFee(), r.getTotalFee(),
                r.getCTime(), r.getUTime(), r.getCategory(), r.getExecPnl());
    }

    /** §4.5.2: newest orderId first, strictly below the cursor, inside [from, to] on cTime. */
    List<Withdrawal> withdrawals(DSLContext dsl, long uid, String coin, String clientOid, Long orderId, long from, long to,
                                 Long idLessThan, int limit) {
        var w = WITHDRAWAL_RECORD;
        Condition where = w.UID.eq(uid).and(w.C_TIME.between(from, to));
        if (coin != null) where = where.and(w.COIN.eq(coin));
        if (clientOid != null) where = where.and(w.CLIENT_OID.eq(clientOid));
        if (orderId != null) where = where.and(w.ORDER_ID.eq(orderId));
        if (idLessThan != null) where = where.and(w.ORDER_ID.lt(idLessThan));
        return dsl.selectFrom(w).where(where).orderBy(w.ORDER_ID.desc()).limit(limit)
                .fetch(r -> new Withdrawal(r.getUid(), r.getOrderId(), r.getTradeId(), r.getCoin(), r.getClientOid(), r.getRecordType(),
                        r.getDest(), r.getSize(), r.getFee(), r.getStatus(), r.getFromAddress(), r.getToAddress(), r.getChain(),
                        r.getConfirm(), r.getTag(), r.getCTime(), r.getUTime()));
    }
}
