package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Routes;

import java.util.List;

/** §4.8 public tickers and the server time clients use to correct skew. */
public final class MarketRoutes implements Routes.Feature {
    private final MarketService market;
    private final java.time.Clock signatures;

    /** signatures: the clock ACCESS-TIMESTAMP is checked against (the machine's under a sandbox clock, D55). */
    public MarketRoutes(MarketService market, java.time.Clock signatures) {
        this.market = market;
        this.signatures = signatures;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.TICKERS, this::tickers);
        // The time a client that corrects its skew should sign with: the signature clock, not sandbox domain time.
        routes.bind(Endpoint.PUBLIC_TIME, r -> new ServerTime(Long.toString(signatures.millis())));
    }

    public record ServerTime(String serverTime) {}

    /** §2.20 */
    public record TickerView(String category, String symbol, String lastPrice, String openPrice24h, String highPrice24h,
                             String lowPrice24h, String ask1Price, String bid1Price, String ask1Size, String bid1Size,
                             String price24hPcnt, String volume24h, String turnover24h, String indexPrice,
                             String markPrice, String fundingRate, String openInterest, String deliveryStartTime,
                             String deliveryTime, String deliveryStatus, String platformTurnover24h, String ts) {}

    private List<TickerView> tickers(ApiRequest r) {
        var p = r.params().require("category");
        Category category = p.parsed("category", Category::fromWire);
        if (category == Category.MARGIN) throw new ApiException(ErrorCode.PARAM_ERROR, "category"); // §4.8 values
        return market.tickers(category, p.get("symbol")).stream().map(MarketRoutes::view).toList();
    }

    private static TickerView view(Ticker t) {
        return new TickerView(t.category().wire(), t.symbol(), Json.plain(t.lastPrice()), Json.plain(t.openPrice24h()),
                Json.plain(t.highPrice24h()), Json.plain(t.lowPrice24h()), Json.plain(t.ask1Price()),
                Json.plain(t.bid1Price()), Json.plain(t.ask1Size()), Json.plain(t.bid1Size()),
                Json.plain(t.price24hPcnt()), Json.plain(t.volume24h()), Json.plain(t.turnover24h()),
                Json.plain(t.indexPrice()), Json.plain(t.markPrice()), Json.plain(t.fundingRate()),
                Json.plain(t.openInterest()), Json.str(t.deliveryStartTime()), Json.str(t.deliveryTime()),
                t.deliveryStatus() == null ? "" : t.deliveryStatus(), Json.plain(t.platformTurnover24h()),
                Long.toString(t.ts()));
    }
}
