package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.api.Admin;
import io.tas.proof.SimWorld.Acct;
import io.tas.proof.SimWorld.Contract;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The invariants of issue 12 item 1, read from outside through the admin API and the public reads:
 * conservation per coin (GET /admin/v1/ledger/check: every balance equals its journal, every journal row names its
 * counter account, so every transaction sums to zero per coin, D18, D224), no negative available balance without a debt that covers it, settings consistent with positions (an
 * open position has the account's hold mode, D44/D51, and its contract's configured margin mode and leverage, D46),
 * and every acknowledged record readable: Reality orders, fills, withdrawals, deposit records, history positions (v3 for
 * a unified owner, v2 for the classic one), strategy orders (unfilled or history row), profit summaries, loan terms
 * (on loan-data's debts), created accounts, and created keys (they sign; revoked ones are refused 40006). The rows it
 * reads are also handed to the reference model's comparison (ModelCheck, D133), which adds the signed money rows at the
 * full checks and the history rows at a seed's end.
 */
final class SimInvariants {
    private static final long DAY = 86_400_000L;
    private final Admin admin;
    private final Map<Acct, ApiClient> clients;
    private final java.util.function.Function<io.tas.support.Credentials, ApiClient> keyClient;
    private final SimModel model;
    private final RefModel ref;
    private final Transcript transcript;
    private long checks;

    SimInvariants(Admin admin, Map<Acct, ApiClient> clients, java.util.function.Function<io.tas.support.Credentials, ApiClient> keyClient,
                  SimModel model, RefModel ref, Transcript transcript) {
        this.admin = admin;
        this.clients = clients;
        this.keyClient = keyClient;
        this.model = model;
        this.ref = ref;
        this.transcript = transcript;
    }

    long count() { return checks; }

    /** After every step: the ledger's double entry holds and no balance is negative. */
    void conservation(String where) {
        Reply r = admin.get("/admin/v1/ledger/check");
        checks++;
        if (!r.data().path("ok").asBoolean()) throw new AssertionError(where + ": ledger not conserved: " + r.raw());
    }

    /**
     * Every FULL_CHECK_EVERY steps and at the end of a seed: the invariants of every account, then every figure of every
     * account against the reference model, through the admin rows and the signed rows (ModelCheck.signed).
     */
    void full(String where) {
        conservation(where);
        Map<Acct, JsonNode[]> rows = new java.util.LinkedHashMap<>();
        for (Acct a : SimWorld.ALL) rows.put(a, read(where, a, true));
        ref.timed(() -> {
            for (Acct a : SimWorld.ALL) {
                compare(where, a, rows.get(a));
                ref.check.signed(where, ref.account(a), clients.get(a));
                checks++;
            }
        });
        recordsReadable(where, 5);
    }

    /** At a seed's end: every position the reference model closed, on its history row. */
    void closedPositions(String where) {
        ref.timed(() -> SimWorld.ALL.forEach(a -> ref.check.closed(where, ref.account(a), clients.get(a))));
    }

    /**
     * After a step: the accounts it touched, their invariants and their balances (and positions, where read) against the
     * reference model; then the balances of accounts only the model saw change (a ledger row, a Reality fill).
     */
    void accounts(String where, java.util.Collection<Acct> touched, java.util.Collection<Acct> changed) {
        for (Acct a : touched) {
            JsonNode[] r = read(where, a, ref.positionsAddressed.contains(a));
            ref.timed(() -> compare(where, a, r));
        }
        for (Acct a : changed) {
            if (touched.contains(a)) continue;
            ref.timed(() -> ref.check.balances(where, ref.account(a), balances(where, a)));
        }
    }

    private void compare(String where, Acct a, JsonNode[] rows) {
        ref.check.balances(where, ref.account(a), rows[0]);
        if (rows[1] != null) ref.check.positions(where, ref.account(a), rows[1]);
    }

    /**
     * An account's balance rows and open positions (admin), with the invariants over them. A unified account's positions
     * are read for the settings check; a classic one's only when asked (the reference model's, D133).
     */
    private JsonNode[] read(String where, Acct a, boolean positions) {
        JsonNode balances = balances(where, a);
        JsonNode open = a.unified() ? settingsMatchPositions(where, a) : null;
        if (open == null && positions) open = ref.timed(() -> admin.get("/admin/v1/accounts/" + a.uid() + "/positions").data());
        return new JsonNode[]{balances, open};
    }

    private JsonNode balances(String where, Acct a) {
        JsonNode rows = admin.get("/admin/v1/accounts/" + a.uid() + "/balances").data();
        for (JsonNode b : rows) {
            BigDecimal available = new BigDecimal(b.get("available").asText());
            BigDecimal frozen = new BigDecimal(b.get("frozen").asText());
            BigDecimal debt = new BigDecimal(b.get("debt").asText());
            checks++;
            if (frozen.signum() < 0 || debt.signum() < 0 || available.add(debt).signum() < 0) {
                throw new AssertionError(where + ": " + a.name() + " balance negative beyond its debt: " + b);
            }
        }
        return rows;
    }

    /** The account's open positions against its settings; returns the positions read, or null when it is classic now. */
    private JsonNode settingsMatchPositions(String where, Acct a) {
        Reply s = clients.get(a).get("/api/v3/account/settings");
        if (s.code().equals("40084")) return null; // switched to classic: no unified settings to compare with
        if (!s.code().equals("00000")) throw new AssertionError(where + ": settings of " + a.name() + " unreadable: " + s.raw());
        JsonNode settings = s.data();
        ref.timed(() -> ref.check.settings(where, ref.account(a), settings));
        JsonNode positions = admin.get("/admin/v1/accounts/" + a.uid() + "/positions").data();
        for (JsonNode p : positions) {
            checks++;
            String what = where + ": " + a.name() + " position " + transcript.normalise(p.toString()) + " vs settings " + settings;
            if (!p.get("posMode").asText().equals(settings.get("holdMode").asText())) throw new AssertionError(what + ": hold mode differs");
            Contract c = SimWorld.CONTRACTS.stream().filter(x -> x.category().equals(p.get("category").asText())
                    && x.symbol().equals(p.get("symbol").asText())).findFirst().orElseThrow();
            JsonNode config = symbolConfig(settings, c);
            String mode = config == null ? "crossed" : config.get("marginMode").asText();
            BigDecimal leverage = config == null ? BigDecimal.TEN
                    : new BigDecimal(config.get(mode.equals("isolated") && p.get("holdSide").asText().equals("short") ? "shortLeverage" : "longLeverage").asText());
            if (!p.get("marginMode").asText().equals(mode)) throw new AssertionError(what + ": margin mode differs");
            if (new BigDecimal(p.get("leverage").asText()).compareTo(leverage) != 0) throw new AssertionError(what + ": leverage differs");
        }
        return positions;
    }

    /** The symbolConfigList item of a contract (§2.3), or null when the account never configured it. */
    static JsonNode symbolConfig(JsonNode settings, Contract c) {
        for (JsonNode x : settings.path("symbolConfigList")) {
            if (x.get("category").asText().equalsIgnoreCase(c.category()) && x.get("symbol").asText().equals(c.symbol())) return x;
        }
        return null;
    }

    /** The last `last` acknowledged records of each kind are read back (all of them: Integer.MAX_VALUE). */
    void recordsReadable(String where, int last) {
        for (var e : model.realityOrders.entrySet()) {
            JsonNode listed = admin.get("/admin/v1/accounts/" + e.getKey().uid() + "/reality-orders").data(); // newest 100
            List<String> acked = e.getValue();
            for (String id : tail(acked, Math.min(last, 100))) {
                checks++;
                boolean found = false;
                for (JsonNode o : listed) found |= o.get("orderId").asText().equals(id);
                if (!found) throw new AssertionError(where + ": acknowledged Reality order " + id + " of " + e.getKey().name() + " not listed");
            }
        }
        String window = "&startTime=" + (Simulation.START_MILLIS - DAY) + "&endTime=" + (model.now() + DAY);
        for (SimModel.Ack f : tail(model.fills, last)) {
            readable(where, "fill", f, "/api/v2/spot/trade/fills?orderId=" + f.id() + window, "tradeId");
        }
        for (SimModel.Ack w : tail(model.withdrawals, last)) {
            readable(where, "withdrawal", w, "/api/v2/spot/wallet/withdrawal-records?orderId=" + w.id() + window, "orderId");
        }
        for (SimModel.Ack d : tail(model.depositRecords, last)) {
            readable(where, "deposit record", d, "/api/v3/account/deposit-records?orderId=" + d.id() + window, "orderId");
        }
        for (SimModel.Read h : tail(model.historyPositions, last)) readable(where, "history position", new SimModel.Ack(h.owner(), h.id()), h.target(), h.idField());
        for (SimModel.Read o : tail(model.strategyOrders, last)) readable(where, "strategy order", new SimModel.Ack(o.owner(), o.id()), o.target(), o.idField());
        provisioned(where, last);
    }

    /**
     * Profit summaries as last set, loan terms' interest-free amounts on the debts that use them, created accounts
     * present, created keys signing and revoked ones refused (40006). Every one at a seed's end (last = MAX_VALUE).
     */
    private void provisioned(String where, int last) {
        for (var e : model.profitSummaries.entrySet()) {
            Reply r = clients.get(e.getKey()).get("/api/v3/copy/futures/profit-summary");
            checks++;
            JsonNode d = r.data();
            BigDecimal[] v = e.getValue();
            if (!r.code().equals("00000") || new BigDecimal(d.get("totalProfit").asText()).compareTo(v[0]) != 0
                    || new BigDecimal(d.get("totalAllocatedProfit").asText()).compareTo(v[1]) != 0
                    || new BigDecimal(d.get("totalPendingProfit").asText()).compareTo(v[2]) != 0) {
                throw new AssertionError(where + ": profit summary of " + e.getKey().name() + " is not the acknowledged " + java.util.Arrays.toString(v) + ": " + r.raw());
            }
        }
        // Between a seed's ends (last < MAX_VALUE) a few of each, to keep the periodic check cheap: one account's loan-data, the last two keys.
        boolean all = last == Integer.MAX_VALUE;
        if (!model.interestFree.isEmpty()) {
            for (Acct a : all ? SimWorld.UNIFIED : List.of(SimWorld.UNIFIED.get(model.step / Simulation.FULL_CHECK_EVERY % 3))) {
                Reply r = clients.get(a).get("/api/v3/trade/loan-data");
                checks++;
                if (r.code().equals("40084")) continue; // switched to classic
                for (JsonNode debt : r.data().path("debtCoinList")) {
                    BigDecimal expected = model.interestFree.get(debt.get("coin").asText());
                    if (expected != null && new BigDecimal(debt.get("interestFreeAmount").asText()).compareTo(expected) != 0) {
                        throw new AssertionError(where + ": " + a.name() + " loan-data does not show the acknowledged terms " + model.interestFree + ": " + r.raw());
                    }
                }
            }
        }
        for (long uid : tail(model.createdAccounts, all ? last : 2)) {
            checks++;
            Reply r = admin.get("/admin/v1/accounts/" + uid);
            if (!r.code().equals("00000")) throw new AssertionError(where + ": created account " + uid + " not readable: " + r.raw());
        }
        for (SimModel.Key k : tail(model.liveKeys, all ? last : 2)) signs(where, k, "00000");
        for (SimModel.Key k : tail(model.revokedKeys, all ? last : 2)) signs(where, k, "40006");
    }

    private void signs(String where, SimModel.Key k, String expected) {
        Reply r = keyClient.apply(k.creds()).get("/api/v3/account/info");
        checks++;
        if (!r.code().equals(expected)) throw new AssertionError(where + ": key " + k.creds().key() + " of " + k.uid() + " answered " + r.raw() + ", expected " + expected);
    }

    private void readable(String where, String kind, SimModel.Ack ack, String target, String idField) {
        Reply r = clients.get(ack.owner()).get(target);
        checks++;
        if (r.code().equals("40084") && ack.owner().unified()) return; // the owner switched to classic: v3 rows are closed to it
        boolean found = false;
        for (JsonNode x : r.data().isArray() ? r.data() : r.data().path("list")) found |= x.path(idField).asText().equals(ack.id()) || x.path("orderId").asText().equals(ack.id());
        if (!found) {
            String all = clients.get(ack.owner()).get(target.replaceFirst("orderId=[0-9]+&?", "limit=100&")).raw();
            throw new AssertionError(where + ": acknowledged " + kind + " " + ack.id() + " of " + ack.owner().name() + " not readable: "
                    + r.raw() + "; without the orderId: " + all);
        }
    }

    private static <T> List<T> tail(List<T> xs, int n) { return xs.subList(Math.max(0, xs.size() - n), xs.size()); }

    /**
     * The state hash of the simulation: SHA-256 over every account's balances, open positions, Reality orders and
     * settings as the admin and public reads show them, IDs by index, plus each table's row count from the service's
     * own GET /admin/v1/state-hash. (The service's hash itself is not comparable across runs: it covers minted IDs and
     * the API keys' encrypted secrets, whose nonces are random.)
     */
    String stateHash() {
        StringBuilder b = new StringBuilder();
        for (Acct a : SimWorld.ALL) {
            b.append(a.name()).append('\n');
            b.append(admin.get("/admin/v1/accounts/" + a.uid()).data()).append('\n');
            b.append(admin.get("/admin/v1/accounts/" + a.uid() + "/balances").data()).append('\n');
            b.append(admin.get("/admin/v1/accounts/" + a.uid() + "/positions").data()).append('\n');
            b.append(admin.get("/admin/v1/accounts/" + a.uid() + "/reality-orders").data()).append('\n');
            if (a.unified()) b.append(clients.get(a).get("/api/v3/account/settings").body().path("data")).append('\n');
        }
        admin.get("/admin/v1/state-hash").data().get("tables").properties()
                .forEach(t -> b.append(t.getKey()).append(':').append(t.getValue().get("rows").asText()).append('\n'));
        return Transcript.sha256(transcript.normalise(b.toString()));
    }
}
