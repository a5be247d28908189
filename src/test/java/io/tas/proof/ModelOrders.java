package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.proof.ModelAccount.Bal;
import io.tas.proof.ModelAccount.Position;
import io.tas.proof.RefModel.Contract;
import io.tas.proof.RefModel.Verdict;
import io.tas.proof.SimWorld.Acct;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static io.tas.proof.RefModel.dec;

/**
 * The reference model's engine orders (issue 25, docs/engine.md, D154 to D159), with its own arithmetic: spot orders on
 * SimWorld.ENGINE_SPOT and, placed by ModelReality, Reality orders on SimWorld.REALITY (D223), each pair one book, against
 * each other's resting orders (price-time) and the ticker's synthetic levels; futures market orders through the model's
 * positions; close-positions; TP/SL orders and their triggers. A ticker that crosses a resting order fills it in full as
 * the maker at its own price.
 */
final class ModelOrders {
    static final BigDecimal SPOT_RATE = new BigDecimal("0.001");
    static final BigDecimal MAKER = new BigDecimal("0.0002"), TAKER = new BigDecimal("0.0006");
    static final int LEVELS = 20;
    static final BigDecimal STEP_BPS = new BigDecimal("5");
    private static final Pattern CLIENT_OID = Pattern.compile("[.A-Z:/a-z0-9_-]{1,32}");
    private static final MathContext MC = new MathContext(34, RoundingMode.HALF_EVEN);

    /** One spot order of the engine as the model has it; reality: placed through the Reality rows (D223). */
    static final class Order {
        final Acct owner;
        final String id, clientOid, side, type, tif;
        /** The balances its money moves on: a classic account's spot order on its spot balances (D171). */
        final String wallet;
        final String symbol, base;
        final boolean reality;
        BigDecimal price, qty, cum = BigDecimal.ZERO, frozen = BigDecimal.ZERO;
        boolean working = true;

        Order(Acct owner, String id, String clientOid, String side, String type, String tif, BigDecimal price, BigDecimal qty, String wallet) {
            this(owner, id, clientOid, side, type, tif, price, qty, wallet, SimWorld.ENGINE_SPOT, false);
        }

        Order(Acct owner, String id, String clientOid, String side, String type, String tif, BigDecimal price, BigDecimal qty, String wallet,
              String symbol, boolean reality) {
            this.owner = owner;
            this.wallet = wallet;
            this.symbol = symbol;
            this.base = symbol.substring(0, symbol.length() - "USDT".length());
            this.reality = reality;
            this.id = id;
            this.clientOid = clientOid;
            this.side = side;
            this.type = type;
            this.tif = tif;
            this.price = price;
            this.qty = qty;
        }

        boolean buy() { return side.equals("buy"); }

        boolean quoteQty() { return buy() && type.equals("market"); }

        String frozenCoin() { return buy() ? "USDT" : base; }
    }

    /** A pending TP/SL order placed through the API (D159). */
    record Tpsl(Acct owner, String id, String clientOid, String category, String symbol, String side, BigDecimal qty, BigDecimal tp, BigDecimal sl) {}

    /** A price level a taker meets, or one of its fills: a resting order's (maker) or synthetic (maker null). */
    record Level(BigDecimal price, BigDecimal size, Order maker) {}

    private final RefModel m;
    /** Working spot orders in placement (orderId) order. */
    final List<Order> working = new ArrayList<>();
    private final Map<String, Order> byId = new HashMap<>();
    private final Map<String, Order> byClientOid = new HashMap<>();
    final List<Tpsl> tpsl = new ArrayList<>();
    /** Tickers by category and symbol: last, ask, bid, askSize, bidSize (null where absent). */
    private final Map<String, BigDecimal[]> tickers = new HashMap<>();

    ModelOrders(RefModel m) { this.m = m; }

    /** An account's working Reality orders, or its other ones (the switch names each kind, D223). */
    int working(Acct a, boolean reality) { return (int) working.stream().filter(o -> o.owner == a && o.reality == reality).count(); }

    boolean pendingTpsl(Acct a) { return tpsl.stream().anyMatch(t -> t.owner == a); }

    /** An account's working orders on the engine's spot pair (what the v3 and v2 order rows of the simulation address). */
    List<Order> workingOf(Acct a) { return working.stream().filter(o -> o.owner == a && o.symbol.equals(SimWorld.ENGINE_SPOT)).toList(); }

    // --- tickers and the synthetic book (D155)

    /** A committed ticker: the spot one sweeps the resting orders it crosses; a futures one may trigger TP/SL orders. */
    void ticker(JsonNode t) {
        String category = t.get("category").asText(), symbol = t.get("symbol").asText();
        tickers.put(category + " " + symbol, new BigDecimal[]{dec(t.get("lastPrice")), dec(t.get("ask1Price")), dec(t.get("bid1Price")),
                dec(t.get("ask1Size")), dec(t.get("bid1Size"))});
        if (category.equals("SPOT")) {
            for (Order o : new ArrayList<>(working)) if (o.symbol.equals(symbol)) sweep(o);
        } else if (category.endsWith("FUTURES")) {
            triggers(category, symbol);
        }
    }

    private BigDecimal[] ticker(String category, String symbol) { return tickers.get(category + " " + symbol); }

    /** A spot pair's ticker ask and bid as given (null where absent). */
    BigDecimal[] bestAskBid(String symbol) {
        BigDecimal[] t = ticker("SPOT", symbol);
        return new BigDecimal[]{t[1], t[2]};
    }

    /** The price decimals of a symbol (D72): the most among last, ask and bid, at least 1. */
    private int decimals(BigDecimal[] t) {
        int scale = 1;
        for (int i = 0; i < 3; i++) if (t[i] != null) scale = Math.max(scale, t[i].stripTrailingZeros().scale());
        return scale;
    }

    private static BigDecimal best(BigDecimal[] t, boolean ask) {
        BigDecimal p = ask ? t[1] : t[2];
        if (p == null || p.signum() <= 0) p = t[0];
        return p == null || p.signum() <= 0 ? null : p;
    }

    /** 20 levels 5 bps apart from the best price (rounded away from the middle), each the level-1 size (1 when none). */
    private List<Level> synthetic(BigDecimal[] t, boolean asks) {
        List<Level> out = new ArrayList<>();
        BigDecimal best = best(t, asks);
        if (best == null) return out;
        BigDecimal s = asks ? t[3] : t[4];
        BigDecimal size = s == null || s.signum() <= 0 ? BigDecimal.ONE : s;
        int decimals = decimals(t);
        BigDecimal previous = null;
        for (int i = 0; i < LEVELS; i++) {
            BigDecimal offset = best.multiply(STEP_BPS).multiply(BigDecimal.valueOf(i)).divide(BigDecimal.valueOf(10_000));
            BigDecimal p = i == 0 ? best : (asks ? best.add(offset) : best.subtract(offset)).setScale(decimals, asks ? RoundingMode.UP : RoundingMode.DOWN);
            if (p.signum() <= 0) break;
            if (previous != null && p.compareTo(previous) == 0) continue;
            out.add(new Level(p, size, null));
            previous = p;
        }
        return out;
    }

    // --- spot orders

    /** One place-order line (a request or a place-batch line): its verdict, then, accepted, its effects. */
    void placeSpot(ModelAccount a, JsonNode b, Reply r) { placeSpot(a, b, r, false); }

    /** classic: through the v2 row (ModelClassic's translation): refused to a unified account, settled on spot balances. */
    void placeSpot(ModelAccount a, JsonNode b, Reply r, boolean classic) {
        String wallet = classic ? "spot" : "unified";
        String side = lower(b, "side"), type = lower(b, "orderType"), tif = b.has("timeInForce") ? lower(b, "timeInForce") : "gtc";
        String clientOid = text(b, "clientOid");
        BigDecimal qty = dec(b.get("qty")), price = dec(b.get("price"));
        BigDecimal[] t = ticker("SPOT", SimWorld.ENGINE_SPOT);
        int decimals = decimals(t);
        boolean market = "market".equals(type);
        if (market) tif = "gtc";
        boolean quoteQty = market && "buy".equals(side);
        Order earlier = clientOid == null ? null : byClientOid.get(a.acct.name() + " " + clientOid);
        Verdict v;
        if (a.unified == classic) v = Verdict.refuse("the other family's row (40084/40085)");
        else if (!"SPOT".equals(text(b, "category")) || !SimWorld.ENGINE_SPOT.equals(text(b, "symbol"))) v = Verdict.refuse("not the engine's spot pair");
        else if (!List.of("buy", "sell").contains(side) || !List.of("limit", "market").contains(type)
                || !List.of("gtc", "ioc", "fok", "post_only").contains(tif)) v = Verdict.refuse("bad side, type or timeInForce");
        else if (clientOid != null && !CLIENT_OID.matcher(clientOid).matches()) v = Verdict.refuse("bad clientOid");
        else if (qty == null || qty.signum() <= 0 || !ModelFormulas.ledgerAmount(qty)) v = Verdict.refuse("bad qty");
        else if (!market && (price == null || price.signum() <= 0 || !ModelFormulas.ledgerAmount(price))) v = Verdict.refuse("bad price");
        else if (qty.stripTrailingZeros().scale() > (quoteQty ? decimals : 4)) v = Verdict.refuse("qty decimals (25610)");
        else if (!market && price.stripTrailingZeros().scale() > decimals) v = Verdict.refuse("price decimals (25244)");
        else if ((quoteQty ? qty : market ? BigDecimal.ONE : price.multiply(qty)).compareTo(BigDecimal.ONE) < 0) v = Verdict.refuse("below 1 USDT (25611)");
        else if (earlier != null) v = !earlier.reality && earlier.side.equals(side) && earlier.type.equals(type) && earlier.qty.compareTo(qty) == 0
                && (earlier.price == null ? price == null || market : !market && price.compareTo(earlier.price) == 0)
                ? Verdict.accept("a replay of " + clientOid) : Verdict.refuse("clientOid " + clientOid + " with other parameters (25212)");
        else v = null;
        if (v != null) {
            if (!m.settle("place-order " + b, v, r) || earlier == null) return;
            if (!r.data().path("orderId").asText().equals(earlier.id)) m.fail("a replay of " + clientOid + " answered " + r.raw() + ", not " + earlier.id);
            return;
        }
        boolean buy = side.equals("buy");
        BigDecimal limit = market ? null : price;
        List<Level> book = book(SimWorld.ENGINE_SPOT, buy, limit);
        Order o = new Order(a.acct, null, clientOid, side, type, tif, market ? null : price, qty, wallet);
        BigDecimal frozen = buy ? ModelFormulas.ledger(market ? qty : price.multiply(qty)).stripTrailingZeros() : qty;
        boolean refused = false;
        if (tif.equals("post_only") && !book.isEmpty()) refused = true;
        else if (tif.equals("fok") && book.stream().map(Level::size).reduce(BigDecimal.ZERO, BigDecimal::add).compareTo(qty) < 0) refused = true;
        List<Level> fills = refused ? List.of() : walk(book, quoteQty ? null : qty, quoteQty ? qty : null);
        if (!refused && quoteQty && fills.isEmpty()) v = Verdict.refuse("the budget buys less than one step (25611)");
        else if (!refused && a.bal(wallet, o.frozenCoin()).available.compareTo(frozen) < 0) v = Verdict.insufficient(o.frozenCoin());
        else v = Verdict.accept(refused ? tif + " refused by its time in force" : "");
        if (!m.settle("place-order " + b, v, r)) return;
        Order placed = placed(a, r, o);
        if (refused) {
            placed.working = false;
            m.event("order-" + tif + "-refused");
            return;
        }
        trade(placed, frozen, fills, !market && (tif.equals("gtc") || tif.equals("post_only")));
    }

    /** An accepted order as the service numbered it (its orderId read from the reply), found by id and clientOid from now on. */
    Order placed(ModelAccount a, Reply r, Order o) {
        Order placed = new Order(a.acct, r.data().get("orderId").asText(), o.clientOid, o.side, o.type, o.tif, o.price, o.qty, o.wallet,
                o.symbol, o.reality);
        byId.put(a.acct.name() + " " + placed.id, placed);
        if (o.clientOid != null) byClientOid.put(a.acct.name() + " " + o.clientOid, placed);
        return placed;
    }

    /**
     * A placed order trades: its freeze, then each fill as the taker and its maker's side (a resting maker then finished
     * when filled), then it rests (a limit gtc order with something left) or ends with the rest released.
     */
    void trade(Order placed, BigDecimal frozen, List<Level> fills, boolean rests) {
        ModelAccount a = m.accounts.get(placed.owner);
        placed.frozen = frozen;
        Bal hold = a.bal(placed.wallet, placed.frozenCoin());
        hold.available = hold.available.subtract(placed.frozen);
        hold.frozen = hold.frozen.add(placed.frozen);
        for (Level f : fills) {
            settle(placed, f.price(), f.size(), SPOT_RATE);
            m.event(f.maker() == null ? "order-synthetic-fill" : "order-cross-account-fill");
            if (f.maker() != null) {
                settle(f.maker(), f.price(), f.size(), SPOT_RATE);
                finish(f.maker(), true);
            }
        }
        finish(placed, rests);
        if (placed.working) working.add(placed);
    }

    /** The clientOid's order of an account, of either rows (one key per account, as the service's), or null. */
    Order byClientOid(Acct a, String clientOid) { return clientOid == null ? null : byClientOid.get(a.name() + " " + clientOid); }

    /** The resting orders of every account a taker on symbol crosses, best price first then oldest, and the synthetic levels. */
    List<Level> book(String symbol, boolean buy, BigDecimal limit) {
        BigDecimal[] t = ticker("SPOT", symbol);
        List<Level> out = new ArrayList<>();
        List<Order> makers = working.stream().filter(o -> o.symbol.equals(symbol) && o.buy() != buy && o.type.equals("limit"))
                .filter(o -> limit == null || (buy ? o.price.compareTo(limit) <= 0 : o.price.compareTo(limit) >= 0))
                .sorted(Comparator.comparing((Order o) -> buy ? o.price : o.price.negate()).thenComparing(o -> Long.parseLong(o.id))).toList();
        for (Order o : makers) out.add(new Level(o.price, o.qty.subtract(o.cum), o));
        for (Level l : synthetic(t, buy)) {
            if (limit != null && (buy ? l.price().compareTo(limit) > 0 : l.price().compareTo(limit) < 0)) break;
            out.add(l);
        }
        Comparator<Level> byPrice = Comparator.comparing(Level::price);
        out.sort(buy ? byPrice : byPrice.reversed()); // stable: a resting order before the synthetic level at its price
        return out;
    }

    /** A taker's fills over a book: `base` to fill, or a quote budget (a spot market buy), each size rounded down to 4 decimals. */
    static List<Level> walk(List<Level> book, BigDecimal base, BigDecimal quote) {
        List<Level> out = new ArrayList<>();
        BigDecimal left = base != null ? base : quote;
        for (Level l : book) {
            if (left.signum() <= 0) break;
            BigDecimal size = base != null ? l.size().min(left) : l.size().min(left.divide(l.price(), 4, RoundingMode.DOWN));
            if (size.signum() <= 0) break;
            out.add(new Level(l.price(), size, l.maker()));
            left = left.subtract(base != null ? size : size.multiply(l.price()));
        }
        return out;
    }

    /** One side of a spot fill: the freeze it used back, the coins exchanged, the fee in the coin received or in BGB. */
    private void settle(Order o, BigDecimal price, BigDecimal size, BigDecimal rate) {
        ModelAccount a = m.accounts.get(o.owner);
        m.changed.add(o.owner);
        BigDecimal amount = ModelFormulas.ledger(price.multiply(size));
        BigDecimal used = o.buy() ? (o.type.equals("market") ? amount : o.price.multiply(size)) : size;
        BigDecimal release = used.min(o.frozen);
        Bal held = a.bal(o.wallet, o.frozenCoin());
        held.frozen = held.frozen.subtract(release);
        held.available = held.available.add(release);
        o.frozen = o.frozen.subtract(release);
        Bal base = a.bal(o.wallet, o.base), quote = a.bal(o.wallet, "USDT");
        if (o.buy()) {
            quote.available = quote.available.subtract(amount);
            base.available = base.available.add(size);
        } else {
            base.available = base.available.subtract(size);
            quote.available = quote.available.add(amount);
        }
        BigDecimal fee = m.charged(ModelFormulas.fillFee(o.buy() ? size : amount, rate));
        Bal feeFrom = o.buy() ? base : quote;
        BigDecimal tokenPrice = m.prices.get(RefModel.TOKEN);
        if (a.deduct && tokenPrice != null) {
            BigDecimal tokenFee = ModelFormulas.tokenFee(amount, BigDecimal.ONE, rate, tokenPrice);
            if (tokenFee.signum() > 0 && a.bal(o.wallet, RefModel.TOKEN).available.compareTo(tokenFee) >= 0) {
                fee = m.charged(tokenFee);
                feeFrom = a.bal(o.wallet, RefModel.TOKEN);
                m.event("order-token-fee");
            }
        }
        feeFrom.available = feeFrom.available.subtract(fee);
        o.cum = o.cum.add(size);
    }

    /** After its fills: filled (all of it; a market buy once it bought), resting, or cancelled with the rest released. */
    private void finish(Order o, boolean rests) {
        boolean filled = o.quoteQty() ? o.cum.signum() > 0 : o.cum.compareTo(o.qty) == 0;
        if (!filled && rests) return;
        release(o);
        o.working = false;
        working.remove(o);
    }

    private void release(Order o) {
        Bal held = m.accounts.get(o.owner).bal(o.wallet, o.frozenCoin());
        held.frozen = held.frozen.subtract(o.frozen);
        held.available = held.available.add(o.frozen);
        o.frozen = BigDecimal.ZERO;
    }

    /** A working limit order the current ticker crosses fills in full as the maker at its own price. */
    private void sweep(Order o) {
        BigDecimal[] t = ticker("SPOT", o.symbol);
        BigDecimal ask = best(t, true), bid = best(t, false);
        boolean crossed = o.buy() ? ask != null && o.price.compareTo(ask) >= 0 : bid != null && o.price.compareTo(bid) <= 0;
        if (!o.working || !crossed) return;
        settle(o, o.price, o.qty.subtract(o.cum), SPOT_RATE);
        finish(o, true);
        m.event("order-ticker-fill");
    }

    Order lookup(ModelAccount a, JsonNode b) {
        String id = text(b, "orderId"), clientOid = text(b, "clientOid");
        return id != null ? byId.get(a.acct.name() + " " + id) : clientOid != null ? byClientOid.get(a.acct.name() + " " + clientOid) : null;
    }

    void cancel(ModelAccount a, JsonNode b, Reply r) { cancel(a, b, r, false); }

    void cancel(ModelAccount a, JsonNode b, Reply r, boolean classic) {
        Order o = lookup(a, b);
        String symbol = text(b, "symbol");
        Verdict v;
        if (a.unified == classic) v = Verdict.refuse("the other family's row");
        else if (o == null || !o.working) v = Verdict.refuse("no working order (25204)");
        else if (symbol != null && !symbol.equalsIgnoreCase(o.symbol)) v = Verdict.refuse("another symbol (25204)");
        else v = Verdict.accept("");
        if (!m.settle("cancel-order " + b, v, r)) return;
        end(o);
    }

    /** A working order cancelled: all it still holds frozen goes back. */
    void end(Order o) {
        release(o);
        o.working = false;
        working.remove(o);
        m.changed.add(o.owner);
    }

    void cancelSymbol(ModelAccount a, JsonNode b, Reply r) { cancelSymbol(a, b, r, false); }

    /** The v2 row answers {symbol}, not the list: the count is the v3 row's to check. */
    void cancelSymbol(ModelAccount a, JsonNode b, Reply r, boolean classic) {
        Verdict v = a.unified == classic ? Verdict.refuse("the other family's row")
                : !"SPOT".equals(text(b, "category")) || !SimWorld.ENGINE_SPOT.equals(text(b, "symbol")) ? Verdict.refuse("not the engine's pair")
                : Verdict.accept("");
        if (!m.settle("cancel-symbol-order " + b, v, r)) return;
        List<Order> mine = workingOf(a.acct);
        if (!classic && r.data().path("list").size() != mine.size()) m.fail("cancel-symbol-order cancelled " + r.data().path("list").size() + ", the model has " + mine.size() + " working");
        for (Order o : mine) {
            release(o);
            o.working = false;
            working.remove(o);
        }
    }

    void modify(ModelAccount a, JsonNode b, Reply r) {
        Order o = lookup(a, b);
        BigDecimal qty = dec(b.get("qty")), price = dec(b.get("price"));
        BigDecimal[] t = ticker("SPOT", o == null ? SimWorld.ENGINE_SPOT : o.symbol);
        Verdict v;
        BigDecimal newQty = null, newPrice = null, frozen = null;
        if (!a.unified) v = Verdict.refuse("a classic account");
        else if (qty == null && price == null) v = Verdict.refuse("nothing to modify");
        else if (o == null || !o.working) v = Verdict.refuse("no working order (25204)");
        else if (o.type.equals("market")) v = Verdict.refuse("a market order");
        else {
            newQty = qty != null ? qty : o.qty;
            newPrice = price != null ? price : o.price;
            if (newQty.compareTo(o.qty) == 0 && newPrice.compareTo(o.price) == 0) v = Verdict.refuse("unchanged (25571)");
            else if (newQty.signum() <= 0 || newPrice.signum() <= 0 || !ModelFormulas.ledgerAmount(newQty) || !ModelFormulas.ledgerAmount(newPrice)) v = Verdict.refuse("bad qty or price");
            else if (newQty.stripTrailingZeros().scale() > 4 || newPrice.stripTrailingZeros().scale() > decimals(t)) v = Verdict.refuse("decimals");
            else if (newPrice.multiply(newQty).compareTo(BigDecimal.ONE) < 0) v = Verdict.refuse("below 1 USDT");
            else if (newQty.compareTo(o.cum) <= 0) v = Verdict.refuse("not above what filled (25568)");
            else {
                BigDecimal left = newQty.subtract(o.cum);
                frozen = o.buy() ? ModelFormulas.ledger(newPrice.multiply(left)).stripTrailingZeros() : left;
                BigDecimal delta = frozen.subtract(o.frozen);
                v = a.bal(o.wallet, o.frozenCoin()).available.compareTo(delta) < 0 ? Verdict.insufficient(o.frozenCoin()) : Verdict.accept("");
            }
        }
        if (!m.settle("modify-order " + b, v, r)) return;
        Bal held = a.bal(o.wallet, o.frozenCoin());
        BigDecimal delta = frozen.subtract(o.frozen);
        held.available = held.available.subtract(delta);
        held.frozen = held.frozen.add(delta);
        o.frozen = frozen;
        o.qty = newQty;
        o.price = newPrice;
        // It loses its time priority: the newest in the book (its orderId stays; the model keeps book order by id, as the service).
        m.changed.add(a.acct);
        m.event("order-modified");
        sweep(o);
    }

    // --- futures market orders, close-positions (D157: the position service's arithmetic, ModelPositions')

    /** A futures place-order line; the simulation sends market orders only. */
    void placeFutures(ModelAccount a, JsonNode b, Reply r) { placeFutures(a, b, r, false); }

    void placeFutures(ModelAccount a, JsonNode b, Reply r, boolean classic) {
        Contract c = m.contracts.get(text(b, "symbol"));
        String side = lower(b, "side"), posSide = text(b, "posSide");
        BigDecimal qty = dec(b.get("qty"));
        boolean reduceOnly = "yes".equalsIgnoreCase(text(b, "reduceOnly")) || "true".equalsIgnoreCase(text(b, "reduceOnly"));
        Verdict v;
        List<Step> steps = null;
        if (a.unified == classic) v = Verdict.refuse("the other family's row");
        else if (c == null || !c.category().equals(text(b, "category")) || !"market".equals(lower(b, "orderType"))) v = Verdict.refuse("not a market order on a contract");
        else if (!List.of("buy", "sell").contains(side)) v = Verdict.refuse("bad side");
        else if (qty == null || qty.signum() <= 0 || !ModelFormulas.ledgerAmount(qty) || qty.stripTrailingZeros().scale() > 4) v = Verdict.refuse("bad qty");
        else if (a.hedge && posSide == null) v = Verdict.refuse("hedge mode needs posSide (40019)");
        else if (a.hedge && !List.of("long", "short").contains(posSide)) v = Verdict.refuse("bad posSide");
        else {
            steps = plan(a, c, side, a.hedge ? posSide : null, reduceOnly, qty);
            v = steps == null ? Verdict.refuse(closes(a, side, posSide, reduceOnly) ? "nothing (enough) to close (25227/25231)" : "insufficient margin (25203)")
                    : Verdict.accept("");
        }
        if (!m.settle("place-order " + b, v, r)) return;
        apply(a, c, steps);
    }

    private static boolean closes(ModelAccount a, String side, String posSide, boolean reduceOnly) {
        return a.hedge ? side.equals("buy") != "long".equals(posSide) : reduceOnly;
    }

    /** One position change of a fill: reduce (size < 0 of `side`) or open/add, at a price, with its fee. */
    private record Step(String side, BigDecimal size, BigDecimal price, BigDecimal fee) {}

    /**
     * The position changes of a market order over the synthetic levels, checked as the service's transaction would
     * meet them; null when it is refused (no position to close, a close above it, or margin short at an opening fill).
     */
    private List<Step> plan(ModelAccount a, Contract c, String side, String posSide, boolean reduceOnly, BigDecimal qty) {
        boolean buy = side.equals("buy");
        boolean close = a.hedge ? buy != "long".equals(posSide) : reduceOnly;
        String target = a.hedge ? posSide : buy ? "long" : "short";
        String opposite = a.hedge ? posSide : buy ? "short" : "long";
        Map<String, BigDecimal> sizes = new HashMap<>();
        for (String s : List.of("long", "short")) {
            Position p = a.open(c.symbol(), s);
            sizes.put(s, p == null ? BigDecimal.ZERO : p.size);
        }
        if (close) {
            BigDecimal held = sizes.get(opposite).min(qty);
            if (held.signum() == 0 || held.compareTo(qty) < 0) return null;
        }
        BigDecimal[] t = ticker(c.category(), c.symbol());
        List<Level> fills = walk(synthetic(t, buy), qty, null);
        if (fills.isEmpty()) return null;
        BigDecimal available = a.unified(c.marginCoin()).available;
        Position opp = a.open(c.symbol(), opposite);
        Position existing = a.open(c.symbol(), target);
        // An add takes the position's own leverage, a new position the contract's setting.
        BigDecimal leverage = existing != null ? existing.leverage : a.config(c).leverage(target);
        BigDecimal oppMargin = opp == null ? BigDecimal.ZERO : opp.margin;
        boolean capped = a.hedge ? close : reduceOnly;
        List<Step> steps = new ArrayList<>();
        for (Level f : fills) {
            BigDecimal size = f.size();
            if (capped) size = size.min(sizes.get(opposite));
            if (size.signum() == 0) break;
            BigDecimal fee = fee(c, f.price(), size, TAKER);
            // Hedge mode: a close reduces posSide's position, an open adds to it. One-way: the opposite position is
            // reduced first, the rest opens (none when reduce-only).
            BigDecimal reduced = a.hedge ? (close ? size : BigDecimal.ZERO) : sizes.get(opposite).min(size);
            BigDecimal opened = a.hedge ? (close ? BigDecimal.ZERO : size) : reduceOnly ? BigDecimal.ZERO : size.subtract(reduced);
            BigDecimal reduceFee = reduced.signum() == 0 ? BigDecimal.ZERO
                    : a.hedge ? fee : ModelFormulas.ledger(fee.multiply(reduced).divide(size, MC)).stripTrailingZeros();
            if (reduced.signum() > 0) {
                BigDecimal released = ModelFormulas.released(oppMargin, reduced, sizes.get(opposite));
                BigDecimal realised = ModelFormulas.realised(c.inverse(), opposite.equals("long") ? 1 : -1, reduced, opp.entry, f.price());
                available = available.add(released).add(realised).subtract(m.charged(reduceFee)).max(BigDecimal.ZERO);
                oppMargin = oppMargin.subtract(released);
                sizes.put(opposite, sizes.get(opposite).subtract(reduced));
                steps.add(new Step(opposite, reduced.negate(), f.price(), reduceFee));
            }
            if (opened.signum() > 0) {
                BigDecimal openFee = fee.subtract(reduceFee);
                BigDecimal need = ModelFormulas.initialMargin(c.inverse(), opened, f.price(), leverage).add(m.charged(openFee));
                if (available.compareTo(need) < 0) return null;
                available = available.subtract(need);
                steps.add(new Step(target, opened, f.price(), openFee));
            }
        }
        return steps.isEmpty() ? null : steps;
    }

    /** Applies the planned changes through the model's positions; new positions get the service's IDs (read back). */
    private void apply(ModelAccount a, Contract c, List<Step> steps) {
        m.changed.add(a.acct);
        m.positionsAddressed.add(a.acct);
        for (Step s : steps) {
            Position p = a.open(c.symbol(), s.side());
            if (s.size().signum() < 0) {
                m.positions.reduce(a, p, s.size().negate(), s.price(), m.charged(s.fee()));
                m.event("order-position-reduce");
            } else if (p != null) {
                m.positions.add(a, p, s.size(), s.price(), m.charged(s.fee()));
                m.event("order-position-add");
            } else {
                ModelAccount.Config cfg = a.config(c);
                m.positions.openDirect(a, c, newPositionId(a, c, s.side()), s.side(), cfg.marginMode(), cfg.leverage(s.side()), s.size(),
                        s.price(), m.charged(s.fee()));
                m.event("order-position-open");
            }
        }
    }

    private String newPositionId(ModelAccount a, Contract c, String side) {
        for (JsonNode p : m.admin().get("/admin/v1/accounts/" + a.acct.uid() + "/positions").data()) {
            if (p.get("symbol").asText().equals(c.symbol()) && p.get("holdSide").asText().equals(side)
                    && !a.positions.containsKey(p.get("id").asText())) return p.get("id").asText();
        }
        throw new AssertionError(m.where + ": no new " + side + " " + c.symbol() + " position of " + a.acct.name() + " in the service");
    }

    private static BigDecimal fee(Contract c, BigDecimal price, BigDecimal size, BigDecimal rate) {
        return ModelFormulas.ledger(c.inverse() ? size.multiply(rate) : price.multiply(size).multiply(rate)).stripTrailingZeros();
    }

    /** close-positions: each matching open position, newest first, closed by a market order; a line per position. */
    void closePositions(ModelAccount a, JsonNode b, Reply r) { closePositions(a, b, r, false); }

    /** classic: the v2 row answers {successList, failureList}; a line per position all the same, successes first. */
    void closePositions(ModelAccount a, JsonNode b, Reply r, boolean classic) {
        String category = text(b, "category"), symbol = text(b, "symbol"), posSide = text(b, "posSide");
        List<Position> targets = a.positions.values().stream()
                .filter(p -> p.contract.category().equals(category) && (symbol == null || p.contract.symbol().equals(symbol))
                        && (posSide == null || p.side.equals(posSide)))
                .sorted(Comparator.comparing((Position p) -> Long.parseLong(p.id)).reversed()).toList();
        Verdict v = a.unified == classic ? Verdict.refuse("the other family's row")
                : category == null || !category.endsWith("FUTURES") ? Verdict.refuse("not a futures category")
                : posSide != null && !List.of("long", "short").contains(posSide) ? Verdict.refuse("bad posSide")
                : targets.isEmpty() ? Verdict.refuse("nothing to close (25227)") : Verdict.accept("");
        if (!m.settle("close-positions " + b, v, r)) return;
        JsonNode lines = r.data().path("list");
        int successes = r.data().path("successList").size();
        int answered = classic ? successes + r.data().path("failureList").size() : lines.size();
        if (answered != targets.size()) m.fail("close-positions answered " + answered + " lines, the model has " + targets.size() + " positions");
        for (int i = 0; i < targets.size(); i++) {
            Position p = targets.get(i);
            boolean accepted = classic ? successes == targets.size() || planned(a, p) : !lines.get(i).hasNonNull("code");
            List<Step> steps = p.size.stripTrailingZeros().scale() > 4 ? null
                    : plan(a, p.contract, p.side.equals("long") ? "sell" : "buy", a.hedge ? p.side : null, !a.hedge, p.size);
            if (accepted && steps == null) m.fail("close-positions closed " + p + "; the model refuses (size decimals)");
            if (accepted) {
                apply(a, p.contract, steps);
                m.event("order-close-positions");
            }
        }
    }

    /** Whether the model can close p at market (the service's close-positions line succeeds). */
    private boolean planned(ModelAccount a, Position p) {
        return p.size.stripTrailingZeros().scale() <= 4
                && plan(a, p.contract, p.side.equals("long") ? "sell" : "buy", a.hedge ? p.side : null, !a.hedge, p.size) != null;
    }

    // --- TP/SL (D159)

    void placeTpsl(ModelAccount a, JsonNode b, Reply r) { placeTpsl(a, b, r, false); }

    void placeTpsl(ModelAccount a, JsonNode b, Reply r, boolean classic) {
        String category = text(b, "category"), symbol = text(b, "symbol"), posSide = text(b, "posSide");
        BigDecimal tp = dec(b.get("takeProfit")), sl = dec(b.get("stopLoss")), qty = dec(b.get("qty"));
        Position p = a.positions.values().stream().filter(x -> x.contract.symbol().equals(symbol) && x.contract.category().equals(category)
                && (posSide == null || x.side.equals(posSide))).max(Comparator.comparing((Position x) -> Long.parseLong(x.id))).orElse(null);
        Verdict v;
        if (a.unified == classic) v = Verdict.refuse("the other family's row");
        else if (category == null || !category.endsWith("FUTURES")) v = Verdict.refuse("not futures (25593)");
        else if (tp == null && sl == null) v = Verdict.refuse("no TP or SL");
        else if (p == null) v = Verdict.refuse("no position (25601)");
        else if (tp != null && (p.side.equals("long") ? tp.compareTo(p.entry) <= 0 : tp.compareTo(p.entry) >= 0)) v = Verdict.refuse("TP on the wrong side");
        else if (sl != null && (p.side.equals("long") ? sl.compareTo(p.entry) >= 0 : sl.compareTo(p.entry) <= 0)) v = Verdict.refuse("SL on the wrong side");
        else if (qty != null && (qty.signum() <= 0 || qty.compareTo(p.size) > 0)) v = Verdict.refuse("qty beyond the position");
        else v = Verdict.accept("");
        if (!m.settle("place-strategy-order " + b, v, r)) return;
        tpsl.add(new Tpsl(a.acct, r.data().get("orderId").asText(), text(b, "clientOid"), category, symbol, p.side, qty == null ? p.size : qty, tp, sl));
        m.event("tpsl-placed");
    }

    void cancelTpsl(ModelAccount a, JsonNode b, Reply r) {
        String id = text(b, "orderId");
        Tpsl o = tpsl.stream().filter(x -> x.owner == a.acct && x.id.equals(id)).findFirst().orElse(null);
        Verdict v = !a.unified ? Verdict.refuse("a classic account") : o == null ? Verdict.refuse("no pending TP/SL (25597)") : Verdict.accept("");
        if (!m.settle("cancel-strategy-order " + b, v, r)) return;
        tpsl.remove(o);
    }

    /** The TP/SL orders of a symbol that the mark reaches close their positions at market (oldest first). */
    private void triggers(String category, String symbol) {
        BigDecimal mark = ticker(category, symbol)[0]; // the simulation's futures tickers carry last = mark
        for (Tpsl o : new ArrayList<>(tpsl)) {
            if (!o.category.equals(category) || !o.symbol.equals(symbol)) continue;
            boolean isLong = o.side.equals("long");
            boolean tp = o.tp != null && (isLong ? mark.compareTo(o.tp) >= 0 : mark.compareTo(o.tp) <= 0);
            boolean sl = !tp && o.sl != null && (isLong ? mark.compareTo(o.sl) <= 0 : mark.compareTo(o.sl) >= 0);
            if (!tp && !sl) continue;
            tpsl.remove(o);
            ModelAccount a = m.accounts.get(o.owner);
            Position p = a.open(symbol, o.side);
            if (p == null) continue;
            BigDecimal qty = o.qty.min(p.size);
            List<Step> steps = qty.stripTrailingZeros().scale() > 4 ? null
                    : plan(a, p.contract, isLong ? "sell" : "buy", a.hedge ? o.side : null, !a.hedge, qty);
            if (steps == null) continue; // the close was refused: the order failed
            apply(a, p.contract, steps);
            m.event(tp ? "tpsl-take-profit" : "tpsl-stop-loss");
        }
    }

    // --- helpers

    private static String text(JsonNode b, String name) {
        JsonNode n = b.get(name);
        return n == null || n.isNull() || n.asText().isEmpty() ? null : n.asText();
    }

    private static String lower(JsonNode b, String name) {
        String v = text(b, name);
        return v == null ? null : v.toLowerCase(java.util.Locale.ROOT);
    }
}
