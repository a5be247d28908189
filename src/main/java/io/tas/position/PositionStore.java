package io.tas.position;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.position.Position.HoldSide;
import io.tas.position.Position.Status;
import io.tas.store.generated.tables.records.FuturesPositionRecord;
import org.jooq.DSLContext;

import java.math.BigDecimal;

import java.util.List;
import java.util.Optional;

import static io.tas.store.generated.Tables.FUTURES_POSITION;

/** SQL for futures positions. */
final class PositionStore {

    void insert(DSLContext dsl, Position p) {
        dsl.insertInto(FUTURES_POSITION).set(toRecord(dsl, p)).execute();
    }

    void update(DSLContext dsl, Position p) {
        dsl.update(FUTURES_POSITION).set(toRecord(dsl, p)).where(FUTURES_POSITION.ID.eq(p.id())).execute();
    }

    /** A prepared batch insert (pgjdbc rewrites it into multi-row INSERTs, D27). */
    void insertAll(DSLContext dsl, List<Position> positions) {
        List<FuturesPositionRecord> records = new java.util.ArrayList<>(positions.size());
        for (Position p : positions) records.add(toRecord(dsl, p));
        for (int from = 0; from < records.size(); from += 1000) {
            dsl.batchInsert(records.subList(from, Math.min(records.size(), from + 1000))).execute();
        }
    }

    /** Which of these position ids are taken. */
    java.util.Set<Long> existingIds(DSLContext dsl, java.util.Collection<Long> ids) {
        return new java.util.HashSet<>(dsl.select(FUTURES_POSITION.ID).from(FUTURES_POSITION).where(FUTURES_POSITION.ID.in(ids)).fetch(FUTURES_POSITION.ID));
    }

    /**
     * Closed positions of the account, newest id first: category (null: any) and symbol (null: any), closed
     * (updated_time) within [start, end], ids strictly below idBelow when given. Served by futures_position_by_uid.
     */
    List<Position> closedPage(DSLContext dsl, long uid, Category category, String symbol, long start, long end, Long idBelow, int limit) {
        org.jooq.Condition c = FUTURES_POSITION.UID.eq(uid).and(FUTURES_POSITION.STATUS.eq(Status.closed.name()))
                .and(FUTURES_POSITION.UPDATED_TIME.between(start, end));
        if (category != null) c = c.and(FUTURES_POSITION.CATEGORY.eq(category.wire()));
        if (symbol != null) c = c.and(FUTURES_POSITION.SYMBOL.eq(symbol));
        if (idBelow != null) c = c.and(FUTURES_POSITION.ID.lt(idBelow));
        return dsl.selectFrom(FUTURES_POSITION).where(c).orderBy(FUTURES_POSITION.ID.desc()).limit(limit).fetch(PositionStore::toPosition);
    }

    /** The account's open positions of one contract, locked for this transaction (taken after the account's lock). */
    List<Position> lockOpen(DSLContext dsl, long uid, Category category, String symbol) {
        return dsl.selectFrom(FUTURES_POSITION).where(FUTURES_POSITION.UID.eq(uid)
                        .and(FUTURES_POSITION.STATUS.eq(Status.open.name()))
                        .and(FUTURES_POSITION.CATEGORY.eq(category.wire()))
                        .and(FUTURES_POSITION.SYMBOL.eq(symbol)))
                .orderBy(FUTURES_POSITION.ID).forUpdate().fetch(PositionStore::toPosition);
    }

    /** The contracts each account holds open positions in, as SettingsChange.Exposure keys (one statement). */
    java.util.Map<Long, java.util.Set<String>> openContracts(DSLContext dsl, java.util.Collection<Long> uids) {
        java.util.Map<Long, java.util.Set<String>> out = new java.util.HashMap<>();
        dsl.selectDistinct(FUTURES_POSITION.UID, FUTURES_POSITION.CATEGORY, FUTURES_POSITION.SYMBOL).from(FUTURES_POSITION)
                .where(FUTURES_POSITION.UID.in(uids).and(FUTURES_POSITION.STATUS.eq(Status.open.name())))
                .forEach(r -> out.computeIfAbsent(r.value1(), u -> new java.util.HashSet<>())
                        .add(io.tas.account.SettingsChange.Exposure.contract(Category.fromWire(r.value2()), r.value3())));
        return out;
    }

    /** The account a position belongs to (never changes), without a lock. */
    Optional<Long> owner(DSLContext dsl, long id) {
        return dsl.select(FUTURES_POSITION.UID).from(FUTURES_POSITION).where(FUTURES_POSITION.ID.eq(id)).fetchOptional(FUTURES_POSITION.UID);
    }

    /** The position, locked for this transaction. */
    Optional<Position> lock(DSLContext dsl, long id) {
        return dsl.selectFrom(FUTURES_POSITION).where(FUTURES_POSITION.ID.eq(id)).forUpdate().fetchOptional().map(PositionStore::toPosition);
    }

    Optional<Position> findOpen(DSLContext dsl, long uid, Category category, String symbol, HoldSide side) {
        return dsl.selectFrom(FUTURES_POSITION).where(FUTURES_POSITION.UID.eq(uid)
                        .and(FUTURES_POSITION.STATUS.eq(Status.open.name()))
                        .and(FUTURES_POSITION.CATEGORY.eq(category.wire()))
                        .and(FUTURES_POSITION.SYMBOL.eq(symbol))
                        .and(FUTURES_POSITION.HOLD_SIDE.eq(side.wire())))
                .fetchOptional().map(PositionStore::toPosition);
    }

    /** The accounts with an open position in a contract (futures_position_open_by_symbol). */
    List<Long> holders(DSLContext dsl, String category, String symbol) {
        return dsl.selectDistinct(FUTURES_POSITION.UID).from(FUTURES_POSITION).where(FUTURES_POSITION.CATEGORY.eq(category)
                .and(FUTURES_POSITION.SYMBOL.eq(symbol)).and(FUTURES_POSITION.STATUS.eq(Status.open.name()))).fetch(FUTURES_POSITION.UID);
    }

    /** The positions of these accounts in a status, each account's newest first (a stream drain's one read). */
    List<Position> byStatus(DSLContext dsl, java.util.Collection<Long> uids, Status status) {
        return dsl.selectFrom(FUTURES_POSITION).where(FUTURES_POSITION.UID.in(uids).and(FUTURES_POSITION.STATUS.eq(status.name())))
                .orderBy(FUTURES_POSITION.UID, FUTURES_POSITION.ID.desc()).fetch(PositionStore::toPosition);
    }

    List<Position> byStatus(DSLContext dsl, long uid, Status status) {
        return dsl.selectFrom(FUTURES_POSITION).where(FUTURES_POSITION.UID.eq(uid).and(FUTURES_POSITION.STATUS.eq(status.name())))
                .orderBy(FUTURES_POSITION.ID.desc()).fetch(PositionStore::toPosition);
    }

    /**
     * Every amount is stored exactly as the service holds it: a value with more decimals than its column would be
     * rounded by the database (HALF_UP) differently from the code (HALF_EVEN), so it is a programming error here.
     * A value too large for the column (a product of inputs that each fit, such as the close value) is the
     * caller's: 40808, and the transaction rolls back.
     */
    private static final BigDecimal LIMIT = BigDecimal.TEN.pow(io.tas.ledger.Ledger.MAX_INTEGER_DIGITS);

    private static BigDecimal exact(String name, BigDecimal v, int scale) {
        if (v.stripTrailingZeros().scale() > scale) throw new IllegalStateException(name + " has more than " + scale + " decimals: " + v);
        if (v.abs().compareTo(LIMIT) >= 0) {
            throw new io.tas.error.ApiException(io.tas.error.ErrorCode.PARAM_VERIFICATION_EXCEPTION,
                    name + " would exceed " + io.tas.ledger.Ledger.MAX_INTEGER_DIGITS + " integer digits");
        }
        return v;
    }

    private static FuturesPositionRecord toRecord(DSLContext dsl, Position p) {
        int s = io.tas.ledger.Ledger.SCALE;
        exact("leverage", p.leverage(), 2);
        exact("size", p.size(), s);
        exact("locked", p.locked(), s);
        exact("openPriceAvg", p.openPriceAvg(), s);
        exact("marginSize", p.marginSize(), s);
        exact("achievedProfits", p.achievedProfits(), s);
        exact("totalFunding", p.totalFunding(), s);
        exact("openFeeTotal", p.openFeeTotal(), s);
        exact("closeFeeTotal", p.closeFeeTotal(), s);
        exact("openTotal", p.openTotal(), s);
        exact("closeTotal", p.closeTotal(), s);
        exact("closeValue", p.closeValue(), s);
        FuturesPositionRecord r = dsl.newRecord(FUTURES_POSITION);
        r.setId(p.id());
        r.setUid(p.uid());
        r.setCategory(p.category().wire());
        r.setSymbol(p.symbol());
        r.setMarginCoin(p.marginCoin());
        r.setHoldSide(p.holdSide().wire());
        r.setMarginMode(p.marginMode().name());
        r.setPosMode(p.posMode().name());
        r.setLeverage(p.leverage());
        r.setSize(p.size());
        r.setLocked(p.locked());
        r.setOpenPriceAvg(p.openPriceAvg());
        r.setMarginSize(p.marginSize());
        r.setAchievedProfits(p.achievedProfits());
        r.setTotalFunding(p.totalFunding());
        r.setOpenFeeTotal(p.openFeeTotal());
        r.setCloseFeeTotal(p.closeFeeTotal());
        r.setOpenTotal(p.openTotal());
        r.setCloseTotal(p.closeTotal());
        r.setCloseValue(p.closeValue());
        r.setAutoMargin(p.autoMargin());
        r.setStatus(p.status().name());
        r.setCreatedTime(p.createdTime());
        r.setUpdatedTime(p.updatedTime());
        return r;
    }

    private static Position toPosition(FuturesPositionRecord r) {
        return new Position(r.getId(), r.getUid(), Category.fromWire(r.getCategory()), r.getSymbol(), r.getMarginCoin(),
                HoldSide.fromWire(r.getHoldSide()), MarginMode.valueOf(r.getMarginMode()), HoldMode.valueOf(r.getPosMode()),
                r.getLeverage(), r.getSize(), r.getLocked(), r.getOpenPriceAvg(), r.getMarginSize(), r.getAchievedProfits(),
                r.getTotalFunding(), r.getOpenFeeTotal(), r.getCloseFeeTotal(), r.getOpenTotal(), r.getCloseTotal(),
                r.getCloseValue(), r.getAutoMargin(), Status.valueOf(r.getStatus()), r.getCreatedTime(), r.getUpdatedTime());
    }
}
