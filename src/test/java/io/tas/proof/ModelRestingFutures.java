package io.tas.proof;

import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference model's resting futures limit orders, of both families: the v3 rows' (unified accounts) and the classic
 * v2 rows' (ModelClassic translates those). The simulation places them far from the mark (half or one and a half of it,
 * on the USDT contracts), so they rest and never fill: the model keeps what each freezes (margin at the side's leverage
 * and the taker fee at its price, D157) until a cancel or a modify changes it (D175, D179).
 */
final class ModelRestingFutures {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private final RefModel m;
    /** Working futures limit orders, in placement order. */
    final List<Order> orders = new ArrayList<>();

    ModelRestingFutures(RefModel m) { this.m = m; }

    /** A resting futures limit order of the model: its leverage is the side's at placement. */
    static final class Order {
        final SimWorld.Acct owner;
        final boolean classic;
        final String id, clientOid, category, symbol;
        BigDecimal price, qty, frozen;
        final BigDecimal leverage;

        Order(SimWorld.Acct owner, boolean classic, String id, String clientOid, String category, String symbol, BigDecimal price,
              BigDecimal qty, BigDecimal leverage, BigDecimal frozen) {
            this.owner = owner;
            this.classic = classic;
            this.id = id;
            this.clientOid = clientOid;
            this.category = category;
            this.symbol = symbol;
            this.price = price;
            this.qty = qty;
            this.leverage = leverage;
            this.frozen = frozen;
        }
    }

    /** What a place-order line asks for, in the v3 terms both families' rows come to. */
    record Place(String category, String symbol, String side, boolean opens, boolean reduceOnly, String clientOid, BigDecimal price, BigDecimal qty) {}

    List<Order> of(SimWorld.Acct owner, boolean classic) {
        return orders.stream().filter(o -> o.owner == owner && o.classic == classic).toList();
    }

    /** A limit order on a futures contract: refused as the engine would, or resting with its freeze. */
    void place(ModelAccount a, boolean classic, String what, Place p, Reply r) {
        RefModel.Contract c = m.contracts.get(p.symbol());
        RefModel.Verdict v;
        BigDecimal leverage = null, frozen = null;
        if (a.unified == classic) v = RefModel.Verdict.refuse("the other family's row");
        else if (c == null || c.inverse() || !c.category().equals(p.category())) v = RefModel.Verdict.refuse("not a USDT contract");
        else if (!List.of("buy", "sell").contains(String.valueOf(p.side()))) v = RefModel.Verdict.refuse("bad side");
        else if (a.hedge && !p.opens()) v = RefModel.Verdict.refuse("hedge mode: only opens rest here");
        else if (!a.hedge && p.reduceOnly()) v = RefModel.Verdict.refuse("reduce-only: not modelled as resting");
        else if (!valid(p.price(), p.qty())) v = RefModel.Verdict.refuse("bad size or price");
        else if (p.clientOid() != null && used(a, p.clientOid())) v = RefModel.Verdict.refuse("a used clientOid");
        else {
            leverage = a.config(c).leverage(p.side().equals("buy") ? "long" : "short");
            frozen = freeze(p.price(), p.qty(), leverage);
            v = a.unified("USDT").available.compareTo(frozen) < 0 ? RefModel.Verdict.refuse("insufficient margin (40762, 25203)") : RefModel.Verdict.accept("");
        }
        if (!m.settle(what, v, r)) return;
        move(a, frozen);
        orders.add(new Order(a.acct, classic, r.data().path("orderId").asText(), p.clientOid(), c.category(), c.symbol(), p.price(), p.qty(), leverage, frozen));
        m.event((classic ? "classic-" : "") + "futures-order-rests");
    }

    /** Whole prices and at most 4 quantity decimals: what the simulation's far prices and sizes are. */
    private static boolean valid(BigDecimal price, BigDecimal qty) {
        return qty != null && qty.signum() > 0 && qty.stripTrailingZeros().scale() <= 4 && price != null && price.signum() > 0
                && price.stripTrailingZeros().scale() <= 0;
    }

    /** The engine keys clientOids per account across every order it has (ModelOrders' spot ones too). */
    private boolean used(ModelAccount a, String clientOid) {
        return orders.stream().anyMatch(o -> o.owner == a.acct && clientOid.equals(o.clientOid))
                || m.orders.lookup(a, JSON.createObjectNode().put("clientOid", clientOid)) != null;
    }

    /** Margin at the order's leverage plus the taker fee, at its price (FuturesSettlement.freeze, linear contracts). */
    static BigDecimal freeze(BigDecimal price, BigDecimal qty, BigDecimal leverage) {
        return ModelFormulas.ledger(ModelFormulas.initialMargin(false, qty, price, leverage))
                .add(ModelFormulas.ledger(price.multiply(qty).multiply(ModelOrders.TAKER)).stripTrailingZeros()).stripTrailingZeros();
    }

    /** One of the caller's own orders of that family, by orderId (wins) or clientOid; null when none. */
    Order find(ModelAccount a, boolean classic, String id, String clientOid) {
        return orders.stream().filter(o -> o.owner == a.acct && o.classic == classic
                        && (id != null ? o.id.equals(id) : clientOid != null && clientOid.equals(o.clientOid)))
                .findFirst().orElse(null);
    }

    /** A cancel of o (null: none found); `matches` says whether the row's symbol and category filters are o's. */
    void cancel(ModelAccount a, boolean classic, String what, Order o, boolean matches, Reply r) {
        RefModel.Verdict v = a.unified == classic ? RefModel.Verdict.refuse("the other family's row")
                : o == null || !matches ? RefModel.Verdict.refuse("no such working order (40768, 25204)") : RefModel.Verdict.accept("");
        if (!m.settle(what, v, r)) return;
        release(o);
        m.event((classic ? "classic-" : "") + "futures-order-cancelled");
    }

    /** Cancels every listed order; the row's answer must list as many. */
    void cancelAll(ModelAccount a, boolean classic, String what, List<Order> which, int answered, Reply r) {
        if (!m.settle(what, a.unified == classic ? RefModel.Verdict.refuse("the other family's row") : RefModel.Verdict.accept(""), r)) return;
        if (answered != which.size()) m.fail(what + " cancelled " + answered + "; the model has " + which.size());
        which.forEach(this::release);
    }

    /** modify-order: a new price and/or size; the freeze is recomputed at the order's leverage (D157). */
    void modify(ModelAccount a, boolean classic, String what, Order o, boolean matches, BigDecimal price, BigDecimal qty, Reply r) {
        RefModel.Verdict v;
        BigDecimal frozen = null;
        if (a.unified == classic) v = RefModel.Verdict.refuse("the other family's row");
        else if (o == null || !matches) v = RefModel.Verdict.refuse("no such working order (40768, 25204)");
        else if (price == null && qty == null) v = RefModel.Verdict.refuse("nothing to modify");
        else {
            BigDecimal p = price != null ? price : o.price, q = qty != null ? qty : o.qty;
            if (p.compareTo(o.price) == 0 && q.compareTo(o.qty) == 0) v = RefModel.Verdict.refuse("unchanged (25571)");
            else if (!valid(p, q)) v = RefModel.Verdict.refuse("bad size or price");
            else {
                frozen = freeze(p, q, o.leverage);
                v = a.unified("USDT").available.compareTo(frozen.subtract(o.frozen)) < 0 ? RefModel.Verdict.refuse("insufficient margin") : RefModel.Verdict.accept("");
            }
        }
        if (!m.settle(what, v, r)) return;
        move(a, frozen.subtract(o.frozen));
        o.frozen = frozen;
        if (price != null) o.price = price;
        if (qty != null) o.qty = qty;
        m.event((classic ? "classic-" : "") + "futures-order-modified");
    }

    private void release(Order o) {
        move(m.accounts.get(o.owner), o.frozen.negate());
        orders.remove(o);
    }

    /** Freezes (amount > 0) or releases (< 0) margin of the account's unified USDT. */
    private void move(ModelAccount a, BigDecimal amount) {
        ModelAccount.Bal held = a.unified("USDT");
        held.available = held.available.subtract(amount);
        held.frozen = held.frozen.add(amount);
        m.changed.add(a.acct);
    }
}
