package io.tas.proof;

import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static io.tas.proof.SimWorld.A;
import static io.tas.proof.SimWorld.A1;
import static io.tas.proof.SimWorld.B;
import static io.tas.proof.SimWorld.C;

/**
 * The simulation's provisioning writes of the admin surface (drawn by SimRecordOps): API keys created with seeded
 * credentials, used at once for a signed read, revoked and then refused (40006); accounts with seeded UIDs, main or a
 * sub-account of A or B; loan terms of USDT, ETH and BTC. About one in eight (accounts: one in four) is deliberately bad
 * and must be refused.
 */
final class SimProvisionOps {
    private final Simulation sim;

    SimProvisionOps(Simulation sim) { this.sim = sim; }

    private boolean bad() { return sim.rnd.nextInt(8) == 0; }

    /**
     * A key for a world account or a created one, seeded access key, secret and passphrase; the new key must sign a read
     * at once. Bad: an access key already taken (a world key's, or an earlier one's), an unknown permission, no passphrase.
     */
    void createKey() {
        List<Long> owners = new ArrayList<>(List.of(A.uid(), A1.uid(), B.uid(), C.uid()));
        owners.addAll(sim.model.createdAccounts);
        long uid = sim.rnd.nextInt(25) == 0 ? SimWorld.STRANGER : owners.get(sim.rnd.nextInt(owners.size()));
        int n = sim.model.keys;
        Credentials c = new Credentials("bg_simk" + String.format("%025d", n), "sim-key-secret-" + n, "SimKeyPass" + n);
        String perms = sim.pick(List.of("\"uta_mgt\"", "\"uta_trade\"", "\"uta_mgt\",\"uta_trade\"", "\"uta_mgt\",\"uta_trade\",\"copy_futures_order\""));
        String passphrase = ",\"passphrase\":\"" + c.passphrase() + "\"";
        String accessKey = c.key();
        if (bad()) {
            int how = sim.rnd.nextInt(3);
            if (how == 0) accessKey = sim.rnd.nextBoolean() || sim.model.liveKeys.isEmpty() ? sim.pick(SimWorld.ALL).key().key() : sim.pick(sim.model.liveKeys).creds().key();
            else if (how == 1) perms = "\"uta_mgt\",\"bogus\"";
            else passphrase = "";
        }
        Reply r = sim.admin("key-create", "/admin/v1/keys", "{\"uid\":" + uid + ",\"accessKey\":\"" + accessKey + "\",\"secret\":\"" + c.secret() + "\"" + passphrase
                + ",\"label\":\"sim-" + n + "\",\"permType\":\"" + (sim.rnd.nextInt(3) == 0 ? "read-only" : "read-and-write") + "\",\"permissions\":[" + perms + "]}");
        if (!Simulation.ok(r)) return;
        sim.model.keys++;
        SimModel.Key key = new SimModel.Key(uid, c);
        sim.model.liveKeys.add(key);
        signedRead("key-read", key, "00000");
    }

    /** Revokes a created key (never a world key: the simulation signs with those); it must be refused at once. Bad: unknown or already revoked. */
    void revokeKey() {
        List<SimModel.Key> live = sim.model.liveKeys;
        if (live.isEmpty() || bad()) {
            String k = !sim.model.revokedKeys.isEmpty() && sim.rnd.nextBoolean() ? sim.pick(sim.model.revokedKeys).creds().key() : "bg_simk_unknown" + sim.rnd.nextInt(100);
            sim.admin("key-revoke", "/admin/v1/keys/" + k + "/revoke", "");
            return;
        }
        SimModel.Key key = live.get(sim.rnd.nextInt(live.size()));
        Reply r = sim.admin("key-revoke", "/admin/v1/keys/" + key.creds().key() + "/revoke", "");
        Simulation.must(r);
        live.remove(key);
        sim.model.revokedKeys.add(key);
        signedRead("revoked-key-read", key, "40006");
    }

    /** A signed GET /api/v3/account/info with a created key: one transcript line, and the expected code or the seed fails. */
    private void signedRead(String op, SimModel.Key key, String expected) {
        sim.opStart = System.nanoTime();
        Reply r = sim.keyClient(key.creds()).get("/api/v3/account/info");
        sim.record(op, key.creds().key(), "/api/v3/account/info", r.status() + " " + r.raw());
        if (!r.code().equals(expected)) throw new AssertionError("step " + sim.model.step + ": " + op + " with " + key.creds().key() + " gave " + r.raw() + ", not " + expected);
    }

    /** A main account or a sub-account of A or B with a seeded UID; bad: a UID taken, a sub as parent, a stranger parent, no username. */
    void createAccount() {
        long uid = 3_000_000_100L + sim.model.createdAccounts.size();
        String parent = sim.pick(List.of("", "", "?parentUid=" + A.uid(), "?parentUid=" + B.uid()));
        String username = "\"sim-n" + sim.model.createdAccounts.size() + "\"";
        if (sim.rnd.nextInt(4) == 0) {
            int how = sim.rnd.nextInt(4);
            if (how == 0) uid = sim.pick(SimWorld.ALL).uid();
            else if (how == 1) parent = "?parentUid=" + A1.uid();
            else if (how == 2) parent = "?parentUid=" + SimWorld.STRANGER;
            else username = "\"\"";
        }
        String mode = parent.isEmpty() && sim.rnd.nextInt(3) == 0 ? "CLASSIC" : "UNIFIED";
        Reply r = sim.admin("account-create", "/admin/v1/accounts" + parent, "{\"uid\":" + uid + ",\"username\":" + username + ",\"accountMode\":\"" + mode + "\"}");
        if (Simulation.ok(r)) sim.model.createdAccounts.add(uid);
    }

    /** Borrowing terms of a coin (replaced); bad: a negative rate or amount, a malformed coin. */
    void loanTerms() {
        String coin = sim.pick(List.of("USDT", "USDT", "ETH", "BTC"));
        String free = coin.equals("USDT") ? sim.decimal(0, 5000, 0) : sim.decimal(0, 100, 2);
        String rate = sim.decimal(0, 200, 7);
        if (bad()) {
            int how = sim.rnd.nextInt(3);
            if (how == 0) rate = "-" + rate + "1";
            else if (how == 1) free = "-1";
            else coin = "US DT";
        }
        Reply r = sim.admin("loan-terms", "/admin/v1/loan-terms", "{\"coin\":\"" + coin + "\",\"interestFreeAmount\":\"" + free + "\",\"hourlyRate\":\"" + rate + "\"}");
        if (Simulation.ok(r)) sim.model.interestFree.put(coin, new BigDecimal(free));
    }
}
