package io.tas.strategy;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.strategy.StrategyOrder.IcebergParam;
import io.tas.strategy.StrategyOrder.OcoParam;
import io.tas.strategy.StrategyOrder.TrailingStopParam;
import io.tas.strategy.StrategyOrder.TwapParam;
import io.tas.strategy.StrategyService.HistoryQuery;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** §4.6 strategy order rows. */
public final class StrategyRoutes implements Routes.Feature {
    private static final Set<String> TYPES = Set.of("tpsl", "trigger", "oco", "trailing_stop", "iceberg", "twap");
    private final StrategyService orders;

    public StrategyRoutes(StrategyService orders) { this.orders = orders; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.HISTORY_STRATEGY_ORDERS, this::history);
        routes.bind(Endpoint.UNFILLED_STRATEGY_ORDERS, this::unfilled);
    }

    /** §4.6: list of §2.19 items and cursor, a JSON Number (null on an empty page, D65). */
    public record HistoryView(List<Map<String, Object>> list, Long cursor) {}

    private HistoryView history(ApiRequest r) {
        Params p = r.params().require("category");
        String category = category(p);
        String type = type(p);
        var page = orders.history(r.uid(), new HistoryQuery(category, type, p.millis("startTime"), p.millis("endTime"),
                p.intInRange("limit", 100, 1, 100), p.id("cursor")));
        return new HistoryView(page.list().stream().map(o -> view(o, true)).toList(), page.cursor());
    }

    private List<Map<String, Object>> unfilled(ApiRequest r) {
        Params p = r.params().require("category");
        String category = category(p);
        return orders.unfilled(r.uid(), category, type(p)).stream().map(o -> view(o, false)).toList();
    }

    private static String category(Params p) {
        String c = p.get("category");
        if (!StrategyService.QUERY_CATEGORIES.contains(c)) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        return c;
    }

    private static String type(Params p) {
        String t = p.get("type");
        if (t != null && !TYPES.contains(t)) throw new ApiException(ErrorCode.PARAM_ERROR, "type");
        return t;
    }

    /**
     * One §2.19 item in the spec's field order: every field a string ("" when the order has no value), triggerType only
     * in history, and only the order type's own parameter list (D68).
     */
    public static Map<String, Object> view(StrategyOrder o, boolean history) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("orderId", Long.toString(o.orderId()));
        m.put("clientOid", o.clientOid());
        m.put("category", o.category());
        m.put("symbol", o.symbol());
        m.put("qty", Json.plain(o.qty()));
        m.put("posSide", o.posSide());
        m.put("status", o.status());
        if (history) m.put("triggerType", s(o.triggerType()));
        m.put("tpTriggerBy", s(o.tpTriggerBy()));
        m.put("slTriggerBy", s(o.slTriggerBy()));
        m.put("takeProfit", Json.plain(o.takeProfit()));
        m.put("stopLoss", Json.plain(o.stopLoss()));
        m.put("tpOrderType", s(o.tpOrderType()));
        m.put("slOrderType", s(o.slOrderType()));
        m.put("tpLimitPrice", Json.plain(o.tpLimitPrice()));
        m.put("slLimitPrice", Json.plain(o.slLimitPrice()));
        m.put("triggerBy", s(o.triggerBy()));
        m.put("triggerPrice", Json.plain(o.triggerPrice()));
        m.put("triggerOrderType", s(o.triggerOrderType()));
        m.put("triggerOrderPrice", Json.plain(o.triggerOrderPrice()));
        if (o.type().paramsField() != null) {
            m.put(o.type().paramsField(), o.params().stream().map(StrategyRoutes::param).toList());
        }
        m.put("createdTime", Long.toString(o.createdTime()));
        m.put("updatedTime", Long.toString(o.updatedTime()));
        return m;
    }

    private static Map<String, Object> param(Object item) {
        Map<String, Object> m = new LinkedHashMap<>();
        switch (item) {
            case OcoParam p -> {
                m.put("ocoLimitPrice", Json.plain(p.ocoLimitPrice()));
                m.put("ocoTriggerPrice", Json.plain(p.ocoTriggerPrice()));
                m.put("ocoOrderType", s(p.ocoOrderType()));
                m.put("ocoOrderPrice", Json.plain(p.ocoOrderPrice()));
            }
            case TrailingStopParam p -> {
                m.put("activationPrice", Json.plain(p.activationPrice()));
                m.put("activationType", s(p.activationType()));
                m.put("trailType", s(p.trailType()));
                m.put("trailVariance", Json.plain(p.trailVariance()));
                m.put("preOrderType", s(p.preOrderType()));
                m.put("preOrderPrice", Json.plain(p.preOrderPrice()));
            }
            case IcebergParam p -> {
                m.put("splitMode", s(p.splitMode()));
                m.put("qtyPerOrder", Json.plain(p.qtyPerOrder()));
                m.put("splitOrderNumbers", Json.plain(p.splitOrderNumbers()));
                m.put("orderPreference", s(p.orderPreference()));
                m.put("executionStrategy", s(p.executionStrategy()));
                m.put("fixedDistanceType", s(p.fixedDistanceType()));
                m.put("distance", Json.plain(p.distance()));
                m.put("fixedPrice", Json.plain(p.fixedPrice()));
                m.put("priceLimit", Json.plain(p.priceLimit()));
            }
            case TwapParam p -> {
                m.put("duration", Json.plain(p.duration()));
                m.put("interval", Json.plain(p.interval()));
                m.put("orderType", s(p.orderType()));
                m.put("limitOffsetType", p.limitOffsetType()); // Number: 1 percentage, 2 spread (D69)
                m.put("limitOffsetPercentage", number(p.limitOffsetPercentage()));
                m.put("limitOffsetSpread", number(p.limitOffsetSpread()));
                m.put("twapTriggerPrice", number(p.twapTriggerPrice()));
                m.put("twapTerminationPrice", number(p.twapTerminationPrice()));
            }
            default -> throw new IllegalStateException("unknown parameter item " + item);
        }
        return m;
    }

    private static String s(String v) { return v == null ? "" : v; }

    /** A JSON Number without trailing zeros; null when the order has no value. */
    private static BigDecimal number(BigDecimal v) {
        if (v == null) return null;
        return v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    }
}
