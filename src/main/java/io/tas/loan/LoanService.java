package io.tas.loan;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.market.PriceService;
import io.tas.store.Database;
import org.jooq.DSLContext;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.tas.ledger.Ledger.move;
import static io.tas.store.generated.Tables.LOAN_COIN;

/**
 * Debts of the unified account (balance.debt, moved through the ledger) and the borrowing terms per coin.
 * §2.12 loan data: currentLoans = sum(debt x USDT price), rates annualised = hourly x 24 x 365.
 */
public final class LoanService {
    static final BigDecimal HOURS_PER_YEAR = BigDecimal.valueOf(24 * 365);
    static final long HOUR_MS = 3_600_000L;

    private final Database db;
    private final Clock clock;
    private final Ledger ledger;
    private final PriceService prices;

    public LoanService(Database db, Clock clock, Ledger ledger, PriceService prices) {
        this.db = db;
        this.clock = clock;
        this.ledger = ledger;
        this.prices = prices;
    }

    /** Borrowing terms of a coin. */
    public record LoanTerms(String coin, BigDecimal interestFreeAmount, BigDecimal hourlyRate) {}

    public void putTerms(LoanTerms t) {
        if (t.coin() == null || t.interestFreeAmount() == null || t.hourlyRate() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "coin,interestFreeAmount,hourlyRate");
        if (t.interestFreeAmount().signum() < 0 || t.hourlyRate().signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "hourlyRate");
        db.tx(tx -> { putTerms(tx, t); return null; });
    }

    /** As putTerms, in the caller's transaction (a seed). */
    public void putTerms(io.tas.store.Tx tx, LoanTerms t) {
        if (t.coin() == null || t.interestFreeAmount() == null || t.hourlyRate() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "coin,interestFreeAmount,hourlyRate");
        if (t.interestFreeAmount().signum() < 0 || t.hourlyRate().signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "hourlyRate");
        DSLContext dsl = tx.dsl();
        {
            dsl.deleteFrom(LOAN_COIN).where(LOAN_COIN.COIN.eq(t.coin())).execute();
            dsl.insertInto(LOAN_COIN).set(LOAN_COIN.COIN, t.coin()).set(LOAN_COIN.INTEREST_FREE_AMOUNT, t.interestFreeAmount())
                    .set(LOAN_COIN.HOURLY_RATE, t.hourlyRate()).execute();
        }
    }

    /**
     * Borrow (positive) or repay (negative) amount: available and debt move together, once per ref. Borrows and
     * repays share one kind ("loan"), so one ref cannot name a borrow and then a repay (D34).
     */
    public Ledger.Posted borrow(long uid, String coin, BigDecimal amount, String ref) {
        return ledger.postOnce("loan", ref, uid, borrowing(uid, coin, amount), rows -> unifiedOnly(rows, uid));
    }

    /** As borrow, in the caller's transaction (a seed's debts). */
    public Ledger.Posted borrow(io.tas.store.Tx tx, long uid, String coin, BigDecimal amount, String ref) {
        return ledger.postOnce(tx, "loan", ref, uid, borrowing(uid, coin, amount), rows -> unifiedOnly(rows, uid));
    }

    private static List<Movement> borrowing(long uid, String coin, BigDecimal amount) {
        if (amount == null || amount.signum() == 0) throw new ApiException(ErrorCode.PARAM_ERROR, "amount");
        BalanceKey key = new BalanceKey(uid, AccountType.unified, coin);
        return List.of(move(key, Field.available, amount, Counter.loan), move(key, Field.debt, amount, Counter.loan));
    }

    /** D57/D117, decided under the account's lock (D141): a switch that just ended made the account classic. */
    private static void unifiedOnly(Ledger.Locked rows, long uid) {
        if (!rows.unified(uid)) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "uid " + uid + " is a classic account, which cannot borrow");
    }

    /** One debt coin of §2.12. */
    public record Debt(String coin, BigDecimal debt, BigDecimal interestFreeAmount, BigDecimal annualRate) {}

    public record LoanData(BigDecimal currentLoansUsd, long interestPaymentTime, List<Debt> debts) {}

    /** One connection for the balances and every debt coin's terms. */
    public LoanData loanData(long uid) {
        return db.read(dsl -> loanDataOnOneConnection(dsl, uid));
    }

    private LoanData loanDataOnOneConnection(DSLContext dsl, long uid) {
        List<Debt> debts = new ArrayList<>();
        BigDecimal total = BigDecimal.ZERO;
        for (Balance b : ledger.balances(dsl, uid)) {
            if (b.key().account() != AccountType.unified || b.debt().signum() == 0) continue;
            LoanTerms terms = terms(dsl, b.key().coin()).orElse(new LoanTerms(b.key().coin(), BigDecimal.ZERO, BigDecimal.ZERO));
            debts.add(new Debt(b.key().coin(), b.debt(), terms.interestFreeAmount(), terms.hourlyRate().multiply(HOURS_PER_YEAR)));
            total = total.add(b.debt().multiply(prices.requireUsdtPrice(b.key().coin())));
        }
        long now = clock.millis();
        return new LoanData(total.setScale(8, RoundingMode.HALF_EVEN), (now / HOUR_MS + 1) * HOUR_MS, debts);
    }

    private static Optional<LoanTerms> terms(DSLContext dsl, String coin) {
        return dsl.selectFrom(LOAN_COIN).where(LOAN_COIN.COIN.eq(coin)).fetchOptional()
                .map(r -> new LoanTerms(r.getCoin(), r.getInterestFreeAmount(), r.getHourlyRate()));
    }
}
