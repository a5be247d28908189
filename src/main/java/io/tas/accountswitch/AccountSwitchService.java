package io.tas.accountswitch;

import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.AccountMode;
import io.tas.account.AccountService;
import io.tas.accountswitch.AccountSwitchStore.Row;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.jobs.Jobs;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.store.Database;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

import static io.tas.ledger.Ledger.move;

/**
 * §3.1 the switch of a parent account from the unified account to classic. A request puts the account into
 * accountMode switching and its switch into process, and schedules a durable job for the configured delay (about one
 * minute, §8). The job ends it in one transaction: fail with a reason when something keeps the account unified
 * (open positions, debts, frozen funds; later pending orders), or success: the unified balances move to spot through
 * the ledger and the account becomes CLASSIC. Exactly once: only the job of the pending attempt changes anything, under
 * the account's lock, and it leaves the request finished.
 */
public final class AccountSwitchService {
    private static final Logger log = LoggerFactory.getLogger(AccountSwitchService.class);
    /** db-scheduler task name of the job that finishes a switch; its instance id is "uid-attempt". */
    public static final String TASK = "account-switch";
    /** Ledger transaction kind of the move to spot; its ref is "switch:uid:attempt" (unique per kind, D24). */
    public static final String LEDGER_KIND = "account_switch";
    private static final int MAX_REASON = 255;

    private final Database db;
    private final Clock clock;
    private final AccountService accounts;
    private final Ledger ledger;
    private final Jobs jobs;
    private final SwitchConfig config;
    private final List<SwitchCheck> checks;
    private final AccountSwitchStore store = new AccountSwitchStore();

    public AccountSwitchService(Database db, Clock clock, AccountService accounts, Ledger ledger, Jobs jobs, SwitchConfig config,
                                List<SwitchCheck> checks) {
        this.db = db;
        this.clock = clock;
        this.accounts = accounts;
        this.ledger = ledger;
        this.jobs = jobs;
        this.config = config;
        this.checks = List.copyOf(checks);
        jobs.oneTime(TASK, this::finish);
    }

    /** §2.6 what switch-status answers. */
    public record SwitchState(SwitchStatus status, String reason) {}

    /**
     * §3.1 trigger: accepts the request (the answer means only that it was received). A request while one is in
     * process is accepted again and changes nothing: its job keeps its time (a client retrying a POST that timed out
     * must not get an error, nor push the switch back).
     */
    public void request(long uid) {
        db.tx(tx -> {
            org.jooq.DSLContext dsl = tx.dsl();
            Account account = accounts.lockForChange(tx, uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid"));
            // The row's guards read the cached account before this lock: a switch that ended in between made it classic.
            if (account.kind() != AccountKind.UNIFIED) throw new ApiException(ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API);
            if (account.isSub()) throw new ApiException(ErrorCode.SUB_ACCOUNT_FORBIDDEN);
            Optional<Row> current = store.find(dsl, uid);
            if (current.isPresent() && current.get().status() == SwitchStatus.process) return null;
            long now = clock.millis();
            long due = now + config.delay().toMillis();
            int attempt = current.map(r -> r.attempt() + 1).orElse(1);
            Row row = new Row(uid, attempt, SwitchStatus.process, "", now, due, null, null);
            if (current.isPresent()) store.update(dsl, row); else store.insert(dsl, row);
            accounts.setAccountMode(tx, uid, AccountMode.switching);
            jobs.scheduleInTransaction(tx, TASK, uid + "-" + attempt, Instant.ofEpochMilli(due));
            return null;
        });
    }

    /** §2.6 the latest switch of uid; an account that never asked for one gets 40017 (nothing to report). */
    public SwitchState status(long uid) {
        Row r = db.read(dsl -> store.find(dsl, uid))
                .orElseThrow(() -> new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "no account switch was requested"));
        return new SwitchState(r.status(), r.reason());
    }

    /** The job: ends attempt "uid-attempt" if it is still in process; a repeated or stale run changes nothing. */
    void finish(String instance) {
        int dash = instance.lastIndexOf('-');
        long uid = Long.parseLong(instance.substring(0, dash));
        int attempt = Integer.parseInt(instance.substring(dash + 1));
        SwitchStatus outcome = db.tx(tx -> finish(tx, uid, attempt));
        log.info("account switch {} attempt {}: {}", uid, attempt, outcome == null ? "already finished, nothing to do" : outcome);
    }

    private SwitchStatus finish(io.tas.store.Tx tx, long uid, int attempt) {
        DSLContext dsl = tx.dsl();
        // Lock order as everywhere: account, then positions, then balance rows (D35).
        Optional<Account> account = accounts.lockForChange(tx, uid);
        Optional<Row> pending = store.find(dsl, uid).filter(r -> r.attempt() == attempt && r.status() == SwitchStatus.process);
        if (account.isEmpty() || pending.isEmpty()) return null;
        long now = clock.millis();
        List<String> reasons = new ArrayList<>();
        for (SwitchCheck check : checks) {
            String blocker = check.blocker(tx, uid);
            if (blocker != null) reasons.add(blocker);
        }
        List<Balance> unified = ledger.balances(tx, uid).stream().filter(b -> b.key().account() == AccountType.unified).toList();
        // Frozen funds are worth a reason of their own only when no position explains them (its margin is frozen).
        reasons.addAll(balanceBlockers(unified, reasons.isEmpty()));
        if (reasons.isEmpty()) {
            try {
                Long transfer = moveToSpot(tx, uid, attempt, unified);
                accounts.setKind(tx, uid, AccountKind.CLASSIC);
                // A classic account's settings row keeps its values and mode unified, like one created classic; it is
                // not served (v3 rows answer 40084).
                accounts.setAccountMode(tx, uid, AccountMode.unified);
                store.update(dsl, pending.get().finished(SwitchStatus.success, "", now, transfer));
                return SwitchStatus.success;
            } catch (Blocked b) {
                reasons.addAll(b.reasons); // a borrow or an order hold landed between the read and the lock
            }
        }
        accounts.setAccountMode(tx, uid, AccountMode.unified);
        String reason = String.join("; ", reasons);
        store.update(dsl, pending.get().finished(SwitchStatus.fail, reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason, now, null));
        return SwitchStatus.fail;
    }

    /**
     * Moves every unified available balance to the spot account of the same coin, as one ledger transaction against
     * the transfer counter-account, and checks again under the rows' lock that nothing is owed or frozen. Returns the
     * ledger transaction, or null when the unified account held nothing.
     */
    private Long moveToSpot(io.tas.store.Tx tx, long uid, int attempt, List<Balance> unified) {
        if (unified.isEmpty()) return null;
        SortedSet<BalanceKey> keys = new TreeSet<>();
        for (Balance b : unified) {
            keys.add(b.key());
            keys.add(new BalanceKey(uid, AccountType.spot, b.key().coin()));
        }
        return ledger.submit(tx, keys, rows -> {
            List<Balance> locked = keys.stream().filter(k -> k.account() == AccountType.unified).map(rows::get).toList();
            List<String> blockers = balanceBlockers(locked, true);
            if (!blockers.isEmpty()) throw new Blocked(blockers);
            List<Movement> moves = new ArrayList<>();
            for (Balance b : locked) {
                if (b.available().signum() <= 0) continue;
                moves.add(move(b.key(), Field.available, b.available().negate(), Counter.transfer));
                moves.add(move(new BalanceKey(uid, AccountType.spot, b.key().coin()), Field.available, b.available(), Counter.transfer));
            }
            return moves.isEmpty() ? null : rows.post(LEDGER_KIND, "switch:" + uid + ":" + attempt, uid, moves);
        });
    }

    /** Debts and frozen funds keep an account unified: a classic account can neither owe nor hold margin (D18, D23). */
    private static List<String> balanceBlockers(Collection<Balance> unified, boolean withFrozen) {
        List<String> out = new ArrayList<>();
        List<String> debts = unified.stream().filter(b -> b.debt().signum() > 0).map(b -> b.key().coin()).toList();
        List<String> frozen = unified.stream().filter(b -> b.frozen().signum() > 0).map(b -> b.key().coin()).toList();
        if (!debts.isEmpty()) out.add("the unified account has debts in " + String.join(", ", debts));
        if (withFrozen && !frozen.isEmpty()) out.add("the unified account has frozen funds in " + String.join(", ", frozen));
        return out;
    }

    /** Rejects the ledger change, which then changes nothing; the switch fails with the reasons instead. */
    private static final class Blocked extends RuntimeException {
        final List<String> reasons;

        Blocked(List<String> reasons) {
            super(String.join("; ", reasons), null, false, false);
            this.reasons = reasons;
        }
    }
}
