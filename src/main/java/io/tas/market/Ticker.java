package io.tas.market;

import io.tas.account.AccountEnums.Category;

import java.math.BigDecimal;

/** §2.20 one ticker. Futures-only fields (index, mark, funding, open interest) are null for spot; delivery fields for perpetuals. */
public record Ticker(
        Category category,
        String symbol,
        BigDecimal lastPrice,
        BigDecimal openPrice24h,
        BigDecimal highPrice24h,
        BigDecimal lowPrice24h,
        BigDecimal ask1Price,
        BigDecimal bid1Price,
        BigDecimal ask1Size,
        BigDecimal bid1Size,
        BigDecimal price24hPcnt,
        BigDecimal volume24h,
        BigDecimal turnover24h,
        BigDecimal indexPrice,
        BigDecimal markPrice,
        BigDecimal fundingRate,
        BigDecimal openInterest,
        Long deliveryStartTime,
        Long deliveryTime,
        String deliveryStatus,
        BigDecimal platformTurnover24h,
        long ts) {}
