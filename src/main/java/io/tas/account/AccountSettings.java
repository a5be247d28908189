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

    public record SymbolConfig(Category category, String symbol, MarginMode marginMode, BigDecimal leverage) {}

    public record CoinConfig(String coin, BigDecimal leverage) {}

    /** What a new unified account starts with. */
    public static AccountSettings defaults(long uid) {
        return new AccountSettings(uid, AccountMode.unified, AccountLevel.basic, AssetMode.multi_assets,
                HoldMode.one_way_mode, StpMode.none, DeltaSwitch.no, RepayMode.auto, Deduct.off, List.of(), List.of());
    }
}
