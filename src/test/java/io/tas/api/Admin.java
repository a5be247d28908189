package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.TestServer;

/** The admin API as tests drive it. */
final class Admin {
    private final TestServer server;
    String lastSecret;

    Admin(TestServer server) { this.server = server; }

    Reply post(String path, String json) {
        return ApiClient.raw(server.adminUrl() + path, "POST", json,
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
    }

    Reply get(String path) {
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

    /** Creates an account and returns its UID. */
    long createAccount(String json) {
        Reply r = post("/admin/v1/accounts", json);
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        return r.data().get("uid").asLong();
    }
}
