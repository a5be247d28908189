package io.tas.copytrade;

import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Routes;

/** §4.3 copy-trading profit summary. */
public final class CopyTradeRoutes implements Routes.Feature {
    private final CopyTradeService copy;

    public CopyTradeRoutes(CopyTradeService copy) { this.copy = copy; }

    @Override
    public void register(Routes routes) { routes.bind(Endpoint.PROFIT_SUMMARY, this::summary); }

    /** §2.21: strings. */
    public record SummaryView(String totalProfit, String totalAllocatedProfit, String totalPendingProfit) {}

    private SummaryView summary(ApiRequest r) {
        ProfitSummary s = copy.get(r.uid());
        return new SummaryView(Json.plain(s.totalProfit()), Json.plain(s.totalAllocatedProfit()), Json.plain(s.totalPendingProfit()));
    }
}
