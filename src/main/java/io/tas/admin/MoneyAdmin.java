package io.tas.admin;

import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.account.AccountService;
import io.tas.admin.SeedFile.FillSpec;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedInstrument;
import io.tas.admin.SeedFile.SeedLoanTerms;
import io.tas.admin.SeedFile.SeedPosition;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.Json;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.loan.LoanService;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.position.Position;
import io.tas.position.PositionService;
import io.tas.spot.UnifiedRecords;
import io.tas.store.Tx;

import java.math.BigDecimal;
import java.util.List;

import static io.tas.admin.AdminInputs.*;

/**
 * The admin money core: ledger deposits, adjustments and borrows (idempotent per ref), instruments, loan terms and
 * positions as a matching engine reports them. Every operation goes through the ledger, loan and position services.
 */
public final class MoneyAdmin {
    private final AccountService accounts;
    private final MarketService market;
    private final Ledger ledger;
    private final LoanService loans;
    private final PositionService positions;
    private final UnifiedRecords unifiedRecords;

    public MoneyAdmin(AccountService accounts, MarketService market, Ledger ledger, LoanService loans, PositionService positions,
                      UnifiedRecords unifiedRecords) {
        this.accounts = accounts;
        this.market = market;
        this.ledger = ledger;
        this.loans = loans;
        this.positions = positions;
        this.unifiedRecords = unifiedRecords;
    }

    /** What an admin ledger operation did. */
    public record LedgerResult(String txId, boolean repeated) {}

    /** A deposit to a unified account also leaves a deposit record (UnifiedRecords.recordLedgerDeposit). */
    public LedgerResult deposit(LedgerOp op) {
        if (Ledger.checkAmount("amount", op.amount()).signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, "amount");
        LedgerResult r = post("deposit", op, Counter.deposit);
        unifiedRecords.recordLedgerDeposit(op.uid(), Long.parseLong(r.txId()), op.coin(), op.amount(), op.ref());
        return r;
    }

    public LedgerResult adjust(LedgerOp op) {
        if (Ledger.checkAmount("amount", op.amount()).signum() == 0) throw new ApiException(ErrorCode.PARAM_ERROR, "amount");
        return post("adjustment", op, Counter.adjustment);
    }

    public LedgerResult borrow(LedgerOp op) {
        long uid = requireBorrower(op);
        Ledger.Posted p = loans.borrow(uid, coin(op.coin()), op.amount(), op.ref());
        return new LedgerResult(Long.toString(p.txId()), p.repeated());
    }

    /** As borrow, in a seed's transaction (a seed's opening debt). */
    LedgerResult borrow(Tx tx, LedgerOp op) {
        long uid = require(op.uid(), "uid");
        requireUnified(uid, accounts.find(tx, uid));
        Ledger.checkAmount("amount", op.amount());
        Ledger.checkRef(op.ref());
        Ledger.Posted p = loans.borrow(tx, op.uid(), coin(op.coin()), op.amount(), op.ref());
        return new LedgerResult(Long.toString(p.txId()), p.repeated());
    }

    private long requireBorrower(LedgerOp op) {
        long uid = require(op.uid(), "uid");
        requireUnified(uid, accounts.find(uid));
        Ledger.checkAmount("amount", op.amount());
        Ledger.checkRef(op.ref());
        return uid;
    }

    /** D57: a classic account cannot borrow; its debt would sit on a unified balance no row shows and nothing charges. */
    private static void requireUnified(long uid, java.util.Optional<Account> account) {
        Account a = account.orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, uid));
        if (a.kind() != AccountKind.UNIFIED) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "uid " + uid + " is a classic account, which cannot borrow");
        }
    }

    /** Every input is checked before anything reaches SQL (uid, account, coin, amount, ref), so a bad value is a 400. */
    private LedgerResult post(String kind, LedgerOp op, Counter counter) {
        long uid = require(op.uid(), "uid");
        BalanceKey key = balanceKey(uid, op.account(), op.coin());
        Ledger.checkRef(op.ref());
        if (accounts.find(uid).isEmpty()) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, uid);
        Ledger.Posted p = ledger.postOnce(kind, op.ref(), uid, List.of(Ledger.move(key, Field.available, op.amount(), counter)));
        return new LedgerResult(Long.toString(p.txId()), p.repeated());
    }

    public Ledger.Check ledgerCheck() { return ledger.check(); }

    /** A balance row as the admin API shows it. */
    public record BalanceView(String account, String coin, String available, String frozen, String debt) {}

    public List<BalanceView> balances(long uid) {
        return ledger.balances(uid).stream().map(b -> new BalanceView(b.key().account().name(), b.key().coin(),
                Json.plain(b.available()), Json.plain(b.frozen()), Json.plain(b.debt()))).toList();
    }

    public Instrument putInstrument(SeedInstrument i) {
        Instrument inst = instrument(i);
        market.putInstrument(inst);
        return inst;
    }

    /** As putInstrument, in a seed's transaction. */
    Instrument putInstrument(Tx tx, SeedInstrument i) {
        Instrument inst = instrument(i);
        market.putInstrument(tx, inst);
        return inst;
    }

    private Instrument instrument(SeedInstrument i) {
        Category c = parse(() -> Category.fromWire(require(i.category(), "category")), "category");
        List<Instrument.MmrTier> tiers = i.mmrTiers() == null ? List.of() : i.mmrTiers().stream()
                .map(t -> new Instrument.MmrTier(Ledger.checkAmount("maxNotional", t.maxNotional()), Ledger.checkAmount("mmr", t.mmr()))).toList();
        if (i.maxLeverage() != null) Instrument.checkLeverage("maxLeverage", i.maxLeverage());
        if (i.marginCoin() != null) coin(i.marginCoin());
        if (c.isFutures() && tiers.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "mmrTiers");
        // D81: re-posting an instrument without "reality" keeps its flag (a working Reality order keeps its pair).
        boolean flagged = i.reality() != null ? i.reality() : existingReality(c, i.symbol());
        // D222: like the book shape (D155), rates left out go back to the kind's default on a re-post.
        return new Instrument(c, symbol(i.symbol()), coin(i.baseCoin()), coin(i.quoteCoin()),
                i.marginCoin(), i.maxLeverage(), flagged, tiers, book(i),
                new Instrument.FeeRates(feeRate("makerFeeRate", i.makerFeeRate()), feeRate("takerFeeRate", i.takerFeeRate())));
    }

    private static final BigDecimal MAX_FEE_RATE = new BigDecimal("0.1");

    /** D222: a fee rate from 0 to 0.1 (10 %), at most 8 decimals; absent, the kind's default (D72, D156). */
    private static BigDecimal feeRate(String name, BigDecimal rate) {
        if (rate != null && (rate.signum() < 0 || rate.compareTo(MAX_FEE_RATE) > 0 || rate.stripTrailingZeros().scale() > 8)) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
        return rate;
    }

    /** D155: 1 to 200 levels, 0.01 to 1,000 basis points apart, a positive level size of at most 18 decimals. */
    private static Instrument.BookShape book(SeedInstrument i) {
        if (i.bookLevels() != null && (i.bookLevels() < 1 || i.bookLevels() > 200)) throw new ApiException(ErrorCode.PARAM_ERROR, "bookLevels");
        if (i.bookStepBps() != null && (i.bookStepBps().compareTo(new java.math.BigDecimal("0.01")) < 0
                || i.bookStepBps().compareTo(new java.math.BigDecimal("1000")) > 0 || i.bookStepBps().stripTrailingZeros().scale() > 4)) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "bookStepBps");
        }
        if (i.bookLevelSize() != null && Ledger.checkAmount("bookLevelSize", i.bookLevelSize()).signum() <= 0) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "bookLevelSize");
        }
        return new Instrument.BookShape(i.bookLevels(), i.bookStepBps(), i.bookLevelSize());
    }

    private boolean existingReality(Category c, String symbol) {
        if (symbol == null) return false;
        try {
            return market.instrument(c, symbol).reality();
        } catch (ApiException unknown) {
            return false;
        }
    }

    public void putLoanTerms(SeedLoanTerms t) { loans.putTerms(loanTerms(t)); }

    /** As putLoanTerms, in a seed's transaction. */
    void putLoanTerms(Tx tx, SeedLoanTerms t) { loans.putTerms(tx, loanTerms(t)); }

    private static LoanService.LoanTerms loanTerms(SeedLoanTerms t) {
        return new LoanService.LoanTerms(coin(t.coin()), Ledger.checkAmount("interestFreeAmount", t.interestFreeAmount()),
                Ledger.checkAmount("hourlyRate", t.hourlyRate()));
    }

    public Position openPosition(SeedPosition s) {
        long uid = require(s.uid(), "uid");
        if (accounts.find(uid).isEmpty()) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, uid);
        return positions.open(open(s));
    }

    /** As openPosition, in a seed's transaction. */
    Position openPosition(Tx tx, SeedPosition s) { return positions.open(tx, open(s)); }

    private static PositionService.Open open(SeedPosition s) {
        long uid = require(s.uid(), "uid");
        return new PositionService.Open(uid,
                parse(() -> Category.fromWire(require(s.category(), "category")), "category"), require(s.symbol(), "symbol"),
                parse(() -> Position.HoldSide.fromWire(require(s.holdSide(), "holdSide")), "holdSide"),
                or(s.marginMode(), MarginMode.crossed), require(s.leverage(), "leverage"), require(s.size(), "size"),
                require(s.price(), "price"), or(s.fee(), BigDecimal.ZERO), s.ref());
    }

    public Position fill(long positionId, FillSpec f) {
        return positions.fill(new PositionService.Fill(positionId, require(f.size(), "size"), require(f.price(), "price"), or(f.fee(), BigDecimal.ZERO), f.ref()));
    }

    public Position close(long positionId, FillSpec f) {
        return positions.close(positionId, require(f.price(), "price"), or(f.fee(), BigDecimal.ZERO), f.ref());
    }

    public List<PositionService.Valuation> positions(long uid) {
        return positions.open(uid).stream().map(positions::value).toList();
    }
}
