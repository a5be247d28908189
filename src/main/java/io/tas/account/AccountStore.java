package io.tas.account;

import io.tas.account.AccountEnums.*;
import io.tas.account.AccountSettings.CoinConfig;
import io.tas.account.AccountSettings.SymbolConfig;
import org.jooq.DSLContext;
import org.jooq.Record;

import java.util.List;
import java.util.Optional;

import static io.tas.store.generated.Tables.*;

/** SQL for accounts and their settings; nothing else touches these tables. */
final class AccountStore {

    void insert(DSLContext dsl, Account a) {
        dsl.insertInto(ACCOUNT)
                .set(ACCOUNT.UID, a.uid())
                .set(ACCOUNT.PARENT_UID, a.parentUid())
                .set(ACCOUNT.USERNAME, a.username())
                .set(ACCOUNT.ACCOUNT_TYPE, a.type().name())
                .set(ACCOUNT.ACCOUNT_KIND, a.kind().name())
                .set(ACCOUNT.STATUS, a.status().name())
                .set(ACCOUNT.NOTE, a.note())
                .set(ACCOUNT.INVITER_ID, a.inviterId())
                .set(ACCOUNT.CHANNEL_CODE, a.channelCode())
                .set(ACCOUNT.CHANNEL, a.channel())
                .set(ACCOUNT.REALITY_ALLOWED, a.realityAllowed())
                .set(ACCOUNT.CREATED_TIME, a.createdTime())
                .set(ACCOUNT.UPDATED_TIME, a.updatedTime())
                .execute();
    }

    void insertSettings(DSLContext dsl, AccountSettings s) {
        dsl.insertInto(ACCOUNT_SETTINGS)
                .set(ACCOUNT_SETTINGS.UID, s.uid())
                .set(ACCOUNT_SETTINGS.ACCOUNT_MODE, s.accountMode().name())
                .set(ACCOUNT_SETTINGS.ACCOUNT_LEVEL, s.accountLevel().name())
                .set(ACCOUNT_SETTINGS.ASSET_MODE, s.assetMode().name())
                .set(ACCOUNT_SETTINGS.HOLD_MODE, s.holdMode().name())
                .set(ACCOUNT_SETTINGS.STP_MODE, s.stpMode().name())
                .set(ACCOUNT_SETTINGS.DELTA_SWITCH, s.deltaSwitch().name())
                .set(ACCOUNT_SETTINGS.REPAY_MODE, s.repayMode().name())
                .set(ACCOUNT_SETTINGS.DEDUCT, s.deduct().name())
                .set(ACCOUNT_SETTINGS.VERSION, 0L)
                .execute();
        insertConfigs(dsl, List.of(s));
    }

    /** The configuration rows of the given settings, one prepared batch per table. */
    private static void insertConfigs(DSLContext dsl, List<AccountSettings> all) {
        var symbolRows = dsl.batch(dsl.insertInto(SYMBOL_CONFIG, SYMBOL_CONFIG.UID, SYMBOL_CONFIG.CATEGORY, SYMBOL_CONFIG.SYMBOL,
                SYMBOL_CONFIG.MARGIN_MODE, SYMBOL_CONFIG.LEVERAGE, SYMBOL_CONFIG.SHORT_LEVERAGE).values((Long) null, null, null, null, null, null));
        var coinRows = dsl.batch(dsl.insertInto(COIN_CONFIG, COIN_CONFIG.UID, COIN_CONFIG.COIN, COIN_CONFIG.LEVERAGE).values((Long) null, null, null));
        int symbolCount = 0, coinCount = 0;
        for (AccountSettings s : all) {
            for (SymbolConfig c : s.symbolConfigs()) {
                symbolRows.bind(s.uid(), c.category().wire(), c.symbol(), c.marginMode().name(), c.longLeverage(), c.shortLeverage());
                symbolCount++;
            }
            for (CoinConfig c : s.coinConfigs()) {
                coinRows.bind(s.uid(), c.coin(), c.leverage());
                coinCount++;
            }
        }
        if (symbolCount > 0) symbolRows.execute();
        if (coinCount > 0) coinRows.execute();
    }

    /**
     * Locks the accounts' settings rows for this transaction, in uid order (no deadlocks), and returns them. Every write
     * of an account's settings or positions takes this lock first (position opens through AccountService.lock), so what
     * is decided under it stays true until the commit. PostgreSQL's FOR NO KEY UPDATE leaves key-share locks alone.
     */
    java.util.Map<Long, io.tas.store.generated.tables.records.AccountSettingsRecord> lock(DSLContext dsl, java.util.Collection<Long> uids) {
        java.util.Map<Long, io.tas.store.generated.tables.records.AccountSettingsRecord> rows = new java.util.HashMap<>();
        if (dsl.dialect() == org.jooq.SQLDialect.POSTGRES) {
            dsl.selectFrom(ACCOUNT_SETTINGS).where(ACCOUNT_SETTINGS.UID.in(uids)).orderBy(ACCOUNT_SETTINGS.UID).forNoKeyUpdate()
                    .forEach(r -> rows.put(r.getUid(), r));
        } else {
            // H2 locks the rows of one statement in no promised order (as LedgerStore notes): one row at a time, in uid order.
            for (long uid : new java.util.TreeSet<>(uids)) {
                dsl.selectFrom(ACCOUNT_SETTINGS).where(ACCOUNT_SETTINGS.UID.eq(uid)).forUpdate().fetchOptional().ifPresent(r -> rows.put(uid, r));
            }
        }
        return rows;
    }

    /** Locks the accounts (as lock) and reads their settings: two statements whatever their number. */
    java.util.Map<Long, AccountSettings> lockSettings(DSLContext dsl, java.util.Collection<Long> uids) {
        var rows = lock(dsl, uids);
        java.util.Map<Long, List<SymbolConfig>> symbols = new java.util.HashMap<>();
        java.util.Map<Long, List<CoinConfig>> coins = new java.util.HashMap<>();
        // Both lists in one round trip: coin rows carry the category COIN, which no contract has.
        var coinRows = dsl.select(COIN_CONFIG.UID, org.jooq.impl.DSL.inline(COIN_ROW).as("category"), COIN_CONFIG.COIN,
                        org.jooq.impl.DSL.inline("").as("margin_mode"), COIN_CONFIG.LEVERAGE, COIN_CONFIG.LEVERAGE.as("short_leverage"))
                .from(COIN_CONFIG).where(COIN_CONFIG.UID.in(uids));
        dsl.select(SYMBOL_CONFIG.UID, SYMBOL_CONFIG.CATEGORY, SYMBOL_CONFIG.SYMBOL, SYMBOL_CONFIG.MARGIN_MODE, SYMBOL_CONFIG.LEVERAGE,
                        SYMBOL_CONFIG.SHORT_LEVERAGE).from(SYMBOL_CONFIG).where(SYMBOL_CONFIG.UID.in(uids))
                .unionAll(coinRows)
                .forEach(r -> {
                    if (r.value2().equals(COIN_ROW)) {
                        coins.computeIfAbsent(r.value1(), u -> new java.util.ArrayList<>()).add(new CoinConfig(r.value3(), r.value5()));
                    } else {
                        symbols.computeIfAbsent(r.value1(), u -> new java.util.ArrayList<>()).add(new SymbolConfig(Category.fromWire(r.value2()),
                                r.value3(), MarginMode.valueOf(r.value4()), r.value5(), r.value6()));
                    }
                });
        java.util.Map<Long, AccountSettings> out = new java.util.HashMap<>();
        rows.forEach((uid, row) -> out.put(uid, toSettings(row,
                sorted(symbols.get(uid), AccountSettings.SYMBOL_ORDER), sorted(coins.get(uid), AccountSettings.COIN_ORDER))));
        return out;
    }

    private static final String COIN_ROW = "COIN";

    private static <T> List<T> sorted(List<T> items, java.util.Comparator<T> order) {
        if (items == null) return List.of();
        items.sort(order);
        return List.copyOf(items);
    }

    /**
     * Writes what changed between before and after of each account, in one prepared batch per kind of statement: the
     * settings row when one of its values changed; each contract or coin configuration that is new (insert), changed
     * (update) or gone (delete).
     */
    void update(DSLContext dsl, List<AccountSettings> before, List<AccountSettings> after) {
        var rows = dsl.batch(dsl.update(ACCOUNT_SETTINGS)
                .set(ACCOUNT_SETTINGS.ACCOUNT_MODE, (String) null).set(ACCOUNT_SETTINGS.ACCOUNT_LEVEL, (String) null)
                .set(ACCOUNT_SETTINGS.HOLD_MODE, (String) null).set(ACCOUNT_SETTINGS.STP_MODE, (String) null)
                .set(ACCOUNT_SETTINGS.DELTA_SWITCH, (String) null).set(ACCOUNT_SETTINGS.REPAY_MODE, (String) null)
                .set(ACCOUNT_SETTINGS.DEDUCT, (String) null).set(ACCOUNT_SETTINGS.VERSION, ACCOUNT_SETTINGS.VERSION.plus(org.jooq.impl.DSL.inline(1L)))
                .where(ACCOUNT_SETTINGS.UID.eq((Long) null)));
        var symbolInserts = dsl.batch(dsl.insertInto(SYMBOL_CONFIG, SYMBOL_CONFIG.MARGIN_MODE, SYMBOL_CONFIG.LEVERAGE, SYMBOL_CONFIG.SHORT_LEVERAGE,
                SYMBOL_CONFIG.UID, SYMBOL_CONFIG.CATEGORY, SYMBOL_CONFIG.SYMBOL).values((String) null, null, null, null, null, null));
        var symbolUpdates = dsl.batch(dsl.update(SYMBOL_CONFIG).set(SYMBOL_CONFIG.MARGIN_MODE, (String) null)
                .set(SYMBOL_CONFIG.LEVERAGE, (java.math.BigDecimal) null).set(SYMBOL_CONFIG.SHORT_LEVERAGE, (java.math.BigDecimal) null)
                .where(SYMBOL_CONFIG.UID.eq((Long) null)).and(SYMBOL_CONFIG.CATEGORY.eq((String) null)).and(SYMBOL_CONFIG.SYMBOL.eq((String) null)));
        var symbolDeletes = dsl.batch(dsl.deleteFrom(SYMBOL_CONFIG)
                .where(SYMBOL_CONFIG.UID.eq((Long) null)).and(SYMBOL_CONFIG.CATEGORY.eq((String) null)).and(SYMBOL_CONFIG.SYMBOL.eq((String) null)));
        var coinInserts = dsl.batch(dsl.insertInto(COIN_CONFIG, COIN_CONFIG.LEVERAGE, COIN_CONFIG.UID, COIN_CONFIG.COIN).values((java.math.BigDecimal) null, null, null));
        var coinUpdates = dsl.batch(dsl.update(COIN_CONFIG).set(COIN_CONFIG.LEVERAGE, (java.math.BigDecimal) null)
                .where(COIN_CONFIG.UID.eq((Long) null)).and(COIN_CONFIG.COIN.eq((String) null)));
        var coinDeletes = dsl.batch(dsl.deleteFrom(COIN_CONFIG).where(COIN_CONFIG.UID.eq((Long) null)).and(COIN_CONFIG.COIN.eq((String) null)));
        int[] counts = new int[7];
        for (int i = 0; i < after.size(); i++) {
            AccountSettings b = before.get(i), a = after.get(i);
            long uid = a.uid();
            if (!a.withoutLists().equals(b.withoutLists())) {
                rows.bind(a.accountMode().name(), a.accountLevel().name(), a.holdMode().name(), a.stpMode().name(),
                        a.deltaSwitch().name(), a.repayMode().name(), a.deduct().name(), uid);
                counts[0]++;
            }
            for (SymbolConfig c : a.symbolConfigs()) {
                var old = b.symbolConfig(c.category(), c.symbol());
                if (old.isPresent() && old.get().equals(c)) continue;
                (old.isPresent() ? symbolUpdates : symbolInserts).bind(c.marginMode().name(), c.longLeverage(), c.shortLeverage(), uid, c.category().wire(), c.symbol());
                counts[old.isPresent() ? 2 : 1]++;
            }
            for (SymbolConfig c : b.symbolConfigs()) {
                if (a.symbolConfig(c.category(), c.symbol()).isEmpty()) { symbolDeletes.bind(uid, c.category().wire(), c.symbol()); counts[3]++; }
            }
            for (CoinConfig c : a.coinConfigs()) {
                var old = b.coinConfig(c.coin());
                if (old.isPresent() && old.get().equals(c)) continue;
                (old.isPresent() ? coinUpdates : coinInserts).bind(c.leverage(), uid, c.coin());
                counts[old.isPresent() ? 5 : 4]++;
            }
            for (CoinConfig c : b.coinConfigs()) {
                if (a.coinConfig(c.coin()).isEmpty()) { coinDeletes.bind(uid, c.coin()); counts[6]++; }
            }
        }
        var batches = List.of(rows, symbolInserts, symbolUpdates, symbolDeletes, coinInserts, coinUpdates, coinDeletes);
        for (int k = 0; k < batches.size(); k++) if (counts[k] > 0) batches.get(k).execute();
    }

    private static SymbolConfig toSymbolConfig(io.tas.store.generated.tables.records.SymbolConfigRecord r) {
        return new SymbolConfig(Category.fromWire(r.getCategory()), r.getSymbol(), MarginMode.valueOf(r.getMarginMode()),
                r.getLeverage(), r.getShortLeverage());
    }

    Optional<Account> find(DSLContext dsl, long uid) {
        return dsl.selectFrom(ACCOUNT).where(ACCOUNT.UID.eq(uid)).fetchOptional().map(AccountStore::toAccount);
    }

    /** §2.13 paging: newest first, IDs strictly below the cursor. Fetches one extra row to tell hasNext. */
    List<Account> subAccounts(DSLContext dsl, long parentUid, Long cursorBelow, int limitPlusOne) {
        var where = ACCOUNT.PARENT_UID.eq(parentUid);
        if (cursorBelow != null) where = where.and(ACCOUNT.UID.lt(cursorBelow));
        return dsl.selectFrom(ACCOUNT).where(where).orderBy(ACCOUNT.UID.desc()).limit(limitPlusOne)
                .fetch(AccountStore::toAccount);
    }

    /** The main accounts (no parent), oldest uid first, at most limit (the admin console's list). */
    List<Account> mainAccounts(DSLContext dsl, int limit) {
        return dsl.selectFrom(ACCOUNT).where(ACCOUNT.PARENT_UID.isNull()).orderBy(ACCOUNT.UID).limit(limit).fetch(AccountStore::toAccount);
    }

    Optional<AccountSettings> settings(DSLContext dsl, long uid) {
        var row = dsl.selectFrom(ACCOUNT_SETTINGS).where(ACCOUNT_SETTINGS.UID.eq(uid)).fetchOne();
        if (row == null) return Optional.empty();
        List<SymbolConfig> symbols = dsl.selectFrom(SYMBOL_CONFIG).where(SYMBOL_CONFIG.UID.eq(uid)).fetch(AccountStore::toSymbolConfig);
        List<CoinConfig> coins = dsl.selectFrom(COIN_CONFIG).where(COIN_CONFIG.UID.eq(uid)).fetch(r -> new CoinConfig(r.getCoin(), r.getLeverage()));
        return Optional.of(toSettings(row, sorted(new java.util.ArrayList<>(symbols), AccountSettings.SYMBOL_ORDER),
                sorted(new java.util.ArrayList<>(coins), AccountSettings.COIN_ORDER)));
    }

    private static AccountSettings toSettings(io.tas.store.generated.tables.records.AccountSettingsRecord row,
                                              List<SymbolConfig> symbols, List<CoinConfig> coins) {
        return new AccountSettings(row.getUid(),
                AccountMode.valueOf(row.getAccountMode()), AccountLevel.valueOf(row.getAccountLevel()),
                AssetMode.valueOf(row.getAssetMode()), HoldMode.valueOf(row.getHoldMode()),
                StpMode.valueOf(row.getStpMode()), DeltaSwitch.valueOf(row.getDeltaSwitch()),
                RepayMode.valueOf(row.getRepayMode()), Deduct.valueOf(row.getDeduct()), symbols, coins);
    }

    private static Account toAccount(Record r) {
        var a = r.into(ACCOUNT);
        return new Account(a.getUid(), a.getParentUid(), a.getUsername(), AccountType.valueOf(a.getAccountType()),
                AccountKind.valueOf(a.getAccountKind()), AccountStatus.valueOf(a.getStatus()), a.getNote(),
                a.getInviterId(), a.getChannelCode(), a.getChannel(), a.getRealityAllowed(),
                a.getCreatedTime(), a.getUpdatedTime());
    }

    // --- account switch (issue 8, spec §3.1): the account's change lock, its kind, its settings' accountMode

    /**
     * The account, read fresh, under the account's lock for this transaction: the lock position writes and settings
     * changes take too (lock order: account, then positions, then balance rows).
     */
    Optional<Account> lockForChange(DSLContext dsl, long uid) {
        lock(dsl, List.of(uid));
        return find(dsl, uid);
    }

    void updateKind(DSLContext dsl, long uid, AccountKind kind, long now) {
        dsl.update(ACCOUNT).set(ACCOUNT.ACCOUNT_KIND, kind.name()).set(ACCOUNT.UPDATED_TIME, now)
                .where(ACCOUNT.UID.eq(uid)).execute();
    }

    void updateRealityAllowed(DSLContext dsl, long uid, boolean allowed, long now) {
        dsl.update(ACCOUNT).set(ACCOUNT.REALITY_ALLOWED, allowed).set(ACCOUNT.UPDATED_TIME, now)
                .where(ACCOUNT.UID.eq(uid)).execute();
    }

    void updateAccountMode(DSLContext dsl, long uid, AccountMode mode) {
        dsl.update(ACCOUNT_SETTINGS).set(ACCOUNT_SETTINGS.ACCOUNT_MODE, mode.name())
                .set(ACCOUNT_SETTINGS.VERSION, ACCOUNT_SETTINGS.VERSION.plus(org.jooq.impl.DSL.inline(1L)))
                .where(ACCOUNT_SETTINGS.UID.eq(uid)).execute();
    }
}
