package io.tas.stream;

import io.tas.http.Json;
import io.tas.ledger.Ledger;
import io.tas.market.Ticker;
import io.tas.position.MixAccountRoutes;
import io.tas.position.PositionMath;
import io.tas.position.PositionService;
import io.tas.spot.SpotFill;
import io.tas.trade.TradeOrder;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * What the v2 (classic) channels push (websocket-wire.md "v2 classic private channels"; the spot and contract WebSocket
 * docs' field lists): every figure a string. Futures rows carry `posMode`, or ccxt parses them as spot.
 */
final class StreamViewsV2 {
    private StreamViewsV2() {}

    /** Futures account channel: one line per margin coin of the product type. */
    record FuturesAccount(String marginCoin, String frozen, String available, String maxOpenPosAvailable, String maxTransferOut,
                          String equity, String usdtEquity, String crossedRiskRate, String unrealizedPL) {}

    static FuturesAccount account(MixAccountRoutes.AccountLine l) {
        return new FuturesAccount(l.marginCoin(), l.locked(), l.available(), l.crossedMaxAvailable(), l.maxTransferOut(), l.accountEquity(),
                l.usdtEquity(), l.crossedRiskRate(), l.unrealizedPL());
    }

    record Position(String posId, String instId, String marginCoin, String marginSize, String marginMode, String holdSide, String posMode,
                    String total, String available, String frozen, String openPriceAvg, String leverage, String achievedProfits,
                    String unrealizedPL, String unrealizedPLR, String liquidationPrice, String keepMarginRate, String marginRate,
                    String markPrice, String breakEvenPrice, String totalFee, String deductedFee, String cTime, String uTime) {}

    static Position position(PositionService.Valuation v) {
        io.tas.position.Position p = v.position();
        BigDecimal rate = p.marginSize().signum() == 0 ? BigDecimal.ZERO : v.unrealizedPL().divide(p.marginSize(), PositionMath.MC);
        return new Position(Long.toString(p.id()), p.symbol(), p.marginCoin(), Json.plain(PositionMath.round(p.marginSize())),
                p.marginMode().name(), p.holdSide().wire(), p.posMode().name(), Json.plain(p.size()), Json.plain(p.available()),
                Json.plain(p.locked()), Json.plain(PositionMath.round(p.openPriceAvg())), Json.plain(p.leverage()),
                Json.plain(p.achievedProfits()), Json.plain(PositionMath.round(v.unrealizedPL())), Json.plain(PositionMath.round(rate)),
                Json.plain(PositionMath.round(v.liquidationPrice())), Json.plain(v.keepMarginRate()),
                Json.plain(PositionMath.round(v.marginRatio())), Json.plain(v.markPrice()), Json.plain(PositionMath.round(v.breakEvenPrice())),
                p.totalFunding().signum() == 0 ? "0" : Json.plain(p.totalFunding()), Json.plain(p.deductedFee()),
                Long.toString(p.createdTime()), Long.toString(p.updatedTime()));
    }

    record Fee(String feeCoin, String fee) {}

    /**
     * Spot order channel. `baseVolume` is the cumulative filled size, as accBaseVolume: ccxt's parseWsOrder takes it as
     * the order's filled amount (D187). A market buy's size is its quote amount, as on REST.
     */
    record SpotOrder(String instId, String orderId, String clientOid, String price, String size, String newSize, String notional,
                     String orderType, String force, String side, String baseVolume, String accBaseVolume, String priceAvg,
                     String status, String tradeScope, List<Fee> feeDetail, String stpMode, String enterPointSource, String cTime,
                     String uTime) {}

    /** Contract order channel; statuses spell canceled there, as the REST rows do (order-entry-wire.md). */
    record FuturesOrder(String instId, String orderId, String clientOid, String price, String size, String orderType, String force,
                        String side, String posSide, String marginMode, String marginCoin, String baseVolume, String accBaseVolume,
                        String fillNotionalUsd, String priceAvg, String status, String leverage, List<Fee> feeDetail, String pnl,
                        String reduceOnly, String posMode, String tradeSide, String stpMode, String enterPointSource, String cTime,
                        String uTime) {}

    static Object order(TradeOrder o) {
        boolean filled = o.cumExecQty().signum() > 0;
        String avg = filled ? Json.plain(o.avgPrice().setScale(Ledger.SCALE, RoundingMode.HALF_EVEN)) : "0";
        List<Fee> fee = List.of(filled && o.feeCoin() != null ? new Fee(o.feeCoin(), Json.plain(o.fee().negate())) : new Fee("", "0"));
        String price = o.price() == null ? "0" : Json.plain(o.price());
        String clientOid = o.clientOid() == null ? "" : o.clientOid();
        if (!o.isFutures()) {
            return new SpotOrder(o.symbol(), Long.toString(o.orderId()), clientOid, price, Json.plain(o.qty()), Json.plain(o.qty()),
                    Json.plain(o.qty()), o.orderType(), o.timeInForce(), o.side(), Json.plain(o.cumExecQty()), Json.plain(o.cumExecQty()), avg,
                    o.status(), "", fee, "none", "API", Long.toString(o.cTime()), Long.toString(o.uTime()));
        }
        boolean hedge = o.posSide() != null;
        return new FuturesOrder(o.symbol(), Long.toString(o.orderId()), clientOid, price, Json.plain(o.qty()), o.orderType(), o.timeInForce(),
                hedge ? (o.posSide().equals("long") ? "buy" : "sell") : o.side(), hedge ? o.posSide() : "net",
                o.marginMode() == null ? "crossed" : o.marginMode(), o.frozenCoin(), Json.plain(o.cumExecQty()), Json.plain(o.cumExecQty()),
                Json.plain(o.cumExecValue()), avg, o.status().equals(TradeOrder.CANCELLED) ? "canceled" : o.status(),
                o.leverage() == null ? "" : Json.plain(o.leverage()), fee, "0", o.reduceOnly() ? "YES" : "NO", o.holdMode(),
                o.tradeSide() == null ? "" : o.tradeSide(), "none", "API", Long.toString(o.cTime()), Long.toString(o.uTime()));
    }

    /**
     * Contract trigger-order channel (`orders-algo`, D206): a classic account's TP/SL (place-tpsl-order, D173) with the
     * fields of the platform's channel page (contract/websocket/private/Plan-Order-Channel) that ccxt's parseWsOrder
     * reads: the trigger in `triggerPrice` and `price`, the limit in `executePrice` ("0" for market), `size` the part it
     * closes (a whole-position plan is stored with the position's size when placed, so it is pushed as tp/sl of that
     * size: `planType` tp or sl), `status` live, executed, fail_execute or cancelled. `side` as the orders channel
     * spells it: in hedge mode the position's direction (buy for a long) with tradeSide close, in one-way mode the
     * closing trade's (sell for a long). The position it closes gives posMode, margin mode and leverage (one-way and
     * crossed once it is gone).
     */
    record AlgoOrder(String instId, String orderId, String clientOid, String price, String triggerPrice, String executePrice,
                     String triggerType, String triggerTime, String planType, String size, String actualSize, String orderType,
                     String force, String side, String posSide, String tradeSide, String marginMode, String marginCoin,
                     String leverage, String posMode, String reduceOnly, String status, String stopSurplusTriggerType,
                     String stopLossTriggerType, String stpMode, String enterPointSource, String cTime, String uTime) {}

    static AlgoOrder algoOrder(io.tas.strategy.StrategyOrder o, io.tas.position.Position held) {
        boolean profit = o.takeProfit() != null;
        String trigger = Json.plain(profit ? o.takeProfit() : o.stopLoss());
        String by = "market".equals(profit ? o.tpTriggerBy() : o.slTriggerBy()) ? "fill_price" : "mark_price";
        BigDecimal limit = profit ? o.tpLimitPrice() : o.slLimitPrice();
        String type = profit ? o.tpOrderType() : o.slOrderType();
        String status = switch (o.status()) {
            case "success" -> "executed";
            case "failed" -> "fail_execute";
            case "cancelled" -> "cancelled";
            default -> "live"; // pending, submitting
        };
        boolean longSide = !"short".equals(o.posSide());
        String posMode = held == null ? "one_way_mode" : held.posMode().name();
        boolean hedge = posMode.equals("hedge_mode");
        String side = hedge == longSide ? "buy" : "sell";
        return new AlgoOrder(o.symbol(), Long.toString(o.orderId()), o.clientOid() == null ? "" : o.clientOid(), trigger, trigger,
                limit == null ? "0" : Json.plain(limit), by, Long.toString(status.equals("live") ? o.createdTime() : o.updatedTime()),
                profit ? "tp" : "sl", o.qty() == null ? "0" : Json.plain(o.qty()), "0", type == null ? "market" : type, "gtc",
                side, longSide ? "long" : "short", "close", held == null ? "crossed" : held.marginMode().name(),
                held == null ? "" : held.marginCoin(), held == null ? "" : Json.plain(held.leverage()), posMode, "YES", status, by, by,
                "none", "API", Long.toString(o.createdTime()), Long.toString(o.updatedTime()));
    }

    /** A fill's fee: what was paid, negative, as the REST fills rows show it. */
    record FillFee(String feeCoin, String deduction, String totalDeductionFee, String totalFee) {}

    record SpotFillView(String orderId, String tradeId, String symbol, String orderType, String side, String priceAvg, String size,
                        String amount, String tradeScope, List<FillFee> feeDetail, String cTime, String uTime) {}

    record FuturesFill(String orderId, String tradeId, String symbol, String side, String orderType, String posMode, String price,
                       String baseVolume, String quoteVolume, String profit, String tradeSide, String tradeScope, List<FillFee> feeDetail,
                       String cTime, String uTime) {}

    static Object fill(SpotFill f, TradeOrder o) {
        List<FillFee> fee = List.of(new FillFee(f.feeCoin(), f.deduction(), Json.plain(f.totalDeductionFee()), Json.plain(f.totalFee())));
        if (!o.isFutures()) {
            return new SpotFillView(Long.toString(f.orderId()), Long.toString(f.tradeId()), f.symbol(), f.orderType(), f.side(),
                    Json.plain(f.priceAvg()), Json.plain(f.size()), Json.plain(f.amount()), f.tradeScope(), fee, Long.toString(f.cTime()),
                    Long.toString(f.uTime()));
        }
        return new FuturesFill(Long.toString(f.orderId()), Long.toString(f.tradeId()), f.symbol(), f.side(), f.orderType(), o.holdMode(),
                Json.plain(f.priceAvg()), Json.plain(f.size()), Json.plain(f.amount()), Json.plain(f.execPnl()),
                o.tradeSide() == null ? "" : o.tradeSide(), f.tradeScope(), fee, Long.toString(f.cTime()), Long.toString(f.uTime()));
    }

    /** Spot ticker channel (spot/websocket/public/Tickers-Channel). */
    record SpotTicker(String instId, String lastPr, String open24h, String high24h, String low24h, String change24h, String bidPr,
                      String askPr, String bidSz, String askSz, String baseVolume, String quoteVolume, String openUtc,
                      String changeUtc24h, String ts) {}

    /** Contract ticker channel (contract/websocket/public/Tickers-Channel). */
    record FuturesTicker(String instId, String lastPr, String bidPr, String askPr, String bidSz, String askSz, String open24h,
                         String high24h, String low24h, String change24h, String fundingRate, String nextFundingTime, String markPrice,
                         String indexPrice, String holdingAmount, String baseVolume, String quoteVolume, String openUtc,
                         String changeUtc24h, String ts) {}

    static Object ticker(Ticker t) {
        if (!t.category().isFutures()) {
            return new SpotTicker(t.symbol(), s(t.lastPrice()), s(t.openPrice24h()), s(t.highPrice24h()), s(t.lowPrice24h()),
                    s(t.price24hPcnt()), s(t.bid1Price()), s(t.ask1Price()), s(t.bid1Size()), s(t.ask1Size()), s(t.volume24h()),
                    s(t.turnover24h()), s(t.openPrice24h()), s(t.price24hPcnt()), Long.toString(t.ts()));
        }
        return new FuturesTicker(t.symbol(), s(t.lastPrice()), s(t.bid1Price()), s(t.ask1Price()), s(t.bid1Size()), s(t.ask1Size()),
                s(t.openPrice24h()), s(t.highPrice24h()), s(t.lowPrice24h()), s(t.price24hPcnt()),
                t.fundingRate() == null ? "0" : s(t.fundingRate()), "", s(t.markPrice()), s(t.indexPrice()), s(t.openInterest()),
                s(t.volume24h()), s(t.turnover24h()), s(t.openPrice24h()), s(t.price24hPcnt()), Long.toString(t.ts()));
    }

    private static String s(BigDecimal v) { return v == null ? "" : Json.plain(v); }
}
