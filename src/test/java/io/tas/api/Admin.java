package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.TestServer;

/** The admin API as tests drive it (public: the proof harnesses of issue 12 drive it too). */
public final class Admin {
    private final TestServer server;
    String lastSecret;

    public Admin(TestServer server) { this.server = server; }

    public Reply post(String path, String json) {
        return ApiClient.raw(server.adminUrl() + path, "POST", json,
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
    }

    /** POST /admin/v1/records/{row} (all or nothing, D58). */
    Reply ingest(String row, String body) { return post("/admin/v1/records/" + row, body); }

    /** A records batch body: {"uid": uid, "records": [record(0), ..., record(n - 1)]}. */
    static String batch(long uid, int n, java.util.function.IntFunction<String> record) {
        java.util.List<String> rs = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) rs.add(record.apply(i));
        return "{\"uid\":" + uid + ",\"records\":[" + String.join(",", rs) + "]}";
    }

    /** GET /admin/v1/state-hash: the hash over every account's state. */
    public String stateHash() {
        Reply r = get("/admin/v1/state-hash");
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        return r.data().get("hash").asText();
    }

    public Reply get(String path) {
        return ApiClient.raw(server.adminUrl() + path, "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
    }

    /** Creates a key and returns its access key; the secret (shown once) is kept in lastSecret. */
    String createKey(long uid, String passphrase, String permType, String permissionsJson) {
        Reply r = post("/admin/v1/keys", "{\"uid\":" + uid + ",\"passphrase\":\"" + passphrase + "\",\"permType\":\""
                + permType + "\",\"permissions\":" + permissionsJson + "}");
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        JsonNode d = r.data();
        lastSecret = d.get("secret").asText();
        return d.get("accessKey").asText();
    }

    /** A new unified main account with a read-and-write key (uta_mgt, uta_trade) and the given unified balances. */
    io.tas.support.Credentials fundedAccount(String name, String... coinAmounts) {
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

    long lastUid;

    /** uid's balances as "account/coin" -> "available/frozen/debt". */
    java.util.Map<String, String> balances(long uid) {
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
    long createAccount(String json) {
        Reply r = post("/admin/v1/accounts", json);
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        return r.data().get("uid").asLong();
    }
}
