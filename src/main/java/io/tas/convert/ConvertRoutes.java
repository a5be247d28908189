package io.tas.convert;

import io.tas.convert.SmallAssetConversion.HistoryQuery;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Routes;

import java.util.List;

/** §4.2 small-asset conversion rows. */
public final class ConvertRoutes implements Routes.Feature {
    private final SmallAssetConversion conversion;

    public ConvertRoutes(SmallAssetConversion conversion) { this.conversion = conversion; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.SMALL_ASSETS, this::list);
        routes.bind(Endpoint.SMALL_ASSETS_TRADE, this::trade);
        routes.bind(Endpoint.SMALL_ASSETS_HISTORY, this::history);
    }

    /** §2.9 */
    public record SmallAssetView(String coin, String available, String estimatedCoin, String estimatedAmount, FeeRateView feeDetail, String cTime) {}

    public record FeeRateView(String feeRate, String fee) {}

    /** §2.11 */
    public record TradeView(List<String> fromCoin, String toCoin, String orderId) {}

    /** §2.10 */
    public record HistoryView(List<OrderView> list, String cursor) {}

    public record OrderView(String orderId, String fromCoin, String fromAmount, String fromCoinPrice, String toCoin, String toAmount,
                            String toCoinPrice, FeeView feeDetail, String status, String createdTime) {}

    public record FeeView(String fee, String feeCoin) {}

    private List<SmallAssetView> list(ApiRequest r) {
        String token = conversion.config().platformToken();
        String rate = Json.plain(conversion.config().feeRate());
        String now = Long.toString(r.now());
        return conversion.list(r.uid()).stream().map(a -> new SmallAssetView(a.coin(), Json.plain(a.available()), token,
                Json.plain(a.estimatedAmount()), new FeeRateView(rate, Json.plain(a.fee())), now)).toList();
    }

    private TradeView trade(ApiRequest r) {
        List<String> coins = r.params().stringList("fromCoinList");
        if (coins == null || coins.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "fromCoinList");
        var t = conversion.trade(r.uid(), coins);
        return new TradeView(t.fromCoins(), t.toCoin(), Long.toString(t.orderId()));
    }

    private HistoryView history(ApiRequest r) {
        var p = r.params();
        var page = conversion.history(r.uid(), new HistoryQuery(p.id("orderId"), p.millis("startTime"), p.millis("endTime"),
                p.intInRange("limit", 20, 1, 100), p.id("cursor")));
        return new HistoryView(page.list().stream().map(o -> new OrderView(Long.toString(o.orderId()), o.fromCoin(),
                Json.plain(o.fromAmount()), Json.plain(o.fromCoinPrice()), o.toCoin(), Json.plain(o.toAmount()),
                Json.plain(o.toCoinPrice()), new FeeView(Json.plain(o.fee()), o.feeCoin()), o.status(),
                Long.toString(o.createdTime()))).toList(), page.cursor());
    }
}
