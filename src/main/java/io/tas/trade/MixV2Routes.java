package io.tas.trade;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.account.AccountService;
import io.tas.account.AccountSettings;
import io.tas.account.SettingsChange;
import io.tas.common.TimeWindow;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.position.LeverageService;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The classic (v2) futures order rows and the settings they trade under (issue 26; order-entry-wire.md, "USDT
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
    private final LeverageService leverage;

    public MixV2Routes(TradingService trading, AccountService accounts, LeverageService leverage) {
        this.trading = trading;
        this.accounts = accounts;
        this.leverage = leverage;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.MIX_PLACE_ORDER, r -> v2(() -> result(trading.place(place(r.uid(), r.params()))), ErrorCode.MIX_ORDER_NOT_EXIST));
        routes.bind(Endpoint.MIX_CANCEL_ORDER, this::cancel);
        routes.bind(Endpoint.MIX_BATCH_CANCEL_ORDERS, this::cancelBatch);
        routes.bind(Endpoint.MIX_ORDER_DETAIL, this::detail);
        routes.bind(Endpoint.MIX_ORDERS_PENDING, r -> list(r, true));
        routes.bind(Endpoint.MIX_ORDERS_HISTORY, r -> list(r, false));
        routes.bind(Endpoint.MIX_SET_LEVERAGE, this::setLeverage);
        routes.bind(Endpoint.MIX_SET_MARGIN_MODE, this::setMarginMode);
        routes.bind(Endpoint.MIX_SET_POSITION_MODE, this::setPositionMode);
    }

    public record ResultView(String orderId, String clientOid) {}

    public record FailureLine(String orderId, String clientOid, String errorMsg, String errorCode) {}

    public record BatchView(List<ResultView> successList, List<FailureLine> failureList) {}

    public record LeverageView(String symbol, String marginCoin, String longLeverage, String shortLeverage, String crossMarginLeverage,
                               String marginMode) {}

    public record PosModeView(String posMode) {}

    private static ResultView result(TradingService.Result r) { return new ResultView(Long.toString(r.orderId()), r.clientOid()); }

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
        return new TradingService.Place(uid, category, p.get("symbol").toUpperCase(Locale.ROOT), engineSide, orderType,
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
        return trading.cancel(l, symbol.toUpperCase(Locale.ROOT));
    }

    /**
     * batch-cancel-orders: the orders of orderIdList, each answered in its list; without orderIdList every working order
     * of the symbol (ccxt's cancelAllOrders).
     */
    private BatchView cancelBatch(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category category = productType(p);
        String symbol = p.get("symbol").toUpperCase(Locale.ROOT);
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

    /** detail: one order, an object; an unknown one (or another category's) is 40109. */
    private MixOrderView detail(ApiRequest r) {
        Params p = r.params().require("symbol", "productType");
        Category category = productType(p);
        Long orderId = p.id("orderId");
        String clientOid = p.get("clientOid");
        if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
        TradeOrder o = v2(() -> trading.order(new TradingService.Lookup(r.uid(), orderId, clientOid)), ErrorCode.MIX_ORDER_NOT_FOUND);
        if (o.category() != category || !o.symbol().equals(p.get("symbol").toUpperCase(Locale.ROOT))) {
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

    /**
     * set-leverage: the contract's leverage under its current margin mode; crossed sets both sides, isolated the side
     * holdSide names, or both without it (D173).
     */
    private LeverageView setLeverage(ApiRequest r) {
        Params p = r.params().require("symbol", "productType", "marginCoin", "leverage");
        Category category = productType(p);
        String symbol = p.get("symbol").toUpperCase(Locale.ROOT);
        MarginMode mode = config(r.uid(), category, symbol).map(AccountSettings.SymbolConfig::marginMode).orElse(MarginMode.crossed);
        BigDecimal lev = p.decimal("leverage");
        String holdSide = p.get("holdSide");
        boolean both = mode == MarginMode.crossed || holdSide == null;
        if (holdSide != null && !holdSide.equals("long") && !holdSide.equals("short")) throw new ApiException(ErrorCode.PARAM_ERROR, "holdSide");
        var req = new LeverageService.LeverageRequest(r.uid(), category, symbol, null, mode, null,
                both ? lev : null, both || holdSide.equals("long") ? lev : null, both || holdSide.equals("short") ? lev : null);
        leverage.checkBounds(req);
        leverage.set(req);
        return leverageView(r.uid(), category, symbol, p.get("marginCoin").toUpperCase(Locale.ROOT));
    }

    /** set-margin-mode: crossed or isolated, each side keeping its leverage (crossed takes the long side's). */
    private LeverageView setMarginMode(ApiRequest r) {
        Params p = r.params().require("symbol", "productType", "marginCoin", "marginMode");
        Category category = productType(p);
        String symbol = p.get("symbol").toUpperCase(Locale.ROOT);
        String m = p.get("marginMode").toLowerCase(Locale.ROOT);
        MarginMode mode = switch (m) {
            case "crossed", "cross" -> MarginMode.crossed;
            case "isolated", "fixed" -> MarginMode.isolated;
            default -> throw new ApiException(ErrorCode.PARAM_ERROR, "marginMode");
        };
        var current = config(r.uid(), category, symbol);
        BigDecimal fallback = AccountSettings.DEFAULT_LEVERAGE;
        BigDecimal longLev = current.map(AccountSettings.SymbolConfig::longLeverage).orElse(fallback);
        BigDecimal shortLev = current.map(AccountSettings.SymbolConfig::shortLeverage).orElse(fallback);
        var req = mode == MarginMode.crossed
                ? new LeverageService.LeverageRequest(r.uid(), category, symbol, null, mode, null, longLev, null, null)
                : new LeverageService.LeverageRequest(r.uid(), category, symbol, null, mode, null, null, longLev, shortLev);
        leverage.checkBounds(req);
        leverage.set(req);
        return leverageView(r.uid(), category, symbol, p.get("marginCoin").toUpperCase(Locale.ROOT));
    }

    /** set-position-mode: one_way_mode or hedge_mode for the account (refused with open positions or orders, D44). */
    private PosModeView setPositionMode(ApiRequest r) {
        Params p = r.params().require("productType", "posMode");
        productType(p);
        HoldMode mode = p.enumValue("posMode", HoldMode.class);
        accounts.change(new SettingsChange.SetHoldMode(r.uid(), mode));
        return new PosModeView(mode.name());
    }

    private java.util.Optional<AccountSettings.SymbolConfig> config(long uid, Category category, String symbol) {
        return accounts.settings(uid).symbolConfig(category, symbol);
    }

    private LeverageView leverageView(long uid, Category category, String symbol, String marginCoin) {
        var c = config(uid, category, symbol).orElseThrow();
        return new LeverageView(symbol, marginCoin, Json.plain(c.longLeverage()), Json.plain(c.shortLeverage()),
                Json.plain(c.longLeverage()), c.marginMode().name());
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
                case NO_POSITION_TO_CLOSE -> new ApiException(ErrorCode.MIX_NO_POSITION_TO_CLOSE);
                case TRADING_PAIR_NOT_EXIST -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "symbol"); // as the v2 market rows (D182)
                default -> e;
            };
        }
    }
}
