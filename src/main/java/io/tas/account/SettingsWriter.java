package io.tas.account;

import io.tas.ledger.GroupCommit;
import io.tas.ledger.Ledger.Outcome;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;

import java.util.*;
import java.util.function.Consumer;

/**
 * Writes settings changes with group commit (docs/decisions.md D43), like the ledger: concurrent changes share one
 * transaction and one commit. A batch locks its accounts (the lock position writes take too), reads their settings
 * and exposure once, decides each change on them without SQL, writes only what changed in a few prepared batches,
 * announces the accounts on the change feed, and answers each caller after the commit. An account has at most one
 * change in a batch, so each decision sees what the batches before it committed.
 */
public final class SettingsWriter implements AutoCloseable {
    private final Database db;
    private final AccountStore store;
    private final ChangeFeed changes;
    private final Consumer<Long> committed;
    private volatile SettingsChange.ExposureProbe exposure = (dsl, uids) -> Map.of();
    private final GroupCommit<SettingsChange> groupCommit;

    SettingsWriter(Database db, AccountStore store, ChangeFeed changes, Consumer<Long> committed) {
        this.db = db;
        this.store = store;
        this.changes = changes;
        this.committed = committed;
        // Three writers (docs/benchmarks.md, issue 8): a request waits for less of a batch ahead of it than with two.
        this.groupCommit = new GroupCommit<>("settings-writer", this::runTogether, SettingsChange::uid, Database.SETTINGS_WRITERS);
    }

    /** Publishes the settings group commit's queue depth and batch sizes (GroupCommit.bindTo). */
    void bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) { groupCommit.bindTo(registry); }

    /** Who tells what accounts hold (positions live above the account package). */
    void exposureFrom(SettingsChange.ExposureProbe probe) { this.exposure = probe; }

    /** The settings after the change, once committed; or what refused it (nothing changed then). */
    AccountSettings submit(SettingsChange change) {
        return groupCommit.submit(change);
    }

    /** Runs the change in the caller's transaction; the caller drops the caches after its commit. */
    AccountSettings applyInTransaction(io.tas.store.Tx tx, SettingsChange change) {
        return (AccountSettings) decideAndWrite(tx, List.of(change)).getFirst().valueOrThrow();
    }

    private List<Outcome<?>> runTogether(List<SettingsChange> batch) {
        try {
            return db.writerTx(tx -> decideAndWrite(tx, batch));
        } finally {
            // After the commit (or a failure, which may have committed: CommitOutcomeUnknown): this node reads the
            // current settings at once; other nodes hear of it through the change feed. A drop too many only reloads.
            batch.forEach(c -> committed.accept(c.uid()));
        }
    }

    private List<Outcome<?>> decideAndWrite(io.tas.store.Tx tx, List<SettingsChange> batch) {
        org.jooq.DSLContext dsl = tx.dsl();
        SortedSet<Long> uids = new TreeSet<>();
        batch.forEach(c -> uids.add(c.uid()));
        Map<Long, AccountSettings> now = store.lockSettings(dsl, uids);
        Map<Long, SettingsChange.Exposure> held = batch.stream().anyMatch(SettingsChange::needsExposure) ? exposure.of(dsl, uids) : Map.of();
        List<Outcome<?>> outcomes = new ArrayList<>(batch.size());
        Map<Long, AccountSettings> before = new LinkedHashMap<>(), after = new LinkedHashMap<>();
        for (SettingsChange c : batch) {
            AccountSettings current = after.getOrDefault(c.uid(), now.get(c.uid()));
            if (current == null) {
                outcomes.add(new Outcome<>(null, new io.tas.error.ApiException(io.tas.error.ErrorCode.PARAM_NOT_EXIST, c.uid())));
                continue;
            }
            try {
                AccountSettings next = db.forbiddingSql(() -> c.apply(current, held.getOrDefault(c.uid(), SettingsChange.Exposure.NONE)));
                before.putIfAbsent(c.uid(), current);
                after.put(c.uid(), next);
                outcomes.add(new Outcome<>(next, null));
            } catch (Throwable e) {
                outcomes.add(new Outcome<>(null, e));
            }
        }
        List<Long> changed = after.keySet().stream().filter(u -> !after.get(u).equals(before.get(u))).toList();
        if (!changed.isEmpty()) {
            store.update(dsl, changed.stream().map(before::get).toList(), changed.stream().map(after::get).toList());
            changes.publishAll(tx, changed.stream().map(AccountService::settingsTopic).toList());
        }
        return outcomes;
    }

    @Override
    public void close() { groupCommit.close(); }
}
