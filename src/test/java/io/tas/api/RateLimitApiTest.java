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

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * §8 limits per (endpoint, UID) or (endpoint, IP); the clock stands still inside one window, so every count is exact.
 * Buckets refill whole once per second of the service clock (D9), and that clock is the pool's MutableClock, which
 * moves only when a test calls ServerPool.next/nextSecond (test classes run one after another): a count can only be
 * off if the window does not start full or the clock moves inside the loop. ServerPool.next moves it 1001 ms, past a
 * refill of every bucket; the UID tests also use accounts of their own, so no earlier test has touched their buckets.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RateLimitApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
    }

    private static int accepted(int attempts, Supplier<Reply> call) {
        int ok = 0;
        for (int i = 0; i < attempts; i++) {
            Reply r = call.get();
            if (r.code().equals("00000")) {
                ok++;
            } else {
                assertThat(r.status()).as(r.raw()).isEqualTo(429);
                assertThat(r.code()).isEqualTo("429");
                assertThat(r.msg()).isEqualTo("Too Many Requests");
            }
        }
        return ok;
    }

    private static final AtomicInteger NAMES = new AtomicInteger();

    /** A new account of its own: its buckets start full whatever earlier tests did. */
    private long freshAccount(Admin admin) {
        return admin.createAccount("{\"username\":\"limits-" + kind + "-" + NAMES.incrementAndGet() + "\"}");
    }

    private ApiClient key(Admin admin, long uid, String permType) {
        String key = admin.createKey(uid, "Limits1", permType, "[\"uta_mgt\"]");
        return server.client(new Credentials(key, admin.lastSecret, "Limits1"));
    }

    /**
     * Issue 8: the §8 limit of each account-configuration row, written out here from the spec (not read from the
     * catalog), so a wrong catalog row fails. A fresh account per row; whatever the row answers, only the quota gets
     * past the limiter in one second.
     */
    @Test
    void eachAccountConfigurationRowAllowsExactlyItsQuota() {
        Object[][] rows = {
                {"GET", "/api/v3/account/pre-set-leverage?category=USDT-FUTURES&symbol=BTCUSDT&marginMode=crossed&leverage=5", null, 10},
                {"POST", "/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"leverage\":\"5\"}", 10},
                {"POST", "/api/v3/account/set-hold-mode", "{\"holdMode\":\"one_way_mode\"}", 10},
                {"POST", "/api/v3/account/switch-deduct", "{\"deduct\":\"on\"}", 1},
                {"GET", "/api/v3/account/deduct-info", null, 1},
                {"POST", "/api/v3/account/switch", "{}", 1},
                {"GET", "/api/v3/account/switch-status", null, 5},
                {"POST", "/api/v3/account/set-margin", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\",\"operation\":\"add\",\"amount\":\"1\"}", 10},
                {"GET", "/api/v3/account/delta-info", null, 20},
                {"POST", "/api/v3/account/adjust-account-mode", "{\"mode\":\"basic\"}", 1}};
        Admin admin = new Admin(server);
        for (Object[] row : rows) {
            ApiClient client = key(admin, freshAccount(admin), "read-and-write");
            // delta-info's caller condition (a guard) is checked before the limiter: turn delta-neutral on first.
            if (row[1].toString().contains("delta-info")) {
                assertThat(client.post("/api/v3/account/adjust-account-mode", "{\"mode\":\"delta\"}").code()).isEqualTo("00000");
            }
            int quota = (Integer) row[3];
            int passed = 0;
            for (int i = 0; i < quota + 3; i++) {
                Reply r = row[0].equals("GET") ? client.get((String) row[1]) : client.post((String) row[1], (String) row[2]);
                if (r.status() != 429) passed++;
                else assertThat(r.code()).isEqualTo("429");
            }
            assertThat(passed).as(row[1].toString()).isEqualTo(quota);
        }
    }

    @Test
    void settingsAllowTwentyPerSecondPerUidAndOtherUsersAreNotThrottled() {
        Admin admin = new Admin(server);
        ApiClient main = key(admin, freshAccount(admin), "read-and-write");
        assertThat(accepted(30, () -> main.get("/api/v3/account/settings"))).isEqualTo(20);
        // Same window: another UID has its own bucket.
        ApiClient other = key(admin, freshAccount(admin), "read-and-write");
        assertThat(accepted(25, () -> other.get("/api/v3/account/settings"))).isEqualTo(20);
        // Another endpoint of the throttled UID is counted independently.
        assertThat(main.get("/api/v3/account/info").code()).isEqualTo("00000");
        // The next second refills.
        ServerPool.nextSecond(kind);
        assertThat(main.get("/api/v3/account/settings").code()).isEqualTo("00000");
    }

    @Test
    void keysOfOneUidShareTheUidBucket() {
        Admin admin = new Admin(server);
        long uid = freshAccount(admin);
        ApiClient rw = key(admin, uid, "read-and-write");
        ApiClient ro = key(admin, uid, "read-only");
        assertThat(accepted(3, () -> rw.get("/api/v3/account/info"))).isEqualTo(3);
        assertThat(accepted(4, () -> ro.get("/api/v3/account/info"))).isEqualTo(2); // §8: 5/sec/UID, 3 used by the other key
        // The demo main account's keys, in the same window, draw from a bucket of their own UID.
        assertThat(accepted(5, () -> server.client(Credentials.MAIN_RO).get("/api/v3/account/info"))).isEqualTo(5);
        assertThat(accepted(1, () -> server.client(Credentials.MAIN_RW).get("/api/v3/account/info"))).isZero();
    }

    @Test
    void publicTickersAreLimitedPerIp() {
        String url = server.baseUrl() + "/api/v3/market/tickers?category=SPOT";
        Reply first = ApiClient.raw(url, "GET", "");
        assertThat(first.raw()).isNotEmpty();
        assertThat(first.code()).as(first.raw()).isEqualTo("00000");
        assertThat(accepted(24, () -> ApiClient.raw(url, "GET", ""))).isEqualTo(19); // 20/sec/IP, one used above
        // The limit is per endpoint: the public time row of the same IP is untouched.
        assertThat(ApiClient.raw(server.baseUrl() + "/api/v2/public/time", "GET", "").code()).isEqualTo("00000");
        ServerPool.nextSecond(kind);
        assertThat(accepted(20, () -> ApiClient.raw(url, "GET", ""))).isEqualTo(20);
    }
}
