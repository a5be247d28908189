package io.tas.trade;

import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.BalanceKey;

import io.tas.account.AccountEnums.Category;

import java.math.BigDecimal;

/**
 * One order of the matching engine as stored (V16 trade_order). qty is as placed: the quote coin for a spot market buy,
 * the base coin otherwise; cumExecQty is always base, cumExecValue quote. frozen is what the order still holds.
 * reality: placed through the §4.7 Reality rows (D223), a SPOT order like any other in the book.
 */
public record TradeOrder(long orderId, long uid, String clientOid, Category category, String symbol, String side,
                         String orderType, String timeInForce, BigDecimal price, BigDecimal qty, String posSide,
                         String holdMode, String tradeSide, boolean reduceOnly, String marginMode, BigDecimal leverage,
                         String frozenCoin, BigDecimal frozen, BigDecimal cumExecQty, BigDecimal cumExecValue,
                         BigDecimal fee, String feeCoin, String status, String cancelReason, long cTime, long uTime,
                         boolean classic, boolean reality) {
    public static final String LIVE = "live";
    public static final String PARTIALLY_FILLED = "partially_filled";
    public static final String FILLED = "filled";
    public static final String CANCELLED = "cancelled";

    public boolean isBuy() { return side.equals("buy"); }
    public boolean isMarket() { return orderType.equals("market"); }
    public boolean isWorking() { return status.equals(LIVE) || status.equals(PARTIALLY_FILLED); }
    public boolean isFutures() { return category.isFutures(); }
    /** A spot market buy counts its qty in the quote coin (order-entry-wire.md). */
    public boolean qtyInQuote() { return !isFutures() && isMarket() && isBuy(); }
    public boolean closes() { return "close".equals(tradeSide); }

    /** D171: a classic account's spot order settles on its spot balances; unified and futures orders on unified ones. */
    public AccountType wallet() { return classic && !isFutures() ? AccountType.spot : AccountType.unified; }

    /** The balance row of coin this order's money moves through. */
    public BalanceKey key(String coin) { return new BalanceKey(uid, wallet(), coin); }

    /** What is left to fill, in the base coin (not meaningful for a spot market buy, whose qty is quote). */
    public BigDecimal remaining() { return qty.subtract(cumExecQty); }

    /** The order after a fill or a release: the figures that change, and its status. */
    public TradeOrder next(BigDecimal newFrozen, BigDecimal newQty, BigDecimal newValue, BigDecimal newFee, String newFeeCoin,
                           String newStatus, String reason, long now) {
        return new TradeOrder(orderId, uid, clientOid, category, symbol, side, orderType, timeInForce, price, qty, posSide,
                holdMode, tradeSide, reduceOnly, marginMode, leverage, frozenCoin, newFrozen, newQty, newValue, newFee,
                newFeeCoin, newStatus, reason, cTime, now, classic, reality);
    }

    /**
     * The order after its fills: filled, resting (live or partially filled, keeping its freeze) or cancelled, with the
     * time in force (or "market") as the reason. An order that ends holds nothing frozen: the caller gives back the rest.
     */
    public TradeOrder afterFills(boolean filled, boolean rests, long now) {
        String status = filled ? FILLED : rests ? (cumExecQty.signum() > 0 ? PARTIALLY_FILLED : LIVE) : CANCELLED;
        boolean keeps = status.equals(LIVE) || status.equals(PARTIALLY_FILLED);
        return next(keeps ? frozen : BigDecimal.ZERO, cumExecQty, cumExecValue, fee, feeCoin, status,
                status.equals(CANCELLED) ? (isMarket() ? "market" : timeInForce) : null, now);
    }

    /** The same working order with a new price and quantity (modify-order). */
    public TradeOrder amended(BigDecimal newPrice, BigDecimal newQty, BigDecimal newFrozen, long now) {
        return new TradeOrder(orderId, uid, clientOid, category, symbol, side, orderType, timeInForce, newPrice, newQty, posSide,
                holdMode, tradeSide, reduceOnly, marginMode, leverage, frozenCoin, newFrozen, cumExecQty, cumExecValue, fee,
                feeCoin, status, cancelReason, cTime, now, classic, reality);
    }

    /** The average fill price, or null before any fill. */
    public BigDecimal avgPrice() {
        return cumExecQty.signum() == 0 ? null : cumExecValue.divide(cumExecQty, java.math.MathContext.DECIMAL128);
    }
}
