package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.proof.ModelOrders.Level;
import io.tas.proof.ModelOrders.Order;
import io.tas.proof.RefModel.Verdict;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.List;

import static io.tas.proof.RefModel.dec;

/**
 * The reference model's Reality orders (§4.7, D81 to D83, D223): the rows' own verdicts (allow-list, a clientOid replay
 * before any check, the Reality pair only, the 1 USDT minimum with a market sell at the best bid), then a SPOT order of
 * ModelOrders' book of the Reality pair, good till cancelled: it trades and rests by the engine's rules there (resting
 * orders of every account, the synthetic levels, a crossing ticker's sweep), with the engine's fees.
 */
final class ModelReality {
    private final RefModel m;

    ModelReality(RefModel m) { this.m = m; }

    private ModelOrders orders() { return m.orders; }

    int working(SimWorld.Acct a) { return orders().working(a, true); }

    /** The IDs of a's working Reality orders (the simulation cancels these most often: most others filled at once). */
    List<String> workingIds(SimWorld.Acct a) {
        return orders().working.stream().filter(o -> o.owner == a && o.reality).map(o -> o.id).toList();
    }

    void place(ModelAccount a, JsonNode b, Reply r) {
        String category = b.path("category").asText("SPOT"), side = b.path("side").asText(), type = b.path("orderType").asText();
        String clientOid = b.has("clientOid") ? b.get("clientOid").asText() : null;
        String symbol = b.path("symbol").asText();
        BigDecimal qty = dec(b.get("qty")), price = dec(b.get("price"));
        boolean buy = side.equals("buy"), market = type.equals("market");
        Order earlier = orders().byClientOid(a.acct, clientOid);
        BigDecimal[] best = bestPrices();
        Verdict v;
        if (!a.unified || !a.realityAllowed) v = Verdict.refuse("a classic account, or one not on the allow-list");
        // D223: SPOT and MARGIN are one order on one book: a replay does not compare the category; another row's order is another payload.
        else if (earlier != null) v = earlier.reality && earlier.symbol.equals(symbol) && earlier.side.equals(side) && earlier.type.equals(type)
                && earlier.qty.compareTo(qty) == 0 && (earlier.price == null ? price == null || market : price != null && earlier.price.compareTo(price) == 0)
                ? Verdict.accept("a replay of " + clientOid) : Verdict.refuse("clientOid " + clientOid + " with other parameters");
        else if (!symbol.equals(SimWorld.REALITY) || !List.of("buy", "sell").contains(side) || !List.of("limit", "market").contains(type)
                || !List.of("SPOT", "MARGIN").contains(category)) v = Verdict.refuse("not a Reality order");
        else if (qty == null || qty.signum() <= 0 || (!market && (price == null || price.signum() <= 0))) v = Verdict.refuse("bad qty or price");
        else if ((market ? (buy ? qty : qty.multiply(best[1])) : price.multiply(qty)).compareTo(BigDecimal.ONE) < 0) v = Verdict.refuse("below the 1 USDT minimum (D82)");
        else v = null;
        if (v != null) {
            if (!m.settle("place-reality-order " + b, v, r) || earlier == null) return;
            if (!r.data().path("orderId").asText().equals(earlier.id)) m.fail("a replay of " + clientOid + " answered " + r.raw() + ", not order " + earlier.id);
            return;
        }
        Order o = new Order(a.acct, null, clientOid, side, type, "gtc", market ? null : price, qty, "unified", SimWorld.REALITY, true);
        List<Level> fills = ModelOrders.walk(orders().book(SimWorld.REALITY, buy, market ? null : price), market && buy ? null : qty, market && buy ? qty : null);
        BigDecimal frozen = buy ? ModelFormulas.ledger(market ? qty : price.multiply(qty)).stripTrailingZeros() : qty;
        if (market && buy && fills.isEmpty()) v = Verdict.refuse("the budget buys less than one step (40017)");
        else if (a.unified(o.frozenCoin()).available.compareTo(frozen) < 0) v = Verdict.insufficient(o.frozenCoin());
        else v = Verdict.accept("");
        if (!m.settle("place-reality-order " + b, v, r)) return;
        orders().trade(orders().placed(a, r, o), frozen, fills, !market);
        m.event(fills.isEmpty() ? "reality-rests" : "reality-taker-fill");
    }

    /** The Reality pair's ticker ask and bid (the sim's tickers always carry both). */
    private BigDecimal[] bestPrices() { return orders().bestAskBid(SimWorld.REALITY); }

    void cancel(ModelAccount a, JsonNode b, Reply r) {
        Order o = orders().lookup(a, b); // orderId wins over clientOid
        Verdict v;
        if (!a.unified) v = Verdict.refuse("a classic account");
        else if (o == null || !o.reality || !b.path("symbol").asText().equals(o.symbol)) v = Verdict.refuse("no such Reality order of this account and symbol");
        else if (!o.working) v = Verdict.refuse("order " + o.id + " is no longer working");
        else v = Verdict.accept("");
        if (!m.settle("cancel-reality-order " + b, v, r)) return;
        orders().end(o);
    }
}
