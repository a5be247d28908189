package io.tas.position;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.account.AccountService;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.PriceService;
import io.tas.position.Position.HoldSide;
import io.tas.position.Position.Status;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.store.Tx;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static io.tas.ledger.Ledger.move;

/**
 * Open futures positions as a matching engine reports them: open, add, reduce, close. Each change moves
 * margin (available <-> frozen), realised PnL and fees through the ledger in the same transaction as the
 * position row, so a position never disagrees with the balances. Margin sits in the unified account.
 */
public final class PositionService {
    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final Ledger ledger;
    private final MarketService market;
    private final PriceService prices;
    private final AccountService accounts;
    private final PositionStore store = new PositionStore();

    public PositionService(Database db, Clock clock, IdGenerator ids, Ledger ledger, MarketService market, PriceService prices, AccountService accounts) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.ledger = ledger;
        this.market = market;
        this.prices = prices;
        this.accounts = accounts;
    }

    /** Command: a fill that opens a position. fee is what the account paid (>= 0); ref (optional) makes it idempotent (D120). */
    public record Open(long uid, Category category, String symbol, HoldSide holdSide, MarginMode marginMode,
                       BigDecimal leverage, BigDecimal size, BigDecimal price, BigDecimal fee, String ref) {
        String request() { return PositionRefs.request("open", uid, category.wire(), symbol, holdSide.wire(), marginMode, leverage, size, price, fee); }
    }

    /** Command: a fill that adds to (positive) or reduces (negative size) an open position; ref as in Open. */
    public record Fill(long positionId, BigDecimal size, BigDecimal price, BigDecimal fee, String ref) {
        String request() { return PositionRefs.request("fill", positionId, size, price, fee); }
    }

    public Position open(Open c) {
        check(c);
        return db.tx(tx -> open(tx, c));
    }

    /** Opens in the caller's transaction (a seed's positions). */
    public Position open(Tx tx, Open c) {
        check(c);
        return openChecked(tx, c);
    }

    private void check(Open c) {
        if (!c.category().isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        positive(c.size(), "size");
        positive(c.price(), "price");
        notNegative(c.fee(), "fee");
        Instrument.checkLeverage("leverage", c.leverage());
    }

    private Position openChecked(Tx tx, Open c) {
        if (accounts.find(tx, c.uid()).isEmpty()) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, c.uid());
        org.jooq.DSLContext dsl = tx.dsl();
        {
            // Under the account's lock, so two concurrent opens of one side cannot both find none, and the hold mode
            // read here is the one a set-hold-mode (which takes the same lock) leaves at the commit.
            accounts.lock(tx, c.uid());
            // A repeat is answered before the checks that depend on state (the instrument's maximum leverage may
            // have changed since): it asks for nothing new.
            var earlier = PositionRefs.earlier(dsl, c.ref(), c.request());
            if (earlier.isPresent()) return store.lock(dsl, earlier.get()).orElseThrow();
            Instrument inst = market.instrument(c.category(), c.symbol());
            if (c.leverage().compareTo(inst.maxLeverage()) > 0) throw new ApiException(ErrorCode.PARAM_ERROR, "leverage");
            HoldMode mode = accounts.settingsInTransaction(tx, c.uid()).holdMode();
            if (store.findOpen(dsl, c.uid(), c.category(), c.symbol(), c.holdSide()).isPresent()) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "position already open; add to it instead");
            }
            BigDecimal margin = Ledger.scaled(PositionMath.initialMargin(inst.isInverse(), c.size(), c.price(), c.leverage()));
            long now = clock.millis();
            Position p = new Position(ids.next(), c.uid(), c.category(), c.symbol(), inst.marginCoin(), c.holdSide(),
                    c.marginMode(), mode, c.leverage(), c.size(), BigDecimal.ZERO, c.price(), margin, BigDecimal.ZERO,
                    BigDecimal.ZERO, c.fee().negate(), BigDecimal.ZERO, c.size(), BigDecimal.ZERO, BigDecimal.ZERO,
                    "off", Status.open, now, now);
            BalanceKey key = new BalanceKey(c.uid(), AccountType.unified, inst.marginCoin());
            ledger.submit(tx, List.of(key), rows -> rows.post("position_open", null, c.uid(), openMovements(key, margin, c.fee())));
            store.insert(dsl, p);
            PositionRefs.record(dsl, c.ref(), p.id(), c.request(), now);
            return p;
        }
    }

    public Position fill(Fill f) {
        if (Ledger.checkAmount("size", f.size()).signum() == 0) throw new ApiException(ErrorCode.PARAM_ERROR, "size");
        positive(f.price(), "price");
        notNegative(f.fee(), "fee");
        return db.tx(tx -> fill(tx, f));
    }

    /** A fill in the caller's transaction (the matching engine's fills, checked by the engine). */
    public Position fill(Tx tx, Fill f) {
        org.jooq.DSLContext dsl = tx.dsl();
        {
            lockOwner(tx, f.positionId());
            Position p = store.lock(dsl, f.positionId()).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "positionId"));
            // A repeat answers the position as it is now, even if the fill it repeats closed it.
            if (PositionRefs.earlier(dsl, f.ref(), f.request()).isPresent()) return p;
            if (p.status() != Status.open) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "positionId");
            Instrument inst = market.instrument(p.category(), p.symbol());
            BalanceKey key = new BalanceKey(p.uid(), AccountType.unified, p.marginCoin());
            long now = clock.millis();
            Position next;
            if (f.size().signum() > 0) {
                BigDecimal margin = Ledger.scaled(PositionMath.initialMargin(inst.isInverse(), f.size(), f.price(), p.leverage()));
                BigDecimal size = p.size().add(f.size());
                // Sizes are in the base coin for both kinds (D140), so the entry is the size-weighted arithmetic mean: the
                // one price at which size x (exit - entry) / exit (inverse) pays exactly what the legs would.
                BigDecimal entry = Ledger.scaled(PositionMath.averageEntry(p.size(), p.openPriceAvg(), f.size(), f.price()));
                ledger.submit(tx, List.of(key), rows -> rows.post("position_add", null, p.uid(), openMovements(key, margin, f.fee())));
                next = new Position(p.id(), p.uid(), p.category(), p.symbol(), p.marginCoin(), p.holdSide(), p.marginMode(),
                        p.posMode(), p.leverage(), size, p.locked(), entry, p.marginSize().add(margin), p.achievedProfits(),
                        p.totalFunding(), p.openFeeTotal().subtract(f.fee()), p.closeFeeTotal(), p.openTotal().add(f.size()),
                        p.closeTotal(), p.closeValue(), p.autoMargin(), Status.open, p.createdTime(), now);
            } else {
                BigDecimal q = f.size().negate();
                if (q.compareTo(p.size()) > 0) throw new ApiException(ErrorCode.PARAM_ERROR, "size");
                BigDecimal realised = Ledger.scaled(PositionMath.pnl(inst.isInverse(), p.holdSide().sign(), q, p.openPriceAvg(), f.price()));
                boolean closes = q.compareTo(p.size()) == 0;
                BigDecimal released = closes ? p.marginSize() : Ledger.scaled(p.marginSize().multiply(q).divide(p.size(), PositionMath.MC));
                List<Movement> moves = new ArrayList<>();
                moves.add(move(key, Field.frozen, released.negate(), Counter.margin));
                moves.add(move(key, Field.available, released, Counter.margin));
                if (realised.signum() != 0) moves.add(move(key, Field.available, realised, Counter.pnl));
                if (f.fee().signum() != 0) moves.add(move(key, Field.available, f.fee().negate(), Counter.fee));
                // Who covers a shortfall depends on the kind read under the account's lock, not a cached one (D141).
                ledger.submit(tx, List.of(key), rows -> rows.post(closes ? "position_close" : "position_reduce", null, p.uid(),
                        coverShortfall(rows.get(key), moves, rows.unified(p.uid()))));
                BigDecimal size = p.size().subtract(q);
                next = new Position(p.id(), p.uid(), p.category(), p.symbol(), p.marginCoin(), p.holdSide(), p.marginMode(),
                        p.posMode(), p.leverage(), size, p.locked().min(size), p.openPriceAvg(), p.marginSize().subtract(released),
                        p.achievedProfits().add(realised), p.totalFunding(), p.openFeeTotal(), p.closeFeeTotal().subtract(f.fee()),
                        p.openTotal(), p.closeTotal().add(q), Ledger.scaled(p.closeValue().add(q.multiply(f.price()))), p.autoMargin(),
                        closes ? Status.closed : Status.open, p.createdTime(), now);
            }
            store.update(dsl, next);
            PositionRefs.record(dsl, f.ref(), p.id(), f.request(), now);
            return next;
        }
    }

    /** Closes the whole position at price, in one transaction with reading its size; ref as in Open. */
    public Position close(long positionId, BigDecimal price, BigDecimal fee, String ref) {
        return db.tx(tx -> {
            org.jooq.DSLContext dsl = tx.dsl();
            lockOwner(tx, positionId);
            Position p = store.lock(dsl, positionId).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "positionId"));
            String request = PositionRefs.request("close", positionId, price, fee);
            if (PositionRefs.earlier(dsl, ref, request).isPresent()) return p;
            if (p.status() != Status.open) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "positionId");
            Position closed = fill(tx, new Fill(positionId, p.size().negate(), price, fee, null));
            PositionRefs.record(dsl, ref, positionId, request, clock.millis());
            return closed;
        });
    }

    /**
     * Lock order as everywhere: the account, then its positions, then balance rows (D35). A position never changes
     * owner, so its owner is read without a lock; an unknown position locks nothing and is refused by the caller.
     */
    private void lockOwner(Tx tx, long positionId) {
        store.owner(tx.dsl(), positionId).ifPresent(uid -> accounts.lock(tx, uid));
    }

    /** The open position of one side, as the caller's transaction sees it (the engine, under the account's lock). */
    public java.util.Optional<Position> findOpen(Tx tx, long uid, Category category, String symbol, HoldSide side) {
        return store.findOpen(tx.dsl(), uid, category, symbol, side);
    }

    public List<Position> open(long uid) { return db.read(dsl -> store.byStatus(dsl, uid, Status.open)); }

    /** The open positions of each of these accounts (none: an empty list), in one read, each as open(uid) lists them. */
    public java.util.Map<Long, List<Position>> open(java.util.Collection<Long> uids) {
        java.util.Map<Long, List<Position>> byUid = new java.util.HashMap<>();
        uids.forEach(uid -> byUid.put(uid, new java.util.ArrayList<>()));
        if (!uids.isEmpty()) db.read(dsl -> store.byStatus(dsl, uids, Status.open)).forEach(p -> byUid.get(p.uid()).add(p));
        return byUid;
    }

    /** The accounts holding an open position in a contract (issue 27: a mark price move pushes theirs). */
    public List<Long> holders(io.tas.account.AccountEnums.Category category, String symbol) {
        return db.read(dsl -> store.holders(dsl, category.wire(), symbol));
    }

    /** The account's open positions on a connection the caller holds (a read session). */
    public List<Position> open(org.jooq.DSLContext dsl, long uid) { return store.byStatus(dsl, uid, Status.open); }

    /** What settings changes must know of the accounts' positions (read under the accounts' locks). */
    public java.util.Map<Long, io.tas.account.SettingsChange.Exposure> exposure(org.jooq.DSLContext dsl, java.util.Collection<Long> uids) {
        java.util.Map<Long, io.tas.account.SettingsChange.Exposure> out = new java.util.HashMap<>();
        // Pending orders: none are held yet (strategy and Reality orders land in later issues and add theirs here).
        store.openContracts(dsl, uids).forEach((uid, contracts) -> out.put(uid, new io.tas.account.SettingsChange.Exposure(contracts, 0)));
        return out;
    }


    /** A position with its figures at the current mark price (docs/formulas.md). */
    public record Valuation(Position position, BigDecimal markPrice, BigDecimal unrealizedPL, BigDecimal keepMarginRate,
                            BigDecimal marginRatio, BigDecimal breakEvenPrice, BigDecimal liquidationPrice) {}

    /** Unrealised PnL at the current mark price, in the margin coin (no balance read). */
    public BigDecimal unrealizedPL(Position p) {
        Instrument inst = market.instrument(p.category(), p.symbol());
        return PositionMath.pnl(inst.isInverse(), p.holdSide().sign(), p.size(), p.openPriceAvg(), prices.requireMarkPrice(p.category(), p.symbol()));
    }

    public Valuation value(Position p) {
        Instrument inst = market.instrument(p.category(), p.symbol());
        BigDecimal mark = prices.requireMarkPrice(p.category(), p.symbol());
        boolean inv = inst.isInverse();
        int dir = p.holdSide().sign();
        BigDecimal upl = unrealizedPL(p);
        BigDecimal mmr = PositionMath.mmr(inst, p.size(), mark);
        BigDecimal maintenance = PositionMath.maintenanceMargin(inv, p.size(), mark, mmr);
        // Crossed positions are backed by the free balance of the margin coin as well as their own margin.
        BigDecimal backing = p.marginSize();
        if (p.marginMode() == MarginMode.crossed) {
            backing = backing.add(ledger.balance(new BalanceKey(p.uid(), AccountType.unified, p.marginCoin())).available());
        }
        BigDecimal ratio = PositionMath.marginRatio(maintenance, backing.add(upl));
        BigDecimal cost = p.deductedFee().subtract(p.totalFunding());
        BigDecimal breakEven = PositionMath.breakEven(inv, dir, p.size(), p.openPriceAvg(), cost);
        BigDecimal liq = PositionMath.liquidationPrice(inv, dir, p.size(), p.openPriceAvg(), backing, mmr);
        return new Valuation(p, mark, upl, mmr, ratio, breakEven, liq);
    }

    /**
     * A position can always be closed: a realised loss beyond the available balance is covered, decided under
     * the balance lock. A unified account borrows the shortfall (its debt grows, loan-data shows it); an account
     * that cannot borrow (classic) has it covered by the insurance counter-account, as an exchange's insurance
     * fund covers a loss beyond a position's margin.
     */
    private static List<Movement> coverShortfall(Balance now, List<Movement> moves, boolean unified) {
        BigDecimal after = now.available();
        for (Movement m : moves) if (m.field() == Field.available) after = after.add(m.amount());
        if (after.signum() >= 0) return moves;
        BigDecimal shortfall = after.negate();
        List<Movement> covered = new ArrayList<>(moves);
        if (unified) {
            covered.add(move(now.key(), Field.available, shortfall, Counter.loan));
            covered.add(move(now.key(), Field.debt, shortfall, Counter.loan));
        } else {
            covered.add(move(now.key(), Field.available, shortfall, Counter.insurance));
        }
        return covered;
    }

    private static List<Movement> openMovements(BalanceKey key, BigDecimal margin, BigDecimal fee) {
        List<Movement> moves = new ArrayList<>();
        moves.add(move(key, Field.available, margin.negate(), Counter.margin));
        moves.add(move(key, Field.frozen, margin, Counter.margin));
        if (fee.signum() != 0) moves.add(move(key, Field.available, fee.negate(), Counter.fee));
        return moves;
    }

    /** Sizes, prices and fees fit the ledger's numeric(38, 18) exactly (else 40808), and are positive. */
    private static void positive(BigDecimal v, String name) {
        if (Ledger.checkAmount(name, v).signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
    }

    private static void notNegative(BigDecimal v, String name) {
        if (Ledger.checkAmount(name, v).signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
    }
}
