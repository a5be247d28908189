package io.tas.proof;

import io.tas.http.Endpoint;
import io.tas.proof.SimWorld.Acct;
import io.tas.proof.SimWorld.Contract;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The simulation's classic order operations (issue 26): the v2 spot rows on SimWorld.ENGINE_SPOT (whose book the unified
 * accounts' orders share) and the v2 futures rows with market orders on the world's contracts, from the classic account
 * (and, sometimes, a unified one the rows refuse). ModelClassic judges them. Batch rows carry one line. About a fifth
 * of the requests are bad on purpose.
 */
final class SimClassicOps {
    private final Simulation sim;
    private final SimOrderOps spot;
    private int clientOids;

    SimClassicOps(Simulation sim, SimOrderOps spot) {
        this.sim = sim;
        this.spot = spot;
    }

    void reset() { clientOids = 0; }

    void register(Map<Endpoint, Consumer<Acct>> m) {
        m.put(Endpoint.SPOT_PLACE_ORDER, a -> sim.api(a, Endpoint.SPOT_PLACE_ORDER, spotOrder("{\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\"")));
        m.put(Endpoint.SPOT_BATCH_ORDERS, a -> sim.api(a, Endpoint.SPOT_BATCH_ORDERS, "{\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\",\"orderList\":["
                + spotOrder("{") + "]}"));
        m.put(Endpoint.SPOT_CANCEL_ORDER, a -> sim.api(a, Endpoint.SPOT_CANCEL_ORDER, "{\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\"," + orderRef(a) + "}"));
        m.put(Endpoint.SPOT_BATCH_CANCEL_ORDER, a -> sim.api(a, Endpoint.SPOT_BATCH_CANCEL_ORDER, "{\"symbol\":\"" + SimWorld.ENGINE_SPOT
                + "\",\"orderList\":[{" + orderRef(a) + "}]}"));
        m.put(Endpoint.SPOT_CANCEL_SYMBOL_ORDER, a -> sim.api(a, Endpoint.SPOT_CANCEL_SYMBOL_ORDER, "{\"symbol\":\""
                + (sim.rnd.nextInt(8) == 0 ? "NOPEUSDT" : SimWorld.ENGINE_SPOT) + "\"}"));
        m.put(Endpoint.SPOT_CANCEL_REPLACE_ORDER, a -> sim.api(a, Endpoint.SPOT_CANCEL_REPLACE_ORDER, "{\"symbol\":\"" + SimWorld.ENGINE_SPOT + "\","
                + orderRef(a) + ",\"price\":\"" + spot.nearMid().toPlainString() + "\",\"size\":\"" + sim.decimal(1, 40, 2) + "\""
                + (sim.rnd.nextBoolean() ? ",\"newClientOid\":\"r-" + clientOids++ + "\"" : "") + "}"));
        m.put(Endpoint.MIX_PLACE_ORDER, a -> sim.api(a, Endpoint.MIX_PLACE_ORDER, sim.rnd.nextInt(3) == 0 ? restingOrder(false) : futuresOrder(false)));
        m.put(Endpoint.MIX_BATCH_PLACE_ORDER, a -> sim.api(a, Endpoint.MIX_BATCH_PLACE_ORDER, sim.rnd.nextInt(3) == 0 ? restingOrder(true) : futuresOrder(true)));
        m.put(Endpoint.MIX_CANCEL_ORDER, a -> {
            ModelRestingFutures.Order o = resting(a);
            sim.api(a, Endpoint.MIX_CANCEL_ORDER, o == null ? contract(sim.pick(SimWorld.CONTRACTS)) + ",\"orderId\":\"" + (7 + sim.rnd.nextInt(5)) + "\"}"
                    : "{\"symbol\":\"" + o.symbol + "\",\"productType\":\"" + o.category + "\",\"orderId\":\"" + o.id + "\"}");
        });
        m.put(Endpoint.MIX_BATCH_CANCEL_ORDERS, a -> {
            ModelRestingFutures.Order o = resting(a);
            Contract c = sim.pick(SimWorld.CONTRACTS);
            String head = o == null ? contract(c) : "{\"symbol\":\"" + o.symbol + "\",\"productType\":\"" + o.category + "\"";
            sim.api(a, Endpoint.MIX_BATCH_CANCEL_ORDERS, head + (sim.rnd.nextBoolean()
                    ? ",\"orderIdList\":[{\"orderId\":\"" + (o != null ? o.id : Integer.toString(7 + sim.rnd.nextInt(5))) + "\"}]" : "") + "}");
        });
        m.put(Endpoint.MIX_MODIFY_ORDER, a -> {
            ModelRestingFutures.Order o = resting(a);
            String head = o == null ? contract(sim.pick(SimWorld.CONTRACTS)) + ",\"orderId\":\"" + (7 + sim.rnd.nextInt(5)) + "\""
                    : "{\"symbol\":\"" + o.symbol + "\",\"productType\":\"" + o.category + "\",\"orderId\":\"" + o.id + "\"";
            BigDecimal price = o == null ? BigDecimal.valueOf(100) : spot.far(o.symbol, o.price.compareTo(sim.model.mark.get(o.symbol)) < 0);
            sim.api(a, Endpoint.MIX_MODIFY_ORDER, head + ",\"newPrice\":\"" + price.toPlainString() + "\""
                    + (sim.rnd.nextBoolean() ? ",\"newSize\":\"" + sim.decimal(1, 300, 3) + "\"" : "") + "}");
        });
        m.put(Endpoint.MIX_CANCEL_ALL_ORDERS, a -> sim.api(a, Endpoint.MIX_CANCEL_ALL_ORDERS, "{\"productType\":\""
                + sim.pick(SimWorld.CONTRACTS).category() + "\"}"));
        m.put(Endpoint.MIX_CLOSE_POSITIONS, a -> {
            Contract c = sim.pick(SimWorld.CONTRACTS);
            sim.api(a, Endpoint.MIX_CLOSE_POSITIONS, "{\"productType\":\"" + c.category() + "\""
                    + (sim.rnd.nextBoolean() ? ",\"symbol\":\"" + c.symbol() + "\"" : "") + "}");
        });
        m.put(Endpoint.MIX_PLACE_TPSL_ORDER, this::placeTpsl);
        m.put(Endpoint.MIX_SET_LEVERAGE, a -> {
            Contract c = sim.pick(SimWorld.CONTRACTS);
            String lev = sim.rnd.nextInt(10) == 0 ? "0" : Integer.toString(1 + sim.rnd.nextInt(Math.min(25, c.maxLeverage())));
            sim.api(a, Endpoint.MIX_SET_LEVERAGE, contract(c) + ",\"marginCoin\":\"" + marginCoin(c) + "\",\"leverage\":\"" + lev + "\""
                    + (sim.rnd.nextInt(3) == 0 ? ",\"holdSide\":\"" + (sim.rnd.nextBoolean() ? "long" : "short") + "\"" : "") + "}");
        });
        m.put(Endpoint.MIX_SET_MARGIN_MODE, a -> {
            Contract c = sim.pick(SimWorld.CONTRACTS);
            sim.api(a, Endpoint.MIX_SET_MARGIN_MODE, contract(c) + ",\"marginCoin\":\"" + marginCoin(c) + "\",\"marginMode\":\""
                    + sim.pickBad(10, "both", "crossed", "isolated") + "\"}");
        });
        m.put(Endpoint.MIX_SET_POSITION_MODE, a -> sim.api(a, Endpoint.MIX_SET_POSITION_MODE, "{\"productType\":\"USDT-FUTURES\",\"posMode\":\""
                + sim.pickBad(10, "both", "one_way_mode", "hedge_mode") + "\"}"));
    }

    /** A v2 spot order body after `head` (an opening brace, with the symbol or not): limit around the mid, some market, some bad. */
    private String spotOrder(String head) {
        String side = sim.rnd.nextBoolean() ? "buy" : "sell";
        boolean market = sim.rnd.nextInt(4) == 0;
        String size = market && side.equals("buy") ? sim.decimal(500, 300_000, 2) : sim.decimal(1, 60, 2);
        BigDecimal price = spot.nearMid();
        String force = sim.pick(List.of("gtc", "GTC", "ioc", "fok", "post_only"));
        switch (sim.rnd.nextInt(25)) {
            case 0 -> size = "0.00001";
            case 1 -> price = price.add(new BigDecimal("0.05"));
            case 2 -> side = "hold";
            case 3 -> size = "100000";
            case 4 -> force = "gtd";
            default -> { }
        }
        StringBuilder b = new StringBuilder(head);
        if (b.length() > 1) b.append(',');
        b.append("\"side\":\"").append(side).append("\",\"orderType\":\"").append(market ? "market" : "limit").append("\",\"force\":\"")
                .append(force).append("\",\"size\":\"").append(size).append('"');
        if (!market) b.append(",\"price\":\"").append(price.toPlainString()).append('"');
        if (sim.rnd.nextInt(3) == 0) b.append(",\"clientOid\":\"c-").append(sim.rnd.nextInt(clientOids + 1)).append('"');
        clientOids++;
        return b.append('}').toString();
    }

    /** A working order of the caller (mostly), by orderId or clientOid; or one it does not have. */
    private String orderRef(Acct a) {
        List<ModelOrders.Order> mine = sim.ref.orders.workingOf(a);
        if (sim.rnd.nextInt(10) < 8 && !mine.isEmpty()) {
            ModelOrders.Order o = mine.get(sim.rnd.nextInt(mine.size()));
            return o.clientOid != null && sim.rnd.nextBoolean() ? "\"clientOid\":\"" + o.clientOid + "\"" : "\"orderId\":\"" + o.id + "\"";
        }
        return "\"orderId\":\"" + (7 + sim.rnd.nextInt(5)) + "\"";
    }

    /** The world's contracts: USDT-margined, and BTCUSD margined in BTC. */
    private static String marginCoin(Contract c) {
        return c.category().equals("COIN-FUTURES") ? c.symbol().replace("USD", "") : "USDT";
    }

    private static String contract(Contract c) {
        return "{\"symbol\":\"" + c.symbol() + "\",\"productType\":\"" + c.category() + "\"";
    }

    /** A v2 futures market order: tradeSide open/close (hedge mode), sometimes reduceOnly YES; one line in a batch. */
    private String futuresOrder(boolean batch) {
        Contract c = sim.pick(SimWorld.CONTRACTS);
        String size = switch (c.symbol()) {
            case "BTCUSDT" -> sim.decimal(1, 300, 3);
            case "ETHUSDT" -> sim.decimal(1, 250, 2);
            default -> sim.decimal(1, 400, 4);
        };
        if (sim.rnd.nextInt(12) == 0) size = "0.00001";
        StringBuilder line = new StringBuilder("\"side\":\"" + (sim.rnd.nextBoolean() ? "buy" : "sell") + "\",\"orderType\":\"market\",\"size\":\"" + size + "\"");
        if (sim.rnd.nextInt(4) != 0) line.append(",\"tradeSide\":\"").append(sim.rnd.nextBoolean() ? "open" : "close").append('"');
        if (sim.rnd.nextInt(3) == 0) line.append(",\"reduceOnly\":\"").append(sim.pick(List.of("YES", "NO"))).append('"');
        String head = contract(c) + ",\"marginCoin\":\"" + marginCoin(c) + "\",\"marginMode\":\"crossed\"";
        return batch ? head + ",\"orderList\":[{" + line + "}]}" : head + "," + line + "}";
    }

    /** A working futures limit order of the caller (mostly; of either family: the other's must be refused), or null. */
    private ModelRestingFutures.Order resting(Acct a) {
        List<ModelRestingFutures.Order> mine = sim.ref.resting.orders.stream().filter(o -> o.owner == a).toList();
        return mine.isEmpty() || sim.rnd.nextInt(8) == 0 ? null : mine.get(sim.rnd.nextInt(mine.size()));
    }

    /** An opening futures limit order on a USDT contract, far from the mark (ModelClassic: it rests); one line in a batch. */
    private String restingOrder(boolean batch) {
        Contract c = sim.pick(SimWorld.CONTRACTS.stream().filter(x -> x.category().equals("USDT-FUTURES")).toList());
        boolean buy = sim.rnd.nextBoolean();
        String line = "\"side\":\"" + (buy ? "buy" : "sell") + "\",\"orderType\":\"limit\",\"force\":\"gtc\",\"tradeSide\":\"open\",\"size\":\""
                + (c.symbol().equals("BTCUSDT") ? sim.decimal(1, 100, 3) : sim.decimal(1, 200, 2)) + "\",\"price\":\"" + spot.far(c.symbol(), buy).toPlainString() + "\"";
        String head = contract(c) + ",\"marginCoin\":\"USDT\",\"marginMode\":\"crossed\"";
        return batch ? head + ",\"orderList\":[{" + line + "}]}" : head + "," + line + "}";
    }

    /** A TP/SL of one of the caller's positions (SimOrderOps.tpslTarget), as a v2 plan. */
    private void placeTpsl(Acct a) {
        SimOrderOps.TpslTarget t = spot.tpslTarget(a);
        String plan = sim.pick(List.of("pos_profit", "pos_loss", "profit_plan", "loss_plan"));
        sim.api(a, Endpoint.MIX_PLACE_TPSL_ORDER, contract(t.contract()) + ",\"marginCoin\":\"" + marginCoin(t.contract()) + "\",\"planType\":\""
                + plan + "\",\"triggerPrice\":\"" + t.at().toPlainString() + "\",\"holdSide\":\"" + t.side() + "\""
                + (plan.startsWith("pos_") ? "" : ",\"size\":\"" + sim.decimal(1, 100, 3) + "\"") + "}");
    }
}
