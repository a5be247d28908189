package io.tas.risk;

import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Routes;

/** §4.1 max-withdrawal and delta-info. */
public final class RiskRoutes implements Routes.Feature {
    private final MaxWithdrawal maxWithdrawal;
    private final DeltaNeutral deltaNeutral;

    public RiskRoutes(MaxWithdrawal maxWithdrawal, DeltaNeutral deltaNeutral) {
        this.maxWithdrawal = maxWithdrawal;
        this.deltaNeutral = deltaNeutral;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.MAX_WITHDRAWAL, this::maxWithdrawal);
        routes.bind(Endpoint.DELTA_INFO, this::deltaInfo);
    }

    /** §2.7 */
    public record DeltaInfoView(String deltaEquityRatio, String deltaThreshold, String positionThreshold, java.util.List<CoinRatioView> list) {}

    public record CoinRatioView(String coin, String positionRatio) {}

    /** The catalog's DELTA_ON guard has refused it unless deltaSwitch is yes (§4.1). */
    private DeltaInfoView deltaInfo(ApiRequest r) {
        var d = deltaNeutral.compute(r.uid());
        return new DeltaInfoView(Json.plain(d.deltaEquityRatio()), Json.plain(d.deltaThreshold()), Json.plain(d.positionThreshold()),
                d.list().stream().map(c -> new CoinRatioView(c.coin(), Json.plain(c.positionRatio()))).toList());
    }

    /** §2.8 */
    public record MaxWithdrawalView(String coin, String otcMaxWithdrawal, String spotMaxWithdrawal, String utaMaxWithdrawal, String totalMaxWithdrawal) {}

    private MaxWithdrawalView maxWithdrawal(ApiRequest r) {
        // Case-insensitive like every other coin parameter (issue 24 item 10): usdt is USDT.
        String coin = io.tas.common.Inputs.coinParam("coin", r.params().require("coin").get("coin"));
        var m = maxWithdrawal.compute(r.uid(), coin);
        return new MaxWithdrawalView(m.coin(), Json.plain(m.otc()), Json.plain(m.spot()), Json.plain(m.uta()), Json.plain(m.total()));
    }
}
