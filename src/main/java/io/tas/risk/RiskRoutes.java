package io.tas.risk;

import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Routes;

/** §4.1 max-withdrawal. */
public final class RiskRoutes implements Routes.Feature {
    private final MaxWithdrawal maxWithdrawal;

    public RiskRoutes(MaxWithdrawal maxWithdrawal) { this.maxWithdrawal = maxWithdrawal; }

    @Override
    public void register(Routes routes) { routes.bind(Endpoint.MAX_WITHDRAWAL, this::maxWithdrawal); }

    /** §2.8 */
    public record MaxWithdrawalView(String coin, String otcMaxWithdrawal, String spotMaxWithdrawal, String utaMaxWithdrawal, String totalMaxWithdrawal) {}

    private MaxWithdrawalView maxWithdrawal(ApiRequest r) {
        String coin = r.params().require("coin").get("coin");
        if (!io.tas.ledger.LedgerTypes.isCoin(coin)) throw new io.tas.error.ApiException(io.tas.error.ErrorCode.PARAM_ERROR, "coin");
        var m = maxWithdrawal.compute(r.uid(), coin);
        return new MaxWithdrawalView(m.coin(), Json.plain(m.otc()), Json.plain(m.spot()), Json.plain(m.uta()), Json.plain(m.total()));
    }
}
