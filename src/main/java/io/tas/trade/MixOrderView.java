package io.tas.trade;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tas.http.Json;
import io.tas.ledger.Ledger;

import java.math.RoundingMode;
import java.util.List;

/**
 * A classic futures order as the v2 mix rows show it (contract/trade/Get-Order-Details, Get-Orders-Pending;
 * order-entry-wire.md): every field a string. In hedge mode `side` is the position's direction (a close of a long is
 * side buy, tradeSide close, reduceOnly YES; ccxt flips it back); in one-way mode the order's own side and posSide net.
 * The detail row names the status `state`, the list rows `status` (the docs' examples); statuses spell canceled.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MixOrderView(String symbol, String size, String orderId, String clientOid, String baseVolume, String fee, String price,
                           String priceAvg, String status, String state, String side, String force, String totalProfits,
                           String posSide, String marginCoin, String quoteVolume, String leverage, String marginMode,
                           String reduceOnly, String enterPointSource, String tradeSide, String posMode, String orderType,
                           String orderSource, String presetStopSurplusPrice, String presetStopLossPrice, String cTime, String uTime) {

    /** A page of orders: null when empty, and endId the last orderId (the next page's idLessThan). */
    public record Page(List<MixOrderView> entrustedList, String endId) {}

    static MixOrderView of(TradeOrder o, boolean detail) {
        boolean hedge = o.posSide() != null;
        String side = hedge ? (o.posSide().equals("long") ? "buy" : "sell") : o.side();
        String status = o.status().equals(TradeOrder.CANCELLED) ? "canceled" : o.status();
        boolean filled = o.cumExecQty().signum() > 0;
        return new MixOrderView(o.symbol(), Json.plain(o.qty()), Long.toString(o.orderId()), o.clientOid() == null ? "" : o.clientOid(),
                Json.plain(o.cumExecQty()), o.fee().signum() == 0 ? "0" : Json.plain(o.fee().negate()),
                o.price() == null ? "0" : Json.plain(o.price()),
                filled ? Json.plain(o.avgPrice().setScale(Ledger.SCALE, RoundingMode.HALF_EVEN)) : "0",
                detail ? null : status, detail ? status : null, side, o.timeInForce(), "0", hedge ? o.posSide() : "net",
                o.frozenCoin(), Json.plain(o.cumExecValue()), o.leverage() == null ? "" : Json.plain(o.leverage()),
                o.marginMode() == null ? "crossed" : o.marginMode(), o.reduceOnly() ? "YES" : "NO", "API",
                o.tradeSide() == null ? "" : o.tradeSide(), o.holdMode(), o.orderType(), o.isMarket() ? "market" : "normal", "", "",
                Long.toString(o.cTime()), Long.toString(o.uTime()));
    }

    static Page page(List<TradeOrder> orders, int limit) {
        if (orders.isEmpty()) return new Page(null, "");
        return new Page(orders.stream().map(o -> of(o, false)).toList(), Long.toString(orders.getLast().orderId()));
    }
}
