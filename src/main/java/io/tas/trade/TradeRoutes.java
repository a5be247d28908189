package io.tas.trade;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.position.PositionService;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The v3 order rows and the order book (order-entry-wire.md). Inputs are read as liberally as the real server reads
 * them: upper- or lower-case enums, "yes"/"YES"/true for reduceOnly, unknown fields ignored, a numeric qty or price.
 */
public final class TradeRoutes implements Routes.Feature {
    private static final Set<String> SIDES = Set.of("buy", "sell");
    private static final Set<String> TYPES = Set.of("limit", "market");
    private static final Set<String> TIME_IN_FORCE = Set.of("gtc", "ioc", "fok", "post_only");
    private static final Set<String> POS_SIDES = Set.of("long", "short");
    /** order-entry-wire.md: clientOid matches ^[\.A-Z\:/a-z0-9_-]{1,32}$. */
    private static final Pattern CLIENT_OID = Pattern.compile("[.A-Z:/a-z0-9_-]{1,32}");
    /** order-entry-wire.md: cancel-batch takes at most 20 orders; place-batch as many. */
    static final int MAX_BATCH = 20;

    private final TradingService trading;
    private final TpslOrders tpsl;
    private final PositionService positions;

    public TradeRoutes(TradingService trading, TpslOrders tpsl, PositionService positions) {
        this.trading = trading;
        this.tpsl = tpsl;
        this.positions = positions;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.PLACE_ORDER, r -> result(trading.place(place(r.uid(), r.params()))));
        routes.bind(Endpoint.PLACE_BATCH, this::placeBatch);
        routes.bind(Endpoint.CANCEL_ORDER, this::cancel);
        routes.bind(Endpoint.CANCEL_BATCH, this::cancelBatch);
        routes.bind(Endpoint.CANCEL_SYMBOL_ORDER, this::cancelSymbol);
        routes.bind(Endpoint.MODIFY_ORDER, this::modify);
        routes.bind(Endpoint.CLOSE_POSITIONS, this::closePositions);
        routes.bind(Endpoint.ORDER_INFO, r -> OrderView.of(trading.order(lookup(r.uid(), r.params()))));
        routes.bind(Endpoint.UNFILLED_ORDERS, this::unfilled);
        routes.bind(Endpoint.HISTORY_ORDERS, this::history);
        routes.bind(Endpoint.ORDERBOOK, this::orderBook);
        routes.bind(Endpoint.PLACE_STRATEGY_ORDER, this::placeTpsl);
        routes.bind(Endpoint.CANCEL_STRATEGY_ORDER, r -> result(tpsl.cancel(r.uid(), r.params().id("orderId"), r.params().get("clientOid"))));
    }

    /** place/cancel/modify answer (strings), v3 and v2 alike. */
    public record ResultView(String orderId, String clientOid) {}

    /** A v2 batch line that failed (spot/trade/Batch-Place-Orders, contract/trade/Batch-Cancel-Orders). */
    public record FailureLine(String orderId, String clientOid, String errorMsg, String errorCode) {}

    /** A v2 batch answer: partial success, each line in one list. */
    public record BatchView(List<ResultView> successList, List<FailureLine> failureList) {}

    /** A batch line: the result, or its code and message when that order failed (partial success, order-entry-wire.md). */
    public record BatchLine(String orderId, String clientOid, String code, String msg) {}

    public record BatchList(List<BatchLine> list) {}

    public record OrderList(List<OrderView> list, String cursor) {}

    /** order-entry-wire.md: {"a":[[p,q]…],"b":[[p,q]…],"ts":"ms"}, strings (ccxt takes both). */
    public record BookView(List<List<String>> a, List<List<String>> b, String ts) {}

    static ResultView result(TradingService.Result r) { return new ResultView(Long.toString(r.orderId()), r.clientOid()); }

    private TradingService.Place place(long uid, Params p) {
        p.require("category", "symbol", "qty", "side", "orderType");
        Category category = category(p.get("category"));
        String orderType = oneOf(p, "orderType", TYPES);
        if (orderType.equals("limit")) p.require("price");
        String tif = p.get("timeInForce") == null ? "gtc" : oneOf(p, "timeInForce", TIME_IN_FORCE);
        String posSide = p.get("posSide") == null ? null : oneOf(p, "posSide", POS_SIDES);
        return new TradingService.Place(uid, category, io.tas.common.Ascii.upper(p.get("symbol")), oneOf(p, "side", SIDES), orderType,
                orderType.equals("market") ? "gtc" : tif, p.decimal("qty"), orderType.equals("limit") ? p.decimal("price") : null,
                clientOid(p.get("clientOid")), category.isFutures() ? posSide : null, yes(p.get("reduceOnly"), "reduceOnly"));
    }

    /** place-strategy-order: take-profit / stop-loss of a position (order-entry-wire.md; ccxt's stopLossPrice/takeProfitPrice). */
    private ResultView placeTpsl(ApiRequest r) {
        Params p = r.params().require("category", "symbol");
        Set<String> by = Set.of("market", "mark");
        Set<String> types = Set.of("market", "limit");
        return result(tpsl.place(new TpslOrders.Place(r.uid(), category(p.get("category")), io.tas.common.Ascii.upper(p.get("symbol")),
                p.get("posSide") == null ? null : oneOf(p, "posSide", POS_SIDES), p.decimal("qty"), p.decimal("takeProfit"), p.decimal("stopLoss"),
                p.get("tpTriggerBy") == null ? null : oneOf(p, "tpTriggerBy", by), p.get("slTriggerBy") == null ? null : oneOf(p, "slTriggerBy", by),
                p.get("tpOrderType") == null ? null : oneOf(p, "tpOrderType", types), p.get("slOrderType") == null ? null : oneOf(p, "slOrderType", types),
                p.decimal("tpLimitPrice"), p.decimal("slLimitPrice"), clientOid(p.get("clientOid")))));
    }

    /**
     * uta/trade/Place-Batch.md: data is the array of lines itself, as cancel-batch's (bitget-api: PlaceBatchOrdersResponseV3[]).
     * A line that is not an order at all (a missing or malformed parameter) refuses the whole batch, nothing placed; a
     * refusal of a well-formed order (balance, decimals, duplicate clientOid) is its line's (D158).
     */
    private List<BatchLine> placeBatch(ApiRequest r) {
        List<JsonNode> lines = lines(r.body());
        List<TradingService.Place> orders = lines.stream().map(line -> place(r.uid(), Params.of(line))).toList();
        List<BatchLine> out = new ArrayList<>();
        for (int i = 0; i < orders.size(); i++) {
            try {
                out.add(line(trading.place(orders.get(i))));
            } catch (ApiException e) {
                out.add(failed(e, lines.get(i)));
            }
        }
        return out;
    }

    private ResultView cancel(ApiRequest r) {
        Params p = r.params();
        // ccxt sends symbol although the docs do not list it: when given, it must be the order's.
        String symbol = p.get("symbol");
        return result(trading.cancel(lookup(r.uid(), p), symbol == null ? null : io.tas.common.Ascii.upper(symbol)));
    }

    /** As place-batch: a line without an orderId or clientOid refuses the batch; an order not found is its line's (25204). */
    private List<BatchLine> cancelBatch(ApiRequest r) {
        List<JsonNode> lines = lines(r.body());
        List<TradingService.Lookup> lookups = lines.stream().map(line -> lookup(r.uid(), Params.of(line))).toList();
        List<BatchLine> out = new ArrayList<>();
        for (int i = 0; i < lookups.size(); i++) {
            try {
                String symbol = Params.of(lines.get(i)).get("symbol");
                out.add(line(trading.cancel(lookups.get(i), symbol == null ? null : io.tas.common.Ascii.upper(symbol))));
            } catch (ApiException e) {
                out.add(failed(e, lines.get(i)));
            }
        }
        return out;
    }

    private BatchList cancelSymbol(ApiRequest r) {
        Params p = r.params().require("category", "symbol");
        return new BatchList(trading.cancelSymbol(r.uid(), category(p.get("category")), io.tas.common.Ascii.upper(p.get("symbol")))
                .stream().map(TradeRoutes::line).toList());
    }

    private ResultView modify(ApiRequest r) {
        Params p = r.params();
        return result(trading.amend(new TradingService.Amend(lookup(r.uid(), p), p.decimal("qty"), p.decimal("price"))));
    }

    private BatchList closePositions(ApiRequest r) {
        Params p = r.params().require("category");
        Category category = category(p.get("category"));
        if (!category.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        String symbol = p.get("symbol") == null ? null : io.tas.common.Ascii.upper(p.get("symbol"));
        String posSide = p.get("posSide") == null ? null : oneOf(p, "posSide", POS_SIDES);
        return new BatchList(trading.closePositions(r.uid(), category, symbol, posSide, positions.open(r.uid())).stream()
                .map(c -> c.failure() == null ? line(c.result()) : new BatchLine("", "", c.failure().error().code(), c.failure().getMessage()))
                .toList());
    }

    private OrderList unfilled(ApiRequest r) {
        Params p = r.params();
        Category category = p.get("category") == null ? null : category(p.get("category"));
        int limit = p.intInRange("limit", 100, 1, 100);
        List<TradeOrder> page = trading.unfilled(r.uid(), category, upper(p.get("symbol")), p.id("cursor"), limit);
        return list(page, limit);
    }

    private OrderList history(ApiRequest r) {
        Params p = r.params();
        Category category = p.get("category") == null ? null : category(p.get("category"));
        int limit = p.intInRange("limit", 100, 1, 100);
        var window = io.tas.common.TimeWindow.HISTORY_ORDERS.resolve(p.millis("startTime"), p.millis("endTime"), r.now());
        if (window.isEmpty()) return new OrderList(List.of(), "");
        List<TradeOrder> page = trading.history(r.uid(), category, upper(p.get("symbol")), p.id("cursor"), limit, window.from(), window.to());
        return list(page, limit);
    }

    /** cursor: the last orderId of a full page (the next page starts below it), "" on the last page. */
    private static OrderList list(List<TradeOrder> page, int limit) {
        List<OrderView> rows = page.stream().map(OrderView::of).toList();
        return new OrderList(rows, page.size() == limit ? Long.toString(page.getLast().orderId()) : "");
    }

    private BookView orderBook(ApiRequest r) {
        Params p = r.params().require("category", "symbol");
        // order-entry-wire.md: default 5 levels, at most 200.
        int limit = p.intInRange("limit", 5, 1, 200);
        TradingService.Book b = trading.orderBook(category(p.get("category")), io.tas.common.Ascii.upper(p.get("symbol")), limit);
        return new BookView(levels(b.asks()), levels(b.bids()), Long.toString(b.ts()));
    }

    private static List<List<String>> levels(List<java.math.BigDecimal[]> levels) {
        return levels.stream().map(l -> List.of(Json.plain(l[0]), Json.plain(l[1]))).toList();
    }

    // --- parameters

    private static TradingService.Lookup lookup(long uid, Params p) {
        Long orderId = p.id("orderId");
        String clientOid = p.get("clientOid");
        if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
        return new TradingService.Lookup(uid, orderId, clientOid);
    }

    private static List<JsonNode> lines(JsonNode body) {
        // bitget-api sends the array itself; a {"orderList":[…]} object is read the same way.
        JsonNode list = body != null && body.isObject() && body.has("orderList") ? body.get("orderList") : body;
        if (list == null || !list.isArray() || list.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderList");
        if (list.size() > MAX_BATCH) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "at most " + MAX_BATCH + " orders");
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : list) {
            if (!n.isObject()) throw new ApiException(ErrorCode.PARAM_ERROR, "orderList");
            out.add(n);
        }
        return out;
    }

    private static BatchLine line(TradingService.Result r) { return new BatchLine(Long.toString(r.orderId()), r.clientOid(), null, null); }

    private static BatchLine failed(ApiException e, JsonNode line) {
        JsonNode oid = line.get("orderId");
        JsonNode coid = line.get("clientOid");
        return new BatchLine(oid == null ? "" : oid.asText(), coid == null ? "" : coid.asText(), e.error().code(), e.getMessage());
    }

    static Category category(String v) {
        try {
            Category c = Category.fromWire(io.tas.common.Ascii.upper(v));
            return c;
        } catch (RuntimeException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        }
    }

    static String oneOf(Params p, String name, Set<String> allowed) {
        String v = io.tas.common.Ascii.lower(p.get(name));
        if (!allowed.contains(v)) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    /** reduceOnly: "yes"/"no" in the docs, "YES"/"NO" from some clients, a JSON boolean from others. */
    static boolean yes(String v, String name) {
        if (v == null) return false;
        return switch (io.tas.common.Ascii.lower(v)) {
            case "yes", "true" -> true;
            case "no", "false" -> false;
            default -> throw new ApiException(ErrorCode.PARAM_ERROR, name);
        };
    }

    static String clientOid(String v) {
        if (v != null && !CLIENT_OID.matcher(v).matches()) throw new ApiException(ErrorCode.PARAM_ERROR, "clientOid");
        return v;
    }

    static String upper(String v) { return io.tas.common.Ascii.upper(v); }
}
