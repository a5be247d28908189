package io.tas.copytrade;

import java.math.BigDecimal;

/** §2.21 copy-trading profit summary of a lead account, in USDT. */
public record ProfitSummary(long uid, BigDecimal totalProfit, BigDecimal totalAllocatedProfit, BigDecimal totalPendingProfit,
                            long updatedTime) {
    /** What an account that never led copy trading shows (D70). */
    public static ProfitSummary none(long uid) {
        return new ProfitSummary(uid, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, 0);
    }
}
