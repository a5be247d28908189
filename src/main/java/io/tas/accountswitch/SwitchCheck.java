package io.tas.accountswitch;

import io.tas.position.PositionService;

/**
 * A condition that keeps an account in the unified account: the switch job then ends in fail with the reason
 * (§3.1, §2.6). Checks run in the job's transaction, under the account's lock, which position opens take too.
 * Debts and frozen funds are not checks: the service tests them under the balance rows' lock, in the same step that
 * moves the balances. Pending orders plug in here: one more check in the list Domain passes, e.g.
 * {@code SwitchCheck.pendingOrders(orders)}.
 */
@FunctionalInterface
public interface SwitchCheck {
    /** Why uid cannot leave the unified account now, as the job's transaction sees it, or null. */
    String blocker(io.tas.store.Tx tx, long uid);

    /** Open futures positions hold margin in the unified account, which a classic account does not have. */
    static SwitchCheck openPositions(PositionService positions) {
        return (tx, uid) -> {
            int n = positions.open(tx.dsl(), uid).size();
            return n == 0 ? null : "the account holds " + n + " open futures position" + (n == 1 ? "" : "s");
        };
    }

    /** Working (pending or submitting) strategy orders are unified-account orders that a classic account cannot hold. */
    static SwitchCheck pendingOrders(io.tas.strategy.StrategyService strategies) {
        return (tx, uid) -> {
            int n = strategies.pendingCount(tx, uid);
            return n == 0 ? null : "the account has " + n + " pending strategy order" + (n == 1 ? "" : "s");
        };
    }

    /**
     * Working Reality orders (§4.7) trade with the unified account's balance and hold part of it frozen. They are engine
     * orders (D223), named here and not by workingOrders, so that one order is not named twice.
     */
    static SwitchCheck workingRealityOrders(io.tas.trade.TradingService trading) {
        return (tx, uid) -> {
            int n = trading.workingCount(tx, uid, true);
            return n == 0 ? null : "the account has " + n + " working Reality order" + (n == 1 ? "" : "s");
        };
    }

    /** Working orders of the matching engine (issue 25), other than Reality ones, hold part of the unified balance frozen. */
    static SwitchCheck workingOrders(io.tas.trade.TradingService trading) {
        return (tx, uid) -> {
            int n = trading.workingCount(tx, uid, false);
            return n == 0 ? null : "the account has " + n + " working order" + (n == 1 ? "" : "s");
        };
    }
}
