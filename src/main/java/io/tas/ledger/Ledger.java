package io.tas.ledger;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.LedgerTypes.*;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import org.jooq.Query;
import org.jooq.exception.IntegrityConstraintViolationException;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.*;

/**
 * The double-entry ledger (DESIGN: Ledger). Every change is one transaction that locks the affected
 * balance rows first (in key order), checks that nothing goes negative, updates the rows and writes a
 * journal pair per movement: the user's row and the counter-account's, summing to zero per coin.
 */
public final class Ledger {
    /** Decimal places of every stored amount (numeric(38, 18)). */
    public static final int SCALE = 18;
    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final LedgerStore store = new LedgerStore();

    public Ledger(Database db, Clock clock, IdGenerator ids) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
    }

    /** Balance rows locked for the current transaction; read them, then post movements against them. */
    public final class Locked {
        private final Map<BalanceKey, Balance> rows = new TreeMap<>();

        private Locked(List<Balance> locked) { locked.forEach(b -> rows.put(b.key(), b)); }

        public Balance get(BalanceKey key) {
            Balance b = rows.get(key);
            if (b == null) throw new IllegalStateException("not locked: " + key);
            return b;
        }

        /** Applies the movements (all or nothing) and journals them under a new ledger transaction. */
        public long post(String kind, String ref, long uid, List<Movement> movements) {
            return post(kind, ref, uid, movements, List.of());
        }

        /**
         * As post, and sends the caller's own writes of the same change (e.g. the convert order) in the same
         * batch, so a whole money change costs one lock round trip, one write round trip and the commit.
         */
        public long post(String kind, String ref, long uid, List<Movement> movements, List<Query> alsoWrite) {
            Map<BalanceKey, Balance> next = new TreeMap<>(rows);
            for (Movement m : movements) {
                // The database keeps 18 decimals; a finer amount would be rounded differently in the
                // journal and in the balance. Callers round (Ledger.scaled) before posting.
                if (m.amount().stripTrailingZeros().scale() > SCALE) {
                    throw new IllegalArgumentException("amount beyond ledger precision: " + m.amount());
                }
                Balance b = next.get(m.key());
                if (b == null) throw new IllegalStateException("not locked: " + m.key());
                Balance after = b.plus(m.field(), m.amount());
                if (after.get(m.field()).signum() < 0) {
                    throw new ApiException(ErrorCode.INSUFFICIENT_BALANCE);
                }
                next.put(m.key(), after);
            }
            var dsl = db.dsl();
            long txId = ids.next();
            List<Query> writes = new ArrayList<>();
            writes.add(store.insertTx(dsl, txId, kind, ref, uid, clock.millis()));
            List<LedgerStore.JournalRow> journal = new ArrayList<>(movements.size() * 2);
            for (Movement m : movements) {
                BalanceKey k = m.key();
                journal.add(new LedgerStore.JournalRow(ids.next(), txId, k.uid(), k.account().name(), m.field().name(), k.coin(), m.amount()));
                journal.add(new LedgerStore.JournalRow(ids.next(), txId, null, null, m.counter().name(), k.coin(), m.amount().negate()));
            }
            writes.add(store.insertJournal(dsl, journal));
            SortedSet<BalanceKey> changed = touched(movements);
            for (BalanceKey k : changed) writes.add(store.update(dsl, next.get(k)));
            writes.addAll(alsoWrite);
            store.execute(dsl, writes);
            for (BalanceKey k : changed) rows.put(k, next.get(k));
            return txId;
        }
    }

    /** Locks (creating when missing) the given rows in key order. Call inside Database.tx. */
    public Locked lock(Collection<BalanceKey> keys) {
        return new Locked(store.lock(db.dsl(), db.autoCommit(), new TreeSet<>(keys)));
    }

    /** One ledger transaction for the movements, in its own database transaction. */
    public long post(String kind, String ref, long uid, List<Movement> movements) {
        return db.tx(dsl -> lock(touched(movements)).post(kind, ref, uid, movements));
    }

    /** The result of an idempotent posting: the transaction, and whether it was a repeat of an earlier call. */
    public record Posted(long txId, boolean repeated) {}

    /**
     * Posts once per (kind, ref): a repeat returns the first transaction and changes nothing. Two
     * concurrent first calls race on the unique index; the loser reads the winner's transaction.
     */
    public Posted postOnce(String kind, String ref, long uid, List<Movement> movements) {
        Optional<Long> earlier = store.txByRef(db.dsl(), kind, ref);
        if (earlier.isPresent()) return new Posted(earlier.get(), true);
        try {
            return new Posted(post(kind, ref, uid, movements), false);
        } catch (IntegrityConstraintViolationException e) {
            return store.txByRef(db.dsl(), kind, ref).map(id -> new Posted(id, true)).orElseThrow(() -> e);
        }
    }

    /**
     * The account's balances. An all-zero row means the same as no row (rows are created before locking and
     * outlive a rejected change), so it is not listed.
     */
    public List<Balance> balances(long uid) {
        return store.balances(db.dsl(), uid).stream()
                .filter(b -> b.available().signum() != 0 || b.frozen().signum() != 0 || b.debt().signum() != 0).toList();
    }

    /** After a reset: balance rows this process knew to exist are gone. */
    public void forgetRows() { store.forgetRows(); }

    public Balance balance(BalanceKey key) {
        return balances(key.uid()).stream().filter(b -> b.key().equals(key)).findFirst().orElse(Balance.empty(key));
    }

    /** Conservation: balances equal their journal sums, every transaction sums to zero per coin, nothing is negative. */
    public record Check(boolean ok, List<String> balanceMismatches, List<String> unbalancedTransactions, List<String> negativeBalances) {}

    public Check check() {
        var dsl = db.dsl();
        List<String> mismatches = store.balanceMismatches(dsl);
        List<String> unbalanced = store.unbalancedTransactions(dsl);
        List<String> negative = store.negativeBalances(dsl);
        return new Check(mismatches.isEmpty() && unbalanced.isEmpty() && negative.isEmpty(), mismatches, unbalanced, negative);
    }

    private static SortedSet<BalanceKey> touched(List<Movement> movements) {
        SortedSet<BalanceKey> keys = new TreeSet<>();
        movements.forEach(m -> keys.add(m.key()));
        return keys;
    }

    /** An amount computed with more precision, rounded to what the ledger stores. */
    public static BigDecimal scaled(BigDecimal v) { return v.setScale(SCALE, java.math.RoundingMode.HALF_EVEN); }

    /** Convenience for movement lists. */
    public static Movement move(BalanceKey key, Field field, BigDecimal amount, Counter counter) {
        return new Movement(key, field, amount, counter);
    }
}
