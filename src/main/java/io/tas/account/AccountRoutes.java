package io.tas.account;

import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.AccountLevel;
import io.tas.account.AccountEnums.Deduct;
import io.tas.account.AccountEnums.DeltaSwitch;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountSettings.CoinConfig;
import io.tas.account.AccountSettings.SymbolConfig;
import io.tas.auth.ApiKey;
import io.tas.auth.Permission;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.RawJson;
import io.tas.http.Routes;

import java.util.List;

/** §4.1 account rows: HTTP mapping only; rules live in AccountService. */
public final class AccountRoutes implements Routes.Feature {
    private final AccountService accounts;

    public AccountRoutes(AccountService accounts) { this.accounts = accounts; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.ACCOUNT_INFO, this::info);
        routes.bind(Endpoint.ACCOUNT_SETTINGS, this::settings);
        routes.bind(Endpoint.SET_HOLD_MODE, this::setHoldMode);
        routes.bind(Endpoint.SWITCH_DEDUCT, this::switchDeduct);
        routes.bind(Endpoint.DEDUCT_INFO, this::deductInfo);
        routes.bind(Endpoint.ADJUST_ACCOUNT_MODE, this::adjustAccountMode);
    }

    /** §2.5 */
    public record DeductView(String deduct) {}

    /** §4.1: data "success" (wire facts §4: the v3 set-* rows). */
    private String setHoldMode(ApiRequest r) {
        HoldMode mode = r.params().require("holdMode").enumValue("holdMode", HoldMode.class);
        accounts.change(new SettingsChange.SetHoldMode(r.uid(), mode));
        return "success";
    }

    /** §4.1: data true (the spec's boolean; wire facts §4: the v2 twin answers true). */
    private Boolean switchDeduct(ApiRequest r) {
        Deduct deduct = r.params().require("deduct").enumValue("deduct", Deduct.class);
        accounts.change(new SettingsChange.SetDeduct(r.uid(), deduct));
        return Boolean.TRUE;
    }

    private DeductView deductInfo(ApiRequest r) { return new DeductView(accounts.settings(r.uid()).deduct().name()); }

    /**
     * §4.1.4 / §3.2, data null. delta is deprecated: advanced with deltaSwitch yes (§9.2). deltaSwitch counts only with
     * advanced: other levels turn delta-neutral off, and advanced without it keeps what the account had.
     */
    private Void adjustAccountMode(ApiRequest r) {
        var p = r.params().require("mode");
        AdjustMode mode = p.enumValue("mode", AdjustMode.class);
        DeltaSwitch delta = p.enumValue("deltaSwitch", DeltaSwitch.class);
        Long targetUid = p.id("targetUid");
        Account target = targetUid == null ? r.caller().account() : accounts.ownOrSubAccount(r.caller().account(), targetUid);
        // The family guard checked the caller; a parent's own classic sub-account gets the same answer.
        if (target.kind() == AccountKind.CLASSIC) throw new io.tas.error.ApiException(io.tas.error.ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API);
        SettingsChange change = switch (mode) {
            case basic -> new SettingsChange.SetAccountLevel(target.uid(), AccountLevel.basic, DeltaSwitch.no);
            case isolated -> new SettingsChange.SetAccountLevel(target.uid(), AccountLevel.isolated, DeltaSwitch.no);
            case delta -> new SettingsChange.SetAccountLevel(target.uid(), AccountLevel.advanced, DeltaSwitch.yes);
            case advanced -> new SettingsChange.SetAccountLevel(target.uid(), AccountLevel.advanced, delta); // null keeps the account's
        };
        accounts.change(change);
        return null;
    }

    /** §4.1.4 mode values. */
    enum AdjustMode { basic, advanced, delta, isolated }

    /** §2.2. DESIGN: the spec's userId, not the docs example's uid. ips/permType/permissions describe the calling key. */
    public record InfoView(String userId, String inviterId, String parentId, String channelCode, String channel,
                           String ips, String permType, List<String> permissions, String regisTime) {}

    /** §2.3 */
    public record SettingsView(String uid, String accountMode, String accountLevel, String assetMode, String holdMode,
                               String stpMode, String deltaSwitch, String repayMode,
                               List<SymbolConfigView> symbolConfigList, List<CoinConfigView> coinConfigList) {}

    /** §2.3 item fields, plus the per-side leverage of an isolated hedge contract (decisions.md D45). */
    public record SymbolConfigView(String category, String symbol, String marginMode, String leverage, String longLeverage, String shortLeverage) {}

    public record CoinConfigView(String coin, String leverage) {}

    private InfoView info(ApiRequest r) {
        Account a = r.caller().account();
        ApiKey key = r.caller().key();
        return new InfoView(Long.toString(a.uid()), a.inviterId(), a.isSub() ? Long.toString(a.parentUid()) : "",
                a.channelCode(), a.channel(), key.ipsWire(), key.permType().wire(),
                key.permissions().stream().map(Permission::wire).toList(), Long.toString(a.createdTime()));
    }

    /** The serialized view of the settings object it was made from; valid while the service returns that same object. */
    private record SerializedSettings(AccountSettings source, RawJson json) {}

    private final com.github.benmanes.caffeine.cache.Cache<Long, SerializedSettings> serialized = AccountService.bounded();

    /** §2.3, served from the serialized view while the (cached) settings are unchanged: the hottest read row. */
    private RawJson settings(ApiRequest r) {
        AccountSettings s = accounts.settings(r.uid());
        SerializedSettings cached = serialized.getIfPresent(r.uid());
        if (cached != null && cached.source() == s) return cached.json();
        RawJson json = RawJson.of(view(s));
        serialized.put(r.uid(), new SerializedSettings(s, json));
        return json;
    }

    private static SettingsView view(AccountSettings s) {
        return new SettingsView(Long.toString(s.uid()), s.accountMode().name(), s.accountLevel().name(),
                s.assetMode().name(), s.holdMode().name(), s.stpMode().name(), s.deltaSwitch().name(),
                s.repayMode().name(),
                s.symbolConfigs().stream().map(AccountRoutes::view).toList(),
                s.coinConfigs().stream().map(c -> new CoinConfigView(c.coin(), Json.plain(c.leverage()))).toList());
    }

    private static SymbolConfigView view(SymbolConfig c) {
        return new SymbolConfigView(c.category().wire(), c.symbol(), c.marginMode().name(), Json.plain(c.leverage()),
                Json.plain(c.longLeverage()), Json.plain(c.shortLeverage()));
    }
}
