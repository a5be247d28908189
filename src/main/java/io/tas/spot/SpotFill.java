package io.tas.spot;

import java.math.BigDecimal;

/** A stored spot fill (§2.17) of a classic account. amount = priceAvg x size (checked on ingest). */
public record SpotFill(long uid, long tradeId, long orderId, String symbol, String orderType, String side, BigDecimal priceAvg,
                       BigDecimal size, BigDecimal amount, String tradeScope, String deduction, String feeCoin,
                       BigDecimal totalDeductionFee, BigDecimal totalFee, long cTime, long uTime) {}
