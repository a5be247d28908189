package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.http.Endpoint;
import io.tas.proof.SimWorld.Acct;
import io.tas.proof.SimWorld.Contract;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The simulation's engine operations (issue 25): spot orders on SimWorld.ENGINE_SPOT of every kind from the unified
 * accounts against each other and the synthetic book, futures market orders on the world's contracts, the batch,
 * modify and cancel rows, close-positions and TP/SL orders, and moves of the spot pair's ticker. About a quarter of the
 * requests are bad on purpose. Orders to cancel or modify are picked from the reference model's working orders.
 */
final class SimOrderOps {
    private final Simulation sim;
    private BigDecimal mid = new BigDecimal("3500");
    private int clientOids;

    SimOrderOps(Simulation sim) { this.sim = sim; }

    /** Each seed starts from the world's price (SimWorld: ETHUSDT at 3500) and an empty clientOid pool. */
    void reset() {
        mid = new BigDecimal("3500");
        clientOids = 0;
    }

    void register(Map<Endpoint, Consumer<Acct>> m) {
        m.put(Endpoint.PLACE_ORDER, a -> place(a));
        m.put(Endpoint.PLACE_BATCH, a -> placeBatch(a));
        m.put(Endpoint.CANCEL_ORDER, a -> sim.api(a, Endpoint.CANCEL_ORDER, cancelLine(a)));
        m.put(Endpoint.CANCEL_BATCH, a -> cancelBatch(a));
        m.put(Endpoint.CANCEL_SYMBOL_ORDER, a -> sim.api(a, Endpoint.CANCEL_SYMBOL_ORDER, "{\"category\":\"SPOT\",\"symbol\":\""
                + (sim.rnd.nextInt(8) == 0 ? "NOPEUSDT" : SimWorld.ENGINE_SPOT) + "\"}"));
        m.put(Endpoint.MODIFY_ORDER, a -> modify(a));
        m.put(Endpoint.CLOSE_POSITIONS, a -> closePositions(a));
        m.put(Endpoint.PLACE_STRATEGY_ORDER, a -> placeTpsl(a));
        m.put(Endpoint.CANCEL_STRATEGY_ORDER, a -> cancelTpsl(a));
    }

    /** A new ticker of the engine's spot pair: the mid moves by up to 1.5 %, with a new spread and level size. */
    void spotTicker() {
        mid = mid.multiply(BigDecimal.valueOf(985 + sim.rnd.nextInt(31))).divide(BigDecimal.valueOf(1000), 1, RoundingMode.HALF_EVEN);
        BigDecimal spread = BigDecimal.valueOf(1 + sim.rnd.nextInt(30), 1);
        sim.admin("ticker", "/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\",\"lastPrice\":\"" + mid
                + "\",\"ask1Price\":\"" + mid.add(spread) + "\",\"bid1Price\":\"" + mid.subtract(spread) + "\",\"ask1Size\":\""
                + sim.decimal(1, 300, 2) + "\",\"bid1Size\":\"" + sim.decimal(1, 300, 2) + "\"}");
    }

    private void place(Acct a) {
        int r = sim.rnd.nextInt(12);
        String body = r < 2 ? futures() : r < 5 ? restingFutures() : spot(true);
        sim.api(a, Endpoint.PLACE_ORDER, body);
    }

    /** A whole price half the mark below it (a buy) or half of it above (a sell): the order rests and never fills. */
    BigDecimal far(String symbol, boolean buy) {
        BigDecimal mark = sim.model.mark.get(symbol);
        return mark.multiply(buy ? new BigDecimal("0.5") : new BigDecimal("1.5")).setScale(0, RoundingMode.DOWN).max(BigDecimal.ONE);
    }

    /**
     * A futures limit order on a USDT contract, far from the mark (ModelRestingFutures: it rests): it opens (posSide the
     * side's, which one-way mode ignores), sometimes with a clientOid of its own. Closing limit orders are not sent: the
     * model does not keep them.
     */
    private String restingFutures() {
        Contract c = sim.pick(SimWorld.CONTRACTS.stream().filter(x -> x.category().equals("USDT-FUTURES")).toList());
        boolean buy = sim.rnd.nextBoolean();
        String posSide = buy ? "long" : "short";
        StringBuilder b = new StringBuilder("{\"category\":\"USDT-FUTURES\",\"symbol\":\"" + c.symbol() + "\",\"side\":\"" + (buy ? "buy" : "sell")
                + "\",\"orderType\":\"limit\",\"qty\":\"" + (c.symbol().equals("BTCUSDT") ? sim.decimal(1, 100, 3) : sim.decimal(1, 200, 2))
                + "\",\"price\":\"" + far(c.symbol(), buy).toPlainString() + "\",\"posSide\":\"" + posSide + "\"");
        if (sim.rnd.nextInt(3) == 0) b.append(",\"clientOid\":\"f-").append(clientOids++).append('"');
        return b.append('}').toString();
    }

    /** A spot order: mostly limit around the mid (1 decimal), some market; some with a clientOid from a small pool. */
    private String spot(boolean mayBeBad) {
        boolean bad = mayBeBad && sim.rnd.nextInt(5) == 0;
        String side = sim.rnd.nextBoolean() ? "buy" : "sell";
        boolean market = sim.rnd.nextInt(4) == 0;
        StringBuilder b = new StringBuilder("{\"category\":\"SPOT\",\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\",\"side\":\"" + side
                + "\",\"orderType\":\"" + (market ? "market" : "limit") + "\"");
        String qty = market && side.equals("buy") ? sim.decimal(500, 300_000, 2) : sim.decimal(1, 80, 2);
        BigDecimal price = nearMid();
        if (bad) {
            switch (sim.rnd.nextInt(6)) {
                case 0 -> qty = "0.00001";
                case 1 -> price = price.add(new BigDecimal("0.05"));
                case 2 -> b = new StringBuilder(b.toString().replace("\"side\":\"" + side, "\"side\":\"hold"));
                case 3 -> qty = "0";
                case 4 -> b.append(",\"timeInForce\":\"gtd\"");
                default -> qty = "100000"; // more than any account holds
            }
        }
        b.append(",\"qty\":\"").append(qty).append('"');
        if (!market) b.append(",\"price\":\"").append(price.toPlainString()).append('"');
        if (!market && sim.rnd.nextInt(3) != 0) b.append(",\"timeInForce\":\"").append(sim.pick(List.of("gtc", "ioc", "fok", "post_only"))).append('"');
        if (sim.rnd.nextInt(3) == 0) b.append(",\"clientOid\":\"o-").append(sim.rnd.nextInt(clientOids + 1)).append('"');
        clientOids++;
        return b.append('}').toString();
    }

    /** A futures market order on a world contract: posSide when the account may be in hedge mode, sometimes reduce-only. */
    private String futures() {
        Contract c = sim.pick(SimWorld.CONTRACTS);
        String qty = switch (c.symbol()) {
            case "BTCUSDT" -> sim.decimal(1, 300, 3);
            case "ETHUSDT" -> sim.decimal(1, 250, 2);
            default -> sim.decimal(1, 400, 4);
        };
        if (sim.rnd.nextInt(12) == 0) qty = "0.00001";
        StringBuilder b = new StringBuilder("{\"category\":\"" + c.category() + "\",\"symbol\":\"" + c.symbol() + "\",\"side\":\""
                + (sim.rnd.nextBoolean() ? "buy" : "sell") + "\",\"orderType\":\"market\",\"qty\":\"" + qty + "\"");
        if (sim.rnd.nextInt(4) != 0) b.append(",\"posSide\":\"").append(sim.rnd.nextBoolean() ? "long" : "short").append('"');
        if (sim.rnd.nextInt(3) == 0) b.append(",\"reduceOnly\":\"").append(sim.pick(List.of("yes", "YES", "no"))).append('"');
        return b.append('}').toString();
    }

    /** A price within 1.5 % of the mid, at the pair's one decimal. */
    BigDecimal nearMid() {
        return mid.multiply(BigDecimal.valueOf(985 + sim.rnd.nextInt(31))).divide(BigDecimal.valueOf(1000), 1, RoundingMode.DOWN);
    }

    private void placeBatch(Acct a) {
        int n = sim.rnd.nextInt(10) == 0 ? 0 : 1 + sim.rnd.nextInt(3);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) lines.add(spot(true));
        sim.api(a, Endpoint.PLACE_BATCH, "[" + String.join(",", lines) + "]");
    }

    /** A working order of the caller (mostly), by orderId or clientOid; or one it does not have. */
    private String cancelLine(Acct a) {
        List<ModelOrders.Order> mine = sim.ref.orders.workingOf(a);
        ModelRestingFutures.Order f = restingOf(a);
        if (f != null && sim.rnd.nextInt(3) == 0) {
            return f.clientOid != null && sim.rnd.nextBoolean() ? "{\"clientOid\":\"" + f.clientOid + "\"}"
                    : "{\"symbol\":\"" + f.symbol + "\",\"orderId\":\"" + f.id + "\",\"category\":\"" + f.category + "\"}";
        }
        int r = sim.rnd.nextInt(10);
        if (r < 7 && !mine.isEmpty()) {
            ModelOrders.Order o = mine.get(sim.rnd.nextInt(mine.size()));
            return o.clientOid != null && sim.rnd.nextBoolean() ? "{\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\",\"clientOid\":\"" + o.clientOid + "\"}"
                    : "{\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\",\"orderId\":\"" + o.id + "\",\"category\":\"SPOT\"}";
        }
        if (r < 9) return "{\"orderId\":\"" + (7 + sim.rnd.nextInt(5)) + "\"}";
        return "{\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\"}";
    }

    private void cancelBatch(Acct a) {
        int n = sim.rnd.nextInt(10) == 0 ? 0 : 1 + sim.rnd.nextInt(2);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) lines.add(cancelLine(a));
        sim.api(a, Endpoint.CANCEL_BATCH, "[" + String.join(",", lines) + "]");
    }

    /** One of the caller's resting v3 futures orders, or null. */
    private ModelRestingFutures.Order restingOf(Acct a) {
        List<ModelRestingFutures.Order> mine = sim.ref.resting.of(a, false);
        return mine.isEmpty() ? null : mine.get(sim.rnd.nextInt(mine.size()));
    }

    private void modify(Acct a) {
        ModelRestingFutures.Order f = restingOf(a);
        if (f != null && sim.rnd.nextInt(3) == 0) {
            // A new far price on its side and/or a new size: it still rests; its freeze is recomputed.
            StringBuilder b = new StringBuilder("{\"orderId\":\"" + f.id + "\"");
            int r = sim.rnd.nextInt(3);
            if (r != 1) b.append(",\"price\":\"").append(far(f.symbol, f.price.compareTo(sim.model.mark.get(f.symbol)) < 0).toPlainString()).append('"');
            if (r != 0) b.append(",\"qty\":\"").append(f.symbol.equals("BTCUSDT") ? sim.decimal(1, 100, 3) : sim.decimal(1, 200, 2)).append('"');
            sim.api(a, Endpoint.MODIFY_ORDER, b.append('}').toString());
            return;
        }
        List<ModelOrders.Order> mine = sim.ref.orders.workingOf(a);
        String id = !mine.isEmpty() && sim.rnd.nextInt(8) != 0 ? mine.get(sim.rnd.nextInt(mine.size())).id : Integer.toString(7 + sim.rnd.nextInt(5));
        BigDecimal price = nearMid();
        StringBuilder b = new StringBuilder("{\"orderId\":\"" + id + "\"");
        int r = sim.rnd.nextInt(3);
        if (r != 1) b.append(",\"price\":\"").append(price.toPlainString()).append('"');
        if (r != 0) b.append(",\"qty\":\"").append(sim.decimal(1, 80, 2)).append('"');
        sim.api(a, Endpoint.MODIFY_ORDER, b.append('}').toString());
    }

    private void closePositions(Acct a) {
        Contract c = sim.pick(SimWorld.CONTRACTS);
        int r = sim.rnd.nextInt(10);
        String body = r == 0 ? "{\"category\":\"SPOT\"}"
                : r < 5 ? "{\"category\":\"" + c.category() + "\",\"symbol\":\"" + c.symbol() + "\"}"
                : "{\"category\":\"" + c.category() + "\"}";
        sim.api(a, Endpoint.CLOSE_POSITIONS, body);
    }

    /** Where a TP/SL goes: a contract and side (mostly one of the caller's positions, read first) and a trigger within ±3 % of its mark. */
    record TpslTarget(Contract contract, String side, BigDecimal at) {}

    TpslTarget tpslTarget(Acct a) {
        JsonNode open = sim.admin().get("/admin/v1/accounts/" + a.uid() + "/positions").data();
        Contract c = sim.pick(SimWorld.CONTRACTS);
        String side = sim.rnd.nextBoolean() ? "long" : "short";
        if (!open.isEmpty() && sim.rnd.nextInt(6) != 0) {
            JsonNode p = open.get(sim.rnd.nextInt(open.size()));
            c = SimWorld.CONTRACTS.stream().filter(x -> x.symbol().equals(p.get("symbol").asText())).findFirst().orElseThrow();
            side = p.get("holdSide").asText();
        }
        BigDecimal mark = sim.model.mark.get(c.symbol());
        return new TpslTarget(c, side, mark.multiply(BigDecimal.valueOf(970 + sim.rnd.nextInt(61))).divide(BigDecimal.valueOf(1000), 1, RoundingMode.HALF_EVEN));
    }

    /** TP/SL on one of the caller's positions: some are refused (wrong side of the entry, no position) and some trigger. */
    private void placeTpsl(Acct a) {
        TpslTarget t = tpslTarget(a);
        StringBuilder b = new StringBuilder("{\"category\":\"" + (sim.rnd.nextInt(10) == 0 ? "SPOT" : t.contract().category()) + "\",\"symbol\":\""
                + t.contract().symbol() + "\",\"posSide\":\"" + t.side() + "\"");
        b.append(sim.rnd.nextBoolean() ? ",\"takeProfit\":\"" : ",\"stopLoss\":\"").append(t.at().toPlainString()).append('"');
        sim.api(a, Endpoint.PLACE_STRATEGY_ORDER, b.append('}').toString());
    }

    private void cancelTpsl(Acct a) {
        List<ModelOrders.Tpsl> mine = sim.ref.orders.tpsl.stream().filter(t -> t.owner() == a).toList();
        String id = !mine.isEmpty() && sim.rnd.nextInt(4) != 0 ? mine.get(sim.rnd.nextInt(mine.size())).id() : Integer.toString(7 + sim.rnd.nextInt(5));
        sim.api(a, Endpoint.CANCEL_STRATEGY_ORDER, "{\"orderId\":\"" + id + "\"}");
    }
}
