package io.tas.position;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountEnums.MarginMode;

import java.math.BigDecimal;

/**
 * A futures position as stored: what the matching engine told us. Everything derived from prices
 * (unrealised PnL, ratios, liquidation) is computed by PositionMath, never stored.
 * Fees and funding are signed: money the account paid is negative (§2.16 netProfit sums them).
 */
public record Position(
        long id,
        long uid,
        Category category,
        String symbol,
        String marginCoin,
        HoldSide holdSide,
        MarginMode marginMode,
        HoldMode posMode,
        BigDecimal leverage,
        BigDecimal size,
        BigDecimal locked,
        BigDecimal openPriceAvg,
        BigDecimal marginSize,
        BigDecimal achievedProfits,
        BigDecimal totalFunding,
        BigDecimal openFeeTotal,
        BigDecimal closeFeeTotal,
        BigDecimal openTotal,
        BigDecimal closeTotal,
        BigDecimal closeValue,
        String autoMargin,
        Status status,
        long createdTime,
        long updatedTime) {

    public enum HoldSide { long_, short_;
        @com.fasterxml.jackson.annotation.JsonValue
        public String wire() { return name().substring(0, name().length() - 1); }
        public static HoldSide fromWire(String s) { return valueOf(s + "_"); }
        /** +1 for long, -1 for short. */
        public int sign() { return this == long_ ? 1 : -1; }
    }

    public enum Status { open, closed }

    /** This position with another leverage and margin (set-leverage, set-margin). */
    public Position withMargin(BigDecimal newLeverage, BigDecimal newMarginSize, long now) {
        return new Position(id, uid, category, symbol, marginCoin, holdSide, marginMode, posMode, newLeverage, size, locked,
                openPriceAvg, newMarginSize, achievedProfits, totalFunding, openFeeTotal, closeFeeTotal, openTotal, closeTotal,
                closeValue, autoMargin, status, createdTime, now);
    }

    /** §2.15 total = available + locked; available is the part not frozen by close orders. */
    public BigDecimal available() { return size.subtract(locked); }

    /** Fees deducted during the position so far (a positive number), §2.15 deductedFee. */
    public BigDecimal deductedFee() { return openFeeTotal.add(closeFeeTotal).negate(); }

    /** §2.16 closeAvgPrice. */
    public BigDecimal closePriceAvg() {
        return closeTotal.signum() == 0 ? BigDecimal.ZERO : closeValue.divide(closeTotal, PositionMath.MC);
    }

    /** §2.16 netProfit = pnl + totalFunding + openFee + closeFee. */
    public BigDecimal netProfit() { return achievedProfits.add(totalFunding).add(openFeeTotal).add(closeFeeTotal); }
}
