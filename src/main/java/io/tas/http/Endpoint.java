package io.tas.http;

import io.tas.auth.Permission;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The endpoint catalog (DESIGN: the single source of truth): spec §4 paths, §5 permissions, §8 limits.
 * Routing, guards, rate limits and the inventory (docs/endpoints.md) all derive from these rows.
 */
public enum Endpoint {
    // §4.1 account
    ACCOUNT_INFO("GET", "/api/v3/account/info", Permission.NONE, Access.READ, 5, Scope.UID, Family.ANY, "2.2"),
    ACCOUNT_SETTINGS("GET", "/api/v3/account/settings", Permission.UTA_MGT, Access.READ, 20, Scope.UID, Family.UNIFIED, "2.3"),
    PRE_SET_LEVERAGE("GET", "/api/v3/account/pre-set-leverage", Permission.UTA_MGT, Access.READ, 10, Scope.UID, Family.UNIFIED, "2.4, 4.1.1"),
    SET_LEVERAGE("POST", "/api/v3/account/set-leverage", Permission.UTA_MGT, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "4.1.2"),
    SET_HOLD_MODE("POST", "/api/v3/account/set-hold-mode", Permission.UTA_MGT, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "4.1"),
    SWITCH_DEDUCT("POST", "/api/v3/account/switch-deduct", Permission.UTA_MGT, Access.WRITE, 1, Scope.UID, Family.UNIFIED, "4.1"),
    DEDUCT_INFO("GET", "/api/v3/account/deduct-info", Permission.UTA_MGT, Access.READ, 1, Scope.UID, Family.UNIFIED, "2.5"),
    ACCOUNT_SWITCH("POST", "/api/v3/account/switch", Permission.UTA_MGT, Access.WRITE, 1, Scope.UID, Family.UNIFIED, "3.1", Guard.PARENT_ONLY),
    SWITCH_STATUS("GET", "/api/v3/account/switch-status", Permission.UTA_MGT, Access.READ, 5, Scope.UID, Family.ANY, "2.6", Guard.PARENT_ONLY),
    SET_MARGIN("POST", "/api/v3/account/set-margin", Permission.UTA_MGT, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "4.1.3"),
    DELTA_INFO("GET", "/api/v3/account/delta-info", Permission.UTA_MGT, Access.READ, 20, Scope.UID, Family.UNIFIED, "2.7", Guard.DELTA_ON),
    ADJUST_ACCOUNT_MODE("POST", "/api/v3/account/adjust-account-mode", Permission.UTA_MGT, Access.WRITE, 1, Scope.UID, Family.UNIFIED, "3.2, 4.1.4"),
    MAX_WITHDRAWAL("GET", "/api/v3/account/max-withdrawal", Permission.UTA_MGT, Access.READ, 10, Scope.UID, Family.UNIFIED, "2.8"),
    // §4.2 small-asset conversion
    SMALL_ASSETS("GET", "/api/v3/convert/small-assets", Permission.UTA_MGT, Access.READ, 10, Scope.UID, Family.UNIFIED, "2.9"),
    SMALL_ASSETS_TRADE("POST", "/api/v3/convert/small-assets-trade", Permission.UTA_TRADE, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "2.11"),
    SMALL_ASSETS_HISTORY("GET", "/api/v3/convert/small-assets-history", Permission.UTA_MGT, Access.READ, 10, Scope.UID, Family.UNIFIED, "2.10"),
    // §4.3 loans, sub-accounts, profit summary
    LOAN_DATA("GET", "/api/v3/trade/loan-data", Permission.UTA_TRADE, Access.READ, 10, Scope.UID, Family.UNIFIED, "2.12"),
    SUB_LIST("GET", "/api/v3/user/sub-list", Permission.UTA_MGT, Access.READ, 10, Scope.UID, Family.UNIFIED, "2.13", Guard.MAIN_ONLY),
    PROFIT_SUMMARY("GET", "/api/v3/copy/futures/profit-summary", Permission.COPY_FUTURES_ORDER, Access.READ, 1, Scope.UID, Family.ANY, "2.21"),
    // §4.4 positions; §5: v3 history-position needs "UTA trade read/write", so a read-only key is refused
    HISTORY_POSITION_V3("GET", "/api/v3/position/history-position", Permission.UTA_TRADE, Access.WRITE, 20, Scope.UID, Family.UNIFIED, "2.14, 4.4.1"),
    SINGLE_POSITION("GET", "/api/v2/mix/position/single-position", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "2.15"),
    ALL_POSITION("GET", "/api/v2/mix/position/all-position", Permission.NONE, Access.READ, 5, Scope.UID, Family.CLASSIC, "2.15"),
    HISTORY_POSITION_V2("GET", "/api/v2/mix/position/history-position", Permission.NONE, Access.READ, 20, Scope.UID, Family.CLASSIC, "2.16, 4.4.2"),
    // §4.5 spot fills and withdrawals
    SPOT_FILLS("GET", "/api/v2/spot/trade/fills", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "2.17, 4.5.1"),
    WITHDRAWAL_RECORDS("GET", "/api/v2/spot/wallet/withdrawal-records", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "2.18, 4.5.2"),
    // §4.6 strategy orders
    HISTORY_STRATEGY_ORDERS("GET", "/api/v3/trade/history-strategy-orders", Permission.UTA_TRADE, Access.READ, 20, Scope.UID, Family.UNIFIED, "2.19, 4.6"),
    UNFILLED_STRATEGY_ORDERS("GET", "/api/v3/trade/unfilled-strategy-orders", Permission.UTA_TRADE, Access.READ, 20, Scope.UID, Family.UNIFIED, "2.19, 4.6"),
    // §4.7 Reality orders; DESIGN: 30/s where the spec's two descriptions disagree
    PLACE_REALITY_ORDER("POST", "/api/v3/trade/place-reality-order", Permission.UTA_TRADE, Access.WRITE, 30, Scope.UID, Family.UNIFIED, "2.22, 4.7", Guard.REALITY_ALLOW_LIST),
    // D81: cancel is not behind the allow-list: an account taken off it can still release its working orders' freezes.
    CANCEL_REALITY_ORDER("POST", "/api/v3/trade/cancel-reality-order", Permission.UTA_TRADE, Access.WRITE, 30, Scope.UID, Family.UNIFIED, "2.22, 4.7"),
    // §4.8 public tickers
    TICKERS("GET", "/api/v3/market/tickers", null, Access.READ, 20, Scope.IP, Family.ANY, "2.20"),
    // Not in the spec's 30: clients read it to correct clock skew (wire facts §1.5).
    PUBLIC_TIME("GET", "/api/v2/public/time", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    // Not in the spec's 30: the public market metadata ccxt's loadMarkets reads (beyond-spec shapes §2-6), per IP like tickers.
    SPOT_SYMBOLS("GET", "/api/v2/spot/public/symbols", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    SPOT_COINS("GET", "/api/v2/spot/public/coins", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    MIX_CONTRACTS("GET", "/api/v2/mix/market/contracts", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    INSTRUMENTS("GET", "/api/v3/market/instruments", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    MARGIN_CURRENCIES("GET", "/api/v2/margin/currencies", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    // Not in the spec's 30: the unified-account reads ccxt uses with UTA (beyond-spec shapes §7-8); signed, per UID.
    // Permissions as the nearest spec rows: account reads need UTA management, position reads UTA trade (read is enough).
    UTA_ASSETS("GET", "/api/v3/account/assets", Permission.UTA_MGT, Access.READ, 20, Scope.UID, Family.UNIFIED, "-"),
    UTA_CURRENT_POSITION("GET", "/api/v3/position/current-position", Permission.UTA_TRADE, Access.READ, 20, Scope.UID, Family.UNIFIED, "-"),
    // The unified records ccxt reads (beyond-spec shapes §9-11), permission and limit as the platform's pages give them:
    // fills UTA trade (read) 20/s, deposit records UTA mgt (read) 10/s; withdrawal records as deposit records.
    UTA_FILLS("GET", "/api/v3/trade/fills", Permission.UTA_TRADE, Access.READ, 20, Scope.UID, Family.UNIFIED, "-"),
    UTA_WITHDRAWAL_RECORDS("GET", "/api/v3/account/withdrawal-records", Permission.UTA_MGT, Access.READ, 10, Scope.UID, Family.UNIFIED, "-"),
    UTA_DEPOSIT_RECORDS("GET", "/api/v3/account/deposit-records", Permission.UTA_MGT, Access.READ, 10, Scope.UID, Family.UNIFIED, "-"),
    // Issue 25: unified trading (order-entry-wire.md). Limits per UID per second as the platform's pages give them:
    // place/cancel/modify 10, batch and symbol-wide 5, order reads 20.
    PLACE_ORDER("POST", "/api/v3/trade/place-order", Permission.UTA_TRADE, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "-"),
    PLACE_BATCH("POST", "/api/v3/trade/place-batch", Permission.UTA_TRADE, Access.WRITE, 5, Scope.UID, Family.UNIFIED, "-"),
    CANCEL_ORDER("POST", "/api/v3/trade/cancel-order", Permission.UTA_TRADE, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "-"),
    CANCEL_BATCH("POST", "/api/v3/trade/cancel-batch", Permission.UTA_TRADE, Access.WRITE, 5, Scope.UID, Family.UNIFIED, "-"),
    CANCEL_SYMBOL_ORDER("POST", "/api/v3/trade/cancel-symbol-order", Permission.UTA_TRADE, Access.WRITE, 5, Scope.UID, Family.UNIFIED, "-"),
    MODIFY_ORDER("POST", "/api/v3/trade/modify-order", Permission.UTA_TRADE, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "-"),
    CLOSE_POSITIONS("POST", "/api/v3/trade/close-positions", Permission.UTA_TRADE, Access.WRITE, 5, Scope.UID, Family.UNIFIED, "-"),
    ORDER_INFO("GET", "/api/v3/trade/order-info", Permission.UTA_TRADE, Access.READ, 20, Scope.UID, Family.UNIFIED, "-"),
    UNFILLED_ORDERS("GET", "/api/v3/trade/unfilled-orders", Permission.UTA_TRADE, Access.READ, 20, Scope.UID, Family.UNIFIED, "-"),
    HISTORY_ORDERS("GET", "/api/v3/trade/history-orders", Permission.UTA_TRADE, Access.READ, 20, Scope.UID, Family.UNIFIED, "-"),
    PLACE_STRATEGY_ORDER("POST", "/api/v3/trade/place-strategy-order", Permission.UTA_TRADE, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "-"),
    CANCEL_STRATEGY_ORDER("POST", "/api/v3/trade/cancel-strategy-order", Permission.UTA_TRADE, Access.WRITE, 10, Scope.UID, Family.UNIFIED, "-"),
    // Issue 26: classic spot trading on the same engine (order-entry-wire.md, v2). Classic rows carry no §5 permission;
    // a read-only key is refused the writes (D172). Limits per UID per second as the platform's pages give them.
    SPOT_PLACE_ORDER("POST", "/api/v2/spot/trade/place-order", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    SPOT_BATCH_ORDERS("POST", "/api/v2/spot/trade/batch-orders", Permission.NONE, Access.WRITE, 5, Scope.UID, Family.CLASSIC, "-"),
    SPOT_CANCEL_ORDER("POST", "/api/v2/spot/trade/cancel-order", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    SPOT_BATCH_CANCEL_ORDER("POST", "/api/v2/spot/trade/batch-cancel-order", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    SPOT_CANCEL_SYMBOL_ORDER("POST", "/api/v2/spot/trade/cancel-symbol-order", Permission.NONE, Access.WRITE, 5, Scope.UID, Family.CLASSIC, "-"),
    SPOT_CANCEL_REPLACE_ORDER("POST", "/api/v2/spot/trade/cancel-replace-order", Permission.NONE, Access.WRITE, 5, Scope.UID, Family.CLASSIC, "-"),
    SPOT_ORDER_INFO("GET", "/api/v2/spot/trade/orderInfo", Permission.NONE, Access.READ, 20, Scope.UID, Family.CLASSIC, "-"),
    SPOT_UNFILLED_ORDERS("GET", "/api/v2/spot/trade/unfilled-orders", Permission.NONE, Access.READ, 20, Scope.UID, Family.CLASSIC, "-"),
    SPOT_HISTORY_ORDERS("GET", "/api/v2/spot/trade/history-orders", Permission.NONE, Access.READ, 20, Scope.UID, Family.CLASSIC, "-"),
    SPOT_ASSETS("GET", "/api/v2/spot/account/assets", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "-"),
    // Issue 26: classic futures orders and the settings they trade under (v2 mix rows); 10/s, the set rows 5/s (D173).
    MIX_PLACE_ORDER("POST", "/api/v2/mix/order/place-order", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_CANCEL_ORDER("POST", "/api/v2/mix/order/cancel-order", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_BATCH_CANCEL_ORDERS("POST", "/api/v2/mix/order/batch-cancel-orders", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_BATCH_PLACE_ORDER("POST", "/api/v2/mix/order/batch-place-order", Permission.NONE, Access.WRITE, 5, Scope.UID, Family.CLASSIC, "-"),
    MIX_MODIFY_ORDER("POST", "/api/v2/mix/order/modify-order", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_CANCEL_ALL_ORDERS("POST", "/api/v2/mix/order/cancel-all-orders", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_CLOSE_POSITIONS("POST", "/api/v2/mix/order/close-positions", Permission.NONE, Access.WRITE, 1, Scope.UID, Family.CLASSIC, "-"),
    MIX_PLACE_TPSL_ORDER("POST", "/api/v2/mix/order/place-tpsl-order", Permission.NONE, Access.WRITE, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_FILLS("GET", "/api/v2/mix/order/fills", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_ORDER_DETAIL("GET", "/api/v2/mix/order/detail", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_ORDERS_PENDING("GET", "/api/v2/mix/order/orders-pending", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_ORDERS_HISTORY("GET", "/api/v2/mix/order/orders-history", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_SET_LEVERAGE("POST", "/api/v2/mix/account/set-leverage", Permission.NONE, Access.WRITE, 5, Scope.UID, Family.CLASSIC, "-"),
    MIX_SET_MARGIN_MODE("POST", "/api/v2/mix/account/set-margin-mode", Permission.NONE, Access.WRITE, 5, Scope.UID, Family.CLASSIC, "-"),
    MIX_SET_POSITION_MODE("POST", "/api/v2/mix/account/set-position-mode", Permission.NONE, Access.WRITE, 5, Scope.UID, Family.CLASSIC, "-"),
    MIX_ACCOUNTS("GET", "/api/v2/mix/account/accounts", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "-"),
    MIX_ACCOUNT("GET", "/api/v2/mix/account/account", Permission.NONE, Access.READ, 10, Scope.UID, Family.CLASSIC, "-"),
    // Public market data of the engine (order-entry-wire.md), per IP like tickers.
    ORDERBOOK("GET", "/api/v3/market/orderbook", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    CANDLES("GET", "/api/v3/market/candles", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    HISTORY_CANDLES("GET", "/api/v3/market/history-candles", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    RECENT_FILLS("GET", "/api/v3/market/fills", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    CURRENT_FUND_RATE("GET", "/api/v3/market/current-fund-rate", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    // Issue 26: the classic (v2) public market data of the engine, per IP; limits as the platform's pages give them
    // (spot market/fills and both fills-history pages 10/s, the others 20/s; D180).
    V2_SPOT_TICKERS("GET", "/api/v2/spot/market/tickers", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_SPOT_ORDERBOOK("GET", "/api/v2/spot/market/orderbook", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_SPOT_CANDLES("GET", "/api/v2/spot/market/candles", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_SPOT_HISTORY_CANDLES("GET", "/api/v2/spot/market/history-candles", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_SPOT_FILLS("GET", "/api/v2/spot/market/fills", null, Access.READ, 10, Scope.IP, Family.ANY, "-"),
    V2_SPOT_FILLS_HISTORY("GET", "/api/v2/spot/market/fills-history", null, Access.READ, 10, Scope.IP, Family.ANY, "-"),
    V2_MIX_TICKER("GET", "/api/v2/mix/market/ticker", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_MIX_TICKERS("GET", "/api/v2/mix/market/tickers", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_MIX_MERGE_DEPTH("GET", "/api/v2/mix/market/merge-depth", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_MIX_CANDLES("GET", "/api/v2/mix/market/candles", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_MIX_HISTORY_CANDLES("GET", "/api/v2/mix/market/history-candles", null, Access.READ, 20, Scope.IP, Family.ANY, "-"),
    V2_MIX_FILLS_HISTORY("GET", "/api/v2/mix/market/fills-history", null, Access.READ, 10, Scope.IP, Family.ANY, "-"),
    V2_MIX_CURRENT_FUND_RATE("GET", "/api/v2/mix/market/current-fund-rate", null, Access.READ, 20, Scope.IP, Family.ANY, "-");

    /** Whether a read-only key may call the row. */
    public enum Access { READ, WRITE }
    /** Whose bucket a request draws from (§8). */
    public enum Scope { UID, IP }
    /** Which account kind may call the row (DESIGN: account kinds). */
    public enum Family { ANY, UNIFIED, CLASSIC }
    /** Caller conditions of §7.2. */
    public enum Guard { MAIN_ONLY, PARENT_ONLY, REALITY_ALLOW_LIST, DELTA_ON }

    private final String method;
    private final String path;
    private final Permission permission; // null: public row, no authentication
    private final Access access;
    private final int ratePerSecond;
    private final Scope scope;
    private final Family family;
    private final String section;
    private final Set<Guard> guards;

    Endpoint(String method, String path, Permission permission, Access access, int ratePerSecond, Scope scope,
             Family family, String section, Guard... guards) {
        this.method = method;
        this.path = path;
        this.permission = permission;
        this.access = access;
        this.ratePerSecond = ratePerSecond;
        this.scope = scope;
        this.family = family;
        this.section = section;
        // An EnumSet walks its guards in declaration order on every JVM (Set.of's order changes from JVM to JVM).
        this.guards = guards.length == 0 ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(Arrays.asList(guards)));
    }

    public String method() { return method; }
    public String path() { return path; }
    public boolean isPublic() { return permission == null; }
    public Permission permission() { return permission; }
    public Access access() { return access; }
    public int ratePerSecond() { return ratePerSecond; }
    public Scope scope() { return scope; }
    public Family family() { return family; }
    public String section() { return section; }
    public Set<Guard> guards() { return guards; }

    /** Whether the row's body is a top-level JSON array (order-entry-wire.md: cancel-batch, place-batch). */
    public boolean takesArrayBody() { return this == PLACE_BATCH || this == CANCEL_BATCH; }

    /** The spec's 30 method+path pairs (§4); the rows after them (public time, market metadata, the v3 unified reads ccxt uses) are beyond the spec. */
    public boolean inSpec() { return ordinal() < PUBLIC_TIME.ordinal(); }
}
