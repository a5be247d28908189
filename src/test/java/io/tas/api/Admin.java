package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.TestServer;

/** The admin API as tests drive it (an in-process TestServer's or a server process's admin URL). */
public final class Admin {
    private final String adminUrl;
    public String lastSecret;

    public Admin(TestServer server) { this(server.adminUrl()); }

    public Admin(String adminUrl) { this.adminUrl = adminUrl; }

    public Reply post(String path, String json) {
        return ApiClient.raw(adminUrl + path, "POST", json,
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
    }

    /** POST /admin/v1/records/{row} (all or nothing, D58). */
    public Reply ingest(String row, String body) { return post("/admin/v1/records/" + row, body); }

    /** A records batch body: {"uid": uid, "records": [record(0), ..., record(n - 1)]}. */
    public static String batch(long uid, int n, java.util.function.IntFunction<String> record) {
        java.util.List<String> rs = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) rs.add(record.apply(i));
        return "{\"uid\":" + uid + ",\"records\":[" + String.join(",", rs) + "]}";
    }

    /**
     * Moves the service clock two minutes on and runs every due job to its end. A requested switch to classic ends
     * about a minute after the request (D52) in a job that changes state whenever its time comes, so a test comparing
     * state hashes settles jobs first (an earlier test's job must not land between its before and after), and a test
     * that requests switches settles after them (none of its jobs lands in a later test's comparison).
     */
    public void settleJobs() {
        Reply moved = post("/admin/v1/sandbox/clock/advance", "{\"ms\":120000}");
        if (!moved.code().equals("00000")) throw new AssertionError(moved.raw());
        Reply run = post("/admin/v1/jobs/run-due", "");
        if (!run.code().equals("00000") || run.data().get("remaining").asInt() != 0) throw new AssertionError(run.raw());
    }

    /** GET /admin/v1/state-hash: the hash over every account's state. */
    public String stateHash() {
        Reply r = get("/admin/v1/state-hash");
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        return r.data().get("hash").asText();
    }

    public Reply get(String path) {
        return ApiClient.raw(adminUrl + path, "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
    }

    /** Creates a key and returns its access key; the secret (shown once) is kept in lastSecret. */
    public String createKey(long uid, String passphrase, String permType, String permissionsJson) {
        Reply r = post("/admin/v1/keys", "{\"uid\":" + uid + ",\"passphrase\":\"" + passphrase + "\",\"permType\":\""
                + permType + "\",\"permissions\":" + permissionsJson + "}");
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        JsonNode d = r.data();
        lastSecret = d.get("secret").asText();
        return d.get("accessKey").asText();
    }

    /** Creates a key that answers only from the given addresses (a JSON array, e.g. ["127.0.0.1"]); secret in lastSecret. */
    public String createKey(long uid, String passphrase, String permType, String permissionsJson, String ipsJson) {
        Reply r = post("/admin/v1/keys", "{\"uid\":" + uid + ",\"passphrase\":\"" + passphrase + "\",\"permType\":\""
                + permType + "\",\"permissions\":" + permissionsJson + ",\"ips\":" + ipsJson + "}");
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        lastSecret = r.data().get("secret").asText();
        return r.data().get("accessKey").asText();
    }

    /** An admin deposit into one of uid's accounts (unified, spot, ...). */
    public void deposit(long uid, String account, String coin, String amount) {
        Reply r = post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"" + account + "\",\"coin\":\"" + coin
                + "\",\"amount\":\"" + amount + "\",\"ref\":\"dep-" + uid + "-" + account + "-" + coin + "\"}");
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
    }

    /** A new unified main account with a read-and-write key (uta_mgt, uta_trade) and the given unified balances. */
    public io.tas.support.Credentials fundedAccount(String name, String... coinAmounts) {
        long uid = createAccount("{\"username\":\"" + name + "\"}");
        String key = createKey(uid, "Funded1", "read-and-write", "[\"uta_mgt\",\"uta_trade\"]");
        for (int i = 0; i < coinAmounts.length; i += 2) {
            Reply r = post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"" + coinAmounts[i]
                    + "\",\"amount\":\"" + coinAmounts[i + 1] + "\",\"ref\":\"fund-" + name + "-" + coinAmounts[i] + "\"}");
            if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        }
        lastUid = uid;
        return new io.tas.support.Credentials(key, lastSecret, "Funded1");
    }

    public long lastUid;

    /** uid's balances as "account/coin" -> "available/frozen/debt". */
    public java.util.Map<String, String> balances(long uid) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        get("/admin/v1/accounts/" + uid + "/balances").data().forEach(b -> out.put(
                b.get("account").asText() + "/" + b.get("coin").asText(),
                b.get("available").asText() + "/" + b.get("frozen").asText() + "/" + b.get("debt").asText()));
        return out;
    }

    /** The ledger's conservation check must hold. */
    public void assertConserved() {
        Reply r = get("/admin/v1/ledger/check");
        if (!r.data().get("ok").asBoolean()) throw new AssertionError("ledger not conserved: " + r.raw());
    }

    /** Creates an account and returns its UID. */
    public long createAccount(String json) {
        Reply r = post("/admin/v1/accounts", json);
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        return r.data().get("uid").asLong();
    }
}
