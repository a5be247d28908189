package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Provisioning through the admin listener goes through the same services the API reads. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class AdminApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;
    Admin admin;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        admin = new Admin(server);
    }

    @Test
    void adminNeedsTheToken() {
        Reply r = ApiClient.raw(server.adminUrl() + "/admin/v1/health", "GET", "", "Authorization", "Bearer wrong");
        assertThat(r.status()).isEqualTo(401);
        assertThat(admin.get("/admin/v1/health").code()).isEqualTo("00000");
    }

    /**
     * D118: answers keep one field order on every JVM, so a replayed simulation seed is byte-identical in another run.
     * These answers were built with Map.of, whose order changes from JVM to JVM.
     */
    @Test
    void adminAnswersKeepOneFieldOrder() {
        admin.fundedAccount("order-" + kind + "-" + System.nanoTime(), "USDT", "10");
        long uid = admin.lastUid;
        Reply profit = admin.post("/admin/v1/records/profit-summary", "{\"uid\":" + uid
                + ",\"totalProfit\":\"-2796.44\",\"totalAllocatedProfit\":\"2144.46\",\"totalPendingProfit\":\"883.70\"}");
        assertThat(profit.raw()).contains("\"data\":{\"uid\":\"" + uid + "\",\"totalProfit\":\"-2796.44\",\"totalAllocatedProfit\":\"2144.46\",\"totalPendingProfit\":\"883.7\"}");
        long at = server.clock.millis() - 60_000;
        Reply orders = admin.post("/admin/v1/records/strategy-orders", "{\"uid\":" + uid + ",\"records\":[{\"type\":\"oco\",\"category\":\"USDT-FUTURES\","
                + "\"symbol\":\"BTCUSDT\",\"qty\":\"1\",\"posSide\":\"short\",\"status\":\"cancelled\",\"ocoParams\":[{\"ocoLimitPrice\":\"94267.3\","
                + "\"ocoTriggerPrice\":\"83106.5\",\"ocoOrderType\":\"limit\"}],\"createdTime\":" + at + ",\"updatedTime\":" + (at + 1000) + "}]}");
        assertThat(orders.raw()).contains("\"data\":{\"count\":1,\"orderIds\":[\"");
    }

    @Test
    void adminIsNotServedOnTheApiListener() {
        Reply r = ApiClient.raw(server.baseUrl() + "/admin/v1/health", "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
        assertThat(r.code()).isEqualTo("40404");
    }

    @Test
    void createdAccountWithSubAccountAndKeyIsVisibleThroughTheApi() {
        long main = admin.createAccount("{\"username\":\"alice-" + kind + "\",\"inviterId\":\"42\",\"channel\":\"web\"}");
        long other = admin.createAccount("{\"username\":\"bob-" + kind + "\",\"someFutureField\":1}"); // unknown fields are ignored
        String key = admin.createKey(main, "AlicePass1", "read-and-write", "[\"uta_mgt\"]");
        ApiClient alice = server.client(new Credentials(key, admin.lastSecret, "AlicePass1"));
        Reply info = alice.get("/api/v3/account/info");
        assertThat(info.data().get("userId").asText()).isEqualTo(Long.toString(main));
        assertThat(info.data().get("inviterId").asText()).isEqualTo("42");
        assertThat(other).isNotEqualTo(main);

        Reply subReply = admin.post("/admin/v1/accounts?parentUid=" + main, "{\"username\":\"alice-sub-1\",\"type\":\"custodian\"}");
        assertThat(subReply.code()).as(subReply.raw()).isEqualTo("00000");
        Reply list = alice.get("/api/v3/user/sub-list");
        assertThat(list.data().get("list")).extracting(n -> n.get("type").asText()).containsExactly("custodian");
    }

    @Test
    void theSecretIsShownOnceAndNeverListed() {
        String key = admin.createKey(1000000002L, "Once1", "read-only", "[\"uta_mgt\"]");
        assertThat(admin.lastSecret).hasSizeGreaterThan(30);
        Reply listed = admin.get("/admin/v1/accounts/1000000002/keys");
        assertThat(listed.raw()).contains(key).doesNotContain(admin.lastSecret).doesNotContain("Once1");
    }

    @Test
    void rejectedProvisioningChangesNothing() {
        Reply before = admin.get("/admin/v1/accounts/1000000002/keys");
        Reply bad = admin.post("/admin/v1/keys", "{\"uid\":1000000002,\"passphrase\":\"P1\",\"permissions\":[\"fly\"]}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.code()).isEqualTo("40020");
        Reply noParent = admin.post("/admin/v1/accounts?parentUid=999", "{\"username\":\"orphan\"}");
        assertThat(noParent.code()).isEqualTo("40034");
        Reply badEnum = admin.post("/admin/v1/accounts", "{\"username\":\"x\",\"status\":\"asleep\"}");
        assertThat(badEnum.code()).isEqualTo("40020");
        assertThat(admin.get("/admin/v1/accounts/1000000002/keys").raw()).isEqualTo(before.raw());
    }

    @Test
    void aSeedThatFailsAnywhereLeavesNothingBehind() {
        String seed = "{\"accounts\":[{\"uid\":1777000001,\"username\":\"first\",\"apiKeys\":[{\"accessKey\":\"bg_seedtx_" + kind
                + "\",\"passphrase\":\"P1\"}]},{\"uid\":1000000001,\"username\":\"duplicate of the demo main\"}],"
                + "\"tickers\":[{\"category\":\"SPOT\",\"symbol\":\"SEEDTXUSDT\",\"lastPrice\":\"1\"}]}";
        Reply r = admin.post("/admin/v1/seed", seed);
        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("40020");
        assertThat(admin.get("/admin/v1/accounts/1777000001").code()).isEqualTo("40034");
        Reply ticker = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=SPOT&symbol=SEEDTXUSDT", "GET", "");
        assertThat(ticker.code()).isEqualTo("25100");
    }

    @Test
    void tickersSetThroughAdminAreServedPublicly() {
        Reply set = admin.post("/admin/v1/tickers", "{\"category\":\"USDC-FUTURES\",\"symbol\":\"SOLPERP-" + kind + "\",\"lastPrice\":\"181.25\",\"markPrice\":\"181.3\"}");
        assertThat(set.code()).as(set.raw()).isEqualTo("00000");
        Reply r = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=USDC-FUTURES&symbol=SOLPERP-" + kind, "GET", "");
        assertThat(r.data().get(0).get("lastPrice").asText()).isEqualTo("181.25");
        assertThat(r.data().get(0).get("markPrice").asText()).isEqualTo("181.3");
        assertThat(r.data().get(0).get("openInterest").asText()).isEqualTo("0");
    }

    @Test
    void metricsCountRequestsByEndpointAndCode() {
        server.client(Credentials.MAIN_RW).get("/api/v3/account/info");
        Reply r = ApiClient.raw(server.adminUrl() + "/metrics", "GET", "");
        assertThat(r.raw()).contains("tas_requests_total{code=\"00000\",endpoint=\"ACCOUNT_INFO\"");
    }
}
