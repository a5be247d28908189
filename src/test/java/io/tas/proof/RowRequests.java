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
    /** now: the service clock; orderRef: the clientOid of this account's Reality order (placed, then cancelled). */
    record Ctx(long now, String orderRef) {}

    record Request(String method, String target, String body) {
        Request withQuery(String name, String value) {
            if (method.equals("GET")) return new Request(method, target + (target.contains("?") ? "&" : "?") + name + "=" + value, body);
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
        // A limit buy far under any AAPLX price the tests quote: it stays working until the cancel row cancels it.
        post(Endpoint.PLACE_REALITY_ORDER, c -> "{\"symbol\":\"AAPLXUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"2\",\"price\":\"1\",\"clientOid\":\"" + c.orderRef() + "\"}");
        post(Endpoint.CANCEL_REALITY_ORDER, c -> "{\"symbol\":\"AAPLXUSDT\",\"clientOid\":\"" + c.orderRef() + "\"}");
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
    }

    static Request of(Endpoint e, Ctx ctx) {
        Function<Ctx, Request> f = REQUESTS.get(e);
        if (f == null) throw new AssertionError("RowRequests has no request for catalog row " + e + ": add a minimal well-formed one");
        return f.apply(ctx);
    }

    /**
     * The code an allowed caller gets from the row on a prepared account when the row runs in ordered() order: success,
     * but for switch-status, which answers 40017 while no switch was requested (D54; the switch runs last).
     */
    static String allowedCode(Endpoint e) { return e == Endpoint.SWITCH_STATUS ? "40017" : "00000"; }

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
