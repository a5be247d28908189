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
        insertConfigs(dsl, List.of(s), true, true);
    }

    /** The configuration rows of the given settings, one prepared batch per table. */
    private static void insertConfigs(DSLContext dsl, List<AccountSettings> all, boolean symbols, boolean coins) {
        var symbolRows = dsl.batch(dsl.insertInto(SYMBOL_CONFIG, SYMBOL_CONFIG.UID, SYMBOL_CONFIG.CATEGORY, SYMBOL_CONFIG.SYMBOL,
                SYMBOL_CONFIG.MARGIN_MODE, SYMBOL_CONFIG.LEVERAGE, SYMBOL_CONFIG.SHORT_LEVERAGE).values((Long) null, null, null, null, null, null));
        var coinRows = dsl.batch(dsl.insertInto(COIN_CONFIG, COIN_CONFIG.UID, COIN_CONFIG.COIN, COIN_CONFIG.LEVERAGE).values((Long) null, null, null));
        int symbolCount = 0, coinCount = 0;
        for (AccountSettings s : all) {
            if (symbols) for (SymbolConfig c : s.symbolConfigs()) {
                symbolRows.bind(s.uid(), c.category().wire(), c.symbol(), c.marginMode().name(), c.longLeverage(), c.shortLeverage());
                symbolCount++;
            }
            if (coins) for (CoinConfig c : s.coinConfigs()) {
                coinRows.bind(s.uid(), c.coin(), c.leverage());
                coinCount++;
            }
        }
        if (symbolCount > 0) symbolRows.execute();
        if (coinCount > 0) coinRows.execute();
    }

    /**
     * Locks the accounts' rows for this transaction, in uid order (no deadlocks). Every write of an account's settings
     * or positions takes this lock first (position opens take it through AccountService.lock), so what is decided under it
     * stays true until the commit.
     */
    void lock(DSLContext dsl, java.util.Collection<Long> uids) {
        var select = dsl.select(ACCOUNT.UID).from(ACCOUNT).where(ACCOUNT.UID.in(uids)).orderBy(ACCOUNT.UID);
        (dsl.dialect() == org.jooq.SQLDialect.POSTGRES ? select.forNoKeyUpdate() : select.forUpdate()).fetch();
    }

    /** The settings of several accounts, three statements whatever their number. */
    java.util.Map<Long, AccountSettings> settingsOf(DSLContext dsl, java.util.Collection<Long> uids) {
        java.util.Map<Long, List<SymbolConfig>> symbols = new java.util.HashMap<>();
        dsl.selectFrom(SYMBOL_CONFIG).where(SYMBOL_CONFIG.UID.in(uids)).orderBy(SYMBOL_CONFIG.CATEGORY, SYMBOL_CONFIG.SYMBOL)
                .forEach(r -> symbols.computeIfAbsent(r.getUid(), u -> new java.util.ArrayList<>()).add(toSymbolConfig(r)));
        java.util.Map<Long, List<CoinConfig>> coins = new java.util.HashMap<>();
        dsl.selectFrom(COIN_CONFIG).where(COIN_CONFIG.UID.in(uids)).orderBy(COIN_CONFIG.COIN)
                .forEach(r -> coins.computeIfAbsent(r.getUid(), u -> new java.util.ArrayList<>()).add(new CoinConfig(r.getCoin(), r.getLeverage())));
        java.util.Map<Long, AccountSettings> out = new java.util.HashMap<>();
        dsl.selectFrom(ACCOUNT_SETTINGS).where(ACCOUNT_SETTINGS.UID.in(uids)).forEach(row -> out.put(row.getUid(),
                toSettings(row, List.copyOf(symbols.getOrDefault(row.getUid(), List.of())), List.copyOf(coins.getOrDefault(row.getUid(), List.of())))));
        return out;
    }

    /** Writes what changed between before and after of each account: the settings row, and a list replaced whole. */
    void update(DSLContext dsl, List<AccountSettings> before, List<AccountSettings> after) {
        var rows = dsl.batch(dsl.update(ACCOUNT_SETTINGS)
                .set(ACCOUNT_SETTINGS.ACCOUNT_MODE, (String) null).set(ACCOUNT_SETTINGS.ACCOUNT_LEVEL, (String) null)
                .set(ACCOUNT_SETTINGS.HOLD_MODE, (String) null).set(ACCOUNT_SETTINGS.STP_MODE, (String) null)
                .set(ACCOUNT_SETTINGS.DELTA_SWITCH, (String) null).set(ACCOUNT_SETTINGS.REPAY_MODE, (String) null)
                .set(ACCOUNT_SETTINGS.DEDUCT, (String) null).set(ACCOUNT_SETTINGS.VERSION, ACCOUNT_SETTINGS.VERSION.plus(org.jooq.impl.DSL.inline(1L)))
                .where(ACCOUNT_SETTINGS.UID.eq((Long) null)));
        List<AccountSettings> symbolsChanged = new java.util.ArrayList<>(), coinsChanged = new java.util.ArrayList<>();
        int rowCount = 0;
        for (int i = 0; i < after.size(); i++) {
            AccountSettings b = before.get(i), a = after.get(i);
            if (!a.withoutLists().equals(b.withoutLists())) {
                rows.bind(a.accountMode().name(), a.accountLevel().name(), a.holdMode().name(), a.stpMode().name(),
                        a.deltaSwitch().name(), a.repayMode().name(), a.deduct().name(), a.uid());
                rowCount++;
            }
            if (!a.symbolConfigs().equals(b.symbolConfigs())) symbolsChanged.add(a);
            if (!a.coinConfigs().equals(b.coinConfigs())) coinsChanged.add(a);
        }
        if (rowCount > 0) rows.execute();
        if (!symbolsChanged.isEmpty()) dsl.deleteFrom(SYMBOL_CONFIG).where(SYMBOL_CONFIG.UID.in(symbolsChanged.stream().map(AccountSettings::uid).toList())).execute();
        if (!coinsChanged.isEmpty()) dsl.deleteFrom(COIN_CONFIG).where(COIN_CONFIG.UID.in(coinsChanged.stream().map(AccountSettings::uid).toList())).execute();
        insertConfigs(dsl, symbolsChanged, true, false);
        insertConfigs(dsl, coinsChanged, false, true);
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

    Optional<AccountSettings> settings(DSLContext dsl, long uid) {
        var row = dsl.selectFrom(ACCOUNT_SETTINGS).where(ACCOUNT_SETTINGS.UID.eq(uid)).fetchOne();
        if (row == null) return Optional.empty();
        List<SymbolConfig> symbols = dsl.selectFrom(SYMBOL_CONFIG).where(SYMBOL_CONFIG.UID.eq(uid))
                .orderBy(SYMBOL_CONFIG.CATEGORY, SYMBOL_CONFIG.SYMBOL).fetch(AccountStore::toSymbolConfig);
        List<CoinConfig> coins = dsl.selectFrom(COIN_CONFIG).where(COIN_CONFIG.UID.eq(uid)).orderBy(COIN_CONFIG.COIN)
                .fetch(r -> new CoinConfig(r.getCoin(), r.getLeverage()));
        return Optional.of(toSettings(row, symbols, coins));
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
}
