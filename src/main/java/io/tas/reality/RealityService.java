package io.tas.reality;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.Ticker;
import io.tas.trade.TradeOrder;
import io.tas.trade.TradingService;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * §4.7 Reality (tokenised stock) orders of unified accounts (issue 10): the rows' own checks and codes (D81, D82), then
 * the order goes to the matching engine as the SPOT order it is (D223). It rests in the pair's one book with every other
 * account's spot orders, matches by price-time priority and walks the synthetic levels, and crossing ticker moves fill
 * it, by the engine's rules (docs/engine.md); freezes, fills, fees and pushes are the engine's.
 */
public final class RealityService {
    static final int MAX_CLIENT_OID = 64;
    /**
     * D72/D82: the price decimals Reality orders are validated with are at most 18 - 4: a price x a quantity (4 decimals)
     * then always fits the ledger's 18 decimals, whatever decimals an admin's ticker carries.
     */
    static final int MAX_PRICE_DECIMALS = Ledger.SCALE - Instrument.QUANTITY_DECIMALS;
    /** D72's minimum order value of a spot pair, in the quote coin. */
    static final BigDecimal MIN_NOTIONAL = BigDecimal.ONE;
    /** The admin view shows an account's newest Reality orders. */
    private static final int ADMIN_ROWS = 100;

    private final MarketService market;
    private final TradingService trading;

    public RealityService(MarketService market, TradingService trading) {
        this.market = market;
        this.trading = trading;
    }

    /** Command: §4.7 place-reality-order, parsed. price is null for market orders. */
    public record Place(long uid, String category, String symbol, String side, String orderType, BigDecimal qty, BigDecimal price,
                        String clientOid) {}

    /** Command: §4.7 cancel-reality-order; orderId wins over clientOid. */
    public record Cancel(long uid, String category, String symbol, Long orderId, String clientOid) {}

    /** §2.22. */
    public record Result(long orderId, String clientOid) {
        static Result of(TradingService.Result r) { return new Result(r.orderId(), r.clientOid()); }

        static Result of(TradeOrder o) { return new Result(o.orderId(), o.clientOid() == null ? "" : o.clientOid()); }
    }

    // --- placement

    public Result place(Place c) {
        // A repeat of a placed order answers the first result and changes nothing (DESIGN: idempotency). Looked up before
        // the checks that depend on the tickers (decimals, minimum): a retry of an accepted order replays, not refused.
        if (c.clientOid() != null) {
            Optional<TradeOrder> earlier = trading.byClientOid(c.uid(), c.clientOid());
            if (earlier.isPresent()) return replay(earlier.get(), c);
        }
        Instrument inst = realityPair(c.symbol());
        boolean buy = c.side().equals("buy");
        boolean marketOrder = c.orderType().equals("market");
        // §4.7: a market buy's qty is quote coin; limit orders and market sells are base coin. D82: at most 14 price decimals.
        int pricePrecision = Math.min(market.pricePrecision(inst), MAX_PRICE_DECIMALS);
        BigDecimal qty = decimals("qty", positive("qty", c.qty()), marketOrder && buy ? pricePrecision : Instrument.QUANTITY_DECIMALS);
        BigDecimal price = null;
        if (!marketOrder) {
            if (c.price() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "price");
            price = decimals("price", positive("price", c.price()), pricePrecision);
            // Every limit order's value must be a ledger amount (40808), a sell's too: its fills are worth price x qty.
            Ledger.checkAmount("price x qty", price.multiply(qty));
        }
        Optional<Ticker> ticker = market.ticker(Category.SPOT, inst.symbol());
        Optional<BigDecimal> best = ticker.map(t -> buy ? t.ask1Price() : t.bid1Price()).filter(p -> p != null && p.signum() > 0);
        // D82 minimum order value, in the quote coin: a limit order's price x qty, a market buy's qty (quote coin), a
        // market sell's qty x the best bid when there is one.
        BigDecimal value = marketOrder ? (buy ? qty : best.map(qty::multiply).orElse(null)) : price.multiply(qty);
        if (value != null && value.compareTo(MIN_NOTIONAL) < 0) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "order value is below the minimum " + MIN_NOTIONAL + " " + inst.quoteCoin());
        }
        // D81: a market order needs the ticker's best bid/ask on its side (the engine's levels would fall back to the last price).
        if (marketOrder && best.isEmpty()) throw new ApiException(ErrorCode.PRICE_UNAVAILABLE, inst.symbol());
        // D223: a SPOT order of the engine, good till cancelled; a MARGIN one trades the SPOT pair too (D82).
        TradingService.Place order = new TradingService.Place(c.uid(), Category.SPOT, inst.symbol(), c.side(), c.orderType(), "gtc", qty,
                price, c.clientOid(), null, false, false, true);
        try {
            return Result.of(trading.place(order));
        } catch (ApiException e) {
            throw realityCode(e, c, inst);
        }
    }

    /**
     * The engine's refusals that D81/D82 answer with another code: a clientOid used with other parameters (a concurrent
     * send the engine re-checked under its lock) and a budget under one step 40017, decimals 40808, no liquidity for a
     * market order 40098; the rest (25202, 40017 for a constraint, 25211 the open-order limit) are the same on both rows.
     */
    private static ApiException realityCode(ApiException e, Place c, Instrument inst) {
        return switch (e.error()) {
            case DUPLICATE_CLIENT_OID -> usedWithOtherParameters(c);
            case BELOW_MIN_QTY -> new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, lessThanOneStep(inst));
            case QTY_PRECISION, PRICE_STEP -> new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, "qty or price decimals");
            case INSUFFICIENT_LIQUIDITY -> new ApiException(ErrorCode.PRICE_UNAVAILABLE, inst.symbol());
            default -> e;
        };
    }

    private static String lessThanOneStep(Instrument inst) {
        return "qty buys less than " + BigDecimal.ONE.movePointLeft(Instrument.QUANTITY_DECIMALS).toPlainString() + " " + inst.baseCoin();
    }

    /**
     * The same payload under a clientOid answers the first order; another payload is refused and changes nothing. D223:
     * SPOT and MARGIN are one order on one book, so category is not compared; an order of the other rows is another payload.
     */
    private static Result replay(TradeOrder o, Place c) {
        boolean same = o.reality() && o.symbol().equals(c.symbol()) && o.side().equals(c.side())
                && o.orderType().equals(c.orderType()) && o.qty().compareTo(c.qty()) == 0
                && (o.price() == null ? c.price() == null : c.price() != null && o.price().compareTo(c.price()) == 0);
        if (!same) throw usedWithOtherParameters(c);
        return Result.of(o);
    }

    private static ApiException usedWithOtherParameters(Place c) {
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "clientOid " + c.clientOid() + " was already used with different parameters");
    }

    // --- cancel

    public Result cancel(Cancel c) {
        // D81: the order is found by the account and its orderId/clientOid, not through the pair's registry entry: an
        // order stays cancellable (its freeze releasable) after its pair lost the Reality flag. The symbol must be the
        // order's; only Reality orders are found here (D223).
        TradingService.Lookup lookup = new TradingService.Lookup(c.uid(), c.orderId(), c.orderId() != null ? null : c.clientOid());
        TradeOrder o = trading.lookup(lookup).filter(x -> x.reality() && x.symbol().equals(c.symbol()))
                .orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, c.orderId() != null ? "orderId" : "clientOid"));
        if (!o.isWorking()) throw finished(o.orderId(), o.status());
        try {
            // The engine's cancel, under the book lock: it releases what the order still holds frozen.
            trading.cancel(new TradingService.Lookup(c.uid(), o.orderId(), null), o.symbol());
        } catch (ApiException e) {
            // Filled meanwhile (a taker or a ticker move came first): finished, as above.
            if (e.error() == ErrorCode.ORDER_NOT_EXIST) throw finished(o.orderId(), "filled");
            throw e;
        }
        return Result.of(o);
    }

    private static ApiException finished(long orderId, String status) {
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "order " + orderId + " is " + status + " and cannot be cancelled");
    }

    /** The admin view of an account's Reality orders, newest first. */
    public List<TradeOrder> orders(long uid) { return trading.realityOrders(uid, ADMIN_ROWS); }

    // --- helpers

    /** §4.7: only Reality pairs; any other symbol, known or not, is not a pair of these rows (25100). */
    private Instrument realityPair(String symbol) {
        Instrument i = market.instrument(Category.SPOT, symbol);
        if (!i.reality()) throw new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol);
        return i;
    }

    private static BigDecimal positive(String name, BigDecimal v) {
        Ledger.checkAmount(name, v);
        if (v.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    /** At most the instrument's decimals (the platform's checkBDScale answer, 40808). */
    private static BigDecimal decimals(String name, BigDecimal v, int scale) {
        if (v.stripTrailingZeros().scale() > scale) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, name + " checkBDScale error value=" + v.toPlainString() + " checkScale=" + scale);
        }
        return v;
    }
}
