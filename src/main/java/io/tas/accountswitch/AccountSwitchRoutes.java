package io.tas.accountswitch;

import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Routes;

/** §4.1 switch and switch-status: HTTP mapping only; rules live in AccountSwitchService. */
public final class AccountSwitchRoutes implements Routes.Feature {
    private final AccountSwitchService switches;

    public AccountSwitchRoutes(AccountSwitchService switches) { this.switches = switches; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.ACCOUNT_SWITCH, this::requestSwitch);
        routes.bind(Endpoint.SWITCH_STATUS, this::status);
    }

    /** §2.6: reason is always present, empty unless status is fail. */
    public record StatusView(String status, String reason) {}

    /** §3.1: no parameters (an empty body and {} alike); data null means only that the request was received. */
    private Object requestSwitch(ApiRequest r) {
        switches.request(r.uid());
        return null;
    }

    /** Scoped to the key's UID: there is no parameter that names another account. */
    private StatusView status(ApiRequest r) {
        AccountSwitchService.SwitchState s = switches.status(r.uid());
        return new StatusView(s.status().name(), s.reason());
    }
}
