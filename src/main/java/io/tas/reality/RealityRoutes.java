package io.tas.reality;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Params;
import io.tas.http.Routes;

import java.util.Set;

/** §4.7 Reality order rows; the allow-list is the catalog's guard of placing (Guard.REALITY_ALLOW_LIST), not of cancelling (D81). */
public final class RealityRoutes implements Routes.Feature {
    private static final Set<String> CATEGORIES = Set.of("SPOT", "MARGIN");
    private static final Set<String> SIDES = Set.of("buy", "sell");
    private static final Set<String> TYPES = Set.of("limit", "market");
    private final RealityService reality;

    public RealityRoutes(RealityService reality) { this.reality = reality; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.PLACE_REALITY_ORDER, this::place);
        routes.bind(Endpoint.CANCEL_REALITY_ORDER, this::cancel);
    }

    /** §2.22: both strings; clientOid "" when none was given. */
    public record ResultView(String orderId, String clientOid) {
        static ResultView of(RealityService.Result r) { return new ResultView(Long.toString(r.orderId()), r.clientOid()); }
    }

    private ResultView place(ApiRequest r) {
        Params p = r.params().require("symbol", "side", "orderType", "qty");
        String orderType = oneOf(p, "orderType", TYPES);
        // §4.7: price is required for limit orders; a market order's price is ignored.
        if (orderType.equals("limit")) p.require("price");
        return ResultView.of(reality.place(new RealityService.Place(r.uid(), category(p), p.get("symbol"), oneOf(p, "side", SIDES),
                orderType, p.decimal("qty"), orderType.equals("limit") ? p.decimal("price") : null, clientOid(p))));
    }

    private ResultView cancel(ApiRequest r) {
        Params p = r.params().require("symbol");
        return ResultView.of(reality.cancel(new RealityService.Cancel(r.uid(), category(p), p.get("symbol"), p.id("orderId"), clientOid(p))));
    }

    /** §4.7 category: SPOT (default) or MARGIN; both trade the Reality pair with the unified balance. */
    private static String category(Params p) {
        String c = p.get("category");
        if (c == null) return "SPOT";
        if (!CATEGORIES.contains(c)) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        return c;
    }

    private static String oneOf(Params p, String name, Set<String> allowed) {
        String v = p.get(name);
        if (!allowed.contains(v)) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    private static String clientOid(Params p) {
        String v = p.get("clientOid");
        if (v != null && (v.length() > RealityService.MAX_CLIENT_OID || !v.chars().allMatch(ch -> ch > 32 && ch < 127))) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "clientOid");
        }
        return v;
    }
}
