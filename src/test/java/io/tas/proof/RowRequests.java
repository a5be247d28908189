package io.tas.proof;

import io.tas.http.Endpoint;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A minimal well-formed request per catalog row, for an account MatrixAccounts prepares (funded, delta-neutral on,
 * on the Reality allow-list, one isolated BTCUSDT position, some DOGE): what an allowed caller sends and gets an
 * answer from the row itself, not from a guard. A row missing here fails every matrix until it is added.
 */
final class RowRequests {
    /** now: the service clock; orderRef: the clientOid root of this account's orders (a Reality one: orderRef + "r"). */
    record Ctx(long now, String orderRef) {}

    record Request(String method, String target, String body) {
        Request withQuery(String name, String value) {
            if (method.equals("GET")) return new Request(method, target + (target.contains("?") ? "&" : "?") + name + "=" + value, body);
            if (body.startsWith("[")) { // a batch row: the parameter goes into its first line
                String rest = body.substring(2);
                return new Request(method, target, "[{\"" + name + "\":\"" + value + "\"" + (rest.startsWith("}") ? "" : ",") + rest);
            }
            String inner = body.substring(1, body.length() - 1);
            return new Request(method, target, "{" + inner + (inner.isEmpty() ? "" : ",") + "\"" + name + "\":\"" + value + "\"}");
        }

        Reply send(ApiClient c) { return method.equals("GET") ? c.get(target) : c.post(target, body); }
    }

    private static final long DAY = 86_400_000L;
    private static final Map<Endpoint, Function<Ctx, Request>> REQUESTS = new EnumMap<>(Endpoint.class);

    private static void get(Endpoint e, String query) { REQUESTS.put(e, c -> new Request("GET", e.path() + query, "")); }

    private static void get(Endpoint e, Function<Ctx, String> query) { REQUESTS.put(e, c -> new Request("GET", e.path() + query.apply(c), "")); }

    private static void post(Endpoint e, String body) { REQUESTS.put(e, c -> new Request("POST", e.path(), body)); }

    private static void post(Endpoint e, Function<Ctx, String> body) { REQUESTS.put(e, c -> new Request("POST", e.path(), body.apply(c))); }

    static {
        get(Endpoint.ACCOUNT_INFO, "");
        get(Endpoint.ACCOUNT_SETTINGS, "");
        get(Endpoint.PRE_SET_LEVERAGE, "?category=USDT-FUTURES&symbol=ETHUSDT&marginMode=crossed&leverage=5");
        // ETHUSDT: the open BTCUSDT position is isolated, and a crossed set-leverage there would change its margin mode.
        post(Endpoint.SET_LEVERAGE, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"ETHUSDT\",\"leverage\":\"5\"}");
        post(Endpoint.SET_HOLD_MODE, "{\"holdMode\":\"one_way_mode\"}");
        post(Endpoint.SWITCH_DEDUCT, "{\"deduct\":\"on\"}");
        get(Endpoint.DEDUCT_INFO, "");
        post(Endpoint.ACCOUNT_SWITCH, "{}");
        get(Endpoint.SWITCH_STATUS, "");
        post(Endpoint.SET_MARGIN, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\",\"operation\":\"add\",\"amount\":\"1\"}");
        get(Endpoint.DELTA_INFO, "");
        post(Endpoint.ADJUST_ACCOUNT_MODE, "{\"mode\":\"advanced\",\"deltaSwitch\":\"yes\"}"); // keeps delta-info open
        get(Endpoint.MAX_WITHDRAWAL, "?coin=USDT");
        get(Endpoint.SMALL_ASSETS, "");
        post(Endpoint.SMALL_ASSETS_TRADE, "{\"fromCoinList\":[\"DOGE\"]}");
        get(Endpoint.SMALL_ASSETS_HISTORY, "");
        get(Endpoint.LOAN_DATA, "");
        get(Endpoint.SUB_LIST, "");
        get(Endpoint.PROFIT_SUMMARY, "");
        get(Endpoint.HISTORY_POSITION_V3, "?category=USDT-FUTURES");
        get(Endpoint.SINGLE_POSITION, "?productType=USDT-FUTURES&symbol=BTCUSDT&marginCoin=USDT");
        get(Endpoint.ALL_POSITION, "?productType=USDT-FUTURES");
        get(Endpoint.HISTORY_POSITION_V2, "");
        get(Endpoint.SPOT_FILLS, "");
        get(Endpoint.WITHDRAWAL_RECORDS, c -> "?startTime=" + (c.now() - DAY) + "&endTime=" + c.now());
        get(Endpoint.HISTORY_STRATEGY_ORDERS, "?category=SPOT");
        get(Endpoint.UNFILLED_STRATEGY_ORDERS, "?category=SPOT");
        // A limit buy far under any AAPLX price the tests quote: it stays working until the cancel row cancels it. Its
        // clientOid is its own: Reality orders are engine orders, one clientOid per order of an account (D223).
        post(Endpoint.PLACE_REALITY_ORDER, c -> "{\"symbol\":\"AAPLXUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"2\",\"price\":\"1\",\"clientOid\":\"" + c.orderRef() + "r\"}");
        post(Endpoint.CANCEL_REALITY_ORDER, c -> "{\"symbol\":\"AAPLXUSDT\",\"clientOid\":\"" + c.orderRef() + "r\"}");
        get(Endpoint.TICKERS, "?category=SPOT");
        get(Endpoint.PUBLIC_TIME, "");
        get(Endpoint.SPOT_SYMBOLS, "");
        get(Endpoint.SPOT_COINS, "");
        get(Endpoint.MIX_CONTRACTS, "?productType=USDT-FUTURES");
        get(Endpoint.INSTRUMENTS, "?category=SPOT");
        get(Endpoint.MARGIN_CURRENCIES, "");
        get(Endpoint.UTA_ASSETS, "");
        get(Endpoint.UTA_CURRENT_POSITION, "?category=USDT-FUTURES");
        get(Endpoint.UTA_FILLS, "?category=SPOT");
        get(Endpoint.UTA_WITHDRAWAL_RECORDS, c -> "?startTime=" + (c.now() - DAY) + "&endTime=" + c.now());
        get(Endpoint.UTA_DEPOSIT_RECORDS, c -> "?startTime=" + (c.now() - DAY) + "&endTime=" + c.now());
        // Issue 25, in catalog order: a spot buy far under the price rests (a repeat replays it); the batch rests one on
        // BTCUSDT (cancelled with the symbol) and one on ETHUSDT (the one modify-order moves); TP/SL on the BTCUSDT long.
        post(Endpoint.PLACE_ORDER, c -> "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\","
                + "\"price\":\"1000\",\"clientOid\":\"" + c.orderRef() + "\"}");
        post(Endpoint.PLACE_BATCH, c -> "[{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\","
                + "\"price\":\"1000\"},{\"category\":\"SPOT\",\"symbol\":\"ETHUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\","
                + "\"price\":\"1000\",\"clientOid\":\"" + c.orderRef() + "e\"}]");
        post(Endpoint.CANCEL_ORDER, c -> "{\"symbol\":\"BTCUSDT\",\"clientOid\":\"" + c.orderRef() + "\"}");
        post(Endpoint.CANCEL_BATCH, "[{\"orderId\":\"1\",\"symbol\":\"BTCUSDT\",\"category\":\"SPOT\"}]");
        post(Endpoint.CANCEL_SYMBOL_ORDER, "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\"}");
        post(Endpoint.MODIFY_ORDER, c -> "{\"clientOid\":\"" + c.orderRef() + "e\",\"price\":\"1000.5\"}");
        post(Endpoint.CLOSE_POSITIONS, "{\"category\":\"USDT-FUTURES\",\"symbol\":\"ETHUSDT\"}"); // none open: 25227
        get(Endpoint.ORDER_INFO, "?orderId=1"); // no account has it: 25204, answered by the row for every key
        get(Endpoint.UNFILLED_ORDERS, "?category=SPOT");
        get(Endpoint.HISTORY_ORDERS, "?category=SPOT");
        post(Endpoint.PLACE_STRATEGY_ORDER, c -> "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\","
                + "\"takeProfit\":\"10000000\",\"clientOid\":\"" + c.orderRef() + "t\"}");
        post(Endpoint.CANCEL_STRATEGY_ORDER, c -> "{\"clientOid\":\"" + c.orderRef() + "t\"}");
        // Issue 26, classic spot (a classic account holds 1000 USDT of spot): a buy far under the price rests and is
        // cancelled; the batch rests one on ETHUSDT that cancel-replace moves; reads of an unknown order answer [].
        post(Endpoint.SPOT_PLACE_ORDER, c -> "{\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"force\":\"gtc\","
                + "\"price\":\"1000\",\"size\":\"0.001\",\"clientOid\":\"" + c.orderRef() + "s\"}");
        post(Endpoint.SPOT_BATCH_ORDERS, c -> "{\"symbol\":\"ETHUSDT\",\"orderList\":[{\"side\":\"buy\",\"orderType\":\"limit\","
                + "\"force\":\"gtc\",\"price\":\"1000\",\"size\":\"0.001\",\"clientOid\":\"" + c.orderRef() + "b\"}]}");
        post(Endpoint.SPOT_CANCEL_ORDER, c -> "{\"symbol\":\"BTCUSDT\",\"clientOid\":\"" + c.orderRef() + "s\"}");
        post(Endpoint.SPOT_BATCH_CANCEL_ORDER, "{\"symbol\":\"BTCUSDT\",\"orderList\":[{\"orderId\":\"1\"}]}");
        post(Endpoint.SPOT_CANCEL_SYMBOL_ORDER, "{\"symbol\":\"BTCUSDT\"}");
        post(Endpoint.SPOT_CANCEL_REPLACE_ORDER, c -> "{\"symbol\":\"ETHUSDT\",\"clientOid\":\"" + c.orderRef() + "b\",\"price\":\"1000.5\","
                + "\"size\":\"0.001\",\"newClientOid\":\"" + c.orderRef() + "r\"}");
        get(Endpoint.SPOT_ORDER_INFO, "?orderId=1");
        get(Endpoint.SPOT_UNFILLED_ORDERS, "?symbol=BTCUSDT");
        get(Endpoint.SPOT_HISTORY_ORDERS, "?symbol=BTCUSDT");
        get(Endpoint.SPOT_ASSETS, "");
        // Classic futures (1000 USDT of margin): a buy far under the price rests and is cancelled; detail of an unknown
        // order is 40109 for every key (reads run before writes in the relation matrix); the set rows keep what is set.
        post(Endpoint.MIX_PLACE_ORDER, c -> "{\"symbol\":\"BTCUSDT\",\"productType\":\"USDT-FUTURES\",\"marginMode\":\"crossed\","
                + "\"marginCoin\":\"USDT\",\"size\":\"0.001\",\"price\":\"1000\",\"side\":\"buy\",\"orderType\":\"limit\","
                + "\"force\":\"gtc\",\"clientOid\":\"" + c.orderRef() + "f\"}");
        post(Endpoint.MIX_CANCEL_ORDER, c -> "{\"symbol\":\"BTCUSDT\",\"productType\":\"USDT-FUTURES\",\"clientOid\":\"" + c.orderRef() + "f\"}");
        post(Endpoint.MIX_BATCH_CANCEL_ORDERS, "{\"symbol\":\"BTCUSDT\",\"productType\":\"USDT-FUTURES\",\"orderIdList\":[{\"orderId\":\"1\"}]}");
        post(Endpoint.MIX_BATCH_PLACE_ORDER, c -> "{\"symbol\":\"ETHUSDT\",\"productType\":\"USDT-FUTURES\",\"marginCoin\":\"USDT\","
                + "\"marginMode\":\"crossed\",\"orderList\":[{\"size\":\"0.01\",\"price\":\"1000\",\"side\":\"buy\",\"orderType\":\"limit\","
                + "\"force\":\"gtc\",\"clientOid\":\"" + c.orderRef() + "g\"}]}");
        post(Endpoint.MIX_MODIFY_ORDER, c -> "{\"symbol\":\"ETHUSDT\",\"productType\":\"USDT-FUTURES\",\"clientOid\":\"" + c.orderRef() + "g\","
                + "\"newPrice\":\"1000.5\",\"newSize\":\"0.01\"}");
        post(Endpoint.MIX_CANCEL_ALL_ORDERS, "{\"productType\":\"USDT-FUTURES\",\"marginCoin\":\"USDT\"}");
        post(Endpoint.MIX_CLOSE_POSITIONS, "{\"productType\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\"}"); // none open: 22002
        post(Endpoint.MIX_PLACE_TPSL_ORDER, "{\"symbol\":\"BTCUSDT\",\"productType\":\"USDT-FUTURES\",\"marginCoin\":\"USDT\","
                + "\"planType\":\"pos_profit\",\"triggerPrice\":\"10000000\",\"holdSide\":\"long\"}"); // no position: 22002
        get(Endpoint.MIX_FILLS, "?productType=USDT-FUTURES");
        get(Endpoint.MIX_ORDER_DETAIL, "?symbol=BTCUSDT&productType=USDT-FUTURES&orderId=1");
        get(Endpoint.MIX_ORDERS_PENDING, "?productType=USDT-FUTURES");
        get(Endpoint.MIX_ORDERS_HISTORY, "?productType=USDT-FUTURES");
        post(Endpoint.MIX_SET_LEVERAGE, "{\"symbol\":\"BTCUSDT\",\"productType\":\"USDT-FUTURES\",\"marginCoin\":\"USDT\",\"leverage\":\"10\"}");
        post(Endpoint.MIX_SET_MARGIN_MODE, "{\"symbol\":\"ETHUSDT\",\"productType\":\"USDT-FUTURES\",\"marginCoin\":\"USDT\",\"marginMode\":\"crossed\"}");
        post(Endpoint.MIX_SET_POSITION_MODE, "{\"productType\":\"USDT-FUTURES\",\"posMode\":\"one_way_mode\"}");
        get(Endpoint.MIX_ACCOUNTS, "?productType=USDT-FUTURES");
        get(Endpoint.MIX_ACCOUNT, "?symbol=BTCUSDT&productType=USDT-FUTURES&marginCoin=USDT");
        get(Endpoint.ORDERBOOK, "?category=SPOT&symbol=BTCUSDT");
        get(Endpoint.CANDLES, "?category=SPOT&symbol=BTCUSDT&interval=1m");
        get(Endpoint.HISTORY_CANDLES, "?category=SPOT&symbol=BTCUSDT&interval=1m");
        get(Endpoint.RECENT_FILLS, "?category=SPOT&symbol=BTCUSDT");
        get(Endpoint.CURRENT_FUND_RATE, "?symbol=BTCUSDT");
        // Issue 26: the v2 public market data, as ccxt's classic branch asks for it.
        get(Endpoint.V2_SPOT_TICKERS, "?symbol=BTCUSDT");
        get(Endpoint.V2_SPOT_ORDERBOOK, "?symbol=BTCUSDT&limit=5");
        get(Endpoint.V2_SPOT_CANDLES, "?symbol=BTCUSDT&granularity=1min&limit=1000");
        get(Endpoint.V2_SPOT_HISTORY_CANDLES, c -> "?symbol=BTCUSDT&granularity=1min&endTime=" + c.now() + "&limit=200");
        get(Endpoint.V2_SPOT_FILLS, "?symbol=BTCUSDT");
        get(Endpoint.V2_SPOT_FILLS_HISTORY, "?symbol=BTCUSDT");
        get(Endpoint.V2_MIX_TICKER, "?productType=USDT-FUTURES&symbol=BTCUSDT");
        get(Endpoint.V2_MIX_TICKERS, "?productType=USDT-FUTURES");
        get(Endpoint.V2_MIX_MERGE_DEPTH, "?productType=USDT-FUTURES&symbol=BTCUSDT");
        get(Endpoint.V2_MIX_CANDLES, "?productType=USDT-FUTURES&symbol=BTCUSDT&granularity=1m");
        get(Endpoint.V2_MIX_HISTORY_CANDLES, "?productType=USDT-FUTURES&symbol=BTCUSDT&granularity=1m");
        get(Endpoint.V2_MIX_FILLS_HISTORY, "?productType=USDT-FUTURES&symbol=BTCUSDT");
        get(Endpoint.V2_MIX_CURRENT_FUND_RATE, "?productType=USDT-FUTURES&symbol=BTCUSDT");
    }

    static Request of(Endpoint e, Ctx ctx) {
        Function<Ctx, Request> f = REQUESTS.get(e);
        if (f == null) throw new AssertionError("RowRequests has no request for catalog row " + e + ": add a minimal well-formed one");
        return f.apply(ctx);
    }

    /**
     * The code an allowed caller gets from the row on a prepared account when the row runs in ordered() order: success,
     * but for switch-status, which answers 40017 while no switch was requested (D54; the switch runs last), and
     * close-positions, which finds nothing to close on ETHUSDT (25227: closing the BTCUSDT position would let the switch
     * at the end succeed, and the TP/SL rows need it).
     */
    static String allowedCode(Endpoint e) {
        if (e == Endpoint.SWITCH_STATUS) return "40017";
        if (e == Endpoint.ORDER_INFO) return "25204"; // a read-only key places no order to read back: an unknown orderId
        if (e == Endpoint.MIX_ORDER_DETAIL) return "40109"; // the same, on the classic futures row
        if (e == Endpoint.MIX_CLOSE_POSITIONS || e == Endpoint.MIX_PLACE_TPSL_ORDER) return "22002"; // a classic matrix account holds no position
        return e == Endpoint.CLOSE_POSITIONS ? "25227" : "00000"; // close-positions: the account has no ETHUSDT position
    }

    /**
     * Every catalog row, the account switch last: it puts the account in "switching" (the open position makes the
     * switch fail a minute later, so the account stays unified), and nothing else should run on a switching account.
     */
    static List<Endpoint> ordered() {
        List<Endpoint> rows = new ArrayList<>(List.of(Endpoint.values()));
        rows.remove(Endpoint.ACCOUNT_SWITCH);
        rows.add(Endpoint.ACCOUNT_SWITCH);
        return rows;
    }

    private RowRequests() {}
}
