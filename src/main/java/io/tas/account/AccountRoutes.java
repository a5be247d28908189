package io.tas.account;

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
    }

    /** §2.2. DESIGN: the spec's userId, not the docs example's uid. ips/permType/permissions describe the calling key. */
    public record InfoView(String userId, String inviterId, String parentId, String channelCode, String channel,
                           String ips, String permType, List<String> permissions, String regisTime) {}

    /** §2.3 */
    public record SettingsView(String uid, String accountMode, String accountLevel, String assetMode, String holdMode,
                               String stpMode, String deltaSwitch, String repayMode,
                               List<SymbolConfigView> symbolConfigList, List<CoinConfigView> coinConfigList) {}

    public record SymbolConfigView(String category, String symbol, String marginMode, String leverage) {}

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
        return new SymbolConfigView(c.category().wire(), c.symbol(), c.marginMode().name(), Json.plain(c.leverage()));
    }
}
