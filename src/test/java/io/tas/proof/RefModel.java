package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tas.http.Endpoint;
import io.tas.proof.ModelAccount.Bal;
import io.tas.proof.SimWorld.Acct;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Issue 24: the simulation's reference model (D133). From the seed document and the operations alone it computes every
 * account's balances, positions, fees and PnL with its own arithmetic (ModelFormulas), never the service's classes. It
 * applies an operation when the service accepted it; where money or state it knows decides the outcome, it first
 * asserts that the service agrees (D135). Positions and their settings are ModelPositions', Reality orders
 * ModelReality's; ModelCheck compares the model with the service's rows.
 */
final class RefModel {
    /** A planted fault (negative control, D136): the model computes a figure wrongly and the comparison must catch it. */
    enum Fault { NONE, FEE_ONE_UNIT, HARMONIC_INVERSE_MEAN }

    /** A futures contract of the seed: inverse when its margin coin is its base coin (COIN-FUTURES, margin in BTC). */
    record Contract(String category, String symbol, String baseCoin, String marginCoin, int maxLeverage, BigDecimal[][] tiers) {
        boolean inverse() { return marginCoin.equals(baseCoin); }
    }

    static final String TOKEN = "BGB"; // TAS_PLATFORM_TOKEN's default
    static final BigDecimal CONVERT_FEE_RATE = new BigDecimal("0.02"); // TAS_CONVERT_FEE_RATE's default (formulas.md)
    static final BigDecimal SMALL_ASSET_USDT = new BigDecimal("5"); // TAS_SMALL_ASSET_USDT's default
    static final long SWITCH_DELAY_MS = 60_000; // §8 "about one minute", TAS_ACCOUNT_SWITCH_DELAY_MS's default

    private static final ObjectMapper JSON = new ObjectMapper();

    final Fault fault;
    final Map<Acct, ModelAccount> accounts = new LinkedHashMap<>();
    final Map<String, Contract> contracts = new LinkedHashMap<>();
    /** Spot prices per coin (the last price of its SPOT ticker against USDT, D20) and contracts' mark prices. */
    final Map<String, BigDecimal> prices = new HashMap<>(Map.of("USDT", BigDecimal.ONE));
    final Map<String, BigDecimal> marks = new HashMap<>();
    /** Ledger refs per kind (deposit, adjustment, loan; D24): the movement each acknowledged one made. */
    private final Map<String, Map<String, String>> refs = new HashMap<>();
    /** The accounts whose money the current step changed, and those whose positions it addressed: compared right after it. */
    final Set<Acct> changed = new LinkedHashSet<>();
    final Set<Acct> positionsAddressed = new LinkedHashSet<>();
    /** Time spent in the model, its comparisons and the reads only it makes (ns), for the run's cost line. */
    long nanos;
    /** Operations the model saw accepted, for the mix line (inverse adds, token-fee fills, conversions, switches...). */
    final Map<String, Integer> events = new java.util.TreeMap<>();

    final ModelPositions positions;
    final ModelReality reality;
    final ModelOrders orders;
    final ModelRestingFutures resting;
    final ModelClassic classic;
    final ModelCheck check;
    private final SimModel sim;
    private final Map<Acct, ApiClient> clients;
    String where = "start";

    RefModel(String seed, SimModel sim, Map<Acct, ApiClient> clients, Fault fault) {
        this.sim = sim;
        this.clients = clients;
        this.fault = fault;
        this.positions = new ModelPositions(this);
        this.reality = new ModelReality(this);
        this.orders = new ModelOrders(this);
        this.resting = new ModelRestingFutures(this);
        this.classic = new ModelClassic(this, orders, positions);
        this.check = new ModelCheck(this);
        load(json(seed));
    }

    // --- the seed document, read as the spec and D119/D57 describe it

    private void load(JsonNode seed) {
        for (JsonNode i : seed.path("instruments")) {
            String category = i.get("category").asText();
            if (!category.endsWith("FUTURES")) continue;
            JsonNode t = i.get("mmrTiers");
            BigDecimal[][] tiers = new BigDecimal[t.size()][];
            for (int k = 0; k < t.size(); k++) tiers[k] = new BigDecimal[]{dec(t.get(k).get("maxNotional")), dec(t.get(k).get("mmr"))};
            contracts.put(i.get("symbol").asText(), new Contract(category, i.get("symbol").asText(), i.get("baseCoin").asText(),
                    i.get("marginCoin").asText(), i.get("maxLeverage").asInt(), tiers));
        }
        for (JsonNode t : seed.path("tickers")) {
            ticker(t);
        }
        for (JsonNode a : seed.path("accounts")) {
            loadAccount(a);
            for (JsonNode s : a.path("subAccounts")) loadAccount(s);
        }
    }

    private void loadAccount(JsonNode a) {
        Acct acct = SimWorld.ALL.stream().filter(x -> x.uid() == a.get("uid").asLong()).findFirst().orElseThrow();
        ModelAccount m = new ModelAccount(acct, !"CLASSIC".equals(a.path("accountMode").asText()));
        m.realityAllowed = a.path("realityAllowed").asBoolean(false);
        m.hedge = a.path("settings").path("holdMode").asText().equals("hedge_mode");
        for (JsonNode b : a.path("balances")) {
            Bal bal = m.bal(b.path("account").asText("unified"), b.get("coin").asText());
            if (b.has("available")) bal.available = bal.available.add(dec(b.get("available")));
            // A seed's debt is a borrow: available and debt move together (formulas.md, Loan data; D117).
            if (b.has("debt")) {
                bal.available = bal.available.add(dec(b.get("debt")));
                bal.debt = bal.debt.add(dec(b.get("debt")));
            }
        }
        for (JsonNode c : a.path("settings").path("symbolConfigList")) {
            BigDecimal lev = c.has("leverage") ? dec(c.get("leverage")) : null;
            m.configs.put(c.get("symbol").asText(), new ModelAccount.Config(c.get("marginMode").asText(),
                    c.has("longLeverage") ? dec(c.get("longLeverage")) : lev, c.has("shortLeverage") ? dec(c.get("shortLeverage")) : lev));
        }
        accounts.put(acct, m);
    }

    // --- the operations, as the simulation sends them

    /** A signed POST row of the catalog, after the service answered. */
    void api(Acct caller, Endpoint e, String body, Reply r) {
        ModelAccount a = accounts.get(caller);
        changed.add(caller);
        if (ModelClassic.handles(e)) {
            classic.api(a, e, json(body), r);
            return;
        }
        switch (e) {
            case SET_LEVERAGE -> positions.setLeverage(a, json(body), r);
            case SET_MARGIN -> positions.setMargin(a, json(body), r);
            case SMALL_ASSETS_TRADE -> smallAssets(a, json(body), r);
            case PLACE_REALITY_ORDER -> reality.place(a, json(body), r);
            case CANCEL_REALITY_ORDER -> reality.cancel(a, json(body), r);
            case SWITCH_DEDUCT -> { if (ok(r)) a.deduct = json(body).path("deduct").asText().equals("on"); }
            case SET_HOLD_MODE -> { if (ok(r)) a.hedge = json(body).path("holdMode").asText().equals("hedge_mode"); }
            case PLACE_ORDER -> placeOrder(a, json(body), r);
            case PLACE_BATCH -> batch(a, json(body), r, line -> placeOrder(a, line.getKey(), line.getValue()));
            case CANCEL_ORDER -> cancelOrder(a, json(body), r);
            case CANCEL_BATCH -> batch(a, json(body), r, line -> cancelOrder(a, line.getKey(), line.getValue()));
            case CANCEL_SYMBOL_ORDER -> orders.cancelSymbol(a, json(body), r);
            case MODIFY_ORDER -> modifyOrder(a, json(body), r);
            case CLOSE_POSITIONS -> orders.closePositions(a, json(body), r);
            case PLACE_STRATEGY_ORDER -> orders.placeTpsl(a, json(body), r);
            case CANCEL_STRATEGY_ORDER -> orders.cancelTpsl(a, json(body), r);
            case ACCOUNT_SWITCH -> switchRequest(a, r);
            default -> { } // hold mode and account level move no money
        }
    }

    private void placeOrder(ModelAccount a, JsonNode b, Reply r) {
        if (!b.path("category").asText().endsWith("FUTURES")) orders.placeSpot(a, b, r);
        else if (!"limit".equalsIgnoreCase(b.path("orderType").asText())) orders.placeFutures(a, b, r);
        else {
            // A futures limit order (the simulation's rest far from the mark): hedge mode opens with buy + long, sell + short.
            String side = b.path("side").asText(null), posSide = b.path("posSide").asText(null), reduceOnly = b.path("reduceOnly").asText("");
            boolean opens = side != null && ("buy".equals(side) ? "long" : "short").equals(posSide);
            resting.place(a, false, "place-order " + b, new ModelRestingFutures.Place(b.path("category").asText(), b.path("symbol").asText(null),
                    side, opens, reduceOnly.equalsIgnoreCase("yes") || reduceOnly.equalsIgnoreCase("true"), b.path("clientOid").asText(null),
                    decimal(b, "price"), decimal(b, "qty")), r);
        }
    }

    /** cancel-order (a v3 row or batch line): a resting futures order the model has, else ModelOrders' spot ones. */
    private void cancelOrder(ModelAccount a, JsonNode b, Reply r) {
        ModelRestingFutures.Order o = resting.find(a, false, b.path("orderId").asText(null), b.path("clientOid").asText(null));
        if (o == null) { orders.cancel(a, b, r); return; }
        String symbol = b.path("symbol").asText(null);
        resting.cancel(a, false, "cancel-order " + b, o, symbol == null || symbol.equalsIgnoreCase(o.symbol), r);
    }

    private void modifyOrder(ModelAccount a, JsonNode b, Reply r) {
        ModelRestingFutures.Order o = resting.find(a, false, b.path("orderId").asText(null), b.path("clientOid").asText(null));
        if (o == null) { orders.modify(a, b, r); return; }
        resting.modify(a, false, "modify-order " + b, o, true, decimal(b, "price"), decimal(b, "qty"), r);
    }

    private static BigDecimal decimal(JsonNode b, String name) {
        try {
            return b.hasNonNull(name) ? new BigDecimal(b.get(name).asText()) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * A batch row (place-batch, cancel-batch: a top-level array, order-entry-wire.md): each line is its own operation,
     * answered in its own line of data (a code and msg when it failed). A batch refused whole changes nothing.
     */
    private void batch(ModelAccount a, JsonNode lines, Reply r, java.util.function.Consumer<Map.Entry<JsonNode, Reply>> line) {
        if (!ok(r)) {
            if (r.code().equals("25202")) fail("a batch refused whole with 25202: " + r.raw());
            return;
        }
        if (!lines.isArray() || r.data().size() != lines.size()) fail("a batch of " + lines.size() + " answered " + r.raw());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode answer = r.data().get(i);
            com.fasterxml.jackson.databind.node.ObjectNode body = JSON.createObjectNode();
            body.put("code", answer.hasNonNull("code") ? answer.get("code").asText() : "00000");
            body.put("msg", answer.path("msg").asText(""));
            body.set("data", answer);
            line.accept(Map.entry(lines.get(i), new Reply(200, body, body.toString())));
        }
    }

    /** An admin write, after the service answered. */
    void admin(String op, String path, String body, Reply r) {
        switch (op) {
            case "deposit", "adjust", "borrow" -> ledger(op, json(body), r);
            case "position-open" -> positions.open(json(body), r);
            case "position-fill", "position-close" -> positions.fill(path.split("/")[4], op.equals("position-close"), json(body), r);
            case "ticker" -> { if (ok(r)) ticker(json(body)); }
            case "reality-allow-list" -> {
                Acct a = byUid(Long.parseLong(path.split("/")[4]));
                if (ok(r) && a != null) accounts.get(a).realityAllowed = json(body).path("allowed").asBoolean();
            }
            default -> { } // records, keys, accounts, loan terms, the clock: no money
        }
    }

    private void ticker(JsonNode t) {
        String category = t.get("category").asText();
        String symbol = t.get("symbol").asText();
        if (!category.equals("SPOT")) {
            marks.put(symbol, dec(t.get("markPrice")));
            orders.ticker(t);
            return;
        }
        if (symbol.endsWith("USDT")) prices.put(symbol.substring(0, symbol.length() - 4), dec(t.get("lastPrice")));
        if (orders != null) orders.ticker(t); // the Reality pair's too: one engine (D223)
    }

    // --- ledger operations (D24, D34, D117; formulas.md Ledger)

    private void ledger(String op, JsonNode b, Reply r) {
        Acct acct = byUid(b.path("uid").asLong());
        ModelAccount a = acct == null ? null : accounts.get(acct);
        String account = b.path("account").asText(), coin = b.path("coin").asText(), ref = b.path("ref").asText();
        BigDecimal amount = dec(b.get("amount"));
        String kind = op.equals("deposit") ? "deposit" : op.equals("adjust") ? "adjustment" : "loan";
        String fingerprint = b.path("uid").asText() + " " + account + " " + coin + " " + (amount == null ? "" : amount.stripTrailingZeros().toPlainString());
        String earlier = refs.computeIfAbsent(kind, k -> new HashMap<>()).get(ref);
        Bal bal = a == null ? null : a.bal(account, coin);
        Verdict v;
        if (a == null) v = Verdict.refuse("no such account");
        else if (!ModelFormulas.ledgerAmount(amount) || amount.signum() == 0 || (op.equals("deposit") && amount.signum() < 0)) v = Verdict.refuse("bad amount");
        else if (op.equals("borrow") && !a.unified) v = Verdict.refuse("a classic account cannot borrow (D117)");
        else if (!List.of("spot", "unified", "otc").contains(account)) v = Verdict.refuse("no such account type");
        else if (earlier != null) v = earlier.equals(fingerprint) ? Verdict.accept("a repeat of " + ref) : Verdict.refuse("ref " + ref + " used with other parameters");
        else if (bal.available.add(amount).signum() < 0 || (op.equals("borrow") && bal.debt.add(amount).signum() < 0)) v = Verdict.insufficient(coin);
        else v = Verdict.accept("");
        if (!settle(op + " " + b, v, r)) return;
        changed.add(acct);
        boolean repeat = earlier != null;
        if (r.data().path("repeated").asBoolean() != repeat) fail(op + " " + b + ": repeated is " + r.data().path("repeated") + ", the model expects " + repeat);
        if (repeat) return;
        refs.get(kind).put(ref, fingerprint);
        bal.available = bal.available.add(amount);
        if (op.equals("borrow")) bal.debt = bal.debt.add(amount);
    }

    // --- small-asset conversion (§4.2, formulas.md)

    private void smallAssets(ModelAccount a, JsonNode b, Reply r) {
        List<String> coins = new ArrayList<>();
        b.path("fromCoinList").forEach(c -> coins.add(c.asText()));
        Verdict v = Verdict.accept("");
        BigDecimal tokenPrice = prices.get(TOKEN);
        if (!a.unified) v = Verdict.refuse("a classic account");
        else if (coins.isEmpty()) v = Verdict.refuse("no coins");
        for (String coin : coins) {
            BigDecimal price = prices.get(coin);
            BigDecimal available = a.unified(coin).available;
            if (coin.equals(TOKEN)) v = Verdict.refuse(coin + " is the target coin");
            else if (price == null) v = Verdict.refuse(coin + " has no price");
            else if (available.signum() <= 0 || available.multiply(price).compareTo(SMALL_ASSET_USDT) >= 0) v = Verdict.refuse(coin + " is not a small asset");
        }
        if (!settle("small-assets-trade " + coins, v, r)) return;
        for (String coin : coins) {
            Bal from = a.unified(coin);
            BigDecimal gross = ModelFormulas.convertGross(from.available, prices.get(coin), tokenPrice);
            BigDecimal fee = charged(ModelFormulas.convertFee(gross, CONVERT_FEE_RATE));
            from.available = BigDecimal.ZERO;
            Bal token = a.unified(TOKEN);
            token.available = token.available.add(gross).subtract(fee);
        }
        event("conversion");
    }

    // --- the switch to classic (§3.1, D52, D53, D57)

    private void switchRequest(ModelAccount a, Reply r) {
        Verdict v = !a.unified ? Verdict.refuse("a classic account") : !a.acct.isMain() ? Verdict.refuse("a sub-account") : Verdict.accept("");
        if (!settle("switch", v, r)) return;
        if (a.switchDue == 0) a.switchDue = sim.now() + SWITCH_DELAY_MS; // D53: a request while one is in process changes nothing
    }

    /**
     * After the clock moved and run-due returned: each switch now due has ended. When it ran is the service's (read from
     * switch-status, D135); how it ended the model decides: it fails exactly when open positions, unified debt or frozen
     * funds, working Reality orders or pending strategy orders keep the account unified (D57, D82).
     */
    void jobsRan() {
        for (ModelAccount a : accounts.values()) {
            if (a.switchDue == 0 || sim.now() < a.switchDue) continue;
            changed.add(a.acct);
            Reply s = clients.get(a.acct).get("/api/v3/account/switch-status");
            String status = s.data().path("status").asText();
            List<String> blockers = switchBlockers(a);
            if (status.equals("success") != blockers.isEmpty() || !List.of("success", "fail").contains(status)) {
                fail("switch of " + a.acct.name() + " due at " + a.switchDue + " is " + s.raw() + "; the model's blockers: " + blockers);
            }
            a.switchDue = 0;
            if (!blockers.isEmpty()) continue;
            // D57: every unified available moves to the spot account of its coin; the account becomes classic.
            for (var e : new ArrayList<>(a.balances.entrySet())) {
                if (!e.getKey().startsWith("unified/") || e.getValue().available.signum() <= 0) continue;
                Bal spot = a.bal("spot", e.getKey().substring("unified/".length()));
                spot.available = spot.available.add(e.getValue().available);
                e.getValue().available = BigDecimal.ZERO;
            }
            a.unified = false;
            event("switch-to-classic");
        }
    }

    private List<String> switchBlockers(ModelAccount a) {
        List<String> out = new ArrayList<>();
        if (!a.positions.isEmpty()) out.add("open positions");
        a.balances.forEach((k, b) -> {
            if (k.startsWith("unified/") && b.debt.signum() > 0) out.add("debt " + k);
            if (k.startsWith("unified/") && b.frozen.signum() > 0) out.add("frozen " + k);
        });
        if (reality.working(a.acct) > 0) out.add("working Reality orders");
        if (orders.working(a.acct, false) > 0) out.add("working orders");
        if (orders.pendingTpsl(a.acct)) out.add("pending TP/SL orders");
        if (sim.strategyOrders.stream().anyMatch(o -> o.owner() == a.acct && o.target().startsWith("/api/v3/trade/unfilled"))) out.add("pending strategy orders");
        return out;
    }

    // --- verdicts: does the service's accept or refuse agree with what the model can decide? (D135)

    /** What the model expects of an operation: accepted, or refused (insufficient: 25202 in particular), and why. */
    record Verdict(boolean accept, boolean insufficient, String why) {
        static Verdict accept(String why) { return new Verdict(true, false, why); }
        static Verdict refuse(String why) { return new Verdict(false, false, why); }
        static Verdict insufficient(String coin) { return new Verdict(false, true, "insufficient " + coin); }
    }

    /**
     * The service's answer against the model's verdict; true when the operation was accepted (the model then applies it).
     * Accepting what the model refuses, or 25202 where the model has the money, is a disagreement. A refusal for a rule
     * the model does not keep (allow-list, decimals, the row's family) is the service's to make.
     */
    boolean settle(String what, Verdict v, Reply r) {
        boolean accepted = ok(r);
        if (accepted && !v.accept()) fail(what + " was accepted; the model refuses it: " + v.why() + " (" + r.raw() + ")");
        // 25202 unified, 43012 classic spot, 40762 classic futures (D172, D173).
        if (java.util.Set.of("25202", "43012").contains(r.code()) && !v.insufficient()) {
            fail(what + " was refused " + r.code() + "; the model has the money" + (v.accept() ? "" : ", and refuses for another reason: " + v.why()));
        }
        return accepted;
    }

    // --- helpers

    /** A fee as the model charges it: with FEE_ONE_UNIT planted, one unit of the ledger's last place more. */
    BigDecimal charged(BigDecimal fee) {
        return fault == Fault.FEE_ONE_UNIT && fee.signum() > 0 ? fee.add(ModelFormulas.ONE_UNIT) : fee;
    }

    void event(String name) { events.merge(name, 1, Integer::sum); }

    void timed(Runnable r) {
        long t = System.nanoTime();
        try {
            r.run();
        } finally {
            nanos += System.nanoTime() - t;
        }
    }

    <T> T timed(java.util.function.Supplier<T> s) {
        long t = System.nanoTime();
        try {
            return s.get();
        } finally {
            nanos += System.nanoTime() - t;
        }
    }

    void fail(String message) { throw new AssertionError(where + ": the reference model disagrees: " + message); }

    ModelAccount account(Acct a) { return accounts.get(a); }

    /** The admin API, for the reads only the model makes (a new position's id). */
    io.tas.api.Admin admin() { return admin; }

    private io.tas.api.Admin admin;

    void admin(io.tas.api.Admin admin) { this.admin = admin; }

    static Acct byUid(long uid) { return SimWorld.ALL.stream().filter(x -> x.uid() == uid).findFirst().orElse(null); }

    static boolean ok(Reply r) { return r.code().equals("00000"); }

    /** A decimal from a body or an answer (string or number); null when absent or not a number. */
    static BigDecimal dec(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) return null;
        try {
            return new BigDecimal(v.asText());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static JsonNode json(String body) {
        try {
            return body.isEmpty() ? JSON.createObjectNode() : JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
