package io.tas.position;

import com.fasterxml.jackson.annotation.JsonAlias;
import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.account.AccountService;
import io.tas.common.TimeWindow;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.position.Position.HoldSide;
import io.tas.position.Position.Status;
import io.tas.store.Database;
import io.tas.store.IdGenerator;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * History positions (§2.14, §2.16): closed rows of futures_position. Positions the money core closes become history
 * themselves; closed positions a matching engine reports are ingested here in all-or-nothing batches. Reads page
 * by position id, newest first, inside a time window on the close time (updatedTime).
 */
public final class PositionHistory {
    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final AccountService accounts;
    private final MarketService market;
    private final PositionStore store = new PositionStore();

    public PositionHistory(Database db, Clock clock, IdGenerator ids, AccountService accounts, MarketService market) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.accounts = accounts;
        this.market = market;
    }

    /**
     * One closed position as a matching engine reports it. Field names are §2.16's; §2.14's are accepted as aliases.
     * Fees and funding are signed (paid is negative), so netProfit = pnl + totalFunding + openFee + closeFee.
     */
    public record HistoryRecord(Long positionId, Long uid, String category, String symbol, String marginCoin,
                                @JsonAlias("posSide") String holdSide, String marginMode, @JsonAlias("holdMode") String posMode,
                                BigDecimal leverage,
                                @JsonAlias("openPriceAvg") BigDecimal openAvgPrice, @JsonAlias("closePriceAvg") BigDecimal closeAvgPrice,
                                BigDecimal openTotalPos, BigDecimal closeTotalPos,
                                @JsonAlias("cumRealisedPnl") BigDecimal pnl, BigDecimal netProfit, BigDecimal totalFunding,
                                @JsonAlias("openFeeTotal") BigDecimal openFee, @JsonAlias("closeFeeTotal") BigDecimal closeFee,
                                BigDecimal cashDividend,
                                @JsonAlias({"createdTime", "cTime"}) Long ctime, @JsonAlias({"updatedTime", "uTime"}) Long utime) {
        public HistoryRecord withUid(long u) {
            return new HistoryRecord(positionId, u, category, symbol, marginCoin, holdSide, marginMode, posMode, leverage,
                    openAvgPrice, closeAvgPrice, openTotalPos, closeTotalPos, pnl, netProfit, totalFunding, openFee, closeFee,
                    cashDividend, ctime, utime);
        }
    }

    /** The admin batch body. */
    public record Batch(List<HistoryRecord> records) {}

    public record Ingested(int count, List<String> positionIds) {}

    /**
     * All or nothing: every record is checked before anything is stored; the first invalid one is refused naming its
     * index and field (40017 rule or missing field, 40020 bad value, 40808 a number the ledger cannot hold), and
     * nothing of the batch is stored. Valid batches go in as one prepared batch insert in one transaction.
     */
    public Ingested ingest(List<HistoryRecord> records) {
        List<Position> rows = checked(records);
        return db.tx(tx -> store(tx, rows));
    }

    /** As ingest, in the caller's transaction (a seed). */
    public Ingested ingest(io.tas.store.Tx tx, List<HistoryRecord> records) {
        return store(tx, checked(records));
    }

    private List<Position> checked(List<HistoryRecord> records) {
        if (records == null || records.isEmpty()) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "records is empty");
        long now = clock.millis();
        List<Position> rows = new ArrayList<>(records.size());
        Set<Long> given = new HashSet<>();
        for (int i = 0; i < records.size(); i++) {
            Position p = check(records.get(i), "records[" + i + "].", now);
            if (p.id() != 0 && !given.add(p.id())) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "records[" + i + "].positionId " + p.id() + " is repeated in the batch");
            }
            rows.add(p);
        }
        return rows;
    }

    private Ingested store(io.tas.store.Tx tx, List<Position> rows) {
        org.jooq.DSLContext dsl = tx.dsl();
        Set<Long> given = new HashSet<>();
        for (Position p : rows) if (p.id() != 0) given.add(p.id());
        {
            if (!given.isEmpty()) {
                Set<Long> taken = store.existingIds(dsl, given);
                for (int i = 0; i < rows.size(); i++) {
                    if (taken.contains(rows.get(i).id())) {
                        throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "records[" + i + "].positionId " + rows.get(i).id() + " already exists");
                    }
                }
            }
            List<Position> stored = new ArrayList<>(rows.size());
            for (Position p : rows) stored.add(p.id() != 0 ? p : withId(p, ids.next()));
            // A concurrent batch may store one of the given ids between the check above and this insert.
            Database.insertUnique(() -> store.insertAll(dsl, stored), "records: a given positionId already exists");
            return new Ingested(stored.size(), stored.stream().map(p -> Long.toString(p.id())).toList());
        }
    }

    private Position check(HistoryRecord r, String at, long now) {
        if (r == null) throw failed(at + "record", "is empty");
        long id = 0;
        if (r.positionId() != null) {
            if (r.positionId() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "positionId");
            id = r.positionId();
        }
        long uid = required(r.uid(), at + "uid");
        if (accounts.find(uid).isEmpty()) throw failed(at + "uid", uid + " does not exist");
        Category category = parse(() -> Category.fromWire(required(r.category(), at + "category")), at + "category");
        if (!category.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, at + "category");
        String symbol = required(r.symbol(), at + "symbol");
        io.tas.common.Inputs.symbol(at + "symbol", symbol);
        Instrument inst;
        try {
            inst = market.instrument(category, symbol);
        } catch (ApiException e) {
            throw failed(at + "symbol", symbol + " is not a " + category.wire() + " instrument");
        }
        String marginCoin = r.marginCoin() == null ? inst.marginCoin() : r.marginCoin();
        if (!io.tas.common.Inputs.isCoin(marginCoin)) throw new ApiException(ErrorCode.PARAM_ERROR, at + "marginCoin");
        HoldSide side = parse(() -> HoldSide.fromWire(required(r.holdSide(), at + "holdSide")), at + "holdSide");
        MarginMode marginMode = r.marginMode() == null ? MarginMode.crossed : parse(() -> MarginMode.valueOf(r.marginMode()), at + "marginMode");
        HoldMode posMode = r.posMode() == null ? HoldMode.one_way_mode : parse(() -> HoldMode.valueOf(r.posMode()), at + "posMode");
        BigDecimal leverage = r.leverage() == null ? BigDecimal.ONE : Instrument.checkLeverage(at + "leverage", r.leverage());
        if (leverage.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "leverage");
        BigDecimal open = amount(required(r.openAvgPrice(), at + "openAvgPrice"), at + "openAvgPrice");
        if (open.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "openAvgPrice");
        BigDecimal openTotal = amount(required(r.openTotalPos(), at + "openTotalPos"), at + "openTotalPos");
        if (openTotal.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "openTotalPos");
        BigDecimal closeTotal = amount(r.closeTotalPos() == null ? openTotal : r.closeTotalPos(), at + "closeTotalPos");
        if (closeTotal.signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "closeTotalPos");
        if (closeTotal.compareTo(openTotal) > 0) throw failed(at + "closeTotalPos", "is more than openTotalPos");
        BigDecimal close = amount(r.closeAvgPrice() == null ? BigDecimal.ZERO : r.closeAvgPrice(), at + "closeAvgPrice");
        if (close.signum() < 0 || (close.signum() == 0 && closeTotal.signum() > 0)) throw new ApiException(ErrorCode.PARAM_ERROR, at + "closeAvgPrice");
        BigDecimal pnl = amount(or(r.pnl()), at + "pnl");
        BigDecimal funding = amount(or(r.totalFunding()), at + "totalFunding");
        BigDecimal openFee = amount(or(r.openFee()), at + "openFee");
        BigDecimal closeFee = amount(or(r.closeFee()), at + "closeFee");
        BigDecimal net = pnl.add(funding).add(openFee).add(closeFee);
        if (r.netProfit() != null && amount(r.netProfit(), at + "netProfit").compareTo(net) != 0) {
            throw failed(at + "netProfit", r.netProfit().toPlainString() + " is not pnl + totalFunding + openFee + closeFee = " + net.toPlainString());
        }
        amount(net, at + "netProfit");
        if (r.cashDividend() != null && amount(r.cashDividend(), at + "cashDividend").signum() != 0) {
            throw failed(at + "cashDividend", "must be 0 (no cash dividends are held)");
        }
        long utime = r.utime() == null ? now : r.utime();
        long ctime = r.ctime() == null ? utime : r.ctime();
        if (utime < 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "utime");
        if (ctime < 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "ctime");
        if (ctime > utime) throw failed(at + "ctime", "is after utime");
        BigDecimal closeValue = Ledger.scaled(close.multiply(closeTotal));
        amount(closeValue, at + "closeAvgPrice x closeTotalPos");
        return new Position(id, uid, category, symbol, marginCoin, side, marginMode, posMode, leverage.setScale(2),
                BigDecimal.ZERO, BigDecimal.ZERO, open, BigDecimal.ZERO, pnl, funding, openFee, closeFee, openTotal, closeTotal,
                closeValue, "off", Status.closed, ctime, utime);
    }

    private static Position withId(Position p, long id) {
        return new Position(id, p.uid(), p.category(), p.symbol(), p.marginCoin(), p.holdSide(), p.marginMode(), p.posMode(),
                p.leverage(), p.size(), p.locked(), p.openPriceAvg(), p.marginSize(), p.achievedProfits(), p.totalFunding(),
                p.openFeeTotal(), p.closeFeeTotal(), p.openTotal(), p.closeTotal(), p.closeValue(), p.autoMargin(), p.status(),
                p.createdTime(), p.updatedTime());
    }

    // --- reads

    /** A page of closed positions, newest id first, and whether older ones exist in the window. */
    public record Page(List<Position> list, boolean more) {}

    /** §4.4.1: the window rules (TimeWindow), then ids strictly below cursor. */
    public Page v3(long uid, Category category, String symbol, Long startTime, Long endTime, int limit, Long cursor, long now) {
        TimeWindow.Range w = TimeWindow.HISTORY_POSITION_V3.resolve(startTime, endTime, now);
        List<Position> rows = db.read(dsl -> store.closedPage(dsl, uid, category, symbol, w.from(), w.to(), cursor, limit + 1));
        return rows.size() > limit ? new Page(rows.subList(0, limit), true) : new Page(rows, false);
    }

    /** §4.4.2: symbol (any product type) wins over productType; at most 3 months, the default range (TimeWindow). */
    public Page v2(long uid, Category productType, String symbol, Long startTime, Long endTime, int limit, Long idLessThan, long now) {
        TimeWindow.Range w = TimeWindow.HISTORY_POSITION_V2.resolve(startTime, endTime, now);
        List<Position> rows = db.read(dsl -> store.closedPage(dsl, uid, symbol == null ? productType : null, symbol, w.from(), w.to(), idLessThan, limit));
        return new Page(rows, false);
    }

    // --- demo and load data

    /** Contract of a generated series: symbol, reference price and size of each position. */
    public record SeriesContract(String symbol, BigDecimal price, BigDecimal size) {}

    /**
     * count closed positions, the newest closed startMinutesAgo before now and each older one everyMinutes earlier;
     * open and close prices wander within ±3 % of the reference price, sides alternate, fees 0.06 % of the value.
     */
    public record Series(int count, String category, Long startMinutesAgo, Long everyMinutes, List<SeriesContract> contracts) {}

    /** The records a series stands for (deterministic for a given now). */
    public List<HistoryRecord> generate(long uid, Series s, long now) {
        if (s.count() <= 0 || s.count() > 1_000_000) throw new ApiException(ErrorCode.PARAM_ERROR, "count");
        if (s.contracts() == null || s.contracts().isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "contracts");
        Category category = parse(() -> Category.fromWire(s.category()), "category");
        long every = (s.everyMinutes() == null ? 60 : s.everyMinutes()) * 60_000L;
        long first = now - (s.startMinutesAgo() == null ? every / 60_000L : s.startMinutesAgo()) * 60_000L;
        if (every <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, "everyMinutes");
        BigDecimal feeRate = new BigDecimal("0.0006");
        List<HistoryRecord> out = new ArrayList<>(s.count());
        // Oldest first, so server-assigned (time-ordered) ids grow with the close time.
        for (int k = s.count() - 1; k >= 0; k--) {
            SeriesContract c = s.contracts().get(k % s.contracts().size());
            boolean inverse = market.instrument(category, c.symbol()).isInverse();
            BigDecimal open = c.price().multiply(BigDecimal.ONE.add(BigDecimal.valueOf((k % 7) - 3, 2))).setScale(2, RoundingMode.HALF_EVEN);
            BigDecimal close = c.price().multiply(BigDecimal.ONE.add(BigDecimal.valueOf((k % 5) - 2, 2))).setScale(2, RoundingMode.HALF_EVEN);
            HoldSide side = k % 2 == 0 ? HoldSide.long_ : HoldSide.short_;
            BigDecimal size = c.size();
            BigDecimal pnl = PositionMath.pnl(inverse, side.sign(), size, open, close).setScale(8, RoundingMode.HALF_EVEN);
            // Fees are charged on the value in the margin coin: an inverse position's is its size (D140).
            BigDecimal openValue = inverse ? size : size.multiply(open);
            BigDecimal closeValue = inverse ? size : size.multiply(close);
            BigDecimal openFee = openValue.multiply(feeRate).setScale(8, RoundingMode.HALF_EVEN).negate();
            BigDecimal closeFee = closeValue.multiply(feeRate).setScale(8, RoundingMode.HALF_EVEN).negate();
            BigDecimal funding = BigDecimal.valueOf(-(k % 3), inverse ? 6 : 2);
            long utime = first - k * every;
            long ctime = utime - every / 2;
            out.add(new HistoryRecord(null, uid, category.wire(), c.symbol(), null, side.wire(),
                    k % 3 == 0 ? "isolated" : "crossed", "one_way_mode", BigDecimal.TEN, open, close, size, size, pnl,
                    pnl.add(funding).add(openFee).add(closeFee), funding, openFee, closeFee, BigDecimal.ZERO, ctime, utime));
        }
        return out;
    }

    // --- helpers

    private static ApiException failed(String field, String why) {
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, field + " " + why);
    }

    private static <T> T required(T v, String field) {
        if (v == null || (v instanceof String s && s.isEmpty())) throw failed(field, "is required");
        return v;
    }

    private static BigDecimal amount(BigDecimal v, String field) { return Ledger.checkAmount(field, v); }

    private static BigDecimal or(BigDecimal v) { return v == null ? BigDecimal.ZERO : v; }

    private static <T> T parse(java.util.function.Supplier<T> f, String field) { return io.tas.common.Inputs.parsed(f, field); }
}
