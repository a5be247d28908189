package io.tas.proof;

import io.tas.auth.Permission;
import io.tas.http.Endpoint;

import java.util.EnumMap;
import java.util.Map;

import static io.tas.auth.Permission.COPY_FUTURES_ORDER;
import static io.tas.auth.Permission.NONE;
import static io.tas.auth.Permission.UTA_MGT;
import static io.tas.auth.Permission.UTA_TRADE;

/**
 * What the spec asks of each row, written out here from §5 (permission), §8 (limit) and the decisions that settle what
 * the spec leaves open, not read from the catalog: the matrices compare the service with this, so a wrong catalog row
 * fails. Rows beyond the spec's 30 carry the permission and limit their decisions give.
 */
final class SpecRows {
    /** permission null: public, no authentication (§5: the tickers); write: a read-only key is refused. perSecond: §8. */
    record Rule(Permission permission, boolean write, int perSecond, boolean perIp) {
        boolean isPublic() { return permission == null; }
    }

    /** §7.2 (and §4.1, §4.3): the account switch and switch-status are for parent accounts, sub-list for main accounts. */
    static final java.util.Set<Endpoint> MAIN_ACCOUNTS_ONLY = java.util.EnumSet.of(Endpoint.ACCOUNT_SWITCH, Endpoint.SWITCH_STATUS, Endpoint.SUB_LIST);
    /** §4.7 / §7.2: for allow-listed UIDs; D81: only placing, cancelling stays open to an account taken off the list. */
    static final java.util.Set<Endpoint> ALLOW_LISTED_ONLY = java.util.EnumSet.of(Endpoint.PLACE_REALITY_ORDER);

    private static final Map<Endpoint, Rule> RULES = new EnumMap<>(Endpoint.class);

    private static void row(Endpoint e, Permission p, boolean write, int perSecond) { RULES.put(e, new Rule(p, write, perSecond, false)); }

    private static void publicRow(Endpoint e, int perSecond) { RULES.put(e, new Rule(null, false, perSecond, true)); }

    static {
        // §5 "none"
        row(Endpoint.ACCOUNT_INFO, NONE, false, 5);
        // §5 "UTA mgt read or read/write", "UTA mgt read": a read-only key with uta_mgt may call them
        row(Endpoint.ACCOUNT_SETTINGS, UTA_MGT, false, 20);
        row(Endpoint.PRE_SET_LEVERAGE, UTA_MGT, false, 10);
        row(Endpoint.DEDUCT_INFO, UTA_MGT, false, 1);
        row(Endpoint.DELTA_INFO, UTA_MGT, false, 20);
        row(Endpoint.MAX_WITHDRAWAL, UTA_MGT, false, 10);
        row(Endpoint.SMALL_ASSETS, UTA_MGT, false, 10);
        row(Endpoint.SMALL_ASSETS_HISTORY, UTA_MGT, false, 10);
        row(Endpoint.SUB_LIST, UTA_MGT, false, 10);
        // §5 "UTA mgt read/write"
        row(Endpoint.SET_LEVERAGE, UTA_MGT, true, 10);
        row(Endpoint.SET_HOLD_MODE, UTA_MGT, true, 10);
        row(Endpoint.SWITCH_DEDUCT, UTA_MGT, true, 1);
        row(Endpoint.SET_MARGIN, UTA_MGT, true, 10);
        // §5 "parent account only" (switch) and "callable by a parent account" (switch-status), no permission name shown:
        // D7 gives the switch uta_mgt read/write; switch-status is a read of the same (catalog, DESIGN).
        row(Endpoint.ACCOUNT_SWITCH, UTA_MGT, true, 1);
        row(Endpoint.SWITCH_STATUS, UTA_MGT, false, 5);
        // §5 does not show it; D7: uta_mgt read/write.
        row(Endpoint.ADJUST_ACCOUNT_MODE, UTA_MGT, true, 1);
        // §5 "UTA trade" for a conversion: it moves money, so read/write (D7's rule).
        row(Endpoint.SMALL_ASSETS_TRADE, UTA_TRADE, true, 10);
        // §5 "UTA trade read"
        row(Endpoint.LOAN_DATA, UTA_TRADE, false, 10);
        row(Endpoint.HISTORY_STRATEGY_ORDERS, UTA_TRADE, false, 20);
        row(Endpoint.UNFILLED_STRATEGY_ORDERS, UTA_TRADE, false, 20);
        // §5 "UTA trade read/write" (D63: a read-only key is refused the v3 history)
        row(Endpoint.HISTORY_POSITION_V3, UTA_TRADE, true, 20);
        row(Endpoint.PLACE_REALITY_ORDER, UTA_TRADE, true, 30); // §8 disagrees with itself (1 or 30): DESIGN takes 30
        row(Endpoint.CANCEL_REALITY_ORDER, UTA_TRADE, true, 30);
        // §5 "futures copy-trading orders, read-only"
        row(Endpoint.PROFIT_SUMMARY, COPY_FUTURES_ORDER, false, 1);
        // §5 does not show the v2 rows; D7: no permission name, read.
        row(Endpoint.SINGLE_POSITION, NONE, false, 10);
        row(Endpoint.ALL_POSITION, NONE, false, 5);
        row(Endpoint.HISTORY_POSITION_V2, NONE, false, 20);
        row(Endpoint.SPOT_FILLS, NONE, false, 10);
        row(Endpoint.WITHDRAWAL_RECORDS, NONE, false, 10);
        // §5: the public ticker, per IP (§8)
        publicRow(Endpoint.TICKERS, 20);
        // Beyond the spec: public time and market metadata, per IP like the tickers (catalog comments).
        publicRow(Endpoint.PUBLIC_TIME, 20);
        publicRow(Endpoint.SPOT_SYMBOLS, 20);
        publicRow(Endpoint.SPOT_COINS, 20);
        publicRow(Endpoint.MIX_CONTRACTS, 20);
        publicRow(Endpoint.INSTRUMENTS, 20);
        publicRow(Endpoint.MARGIN_CURRENCIES, 20);
        // Beyond the spec: the unified reads ccxt uses, as the platform's pages give them (catalog comments).
        row(Endpoint.UTA_ASSETS, UTA_MGT, false, 20);
        row(Endpoint.UTA_CURRENT_POSITION, UTA_TRADE, false, 20);
        row(Endpoint.UTA_FILLS, UTA_TRADE, false, 20);
        row(Endpoint.UTA_WITHDRAWAL_RECORDS, UTA_MGT, false, 10);
        row(Endpoint.UTA_DEPOSIT_RECORDS, UTA_MGT, false, 10);
        // Issue 25: the order rows as order-entry-wire.md gives them, "UTA trade"; writes read/write. Limits per UID:
        // place/cancel/modify 10, batch and symbol-wide 5, reads 20; market rows per IP 20.
        row(Endpoint.PLACE_ORDER, UTA_TRADE, true, 10);
        row(Endpoint.PLACE_BATCH, UTA_TRADE, true, 5);
        row(Endpoint.CANCEL_ORDER, UTA_TRADE, true, 10);
        row(Endpoint.CANCEL_BATCH, UTA_TRADE, true, 5);
        row(Endpoint.CANCEL_SYMBOL_ORDER, UTA_TRADE, true, 5);
        row(Endpoint.MODIFY_ORDER, UTA_TRADE, true, 10);
        row(Endpoint.CLOSE_POSITIONS, UTA_TRADE, true, 5);
        row(Endpoint.ORDER_INFO, UTA_TRADE, false, 20);
        row(Endpoint.UNFILLED_ORDERS, UTA_TRADE, false, 20);
        row(Endpoint.HISTORY_ORDERS, UTA_TRADE, false, 20);
        row(Endpoint.PLACE_STRATEGY_ORDER, UTA_TRADE, true, 10);
        row(Endpoint.CANCEL_STRATEGY_ORDER, UTA_TRADE, true, 10);
        // Issue 26: classic spot rows carry no §5 permission (as the v2 reads); writes need a read-and-write key (D172).
        row(Endpoint.SPOT_PLACE_ORDER, NONE, true, 10);
        row(Endpoint.SPOT_BATCH_ORDERS, NONE, true, 5);
        row(Endpoint.SPOT_CANCEL_ORDER, NONE, true, 10);
        row(Endpoint.SPOT_BATCH_CANCEL_ORDER, NONE, true, 10);
        row(Endpoint.SPOT_CANCEL_SYMBOL_ORDER, NONE, true, 5);
        row(Endpoint.SPOT_CANCEL_REPLACE_ORDER, NONE, true, 5);
        row(Endpoint.SPOT_ORDER_INFO, NONE, false, 20);
        row(Endpoint.SPOT_UNFILLED_ORDERS, NONE, false, 20);
        row(Endpoint.SPOT_HISTORY_ORDERS, NONE, false, 20);
        row(Endpoint.SPOT_ASSETS, NONE, false, 10);
        row(Endpoint.MIX_PLACE_ORDER, NONE, true, 10);
        row(Endpoint.MIX_CANCEL_ORDER, NONE, true, 10);
        row(Endpoint.MIX_BATCH_CANCEL_ORDERS, NONE, true, 10);
        row(Endpoint.MIX_BATCH_PLACE_ORDER, NONE, true, 5);
        row(Endpoint.MIX_MODIFY_ORDER, NONE, true, 10);
        row(Endpoint.MIX_CANCEL_ALL_ORDERS, NONE, true, 10);
        row(Endpoint.MIX_CLOSE_POSITIONS, NONE, true, 1);
        row(Endpoint.MIX_PLACE_TPSL_ORDER, NONE, true, 10);
        row(Endpoint.MIX_FILLS, NONE, false, 10);
        row(Endpoint.MIX_ORDER_DETAIL, NONE, false, 10);
        row(Endpoint.MIX_ORDERS_PENDING, NONE, false, 10);
        row(Endpoint.MIX_ORDERS_HISTORY, NONE, false, 10);
        row(Endpoint.MIX_SET_LEVERAGE, NONE, true, 5);
        row(Endpoint.MIX_SET_MARGIN_MODE, NONE, true, 5);
        row(Endpoint.MIX_SET_POSITION_MODE, NONE, true, 5);
        row(Endpoint.MIX_ACCOUNTS, NONE, false, 10);
        row(Endpoint.MIX_ACCOUNT, NONE, false, 10);
        publicRow(Endpoint.ORDERBOOK, 20);
        publicRow(Endpoint.CANDLES, 20);
        publicRow(Endpoint.HISTORY_CANDLES, 20);
        publicRow(Endpoint.RECENT_FILLS, 20);
        publicRow(Endpoint.CURRENT_FUND_RATE, 20);
        // Issue 26: the v2 public market rows, per IP as the platform's pages give them: 20/s, but 10/s on spot
        // market/fills ("Frequency limit: 10 times/1s (IP)") and both fills-history rows (order-entry-wire.md, D180).
        publicRow(Endpoint.V2_SPOT_TICKERS, 20);
        publicRow(Endpoint.V2_SPOT_ORDERBOOK, 20);
        publicRow(Endpoint.V2_SPOT_CANDLES, 20);
        publicRow(Endpoint.V2_SPOT_HISTORY_CANDLES, 20);
        publicRow(Endpoint.V2_SPOT_FILLS, 10);
        publicRow(Endpoint.V2_SPOT_FILLS_HISTORY, 10);
        publicRow(Endpoint.V2_MIX_TICKER, 20);
        publicRow(Endpoint.V2_MIX_TICKERS, 20);
        publicRow(Endpoint.V2_MIX_MERGE_DEPTH, 20);
        publicRow(Endpoint.V2_MIX_CANDLES, 20);
        publicRow(Endpoint.V2_MIX_HISTORY_CANDLES, 20);
        publicRow(Endpoint.V2_MIX_FILLS_HISTORY, 10);
        publicRow(Endpoint.V2_MIX_CURRENT_FUND_RATE, 20);
    }

    /** The row's rule; a catalog row not written out here fails every matrix until it is. */
    static Rule of(Endpoint e) {
        Rule r = RULES.get(e);
        if (r == null) throw new AssertionError("SpecRows has no rule for catalog row " + e + ": add its §5 permission and §8 limit");
        return r;
    }

    private SpecRows() {}
}
