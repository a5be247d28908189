package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.proof.SimWorld.Acct;
import io.tas.proof.SimWorld.Contract;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

import static io.tas.proof.SimWorld.A;
import static io.tas.proof.SimWorld.A1;
import static io.tas.proof.SimWorld.B;
import static io.tas.proof.SimWorld.C;

/**
 * The simulation's admin writes: ledger deposits, adjustments and borrows (with retries of earlier refs), positions as a
 * matching engine reports them, ticker moves (which fill resting Reality orders), record feeds, sandbox time with due
 * jobs, and the Reality allow-list. Every value is drawn from the simulation's Random.
 */
final class SimAdminOps {
    private final Simulation sim;

    SimAdminOps(Simulation sim) { this.sim = sim; }


    void ledger(String op) {
        Acct a = sim.rnd.nextInt(25) == 0 ? null : sim.pick(SimWorld.ALL);
        long uid = a == null ? SimWorld.STRANGER : a.uid();
        final String body;
        List<String> done = sim.model.ledgerBodies.computeIfAbsent(op, k -> new ArrayList<>());
        if (!done.isEmpty() && sim.rnd.nextInt(12) == 0) {
            body = sim.pick(done); // a retry: the same transaction again (repeated: true)
            a = SimWorld.ALL.stream().filter(x -> body.startsWith("{\"uid\":" + x.uid() + ",")).findFirst().orElse(null);
        } else {
            String coin = op.equals("borrow") ? sim.pick(List.of("USDT", "USDT", "ETH", "BTC")) : sim.pick(List.of("USDT", "USDT", "BTC", "ETH", "BGB", "DOGE", "AAPLX"));
            String account = op.equals("borrow") ? "unified" : sim.pick(List.of("unified", "unified", "unified", "spot", "otc"));
            String amount = amountFor(coin);
            if (op.equals("adjust") || op.equals("borrow")) {
                if (sim.rnd.nextInt(3) == 0) amount = "-" + amount;
            }
            if (sim.rnd.nextInt(15) == 0) amount = sim.pick(List.of("0", "-5", "1e400", "0.0000000000000000001"));
            String ref = sim.rnd.nextInt(20) == 0 && !done.isEmpty() ? "sim-" + op + "-" + sim.rnd.nextInt(done.size()) : "sim-" + op + "-" + done.size();
            body = "{\"uid\":" + uid + ",\"account\":\"" + account + "\",\"coin\":\"" + coin + "\",\"amount\":\"" + amount + "\",\"ref\":\"" + ref + "\"}";
        }
        Reply r = sim.admin(op, "/admin/v1/ledger/" + op, body);
        if (Simulation.ok(r)) {
            if (!done.contains(body)) done.add(body);
            if (op.equals("deposit") && a != null && a.unified()) {
                sim.model.depositRecords.add(new SimModel.Ack(a, r.data().get("txId").asText()));
            }
        }
    }

    String amountFor(String coin) {
        return switch (coin) {
            case "BTC" -> sim.decimal(1, 5000, 6);
            case "ETH" -> sim.decimal(1, 2000, 4);
            case "DOGE" -> sim.decimal(1, 50, 1); // stays dust (a few USDT) more often than not
            case "AAPLX" -> sim.decimal(1, 500, 2);
            default -> sim.decimal(1, 5000, 1);
        };
    }

    /** As a matching engine reports an opening fill: at the leverage and margin mode the account has configured. */
    void openPosition() {
        Acct a = sim.pick(SimWorld.ALL);
        Contract c = sim.pick(SimWorld.CONTRACTS);
        String marginMode = "crossed";
        BigDecimal leverage = BigDecimal.TEN.min(BigDecimal.valueOf(c.maxLeverage()));
        String side = sim.rnd.nextBoolean() ? "long" : "short";
        if (a.unified()) {
            JsonNode config = SimInvariants.symbolConfig(sim.clients.get(a).get("/api/v3/account/settings").data(), c);
            if (config != null) {
                marginMode = config.get("marginMode").asText();
                leverage = new BigDecimal(config.get(side.equals("short") && marginMode.equals("isolated") ? "shortLeverage" : "longLeverage").asText());
            }
        } else if (sim.rnd.nextBoolean()) {
            marginMode = "isolated";
            leverage = BigDecimal.valueOf(1 + sim.rnd.nextInt(20));
        }
        BigDecimal mark = sim.model.mark.get(c.symbol());
        String size = c.category().equals("COIN-FUTURES") ? sim.decimal(1, 50, 4) : c.symbol().startsWith("BTC") ? sim.decimal(1, 80, 3) : sim.decimal(1, 200, 2);
        if (sim.rnd.nextInt(15) == 0) size = sim.pick(List.of("0", "-1"));
        String price = mark.multiply(BigDecimal.valueOf(990 + sim.rnd.nextInt(21))).divide(BigDecimal.valueOf(1000), 1, RoundingMode.DOWN).toPlainString();
        String lev = sim.rnd.nextInt(20) == 0 ? "500" : leverage.stripTrailingZeros().toPlainString();
        sim.model.touched.add(a);
        sim.admin("position-open", "/admin/v1/positions", "{\"uid\":" + a.uid() + ",\"category\":\"" + c.category() + "\",\"symbol\":\"" + c.symbol()
                + "\",\"holdSide\":\"" + side + "\",\"marginMode\":\"" + marginMode + "\",\"leverage\":\"" + lev + "\",\"size\":\"" + size
                + "\",\"price\":\"" + price + "\",\"fee\":\"" + fee(c.category().equals("COIN-FUTURES"), 300) + "\"}");
    }

    void fillPosition(boolean close) {
        Acct a = sim.pick(SimWorld.ALL);
        sim.model.touched.add(a);
        JsonNode open = sim.admin.get("/admin/v1/accounts/" + a.uid() + "/positions").data();
        String id;
        BigDecimal size = BigDecimal.ONE;
        BigDecimal mark;
        boolean inverse = false;
        if (open.isEmpty() || sim.rnd.nextInt(20) == 0) {
            id = Long.toString(987654321L + sim.rnd.nextInt(100)); // no such position
            mark = sim.model.mark.get("BTCUSDT");
        } else {
            JsonNode p = open.get(sim.rnd.nextInt(open.size()));
            id = p.get("id").asText();
            size = new BigDecimal(p.get("size").asText());
            mark = sim.model.mark.get(p.get("symbol").asText());
            inverse = p.get("category").asText().equals("COIN-FUTURES");
        }
        String price = mark.multiply(BigDecimal.valueOf(950 + sim.rnd.nextInt(101))).divide(BigDecimal.valueOf(1000), 1, RoundingMode.DOWN).toPlainString();
        String fee = fee(inverse, 100);
        if (close) {
            sim.admin("position-close", "/admin/v1/positions/" + id + "/close", "{\"price\":\"" + price + "\",\"fee\":\"" + fee + "\"}");
            return;
        }
        BigDecimal delta;
        if (sim.rnd.nextBoolean()) delta = size.multiply(BigDecimal.valueOf(1 + sim.rnd.nextInt(100))).divide(BigDecimal.valueOf(100), size.scale(), RoundingMode.DOWN);
        else delta = size.multiply(BigDecimal.valueOf(-(1 + sim.rnd.nextInt(110)))).divide(BigDecimal.valueOf(100), size.scale(), RoundingMode.DOWN);
        if (delta.signum() == 0) delta = size;
        sim.admin("position-fill", "/admin/v1/positions/" + id + "/fill", "{\"size\":\"" + delta.toPlainString() + "\",\"price\":\"" + price + "\",\"fee\":\"" + fee + "\"}");
    }

    /**
     * A fill's fee in the margin coin: up to `units` hundredths of USDT, or millionths of BTC for a coin-margined contract
     * (issue 24: fees of whole BTC refused nearly every inverse open and add for want of balance).
     */
    private String fee(boolean inverse, int units) { return sim.decimal(0, units, inverse ? 6 : 2); }

    /**
     * The Reality pair's book moves (a random walk of the mid): resting orders it crosses fill (D223). Its level size, 0.01
     * to 5, is often below an order's qty, so takers walk the synthetic levels.
     */
    void realityTicker() {
        sim.model.realityMid = sim.model.realityMid.multiply(BigDecimal.valueOf(985 + sim.rnd.nextInt(31))).divide(BigDecimal.valueOf(1000), 2, RoundingMode.HALF_EVEN);
        BigDecimal spread = BigDecimal.valueOf(1 + sim.rnd.nextInt(50), 2);
        String ask = sim.model.realityMid.add(spread).toPlainString();
        String bid = sim.model.realityMid.subtract(spread).max(new BigDecimal("0.01")).toPlainString();
        sim.admin("ticker", "/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + SimWorld.REALITY + "\",\"lastPrice\":\"" + sim.model.realityMid
                + "\",\"ask1Price\":\"" + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"" + sim.decimal(1, 500, 2)
                + "\",\"bid1Size\":\"" + sim.decimal(1, 500, 2) + "\"}");
    }

    void futuresTicker() {
        Contract c = sim.pick(SimWorld.CONTRACTS);
        BigDecimal mark = sim.model.mark.get(c.symbol()).multiply(BigDecimal.valueOf(970 + sim.rnd.nextInt(61))).divide(BigDecimal.valueOf(1000), 1, RoundingMode.HALF_EVEN);
        sim.model.mark.put(c.symbol(), mark);
        sim.admin("ticker", "/admin/v1/tickers", "{\"category\":\"" + c.category() + "\",\"symbol\":\"" + c.symbol() + "\",\"lastPrice\":\"" + mark
                + "\",\"markPrice\":\"" + mark + "\",\"indexPrice\":\"" + mark + "\"}");
    }

    /** Records a feed reports (issue 9): fills and withdrawals of the classic account, deposits of a unified one. */
    void ingest() {
        int kind = sim.rnd.nextInt(3);
        long id = 100_000_000L + sim.model.recordIds;
        int n = 1 + sim.rnd.nextInt(3);
        boolean bad = sim.rnd.nextInt(8) == 0;
        List<String> records = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long orderId = bad && i == n - 1 && id > 100_000_000L ? id - 1 : id + i; // a reused ID: the batch is refused
            ids.add(Long.toString(orderId));
            records.add(switch (kind) {
                case 0 -> "{\"tradeId\":" + orderId + ",\"orderId\":" + orderId + ",\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"priceAvg\":\"95000\",\"size\":\""
                        + sim.decimal(1, 100, 4) + "\",\"feeDetail\":{\"feeCoin\":\"BTC\",\"totalFee\":\"-0.00001\"}}";
                case 1 -> "{\"orderId\":" + orderId + ",\"coin\":\"USDT\",\"size\":\"" + sim.decimal(1, 1000, 1) + "\",\"fee\":\"1\"}";
                default -> "{\"orderId\":" + orderId + ",\"coin\":\"USDT\",\"size\":\"" + sim.decimal(1, 1000, 1) + "\"}";
            });
        }
        sim.model.recordIds += n;
        Acct a = kind == 2 ? sim.pick(SimWorld.UNIFIED) : C;
        String row = kind == 0 ? "fills" : kind == 1 ? "withdrawals" : "deposits";
        Reply r = sim.admin("records-" + row, "/admin/v1/records/" + row, "{\"uid\":" + a.uid() + ",\"records\":[" + String.join(",", records) + "]}");
        if (Simulation.ok(r)) for (String x : ids) (kind == 0 ? sim.model.fills : kind == 1 ? sim.model.withdrawals : sim.model.depositRecords).add(new SimModel.Ack(a, x));
    }

    /** Sandbox time moves on and due jobs (the switch to classic, D52) run now. */
    void advanceClock() {
        advanceClock(sim.rnd.nextInt(4) == 0 ? 61_000 : 1 + sim.rnd.nextInt(5_000));
    }

    /**
     * Issue 24: a main account winds down and switches to classic, so that the balances' move to spot is exercised (at
     * random the account's positions, working Reality orders and debts kept every switch from succeeding). Its open
     * positions close at the mark, its working Reality orders are cancelled, its debts are repaid (deposited first where
     * the balance falls short), it asks for the switch, and the sandbox clock moves past the switch's minute with due
     * jobs run. A pending strategy order still makes the switch fail (the reference model expects that too).
     */
    void windDown() {
        Acct a = sim.pick(List.of(A, B, B));
        sim.ref.event("wind-down");
        String path = "/admin/v1/accounts/" + a.uid();
        for (JsonNode p : sim.admin.get(path + "/positions").data()) {
            sim.admin("position-close", "/admin/v1/positions/" + p.get("id").asText() + "/close",
                    "{\"price\":\"" + sim.model.mark.get(p.get("symbol").asText()) + "\",\"fee\":\"0\"}");
        }
        for (JsonNode o : sim.admin.get(path + "/reality-orders").data()) {
            if (List.of("live", "partially_filled").contains(o.get("status").asText())) {
                sim.api(a, io.tas.http.Endpoint.CANCEL_REALITY_ORDER, "{\"symbol\":\"" + SimWorld.REALITY + "\",\"orderId\":\"" + o.get("orderId").asText() + "\"}");
            }
        }
        for (JsonNode b : sim.admin.get(path + "/balances").data()) {
            BigDecimal debt = new BigDecimal(b.get("debt").asText());
            if (!b.get("account").asText().equals("unified") || debt.signum() == 0) continue;
            String coin = b.get("coin").asText();
            BigDecimal missing = debt.subtract(new BigDecimal(b.get("available").asText()));
            String ref = "sim-wind-down-" + sim.model.step + "-" + coin;
            if (missing.signum() > 0) {
                sim.admin("deposit", "/admin/v1/ledger/deposit", "{\"uid\":" + a.uid() + ",\"account\":\"unified\",\"coin\":\"" + coin
                        + "\",\"amount\":\"" + missing.toPlainString() + "\",\"ref\":\"" + ref + "\"}");
            }
            sim.admin("borrow", "/admin/v1/ledger/borrow", "{\"uid\":" + a.uid() + ",\"account\":\"unified\",\"coin\":\"" + coin
                    + "\",\"amount\":\"-" + debt.toPlainString() + "\",\"ref\":\"" + ref + "\"}");
        }
        sim.api(a, io.tas.http.Endpoint.ACCOUNT_SWITCH, "");
        advanceClock(61_000);
    }

    private void advanceClock(long ms) {
        sim.model.touched.addAll(SimWorld.ALL); // a due switch job changes its account
        Reply r = sim.admin("clock-advance", "/admin/v1/sandbox/clock/advance", "{\"ms\":" + ms + "}");
        Simulation.must(r);
        Reply due = sim.admin.post("/admin/v1/jobs/run-due", "");
        Simulation.must(due);
        // Whether this call or the node's own poller ran a job is timing; what is left due is not.
        sim.opStart = System.nanoTime();
        sim.record("run-due", "admin", "", due.status() + " {\"code\":\"" + due.code() + "\",\"remaining\":" + due.data().get("remaining").asText() + "}");
        sim.ref.timed(sim.ref::jobsRan);
    }

    void allowList() {
        Acct a = sim.pick(List.of(A, A1, B));
        sim.admin("reality-allow-list", "/admin/v1/accounts/" + a.uid() + "/reality-allow-list",
                "{\"allowed\":" + (a == A1 ? sim.rnd.nextBoolean() : sim.rnd.nextInt(4) != 0) + "}");
    }
}
