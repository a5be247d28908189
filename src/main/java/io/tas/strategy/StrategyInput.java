package io.tas.strategy;

import io.tas.strategy.StrategyOrder.IcebergParam;
import io.tas.strategy.StrategyOrder.OcoParam;
import io.tas.strategy.StrategyOrder.TrailingStopParam;

import java.math.BigDecimal;
import java.util.List;

/**
 * One strategy order as an operator (admin API, CLI, seed) hands it in: the §2.19 fields plus the type, with numbers
 * as strings or JSON numbers. orderId is server-assigned when absent. Times: createdTime / updatedTime (Unix ms), or
 * createdAgoMs / updatedAgoMs relative to the time of ingestion (seeds use these so that demo data is always recent);
 * absent, createdTime is the ingestion time and updatedTime is createdTime.
 */
public record StrategyInput(Long orderId, String clientOid, String category, String type, String symbol, BigDecimal qty,
                            String posSide, String status, String triggerType, String tpTriggerBy, String slTriggerBy,
                            BigDecimal takeProfit, BigDecimal stopLoss, String tpOrderType, String slOrderType,
                            BigDecimal tpLimitPrice, BigDecimal slLimitPrice, String triggerBy, BigDecimal triggerPrice,
                            String triggerOrderType, BigDecimal triggerOrderPrice, List<OcoParam> ocoParams,
                            List<TrailingStopParam> trailingStopParams, List<IcebergParam> icebergParams,
                            List<TwapInput> twapParams, Long createdTime, Long updatedTime, Long createdAgoMs, Long updatedAgoMs) {

    /** twapParams item as given: limitOffsetType is percentage or spread (or its code 1 or 2). */
    public record TwapInput(BigDecimal duration, BigDecimal interval, String orderType, String limitOffsetType,
                            BigDecimal limitOffsetPercentage, BigDecimal limitOffsetSpread, BigDecimal twapTriggerPrice,
                            BigDecimal twapTerminationPrice) {}
}
