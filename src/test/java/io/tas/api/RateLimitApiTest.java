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

import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** §8 limits per (endpoint, UID) or (endpoint, IP); the clock stands still inside one window. */
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

    @Test
    void settingsAllowTwentyPerSecondPerUidAndOtherUsersAreNotThrottled() {
        ApiClient main = server.client(Credentials.MAIN_RW);
        assertThat(accepted(30, () -> main.get("/api/v3/account/settings"))).isBetween(19, 21);
        // Same window: another UID has its own bucket.
        ApiClient sub = server.client(Credentials.SUB);
        assertThat(accepted(5, () -> sub.get("/api/v3/account/settings"))).isEqualTo(5);
        // Another endpoint of the throttled UID is counted independently.
        assertThat(main.get("/api/v3/account/info").code()).isEqualTo("00000");
        // The next second refills.
        ServerPool.nextSecond(kind);
        assertThat(main.get("/api/v3/account/settings").code()).isEqualTo("00000");
    }

    @Test
    void keysOfOneUidShareTheUidBucket() {
        ApiClient rw = server.client(Credentials.MAIN_RW);
        ApiClient ro = server.client(Credentials.MAIN_RO);
        int ok = accepted(3, () -> rw.get("/api/v3/account/info")) + accepted(4, () -> ro.get("/api/v3/account/info"));
        assertThat(ok).isBetween(4, 6); // §8: 5/sec/UID
    }

    @Test
    void publicTickersAreLimitedPerIp() {
        String url = server.baseUrl() + "/api/v3/market/tickers?category=SPOT";
        Reply first = ApiClient.raw(url, "GET", "");
        assertThat(first.raw()).isNotEmpty();
        assertThat(accepted(24, () -> ApiClient.raw(url, "GET", ""))).isBetween(18, 20); // 20/sec/IP, one used above
    }
}
