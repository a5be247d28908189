package io.tas.trade;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.account.AccountEnums.Category;
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
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import static io.tas.trade.TradeRoutes.result;

/**
 * The classic (v2) spot order rows and spot balances (issue 26; order-entry-wire.md, "Classic account (v2)"), on the
 * engine of the v3 rows: a classic account's spot orders settle on its spot balances (D171). The engine's unified
 * codes are answered in the classic family's (D172).
 */
public final class SpotV2Routes implements Routes.Feature {
    private static final Set<String> SIDES = Set.of("buy", "sell");
    private static final Set<String> TYPES = Set.of("limit", "market");
    private static final Set<String> FORCES = Set.of("gtc", "post_only", "fok", "ioc");
    /** spot/trade/Batch-Place-Orders and Batch-Cancel-Orders: at most 50 orders. */
    static final int MAX_BATCH = 50;

    private final TradingService trading;
    private final Ledger ledger;

    public SpotV2Routes(TradingService trading, Ledger ledger) {
        this.trading = trading;
        this.ledger = ledger;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.SPOT_PLACE_ORDER, r -> v2(() -> result(trading.place(place(r.uid(), r.params(), null)))));
        routes.bind(Endpoint.SPOT_BATCH_ORDERS, this::placeBatch);
        routes.bind(Endpoint.SPOT_CANCEL_ORDER, r -> v2(() -> result(cancel(r.uid(), r.params(), r.params().require("symbol").get("symbol")))));
        routes.bind(Endpoint.SPOT_BATCH_CANCEL_ORDER, this::cancelBatch);
        routes.bind(Endpoint.SPOT_CANCEL_SYMBOL_ORDER, this::cancelSymbol);
        routes.bind(Endpoint.SPOT_CANCEL_REPLACE_ORDER, this::cancelReplace);
        routes.bind(Endpoint.SPOT_ORDER_INFO, this::orderInfo);
        routes.bind(Endpoint.SPOT_UNFILLED_ORDERS, r -> list(r, true));
        routes.bind(Endpoint.SPOT_HISTORY_ORDERS, r -> list(r, false));
        routes.bind(Endpoint.SPOT_ASSETS, this::assets);
    }

    public record SymbolView(String symbol) {}

    /** cancel-replace-order: the new order, and whether the replacement happened (spot/trade/Cancel-Replace-Order). */
    public record ReplaceView(String orderId, String clientOid, String success, String msg) {}

    public record AssetView(String coin, String available, String frozen, String locked, String limitAvailable, String uTime) {}

    /**
     * place-order: {symbol, side, orderType, force, price, size, clientOid}; force gtc, post_only, fok or ioc in any case
     * (ccxt sends "GTC", also on market orders, where it is ignored); a market buy's size is its quote budget.
     */
    private TradingService.Place place(long uid, Params p, String batchSymbol) {
        if (batchSymbol == null) p.require("symbol");
        p.require("side", "orderType", "size");
        String orderType = TradeRoutes.oneOf(p, "orderType", TYPES);
        if (orderType.equals("limit")) p.require("price");
        String force = p.get("force") == null ? "gtc" : TradeRoutes.oneOf(p, "force", FORCES);
        String symbol = p.get("symbol") != null ? p.get("symbol") : batchSymbol;
        return new TradingService.Place(uid, Category.SPOT, io.tas.common.Ascii.upper(symbol), TradeRoutes.oneOf(p, "side", SIDES),
                orderType, orderType.equals("market") ? "gtc" : force, p.decimal("size"),
                orderType.equals("limit") ? p.decimal("price") : null, TradeRoutes.clientOid(p.get("clientOid")), null, false, true);
    }

    /** As the v3 batch (D158): a line that is not an order refuses the whole batch; a refused order is its line's. */
    private BatchView placeBatch(ApiRequest r) {
        Params body = r.params();
        List<JsonNode> lines = lines(r.body());
        List<TradingService.Place> orders = new ArrayList<>();
        for (JsonNode line : lines) orders.add(place(r.uid(), Params.of(line), body.get("symbol")));
        List<ResultView> ok = new ArrayList<>();
        List<FailureLine> failed = new ArrayList<>();
        for (int i = 0; i < orders.size(); i++) {
            TradingService.Place order = orders.get(i);
            try {
                ok.add(v2(() -> result(trading.place(order))));
            } catch (ApiException e) {
                failed.add(new FailureLine("", order.clientOid() == null ? "" : order.clientOid(), e.getMessage(), e.error().code()));
            }
        }
        return new BatchView(ok, failed);
    }

    /** A spot order of the account by orderId (wins) or clientOid, on the given symbol (a futures order is not found). */
    private TradingService.Result cancel(long uid, Params p, String symbol) {
        TradingService.Lookup l = lookup(uid, p);
        if (trading.order(l).category() != Category.SPOT) throw new ApiException(ErrorCode.ORDER_NOT_EXIST);
        return trading.cancel(l, io.tas.common.Ascii.upper(symbol));
    }

    private BatchView cancelBatch(ApiRequest r) {
        Params body = r.params();
        List<JsonNode> lines = lines(r.body());
        for (JsonNode line : lines) lookup(r.uid(), Params.of(line)); // a line naming no order refuses the batch
        List<ResultView> ok = new ArrayList<>();
        List<FailureLine> failed = new ArrayList<>();
        for (JsonNode line : lines) {
            Params p = Params.of(line);
            String symbol = p.get("symbol") != null ? p.get("symbol") : body.get("symbol");
            try {
                if (symbol == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "symbol");
                ok.add(v2(() -> result(cancel(r.uid(), p, symbol))));
            } catch (ApiException e) {
                failed.add(new FailureLine(p.get("orderId") == null ? "" : p.get("orderId"), p.get("clientOid") == null ? "" : p.get("clientOid"),
                        e.getMessage(), e.error().code()));
            }
        }
        return new BatchView(ok, failed);
    }

    /** cancel-symbol-order: every working spot order of the account on the symbol; answers the symbol (D172). */
    private SymbolView cancelSymbol(ApiRequest r) {
        String symbol = io.tas.common.Ascii.upper(r.params().require("symbol").get("symbol"));
        v2(() -> trading.cancelSymbol(r.uid(), Category.SPOT, symbol));
        return new SymbolView(symbol);
    }

    /**
     * cancel-replace-order: the working limit order is cancelled and a new limit order of the same side and force placed
     * at the new price and size (D172). A cancel that fails changes nothing and is answered as the error; a new order
     * refused after the cancel answers success "failure" with its reason, the old order staying cancelled.
     */
    private ReplaceView cancelReplace(ApiRequest r) {
        Params p = r.params().require("symbol", "price", "size");
        String symbol = io.tas.common.Ascii.upper(p.get("symbol"));
        TradeOrder old = v2(() -> trading.order(lookup(r.uid(), p)));
        if (!old.symbol().equals(symbol) || old.isFutures()) throw new ApiException(ErrorCode.SPOT_ORDER_NOT_EXIST);
        if (old.isMarket()) throw new ApiException(ErrorCode.PARAM_ERROR, "orderType");
        TradingService.Place next = new TradingService.Place(r.uid(), Category.SPOT, symbol, old.side(), "limit", old.timeInForce(),
                p.decimal("size"), p.decimal("price"), TradeRoutes.clientOid(p.get("newClientOid")), null, false, true);
        v2(() -> trading.cancel(new TradingService.Lookup(r.uid(), old.orderId(), null), symbol));
        try {
            TradingService.Result placed = v2(() -> trading.place(next));
            return new ReplaceView(Long.toString(placed.orderId()), placed.clientOid(), "success", null);
        } catch (ApiException e) {
            return new ReplaceView("", next.clientOid() == null ? "" : next.clientOid(), "failure", e.getMessage());
        }
    }

    /** orderInfo: the order in a one-element list; an unknown order is the empty list, which ccxt reads as OrderNotFound. */
    private List<SpotOrderView> orderInfo(ApiRequest r) {
        TradingService.Lookup l = lookup(r.uid(), r.params());
        try {
            TradeOrder o = trading.order(l);
            return o.category() == Category.SPOT ? List.of(SpotOrderView.of(o, trading.platformToken())) : List.of();
        } catch (ApiException e) {
            if (e.error() == ErrorCode.ORDER_NOT_EXIST) return List.of();
            throw e;
        }
    }

    /**
     * unfilled-orders and history-orders: newest first, limit 1 to 100 (default 100), idLessThan the cursor; optional
     * symbol and orderId. history-orders takes the v3 row's window (90 days back at most); unfilled-orders lists every
     * working order and ignores times, as the v3 row (D172).
     */
    private List<SpotOrderView> list(ApiRequest r, boolean working) {
        Params p = r.params();
        int limit = p.intInRange("limit", 100, 1, 100);
        String symbol = TradeRoutes.upper(p.get("symbol"));
        Long cursor = p.id("idLessThan");
        Long orderId = p.id("orderId");
        List<TradeOrder> page;
        if (working) {
            page = trading.unfilled(r.uid(), Category.SPOT, symbol, cursor, limit);
        } else {
            var window = TimeWindow.HISTORY_ORDERS.resolve(p.millis("startTime"), p.millis("endTime"), r.now());
            if (window.isEmpty()) return List.of();
            page = trading.history(r.uid(), Category.SPOT, symbol, cursor, limit, window.from(), window.to());
        }
        return page.stream()
                .filter(o -> orderId == null || o.orderId() == orderId)
                .map(o -> working ? SpotOrderView.unfilled(o) : SpotOrderView.of(o, trading.platformToken()))
                .toList();
    }

    /**
     * spot/account/Get-Account-Assets: the spot balances of the account, by coin; coin narrows it to one. The ledger keeps
     * no empty rows, so assetType all answers as hold_only, the coins the account holds (D172). locked and
     * limitAvailable are always 0 here; uTime is the answer's time.
     */
    private List<AssetView> assets(ApiRequest r) {
        Params p = r.params();
        String coin = TradeRoutes.upper(p.get("coin"));
        String assetType = p.get("assetType");
        if (assetType != null && !assetType.equals("hold_only") && !assetType.equals("all")) throw new ApiException(ErrorCode.PARAM_ERROR, "assetType");
        return assets(ledger, r.uid(), coin, r.now());
    }

    /** The spot balances of an account (one coin, or all when coin is null), as the assets row and the v2 account channel show them. */
    public static List<AssetView> assets(io.tas.ledger.Ledger ledger, long uid, String coin, long now) {
        String ts = Long.toString(now);
        return ledger.balances(uid).stream()
                .filter(b -> b.key().account() == AccountType.spot && (coin == null || b.key().coin().equals(coin)))
                .sorted(java.util.Comparator.comparing((Balance b) -> b.key().coin()))
                .map(b -> new AssetView(b.key().coin(), Json.plain(b.available()), Json.plain(b.frozen()), "0", "0", ts))
                .toList();
    }

    // --- parameters and codes

    private static TradingService.Lookup lookup(long uid, Params p) {
        Long orderId = p.id("orderId");
        String clientOid = p.get("clientOid");
        if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
        return new TradingService.Lookup(uid, orderId, clientOid);
    }

    private static List<JsonNode> lines(JsonNode body) {
        JsonNode list = body != null && body.isObject() ? body.get("orderList") : null;
        if (list == null || !list.isArray() || list.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderList");
        if (list.size() > MAX_BATCH) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "at most " + MAX_BATCH + " orders");
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : list) {
            if (!n.isObject()) throw new ApiException(ErrorCode.PARAM_ERROR, "orderList");
            out.add(n);
        }
        return out;
    }

    /** Runs an engine call, answering its unified-family codes in the classic spot family's (D172). */
    private static <T> T v2(Supplier<T> call) {
        try {
            return call.get();
        } catch (ApiException e) {
            throw classic(e);
        }
    }

    static ApiException classic(ApiException e) {
        return switch (e.error()) {
            case INSUFFICIENT_BALANCE -> new ApiException(ErrorCode.SPOT_INSUFFICIENT_BALANCE);
            case ORDER_NOT_EXIST -> new ApiException(ErrorCode.SPOT_ORDER_NOT_EXIST);
            case DUPLICATE_CLIENT_OID -> new ApiException(ErrorCode.SPOT_DUPLICATE_CLIENT_OID);
            case BELOW_MIN_QTY -> new ApiException(ErrorCode.SPOT_BELOW_MIN_AMOUNT);
            case TRADING_PAIR_NOT_EXIST -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "symbol"); // as the v2 market rows (D182)
            default -> e;
        };
    }
}
