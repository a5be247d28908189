package io.tas.strategy;

import java.math.BigDecimal;
import java.util.List;

/**
 * One strategy order (§2.19) of a unified account. Money and prices are exact decimals; absent optional fields are
 * null. params holds the type's own list (ocoParams, trailingStopParams, icebergParams or twapParams), empty for
 * tpsl and trigger. seq is the database's row number, the history cursor (§4.6); null before the row is stored.
 */
public record StrategyOrder(long orderId, Long seq, long uid, String clientOid, String category, Type type, String symbol,
                            BigDecimal qty, String posSide, String status, String triggerType, String tpTriggerBy,
                            String slTriggerBy, BigDecimal takeProfit, BigDecimal stopLoss, String tpOrderType,
                            String slOrderType, BigDecimal tpLimitPrice, BigDecimal slLimitPrice, String triggerBy,
                            BigDecimal triggerPrice, String triggerOrderType, BigDecimal triggerOrderPrice,
                            List<?> params, long createdTime, long updatedTime) {

    /** §4.6 type values; each carries the name of its parameter list on the wire, if it has one. */
    public enum Type {
        tpsl(null), trigger(null), oco("ocoParams"), trailing_stop("trailingStopParams"), iceberg("icebergParams"), twap("twapParams");

        private final String paramsField;

        Type(String paramsField) { this.paramsField = paramsField; }

        /** The wire name of this type's parameter list, or null when the type has none. */
        public String paramsField() { return paramsField; }

        public static Type fromWire(String s) { return Type.valueOf(s); }
    }

    /** Statuses of an order still working: unfilled-strategy-orders serves these, history the rest (D66). */
    public static final java.util.Set<String> OPEN_STATUSES = java.util.Set.of("pending", "submitting");

    public boolean open() { return OPEN_STATUSES.contains(status); }

    /** ocoParams item (§2.19): all strings on the wire. */
    public record OcoParam(BigDecimal ocoLimitPrice, BigDecimal ocoTriggerPrice, String ocoOrderType, BigDecimal ocoOrderPrice) {}

    /** trailingStopParams item (§2.19): all strings on the wire. */
    public record TrailingStopParam(BigDecimal activationPrice, String activationType, String trailType, BigDecimal trailVariance,
                                    String preOrderType, BigDecimal preOrderPrice) {}

    /** icebergParams item (§2.19): all strings on the wire. */
    public record IcebergParam(String splitMode, BigDecimal qtyPerOrder, BigDecimal splitOrderNumbers, String orderPreference,
                               String executionStrategy, String fixedDistanceType, BigDecimal distance, BigDecimal fixedPrice,
                               BigDecimal priceLimit) {}

    /**
     * twapParams item (§2.19): duration (minutes) and interval (seconds) and orderType are strings on the wire; the
     * others are JSON Numbers. limitOffsetType is Number-typed in the spec with the values percentage and spread, so
     * it goes out as a code: 1 = percentage, 2 = spread (D69).
     */
    public record TwapParam(BigDecimal duration, BigDecimal interval, String orderType, Integer limitOffsetType,
                            BigDecimal limitOffsetPercentage, BigDecimal limitOffsetSpread, BigDecimal twapTriggerPrice,
                            BigDecimal twapTerminationPrice) {}
}
