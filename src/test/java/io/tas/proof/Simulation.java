package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.api.Admin;
import io.tas.http.Endpoint;
import io.tas.proof.SimWorld.Acct;
import io.tas.proof.SimWorld.Contract;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;

import static io.tas.proof.SimWorld.A;
import static io.tas.proof.SimWorld.A1;
import static io.tas.proof.SimWorld.B;
import static io.tas.proof.SimWorld.C;

/**
 * Issue 12 item 1: a seeded simulation. From a reset server and SimWorld, a java.util.Random(seed) draws a sequence of
 * state-changing operations, every POST row of the catalog (Endpoint) and the admin surface's writes, with parameters
 * mostly valid and about a third invalid. The admin writes: ledger deposits, adjustments and borrows, positions opened,
 * filled and closed, tickers, fill/withdrawal/deposit feeds, sandbox time, the Reality allow-list, and about once in
 * 2,000 steps a wind-down that switches A or B to classic (SimAdminOps); history
 * positions, strategy orders of all six types, profit summaries, API keys created and revoked, accounts and loan terms
 * (SimRecordOps, about 8 % of steps). Not driven: /admin/v1/instruments (redefining a contract the world trades would
 * change its maximum leverage and margin tiers under open positions and configured settings; a new unused one would
 * exercise nothing), reset and seed (each seed's start). Each step appends one line to the transcript and is followed by the
 * invariant checks (SimInvariants) and by the reference model's comparison of every amount (RefModel, issue 24, D133).
 * The same seed gives the same transcript: the test clock is set back to the same
 * instant at the start, nothing else draws randomness, and server-minted IDs are written by index (Transcript).
 */
final class Simulation {
    /** The clock every seed starts at (2026-01-01T00:00:00Z). */
    static final long START_MILLIS = 1767225600000L;
    /**
     * Full checks (every account's balances and settings against its positions, the last records read back) every this
     * many steps; in between, after every step, the ledger check and the accounts the step touched.
     */
    static final int FULL_CHECK_EVERY = 50;

    record Result(long seed, int ops, String transcriptHash, String stateHash, List<String> transcript,
                  Map<String, long[]> outcomes, long checks, long modelFigures, Map<String, Integer> modelEvents) {}

    private final TestServer server;
    final Admin admin;
    final MutableClock clock;
    final Map<Acct, ApiClient> clients = new java.util.HashMap<>();

    // the model of one seed's run
    Random rnd;
    private Transcript transcript;
    SimModel model;
    /** The reference model of the run's amounts (issue 24, D133). */
    RefModel ref;
    private final Map<String, long[]> outcomes = new TreeMap<>();
    long opStart;
    /**
     * Time spent in operations, per-step checks and full checks (ns), over the simulation's life; and, within those, in
     * the reference model: its arithmetic, its comparisons and the reads only it makes.
     */
    final long[] nanos = new long[4];

    Simulation(TestServer server, MutableClock clock) {
        this.server = server;
        this.admin = new Admin(server);
        this.clock = clock;
        for (Acct a : SimWorld.ALL) clients.put(a, server.client(a.key()));
    }

    private final SimOrderOps orderOps = new SimOrderOps(this);
    private final SimClassicOps classicOps = new SimClassicOps(this, orderOps);
    /** The generator of each state-changing row of the catalog: every POST row must have one (SimulationTest checks). */
    final Map<Endpoint, Consumer<Acct>> apiOps = apiOps();
    private final SimAdminOps adminOps = new SimAdminOps(this);
    private final SimRecordOps recordOps = new SimRecordOps(this);
    private final Map<String, ApiClient> keyClients = new java.util.HashMap<>();

    /** The invariant checks over the current state (after a run, or a reset and seed with run(seed, 0)). */
    SimInvariants invariants() { return new SimInvariants(admin, clients, this::keyClient, model, ref, transcript); }

    /** A signed client for a key the admin API created (its credentials are seeded, so one client per access key). */
    ApiClient keyClient(io.tas.support.Credentials c) {
        return keyClients.computeIfAbsent(c.key() + " " + c.secret() + " " + c.passphrase(), k -> server.client(c));
    }

    Admin admin() { return admin; }

    SimModel model() { return model; }

    Result run(long seed, int ops) { return run(seed, ops, RefModel.Fault.NONE); }

    /** A run whose reference model has a fault planted (D136): the comparison must throw. */
    Result run(long seed, int ops, RefModel.Fault fault) {
        rnd = new Random(seed);
        transcript = new Transcript();
        model = new SimModel(clock);
        ref = new RefModel(SimWorld.seed(), model, clients, fault);
        ref.admin(admin);
        orderOps.reset();
        classicOps.reset();
        ref.where = "seed " + seed + " start";
        outcomes.clear();
        clock.set(START_MILLIS);
        must(admin.post("/admin/v1/reset", ""));
        must(admin.post("/admin/v1/seed", SimWorld.seed()));
        SimInvariants checks = invariants();
        String state;
        try {
            checks.full("seed " + seed + " start");
            for (int step = 0; step < ops; step++) {
                model.step = step;
                String where = "seed " + seed + " step " + step;
                ref.where = where;
                long t0 = System.nanoTime();
                step();
                long t1 = System.nanoTime();
                checks.conservation(where);
                checks.accounts(where, model.touched, ref.changed);
                model.touched.clear();
                ref.changed.clear();
                ref.positionsAddressed.clear();
                long t2 = System.nanoTime();
                if ((step + 1) % FULL_CHECK_EVERY == 0) checks.full(where);
                nanos[0] += t1 - t0;
                nanos[1] += t2 - t1;
                nanos[2] += System.nanoTime() - t2;
            }
            checks.full("seed " + seed + " end");
            checks.closedPositions("seed " + seed + " end");
            nanos[3] += ref.nanos;
            checks.recordsReadable("seed " + seed + " end", Integer.MAX_VALUE);
            state = checks.stateHash();
            if (Boolean.getBoolean("proof.dump")) dump(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e.getMessage() + " (transcript: " + dump(seed) + ")", e);
        }
        return new Result(seed, ops, transcript.hash(), state, List.copyOf(transcript.lines()), new TreeMap<>(outcomes), checks.count(),
                ref.check.figures(), new TreeMap<>(ref.events));
    }

    /** Writes the transcript so far to target/simulation/, for a failing seed; returns the file. */
    private java.nio.file.Path dump(long seed) {
        try {
            java.nio.file.Path dir = java.nio.file.Files.createDirectories(java.nio.file.Path.of("target", "simulation"));
            java.nio.file.Path file = dir.resolve(server.db.kind() + "-seed-" + seed + ".txt");
            java.nio.file.Files.write(file, transcript.lines());
            return file;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // --- one step: a record or provisioning write (8%, SimRecordOps), an API row (about 41%) or another admin write

    private void step() {
        if (rnd.nextInt(100) < 8) {
            recordOps.step();
            return;
        }
        int r = rnd.nextInt(100);
        if (r < 45) {
            List<Endpoint> rows = new ArrayList<>(apiOps.keySet());
            Endpoint e = rows.get(rnd.nextInt(rows.size()));
            // The classic rows (issue 26) are as many as the others: half of the time one is drawn again.
            if (e.family() == Endpoint.Family.CLASSIC && rnd.nextBoolean()) e = rows.get(rnd.nextInt(rows.size()));
            apiOps.get(e).accept(callerFor(e));
        } else if (r < 53) adminOps.ledger("deposit");
        else if (r < 58) adminOps.ledger("adjust");
        else if (r < 63) adminOps.ledger("borrow");
        else if (r < 71) adminOps.openPosition();
        else if (r < 76) adminOps.fillPosition(false);
        else if (r < 79) adminOps.fillPosition(true);
        else if (r < 84) adminOps.realityTicker();
        else if (r < 87) orderOps.spotTicker();
        else if (r < 90) adminOps.futuresTicker();
        else if (r < 93) adminOps.ingest();
        else if (r < 97) adminOps.advanceClock();
        else if (rnd.nextInt(60) == 0) adminOps.windDown(); // about once in 2,000 steps (issue 24)
        else adminOps.allowList();
    }

    /** Mostly an account the row is for; sometimes one it refuses (a sub on a main-only row, a classic on a v3 row). */
    private Acct callerFor(Endpoint e) {
        int r = rnd.nextInt(20);
        // A classic row: mostly the classic account, or an account the wind-down switched; sometimes a unified one (40085).
        if (e.family() == Endpoint.Family.CLASSIC) return r < 5 ? pick(List.of(A, B)) : C;
        if (r == 0) return C;
        if (r == 1) return A1;
        return pick(List.of(A, A, A1, B, B));
    }

    private Map<Endpoint, Consumer<Acct>> apiOps() {
        Map<Endpoint, Consumer<Acct>> m = new EnumMap<>(Endpoint.class);
        m.put(Endpoint.SET_LEVERAGE, this::setLeverage);
        m.put(Endpoint.SET_HOLD_MODE, a -> api(a, Endpoint.SET_HOLD_MODE,
                "{\"holdMode\":\"" + pickBad(10, "both", "one_way_mode", "hedge_mode") + "\"}"));
        m.put(Endpoint.SWITCH_DEDUCT, a -> api(a, Endpoint.SWITCH_DEDUCT, "{\"deduct\":\"" + pickBad(10, "yes", "on", "off") + "\"}"));
        m.put(Endpoint.ACCOUNT_SWITCH, a -> api(a, Endpoint.ACCOUNT_SWITCH, rnd.nextBoolean() ? "" : "{}"));
        m.put(Endpoint.SET_MARGIN, this::setMargin);
        m.put(Endpoint.ADJUST_ACCOUNT_MODE, this::adjustAccountMode);
        m.put(Endpoint.SMALL_ASSETS_TRADE, this::smallAssetsTrade);
        m.put(Endpoint.PLACE_REALITY_ORDER, this::placeReality);
        m.put(Endpoint.CANCEL_REALITY_ORDER, this::cancelReality);
        orderOps.register(m); // issue 25: the engine's rows
        classicOps.register(m); // issue 26: the classic order rows
        return m;
    }

    private void setLeverage(Acct a) {
        int kind = rnd.nextInt(10);
        String body;
        if (kind < 7) {
            Contract c = pick(SimWorld.CONTRACTS);
            StringBuilder b = new StringBuilder("{\"category\":\"" + c.category() + "\",\"symbol\":\"" + c.symbol() + "\"");
            boolean isolated = rnd.nextInt(3) == 0;
            if (isolated || rnd.nextBoolean()) b.append(",\"marginMode\":\"").append(isolated ? "isolated" : "crossed").append('"');
            if (isolated && rnd.nextInt(4) == 0) {
                b.append(",\"longLeverage\":\"").append(leverage(c.maxLeverage())).append("\",\"shortLeverage\":\"").append(leverage(c.maxLeverage())).append('"');
            } else {
                if (isolated && rnd.nextInt(5) != 0) b.append(",\"posSide\":\"").append(rnd.nextBoolean() ? "long" : "short").append('"');
                b.append(",\"leverage\":\"").append(leverage(c.maxLeverage())).append('"');
            }
            body = b.append('}').toString();
        } else if (kind < 9) {
            body = "{\"category\":\"MARGIN\",\"coin\":\"" + pick(List.of("BTC", "USDT", "USDT", "DOGE")) + "\",\"leverage\":\"" + leverage(10) + "\"}";
        } else {
            body = "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"leverage\":\"5\"}";
        }
        api(a, Endpoint.SET_LEVERAGE, body);
    }

    /** A leverage: mostly 1 to max (a few with 1 or 2 decimals), sometimes 0, above max or with 3 decimals. */
    private String leverage(int max) {
        int r = rnd.nextInt(20);
        if (r == 0) return "0";
        if (r == 1) return Integer.toString(max + 1 + rnd.nextInt(50));
        if (r == 2) return "2.125";
        int whole = 1 + rnd.nextInt(Math.min(max, 30));
        return r < 6 && whole < max ? whole + ".5" : Integer.toString(whole);
    }

    /** Mostly on one of the caller's open positions (read first), otherwise on any contract and side. */
    private void setMargin(Acct a) {
        Contract c = pick(SimWorld.CONTRACTS);
        String side = rnd.nextBoolean() ? "long" : "short";
        if (rnd.nextInt(10) < 7) {
            JsonNode open = admin.get("/admin/v1/accounts/" + a.uid() + "/positions").data();
            if (!open.isEmpty()) {
                JsonNode p = open.get(rnd.nextInt(open.size()));
                c = SimWorld.CONTRACTS.stream().filter(x -> x.symbol().equals(p.get("symbol").asText())).findFirst().orElseThrow();
                side = p.get("holdSide").asText();
            }
        }
        boolean coinMargined = c.category().equals("COIN-FUTURES");
        String amount = rnd.nextInt(10) == 0 ? pick(List.of("0", "-1", "1.0000000000000000001"))
                : coinMargined ? decimal(1, 200, 5) : decimal(1, 3000, 1);
        api(a, Endpoint.SET_MARGIN, "{\"category\":\"" + c.category() + "\",\"symbol\":\"" + c.symbol() + "\",\"posSide\":\""
                + side + "\",\"operation\":\"" + pickBad(10, "plus", "add", "remove")
                + "\",\"amount\":\"" + amount + "\"}");
    }

    private void adjustAccountMode(Acct a) {
        String mode = pickBad(10, "turbo", "basic", "advanced", "advanced", "isolated", "delta");
        StringBuilder b = new StringBuilder("{\"mode\":\"" + mode + "\"");
        if (mode.equals("advanced") && rnd.nextBoolean()) b.append(",\"deltaSwitch\":\"").append(rnd.nextBoolean() ? "yes" : "no").append('"');
        int t = rnd.nextInt(10);
        if (t == 0) b.append(",\"targetUid\":\"").append(SimWorld.STRANGER).append('"');
        else if (t < 3) b.append(",\"targetUid\":\"").append(A1.uid()).append('"');
        else if (t == 3) b.append(",\"targetUid\":\"").append(B.uid()).append('"');
        api(a, Endpoint.ADJUST_ACCOUNT_MODE, b.append('}').toString());
    }

    private void smallAssetsTrade(Acct a) {
        List<String> coins = new ArrayList<>();
        if (rnd.nextInt(10) < 7) coins.add("\"DOGE\""); // the dust coin of the world
        else for (String c : List.of("DOGE", "BGB", "ETH", "AAPLX", "NOPE")) if (rnd.nextInt(3) == 0) coins.add('"' + c + '"');
        api(a, Endpoint.SMALL_ASSETS_TRADE, "{\"fromCoinList\":" + coins + "}");
    }

    private void placeReality(Acct a) {
        String symbol = rnd.nextInt(15) == 0 ? "BTCUSDT" : SimWorld.REALITY;
        String side = pickBad(20, "hold", "buy", "sell");
        boolean market = rnd.nextInt(4) == 0;
        String qty;
        if (rnd.nextInt(12) == 0) qty = pick(List.of("0", "-2", "0.00001", "1000000"));
        else qty = market && side.equals("buy") ? decimal(1000, 60000, 2) : decimal(100, 40000, 4);
        StringBuilder b = new StringBuilder("{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"orderType\":\""
                + (market ? "market" : "limit") + "\",\"qty\":\"" + qty + "\"");
        if (!market && rnd.nextInt(15) != 0) {
            // Near the mid (it may cross and fill at once), or one in three far on its side, 5 to 15 % away: a crossing
            // ticker fills a resting order in full (D223), so the far ones are what stays working to be cancelled.
            int permille = rnd.nextInt(3) != 0 ? 970 + rnd.nextInt(61) : side.equals("sell") ? 1050 + rnd.nextInt(101) : 850 + rnd.nextInt(101);
            BigDecimal price = model.realityMid.multiply(BigDecimal.valueOf(permille)).divide(BigDecimal.valueOf(1000), 2, RoundingMode.DOWN);
            b.append(",\"price\":\"").append(price.toPlainString()).append('"');
        }
        if (rnd.nextInt(3) == 0) b.append(",\"clientOid\":\"sim-").append(rnd.nextInt(model.clientOids + 1)).append('"');
        if (rnd.nextInt(10) == 0) b.append(",\"category\":\"").append(pick(List.of("SPOT", "MARGIN", "USDT-FUTURES"))).append('"');
        Reply r = api(a, Endpoint.PLACE_REALITY_ORDER, b.append('}').toString());
        if (ok(r)) {
            model.clientOids++;
            model.realityOrders.computeIfAbsent(a, k -> new ArrayList<>()).add(r.data().get("orderId").asText());
        }
    }

    private void cancelReality(Acct a) {
        List<String> mine = model.realityOrders.getOrDefault(a, List.of());
        List<String> working = ref.reality.workingIds(a);
        int r = rnd.nextInt(10);
        String body;
        if (r < 4 && !working.isEmpty()) {
            // D223: a crossing order fills at once and a crossing ticker fills a resting one in full, so most placed
            // orders are done: a working one, as the reference model has it, is what a cancel is accepted for.
            body = "{\"symbol\":\"" + SimWorld.REALITY + "\",\"orderId\":\"" + working.get(rnd.nextInt(working.size())) + "\"}";
        } else if (r < 6 && !mine.isEmpty()) {
            // recent orders are the ones still working
            String id = mine.get(Math.max(0, mine.size() - 1 - rnd.nextInt(Math.min(mine.size(), 6))));
            body = "{\"symbol\":\"" + (rnd.nextInt(10) == 0 ? "BTCUSDT" : SimWorld.REALITY) + "\",\"orderId\":\"" + id + "\"}";
        } else if (r < 8) {
            body = "{\"symbol\":\"" + SimWorld.REALITY + "\",\"clientOid\":\"sim-" + rnd.nextInt(model.clientOids + 1) + "\"}";
        } else if (r < 9) {
            body = "{\"symbol\":\"" + SimWorld.REALITY + "\",\"orderId\":\"" + (123456789 + rnd.nextInt(1000)) + "\"}";
        } else {
            body = "{\"symbol\":\"" + SimWorld.REALITY + "\"}";
        }
        api(a, Endpoint.CANCEL_REALITY_ORDER, body);
    }

    // --- calls, each one transcript line

    Reply api(Acct a, Endpoint e, String body) {
        model.touched.add(a);
        if (e == Endpoint.ADJUST_ACCOUNT_MODE) SimWorld.ALL.stream().filter(x -> body.contains("\"" + x.uid() + "\"")).forEach(model.touched::add);
        opStart = System.nanoTime();
        Reply r = clients.get(a).post(e.path(), body);
        record(e.name(), a.name(), body, r.status() + " " + r.raw());
        ref.timed(() -> ref.api(a, e, body, r));
        return r;
    }

    Reply admin(String op, String path, String body) {
        opStart = System.nanoTime();
        Reply r = admin.post(path, body);
        record(op, "admin", path + " " + body, r.status() + " " + r.raw());
        ref.timed(() -> ref.admin(op, path, body, r));
        return r;
    }

    void record(String op, String caller, String request, String response) {
        long[] o = outcomes.computeIfAbsent(op, k -> new long[3]);
        o[response.contains("\"code\":\"00000\"") ? 0 : 1]++;
        o[2] += System.nanoTime() - opStart;
        if (response.startsWith("5")) throw new AssertionError("5xx at step " + model.step + ": " + op + " " + request + " -> " + response);
        transcript.add(model.step + " " + op + " " + caller + " " + request + " -> " + response);
    }

    static boolean ok(Reply r) { return r.code().equals("00000"); }

    static void must(Reply r) {
        if (!ok(r)) throw new AssertionError(r.raw());
    }

    // --- random values, all from rnd

    <T> T pick(List<T> xs) { return xs.get(rnd.nextInt(xs.size())); }

    /** With probability 1/oneIn the bad value, otherwise one of the good ones. */
    String pickBad(int oneIn, String bad, String... good) {
        return rnd.nextInt(oneIn) == 0 ? bad : good[rnd.nextInt(good.length)];
    }

    /** A decimal from lo to hi units of 10^-scale, as plain text. */
    String decimal(int lo, int hi, int scale) {
        return BigDecimal.valueOf(lo + rnd.nextInt(hi - lo + 1), scale).toPlainString();
    }
}
