package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.proof.ModelAccount.Bal;
import io.tas.proof.RefModel.Verdict;
import io.tas.proof.SimWorld.Acct;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.tas.proof.RefModel.dec;

/**
 * The reference model's Reality orders (§4.7, D81 to D83): placement freezes, fills against the Reality pair's ticker
 * (taker at placement, maker at its own price on a later ticker, oldest first, sharing the level's size), fees in the
 * coin received or, with deduction on, in the platform token; cancel releases what is still frozen.
 */
final class ModelReality {
    /** D72/D83: 0.1 % maker and taker. */
    static final BigDecimal RATE = new BigDecimal("0.001");

    private static final class Order {
        final Acct owner;
        final String id, clientOid, category;
        final boolean buy, market;
        final BigDecimal qty, price;
        BigDecimal frozen, filledQty = BigDecimal.ZERO;

        Order(Acct owner, String id, String clientOid, String category, boolean buy, boolean market, BigDecimal qty, BigDecimal price) {
            this.owner = owner;
            this.id = id;
            this.clientOid = clientOid;
            this.category = category;
            this.buy = buy;
            this.market = market;
            this.qty = qty;
            this.price = price;
        }

        String frozenCoin() { return buy ? "USDT" : "AAPLX"; }
    }

    private final RefModel m;
    /** Working orders (live or partially filled) in placement order, which is orderId order. */
    private final List<Order> working = new ArrayList<>();
    private final Map<String, Order> byId = new HashMap<>();
    private final Map<String, Order> byClientOid = new HashMap<>();
    private BigDecimal ask, bid, askSize, bidSize;

    ModelReality(RefModel m) { this.m = m; }

    int working(Acct a) { return (int) working.stream().filter(o -> o.owner == a).count(); }

    /** A ticker of the Reality pair: resting orders it crosses fill as makers at their own price (D82). */
    void ticker(JsonNode t) {
        ask = dec(t.get("ask1Price"));
        bid = dec(t.get("bid1Price"));
        askSize = dec(t.get("ask1Size"));
        bidSize = dec(t.get("bid1Size"));
        BigDecimal[] askLeft = {level(askSize)}, bidLeft = {level(bidSize)};
        for (Order o : new ArrayList<>(working)) {
            BigDecimal[] left = o.buy ? askLeft : bidLeft;
            if (left[0] != null && left[0].signum() <= 0) continue; // the level is used up
            BigDecimal size = crossing(o, left[0]);
            if (size == null) continue;
            execute(o, o.price, size);
            m.changed.add(o.owner);
            m.event("reality-maker-fill");
            if (left[0] != null) left[0] = left[0].subtract(size).max(BigDecimal.ZERO);
        }
    }

    void place(ModelAccount a, JsonNode b, Reply r) {
        String category = b.path("category").asText("SPOT"), side = b.path("side").asText(), type = b.path("orderType").asText();
        String clientOid = b.has("clientOid") ? b.get("clientOid").asText() : null;
        BigDecimal qty = dec(b.get("qty")), price = dec(b.get("price"));
        boolean buy = side.equals("buy"), market = type.equals("market");
        Order earlier = clientOid == null ? null : byClientOid.get(a.acct.name() + " " + clientOid);
        BigDecimal frozen = qty == null ? null : buy ? (market || price == null ? qty : price.multiply(qty)) : qty;
        Verdict v;
        if (!a.unified || !a.realityAllowed) v = Verdict.refuse("a classic account, or one not on the allow-list");
        else if (earlier != null) v = earlier.category.equals(category) && earlier.buy == buy && earlier.market == market && earlier.qty.compareTo(qty) == 0
                && (earlier.price == null ? price == null : price != null && earlier.price.compareTo(price) == 0)
                ? Verdict.accept("a replay of " + clientOid) : Verdict.refuse("clientOid " + clientOid + " with other parameters");
        else if (!b.path("symbol").asText().equals(SimWorld.REALITY) || !List.of("buy", "sell").contains(side) || !List.of("limit", "market").contains(type)
                || !List.of("SPOT", "MARGIN").contains(category)) v = Verdict.refuse("not a Reality order");
        else if (qty == null || qty.signum() <= 0 || (!market && (price == null || price.signum() <= 0))) v = Verdict.refuse("bad qty or price");
        else if ((market ? (buy ? qty : qty.multiply(bid)) : price.multiply(qty)).compareTo(BigDecimal.ONE) < 0) v = Verdict.refuse("below the 1 USDT minimum (D82)");
        else if (market && buy && baseFor(qty, ask).signum() == 0) v = Verdict.refuse("buys less than one quantity step");
        else if (a.unified(buy ? "USDT" : "AAPLX").available.compareTo(frozen) < 0) v = Verdict.insufficient(buy ? "USDT" : "AAPLX");
        else v = Verdict.accept("");
        if (!m.settle("place-reality-order " + b, v, r)) return;
        if (earlier != null) {
            if (!r.data().path("orderId").asText().equals(earlier.id)) m.fail("a replay of " + clientOid + " answered " + r.raw() + ", not order " + earlier.id);
            return;
        }
        Order o = new Order(a.acct, r.data().get("orderId").asText(), clientOid, category, buy, market, qty, price);
        o.frozen = frozen;
        Bal hold = a.unified(o.frozenCoin());
        hold.available = hold.available.subtract(frozen);
        hold.frozen = hold.frozen.add(frozen);
        byId.put(a.acct.name() + " " + o.id, o);
        if (clientOid != null) byClientOid.put(a.acct.name() + " " + clientOid, o);
        working.add(o);
        // A market order, or a limit order that crosses the book, fills at once as taker at the best price (D82).
        BigDecimal size = crossing(o, level(buy ? askSize : bidSize));
        if (size != null) {
            execute(o, buy ? ask : bid, size);
            m.event("reality-taker-fill");
        } else if (market) {
            m.fail("market order " + o.id + " did not fill at placement");
        }
    }

    void cancel(ModelAccount a, JsonNode b, Reply r) {
        String orderId = b.has("orderId") ? b.get("orderId").asText() : null;
        Order o = orderId != null ? byId.get(a.acct.name() + " " + orderId)
                : b.has("clientOid") ? byClientOid.get(a.acct.name() + " " + b.get("clientOid").asText()) : null;
        Verdict v;
        if (!a.unified) v = Verdict.refuse("a classic account");
        else if (o == null || !b.path("symbol").asText().equals(SimWorld.REALITY)) v = Verdict.refuse("no such order of this account and symbol");
        else if (!working.contains(o)) v = Verdict.refuse("order " + o.id + " is no longer working");
        else v = Verdict.accept("");
        if (!m.settle("cancel-reality-order " + b, v, r)) return;
        Bal hold = a.unified(o.frozenCoin());
        hold.frozen = hold.frozen.subtract(o.frozen);
        hold.available = hold.available.add(o.frozen);
        o.frozen = BigDecimal.ZERO;
        working.remove(o);
    }

    /** The size an order fills against the best price and what is left of its level (null: no limit), or null. */
    private BigDecimal crossing(Order o, BigDecimal levelLeft) {
        BigDecimal p = o.buy ? ask : bid;
        if (p == null || p.signum() <= 0) return null;
        if (o.market) return o.buy ? baseFor(o.qty, p) : o.qty;
        if (o.buy ? o.price.compareTo(p) < 0 : o.price.compareTo(p) > 0) return null;
        BigDecimal size = o.qty.subtract(o.filledQty);
        if (levelLeft != null && levelLeft.compareTo(size) < 0) size = levelLeft.setScale(4, RoundingMode.DOWN);
        return size.signum() > 0 ? size : null;
    }

    /**
     * One fill (D82, D83): the freeze it used goes back (all that is left when the order completes), the coins are
     * exchanged, and the fee is paid from the coin received, or in the platform token when deduction is on, the token is
     * priced, its fee is above 0 at 12 decimals and the token's available balance covers it.
     */
    private void execute(Order o, BigDecimal price, BigDecimal size) {
        ModelAccount a = m.account(o.owner);
        BigDecimal amount = price.multiply(size);
        o.filledQty = o.filledQty.add(size);
        boolean done = o.market || o.filledQty.compareTo(o.qty) == 0;
        BigDecimal release = done ? o.frozen : (o.buy ? o.price.multiply(size) : size);
        Bal hold = a.unified(o.frozenCoin()), base = a.unified("AAPLX"), quote = a.unified("USDT");
        hold.frozen = hold.frozen.subtract(release);
        hold.available = hold.available.add(release);
        o.frozen = o.frozen.subtract(release);
        (o.buy ? quote : base).available = (o.buy ? quote : base).available.subtract(o.buy ? amount : size);
        Bal received = o.buy ? base : quote;
        received.available = received.available.add(o.buy ? size : amount);
        BigDecimal tokenPrice = m.prices.get(RefModel.TOKEN);
        BigDecimal tokenFee = a.deduct && tokenPrice != null ? ModelFormulas.tokenFee(amount, m.prices.get("USDT"), RATE, tokenPrice) : BigDecimal.ZERO;
        Bal token = a.unified(RefModel.TOKEN);
        if (tokenFee.signum() > 0 && token.available.compareTo(tokenFee) >= 0) {
            token.available = token.available.subtract(m.charged(tokenFee));
            m.event("reality-fee-in-" + RefModel.TOKEN);
        } else {
            received.available = received.available.subtract(m.charged(ModelFormulas.fillFee(o.buy ? size : amount, RATE)));
        }
        if (done) working.remove(o);
        if (o.frozen.signum() < 0) m.fail("order " + o.id + " released more than it froze");
    }

    private static BigDecimal level(BigDecimal size) { return size == null || size.signum() <= 0 ? null : size; }

    /** A market buy's base size: floor4(quote qty / ask) (D82). */
    private static BigDecimal baseFor(BigDecimal quoteQty, BigDecimal ask) { return quoteQty.divide(ask, 4, RoundingMode.DOWN); }
}
