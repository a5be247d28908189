package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.proof.SimModel.Read;
import io.tas.proof.SimWorld.Acct;
import io.tas.proof.SimWorld.Contract;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static io.tas.proof.SimWorld.C;

/**
 * The simulation's record and provisioning writes of the admin surface: history positions, strategy orders of all six
 * types, copy-trading profit summaries here; API keys (created, used for a signed read, revoked and then refused),
 * accounts and loan terms in SimProvisionOps. About one batch in eight is deliberately bad (a reused ID, a value out of range, a stranger's UID)
 * and must be refused whole. Acknowledged records go to the model, to be read back through their API rows
 * (SimInvariants.recordsReadable). IDs are seeded (9-digit, below the Transcript's ID pattern) or taken from responses.
 */
final class SimRecordOps {
    private static final long DAY = 86_400_000L;
    private final Simulation sim;

    private final SimProvisionOps provision;

    SimRecordOps(Simulation sim) {
        this.sim = sim;
        this.provision = new SimProvisionOps(sim);
    }

    /** One step of this family (Simulation draws it for about 8 % of steps). */
    void step() {
        int r = sim.rnd.nextInt(16);
        if (r < 3) historyPositions();
        else if (r < 7) strategyOrders();
        else if (r < 9) profitSummary();
        else if (r < 11) provision.createKey();
        else if (r < 13) provision.revokeKey();
        else if (r < 14) provision.createAccount();
        else provision.loanTerms();
    }

    private boolean bad() { return sim.rnd.nextInt(8) == 0; }

    /** Closed positions a matching engine reports (§2.14 / §2.16): a unified account's are read on v3, the classic one's on v2. */
    void historyPositions() {
        Acct a = sim.pick(SimWorld.ALL);
        long uid = sim.rnd.nextInt(25) == 0 ? SimWorld.STRANGER : a.uid();
        boolean bad = bad();
        int n = 1 + sim.rnd.nextInt(3);
        List<String> records = new ArrayList<>();
        List<Long> given = new ArrayList<>();
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Contract c = sim.pick(SimWorld.CONTRACTS);
            Long id = sim.rnd.nextBoolean() ? 200_000_000L + sim.model.recordIds++ : null;
            if (bad && i == n - 1) {
                List<Read> earlier = sim.model.historyPositions.stream().filter(x -> x.id().length() == 9).toList();
                if (!earlier.isEmpty() && sim.rnd.nextBoolean()) id = Long.parseLong(sim.pick(earlier).id()); // already exists
            }
            given.add(id);
            BigDecimal mark = sim.model.mark.get(c.symbol());
            String size = c.category().equals("COIN-FUTURES") ? sim.decimal(1, 50, 4) : sim.decimal(1, 200, 2);
            String close = mark.multiply(BigDecimal.valueOf(950 + sim.rnd.nextInt(101))).movePointLeft(3).setScale(1, java.math.RoundingMode.DOWN).toPlainString();
            BigDecimal pnl = new BigDecimal(sim.decimal(0, 20000, 2)).subtract(BigDecimal.valueOf(100));
            BigDecimal openFee = new BigDecimal(sim.decimal(0, 500, 2)).negate();
            BigDecimal closeFee = new BigDecimal(sim.decimal(0, 500, 2)).negate();
            BigDecimal funding = new BigDecimal(sim.decimal(0, 200, 2)).subtract(BigDecimal.ONE);
            BigDecimal net = pnl.add(funding).add(openFee).add(closeFee);
            if (bad && i == n - 1 && id == null) net = net.add(BigDecimal.ONE); // netProfit is not the sum: refused
            long utime = sim.model.now() - sim.rnd.nextInt((int) (DAY / 1000)) * 1000L;
            long ctime = utime - sim.rnd.nextInt(3_600_000);
            String side = sim.rnd.nextBoolean() ? "long" : "short";
            records.add("{" + (id == null ? "" : "\"positionId\":" + id + ",") + "\"uid\":" + uid + ",\"category\":\"" + c.category()
                    + "\",\"symbol\":\"" + c.symbol() + "\",\"holdSide\":\"" + side + "\",\"marginMode\":\"" + (sim.rnd.nextBoolean() ? "crossed" : "isolated")
                    + "\",\"posMode\":\"" + (sim.rnd.nextBoolean() ? "one_way_mode" : "hedge_mode") + "\",\"leverage\":\"" + (1 + sim.rnd.nextInt(c.maxLeverage()))
                    + "\",\"openAvgPrice\":\"" + mark + "\",\"closeAvgPrice\":\"" + close + "\",\"openTotalPos\":\"" + size + "\",\"closeTotalPos\":\"" + size
                    + "\",\"pnl\":\"" + pnl + "\",\"totalFunding\":\"" + funding + "\",\"openFee\":\"" + openFee + "\",\"closeFee\":\"" + closeFee
                    + (sim.rnd.nextBoolean() ? "\",\"netProfit\":\"" + net : "") + "\",\"ctime\":" + ctime + ",\"utime\":" + utime + "}");
            String window = "&symbol=" + c.symbol() + "&startTime=" + utime + "&endTime=" + utime + "&limit=100";
            targets.add(a.unified() ? "/api/v3/position/history-position?category=" + c.category() + window
                    : "/api/v2/mix/position/history-position?productType=" + c.category() + window);
        }
        Reply r = sim.admin("records-history-positions", "/admin/v1/records/history-positions", "{\"records\":[" + String.join(",", records) + "]}");
        if (!Simulation.ok(r)) {
            for (int i = 0; i < n; i++) if (given.get(i) != null) absent(new Read(a, given.get(i).toString(), targets.get(i), "positionId"), sim.model.historyPositions);
            return;
        }
        JsonNode ids = r.data().get("positionIds");
        for (int i = 0; i < n; i++) {
            String id = ids.get(i).asText();
            if (given.get(i) != null && !id.equals(given.get(i).toString())) throw new AssertionError("step " + sim.model.step + ": positionId " + given.get(i) + " stored as " + id);
            sim.model.historyPositions.add(new Read(a, id, targets.get(i), "positionId"));
        }
    }

    private static final List<String> TYPES = List.of("tpsl", "trigger", "oco", "trailing_stop", "iceberg", "twap");

    /** Strategy orders (§2.19) of all six types; working ones (pending, submitting) are rare: they block hold-mode switches and the switch to classic. */
    void strategyOrders() {
        Acct a = sim.rnd.nextInt(20) == 0 ? C : sim.pick(SimWorld.UNIFIED); // the classic account: refused
        long uid = sim.rnd.nextInt(30) == 0 ? SimWorld.STRANGER : a.uid();
        boolean bad = bad();
        int n = 1 + sim.rnd.nextInt(3);
        List<String> records = new ArrayList<>();
        List<Read> reads = new ArrayList<>();
        long now = sim.model.now();
        for (int i = 0; i < n; i++) {
            String type = sim.pick(TYPES);
            Contract c = sim.pick(SimWorld.CONTRACTS);
            String status = sim.rnd.nextInt(30) == 0 ? sim.pick(List.of("pending", "submitting")) : sim.pick(List.of("success", "failed", "cancelled"));
            boolean open = status.equals("pending") || status.equals("submitting");
            String id = sim.rnd.nextInt(3) == 0 ? Long.toString(300_000_000L + sim.model.recordIds++) : null;
            String params = params(type, sim.model.mark.get(c.symbol()));
            String qty = sim.decimal(1, 5000, 3);
            if (bad && i == n - 1) {
                List<Read> earlier = sim.model.strategyOrders.stream().filter(x -> x.id().length() == 9).toList();
                int how = sim.rnd.nextInt(3);
                if (how == 0 && !earlier.isEmpty()) id = sim.pick(earlier).id(); // orderId already exists
                else if (how == 1) qty = "0";
                else params = type.equals("tpsl") ? "\"tpOrderType\":\"market\"" : "\"ocoParams\":[]"; // tpsl without prices; an empty or foreign list
            }
            long created = now - sim.rnd.nextInt((int) (DAY / 1000)) * 1000L;
            long updated = Math.min(now, created + sim.rnd.nextInt(600_000));
            records.add("{" + (id == null ? "" : "\"orderId\":" + id + ",") + (sim.rnd.nextInt(3) == 0 ? "\"clientOid\":\"sim-so-" + sim.model.recordIds + "-" + i + "\"," : "")
                    + "\"type\":\"" + type + "\",\"category\":\"" + c.category() + "\",\"symbol\":\"" + c.symbol() + "\",\"qty\":\"" + qty
                    + "\",\"posSide\":\"" + (sim.rnd.nextBoolean() ? "long" : "short") + "\",\"status\":\"" + status + "\"," + params
                    + ",\"createdTime\":" + created + ",\"updatedTime\":" + updated + "}");
            String q = "?category=" + c.category() + "&type=" + type;
            reads.add(new Read(a, id, open ? "/api/v3/trade/unfilled-strategy-orders" + q
                    : "/api/v3/trade/history-strategy-orders" + q + "&startTime=" + created + "&endTime=" + created + "&limit=100", "orderId"));
        }
        Reply r = sim.admin("records-strategy-orders", "/admin/v1/records/strategy-orders", "{\"uid\":" + uid + ",\"records\":[" + String.join(",", records) + "]}");
        if (!Simulation.ok(r)) {
            for (Read x : reads) if (x.id() != null) absent(x, sim.model.strategyOrders);
            return;
        }
        JsonNode ids = r.data().get("orderIds");
        for (int i = 0; i < n; i++) {
            Read x = reads.get(i);
            String id = ids.get(i).asText();
            if (x.id() != null && !x.id().equals(id)) throw new AssertionError("step " + sim.model.step + ": orderId " + x.id() + " stored as " + id);
            sim.model.strategyOrders.add(new Read(x.owner(), id, x.target(), x.idField()));
        }
    }

    /** A refused batch stored nothing: a seeded ID of it that was not acknowledged before is not listed by its read row. */
    private void absent(Read x, List<Read> acked) {
        if (!sim.clients.containsKey(x.owner()) || acked.stream().anyMatch(y -> y.id().equals(x.id()))) return;
        Reply r = sim.clients.get(x.owner()).get(x.target());
        if (!Simulation.ok(r)) return; // e.g. the classic account on a v3 row
        for (JsonNode o : r.data().isArray() ? r.data() : r.data().path("list")) {
            if (o.path(x.idField()).asText().equals(x.id())) {
                throw new AssertionError("step " + sim.model.step + ": a refused batch stored " + x.idField() + " " + x.id() + ": " + r.raw());
            }
        }
    }

    /** The type's own fields (§2.19), priced around the contract's mark. */
    private String params(String type, BigDecimal mark) {
        String up = mark.multiply(BigDecimal.valueOf(1000 + sim.rnd.nextInt(100))).movePointLeft(3).setScale(1, java.math.RoundingMode.DOWN).toPlainString();
        String down = mark.multiply(BigDecimal.valueOf(900 + sim.rnd.nextInt(100))).movePointLeft(3).setScale(1, java.math.RoundingMode.DOWN).toPlainString();
        String orderType = sim.rnd.nextBoolean() ? "market" : "limit";
        return switch (type) {
            case "tpsl" -> sim.rnd.nextBoolean()
                    ? "\"triggerType\":\"takeProfit\",\"tpTriggerBy\":\"mark\",\"takeProfit\":\"" + up + "\",\"tpOrderType\":\"" + orderType + "\""
                    + (orderType.equals("limit") ? ",\"tpLimitPrice\":\"" + up + "\"" : "")
                    : "\"triggerType\":\"stopLoss\",\"slTriggerBy\":\"market\",\"stopLoss\":\"" + down + "\",\"slOrderType\":\"market\"";
            case "trigger" -> "\"triggerBy\":\"" + (sim.rnd.nextBoolean() ? "market" : "mark") + "\",\"triggerPrice\":\"" + down
                    + "\",\"triggerOrderType\":\"" + orderType + "\"" + (orderType.equals("limit") ? ",\"triggerOrderPrice\":\"" + down + "\"" : "");
            case "oco" -> "\"ocoParams\":[{\"ocoLimitPrice\":\"" + up + "\",\"ocoTriggerPrice\":\"" + down + "\",\"ocoOrderType\":\"" + orderType + "\"}]";
            case "trailing_stop" -> "\"trailingStopParams\":[{\"activationPrice\":\"" + up + "\",\"activationType\":\"" + sim.pick(List.of("market", "mark", "index"))
                    + "\",\"trailType\":\"" + (sim.rnd.nextBoolean() ? "ratio\",\"trailVariance\":\"0.0" + (1 + sim.rnd.nextInt(9)) : "spread\",\"trailVariance\":\"" + (1 + sim.rnd.nextInt(200)))
                    + "\",\"preOrderType\":\"market\"}]";
            case "iceberg" -> "\"icebergParams\":[{\"splitMode\":\"" + (sim.rnd.nextBoolean() ? "order\",\"splitOrderNumbers\":\"" + (2 + sim.rnd.nextInt(9))
                    : "quantity\",\"qtyPerOrder\":\"0.01") + "\",\"orderPreference\":\"fixed_price\",\"fixedPrice\":\"" + down + "\"}]";
            default -> "\"twapParams\":[{\"duration\":\"" + (30 + sim.rnd.nextInt(300)) + "\",\"interval\":\"10\",\"orderType\":\"" + orderType
                    + "\",\"limitOffsetType\":\"spread\",\"limitOffsetPercentage\":\"0\",\"limitOffsetSpread\":\"1.5\",\"twapTriggerPrice\":\"" + down
                    + "\",\"twapTerminationPrice\":\"" + up + "\"}]";
        };
    }

    /** §2.21: set (replaced) by operators; totalProfit may be negative, the allocated and pending shares may not. */
    void profitSummary() {
        Acct a = sim.pick(SimWorld.ALL);
        long uid = sim.rnd.nextInt(25) == 0 ? SimWorld.STRANGER : a.uid();
        BigDecimal[] v = {new BigDecimal(sim.decimal(0, 2_000_000, 2)).subtract(BigDecimal.valueOf(5000)),
                new BigDecimal(sim.decimal(0, 500_000, 2)), new BigDecimal(sim.decimal(0, 500_000, 2))};
        if (bad()) v[1 + sim.rnd.nextInt(2)] = BigDecimal.valueOf(-1);
        Reply r = sim.admin("records-profit-summary", "/admin/v1/records/profit-summary", "{\"uid\":" + uid + ",\"totalProfit\":\"" + v[0].toPlainString()
                + "\",\"totalAllocatedProfit\":\"" + v[1].toPlainString() + "\",\"totalPendingProfit\":\"" + v[2].toPlainString() + "\"}");
        if (Simulation.ok(r)) sim.model.profitSummaries.put(a, v);
    }
}
