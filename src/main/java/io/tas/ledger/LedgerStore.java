package io.tas.ledger;

import io.tas.ledger.Ledger.JournalLine;
import io.tas.ledger.LedgerTypes.*;
import io.tas.store.PgCopy;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.TableRecord;
import org.jooq.exception.IntegrityConstraintViolationException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static io.tas.store.generated.Tables.*;
import static org.jooq.impl.DSL.*;

/** SQL for balances and the journal. */
final class LedgerStore {

    /**
     * Locks the rows in key order on the transaction's one connection, creating missing ones, so that every
     * transaction takes its locks in one global order and none can wait in a cycle. The lock is one statement, sent
     * with the accounts' lock on PostgreSQL (lockAccountsAndRows): rows that exist, the usual case, cost no round trip
     * of their own. When some are missing:
     * - firstInTransaction (a group commit's own transaction, where nothing else has happened yet): the locks
     *   are released, the missing zero rows are created and committed on their own (a zero row changes no
     *   money), and everything is locked again in key order;
     * - inside a caller's transaction (a seed that creates the account, a position change): they are created
     *   there and commit with the caller's work (a new account's rows are invisible to everybody else).
     * A key whose account does not exist fails on the foreign key, which fails this change.
     */
    List<Balance> lock(DSLContext tx, Collection<BalanceKey> sortedKeys, boolean firstInTransaction, Runnable relockAccounts) {
        return lock(tx, sortedKeys, firstInTransaction, relockAccounts, selectForUpdate(tx, sortedKeys));
    }

    /**
     * The accounts' lock (lockAccounts, their kinds into `kinds`), then the balance rows' (lock). On PostgreSQL both
     * statements go in one round trip, run by the server in that order, followed there by the batch's reads (D218),
     * their answers into `answers` by key; missing rows are then created as lock() does, and the reads' answers dropped
     * with the rolled-back transaction they were read in (the caller reads again).
     */
    List<Balance> lockAccountsAndRows(DSLContext tx, java.util.SortedSet<Long> uids, Collection<BalanceKey> sortedKeys,
                                      boolean firstInTransaction, Map<Long, String> kinds,
                                      Collection<Ledger.Read<?>> reads, Map<Object, Object> answers) {
        Runnable lockAccounts = () -> kinds.putAll(lockAccounts(tx, uids));
        if (tx.dialect() != SQLDialect.POSTGRES) {
            lockAccounts.run();
            return lock(tx, sortedKeys, firstInTransaction, lockAccounts);
        }
        StringBuilder sql = new StringBuilder(LOCK_ACCOUNTS_PG).append(";\n").append(LOCK_BALANCES_PG);
        reads.forEach(r -> sql.append(";\n").append(r.sql()));
        Map<BalanceKey, Balance> found = new HashMap<>();
        tx.connection(c -> {
            try (var ps = c.prepareStatement(sql.toString())) {
                ps.setArray(1, c.createArrayOf("bigint", uids.toArray()));
                int next = PgCopy.bindArrays(c, ps, 2, KEY_ARRAYS, keyRows(sortedKeys));
                for (Ledger.Read<?> r : reads) next = r.binder().bind(c, ps, next);
                ps.execute();
                try (var rs = ps.getResultSet()) {
                    while (rs.next()) kinds.put(rs.getLong(1), rs.getString(2));
                }
                nextResult(ps);
                try (var rs = ps.getResultSet()) {
                    readBalances(rs, found);
                }
                for (Ledger.Read<?> r : reads) {
                    nextResult(ps);
                    try (var rs = ps.getResultSet()) {
                        answers.put(r.key(), r.answer().read(rs));
                    }
                }
            }
        });
        if (found.size() < sortedKeys.size()) reads.forEach(r -> answers.remove(r.key()));
        return lock(tx, sortedKeys, firstInTransaction, lockAccounts, found);
    }

    private static void nextResult(java.sql.PreparedStatement ps) throws java.sql.SQLException {
        if (!ps.getMoreResults()) throw new IllegalStateException("the batch's lock statement answered too little");
    }

    private List<Balance> lock(DSLContext tx, Collection<BalanceKey> sortedKeys, boolean firstInTransaction, Runnable relockAccounts,
                               Map<BalanceKey, Balance> found) {
        if (found.size() == sortedKeys.size()) return inKeyOrder(sortedKeys, found);
        List<BalanceKey> missing = sortedKeys.stream().filter(k -> !found.containsKey(k)).toList();
        if (firstInTransaction) {
            tx.connection(java.sql.Connection::rollback);
            insertIfMissing(tx, missing);
            tx.connection(java.sql.Connection::commit);
            relockAccounts.run(); // the rollback released the accounts' locks too: account before balance, as everywhere
        } else {
            insertIfMissing(tx, missing);
        }
        Map<BalanceKey, Balance> locked = selectForUpdate(tx, sortedKeys);
        if (locked.size() < sortedKeys.size()) throw new IllegalStateException("balance rows could not be created: " + sortedKeys);
        return inKeyOrder(sortedKeys, locked);
    }

    /**
     * Takes the accounts' lock, shared, in uid order, and reads their kinds under it (D141). It is the lock an account
     * switch takes exclusively (AccountStore.lock), so a switch moves every change committed before it and none lands
     * in between; a change after it decides on the account's new kind. PostgreSQL: FOR SHARE, which ledger changes of
     * one account hold together. H2 has no shared row lock; its writers run one at a time anyway (D113), and FOR UPDATE
     * takes the same turn the balance rows' lock would.
     */
    Map<Long, String> lockAccounts(DSLContext tx, java.util.SortedSet<Long> uids) {
        Map<Long, String> kinds = new HashMap<>();
        if (tx.dialect() == SQLDialect.POSTGRES) {
            // Plain SQL over an array: one statement text whatever the count, nothing rendered (D213).
            tx.connection(c -> {
                try (var ps = c.prepareStatement(LOCK_ACCOUNTS_PG)) {
                    ps.setArray(1, c.createArrayOf("bigint", uids.toArray()));
                    try (var rs = ps.executeQuery()) {
                        while (rs.next()) kinds.put(rs.getLong(1), rs.getString(2));
                    }
                }
            });
            return kinds;
        }
        for (long uid : uids) tx.selectFrom(ACCOUNT_SETTINGS).where(ACCOUNT_SETTINGS.UID.eq(uid)).forUpdate().fetchOptional();
        tx.select(ACCOUNT.UID, ACCOUNT.ACCOUNT_KIND).from(ACCOUNT).where(ACCOUNT.UID.in(uids)).forEach(r -> kinds.put(r.value1(), r.value2()));
        return kinds;
    }

    private static List<Balance> inKeyOrder(Collection<BalanceKey> sortedKeys, Map<BalanceKey, Balance> found) {
        List<Balance> out = new ArrayList<>(sortedKeys.size());
        for (BalanceKey k : sortedKeys) out.add(found.get(k));
        return out;
    }

    /** Zero rows for the keys, in one statement; rows that exist already are left alone. */
    private static void insertIfMissing(DSLContext dsl, List<BalanceKey> keys) {
        var insert = dsl.insertInto(BALANCE, BALANCE.UID, BALANCE.ACCOUNT_TYPE, BALANCE.COIN, BALANCE.AVAILABLE, BALANCE.FROZEN, BALANCE.DEBT);
        for (BalanceKey k : keys) insert = insert.values(k.uid(), k.account().name(), k.coin(), BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);
        try {
            insert.onDuplicateKeyIgnore().execute();
        } catch (IntegrityConstraintViolationException e) {
            // H2 emulates ON CONFLICT DO NOTHING with MERGE, which can still report a racing duplicate:
            // then the row exists, which is all we need. A foreign-key failure is rethrown to the caller.
            if (!isDuplicate(e)) throw e;
        }
    }

    private static boolean isDuplicate(IntegrityConstraintViolationException e) {
        String state = e.sqlState();
        return "23505".equals(state) || (e.getMessage() != null && e.getMessage().contains("Unique index or primary key violation"));
    }

    /**
     * PostgreSQL sorts before it locks (LockRows above Sort), so one ordered statement takes the locks in key
     * order. H2 locks rows as it reads them, in no promised order, so there each row is locked on its own.
     */
    private Map<BalanceKey, Balance> selectForUpdate(DSLContext dsl, Collection<BalanceKey> keys) {
        Map<BalanceKey, Balance> out = new HashMap<>();
        if (dsl.dialect() == SQLDialect.H2) {
            for (BalanceKey k : keys) dsl.selectFrom(BALANCE).where(keyIs(k)).forUpdate().fetchOptional().ifPresent(r -> out.put(k, toBalance(r)));
            return out;
        }
        dsl.connection(c -> {
            try (var ps = c.prepareStatement(LOCK_BALANCES_PG)) {
                PgCopy.bindArrays(c, ps, 1, KEY_ARRAYS, keyRows(keys));
                try (var rs = ps.executeQuery()) {
                    readBalances(rs, out);
                }
            }
        });
        return out;
    }

    private static List<Object[]> keyRows(Collection<BalanceKey> keys) {
        return keys.stream().map(k -> new Object[]{k.uid(), k.account().name(), k.coin()}).toList();
    }

    /** The rows of LOCK_BALANCES_PG, by key. */
    private static void readBalances(java.sql.ResultSet rs, Map<BalanceKey, Balance> out) throws java.sql.SQLException {
        while (rs.next()) {
            Balance b = new Balance(new BalanceKey(rs.getLong(1), AccountType.valueOf(rs.getString(2)), rs.getString(3)),
                    rs.getBigDecimal(4), rs.getBigDecimal(5), rs.getBigDecimal(6));
            out.put(b.key(), b);
        }
    }

    /** The accounts' settings rows locked shared, in uid order, with each account's kind (lockAccounts, D141). */
    private static final String LOCK_ACCOUNTS_PG = "select a.uid, a.account_kind from account a join account_settings s on s.uid = a.uid"
            + " where a.uid = any(?) order by a.uid for share of s";
    /** The balance rows of the keys, locked in key order (PostgreSQL sorts before it locks). */
    private static final String LOCK_BALANCES_PG = "select b.uid, b.account_type, b.coin, b.available, b.frozen, b.debt from balance b"
            + " join unnest(?::bigint[], ?::text[], ?::text[]) as k(uid, account_type, coin)"
            + " on b.uid = k.uid and b.account_type = k.account_type and b.coin = k.coin"
            + " order by b.uid, b.account_type, b.coin for update of b";
    private static final List<String> KEY_ARRAYS = List.of("bigint", "text", "text");

    /** The newest journal rows of uid with their transaction (kind, ref, time), newest first. */
    List<JournalLine> journal(DSLContext dsl, long uid, int limit) {
        return dsl.select(JOURNAL.TX_ID, LEDGER_TX.KIND, LEDGER_TX.REF, LEDGER_TX.CREATED_TIME, JOURNAL.ACCOUNT_TYPE, JOURNAL.FIELD,
                        JOURNAL.COIN, JOURNAL.AMOUNT, JOURNAL.COUNTER)
                .from(JOURNAL).join(LEDGER_TX).on(LEDGER_TX.ID.eq(JOURNAL.TX_ID))
                .where(JOURNAL.UID.eq(uid)).orderBy(JOURNAL.TX_ID.desc(), JOURNAL.SEQ.desc()).limit(limit)
                .fetch(r -> new JournalLine(r.value1(), r.value2(), r.value3(), r.value4(), r.value5(), r.value6(), r.value7(), r.value8(),
                        r.value9()));
    }

    private static Balance toBalance(io.tas.store.generated.tables.records.BalanceRecord r) {
        return new Balance(new BalanceKey(r.getUid(), AccountType.valueOf(r.getAccountType()), r.getCoin()),
                r.getAvailable(), r.getFrozen(), r.getDebt());
    }

    Optional<Long> txByRef(DSLContext dsl, String kind, String ref) { return txByRefQuery(dsl, kind, ref).fetchOptional(LEDGER_TX.ID); }

    /** The repeat lookup, with the partial index's own predicate, so that PostgreSQL's generic plan may use it (D227). */
    static org.jooq.ResultQuery<org.jooq.Record1<Long>> txByRefQuery(DSLContext dsl, String kind, String ref) {
        return dsl.select(LEDGER_TX.ID).from(LEDGER_TX).where(LEDGER_TX.KIND.eq(kind).and(LEDGER_TX.REF.eq(ref)))
                .and(condition(Ledger.REPEATABLE));
    }

    /**
     * What a ledger transaction did, as comparable text: its uid and its journal rows, each a movement with its counter
     * account (amounts without trailing zeros), sorted. Two postings with equal fingerprints moved the same money. A row
     * migrated without its counter (D224) names none and so never equals a retry: the ledger check reports it.
     */
    List<String> journalOf(DSLContext dsl, long txId) {
        Long uid = dsl.select(LEDGER_TX.UID).from(LEDGER_TX).where(LEDGER_TX.ID.eq(txId)).fetchOne(LEDGER_TX.UID);
        List<String> rows = new ArrayList<>();
        rows.add("tx " + uid);
        dsl.select(JOURNAL.UID, JOURNAL.ACCOUNT_TYPE, JOURNAL.FIELD, JOURNAL.COIN, JOURNAL.AMOUNT, JOURNAL.COUNTER).from(JOURNAL)
                .where(JOURNAL.TX_ID.eq(txId))
                .forEach(r -> rows.add(journalText(r.value1(), r.value2(), r.value3(), r.value4(), r.value5(), r.value6())));
        rows.sort(null);
        return rows;
    }

    /** The fingerprint (see journalOf) that posting these movements for uid would write. */
    static List<String> fingerprint(long uid, List<Movement> movements) {
        List<String> rows = new ArrayList<>();
        rows.add("tx " + uid);
        for (Movement m : movements) {
            rows.add(journalText(m.key().uid(), m.key().account().name(), m.field().name(), m.key().coin(), m.amount(), m.counter().name()));
        }
        rows.sort(null);
        return rows;
    }

    /** D224: a journal row is a user row and its counter account, so the counter's name is part of the row's text. */
    private static String journalText(Long uid, String account, String field, String coin, BigDecimal amount, String counter) {
        return uid + "/" + account + "/" + field + "/" + coin + " " + amount.stripTrailingZeros().toPlainString() + " against " + counter;
    }

    /**
     * One journal row, the seq-th of its transaction: a movement of the user's balance (uid, account, field) and the
     * counter account it moved against, whose side is the negated amount (D224: no row of its own).
     */
    record JournalRow(long txId, int seq, long uid, String account, String field, String coin, BigDecimal amount, String counter) {}

    /**
     * Writes what a batch of ledger transactions did: each table's rows in one statement (PgCopy.insert: unnest arrays or,
     * from 256 rows, COPY on PostgreSQL, D177 and D213; a JDBC batch on H2), each changed balance row once with its final
     * value, then the callers' own records.
     */
    void write(DSLContext dsl, List<Ledger.Staged> staged, List<Balance> after) {
        if (staged.isEmpty()) return;
        PgCopy.insert(dsl, TX_ROW, staged.stream().map(s -> new Object[]{s.txId(), s.kind(), s.ref(), s.uid(), s.time()}).toList());
        PgCopy.insert(dsl, JOURNAL_ROW, staged.stream().flatMap(s -> s.journal().stream())
                .map(r -> new Object[]{r.txId(), r.seq(), r.uid(), r.account(), r.field(), r.coin(), r.amount(), r.counter()}).toList());
        updateBalances(dsl, after);
        insertRecords(dsl, staged.stream().<TableRecord<?>>flatMap(s -> s.records().stream()).toList());
    }

    private static final PgCopy.Shape TX_ROW = PgCopy.shape(LEDGER_TX, List.of(LEDGER_TX.ID, LEDGER_TX.KIND, LEDGER_TX.REF, LEDGER_TX.UID,
            LEDGER_TX.CREATED_TIME));
    private static final PgCopy.Shape JOURNAL_ROW = PgCopy.shape(JOURNAL, List.of(JOURNAL.TX_ID, JOURNAL.SEQ, JOURNAL.UID,
            JOURNAL.ACCOUNT_TYPE, JOURNAL.FIELD, JOURNAL.COIN, JOURNAL.AMOUNT, JOURNAL.COUNTER));
    private static final String UPDATE_BALANCES_PG = "update balance b set available = u.available, frozen = u.frozen, debt = u.debt"
            + " from unnest(?::numeric[], ?::numeric[], ?::numeric[], ?::bigint[], ?::text[], ?::text[])"
            + " as u(available, frozen, debt, uid, account_type, coin)"
            + " where b.uid = u.uid and b.account_type = u.account_type and b.coin = u.coin";
    private static final String UPDATE_BALANCE = "update balance set available = ?, frozen = ?, debt = ? where uid = ? and account_type = ? and coin = ?";
    private static final List<String> BALANCE_ARRAYS = List.of("numeric", "numeric", "numeric", "bigint", "text", "text");

    /**
     * Each changed balance row once, with its final value (the rows are locked): on PostgreSQL one statement from arrays,
     * on H2 one JDBC batch (D213).
     */
    private static void updateBalances(DSLContext dsl, List<Balance> after) {
        if (after.isEmpty()) return;
        List<Object[]> rows = after.stream().map(b -> new Object[]{b.available(), b.frozen(), b.debt(), b.key().uid(),
                b.key().account().name(), b.key().coin()}).toList();
        if (dsl.dialect() == SQLDialect.POSTGRES) {
            PgCopy.run(dsl, PgCopy.arrays(UPDATE_BALANCES_PG, BALANCE_ARRAYS, rows));
            return;
        }
        PgCopy.batch(dsl, UPDATE_BALANCE, rows);
    }

    /** The callers' records, one prepared batch per table, every column bound (cheaper than jOOQ's per-record batch). */
    private static void insertRecords(DSLContext dsl, List<TableRecord<?>> records) {
        Map<org.jooq.Table<?>, List<TableRecord<?>>> byTable = new java.util.LinkedHashMap<>();
        records.forEach(r -> byTable.computeIfAbsent(r.getTable(), t -> new ArrayList<>()).add(r));
        byTable.forEach((table, rows) -> {
            var batch = dsl.batch(dsl.insertInto(table).columns(table.fields()).values(new Object[table.fields().length]));
            rows.forEach(r -> batch.bind(r.intoArray()));
            batch.execute();
        });
    }

    List<Balance> balances(DSLContext dsl, long uid) {
        return dsl.selectFrom(BALANCE).where(BALANCE.UID.eq(uid)).orderBy(BALANCE.ACCOUNT_TYPE, BALANCE.COIN).fetch(LedgerStore::toBalance);
    }

    /** The balance rows of these accounts, each account's in balances(uid)'s order. */
    List<Balance> balances(DSLContext dsl, java.util.Collection<Long> uids) {
        return dsl.selectFrom(BALANCE).where(BALANCE.UID.in(uids)).orderBy(BALANCE.UID, BALANCE.ACCOUNT_TYPE, BALANCE.COIN)
                .fetch(LedgerStore::toBalance);
    }

    /**
     * Balance fields that differ from the sum of their journal rows (empty when conserved). One statement,
     * so PostgreSQL answers from one snapshot: each balance field counts positive, each journal row negative,
     * and any (row, field) whose total is not zero is a mismatch. A counter row V28 left (D224) has no balance and is
     * reported by unbalancedTransactions instead.
     */
    List<String> balanceMismatches(DSLContext dsl) {
        return dsl.resultQuery("""
                select uid, account_type, coin, field, sum(v) as diff from (
                    select uid, account_type, coin, 'available' as field, available as v from balance
                    union all select uid, account_type, coin, 'frozen', frozen from balance
                    union all select uid, account_type, coin, 'debt', debt from balance
                    union all select uid, account_type, coin, field, -amount from journal where uid is not null
                ) x group by uid, account_type, coin, field having sum(v) <> 0""")
                .fetch(r -> r.get(0) + "/" + r.get(1) + "/" + r.get(2) + " " + r.get(3) + ": balance - journal = " + r.get(4));
    }

    /**
     * Journal rows without a counter account, and journal rows of a transaction that was never written (the foreign key's
     * job until D178): empty when double entry holds. D224: a row's counter side is its negated amount, so a transaction
     * sums to zero per coin by construction once every row names its counter. Only V28 can leave a row without one: a
     * user row whose counter row it did not find ("has no counter"), or a counter row no user row took ("is a counter row
     * without its user row").
     */
    List<String> unbalancedTransactions(DSLContext dsl) {
        List<String> out = new ArrayList<>(dsl.select(JOURNAL.TX_ID, JOURNAL.SEQ, JOURNAL.UID).from(JOURNAL)
                .where(JOURNAL.COUNTER.isNull().or(JOURNAL.UID.isNull())).orderBy(JOURNAL.TX_ID, JOURNAL.SEQ)
                .fetch(r -> "tx " + r.value1() + " seq " + r.value2() + (r.value3() == null ? " is a counter row without its user row" : " has no counter")));
        out.addAll(dsl.selectDistinct(JOURNAL.TX_ID).from(JOURNAL)
                .whereNotExists(selectOne().from(LEDGER_TX).where(LEDGER_TX.ID.eq(JOURNAL.TX_ID)))
                .fetch(r -> "tx " + r.value1() + " has journal rows but no ledger transaction"));
        return out;
    }
    /** Rows with a negative available or frozen amount (never allowed). */
    List<String> negativeBalances(DSLContext dsl) {
        return dsl.selectFrom(BALANCE).where(BALANCE.AVAILABLE.lt(BigDecimal.ZERO).or(BALANCE.FROZEN.lt(BigDecimal.ZERO)))
                .fetch(r -> r.getUid() + "/" + r.getAccountType() + "/" + r.getCoin() + " negative");
    }

    private static org.jooq.Condition keyIs(BalanceKey k) {
        return BALANCE.UID.eq(k.uid()).and(BALANCE.ACCOUNT_TYPE.eq(k.account().name())).and(BALANCE.COIN.eq(k.coin()));
    }

}
