package io.tas.spot;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.tas.http.Json;

/**
 * A fill's §2.17 wire JSON. Rendered once when the fill is stored (and by the V13 backfill): a fill never changes, so
 * the fills row serves a page as stored strings instead of decoding five numeric(38,18) values and re-serialising
 * them per read (issue 9's paging benchmark: that was a third of the server's CPU per page).
 */
public final class FillWire {
    private FillWire() {}

    /** §2.17: every field a string, feeDetail an object, times in milliseconds. */
    public record FillView(String userId, String symbol, String orderId, String tradeId, String orderType, String side, String priceAvg,
                           String size, String amount, String tradeScope, FeeDetailView feeDetail, String cTime, String uTime) {}

    public record FeeDetailView(String deduction, String feeCoin, String totalDeductionFee, String totalFee) {}

    public static FillView view(SpotFill f) {
        return new FillView(Long.toString(f.uid()), f.symbol(), Long.toString(f.orderId()), Long.toString(f.tradeId()), f.orderType(),
                f.side(), Json.plain(f.priceAvg()), Json.plain(f.size()), Json.plain(f.amount()), f.tradeScope(),
                new FeeDetailView(f.deduction(), f.feeCoin(), Json.plain(f.totalDeductionFee()), Json.plain(f.totalFee())),
                Long.toString(f.cTime()), Long.toString(f.uTime()));
    }

    public static String json(SpotFill f) {
        try {
            return Json.MAPPER.writeValueAsString(view(f));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
