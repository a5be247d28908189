package io.tas.convert;

import java.math.BigDecimal;

/** §2.10 one converted coin of a small-asset trade; the coins of one trade share orderId. */
public record ConvertOrder(long orderId, long uid, String fromCoin, BigDecimal fromAmount, BigDecimal fromCoinPrice,
                           String toCoin, BigDecimal toAmount, BigDecimal toCoinPrice, BigDecimal fee, String feeCoin,
                           String status, long createdTime) {}
