package io.tas.reality;

import java.math.BigDecimal;

/**
 * A Reality order (§4.7). qty is in the quote coin for a market buy and in the base coin otherwise; frozen is what the
 * order still holds frozen in frozenCoin (quote for buys, base for sells); filledQty is base coin, filledAmount quote.
 * clientOid is null when none was given (the wire shows "", §2.22).
 */
public record RealityOrder(long uid, long orderId, String clientOid, String category, String symbol, String baseCoin,
                           String quoteCoin, String side, String orderType, BigDecimal price, BigDecimal qty, String frozenCoin,
                           BigDecimal frozen, BigDecimal filledQty, BigDecimal filledAmount, String status, long cTime, long uTime) {

    // The platform's order statuses (live, partially_filled, filled, cancelled: bitget-api's v2/v3 order types).
    public static final String LIVE = "live";
    public static final String PARTIALLY_FILLED = "partially_filled";
    public static final String FILLED = "filled";
    public static final String CANCELLED = "cancelled";

    public boolean isBuy() { return "buy".equals(side); }

    public boolean isMarket() { return "market".equals(orderType); }

    /** §4.7: only unfilled or partially filled orders can be cancelled (and filled). */
    public boolean isWorking() { return LIVE.equals(status) || PARTIALLY_FILLED.equals(status); }

    /** Base coin still to fill of a limit order or a market sell. */
    public BigDecimal remainingBase() { return qty.subtract(filledQty); }

    RealityOrder next(BigDecimal frozen, BigDecimal filledQty, BigDecimal filledAmount, String status, long now) {
        return new RealityOrder(uid, orderId, clientOid, category, symbol, baseCoin, quoteCoin, side, orderType, price, qty,
                frozenCoin, frozen, filledQty, filledAmount, status, cTime, now);
    }
}
