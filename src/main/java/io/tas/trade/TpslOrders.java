package io.tas.trade;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.market.Ticker;
import io.tas.position.Position;
import io.tas.position.Position.HoldSide;
import io.tas.position.PositionService;
import io.tas.store.Database;
import io.tas.strategy.StrategyInput;
import io.tas.strategy.StrategyOrder;
import io.tas.strategy.StrategyService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * Take-profit and stop-loss orders on a position (place-strategy-order, cancel-strategy-order): stored as the §2.19
 * strategy orders the existing history/unfilled rows serve, and triggered by the engine when the trigger price (the
 * mark price, or the last price for "market") reaches them: the position is then closed by a market or limit order
 * whose clientOid is derived from the strategy order, so a trigger seen twice (two nodes) places one order (D159).
 */
public final class TpslOrders {
    private static final Logger LOG = LoggerFactory.getLogger(TpslOrders.class);
    private final Database db;
    private final StrategyService strategies;
    private final PositionService positions;
    private final TradingService trading;

    public TpslOrders(Database db, StrategyService strategies, PositionService positions, TradingService trading) {
        this.db = db;
        this.strategies = strategies;
        this.positions = positions;
        this.trading = trading;
    }

    /** Command: place-strategy-order with tpsl fields; qty null = the whole position. */
    public record Place(long uid, Category category, String symbol, String posSide, BigDecimal qty, BigDecimal takeProfit,
                        BigDecimal stopLoss, String tpTriggerBy, String slTriggerBy, String tpOrderType, String slOrderType,
                        BigDecimal tpLimitPrice, BigDecimal slLimitPrice, String clientOid) {}

    public TradingService.Result place(Place c) {
        // uta/error-code: 25593 the trading type does not support TP/SL; 25601 no position.
        if (!c.category().isFutures()) throw new ApiException(ErrorCode.TPSL_UNSUPPORTED);
        if (c.takeProfit() == null && c.stopLoss() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "takeProfit,stopLoss");
        Position p = position(c.uid(), c.category(), c.symbol(), c.posSide())
                .orElseThrow(() -> new ApiException(ErrorCode.TPSL_NO_POSITION));
        boolean isLong = p.holdSide() == HoldSide.long_;
        BigDecimal entry = p.openPriceAvg();
        if (c.takeProfit() != null && (isLong ? c.takeProfit().compareTo(entry) <= 0 : c.takeProfit().compareTo(entry) >= 0)) {
            throw new ApiException(isLong ? ErrorCode.TP_LONG_ABOVE_ENTRY : ErrorCode.TP_SHORT_BELOW_ENTRY);
        }
        if (c.stopLoss() != null && (isLong ? c.stopLoss().compareTo(entry) >= 0 : c.stopLoss().compareTo(entry) <= 0)) {
            throw new ApiException(isLong ? ErrorCode.SL_LONG_BELOW_ENTRY : ErrorCode.SL_SHORT_ABOVE_ENTRY);
        }
        BigDecimal qty = c.qty() == null ? p.size() : c.qty();
        if (qty.compareTo(p.size()) > 0) throw new ApiException(ErrorCode.CLOSE_EXCEEDS_POSITION);
        StrategyInput in = new StrategyInput(null, c.clientOid(), c.category().wire(), "tpsl", p.symbol(), qty, p.holdSide().wire(), "pending",
                null, orMark(c.tpTriggerBy()), orMark(c.slTriggerBy()), c.takeProfit(), c.stopLoss(), orMarket(c.tpOrderType()),
                orMarket(c.slOrderType()), c.tpLimitPrice(), c.slLimitPrice(), null, null, null, null, null, null, null, null, null, null,
                null, null);
        StrategyOrder o = strategies.placeTpsl(c.uid(), in);
        return new TradingService.Result(o.orderId(), o.clientOid());
    }

    public TradingService.Result cancel(long uid, Long orderId, String clientOid) {
        if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId,clientOid");
        return db.tx(tx -> {
            StrategyOrder o = strategies.findOpen(tx, uid, orderId, clientOid)
                    .orElseThrow(() -> new ApiException(ErrorCode.STRATEGY_NOT_EXIST));
            strategies.finish(tx, uid, o.orderId(), "cancelled");
            return new TradingService.Result(o.orderId(), o.clientOid());
        });
    }

    /** A committed futures ticker: pending TP/SL orders of the symbol whose trigger it reaches close their positions. */
    public void onTicker(Ticker t) {
        if (!t.category().isFutures()) return;
        try {
            for (StrategyOrder o : strategies.pendingTpsl(t.category().wire(), t.symbol())) trigger(o, t);
        } catch (RuntimeException e) {
            LOG.warn("TP/SL triggers on the {} ticker failed: {}", t.symbol(), e.getClass().getSimpleName());
        }
    }

    private void trigger(StrategyOrder o, Ticker t) {
        boolean isLong = o.posSide().equals("long");
        boolean tp = o.takeProfit() != null && reached(price(t, o.tpTriggerBy()), o.takeProfit(), isLong);
        boolean sl = !tp && o.stopLoss() != null && reached(price(t, o.slTriggerBy()), o.stopLoss(), !isLong);
        if (!tp && !sl) return;
        Category category = Category.fromWire(o.category());
        Optional<Position> p = position(o.uid(), category, o.symbol(), o.posSide());
        try {
            if (p.isPresent()) {
                String type = tp ? o.tpOrderType() : o.slOrderType();
                BigDecimal limit = "limit".equals(type) ? (tp ? o.tpLimitPrice() : o.slLimitPrice()) : null;
                boolean hedge = p.get().posMode() == HoldMode.hedge_mode;
                trading.place(new TradingService.Place(o.uid(), category, o.symbol(), isLong ? "sell" : "buy", limit == null ? "market" : "limit",
                        "gtc", o.qty().min(p.get().size()), limit, "tpsl-" + o.orderId(), hedge ? o.posSide() : null, !hedge,
                        trading.classic(o.uid())));
            }
            db.tx(tx -> strategies.finish(tx, o.uid(), o.orderId(), p.isPresent() ? "success" : "cancelled"));
        } catch (ApiException e) {
            LOG.warn("TP/SL order {} on {} not executed: {}", o.orderId(), o.symbol(), e.getMessage());
            db.tx(tx -> strategies.finish(tx, o.uid(), o.orderId(), "failed"));
        }
    }

    /** Take profit of a long (stop loss of a short) triggers at or above its price; the other way round at or below. */
    private static boolean reached(BigDecimal price, BigDecimal trigger, boolean atOrAbove) {
        return price != null && (atOrAbove ? price.compareTo(trigger) >= 0 : price.compareTo(trigger) <= 0);
    }

    private static BigDecimal price(Ticker t, String by) {
        return "market".equals(by) || t.markPrice() == null ? t.lastPrice() : t.markPrice();
    }

    private Optional<Position> position(long uid, Category category, String symbol, String posSide) {
        return positions.open(uid).stream().filter(p -> p.category() == category && p.symbol().equals(symbol)
                && (posSide == null || p.holdSide().wire().equals(posSide))).findFirst();
    }

    private static String orMark(String by) { return by == null ? "mark" : by; }

    private static String orMarket(String type) { return type == null ? "market" : type; }
}
