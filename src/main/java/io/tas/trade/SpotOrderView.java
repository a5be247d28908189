package io.tas.trade;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tas.http.Json;
import io.tas.ledger.Ledger;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A classic spot order as the v2 rows show it (spot/trade/Get-Order-Info, Get-Unfilled-Orders; order-entry-wire.md):
 * every field a string, feeDetail a JSON-encoded string. The unfilled rows carry the limit price in priceAvg and the
 * average fill price in basePrice, which ccxt swaps back when basePrice is present.
 * Fields a row does not carry are left out (null).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SpotOrderView(String userId, String symbol, String orderId, String clientOid, String price, String size,
                            String orderType, String side, String status, String priceAvg, String basePrice, String baseVolume,
                            String quoteVolume, String enterPointSource, String feeDetail, String orderSource,
                            String cancelReason, String cTime, String uTime) {

    /** orderInfo and history-orders rows (no basePrice). */
    static SpotOrderView of(TradeOrder o, String platformToken) {
        return new SpotOrderView(Long.toString(o.uid()), o.symbol(), Long.toString(o.orderId()), clientOid(o),
                o.price() == null ? "0" : Json.plain(o.price()), Json.plain(o.qty()), o.orderType(), o.side(), o.status(),
                average(o), null, Json.plain(o.cumExecQty()), Json.plain(o.cumExecValue()), "API", feeDetail(o, platformToken),
                o.isMarket() ? "market" : "normal", o.cancelReason() == null ? "" : o.cancelReason(),
                Long.toString(o.cTime()), Long.toString(o.uTime()));
    }

    /** unfilled-orders rows: priceAvg is the order's price, basePrice the average fill price (the docs' example). */
    static SpotOrderView unfilled(TradeOrder o) {
        return new SpotOrderView(Long.toString(o.uid()), o.symbol(), Long.toString(o.orderId()), clientOid(o),
                null, Json.plain(o.qty()), o.orderType(), o.side(), o.status(),
                o.price() == null ? "0" : Json.plain(o.price()), average(o), Json.plain(o.cumExecQty()), Json.plain(o.cumExecValue()),
                "API", null, o.isMarket() ? "market" : "normal", null, Long.toString(o.cTime()), Long.toString(o.uTime()));
    }

    private static String clientOid(TradeOrder o) { return o.clientOid() == null ? "" : o.clientOid(); }

    private static String average(TradeOrder o) {
        BigDecimal avg = o.avgPrice();
        return avg == null ? "0" : Json.plain(avg.setScale(Ledger.SCALE, RoundingMode.HALF_EVEN));
    }

    /**
     * The docs' feeDetail: an entry per fee coin {deduction, feeCoinCode, totalDeductionFee, totalFee} (negative: what was
     * paid) beside "newFees" {c, d, deduction, r, t, totalDeductionFee}; ccxt reads the entry with feeCoinCode and negates
     * its totalFee. Before any fee only newFees, all zero (D172).
     */
    static String feeDetail(TradeOrder o, String platformToken) {
        boolean paid = o.feeCoin() != null && o.fee().signum() != 0;
        String fee = paid ? o.fee().negate().toPlainString() : "0";
        // Paid in the platform token while trading another pair: a deduction (D72).
        boolean token = paid && o.feeCoin().equals(platformToken) && !o.symbol().startsWith(platformToken);
        StringBuilder b = new StringBuilder("{");
        if (paid) {
            b.append('"').append(o.feeCoin()).append("\":{\"deduction\":").append(token).append(",\"feeCoinCode\":\"").append(o.feeCoin())
                    .append("\",\"totalDeductionFee\":").append(token ? fee : "0").append(",\"totalFee\":").append(fee).append("},");
        }
        b.append("\"newFees\":{\"c\":0,\"d\":").append(token ? o.fee().toPlainString() : "0").append(",\"deduction\":").append(token)
                .append(",\"r\":").append(token ? "0" : fee).append(",\"t\":").append(token ? "0" : fee).append(",\"totalDeductionFee\":0}}");
        return b.toString();
    }
}
