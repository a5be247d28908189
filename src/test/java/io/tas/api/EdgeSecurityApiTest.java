package io.tas.api;

import io.tas.auth.Signature;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.LoopbackClient;
import io.tas.support.Metrics;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edge against hostile callers, on H2 and PostgreSQL: what a caller without the secret can learn or make
 * the server spend, and that account status and IP allow-lists hold for keys made through the admin API.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class EdgeSecurityApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;
    Admin admin;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        admin = new Admin(server);
    }

    private Reply info(Credentials c) { return server.client(c).get("/api/v3/account/info"); }


    @Test
    void wrongSignatureAndWrongPassphraseIs40009AndRunsNoPassphraseHash() {
        double before = Metrics.value(server, "tas_passphrase_hashes_total");
        assertError(info(Credentials.MAIN_RW.withSecret("not-the-secret").withPassphrase("NotThePass")), "40009");
        assertError(info(Credentials.MAIN_RW.withSecret("not-the-secret")), "40009");
        assertThat(Metrics.value(server, "tas_passphrase_hashes_total")).as("PBKDF2 runs").isEqualTo(before);
        // Whoever holds the secret still learns that the passphrase is wrong (the SDK conformance run checks it).
        assertError(info(Credentials.MAIN_RW.withPassphrase("NotThePass")), "40012");
        assertThat(Metrics.value(server, "tas_passphrase_hashes_total")).isEqualTo(before + 1);
    }

    @Test
    void tenThousandRandomUnknownKeysCostAtMostAFewDatabaseQueries() throws Exception {
        double before = Metrics.value(server, "tas_api_key_store_lookups_total");
        SecureRandom random = new SecureRandom();
        AtomicInteger refused = new AtomicInteger();
        var wrong = new ConcurrentHashMap<String, String>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (int i = 0; i < 10_000; i++) {
                byte[] b = new byte[16];
                random.nextBytes(b);
                Credentials c = Credentials.MAIN_RW.withKey("bg_" + HexFormat.of().formatHex(b));
                pool.submit(() -> {
                    Reply r = info(c);
                    if (r.status() == 400 && r.code().equals("40006")) refused.incrementAndGet();
                    else wrong.putIfAbsent(r.code(), r.raw());
                });
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(refused.get()).isEqualTo(10_000);
        assertThat(Metrics.value(server, "tas_api_key_store_lookups_total") - before).as("key lookups in the database").isLessThanOrEqualTo(3);
        assertThat(info(Credentials.MAIN_RW).code()).isEqualTo("00000");
    }

    @Test
    void adminWithoutATokenOrWithAnEmptyBearerIsRefusedAndChangesNothing() {
        long uid = 1_555_000_000L + kind.ordinal();
        String body = "{\"uid\":" + uid + ",\"username\":\"no-token\"}";
        for (String[] auth : new String[][] {{}, {"Authorization", "Bearer "}, {"Authorization", "Bearer"}, {"Authorization", ""}}) {
            String[] headers = new String[auth.length + 2];
            System.arraycopy(auth, 0, headers, 0, auth.length);
            headers[auth.length] = "Content-Type";
            headers[auth.length + 1] = "application/json";
            Reply r = ApiClient.raw(server.adminUrl() + "/admin/v1/accounts", "POST", body, headers);
            assertThat(r.status()).as(r.raw()).isEqualTo(401);
            assertThat(r.body().get("code").isTextual()).as(r.raw()).isTrue();
            assertThat(r.msg()).isEqualTo("admin token required");
            assertThat(r.body().get("requestTime").isIntegralNumber()).isTrue();
            assertThat(r.body().get("data").isNull()).isTrue();
        }
        assertThat(admin.get("/admin/v1/accounts/" + uid).code()).isEqualTo("40034");
    }

    @Test
    void oversizedAdminBodyIs40017AndChangesNothingWhileSeedsHaveTheirOwnCap() {
        long uid = 1_555_000_010L + kind.ordinal();
        String big = "{\"uid\":" + uid + ",\"username\":\"big\",\"note\":\"" + "x".repeat(1 << 20) + "\"}";
        Reply r = admin.post("/admin/v1/accounts", big);
        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        assertThat(r.code()).isEqualTo("40017");
        assertThat(r.msg()).isEqualTo("Parameter verification failed admin request body larger than 1048576 bytes");
        // Without a Content-Length (chunked), the body is read up to the cap and no further.
        Reply chunked = ApiClient.rawStreamed(server.adminUrl() + "/admin/v1/accounts", big,
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
        assertThat(chunked.status()).as(chunked.raw()).isEqualTo(400);
        assertThat(chunked.code()).isEqualTo("40017");
        assertThat(admin.get("/admin/v1/accounts/" + uid).code()).isEqualTo("40034");

        // A seed document of the same size is an operator file under its own, larger cap.
        String seed = "{\"accounts\":[{\"uid\":" + uid + ",\"username\":\"seeded-big\"}]" + " ".repeat((1 << 20) + 10) + "}";
        Reply seeded = admin.post("/admin/v1/seed", seed);
        assertThat(seeded.code()).as(seeded.raw()).isEqualTo("00000");
        assertThat(admin.get("/admin/v1/accounts/" + uid).data().get("username").asText()).isEqualTo("seeded-big");
    }

    @Test
    void aKeyOfAFrozenAccountIs40013() {
        long uid = admin.createAccount("{\"username\":\"frozen-" + kind + "\",\"status\":\"frozen\"}");
        String key = admin.createKey(uid, "Frozen1", "read-and-write", "[\"uta_mgt\"]");
        Reply r = info(new Credentials(key, admin.lastSecret, "Frozen1"));
        assertError(r, "40013");
        assertThat(r.msg()).isEqualTo("User status is abnormal");
    }

    @Test
    void anIpAllowListedKeyWorksFromItsAddressAndIs40018FromAnother() {
        Reply created = admin.post("/admin/v1/keys", "{\"uid\":1000000001,\"passphrase\":\"Local1\",\"permissions\":[\"uta_mgt\"],\"ips\":[\"127.0.0.1\"]}");
        assertThat(created.code()).as(created.raw()).isEqualTo("00000");
        Credentials c = new Credentials(created.data().get("accessKey").asText(), created.data().get("secret").asText(), "Local1");
        Reply ok = info(c);
        assertThat(ok.code()).as(ok.raw()).isEqualTo("00000");
        assertThat(ok.data().get("ips").asText()).isEqualTo("127.0.0.1");

        String ts = Long.toString(server.clock.millis());
        String sign = Signature.sign(c.secret(), ts, "GET", "/api/v3/account/info", "", "");
        LoopbackClient.Response other = LoopbackClient.get("127.0.0.2", server.app.port(), "/api/v3/account/info",
                "ACCESS-KEY", c.key(), "ACCESS-SIGN", sign, "ACCESS-TIMESTAMP", ts, "ACCESS-PASSPHRASE", "Local1");
        assertThat(other.status()).isEqualTo(400);
        assertThat(other.code()).isEqualTo("40018");
    }

    @Test
    void rateLimitBucketsOfIdleCallersAreDropped() {
        // Every bucket is idle and full after a minute: none is left.
        ServerPool.clock(kind).advance(Duration.ofMinutes(1));
        assertThat(Metrics.value(server, "tas_rate_limit_buckets")).isZero();
        int callers = 40;
        for (int i = 0; i < callers; i++) {
            LoopbackClient.Response r = LoopbackClient.get("127.0.0." + (10 + i), server.app.port(), "/api/v2/public/time");
            assertThat(r.code()).isEqualTo("00000");
        }
        // One bucket per (endpoint, IP): a second call from a known address adds none.
        assertThat(LoopbackClient.get("127.0.0.10", server.app.port(), "/api/v2/public/time").code()).isEqualTo("00000");
        assertThat(Metrics.value(server, "tas_rate_limit_buckets")).isEqualTo((double) callers);
        ServerPool.clock(kind).advance(Duration.ofSeconds(12)); // a one-second window refilled, plus the 10 s kept
        assertThat(Metrics.value(server, "tas_rate_limit_buckets")).isZero();
    }
}
