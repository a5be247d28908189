package io.tas.account;

import io.tas.common.Caches;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.store.Tx;
import com.github.benmanes.caffeine.cache.Cache;
import org.jooq.DSLContext;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Accounts, sub-accounts and their settings. The API, the admin surface, seed files and the CLI all
 * come through here. Reads of accounts and settings are cached when enabled; every write publishes the
 * UID on the change feed, so the entry is dropped on this node and (PostgreSQL) on every other node.
 */
public final class AccountService implements AutoCloseable {
    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final AccountStore store = new AccountStore();
    private final boolean cacheEnabled;
    private final Cache<Long, Account> accounts = bounded();
    private final Cache<Long, AccountSettings> settings = bounded();

    private final ChangeFeed changes;
    private final SettingsWriter settingsWriter;

    public AccountService(Database db, Clock clock, IdGenerator ids, boolean cacheEnabled, ChangeFeed changes) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.cacheEnabled = cacheEnabled;
        this.changes = changes;
        this.settingsWriter = new SettingsWriter(db, store, changes, uid -> invalidate(settingsTopic(uid)));
        changes.subscribe(this::invalidate);
    }

    /** Applies a settings change (group-committed); the settings after it, or what refused it, nothing changed then. */
    public AccountSettings change(SettingsChange c) {
        // The settings writers commit on connections of their own: a caller in a transaction would wait for them while
        // holding its own (and on H2 the one turn to write, D113). Such a caller uses changeTogether.
        db.requireNoConnection("a group-committed settings change");
        return settingsWriter.submit(c);
    }

    /** Where settings changes learn what an account holds (positions, later orders). */
    public void exposureFrom(SettingsChange.ExposureProbe probe) { settingsWriter.exposureFrom(probe); }

    /**
     * Runs work under the account's lock, in one transaction with the settings change it returns (a change made
     * together with positions and the ledger); the caches are dropped after the commit.
     */
    public AccountSettings changeTogether(long uid, java.util.function.Function<Tx, SettingsChange> work) {
        try {
            return db.tx(tx -> {
                store.lock(tx.dsl(), List.of(uid));
                return settingsWriter.applyInTransaction(tx, work.apply(tx));
            });
        } finally {
            invalidate(settingsTopic(uid)); // also when the commit's outcome is unknown: a drop too many only reloads
        }
    }

    /** The settings as the transaction sees them (under the account's lock: current until the commit). */
    public AccountSettings settingsInTransaction(Tx tx, long uid) {
        return store.settings(tx.dsl(), uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, uid));
    }

    /** Locks the account for the transaction: every write of its settings or positions takes this lock first. */
    public void lock(Tx tx, long uid) { store.lock(tx.dsl(), List.of(uid)); }

    /** As lockAll, and their settings as this transaction sees them (two statements whatever their number). */
    public java.util.Map<Long, AccountSettings> lockAllSettings(Tx tx, java.util.Collection<Long> uids) { return store.lockSettings(tx.dsl(), uids); }

    /** Locks several accounts in uid order (the matching engine: a taker and the makers it trades with). */
    public void lockAll(Tx tx, java.util.Collection<Long> uids) { store.lock(tx.dsl(), uids); }

    /**
     * §4.1.4 targetUid: the caller itself, or one of its own sub-accounts. Any other UID answers as if it did not
     * exist (DESIGN: accounts), whether it exists or not.
     */
    public Account ownOrSubAccount(Account caller, long targetUid) {
        if (targetUid == caller.uid()) return caller;
        return find(targetUid).filter(a -> a.isSub() && a.parentUid() == caller.uid())
                .orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "targetUid"));
    }

    @Override
    public void close() { settingsWriter.close(); }

    /** Publishes the settings group commit's queue depth and batch sizes. */
    public void bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) { settingsWriter.bindMetrics(registry); }

    /** One entry per UID that called lately: bounded, and dropped when idle, so memory follows the active users. */
    static <V> Cache<Long, V> bounded() {
        return Caches.upkeepOnCaller().maximumSize(100_000).expireAfterAccess(Duration.ofMinutes(30)).build();
    }

    /** The change-feed topic of an account (drops its cached account and settings) and of its settings alone. */
    static String accountTopic(long uid) { return "account:" + uid; }

    static String settingsTopic(long uid) { return "settings:" + uid; }

    /** Drops one UID's cached account and settings (or its settings alone), or everything for ChangeFeed.EVERYTHING. */
    void invalidate(String key) {
        if (ChangeFeed.EVERYTHING.equals(key)) {
            everything.incrementAndGet(); // before dropping: a load that raced this one will not be cached (see find)
            accounts.invalidateAll();
            settings.invalidateAll();
            return;
        }
        boolean account = key.startsWith("account:");
        if (!account && !key.startsWith("settings:")) return;
        long uid = Long.parseLong(key.substring(key.indexOf(':') + 1));
        invalidations.incrementAndGet(stripe(uid));
        if (account) accounts.invalidate(uid);
        settings.invalidate(uid);
    }

    /**
     * Counts invalidations, per stripe of UIDs and of everything. A value loaded from the database is cached only if
     * none of its UID's happened while it was loaded: a load that read a row just before a write committed must not put
     * the old value back after the write dropped it (D43).
     */
    private final java.util.concurrent.atomic.AtomicLongArray invalidations = new java.util.concurrent.atomic.AtomicLongArray(1024);
    private final java.util.concurrent.atomic.AtomicLong everything = new java.util.concurrent.atomic.AtomicLong();

    private static int stripe(long uid) { return (int) (uid ^ (uid >>> 32)) & 1023; }

    /** A mark of the UID's invalidations so far; unchanged after a load means nothing invalidated it meanwhile. */
    private long mark(long uid) { return invalidations.get(stripe(uid)) + everything.get(); }

    public Account create(NewAccount cmd) {
        return db.tx(tx -> create(tx, cmd));
    }

    /** Creates the account in the caller's transaction (a seed); other nodes drop their entry when it commits. */
    public Account create(Tx tx, NewAccount cmd) {
        long now = clock.millis();
        long uid = cmd.uid() != null ? cmd.uid() : ids.next();
        long created = cmd.createdTime() != null ? cmd.createdTime() : now;
        Account account = new Account(uid, cmd.parentUid(), cmd.username(), cmd.type(), cmd.kind(), cmd.status(),
                cmd.note(), cmd.inviterId(), cmd.channelCode(), cmd.channel(), cmd.realityAllowed(), created, created);
        AccountSettings base = cmd.settings() != null ? cmd.settings() : AccountSettings.defaults(uid);
        AccountSettings s = new AccountSettings(uid, base.accountMode(), base.accountLevel(), base.assetMode(),
                base.holdMode(), base.stpMode(), base.deltaSwitch(), base.repayMode(), base.deduct(),
                base.symbolConfigs(), base.coinConfigs());
        DSLContext dsl = tx.dsl();
        if (store.find(dsl, uid).isPresent()) throw new ApiException(ErrorCode.PARAM_ERROR, "uid");
        if (cmd.parentUid() != null) {
            Account parent = store.find(dsl, cmd.parentUid())
                    .orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, cmd.parentUid()));
            // A sub-account cannot own sub-accounts.
            if (parent.isSub()) throw new ApiException(ErrorCode.PARAM_ERROR, "parentUid");
        }
        store.insert(dsl, account);
        store.insertSettings(dsl, s);
        changes.publish(tx, accountTopic(uid));
        tx.afterCommit(() -> dropCached(uid));
        return account;
    }

    public Optional<Account> find(long uid) {
        if (!cacheEnabled) return db.cacheRead(dsl -> store.find(dsl, uid));
        Account cached = accounts.getIfPresent(uid);
        if (cached != null) return Optional.of(cached);
        long seen = mark(uid);
        Optional<Account> loaded = db.cacheRead(dsl -> store.find(dsl, uid));
        loaded.ifPresent(a -> cacheUnlessInvalidated(accounts, uid, a, seen));
        return loaded;
    }

    /** The account as the caller's transaction sees it (never the cache: it may have been created in that transaction). */
    public Optional<Account> find(Tx tx, long uid) { return store.find(tx.dsl(), uid); }

    public AccountSettings settings(long uid) {
        if (cacheEnabled) {
            AccountSettings cached = settings.getIfPresent(uid);
            if (cached != null) return cached;
        }
        long seen = mark(uid);
        AccountSettings loaded = db.cacheRead(dsl -> store.settings(dsl, uid))
                .orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, uid));
        if (cacheEnabled) cacheUnlessInvalidated(settings, uid, loaded, seen);
        return loaded;
    }

    /**
     * Caches a value loaded since mark seen, unless the UID was invalidated meanwhile. Put first, then check: an
     * invalidation between a check and a put would otherwise leave the old value cached (D43).
     */
    private <V> void cacheUnlessInvalidated(Cache<Long, V> cache, long uid, V loaded, long seen) {
        if (mark(uid) != seen) return;
        cache.put(uid, loaded);
        if (mark(uid) != seen) cache.asMap().remove(uid, loaded);
    }

    /** §2.13 one page of a main account's sub-accounts. */
    public SubAccountPage subAccounts(long parentUid, Long cursorBelow, int limit) {
        List<Account> rows = db.read(dsl -> store.subAccounts(dsl, parentUid, cursorBelow, limit + 1));
        boolean hasNext = rows.size() > limit;
        List<Account> page = hasNext ? rows.subList(0, limit) : rows;
        String cursor = page.isEmpty() ? "" : Long.toString(page.getLast().uid());
        return new SubAccountPage(page, hasNext, cursor);
    }

    /** The main accounts, oldest uid first, at most limit (the admin console lists them with their sub-accounts). */
    public List<Account> mainAccounts(int limit) { return db.read(dsl -> store.mainAccounts(dsl, limit)); }

    public record SubAccountPage(List<Account> list, boolean hasNext, String cursor) {}

    /** Drops cached state everywhere, after a reset. */
    public void invalidateAll() {
        invalidate(ChangeFeed.EVERYTHING);
        db.tx(tx -> { changes.publish(tx, ChangeFeed.EVERYTHING); return null; });
    }

    // --- account switch (issue 8, spec §3.1). Writes are made in the caller's transaction and publish the UID there,
    // so every PostgreSQL node drops its cached entry on commit, and this node after it (Tx.afterCommit).

    /** Locks the account for a change of its kind or mode and reads it fresh (never from the cache). */
    public Optional<Account> lockForChange(Tx tx, long uid) {
        return store.lockForChange(tx.dsl(), uid);
    }

    /** §2.3 accountMode. */
    public void setAccountMode(Tx tx, long uid, AccountEnums.AccountMode mode) {
        write(tx, uid, dsl -> store.updateAccountMode(dsl, uid, mode));
    }

    /** Which API family the account uses (DESIGN: account kinds): UNIFIED rows are v3, CLASSIC rows v2. */
    public void setKind(Tx tx, long uid, AccountEnums.AccountKind kind) {
        long now = clock.millis();
        write(tx, uid, dsl -> store.updateKind(dsl, uid, kind, now));
    }

    /** §4.7 allow-list (admin-managed), in a transaction of its own. */
    public void setRealityAllowed(long uid, boolean allowed) {
        long now = clock.millis();
        db.tx(tx -> { write(tx, uid, dsl -> store.updateRealityAllowed(dsl, uid, allowed, now)); return null; });
    }

    /** Drops this node's cached account and settings of uid. */
    public void dropCached(long uid) { invalidate(accountTopic(uid)); }

    private void write(Tx tx, long uid, java.util.function.Consumer<DSLContext> change) {
        change.accept(tx.dsl());
        changes.publish(tx, accountTopic(uid));
        tx.afterCommit(() -> dropCached(uid)); // committed: the change is visible to this node's readers at once
    }
}
