package io.tas.trade;

import io.tas.http.Json;

import java.util.List;

/** An order as the v3 order rows show it (order-entry-wire.md; ccxt 4.5.84's parseOrder): every field a string. */
public record OrderView(String orderId, String clientOid, String category, String symbol, String orderType, String side,
                        String price, String qty, String amount, String cumExecQty, String cumExecValue, String avgPrice,
                        String timeInForce, String orderStatus, String posSide, String holdMode, String tradeSide,
                        String reduceOnly, String stpMode, List<FeeLine> feeDetail, String cancelReason, String execType,
                        String createdTime, String updatedTime) {

    /** The fee paid, positive (ccxt negates feeDetail[0].fee); "" before any fill, as the docs' example. */
    public record FeeLine(String feeCoin, String fee) {}

    static OrderView of(TradeOrder o) {
        boolean filled = o.cumExecQty().signum() > 0;
        // D158: a one-way futures order shows posSide "net"; a spot order "".
        String posSide = o.isFutures() ? (o.posSide() == null ? "net" : o.posSide()) : "";
        return new OrderView(Long.toString(o.orderId()), o.clientOid() == null ? "" : o.clientOid(), o.category().wire(), o.symbol(),
                o.orderType(), o.side(), o.price() == null ? "0" : Json.plain(o.price()), Json.plain(o.qty()),
                o.qtyInQuote() ? Json.plain(o.qty()) : "0", Json.plain(o.cumExecQty()), Json.plain(o.cumExecValue()),
                filled ? Json.plain(o.avgPrice().setScale(io.tas.ledger.Ledger.SCALE, java.math.RoundingMode.HALF_EVEN)) : "0",
                o.timeInForce(), o.status(), posSide, o.holdMode(), o.tradeSide() == null ? "" : o.tradeSide(),
                o.reduceOnly() ? "YES" : "NO", "none",
                List.of(filled ? new FeeLine(o.feeCoin(), Json.plain(o.fee())) : new FeeLine("", "")),
                o.cancelReason() == null ? "" : o.cancelReason(), "normal", Long.toString(o.cTime()), Long.toString(o.uTime()));
    }
}
