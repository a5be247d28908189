package io.tas.admin;

import io.tas.account.Account;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.admin.SeedFile.SeedBalance;
import io.tas.admin.SeedFile.SeedInstrument;
import io.tas.admin.SeedFile.SeedKey;
import io.tas.admin.SeedFile.SeedLoanTerms;
import io.tas.admin.SeedFile.SeedPosition;
import io.tas.admin.SeedFile.SeedTicker;
import io.tas.auth.ApiKeyService.CreatedKey;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.store.Database;
import io.tas.store.Tx;

import java.util.ArrayList;
import java.util.List;

import static io.tas.admin.AdminInputs.balanceKey;

/**
 * Applies a seed document (SeedFile): instruments, tickers, loan terms, then each account with its keys, opening
 * balances and debts, positions and records. One transaction for the whole document, handed to every service it
 * calls: a seed that fails anywhere leaves nothing behind.
 */
public final class SeedApplier {
    private final Database db;
    private final Ledger ledger;
    private final Provisioning provisioning;
    private final MoneyAdmin money;
    private final RecordsAdmin records;

    public SeedApplier(Database db, Ledger ledger, Provisioning provisioning, MoneyAdmin money, RecordsAdmin records) {
        this.db = db;
        this.ledger = ledger;
        this.provisioning = provisioning;
        this.money = money;
        this.records = records;
    }

    /** What a seed created: accounts, and each key with its secret (shown this once). */
    public record SeedResult(List<Account> accounts, List<CreatedKey> keys, int tickers) {}

    public SeedResult apply(SeedFile seed) {
        try {
            return db.tx(tx -> applyAll(tx, seed));
        } catch (RuntimeException e) {
            provisioning.invalidateCaches(); // entries read inside the rolled-back transaction
            throw e;
        }
    }

    private SeedResult applyAll(Tx tx, SeedFile seed) {
        List<Account> created = new ArrayList<>();
        List<CreatedKey> createdKeys = new ArrayList<>();
        for (SeedInstrument i : seed.instruments()) money.putInstrument(tx, i);
        for (SeedTicker t : seed.tickers()) provisioning.putTicker(tx, t);
        for (SeedLoanTerms t : seed.loanTerms()) money.putLoanTerms(tx, t);
        for (SeedAccount main : seed.accounts()) {
            Account m = provisioning.createAccount(tx, main, null);
            created.add(m);
            seedAccountContents(tx, m, main, createdKeys);
            for (SeedAccount sub : main.subAccounts()) {
                Account s = provisioning.createAccount(tx, sub, m.uid());
                created.add(s);
                seedAccountContents(tx, s, sub, createdKeys);
            }
        }
        return new SeedResult(created, createdKeys, seed.tickers().size());
    }

    private void seedAccountContents(Tx tx, Account a, SeedAccount spec, List<CreatedKey> createdKeys) {
        for (SeedKey k : spec.apiKeys()) createdKeys.add(provisioning.createKey(tx, a.uid(), k));
        // The opening balances are one deposit transaction per account: a seed with thousands of balances costs
        // a few statements per account, not per balance.
        List<Movement> deposits = new ArrayList<>();
        for (SeedBalance b : spec.balances()) {
            // A negative opening balance or debt is a mistake in the seed, refused like a negative deposit (40020, D119).
            if (b.available() != null && Ledger.checkAmount("available", b.available()).signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "available");
            if (b.debt() != null && Ledger.checkAmount("debt", b.debt()).signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "debt");
            if (b.available() != null && b.available().signum() > 0) {
                deposits.add(Ledger.move(balanceKey(a.uid(), b.account(), b.coin()), Field.available, b.available(), Counter.deposit));
            }
        }
        if (!deposits.isEmpty()) ledger.postOnce(tx, "deposit", "seed:" + a.uid(), a.uid(), deposits);
        for (SeedBalance b : spec.balances()) {
            String ref = "seed:" + a.uid() + ":" + b.account() + ":" + b.coin();
            if (b.debt() != null && b.debt().signum() > 0) {
                // Debt is the unified account's (D57): on another account it would be borrowed into unified unseen.
                if (b.account() != null && !"unified".equals(b.account())) {
                    throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "debt of " + b.coin() + " on the " + b.account() + " account: only the unified account borrows");
                }
                money.borrow(tx, new LedgerOp(a.uid(), "unified", b.coin(), b.debt(), ref + ":debt"));
            }
        }
        for (SeedPosition pos : spec.positions()) {
            // D120: refs are for retries of the admin rows; a seed is one transaction and is refused or stored whole.
            if (pos.ref() != null) throw new ApiException(ErrorCode.PARAM_ERROR, "ref");
            money.openPosition(tx, new SeedPosition(a.uid(), pos.category(), pos.symbol(), pos.holdSide(), pos.marginMode(),
                    pos.leverage(), pos.size(), pos.price(), pos.fee(), null));
        }
        records.seed(tx, a, spec);
    }
}
