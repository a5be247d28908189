package io.tas.ledger;

import io.tas.ledger.LedgerTypes.*;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.exception.IntegrityConstraintViolationException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import java.util.Optional;

import static io.tas.store.generated.Tables.*;
import static org.jooq.impl.DSL.*;

/** SQL for balances and the journal. */
final class LedgerStore {

    /** Balance rows known to exist (rows are only ever removed by a sandbox reset, which clears this). */
    private final Set<BalanceKey> known = ConcurrentHashMap.newKeySet();

    void forgetRows() { known.clear(); }

    /**
     * Locks the rows in key order, creating missing ones first, so that every transaction takes its
     * locks in one global order and none can wait in a cycle. A missing row is created before any lock is
     * taken, committed on its own (a zero row changes no money); a row of an account created in this very
     * transaction is created inside it (nobody else can see that account yet). Known rows cost one round trip.
     */
    List<Balance> lock(DSLContext tx, DSLContext autoCommit, Collection<BalanceKey> sortedKeys) {
        if (!known.containsAll(sortedKeys)) {
            List<BalanceKey> unknown = sortedKeys.stream().filter(k -> !known.contains(k)).toList();
            Set<BalanceKey> existing = new HashSet<>();
            tx.selectFrom(BALANCE).where(row(BALANCE.UID, BALANCE.ACCOUNT_TYPE, BALANCE.COIN)
                    .in(unknown.stream().map(k -> row(k.uid(), k.account().name(), k.coin())).toList()))
                    .forEach(r -> existing.add(toBalance(r).key()));
            for (BalanceKey k : unknown) {
                if (existing.contains(k)) continue;
                try {
                    insertIfMissing(autoCommit, k);
                } catch (IntegrityConstraintViolationException e) {
                    insertIfMissing(tx, k); // the account itself is not committed yet: create the row with it
                }
            }
            known.addAll(unknown);
        }
        Map<BalanceKey, Balance> found = selectForUpdate(tx, sortedKeys);
        if (found.size() < sortedKeys.size()) {
            // Rare: a reset on another node, or a rolled-back transaction that created them, removed rows we
            // knew. Create them in this transaction (out of order, so PostgreSQL may break a deadlock here).
            known.removeAll(sortedKeys);
            for (BalanceKey k : sortedKeys) if (!found.containsKey(k)) insertIfMissing(tx, k);
            found = selectForUpdate(tx, sortedKeys);
            if (found.size() < sortedKeys.size()) throw new IllegalStateException("balance rows could not be created: " + sortedKeys);
        }
        List<Balance> out = new ArrayList<>(sortedKeys.size());
        for (BalanceKey k : sortedKeys) out.add(found.get(k));
        return out;
    }

    private static void insertIfMissing(DSLContext dsl, BalanceKey k) {
        try {
            dsl.insertInto(BALANCE)
                    .set(BALANCE.UID, k.uid()).set(BALANCE.ACCOUNT_TYPE, k.account().name()).set(BALANCE.COIN, k.coin())
                    .set(BALANCE.AVAILABLE, BigDecimal.ZERO).set(BALANCE.FROZEN, BigDecimal.ZERO).set(BALANCE.DEBT, BigDecimal.ZERO)
                    .onDuplicateKeyIgnore()
                    .execute();
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
        var rows = keys.stream().map(k -> row(k.uid(), k.account().name(), k.coin())).toList();
        dsl.selectFrom(BALANCE)
                .where(row(BALANCE.UID, BALANCE.ACCOUNT_TYPE, BALANCE.COIN).in(rows))
                .orderBy(BALANCE.UID, BALANCE.ACCOUNT_TYPE, BALANCE.COIN)
                .forUpdate()
                .forEach(r -> {
                    Balance b = toBalance(r);
                    out.put(b.key(), b);
                });
        return out;
    }

    private static Balance toBalance(io.tas.store.generated.tables.records.BalanceRecord r) {
        return new Balance(new BalanceKey(r.getUid(), AccountType.valueOf(r.getAccountType()), r.getCoin()),
                r.getAvailable(), r.getFrozen(), r.getDebt());
    }

    // The writes of one ledger transaction are built as queries and sent together (Ledger.post): one round trip.

    Query update(DSLContext dsl, Balance b) {
        return dsl.update(BALANCE).set(BALANCE.AVAILABLE, b.available()).set(BALANCE.FROZEN, b.frozen()).set(BALANCE.DEBT, b.debt())
                .where(keyIs(b.key()));
    }

    Query insertTx(DSLContext dsl, long id, String kind, String ref, long uid, long now) {
        return dsl.insertInto(LEDGER_TX).set(LEDGER_TX.ID, id).set(LEDGER_TX.KIND, kind).set(LEDGER_TX.REF, ref)
                .set(LEDGER_TX.UID, uid).set(LEDGER_TX.CREATED_TIME, now);
    }

    Optional<Long> txByRef(DSLContext dsl, String kind, String ref) {
        return dsl.select(LEDGER_TX.ID).from(LEDGER_TX).where(LEDGER_TX.KIND.eq(kind).and(LEDGER_TX.REF.eq(ref))).fetchOptional(LEDGER_TX.ID);
    }

    /** One journal row: a user row (uid and account set) or a counter-account row (both null). */
    record JournalRow(long id, long txId, Long uid, String account, String field, String coin, BigDecimal amount) {}

    /** All journal rows of a transaction in one statement. */
    Query insertJournal(DSLContext dsl, List<JournalRow> rows) {
        var insert = dsl.insertInto(JOURNAL, JOURNAL.ID, JOURNAL.TX_ID, JOURNAL.UID, JOURNAL.ACCOUNT_TYPE, JOURNAL.FIELD, JOURNAL.COIN, JOURNAL.AMOUNT);
        for (JournalRow r : rows) insert = insert.values(r.id(), r.txId(), r.uid(), r.account(), r.field(), r.coin(), r.amount());
        return insert;
    }

    /** Sends the queries in one JDBC batch (one round trip on PostgreSQL). */
    void execute(DSLContext dsl, List<Query> queries) {
        dsl.batch(queries).execute();
    }

    List<Balance> balances(DSLContext dsl, long uid) {
        return dsl.selectFrom(BALANCE).where(BALANCE.UID.eq(uid)).orderBy(BALANCE.ACCOUNT_TYPE, BALANCE.COIN)
                .fetch(r -> new Balance(new BalanceKey(r.getUid(), AccountType.valueOf(r.getAccountType()), r.getCoin()),
                        r.getAvailable(), r.getFrozen(), r.getDebt()));
    }

    /**
     * Balance fields that differ from the sum of their journal rows (empty when conserved). One statement,
     * so PostgreSQL answers from one snapshot: each balance field counts positive, each journal row negative,
     * and any (row, field) whose total is not zero is a mismatch.
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

    /** Ledger transactions whose journal rows do not sum to zero per coin (empty when double entry holds). */
    List<String> unbalancedTransactions(DSLContext dsl) {
        return dsl.select(JOURNAL.TX_ID, JOURNAL.COIN, sum(JOURNAL.AMOUNT))
                .from(JOURNAL).groupBy(JOURNAL.TX_ID, JOURNAL.COIN)
                .having(sum(JOURNAL.AMOUNT).ne(BigDecimal.ZERO))
                .fetch(r -> "tx " + r.value1() + " " + r.value2() + " sums to " + r.value3());
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
