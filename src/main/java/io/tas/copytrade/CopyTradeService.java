package io.tas.copytrade;

import io.tas.account.AccountService;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.store.Database;

import java.math.BigDecimal;
import java.time.Clock;

/** The copy-trading profit summary (§2.21): set by operators, read by the account. */
public final class CopyTradeService {
    private final Database db;
    private final Clock clock;
    private final AccountService accounts;
    private final CopyTradeStore store = new CopyTradeStore();

    public CopyTradeService(Database db, Clock clock, AccountService accounts) {
        this.db = db;
        this.clock = clock;
        this.accounts = accounts;
    }

    /**
     * Sets uid's summary (replacing any earlier one). Any account kind may have one (the row is open to both, D6).
     * totalProfit may be negative; the allocated and pending shares may not. In a transaction of its own or the caller's.
     */
    public ProfitSummary put(long uid, ProfitSummaryInput in) {
        return db.tx(tx -> put(tx, uid, in));
    }

    /** As put, in the caller's transaction (a seed). */
    public ProfitSummary put(io.tas.store.Tx tx, long uid, ProfitSummaryInput in) {
        accounts.find(tx, uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid"));
        BigDecimal total = Ledger.checkAmount("totalProfit", in.totalProfit());
        BigDecimal allocated = Ledger.checkAmount("totalAllocatedProfit", in.totalAllocatedProfit());
        BigDecimal pending = Ledger.checkAmount("totalPendingProfit", in.totalPendingProfit());
        if (allocated.signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "totalAllocatedProfit");
        if (pending.signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "totalPendingProfit");
        ProfitSummary s = new ProfitSummary(uid, total, allocated, pending, clock.millis());
        store.put(tx.dsl(), s);
        return s;
    }

    /** uid's summary, or zeros when it has none (D70). */
    public ProfitSummary get(long uid) {
        ProfitSummary s = db.read(dsl -> store.find(dsl, uid));
        return s != null ? s : ProfitSummary.none(uid);
    }
}
