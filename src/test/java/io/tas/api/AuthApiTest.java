package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import io.tas.auth.Signature;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static io.tas.api.Replies.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** Wire facts §1 and §3: every authentication failure gets the real code with HTTP 400, on H2 and PostgreSQL. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class AuthApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
    }

    private Reply info(Credentials c) { return server.client(c).get("/api/v3/account/info"); }


    @Test
    void signedCallSucceedsWithTheSuccessEnvelope() {
        Reply r = info(Credentials.MAIN_RW);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.code()).isEqualTo("00000");
        assertThat(r.msg()).isEqualTo("success");
        assertThat(r.body().get("requestTime").isIntegralNumber()).isTrue();
        assertThat(r.body().get("requestTime").asLong()).isEqualTo(server.clock.millis());
    }

    @Test
    void wrongSecretIs40009() { assertError(info(Credentials.MAIN_RW.withSecret("not-the-secret")), "40009"); }

    @Test
    void wrongPassphraseIs40012() { assertError(info(Credentials.MAIN_RW.withPassphrase("DemoPass9")), "40012"); }

    @Test
    void unknownKeyIs40006() { assertError(info(Credentials.MAIN_RW.withKey("bg_unknown")), "40006"); }

    @Test
    void timestampOutsideThirtySecondsIs40008BothWays() {
        ApiClient c = server.client(Credentials.MAIN_RW);
        assertError(c.send("GET", "/api/v3/account/info", "", -30_001, null), "40008");
        assertError(c.send("GET", "/api/v3/account/info", "", 30_001, null), "40008");
        assertThat(c.send("GET", "/api/v3/account/info", "", -29_000, null).code()).isEqualTo("00000");
    }

    @Test
    void missingHeadersGetTheirOwnCodes() {
        String url = server.baseUrl() + "/api/v3/account/info";
        String ts = Long.toString(server.clock.millis());
        String sign = Signature.sign(Credentials.MAIN_RW.secret(), ts, "GET", "/api/v3/account/info", "", "");
        assertError(ApiClient.raw(url, "GET", "", "ACCESS-SIGN", sign, "ACCESS-TIMESTAMP", ts, "ACCESS-PASSPHRASE", "DemoPass1"), "40001");
        assertError(ApiClient.raw(url, "GET", "", "ACCESS-KEY", Credentials.MAIN_RW.key(), "ACCESS-TIMESTAMP", ts, "ACCESS-PASSPHRASE", "DemoPass1"), "40002");
        assertError(ApiClient.raw(url, "GET", "", "ACCESS-KEY", Credentials.MAIN_RW.key(), "ACCESS-SIGN", sign, "ACCESS-PASSPHRASE", "DemoPass1"), "40005");
        assertError(ApiClient.raw(url, "GET", "", "ACCESS-KEY", Credentials.MAIN_RW.key(), "ACCESS-SIGN", sign, "ACCESS-TIMESTAMP", "soon", "ACCESS-PASSPHRASE", "DemoPass1"), "40005");
        assertError(ApiClient.raw(url, "GET", "", "ACCESS-KEY", Credentials.MAIN_RW.key(), "ACCESS-SIGN", sign, "ACCESS-TIMESTAMP", ts), "40011");
    }

    @Test
    void headerNamesAreCaseInsensitiveAndGetNeedsNoContentType() {
        String ts = Long.toString(server.clock.millis());
        String sign = Signature.sign(Credentials.MAIN_RW.secret(), ts, "GET", "/api/v3/account/info", "", "");
        Reply r = ApiClient.raw(server.baseUrl() + "/api/v3/account/info", "GET", "",
                "access-key", Credentials.MAIN_RW.key(), "Access-Sign", sign, "access-timestamp", ts, "ACCESS-passphrase", "DemoPass1");
        assertThat(r.code()).as(r.raw()).isEqualTo("00000");
    }

    @Test
    void queryMaySignRawOrDecodedSorted() {
        ApiClient c = server.client(Credentials.MAIN_RW);
        // Signed over the raw query exactly as sent (keys unsorted).
        assertThat(c.get("/api/v3/user/sub-list?limit=1&cursor=1000000009").code()).isEqualTo("00000");
        // ccxt style (wire facts §1.2): URL percent-encoded and unsorted, prehash decoded with keys sorted.
        Reply r = subListSignedOver("cursor=1000000009&limit=1", "limit=%31&cursor=1000000009");
        assertThat(r.code()).as(r.raw()).isEqualTo("00000");
        assertThat(r.data().get("list").size()).isEqualTo(1);
        // A prehash over some other form, e.g. sorted but still encoded, is not accepted.
        assertError(subListSignedOver("cursor=1000000009&limit=%31", "limit=%31&cursor=1000000009"), "40009");
    }

    /** GET sub-list with the query sent, signed by MAIN_RW over the query signed (which need not be the one sent). */
    private Reply subListSignedOver(String signed, String sent) {
        String ts = Long.toString(server.clock.millis());
        String sign = Signature.sign(Credentials.MAIN_RW.secret(), ts, "GET", "/api/v3/user/sub-list", signed, "");
        return ApiClient.raw(server.baseUrl() + "/api/v3/user/sub-list?" + sent, "GET", "",
                "ACCESS-KEY", Credentials.MAIN_RW.key(), "ACCESS-SIGN", sign, "ACCESS-TIMESTAMP", ts, "ACCESS-PASSPHRASE", "DemoPass1");
    }

    /** Issue 24 item 8: a signature over `cursor=…&limit=1` does not cover one parameter cursor = "…&limit=1". */
    @Test
    void aSignedQueryCannotBeReplayedWithOtherParameters() {
        assertError(subListSignedOver("cursor=1000000009&limit=1", "cursor=1000000009%26limit%3D1"), "40009");
    }

    @Test
    void ipAllowListRejectsOtherAddresses() {
        assertError(info(Credentials.MAIN_IP), "40018");
    }

    @Test
    void readOnlyKeyReadsButCannotCallAWriteRow() {
        assertThat(server.client(Credentials.MAIN_RO).get("/api/v3/account/settings").code()).isEqualTo("00000");
        Reply r = server.client(Credentials.MAIN_RO).post("/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"10\"}");
        assertError(r, "40014");
        assertThat(r.msg()).isEqualTo("Incorrect permissions, need read-and-write permissions");
    }

    @Test
    void keyWithoutThePermissionNameIs40014() {
        // The read-only demo key lacks copy_futures_order.
        Reply r = server.client(Credentials.MAIN_RO).get("/api/v3/copy/futures/profit-summary");
        assertError(r, "40014");
        assertThat(r.msg()).contains("copy_futures_order");
    }

    @Test
    void subAccountKeyIsRefusedOnMainOnlySubList() {
        assertError(server.client(Credentials.SUB).get("/api/v3/user/sub-list"), "40068");
        Reply info = info(Credentials.SUB);
        assertThat(info.data().get("parentId").asText()).isEqualTo("1000000001");
    }

    @Test
    void revokedKeyStopsWorkingAtOnce() {
        Admin admin = new Admin(server);
        String key = admin.createKey(1000000001L, "RevokeMe1", "read-and-write", "[\"uta_mgt\"]");
        Credentials c = new Credentials(key, admin.lastSecret, "RevokeMe1");
        assertThat(info(c).code()).isEqualTo("00000");
        assertThat(admin.post("/admin/v1/keys/" + key + "/revoke", "").code()).isEqualTo("00000");
        assertError(info(c), "40006");
    }
}
