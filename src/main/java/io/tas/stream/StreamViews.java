package io.tas.stream;

import io.tas.http.Json;
import io.tas.market.Ticker;
import io.tas.position.PositionMath;
import io.tas.position.PositionService;
import io.tas.risk.AssetsRoutes;
import io.tas.trade.TradeOrder;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/** What the v3 topics push (websocket-wire.md "v3 unified private topics"; public ticker): every figure a string. */
final class StreamViews {
    private StreamViews() {}

    record AccountCoin(String coin, String balance, String available, String locked, String borrow, String debts, String equity,
                       String usdValue) {}

    record Account(String unrealisedPnL, String totalEquity, String positionMgnRatio, String mmr, String effEquity, String imr,
                   String mgnRatio, List<AccountCoin> coin) {}

    static Account account(AssetsRoutes.Assets a) {
        return new Account(a.unrealisedPnl(), a.accountEquity(), a.positionMgnRatio(), a.mmr(), a.effEquity(), a.imr(), a.mgnRatio(),
                a.assets().stream().map(r -> new AccountCoin(r.coin(), r.balance(), r.available(), r.locked(), "0", r.debt(), r.equity(),
                        r.usdValue())).toList());
    }

    /** ccxt picks the market by `category` (lower case) and reads `avgPrice` or `openPriceAvg`. */
    record Position(String category, String symbol, String marginCoin, String posSide, String holdMode, String marginMode,
                    String leverage, String size, String available, String frozen, String marginSize, String avgPrice,
                    String openPriceAvg, String markPrice, String unrealisedPnl, String liqPrice, String profitRate, String mmr,
                    String positionStatus, String createdTime, String updatedTime) {}

    static Position position(PositionService.Valuation v) {
        io.tas.position.Position p = v.position();
        BigDecimal rate = p.marginSize().signum() == 0 ? BigDecimal.ZERO : v.unrealizedPL().divide(p.marginSize(), PositionMath.MC);
        String avg = Json.plain(PositionMath.round(p.openPriceAvg()));
        return new Position(lower(p.category().wire()), p.symbol(), p.marginCoin(), p.holdSide().wire(), p.posMode().name(),
                p.marginMode().name(), Json.plain(p.leverage()), Json.plain(p.size()), Json.plain(p.available()), Json.plain(p.locked()),
                Json.plain(PositionMath.round(p.marginSize())), avg, avg, Json.plain(v.markPrice()),
                Json.plain(PositionMath.round(v.unrealizedPL())), Json.plain(PositionMath.round(v.liquidationPrice())),
                Json.plain(PositionMath.round(rate)), Json.plain(v.keepMarginRate()), "normal", Long.toString(p.createdTime()),
                Long.toString(p.updatedTime()));
    }

    record Fee(String feeCoin, String fee) {}

    record Order(String category, String symbol, String orderId, String clientOid, String price, String qty, String orderType,
                 String timeInForce, String side, String holdMode, String posSide, String tradeSide, String marginMode,
                 String marginCoin, String reduceOnly, String cumExecQty, String cumExecValue, String avgPrice, String orderStatus,
                 String cancelReason, String leverage, List<Fee> feeDetail, String createdTime, String updatedTime, String stpMode) {}

    static Order order(TradeOrder o) {
        boolean filled = o.cumExecQty().signum() > 0;
        return new Order(lower(o.category().wire()), o.symbol(), Long.toString(o.orderId()), o.clientOid() == null ? "" : o.clientOid(),
                o.price() == null ? "0" : Json.plain(o.price()), Json.plain(o.qty()), o.orderType(), o.timeInForce(), o.side(), o.holdMode(),
                o.isFutures() ? (o.posSide() == null ? "net" : o.posSide()) : "", o.tradeSide() == null ? "" : o.tradeSide(),
                o.marginMode() == null ? "" : o.marginMode(), o.isFutures() ? o.frozenCoin() : "", o.reduceOnly() ? "yes" : "no",
                Json.plain(o.cumExecQty()), Json.plain(o.cumExecValue()),
                filled ? Json.plain(o.avgPrice().setScale(io.tas.ledger.Ledger.SCALE, java.math.RoundingMode.HALF_EVEN)) : "0",
                o.status(), o.cancelReason() == null ? "" : o.cancelReason(), o.leverage() == null ? "" : Json.plain(o.leverage()),
                List.of(filled ? new Fee(o.feeCoin(), Json.plain(o.fee())) : new Fee("", "")), Long.toString(o.cTime()),
                Long.toString(o.uTime()), "none");
    }

    /** ccxt resolves the market of a UTA fill by its `category`; the fee is positive (ccxt takes its absolute value). */
    record Fill(String category, String symbol, String orderId, String clientOid, String execId, String execLinkId, String execPrice,
                String execQty, String execValue, String execPnl, String side, String orderType, String tradeScope, String tradeSide,
                String holdSide, List<Fee> feeDetail, String execTime, String updatedTime) {}

    static Fill fill(io.tas.spot.SpotFill f, TradeOrder o) {
        String id = Long.toString(f.tradeId());
        return new Fill(lower(o.category().wire()), f.symbol(), Long.toString(f.orderId()), o.clientOid() == null ? "" : o.clientOid(), id, id,
                Json.plain(f.priceAvg()), Json.plain(f.size()), Json.plain(f.amount()), Json.plain(f.execPnl()), f.side(), f.orderType(),
                f.tradeScope(), o.tradeSide() == null ? "" : o.tradeSide(), o.isFutures() ? (o.posSide() == null ? "net" : o.posSide()) : "",
                List.of(new Fee(f.feeCoin(), Json.plain(f.totalFee().abs()))), Long.toString(f.cTime()), Long.toString(f.uTime()));
    }

    record TickerView(String symbol, String lastPrice, String ask1Price, String ask1Size, String bid1Price, String bid1Size,
                      String openPrice24h, String highPrice24h, String lowPrice24h, String price24hPcnt, String volume24h,
                      String turnover24h, String indexPrice, String markPrice, String fundingRate, String openInterest, String ts) {}

    static TickerView ticker(Ticker t) {
        return new TickerView(t.symbol(), s(t.lastPrice()), s(t.ask1Price()), s(t.ask1Size()), s(t.bid1Price()), s(t.bid1Size()),
                s(t.openPrice24h()), s(t.highPrice24h()), s(t.lowPrice24h()), s(t.price24hPcnt()), s(t.volume24h()), s(t.turnover24h()),
                s(t.indexPrice()), s(t.markPrice()), s(t.fundingRate()), s(t.openInterest()), Long.toString(t.ts()));
    }

    /** books1/5/15/50 (UTA, as ccxt.pro reads them): a and b as [price, size] strings; no checksum, as on UTA books. */
    record BookView(List<List<String>> a, List<List<String>> b, String seq, String ts) {}

    static BookView book(io.tas.trade.TradingService.Book book, int depth) {
        return new BookView(levels(book.asks(), depth), levels(book.bids(), depth), Long.toString(book.ts()), Long.toString(book.ts()));
    }

    private static List<List<String>> levels(List<BigDecimal[]> levels, int depth) {
        return levels.stream().limit(depth).map(l -> List.of(Json.plain(l[0]), Json.plain(l[1]))).toList();
    }

    private static String s(BigDecimal v) { return v == null ? "" : Json.plain(v); }

    static String lower(String s) { return s.toLowerCase(Locale.ROOT); }
}
