package io.tas.spot;

import java.math.BigDecimal;

/**
 * A stored fill: a spot fill (§2.17) of a classic account, or a fill of any category (beyond-spec shapes §9) of a
 * unified account. amount = priceAvg x size (checked on ingest); execPnl is the fill's realised PnL (0 for spot).
 */
public record SpotFill(long uid, long tradeId, long orderId, String symbol, String orderType, String side, BigDecimal priceAvg,
                       BigDecimal size, BigDecimal amount, String tradeScope, String deduction, String feeCoin,
                       BigDecimal totalDeductionFee, BigDecimal totalFee, long cTime, long uTime, String category,
                       BigDecimal execPnl) {
    /** A spot fill (category SPOT, no realised PnL): the §2.17 fields only. */
    public SpotFill(long uid, long tradeId, long orderId, String symbol, String orderType, String side, BigDecimal priceAvg,
                    BigDecimal size, BigDecimal amount, String tradeScope, String deduction, String feeCoin,
                    BigDecimal totalDeductionFee, BigDecimal totalFee, long cTime, long uTime) {
        this(uid, tradeId, orderId, symbol, orderType, side, priceAvg, size, amount, tradeScope, deduction, feeCoin, totalDeductionFee,
                totalFee, cTime, uTime, "SPOT", BigDecimal.ZERO);
    }

    SpotFill withIds(long newTradeId, long newOrderId) {
        return new SpotFill(uid, newTradeId, newOrderId, symbol, orderType, side, priceAvg, size, amount, tradeScope, deduction, feeCoin,
                totalDeductionFee, totalFee, cTime, uTime, category, execPnl);
    }
}
