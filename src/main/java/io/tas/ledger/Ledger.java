package io.tas.ledger;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.LedgerTypes.*;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.store.Tx;
import org.jooq.DSLContext;
import org.jooq.TableRecord;
import org.jooq.exception.IntegrityConstraintViolationException;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.*;
import java.util.function.Function;

/**
 * The double-entry ledger (DESIGN: Ledger). Every change is one ledger transaction that locks the affected
 * balance rows first (in key order), checks that nothing goes negative, updates the rows and writes a
 * journal row per movement: the user's side, naming the counter account whose side is its negation (D224).
 * Changes outside a caller's transaction go through {@link GroupCommit}: concurrent ones share a commit.
 */
public final class Ledger implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Ledger.class);
    /** Decimal places of every stored amount (numeric(38, 18)). */
    public static final int SCALE = 18;
    /** Integer digits numeric(38, 18) leaves: every stored amount is below 10^20 in magnitude. */
    public static final int MAX_INTEGER_DIGITS = 38 - SCALE;
    private static final BigDecimal LIMIT = BigDecimal.TEN.pow(MAX_INTEGER_DIGITS);
    /** Length of ledger_tx.ref. */
    public static final int MAX_REF_LENGTH = 128;
    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final LedgerStore store = new LedgerStore();
    private final GroupCommit<Change<?>> groupCommit;
    /** How each type of side write a change stages (Locked.alsoWrite) is written, once per batch (issue 25). */
    private final Map<Class<?>, java.util.function.BiConsumer<DSLContext, List<Object>>> sideWriters = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<java.util.function.Consumer<Set<Long>>> commitListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public Ledger(Database db, Clock clock, IdGenerator ids) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.groupCommit = new GroupCommit<>(this::runTogether);
    }

    /**
     * Registers how side writes of a type are stored: a change stages them (Locked.alsoWrite) with its movements, and the
     * batch that commits the change hands every accepted change's items of that type to the writer, in order, in the
     * same transaction (the matching engine's orders, fills and trades, written together with their money).
     */
    @SuppressWarnings("unchecked")
    public <T> void writeWith(Class<T> type, java.util.function.BiConsumer<DSLContext, List<T>> writer) {
        sideWriters.put(type, (dsl, items) -> writer.accept(dsl, (List<T>) (List<?>) items));
    }

    /** The writes of one ledger transaction, staged until its database transaction writes them. */
    record Staged(long txId, String kind, String ref, long uid, long time, List<LedgerStore.JournalRow> journal,
                  List<? extends TableRecord<?>> records) {}

    /**
     * Balance rows locked for the current change; read them, then post movements against them. Reads see
     * earlier changes of the same batch; a change that throws leaves the batch's rows as they were.
     */
    public final class Locked {
        private final Set<BalanceKey> declared;
        private final Map<BalanceKey, Balance> shared;
        private final Map<BalanceKey, Balance> mine = new TreeMap<>();
        private final List<Staged> staged = new ArrayList<>();
        private final List<Object> sideItems = new ArrayList<>();

        private final Map<Long, String> kinds;
        private final Map<Object, Object> reads;

        Locked(Set<BalanceKey> declared, Map<BalanceKey, Balance> shared, Map<Long, String> kinds, Map<Object, Object> reads) {
            this.declared = declared;
            this.shared = shared;
            this.kinds = kinds;
            this.reads = reads;
        }

        /** The answer of the read this change was submitted with (submit with a Read). */
        @SuppressWarnings("unchecked")
        public <V> V read(Read<V> read) {
            if (!reads.containsKey(read.key())) throw new IllegalStateException("not read: " + read.key());
            return (V) reads.get(read.key());
        }

        /**
         * Whether uid is a unified account, read under the account's lock (D141): a cached kind may be older than a
         * switch that just ended, and a unified-only change (a borrow, a conversion, a Reality order) must not land on
         * an account that is classic by its commit.
         */
        public boolean unified(long uid) {
            if (declared.stream().noneMatch(k -> k.uid() == uid)) throw new IllegalStateException("not locked: " + uid);
            return "UNIFIED".equals(kinds.get(uid));
        }

        public Balance get(BalanceKey key) {
            if (!declared.contains(key)) throw new IllegalStateException("not locked: " + key);
            Balance b = mine.get(key);
            return b != null ? b : shared.get(key);
        }

        /** Applies the movements (all or nothing) and journals them under a new ledger transaction. */
        public long post(String kind, String ref, long uid, List<Movement> movements) {
            return post(kind, ref, uid, movements, List.of());
        }

        /** As post, and inserts the caller's own records of the same change (e.g. the convert order) with it. */
        public long post(String kind, String ref, long uid, List<Movement> movements, List<? extends TableRecord<?>> records) {
            Map<BalanceKey, Balance> next = new TreeMap<>();
            for (Movement m : movements) {
                // The database keeps 18 decimals; a finer amount would be rounded differently in the
                // journal and in the balance. Callers round (Ledger.scaled) before posting.
                if (m.amount().stripTrailingZeros().scale() > SCALE) {
                    throw new IllegalArgumentException("amount beyond ledger precision: " + m.amount());
                }
                Balance b = next.containsKey(m.key()) ? next.get(m.key()) : get(m.key());
                next.put(m.key(), b.plus(m.field(), m.amount()));
            }
            // A transaction is atomic: only where its movements leave each row counts, not the order they are listed in.
            for (Balance after : next.values()) {
                for (Field f : Field.values()) {
                    BigDecimal v = after.get(f);
                    if (v.signum() < 0) throw new ApiException(ErrorCode.INSUFFICIENT_BALANCE);
                    if (v.abs().compareTo(LIMIT) >= 0) {
                        throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, "balance would exceed " + MAX_INTEGER_DIGITS + " integer digits");
                    }
                }
            }
            long txId = ids.next();
            // D224: one row per movement, naming its counter account; the counter's side is its negation, not a row.
            List<LedgerStore.JournalRow> journal = new ArrayList<>(movements.size());
            for (Movement m : movements) {
                BalanceKey k = m.key();
                journal.add(new LedgerStore.JournalRow(txId, journal.size(), k.uid(), k.account().name(), m.field().name(), k.coin(), m.amount(),
                        m.counter().name()));
            }
            mine.putAll(next);
            staged.add(new Staged(txId, kind, ref, uid, clock.millis(), journal, records));
            return txId;
        }

        /** Stages a side write of a type registered with writeWith: written with this change, or not at all. */
        public void alsoWrite(Object item) {
            if (!sideWriters.containsKey(item.getClass())) throw new IllegalStateException("no writer for " + item.getClass());
            sideItems.add(item);
        }

        /** The change succeeded: its rows become the batch's, its writes join the batch's. */
        void mergeInto(Set<BalanceKey> changed, List<Staged> writes, List<Object> items) {
            shared.putAll(mine);
            changed.addAll(mine.keySet());
            writes.addAll(staged);
            items.addAll(sideItems);
        }
    }

    /**
     * Runs one money change in a transaction of its own: locks the keys (creating missing rows), lets `change` read
     * them and post, and returns after the commit, which it shares with concurrent changes (group commit). `change` may
     * run more than once (a failed batch is retried change by change), so it must not have effects outside the ledger.
     * An ApiException from it rejects the change, which then changes nothing. A caller in a transaction passes it
     * (submit(Tx, ...)): a group commit would wait for the locks that caller holds.
     */
    public <T> T submit(Collection<BalanceKey> keys, Function<Locked, T> change) {
        return submit(keys, null, change);
    }

    /**
     * As submit, with a read the change decides on (Locked.read): the batch runs it once for all its changes that ask the
     * same read (equal keys), after their rows are locked and before any of them decides. What a read sees was committed
     * before the batch: it holds for every change of the batch in the serial order (D213).
     */
    public <T> T submit(Collection<BalanceKey> keys, Read<?> read, Function<Locked, T> change) {
        db.requireNoConnection("a group-committed ledger change");
        return groupCommit.submit(new Change<>(keys, read, change));
    }

    /**
     * A read shared by a batch's changes, one SELECT: those whose reads have equal keys get one answer. Its text, what
     * binds its parameters (from the index given) and its answer from its rows. On PostgreSQL it runs in the round trip
     * of the batch's locks, after them (D218); on H2, or when the locks had to be taken again, on its own (runAlone).
     */
    public record Read<V>(Object key, String sql, io.tas.store.PgCopy.Binder binder, RowsReader<V> answer) {
        V runAlone(DSLContext dsl) {
            return dsl.connectionResult(c -> {
                try (var ps = c.prepareStatement(sql)) {
                    binder.bind(c, ps, 1);
                    try (var rs = ps.executeQuery()) {
                        return answer.read(rs);
                    }
                }
            });
        }
    }

    /** A read's answer from its result set. */
    public interface RowsReader<V> {
        V read(java.sql.ResultSet rs) throws java.sql.SQLException;
    }

    /** As submit, inside the caller's transaction: it commits (or rolls back) with the caller's work. */
    @SuppressWarnings("unchecked")
    public <T> T submit(Tx tx, Collection<BalanceKey> keys, Function<Locked, T> change) {
        Set<Long> uids = new TreeSet<>();
        Outcome<T> out = (Outcome<T>) runAndWrite(tx.dsl(), List.of(new Change<>(keys, null, change)), false, uids).getFirst();
        if (!uids.isEmpty() && !commitListeners.isEmpty()) tx.afterCommit(() -> committed(uids));
        return out.valueOrThrow();
    }

    /**
     * Registers a listener of committed balance changes: the accounts whose balances a committed transaction changed
     * (the WebSocket account topic, issue 27). It runs after the commit on the committing thread and must not throw.
     */
    public void onCommitted(java.util.function.Consumer<Set<Long>> listener) { commitListeners.add(listener); }

    private void committed(Set<Long> uids) {
        for (var l : commitListeners) {
            try {
                l.accept(uids);
            } catch (RuntimeException e) {
                LOG.warn("a ledger commit listener failed: {}", e.getClass().getSimpleName());
            }
        }
    }

    /** The changes as one group-commit batch, on this thread, with the group commit's isolation (for tests). */
    List<java.util.concurrent.CompletableFuture<?>> submitAsOneBatch(List<Change<?>> changes) {
        return groupCommit.writeNow(changes);
    }

    /** Runs the changes in one database transaction of their own; their outcomes, in order, after the commit. */
    List<Outcome<?>> runTogether(List<Change<?>> changes) {
        Set<Long> uids = new TreeSet<>();
        List<Outcome<?>> out = db.writerTx(tx -> runAndWrite(tx.dsl(), changes, true, uids));
        if (!uids.isEmpty() && !commitListeners.isEmpty()) committed(uids);
        return out;
    }

    /** Runs and writes the changes; `uids` gets the accounts whose balances they changed. */
    private List<Outcome<?>> runAndWrite(DSLContext dsl, List<? extends Change<?>> changes, boolean ownTransaction, Set<Long> uids) {
        Batch batch = new Batch(dsl, changes, ownTransaction);
        List<Outcome<?>> outcomes = batch.run();
        batch.write();
        batch.changed.forEach(k -> uids.add(k.uid()));
        return outcomes;
    }

    /** One ledger transaction for the movements, committed before it returns. */
    public long post(String kind, String ref, long uid, List<Movement> movements) {
        return submit(touched(movements), rows -> rows.post(kind, ref, uid, movements));
    }

    /** One ledger transaction for the movements, in the caller's transaction. */
    public long post(Tx tx, String kind, String ref, long uid, List<Movement> movements) {
        return submit(tx, touched(movements), rows -> rows.post(kind, ref, uid, movements));
    }

    /** A submitted change: the rows it needs and what it does with them. */
    record Change<T>(Collection<BalanceKey> keys, Read<?> read, Function<Locked, T> work) {
        Change(Collection<BalanceKey> keys, Function<Locked, T> work) { this(keys, null, work); }
    }

    /** What a change did: its value, or what rejected it. */
    public record Outcome<T>(T value, Throwable failure) {
        public T valueOrThrow() {
            if (failure == null) return value;
            if (failure instanceof RuntimeException r) throw r;
            if (failure instanceof Error e) throw e;
            throw new IllegalStateException("ledger change failed", failure);
        }
    }

    /**
     * Changes that share one database transaction (call inside Database.tx): run() locks the union of their
     * rows in key order and runs them one after another against a shared view, write() stores what the
     * accepted ones did.
     */
    final class Batch {
        private final DSLContext dsl;
        private final List<? extends Change<?>> changes;
        private final Set<BalanceKey> changed = new TreeSet<>();
        private final List<Staged> writes = new ArrayList<>();
        private final List<Object> sideItems = new ArrayList<>();
        private final Map<BalanceKey, Balance> rows = new TreeMap<>();
        private final Map<Long, String> kinds = new HashMap<>();
        private final Map<Object, Object> reads = new HashMap<>();
        /** Whether the batch's lock is the first statement of its transaction (a group commit's own transaction). */
        private final boolean ownTransaction;

        Batch(DSLContext dsl, List<? extends Change<?>> changes, boolean ownTransaction) {
            this.dsl = dsl;
            this.changes = changes;
            this.ownTransaction = ownTransaction;
        }

        List<Outcome<?>> run() {
            SortedSet<BalanceKey> all = new TreeSet<>();
            changes.forEach(c -> all.addAll(c.keys()));
            // Lock order as everywhere: accounts, then balance rows (D35, D141).
            SortedSet<Long> uids = new TreeSet<>();
            all.forEach(k -> uids.add(k.uid()));
            Map<Object, Read<?>> distinct = new LinkedHashMap<>();
            for (Change<?> c : changes) if (c.read() != null) distinct.putIfAbsent(c.read().key(), c.read());
            store.lockAccountsAndRows(dsl, uids, all, ownTransaction, kinds, distinct.values(), reads).forEach(b -> rows.put(b.key(), b));
            for (Change<?> c : changes) {
                if (c.read() != null && !reads.containsKey(c.read().key())) reads.put(c.read().key(), c.read().runAlone(dsl));
            }
            List<Outcome<?>> outcomes = new ArrayList<>(changes.size());
            for (Change<?> c : changes) outcomes.add(runOne(c));
            return outcomes;
        }

        private <T> Outcome<T> runOne(Change<T> c) {
            Locked locked = new Locked(Set.copyOf(c.keys()), rows, kinds, reads);
            try {
                // The decision runs without SQL: a failing statement would abort the transaction the whole batch shares.
                T value = db.forbiddingSql(() -> c.work().apply(locked));
                locked.mergeInto(changed, writes, sideItems);
                return new Outcome<>(value, null);
            } catch (Throwable e) {
                // Rejected (ApiException) or broken in any way: only this change's staged rows are dropped.
                return new Outcome<>(null, e);
            }
        }

        /** The batch's rows of every table; on PostgreSQL as one statement where they allow it (PgCopy.together, D214). */
        void write() {
            List<Balance> after = changed.stream().map(rows::get).toList();
            Map<Class<?>, List<Object>> byType = new java.util.LinkedHashMap<>();
            sideItems.forEach(i -> byType.computeIfAbsent(i.getClass(), t -> new ArrayList<>()).add(i));
            io.tas.store.PgCopy.together(dsl, ownTransaction, () -> {
                store.write(dsl, writes, after);
                byType.forEach((type, items) -> sideWriters.get(type).accept(dsl, items));
            });
        }
    }

    /** The result of an idempotent posting: the transaction, and whether it was a repeat of an earlier call. */
    public record Posted(long txId, boolean repeated) {}

    /**
     * Posts once per (kind, ref): a repeat with the same movements returns the first transaction and changes
     * nothing; the same ref with other movements is refused (like a reused idempotency key with other
     * parameters), also when two first calls race on the unique index and the loser reads the winner's.
     */
    public Posted postOnce(String kind, String ref, long uid, List<Movement> movements) {
        return postOnce(kind, ref, uid, movements, rows -> {});
    }

    /** As postOnce, with a check of the locked rows (say, Locked.unified) that may refuse the posting first. */
    public Posted postOnce(String kind, String ref, long uid, List<Movement> movements, java.util.function.Consumer<Locked> check) {
        checkRef(ref);
        checkRepeatable(kind);
        Optional<Long> earlier = db.read(dsl -> store.txByRef(dsl, kind, ref));
        if (earlier.isPresent()) return db.read(dsl -> repeat(dsl, earlier.get(), ref, uid, movements));
        try {
            return new Posted(submit(touched(movements), rows -> {
                check.accept(rows);
                return rows.post(kind, ref, uid, movements);
            }), false);
        } catch (IntegrityConstraintViolationException e) {
            return db.read(dsl -> repeat(dsl, store.txByRef(dsl, kind, ref).orElseThrow(() -> e), ref, uid, movements));
        }
    }

    /** As postOnce, in the caller's transaction (a seed). */
    public Posted postOnce(Tx tx, String kind, String ref, long uid, List<Movement> movements) {
        return postOnce(tx, kind, ref, uid, movements, rows -> {});
    }

    /**
     * As postOnce, in the caller's transaction (a seed): a repeat is found by the ref as that transaction sees it; a
     * race with another first call fails the caller's transaction on the unique ref instead of answering a repeat.
     */
    public Posted postOnce(Tx tx, String kind, String ref, long uid, List<Movement> movements, java.util.function.Consumer<Locked> check) {
        checkRef(ref);
        checkRepeatable(kind);
        Optional<Long> earlier = store.txByRef(tx.dsl(), kind, ref);
        if (earlier.isPresent()) return repeat(tx.dsl(), earlier.get(), ref, uid, movements);
        return new Posted(submit(tx, touched(movements), rows -> {
            check.accept(rows);
            return rows.post(kind, ref, uid, movements);
        }), false);
    }

    private Posted repeat(DSLContext dsl, long txId, String ref, long uid, List<Movement> movements) {
        if (!store.journalOf(dsl, txId).equals(LedgerStore.fingerprint(uid, movements))) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "ref " + ref + " was already used with different parameters");
        }
        return new Posted(txId, true);
    }

    /** A caller reference fits the column: required, at most MAX_REF_LENGTH characters. */
    /** D227: a kind whose repeats the (kind, ref) index does not hold on PostgreSQL cannot be posted once. */
    private static void checkRepeatable(String kind) {
        if (kind.equals(ORDER_PLACE)) throw new IllegalArgumentException(kind + " transactions are not found by their ref");
    }

    public static void checkRef(String ref) {
        if (ref == null || ref.isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, "ref");
        if (ref.length() > MAX_REF_LENGTH) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, "ref is longer than " + MAX_REF_LENGTH + " characters");
        }
    }

    /**
     * An amount the ledger can store exactly: at most SCALE decimals (checked like the platform's
     * "checkBDScale") and fewer than MAX_INTEGER_DIGITS integer digits. Checked at the edge, before any SQL.
     */
    public static BigDecimal checkAmount(String name, BigDecimal v) {
        if (v == null) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        if (v.stripTrailingZeros().scale() > SCALE) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, name + " checkBDScale error value=" + v.toPlainString() + " checkScale=" + SCALE);
        }
        if (v.abs().compareTo(LIMIT) >= 0) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, name + " has more than " + MAX_INTEGER_DIGITS + " integer digits");
        }
        return v;
    }

    /**
     * The account's balances. An all-zero row means the same as no row (rows are created before locking and
     * outlive a rejected change), so it is not listed.
     */
    public List<Balance> balances(long uid) {
        return db.read(dsl -> balances(dsl, uid));
    }

    /** The account's balances as the caller's transaction sees them. */
    public List<Balance> balances(Tx tx, long uid) { return balances(tx.dsl(), uid); }

    /** On a connection the caller holds (a read session of several statements). */
    public List<Balance> balances(DSLContext dsl, long uid) {
        return store.balances(dsl, uid).stream().filter(Ledger::listed).toList();
    }

    /** The balances of each of these accounts (none: an empty list), in one read, each as balances(uid) lists them. */
    public java.util.Map<Long, List<Balance>> balances(java.util.Collection<Long> uids) {
        java.util.Map<Long, List<Balance>> byUid = new java.util.HashMap<>();
        uids.forEach(uid -> byUid.put(uid, new java.util.ArrayList<>()));
        if (!uids.isEmpty()) db.read(dsl -> store.balances(dsl, uids)).stream().filter(Ledger::listed).forEach(b -> byUid.get(b.key().uid()).add(b));
        return byUid;
    }

    private static boolean listed(Balance b) { return b.available().signum() != 0 || b.frozen().signum() != 0 || b.debt().signum() != 0; }

    /**
     * One journal row of an account: its transaction's ID, kind, ref and time, and the row's balance, field, amount and
     * counter account (D224; null on a row migrated without one, which the ledger check reports).
     */
    public record JournalLine(long txId, String kind, String ref, long time, String account, String field, String coin, BigDecimal amount,
                              String counter) {}

    /** The account's newest journal rows (the admin console's ledger view), newest first. */
    public List<JournalLine> journal(long uid, int limit) { return db.read(dsl -> store.journal(dsl, uid, limit)); }

    public Balance balance(BalanceKey key) {
        return balances(key.uid()).stream().filter(b -> b.key().equals(key)).findFirst().orElse(Balance.empty(key));
    }

    /**
     * Conservation: balances equal their journal sums, every journal row names its counter account (its other side, so
     * each transaction sums to zero per coin, D224) and belongs to a written transaction, nothing is negative.
     */
    public record Check(boolean ok, List<String> balanceMismatches, List<String> unbalancedTransactions, List<String> negativeBalances) {}

    public Check check() {
        var dsl = db.autoCommit();
        List<String> mismatches = store.balanceMismatches(dsl);
        List<String> unbalanced = store.unbalancedTransactions(dsl);
        List<String> negative = store.negativeBalances(dsl);
        return new Check(mismatches.isEmpty() && unbalanced.isEmpty() && negative.isEmpty(), mismatches, unbalanced, negative);
    }

    /** Stops the group-commit writers; changes still queued fail. */
    @Override
    public void close() { groupCommit.close(); }

    /** Publishes the ledger's group-commit queue depth and batch sizes (GroupCommit.bindTo). */
    public void bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) { groupCommit.bindTo(registry); }

    private static SortedSet<BalanceKey> touched(List<Movement> movements) {
        SortedSet<BalanceKey> keys = new TreeSet<>();
        movements.forEach(m -> keys.add(m.key()));
        return keys;
    }

    /** An amount computed with more precision, rounded to what the ledger stores. */
    /** An engine order's placement: its ref is its orderId, for the record; no repeat is looked up by it (D227). */
    public static final String ORDER_PLACE = "order_place";
    /** The ledger transactions the unique (kind, ref) index holds on PostgreSQL (V31): those a repeat is found by. */
    public static final String REPEATABLE = "ref is not null and kind <> '" + ORDER_PLACE + "'";

    public static BigDecimal scaled(BigDecimal v) { return v.setScale(SCALE, java.math.RoundingMode.HALF_EVEN); }

    /**
     * scaled(v) without trailing zeros. A value of at most SCALE decimals needs no rounding, so it is stripped as it is:
     * scaling it up first made a price x size a BigInteger that stripping then divided by ten eighteen times (D225).
     */
    public static BigDecimal plain(BigDecimal v) {
        return (v.scale() <= SCALE ? v : scaled(v)).stripTrailingZeros();
    }

    /** Convenience for movement lists. */
    public static Movement move(BalanceKey key, Field field, BigDecimal amount, Counter counter) {
        return new Movement(key, field, amount, counter);
    }
}
