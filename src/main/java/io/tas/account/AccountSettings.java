package io.tas.account;

import io.tas.account.AccountEnums.*;

import java.math.BigDecimal;
import java.util.List;

/** §2.3 settings of one account, with its per-contract and per-coin leverage. */
public record AccountSettings(
        long uid,
        AccountMode accountMode,
        AccountLevel accountLevel,
        AssetMode assetMode,
        HoldMode holdMode,
        StpMode stpMode,
        DeltaSwitch deltaSwitch,
        RepayMode repayMode,
        Deduct deduct,
        List<SymbolConfig> symbolConfigs,
        List<CoinConfig> coinConfigs) {

    /** One contract's margin mode and leverage; crossed contracts have one leverage, so long equals short. */
    public record SymbolConfig(Category category, String symbol, MarginMode marginMode, BigDecimal longLeverage, BigDecimal shortLeverage) {
        /** §2.3 leverage: the long side's (the one leverage of a crossed contract). */
        public BigDecimal leverage() { return longLeverage; }

        public BigDecimal leverage(boolean longSide) { return longSide ? longLeverage : shortLeverage; }

        boolean sameKey(Category c, String s) { return category == c && symbol.equals(s); }
    }

    public record CoinConfig(String coin, BigDecimal leverage) {}

    /** §4.1.2 when a contract was never configured: 10x, or the contract's maximum when that is lower. */
    public static final BigDecimal DEFAULT_LEVERAGE = BigDecimal.TEN;

    public java.util.Optional<SymbolConfig> symbolConfig(Category category, String symbol) {
        return symbolConfigs.stream().filter(c -> c.sameKey(category, symbol)).findFirst();
    }

    public java.util.Optional<CoinConfig> coinConfig(String coin) {
        return coinConfigs.stream().filter(c -> c.coin().equals(coin)).findFirst();
    }

    /** These settings with the contract's configuration put in (replacing the one it had), in (category, symbol) order. */
    public AccountSettings with(SymbolConfig config) {
        List<SymbolConfig> next = new java.util.ArrayList<>(symbolConfigs.stream().filter(c -> !c.sameKey(config.category(), config.symbol())).toList());
        next.add(config);
        next.sort(java.util.Comparator.comparing((SymbolConfig c) -> c.category().wire()).thenComparing(SymbolConfig::symbol));
        return new AccountSettings(uid, accountMode, accountLevel, assetMode, holdMode, stpMode, deltaSwitch, repayMode, deduct, List.copyOf(next), coinConfigs);
    }

    /** These settings with the coin's margin leverage put in, in coin order. */
    public AccountSettings with(CoinConfig config) {
        List<CoinConfig> next = new java.util.ArrayList<>(coinConfigs.stream().filter(c -> !c.coin().equals(config.coin())).toList());
        next.add(config);
        next.sort(java.util.Comparator.comparing(CoinConfig::coin));
        return new AccountSettings(uid, accountMode, accountLevel, assetMode, holdMode, stpMode, deltaSwitch, repayMode, deduct, symbolConfigs, List.copyOf(next));
    }

    public AccountSettings withHoldMode(HoldMode mode) {
        return new AccountSettings(uid, accountMode, accountLevel, assetMode, mode, stpMode, deltaSwitch, repayMode, deduct, symbolConfigs, coinConfigs);
    }

    public AccountSettings withDeduct(Deduct d) {
        return new AccountSettings(uid, accountMode, accountLevel, assetMode, holdMode, stpMode, deltaSwitch, repayMode, d, symbolConfigs, coinConfigs);
    }

    public AccountSettings withLevel(AccountLevel level, DeltaSwitch delta) {
        return new AccountSettings(uid, accountMode, level, assetMode, holdMode, stpMode, delta, repayMode, deduct, symbolConfigs, coinConfigs);
    }

    /** The settings row alone (to tell whether it changed). */
    AccountSettings withoutLists() {
        return new AccountSettings(uid, accountMode, accountLevel, assetMode, holdMode, stpMode, deltaSwitch, repayMode, deduct, List.of(), List.of());
    }

    public AccountSettings withAccountMode(AccountMode mode) {
        return new AccountSettings(uid, mode, accountLevel, assetMode, holdMode, stpMode, deltaSwitch, repayMode, deduct, symbolConfigs, coinConfigs);
    }

    /** What a new unified account starts with. */
    public static AccountSettings defaults(long uid) {
        return new AccountSettings(uid, AccountMode.unified, AccountLevel.basic, AssetMode.multi_assets,
                HoldMode.one_way_mode, StpMode.none, DeltaSwitch.no, RepayMode.auto, Deduct.off, List.of(), List.of());
    }
}
