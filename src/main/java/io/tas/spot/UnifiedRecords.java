package io.tas.spot;

import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountService;
import io.tas.common.Inputs;
import io.tas.common.TimeWindow;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.spot.RecordInputs.DepositInput;
import io.tas.store.Database;
import io.tas.store.IdGenerator;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.tas.spot.SpotRecords.*;

/**
 * The records of unified accounts as the v3 rows read them (beyond-spec shapes §9-11): fills and withdrawals from
 * SpotRecords' tables, and deposits (V11), with their ingestion. Knows nothing of HTTP.
 */
public final class UnifiedRecords {
    private static final Set<String> DESTS = Set.of("on_chain", "internal_transfer");
    private static final Set<String> STATUSES = Set.of("pending", "success", "fail"); // §10 status

    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final AccountService accounts;
    private final SpotStore spot = new SpotStore();
    private final DepositStore deposits = new DepositStore();

    public UnifiedRecords(Database db, Clock clock, IdGenerator ids, AccountService accounts) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.accounts = accounts;
    }

    // --- reads

    /** §9 query: every parameter optional; category already upper case and checked; limit 1..100. */
    public record FillQuery(String category, Long orderId, Long startTime, Long endTime, int limit, Long cursor) {}

    /** A page and whether older fills exist in the window (the reply's cursor). */
    public record FillPage(List<SpotFill> list, boolean more) {}

    /** §9: at most 30 days per query within the last 90 days (TimeWindow.UTA_FILLS). */
    public FillPage fills(long uid, FillQuery q) {
        TimeWindow.Range w = TimeWindow.UTA_FILLS.resolve(q.startTime(), q.endTime(), clock.millis());
        List<SpotFill> rows = db.read(dsl -> spot.fillsV3(dsl, uid, q.category(), q.orderId(), w.from(), w.to(), q.cursor(), q.limit() + 1));
        return rows.size() > q.limit() ? new FillPage(rows.subList(0, q.limit()), true) : new FillPage(rows, false);
    }

    /**
     * §10 / §11 query: startTime and endTime required, no maximum range: the platform's pages give none (TimeWindow);
     * orderId wins over clientOid; cursor: records below that orderId.
     */
    public record RecordQuery(String coin, Long orderId, String clientOid, Long startTime, Long endTime, int limit, Long cursor) {}

    public List<Withdrawal> withdrawals(long uid, RecordQuery q) {
        TimeWindow.Range w = TimeWindow.UTA_WITHDRAWAL_RECORDS.resolve(q.startTime(), q.endTime(), clock.millis());
        String clientOid = q.orderId() != null ? null : q.clientOid();
        return db.read(dsl -> spot.withdrawals(dsl, uid, upper(q.coin()), clientOid, q.orderId(), w.from(), w.to(), q.cursor(), q.limit()));
    }

    public List<Deposit> deposits(long uid, RecordQuery q) {
        TimeWindow.Range w = TimeWindow.UTA_DEPOSIT_RECORDS.resolve(q.startTime(), q.endTime(), clock.millis());
        return db.read(dsl -> deposits.page(dsl, uid, upper(q.coin()), q.orderId(), w.from(), w.to(), q.cursor(), q.limit()));
    }

    /** The platform's examples show lower-case coins ("usdt"); the ledger's coins are upper case (Inputs.coinParam). */
    private static String upper(String coin) { return coin == null ? null : io.tas.common.Inputs.coinParam("coin", coin); }

    // --- deposit ingestion

    /**
     * A batch of one unified account's deposits, all or nothing, with SpotRecords' rules (D58): the first invalid record
     * refuses the call naming records[i].field; IDs minted in createdTime order unless given. A classic account's
     * deposits would never be readable (no v2 deposit row is served), so they are refused.
     */
    public int ingestDeposits(Long uid, List<DepositInput> records) {
        return db.tx(tx -> ingestDeposits(tx, uid, records));
    }

    /** As ingestDeposits, in the caller's transaction (a seed). */
    public int ingestDeposits(io.tas.store.Tx tx, Long uid, List<DepositInput> records) {
        long owner = unified(tx, uid);
        checkSize(records);
        long now = clock.millis();
        List<Deposit> rows = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) rows.add(deposit(owner, i, records.get(i), now));
        for (int i : byTime(rows, Deposit::cTime)) {
            if (rows.get(i).orderId() == 0) rows.set(i, rows.get(i).withOrderId(ids.next()));
        }
        List<Long> given = givenIds(records.stream().map(r -> r == null ? null : r.orderId()).toList(), "orderId");
        List<Long> taken = deposits.existingIds(tx.dsl(), owner, given);
        if (!taken.isEmpty()) throw duplicate(records.stream().map(DepositInput::orderId).toList(), taken, "orderId");
        Database.insertUnique(() -> deposits.insert(tx.dsl(), rows), "records: a given orderId already exists");
        return rows.size();
    }

    /**
     * The record of an admin ledger deposit to a unified account: orderId is the ledger transaction's ID, recordId the
     * caller's ref (it stands in for the on-chain hash). Written after the posting and again on a repeat of the same
     * ref when missing, so a retry completes it and never doubles it. Other families get none.
     */
    public void recordLedgerDeposit(long uid, long txId, String coin, BigDecimal amount, String ref) {
        Account a = accounts.find(uid).orElse(null);
        if (a == null || a.kind() != AccountKind.UNIFIED) return;
        long now = clock.millis();
        Deposit d = new Deposit(uid, txId, ref, coin, "on_chain", amount, "success", "", "", coin, now, now);
        try {
            db.tx(tx -> {
                if (deposits.existingIds(tx.dsl(), uid, List.of(txId)).isEmpty()) deposits.insert(tx.dsl(), List.of(d));
                return null;
            });
        } catch (org.jooq.exception.IntegrityConstraintViolationException e) {
            // a concurrent repeat of the same ref wrote it first: the record exists, which is all this call wants
        }
    }

    private long unified(io.tas.store.Tx tx, Long uid) {
        if (uid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "uid");
        Account a = accounts.find(tx, uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid"));
        if (a.kind() != AccountKind.UNIFIED) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED,
                    "uid " + uid + " is a " + a.kind() + " account; deposit records are served to UNIFIED accounts only");
        }
        return uid;
    }

    private static Deposit deposit(long uid, int i, DepositInput r, long now) {
        String p = "records[" + i + "].";
        if (r == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "records[" + i + "]");
        long orderId = id(p + "orderId", r.orderId());
        String coin = Inputs.coin(p + "coin", r.coin());
        Inputs.oneOf(p + "type", r.type() == null ? "deposit" : r.type(), Set.of("deposit")); // §10: always deposit
        String dest = Inputs.oneOf(p + "dest", r.dest() == null ? "on_chain" : r.dest(), DESTS);
        BigDecimal size = positive(p + "size", r.size());
        String status = Inputs.oneOf(p + "status", r.status() == null ? "success" : r.status(), STATUSES);
        long[] t = times(p, "createdTime", "updatedTime", r.createdTime(), r.updatedTime(), r.ago(), now);
        return new Deposit(uid, orderId, Inputs.text(p + "recordId", r.recordId(), 128), coin, dest, size, status,
                Inputs.text(p + "fromAddress", r.fromAddress(), 128), Inputs.text(p + "toAddress", r.toAddress(), 128),
                Inputs.text(p + "chain", r.chain(), 32), t[0], t[1]);
    }
}
