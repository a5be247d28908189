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
        for (SymbolConfig c : s.symbolConfigs()) {
            dsl.insertInto(SYMBOL_CONFIG)
                    .set(SYMBOL_CONFIG.UID, s.uid())
                    .set(SYMBOL_CONFIG.CATEGORY, c.category().wire())
                    .set(SYMBOL_CONFIG.SYMBOL, c.symbol())
                    .set(SYMBOL_CONFIG.MARGIN_MODE, c.marginMode().name())
                    .set(SYMBOL_CONFIG.LEVERAGE, c.leverage())
                    .execute();
        }
        for (CoinConfig c : s.coinConfigs()) {
            dsl.insertInto(COIN_CONFIG)
                    .set(COIN_CONFIG.UID, s.uid())
                    .set(COIN_CONFIG.COIN, c.coin())
                    .set(COIN_CONFIG.LEVERAGE, c.leverage())
                    .execute();
        }
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
                .orderBy(SYMBOL_CONFIG.CATEGORY, SYMBOL_CONFIG.SYMBOL)
                .fetch(r -> new SymbolConfig(Category.fromWire(r.getCategory()), r.getSymbol(),
                        MarginMode.valueOf(r.getMarginMode()), r.getLeverage()));
        List<CoinConfig> coins = dsl.selectFrom(COIN_CONFIG).where(COIN_CONFIG.UID.eq(uid)).orderBy(COIN_CONFIG.COIN)
                .fetch(r -> new CoinConfig(r.getCoin(), r.getLeverage()));
        return Optional.of(new AccountSettings(uid,
                AccountMode.valueOf(row.getAccountMode()), AccountLevel.valueOf(row.getAccountLevel()),
                AssetMode.valueOf(row.getAssetMode()), HoldMode.valueOf(row.getHoldMode()),
                StpMode.valueOf(row.getStpMode()), DeltaSwitch.valueOf(row.getDeltaSwitch()),
                RepayMode.valueOf(row.getRepayMode()), Deduct.valueOf(row.getDeduct()), symbols, coins));
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
     * The account row, read fresh and locked for this transaction: the same lock a position open takes (lock order:
     * account, then position, then balance rows; PostgreSQL's FOR NO KEY UPDATE leaves foreign-key checks alone).
     */
    Optional<Account> lockForChange(DSLContext dsl, long uid) {
        var select = dsl.selectFrom(ACCOUNT).where(ACCOUNT.UID.eq(uid));
        return (dsl.dialect() == org.jooq.SQLDialect.POSTGRES ? select.forNoKeyUpdate() : select.forUpdate())
                .fetchOptional().map(AccountStore::toAccount);
    }

    void updateKind(DSLContext dsl, long uid, AccountKind kind, long now) {
        dsl.update(ACCOUNT).set(ACCOUNT.ACCOUNT_KIND, kind.name()).set(ACCOUNT.UPDATED_TIME, now)
                .where(ACCOUNT.UID.eq(uid)).execute();
    }

    void updateAccountMode(DSLContext dsl, long uid, AccountMode mode) {
        dsl.update(ACCOUNT_SETTINGS).set(ACCOUNT_SETTINGS.ACCOUNT_MODE, mode.name())
                .set(ACCOUNT_SETTINGS.VERSION, ACCOUNT_SETTINGS.VERSION.plus(1L))
                .where(ACCOUNT_SETTINGS.UID.eq(uid)).execute();
    }
}
