package io.tas.spot;

import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountService;
import io.tas.common.TimeWindow;
import io.tas.common.Inputs;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.spot.RecordInputs.FeeInput;
import io.tas.spot.RecordInputs.FillInput;
import io.tas.spot.RecordInputs.WithdrawalInput;
import io.tas.store.Database;
import io.tas.store.IdGenerator;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Fills and withdrawal records of both account families: ingestion for the admin API, the CLI and seeds, and the two
 * §4.5 reads (classic accounts; the v3 reads of unified accounts are UnifiedRecords). A batch is all or nothing: the
 * first invalid record is refused (40019, 40020, 40808 or 40017, naming records[i] and the field) and nothing of the
 * batch is stored.
 */
public final class SpotRecords {
    /** Records per ingest call: 10k fills are ~3.5 MB of JSON and one JDBC batch. */
    public static final int MAX_BATCH = 10_000;

    private static final Set<String> ORDER_TYPES = Set.of("limit", "market");
    private static final Set<String> SIDES = Set.of("buy", "sell");
    private static final Set<String> SCOPES = Set.of("taker", "maker"); // §2.17 tradeScope
    /** beyond-spec shapes §9: the product types of a v3 fill. */
    static final Set<String> CATEGORIES = Set.of("SPOT", "MARGIN", "USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES");
    private static final Set<String> DEDUCTIONS = Set.of("yes", "no");
    private static final Set<String> DESTS = Set.of("on_chain", "internal_transfer"); // §2.18 dest
    private static final Set<String> STATUSES = Set.of("pending", "fail", "success"); // §2.18 status
    private static final Pattern SYMBOL = Pattern.compile("[A-Za-z0-9_.-]{1,32}");
    private static final Pattern DIGITS = Pattern.compile("\\d{1,16}");

    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final AccountService accounts;
    private final SpotStore store = new SpotStore();

    public SpotRecords(Database db, Clock clock, IdGenerator ids, AccountService accounts) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.accounts = accounts;
    }

    // --- ingestion

    /** Checks every record, mints missing IDs in cTime order, and stores the batch in one transaction; returns the count. */
    public int ingestFills(Long uid, List<FillInput> records) {
        return db.tx(tx -> ingestFills(tx, uid, records));
    }

    /** As ingestFills, in the caller's transaction (a seed). */
    public int ingestFills(io.tas.store.Tx tx, Long uid, List<FillInput> records) {
        Account account = account(tx, uid);
        long owner = account.uid();
        checkSize(records);
        long now = clock.millis();
        List<SpotFill> rows = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) rows.add(fill(owner, account.kind(), i, records.get(i), now));
        for (int i : byTime(rows, SpotFill::cTime)) {
            SpotFill f = rows.get(i);
            if (f.tradeId() != 0 && f.orderId() != 0) continue;
            long tradeId = f.tradeId() != 0 ? f.tradeId() : ids.next();
            long orderId = f.orderId() != 0 ? f.orderId() : ids.next(); // an absent orderId: the fill is its own order
            rows.set(i, f.withIds(tradeId, orderId));
        }
        List<Long> given = givenIds(records.stream().map(FillInput::tradeId).toList(), "tradeId");
        List<Long> taken = store.existingTradeIds(tx.dsl(), owner, given);
        if (!taken.isEmpty()) throw duplicate(records.stream().map(FillInput::tradeId).toList(), taken, "tradeId");
        Database.insertUnique(() -> store.insertFills(tx.dsl(), rows), "records: a given tradeId already exists"); // a concurrent batch's
        return rows.size();
    }

    public int ingestWithdrawals(Long uid, List<WithdrawalInput> records) {
        return db.tx(tx -> ingestWithdrawals(tx, uid, records));
    }

    /** As ingestWithdrawals, in the caller's transaction (a seed). */
    public int ingestWithdrawals(io.tas.store.Tx tx, Long uid, List<WithdrawalInput> records) {
        long owner = account(tx, uid).uid();
        checkSize(records);
        long now = clock.millis();
        List<Withdrawal> rows = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) rows.add(withdrawal(owner, i, records.get(i), now));
        for (int i : byTime(rows, Withdrawal::cTime)) {
            Withdrawal w = rows.get(i);
            if (w.orderId() != 0) continue;
            rows.set(i, new Withdrawal(w.uid(), ids.next(), w.tradeId(), w.coin(), w.clientOid(), w.type(), w.dest(), w.size(), w.fee(),
                    w.status(), w.fromAddress(), w.toAddress(), w.chain(), w.confirm(), w.tag(), w.cTime(), w.uTime()));
        }
        List<Long> given = givenIds(records.stream().map(WithdrawalInput::orderId).toList(), "orderId");
        List<Long> taken = store.existingWithdrawalIds(tx.dsl(), owner, given);
        if (!taken.isEmpty()) throw duplicate(records.stream().map(WithdrawalInput::orderId).toList(), taken, "orderId");
        Database.insertUnique(() -> store.insertWithdrawals(tx.dsl(), rows), "records: a given orderId already exists");
        return rows.size();
    }

    /**
     * Fills the service produced itself (the matching engine's), written in the caller's transaction with the ledger
     * movements they come from. The caller minted their IDs and checked them; no batch rules apply here.
     */
    public void appendExecutionFills(org.jooq.DSLContext dsl, List<SpotFill> fills) {
        store.insertFills(dsl, fills);
    }

    /** The fills of some accounts' orders made at or after `since` (the WebSocket fill topic's pushes, issue 27). */
    public List<SpotFill> fillsOfOrders(java.util.Collection<Long> uids, java.util.Collection<Long> orderIds, long since) {
        return db.read(dsl -> store.fillsOfOrders(dsl, uids, orderIds, since));
    }

    /**
     * Either family (issue 10): a classic account's records are read through the v2 rows, a unified account's through
     * the v3 rows (beyond-spec shapes §9, §11); the catalog's family guard keeps each row to its own family.
     */
    private Account account(io.tas.store.Tx tx, Long uid) {
        if (uid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "uid");
        return accounts.find(tx, uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid"));
    }

    static void checkSize(List<?> records) {
        if (records == null || records.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "records");
        if (records.size() > MAX_BATCH) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "at most " + MAX_BATCH + " records per call, got " + records.size());
        }
    }

    /**
     * Indices in cTime order (stable): missing IDs (0 here) are minted in that order, so a feed's records page
     * newest-first in the order they happened; a later call's records get later IDs (IdGenerator is time-ordered).
     */
    static <T> int[] byTime(List<T> rows, java.util.function.ToLongFunction<T> cTime) {
        return IntStream.range(0, rows.size()).boxed().sorted(Comparator.comparingLong(i -> cTime.applyAsLong(rows.get(i))))
                .mapToInt(Integer::intValue).toArray();
    }

    /** The feed's own IDs: positive and unique within the batch. */
    static List<Long> givenIds(List<Long> values, String field) {
        Set<Long> seen = new HashSet<>();
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            Long v = values.get(i);
            if (v == null) continue;
            if (!seen.add(v)) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "records[" + i + "]." + field + " " + v + " appears twice in the batch");
            out.add(v);
        }
        return out;
    }

    static ApiException duplicate(List<Long> values, List<Long> taken, String field) {
        Set<Long> t = new HashSet<>(taken);
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) != null && t.contains(values.get(i))) {
                return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "records[" + i + "]." + field + " " + values.get(i) + " already exists");
            }
        }
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, field + " already exists");
    }

    private static SpotFill fill(long uid, AccountKind kind, int i, FillInput r, long now) {
        String p = "records[" + i + "].";
        if (r == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "records[" + i + "]");
        long tradeId = id(p + "tradeId", r.tradeId());
        long orderId = id(p + "orderId", r.orderId());
        String symbol = text(p + "symbol", r.symbol(), SYMBOL);
        String orderType = Inputs.oneOf(p + "orderType", r.orderType() == null ? "limit" : r.orderType(), ORDER_TYPES);
        String side = Inputs.oneOf(p + "side", r.side(), SIDES);
        BigDecimal price = positive(p + "priceAvg", r.priceAvg());
        BigDecimal size = positive(p + "size", r.size());
        // §2.17 amount is the total trading amount: priceAvg x size exactly (issue 9's consistency rule).
        BigDecimal product = price.multiply(size);
        BigDecimal amount = r.amount() == null ? product : Ledger.checkAmount(p + "amount", r.amount());
        if (amount.compareTo(product) != 0) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, p + "amount " + amount.toPlainString() + " is not priceAvg x size = " + product.toPlainString());
        }
        Ledger.checkAmount(p + "amount", product);
        String scope = Inputs.oneOf(p + "tradeScope", r.tradeScope() == null ? "taker" : r.tradeScope(), SCOPES);
        FeeInput fee = r.feeDetail();
        if (fee == null) throw new ApiException(ErrorCode.PARAM_EMPTY, p + "feeDetail");
        String deduction = Inputs.oneOf(p + "feeDetail.deduction", fee.deduction() == null ? "no" : fee.deduction(), DEDUCTIONS);
        String feeCoin = Inputs.coin(p + "feeDetail.feeCoin", fee.feeCoin());
        BigDecimal deducted = fee.totalDeductionFee() == null ? BigDecimal.ZERO : Ledger.checkAmount(p + "feeDetail.totalDeductionFee", fee.totalDeductionFee());
        BigDecimal total = fee.totalFee() == null ? BigDecimal.ZERO : Ledger.checkAmount(p + "feeDetail.totalFee", fee.totalFee());
        // A classic account's fills are read as §2.17 spot fills only; a unified account's may be of any v3 category (§9).
        String category = Inputs.oneOf(p + "category", r.category() == null ? "SPOT" : r.category(), CATEGORIES);
        if (kind == AccountKind.CLASSIC && !category.equals("SPOT")) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, p + "category " + category + ": a CLASSIC account's fills are SPOT fills");
        }
        BigDecimal execPnl = r.execPnl() == null ? BigDecimal.ZERO : Ledger.checkAmount(p + "execPnl", r.execPnl());
        long[] t = times(p, r.cTime(), r.uTime(), r.ago(), now);
        return new SpotFill(uid, tradeId, orderId, symbol, orderType, side, price, size, amount, scope, deduction, feeCoin,
                deducted, total, t[0], t[1], category, execPnl);
    }

    private static Withdrawal withdrawal(long uid, int i, WithdrawalInput r, long now) {
        String p = "records[" + i + "].";
        if (r == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "records[" + i + "]");
        long orderId = id(p + "orderId", r.orderId());
        String coin = Inputs.coin(p + "coin", r.coin());
        String type = Inputs.oneOf(p + "type", r.type() == null ? "withdraw" : r.type(), Set.of("withdraw")); // §2.18: fixed value
        String dest = Inputs.oneOf(p + "dest", r.dest() == null ? "on_chain" : r.dest(), DESTS);
        BigDecimal size = positive(p + "size", r.size());
        BigDecimal fee = r.fee() == null ? BigDecimal.ZERO : Ledger.checkAmount(p + "fee", r.fee());
        if (fee.signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, p + "fee");
        String status = Inputs.oneOf(p + "status", r.status() == null ? "success" : r.status(), STATUSES);
        String confirm = r.confirm() == null ? "0" : text(p + "confirm", r.confirm(), DIGITS);
        long[] t = times(p, r.cTime(), r.uTime(), r.ago(), now);
        return new Withdrawal(uid, orderId, Inputs.text(p + "tradeId", r.tradeId(), 128), coin, Inputs.text(p + "clientOid", r.clientOid(), 64),
                type, dest, size, fee, status, Inputs.text(p + "fromAddress", r.fromAddress(), 128), Inputs.text(p + "toAddress", r.toAddress(), 128),
                Inputs.text(p + "chain", r.chain(), 32), confirm, Inputs.text(p + "tag", r.tag(), 64), t[0], t[1]);
    }

    /** cTime (or now - ago, or now) and uTime (default cTime); cTime <= uTime. */
    static long[] times(String p, Long cTime, Long uTime, String ago, long now) {
        return times(p, "cTime", "uTime", cTime, uTime, ago, now);
    }

    /** As above, the two times named as the record names them (v3 records: createdTime, updatedTime). */
    static long[] times(String p, String cName, String uName, Long cTime, Long uTime, String ago, long now) {
        if (cTime != null && ago != null) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, p + cName + " and " + p + "ago are exclusive");
        long c;
        if (cTime != null) {
            if (cTime < 0) throw new ApiException(ErrorCode.PARAM_ERROR, p + cName);
            c = cTime;
        } else if (ago != null) {
            Duration d;
            try {
                d = Duration.parse(ago);
            } catch (RuntimeException e) {
                throw new ApiException(ErrorCode.PARAM_ERROR, p + "ago");
            }
            if (d.isNegative() || d.toMillis() > now) throw new ApiException(ErrorCode.PARAM_ERROR, p + "ago");
            c = now - d.toMillis();
        } else {
            c = now;
        }
        long u = uTime == null ? c : uTime;
        if (u < c) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, p + uName + " " + u + " is before " + cName + " " + c);
        return new long[]{c, u};
    }

    /** A given ID must be positive; absent is 0 (minted later). */
    static long id(String name, Long v) {
        if (v == null) return 0;
        if (v <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    static String text(String name, String v, Pattern pattern) {
        if (v == null || v.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        if (!pattern.matcher(v).matches()) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }




    static BigDecimal positive(String name, BigDecimal v) {
        Ledger.checkAmount(name, v);
        if (v.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    // --- reads

    /** §4.5.1 query: every parameter optional; limit already bounded by the caller (default 100, max 100). */
    public record FillQuery(String symbol, Long orderId, Long startTime, Long endTime, int limit, Long idLessThan) {}

    /** §4.5.2 query: startTime and endTime required (TimeWindow); limit default 20, max 100. */
    public record WithdrawalQuery(String coin, String clientOid, Long orderId, Long startTime, Long endTime, int limit, Long idLessThan) {}

    /**
     * A §4.5.1 page of spot fills, each as its stored §2.17 JSON (D75: rendered once at insert, fills never change).
     * §4.5.1 / §8: only the last 90 days of fills exist for the reader (an older startTime is clamped, not refused),
     * and a given interval is at most 90 days (TimeWindow.SPOT_FILLS).
     */
    public List<byte[]> fillPage(long uid, FillQuery q) {
        TimeWindow.Range w = TimeWindow.SPOT_FILLS.resolve(q.startTime(), q.endTime(), clock.millis());
        if (w.isEmpty()) return List.of();
        return db.read(dsl -> store.fillJson(dsl, uid, q.symbol(), q.orderId(), w.from(), w.to(), q.idLessThan(), q.limit()));
    }

    public List<Withdrawal> withdrawals(long uid, WithdrawalQuery q) {
        TimeWindow.Range w = TimeWindow.WITHDRAWAL_RECORDS.resolve(q.startTime(), q.endTime(), clock.millis());
        return db.read(dsl -> store.withdrawals(dsl, uid, q.coin(), q.clientOid(), q.orderId(), w.from(), w.to(), q.idLessThan(), q.limit()));
    }
}
