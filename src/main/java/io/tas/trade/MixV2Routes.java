package io.tas.trade;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountService;
import io.tas.common.TimeWindow;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.trade.TradeRoutes.BatchView;
import io.tas.trade.TradeRoutes.FailureLine;
import io.tas.trade.TradeRoutes.ResultView;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import static io.tas.trade.TradeRoutes.result;

/**
 * The classic (v2) futures order rows (issue 26; order-entry-wire.md, "USDT
 * futures"), on the engine of the v3 rows. A classic futures order moves the same margin rows as a unified one (D171);
 * the engine's unified codes are answered in the classic futures family's (D173).
 */
public final class MixV2Routes implements Routes.Feature {
    private static final Set<String> SIDES = Set.of("buy", "sell");
    private static final Set<String> TYPES = Set.of("limit", "market");
    private static final Set<String> FORCES = Set.of("gtc", "post_only", "fok", "ioc");
    private static final Set<String> TRADE_SIDES = Set.of("open", "close");

    private final TradingService trading;
    private final AccountService accounts;
    private final io.tas.position.PositionService positions;
    private final io.tas.spot.UnifiedRecords records;
    private final TpslOrders tpsl;

    public MixV2Routes(TradingService trading, AccountService accounts, io.tas.position.PositionService positions,
                       io.tas.spot.UnifiedRecords records, TpslOrders tpsl) {
        this.tpsl = tpsl;
        this.trading = trading;
        this.accounts = accounts;
        this.positions = positions;
        this.records = records;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.MIX_PLACE_ORDER, r -> v2(() -> result(trading.place(place(r.uid(), r.params()))), ErrorCode.MIX_ORDER_NOT_EXIST));
        routes.bind(Endpoint.MIX_CANCEL_ORDER, this::cancel);
        routes.bind(Endpoint.MIX_BATCH_CANCEL_ORDERS, this::cancelBatch);
        routes.bind(Endpoint.MIX_BATCH_PLACE_ORDER, this::placeBatch);
        routes.bind(Endpoint.MIX_MODIFY_ORDER, this::modify);
        routes.bind(Endpoint.MIX_CANCEL_ALL_ORDERS, this::cancelAll);
        routes.bind(Endpoint.MIX_CLOSE_POSITIONS, this::closePositions);
        routes.bind(Endpoint.MIX_PLACE_TPSL_ORDER, this::placeTpsl);
        routes.bind(Endpoint.MIX_FILLS, this::fills);
        routes.bind(Endpoint.MIX_ORDER_DETAIL, this::detail);
        routes.bind(Endpoint.MIX_ORDERS_PENDING, r -> list(r, true));
        routes.bind(Endpoint.MIX_ORDERS_HISTORY, r -> list(r, false));
    }

    /** close-positions lines carry the symbol (contract/trade/Flash-Close-Position). */
    public record CloseOk(String orderId, String clientOid, String symbol) {}

    public record CloseFailure(String orderId, String clientOid, String symbol, String errorMsg, String errorCode) {}

    public record CloseView(List<CloseOk> successList, List<CloseFailure> failureList) {}

    /** contract/trade/Get-Order-Fills: fee lines an array, fee negative (paid). */
    public record FeeLine(String deduction, String feeCoin, String totalDeductionFee, String totalFee) {}

    public record FillRow(String tradeId, String symbol, String orderId, String price, String baseVolume, List<FeeLine> feeDetail,
                          String side, String quoteVolume, String profit, String enterPointSource, String tradeSide, String posMode,
                          String tradeScope, String cTime) {}

    public record FillsView(List<FillRow> fillList, String endId) {}

    /**
     * place-order: {symbol, productType, marginMode, marginCoin, size, price, side, tradeSide, orderType, force,
     * clientOid, reduceOnly}. In hedge mode side names the position and tradeSide opens or closes it (close long =
     * buy + close: the engine sells); in one-way mode tradeSide is ignored and reduceOnly "YES" reduces (D173).
     */
    private TradingService.Place place(long uid, Params p) {
        p.require("symbol", "productType", "size", "side", "orderType");
        Category category = productType(p);
        String orderType = TradeRoutes.oneOf(p, "orderType", TYPES);
        if (orderType.equals("limit")) p.require("price");
        String force = p.get("force") == null ? "gtc" : TradeRoutes.oneOf(p, "force", FORCES);
        String side = TradeRoutes.oneOf(p, "side", SIDES);
        String tradeSide = p.get("tradeSide") == null ? null : TradeRoutes.oneOf(p, "tradeSide", TRADE_SIDES);
        boolean hedge = accounts.settings(uid).holdMode() == HoldMode.hedge_mode;
        String posSide = null;
        String engineSide = side;
        if (hedge) {
            if (tradeSide == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "tradeSide");
            posSide = side.equals("buy") ? "long" : "short";
            if (tradeSide.equals("close")) engineSide = side.equals("buy") ? "sell" : "buy";
        }
        return new TradingService.Place(uid, category, io.tas.common.Ascii.upper(p.get("symbol")), engineSide, orderType,
                orderType.equals("market") ? "gtc" : force, p.decimal("size"), orderType.equals("limit") ? p.decimal("price") : null,
                TradeRoutes.clientOid(p.get("clientOid")), posSide, !hedge && TradeRoutes.yes(p.get("reduceOnly"), "reduceOnly"), true);
    }

    private ResultView cancel(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category category = productType(p);
        return v2(() -> result(cancelOne(r.uid(), category, p.get("symbol"), p.id("orderId"), p.get("clientOid"))), ErrorCode.MIX_ORDER_NOT_EXIST);
    }

    /** One futures order of the category by orderId (wins) or clientOid; another category's order is not found. */
    private TradingService.Result cancelOne(long uid, Category category, String symbol, Long orderId, String clientOid) {
        if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
        TradingService.Lookup l = new TradingService.Lookup(uid, orderId, clientOid);
        if (trading.order(l).category() != category) throw new ApiException(ErrorCode.ORDER_NOT_EXIST);
        return trading.cancel(l, io.tas.common.Ascii.upper(symbol));
    }

    /**
     * batch-cancel-orders: the orders of orderIdList, each answered in its list; without orderIdList every working order
     * of the symbol (ccxt's cancelAllOrders).
     */
    private BatchView cancelBatch(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category category = productType(p);
        String symbol = io.tas.common.Ascii.upper(p.get("symbol"));
        JsonNode list = r.body() == null ? null : r.body().get("orderIdList");
        List<ResultView> ok = new ArrayList<>();
        List<FailureLine> failed = new ArrayList<>();
        if (list == null || list.isNull()) {
            v2(() -> trading.cancelSymbol(r.uid(), category, symbol), ErrorCode.MIX_ORDER_NOT_EXIST).forEach(x -> ok.add(result(x)));
            return new BatchView(ok, failed);
        }
        if (!list.isArray() || list.isEmpty() || list.size() > SpotV2Routes.MAX_BATCH) throw new ApiException(ErrorCode.PARAM_ERROR, "orderIdList");
        List<Params> lines = new ArrayList<>();
        for (JsonNode n : list) {
            if (!n.isObject()) throw new ApiException(ErrorCode.PARAM_ERROR, "orderIdList");
            Params line = Params.of(n);
            if (line.id("orderId") == null && line.get("clientOid") == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
            lines.add(line);
        }
        for (Params line : lines) {
            try {
                ok.add(v2(() -> result(cancelOne(r.uid(), category, symbol, line.id("orderId"), line.get("clientOid"))), ErrorCode.MIX_ORDER_NOT_EXIST));
            } catch (ApiException e) {
                failed.add(new FailureLine(line.get("orderId") == null ? "" : line.get("orderId"),
                        line.get("clientOid") == null ? "" : line.get("clientOid"), e.getMessage(), e.error().code()));
            }
        }
        return new BatchView(ok, failed);
    }

    /**
     * batch-place-order: symbol, productType, marginCoin and marginMode at the top, the orders in orderList (at most 50).
     * As the v3 batch (D158): a line that is not an order refuses the batch; a refused order is its line's.
     */
    private BatchView placeBatch(ApiRequest r) {
        JsonNode body = r.body();
        JsonNode list = body == null || !body.isObject() ? null : body.get("orderList");
        if (list == null || !list.isArray() || list.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderList");
        if (list.size() > SpotV2Routes.MAX_BATCH) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "at most " + SpotV2Routes.MAX_BATCH + " orders");
        List<TradingService.Place> orders = new ArrayList<>();
        for (JsonNode line : list) {
            if (!line.isObject()) throw new ApiException(ErrorCode.PARAM_ERROR, "orderList");
            var merged = ((com.fasterxml.jackson.databind.node.ObjectNode) body).deepCopy();
            merged.remove("orderList");
            merged.setAll((com.fasterxml.jackson.databind.node.ObjectNode) line);
            orders.add(place(r.uid(), Params.of(merged)));
        }
        List<ResultView> ok = new ArrayList<>();
        List<FailureLine> failed = new ArrayList<>();
        for (TradingService.Place order : orders) {
            try {
                ok.add(v2(() -> result(trading.place(order)), ErrorCode.MIX_ORDER_NOT_EXIST));
            } catch (ApiException e) {
                failed.add(new FailureLine("", order.clientOid() == null ? "" : order.clientOid(), e.getMessage(), e.error().code()));
            }
        }
        return new BatchView(ok, failed);
    }

    /** modify-order: a working limit order's newSize and/or newPrice (the engine's modify, D157); newClientOid is not kept (D173). */
    private ResultView modify(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category category = productType(p);
        Long orderId = p.id("orderId");
        String clientOid = p.get("clientOid");
        if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
        TradingService.Lookup l = new TradingService.Lookup(r.uid(), orderId, clientOid);
        return v2(() -> {
            if (trading.order(l).category() != category) throw new ApiException(ErrorCode.ORDER_NOT_EXIST);
            return result(trading.amend(new TradingService.Amend(l, p.decimal("newSize"), p.decimal("newPrice"))));
        }, ErrorCode.MIX_ORDER_NOT_EXIST);
    }

    /** cancel-all-orders: every working order of the product type (of one symbol when given). */
    private BatchView cancelAll(ApiRequest r) {
        Params p = r.params().require("productType");
        Category category = productType(p);
        String only = TradeRoutes.upper(p.get("symbol"));
        java.util.Set<String> symbols = new java.util.TreeSet<>();
        if (only != null) symbols.add(only);
        Long cursor = null;
        while (only == null) {
            List<TradeOrder> page = trading.unfilled(r.uid(), category, null, cursor, 100);
            page.forEach(o -> symbols.add(o.symbol()));
            if (page.size() < 100) break;
            cursor = page.getLast().orderId();
        }
        List<ResultView> ok = new ArrayList<>();
        for (String symbol : symbols) {
            v2(() -> trading.cancelSymbol(r.uid(), category, symbol), ErrorCode.MIX_ORDER_NOT_EXIST).forEach(x -> ok.add(result(x)));
        }
        return new BatchView(ok, List.of());
    }

    /** close-positions: each open position of the product type (one symbol, one holdSide when given) closed at market. */
    private CloseView closePositions(ApiRequest r) {
        Params p = r.params().require("productType");
        Category category = productType(p);
        String holdSide = p.get("holdSide");
        if (holdSide != null && !holdSide.equals("long") && !holdSide.equals("short")) throw new ApiException(ErrorCode.PARAM_ERROR, "holdSide");
        var lines = v2(() -> trading.closePositions(r.uid(), category, TradeRoutes.upper(p.get("symbol")), holdSide, positions.open(r.uid()), true),
                ErrorCode.MIX_ORDER_NOT_EXIST);
        List<CloseOk> ok = new ArrayList<>();
        List<CloseFailure> failed = new ArrayList<>();
        for (var c : lines) {
            if (c.failure() == null) ok.add(new CloseOk(Long.toString(c.result().orderId()), c.result().clientOid(), c.symbol()));
            else failed.add(new CloseFailure("", "", c.symbol(), c.failure().getMessage(), c.failure().error().code()));
        }
        return new CloseView(ok, failed);
    }

    /**
     * place-tpsl-order: a take-profit (profit_plan, pos_profit) or stop-loss (loss_plan, pos_loss) of a position, the
     * unified engine's TP/SL (issue 25): triggerType fill_price or mark_price, executePrice 0 or absent = market, holdSide
     * long/short (buy/sell in one-way mode), size the part to close (pos_* plans: the whole position) (D173).
     */
    private ResultView placeTpsl(ApiRequest r) {
        Params p = r.params().require("symbol", "productType", "marginCoin", "planType", "triggerPrice", "holdSide");
        Category category = productType(p);
        String plan = p.get("planType");
        boolean profit = switch (plan) {
            case "profit_plan", "pos_profit" -> true;
            case "loss_plan", "pos_loss" -> false;
            default -> throw new ApiException(ErrorCode.PARAM_ERROR, "planType");
        };
        String by = p.get("triggerType") == null ? "mark" : switch (p.get("triggerType")) {
            case "fill_price" -> "market";
            case "mark_price" -> "mark";
            default -> throw new ApiException(ErrorCode.PARAM_ERROR, "triggerType");
        };
        String posSide = switch (p.get("holdSide")) {
            case "long", "buy" -> "long";
            case "short", "sell" -> "short";
            default -> throw new ApiException(ErrorCode.PARAM_ERROR, "holdSide");
        };
        BigDecimal execute = p.decimal("executePrice");
        String type = execute == null || execute.signum() == 0 ? "market" : "limit";
        BigDecimal limit = type.equals("limit") ? execute : null;
        BigDecimal size = plan.startsWith("pos_") ? null : p.require("size").decimal("size");
        BigDecimal trigger = p.decimal("triggerPrice");
        return v2(() -> result(tpsl.place(new TpslOrders.Place(r.uid(), category, io.tas.common.Ascii.upper(p.get("symbol")), posSide, size,
                profit ? trigger : null, profit ? null : trigger, profit ? by : null, profit ? null : by, profit ? type : null,
                profit ? null : type, profit ? limit : null, profit ? null : limit, TradeRoutes.clientOid(p.get("clientOid"))))),
                ErrorCode.MIX_ORDER_NOT_EXIST);
    }

    /** fills: the account's fills of the product type, newest first, as the v3 fills row (30 days within 90); endId the cursor. */
    private FillsView fills(ApiRequest r) {
        Params p = r.params().require("productType");
        Category category = productType(p);
        String symbol = TradeRoutes.upper(p.get("symbol"));
        int limit = p.intInRange("limit", 100, 1, 100);
        var page = records.fills(r.uid(), new io.tas.spot.UnifiedRecords.FillQuery(category.wire(), p.id("orderId"), p.millis("startTime"),
                p.millis("endTime"), limit, p.id("idLessThan")));
        List<FillRow> rows = page.list().stream().filter(f -> symbol == null || f.symbol().equals(symbol)).map(f -> new FillRow(
                Long.toString(f.tradeId()), f.symbol(), Long.toString(f.orderId()), Json.plain(f.priceAvg()), Json.plain(f.size()),
                List.of(new FeeLine("no", f.feeCoin(), "0", Json.plain(f.totalFee()))), f.side(), Json.plain(f.amount()),
                Json.plain(f.execPnl()), "API", "", "", f.tradeScope(), Long.toString(f.cTime()))).toList();
        return new FillsView(rows, page.list().isEmpty() ? "" : Long.toString(page.list().getLast().tradeId()));
    }

    /** detail: one order, an object; an unknown one (or another category's) is 40109. */
    private MixOrderView detail(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category category = productType(p);
        Long orderId = p.id("orderId");
        String clientOid = p.get("clientOid");
        if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
        TradeOrder o = v2(() -> trading.order(new TradingService.Lookup(r.uid(), orderId, clientOid)), ErrorCode.MIX_ORDER_NOT_FOUND);
        if (o.category() != category || !o.symbol().equals(io.tas.common.Ascii.upper(p.get("symbol")))) {
            throw new ApiException(ErrorCode.MIX_ORDER_NOT_FOUND);
        }
        return MixOrderView.of(o, true);
    }

    /** orders-pending and orders-history: newest first, limit 1 to 100 (default 100), idLessThan the cursor. */
    private MixOrderView.Page list(ApiRequest r, boolean working) {
        Params p = r.params().require("productType");
        Category category = productType(p);
        int limit = p.intInRange("limit", 100, 1, 100);
        String symbol = TradeRoutes.upper(p.get("symbol"));
        Long cursor = p.id("idLessThan");
        Long orderId = p.id("orderId");
        List<TradeOrder> page;
        if (working) {
            page = trading.unfilled(r.uid(), category, symbol, cursor, limit);
        } else {
            var window = TimeWindow.HISTORY_ORDERS.resolve(p.millis("startTime"), p.millis("endTime"), r.now());
            if (window.isEmpty()) return MixOrderView.page(List.of(), limit);
            page = trading.history(r.uid(), category, symbol, cursor, limit, window.from(), window.to());
        }
        return MixOrderView.page(page.stream().filter(o -> orderId == null || o.orderId() == orderId).toList(), limit);
    }

    // --- parameters and codes

    /** productType: USDT-FUTURES, USDC-FUTURES or COIN-FUTURES, in any case. */
    private static Category productType(Params p) {
        String v = p.get("productType");
        if (v == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "productType");
        Category c = TradeRoutes.category(v);
        if (!c.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, "productType");
        return c;
    }

    /** Runs an engine call, answering its unified-family codes in the classic futures family's; notFound for a missing order. */
    private static <T> T v2(Supplier<T> call, ErrorCode notFound) {
        try {
            return call.get();
        } catch (ApiException e) {
            throw switch (e.error()) {
                case INSUFFICIENT_BALANCE, INSUFFICIENT_MARGIN -> new ApiException(ErrorCode.MIX_INSUFFICIENT_BALANCE);
                case ORDER_NOT_EXIST -> new ApiException(notFound);
                case DUPLICATE_CLIENT_OID -> new ApiException(ErrorCode.MIX_DUPLICATE_CLIENT_OID);
                case NO_POSITION_TO_CLOSE, TPSL_NO_POSITION -> new ApiException(ErrorCode.MIX_NO_POSITION_TO_CLOSE);
                case TRADING_PAIR_NOT_EXIST -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "symbol"); // as the v2 market rows (D182)
                default -> e;
            };
        }
    }
}
