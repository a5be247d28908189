package io.tas.proof;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Issue 25: an audit of one spot symbol's orders, fills and the balances of the accounts that traded it, read from the
 * database tables themselves (trade_order, spot_fill, balance) and checked against a model of its own: every
 * acknowledged order is there; each order's fills sum to its cumExecQty, cumExecValue and fee; no order filled
 * beyond its qty; each fill's amount is price x size and its fee 0.1% of what it received; a pair of fills under one
 * tradeId is one maker and one taker of opposite sides at one price and size (and, where the ticker is out of reach,
 * every fill has its pair: no half-matched trade); the maker's fill is at its own price and a taker's within its
 * limit; the book is not crossed (the best resting buy is below the best resting sell); each working order holds
 * what it still needs frozen (price x remaining for a buy, the remaining size for a sell), a finished one nothing;
 * and each account's balance of the base and quote coin is what it was given plus what its fills, recomputed here
 * from price, size and fee, moved, with exactly its working orders' freezes frozen. Accounts that trade one side
 * only (no self-trade) and have deduction off (the default): fees in the coin received.
 */
public final class OrderAudit {
    static final BigDecimal FEE_RATE = new BigDecimal("0.001");
    private static final List<String> WORKING = List.of("live", "partially_filled");

    private OrderAudit() {}

    record Order(long orderId, long uid, String side, String tif, BigDecimal price, BigDecimal qty, BigDecimal frozen,
                 BigDecimal cumQty, BigDecimal cumValue, BigDecimal fee, String status) {
        boolean working() { return WORKING.contains(status); }
        boolean buy() { return side.equals("buy"); }
        /** What this order must hold frozen, computed here: price x remaining (buy) or the remaining size (sell); 0 when finished. */
        BigDecimal expectedFrozen() {
            if (!working()) return BigDecimal.ZERO;
            BigDecimal left = qty.subtract(cumQty);
            return buy() ? price.multiply(left) : left;
        }
    }

    record Fill(long uid, long tradeId, long orderId, String side, BigDecimal price, BigDecimal size, BigDecimal amount,
                String scope, String deduction, String feeCoin, BigDecimal totalFee) {}

    /** The counts for a PROOF line and every violation found (empty: the audit holds). */
    public record Result(int orders, int working, int acknowledged, int fills, int pairs, int unpaired, List<String> violations) {
        public String summary() {
            return orders + " orders (" + working + " working, " + acknowledged + " acknowledged), " + fills + " fills (" + pairs
                    + " maker/taker pairs, " + unpaired + " against the ticker's levels)";
        }
    }

    /**
     * initial: what each account was given of each coin; acknowledged: orderId -> uid of every order answered 00000;
     * everyFillPaired: no fill may be without its counterpart (the ticker's levels were out of every order's reach).
     */
    public static Result audit(Connection c, String symbol, String base, String quote, Map<Long, Map<String, BigDecimal>> initial,
                               Map<Long, Long> acknowledged, boolean everyFillPaired) throws SQLException {
        List<String> v = new ArrayList<>();
        Map<Long, Order> orders = new TreeMap<>();
        try (PreparedStatement s = c.prepareStatement("select order_id, uid, side, time_in_force, price, qty, frozen, cum_exec_qty, "
                + "cum_exec_value, fee, status, order_type from trade_order where category = 'SPOT' and symbol = ?")) {
            s.setString(1, symbol);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Order o = new Order(r.getLong(1), r.getLong(2), r.getString(3), r.getString(4), r.getBigDecimal(5), r.getBigDecimal(6),
                            r.getBigDecimal(7), r.getBigDecimal(8), r.getBigDecimal(9), r.getBigDecimal(10), r.getString(11));
                    if (!r.getString(12).equals("limit")) v.add("order " + o.orderId() + " is not a limit order");
                    orders.put(o.orderId(), o);
                }
            }
        }
        List<Fill> fills = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select uid, trade_id, order_id, side, price_avg, size, amount, trade_scope, deduction, "
                + "fee_coin, total_fee from spot_fill where category = 'SPOT' and symbol = ?")) {
            s.setString(1, symbol);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    fills.add(new Fill(r.getLong(1), r.getLong(2), r.getLong(3), r.getString(4), r.getBigDecimal(5), r.getBigDecimal(6),
                            r.getBigDecimal(7), r.getString(8), r.getString(9), r.getString(10), r.getBigDecimal(11)));
                }
            }
        }

        // Every acknowledged order is there, under its account.
        acknowledged.forEach((id, uid) -> {
            Order o = orders.get(id);
            if (o == null) v.add("acknowledged order " + id + " of " + uid + " is missing");
            else if (o.uid() != uid) v.add("order " + id + " belongs to " + o.uid() + ", acknowledged to " + uid);
        });

        // Each fill on its own, and the sums per order.
        Map<Long, BigDecimal[]> sums = new HashMap<>();
        Map<Long, List<Fill>> byTrade = new TreeMap<>();
        for (Fill f : fills) {
            String at = "fill " + f.tradeId() + " of order " + f.orderId() + " (uid " + f.uid() + ")";
            Order o = orders.get(f.orderId());
            if (o == null) { v.add(at + ": no such order"); continue; }
            if (o.uid() != f.uid() || !o.side().equals(f.side())) v.add(at + ": uid/side differ from its order's");
            if (f.size().signum() <= 0) v.add(at + ": size " + f.size());
            if (f.amount().compareTo(scaled(f.price().multiply(f.size()))) != 0) v.add(at + ": amount " + f.amount() + " != price x size");
            boolean buy = f.side().equals("buy");
            BigDecimal fee = scaled((buy ? f.size() : f.amount()).multiply(FEE_RATE));
            if (f.totalFee().negate().compareTo(fee) != 0) v.add(at + ": fee " + f.totalFee() + ", expected -" + fee);
            if (!f.feeCoin().equals(buy ? base : quote) || !f.deduction().equals("no")) v.add(at + ": fee coin " + f.feeCoin() + " deduction " + f.deduction());
            if (f.scope().equals("maker") && f.price().compareTo(o.price()) != 0) v.add(at + ": a maker fill at " + f.price() + ", its order's price " + o.price());
            if (f.scope().equals("taker") && (buy ? f.price().compareTo(o.price()) > 0 : f.price().compareTo(o.price()) < 0)) {
                v.add(at + ": a taker fill at " + f.price() + " beyond its limit " + o.price());
            }
            BigDecimal[] s = sums.computeIfAbsent(f.orderId(), k -> new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
            s[0] = s[0].add(f.size());
            s[1] = s[1].add(f.amount());
            s[2] = s[2].add(f.totalFee().negate());
            byTrade.computeIfAbsent(f.tradeId(), k -> new ArrayList<>()).add(f);
        }
        int working = 0;
        BigDecimal bestBid = null, bestAsk = null;
        for (Order o : orders.values()) {
            String at = "order " + o.orderId() + " (uid " + o.uid() + ", " + o.side() + " " + o.qty().toPlainString() + " at " + o.price().toPlainString() + ", " + o.status() + ")";
            BigDecimal[] s = sums.getOrDefault(o.orderId(), new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
            if (s[0].compareTo(o.cumQty()) != 0) v.add(at + ": fills sum to " + s[0] + ", cumExecQty " + o.cumQty());
            if (s[1].compareTo(o.cumValue()) != 0) v.add(at + ": fills' value " + s[1] + ", cumExecValue " + o.cumValue());
            if (s[2].compareTo(o.fee()) != 0) v.add(at + ": fills' fees " + s[2] + ", fee " + o.fee());
            if (o.cumQty().compareTo(o.qty()) > 0) v.add(at + ": filled " + o.cumQty() + " beyond its qty");
            boolean full = o.cumQty().compareTo(o.qty()) == 0;
            boolean consistent = switch (o.status()) {
                case "filled" -> full;
                case "live" -> o.cumQty().signum() == 0;
                case "partially_filled" -> o.cumQty().signum() > 0 && !full;
                case "cancelled" -> !full;
                default -> false;
            };
            if (!consistent) v.add(at + ": status with cumExecQty " + o.cumQty());
            if (o.working() && !o.tif().equals("gtc")) v.add(at + ": a " + o.tif() + " order left working");
            if (o.frozen().compareTo(o.expectedFrozen()) != 0) v.add(at + ": holds " + o.frozen() + " frozen, needs " + o.expectedFrozen());
            if (o.working()) {
                working++;
                if (o.buy()) bestBid = bestBid == null ? o.price() : bestBid.max(o.price());
                else bestAsk = bestAsk == null ? o.price() : bestAsk.min(o.price());
            }
        }
        if (bestBid != null && bestAsk != null && bestBid.compareTo(bestAsk) >= 0) {
            v.add("the book is crossed: a buy rests at " + bestBid + ", a sell at " + bestAsk);
        }

        // Both sides of a trade.
        int pairs = 0, unpaired = 0;
        for (var e : byTrade.entrySet()) {
            List<Fill> t = e.getValue();
            String at = "trade " + e.getKey();
            if (t.size() == 2) {
                pairs++;
                Fill a = t.get(0), b = t.get(1);
                if (a.scope().equals(b.scope()) || a.side().equals(b.side()) || a.price().compareTo(b.price()) != 0
                        || a.size().compareTo(b.size()) != 0 || a.amount().compareTo(b.amount()) != 0) {
                    v.add(at + ": its two fills disagree: " + a + " / " + b);
                }
            } else if (t.size() == 1) {
                unpaired++;
                if (everyFillPaired) v.add(at + ": a " + t.getFirst().scope() + " fill without its counterpart: " + t.getFirst());
            } else {
                v.add(at + ": " + t.size() + " fills");
            }
        }

        // Balances, from the fills with this audit's own arithmetic.
        Map<Long, Map<String, BigDecimal>> total = new HashMap<>(), frozen = new HashMap<>();
        initial.forEach((uid, coins) -> {
            Map<String, BigDecimal> m = new HashMap<>(Map.of(base, BigDecimal.ZERO, quote, BigDecimal.ZERO));
            coins.forEach((coin, amount) -> m.merge(coin, amount, BigDecimal::add));
            total.put(uid, m);
            frozen.put(uid, new HashMap<>(Map.of(base, BigDecimal.ZERO, quote, BigDecimal.ZERO)));
        });
        for (Fill f : fills) {
            Map<String, BigDecimal> m = total.get(f.uid());
            if (m == null) { v.add("fill " + f.tradeId() + " of an account not in the audit: " + f.uid()); continue; }
            boolean buy = f.side().equals("buy");
            m.merge(base, buy ? f.size() : f.size().negate(), BigDecimal::add);
            m.merge(quote, buy ? f.amount().negate() : f.amount(), BigDecimal::add);
            m.merge(f.feeCoin(), f.totalFee(), BigDecimal::add);
        }
        for (Order o : orders.values()) {
            Map<String, BigDecimal> m = frozen.get(o.uid());
            if (m == null) { v.add("order " + o.orderId() + " of an account not in the audit: " + o.uid()); continue; }
            m.merge(o.buy() ? quote : base, o.expectedFrozen(), BigDecimal::add);
        }
        for (long uid : initial.keySet()) {
            for (String coin : List.of(base, quote)) {
                BigDecimal[] row = balance(c, uid, coin);
                BigDecimal wantTotal = total.get(uid).get(coin), wantFrozen = frozen.get(uid).get(coin);
                if (row[0].add(row[1]).compareTo(wantTotal) != 0 || row[1].compareTo(wantFrozen) != 0) {
                    v.add("uid " + uid + " " + coin + ": available " + row[0] + " frozen " + row[1] + "; the fills give " + wantTotal.stripTrailingZeros().toPlainString()
                            + " with " + wantFrozen.stripTrailingZeros().toPlainString() + " frozen by its working orders");
                }
            }
        }
        return new Result(orders.size(), working, acknowledged.size(), fills.size(), pairs, unpaired, v);
    }

    private static BigDecimal[] balance(Connection c, long uid, String coin) {
        // A unified account's coins are in its unified rows, a classic one's spot coins in its spot rows (D171); the
        // audited accounts hold each coin in one of them, so the two are summed.
        try (PreparedStatement s = c.prepareStatement("select coalesce(sum(available), 0), coalesce(sum(frozen), 0) from balance"
                + " where uid = ? and account_type in ('unified', 'spot') and coin = ?")) {
            s.setLong(1, uid);
            s.setString(2, coin);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? new BigDecimal[]{r.getBigDecimal(1), r.getBigDecimal(2)} : new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO};
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigDecimal scaled(BigDecimal x) { return x.setScale(18, RoundingMode.HALF_EVEN); }
}
