package io.tas.ledger;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 64 threads race small-asset trades and debit adjustments on one account that holds just enough for
 * K of each: exactly K of each succeed, nothing goes negative, the ledger stays conserved.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RaceTest {
    private static final int THREADS = 64;
    private static final int K = 8;
    @Parameter Databases.Kind kind;

    @Test
    void exactlyKOfEachSucceed() throws Exception {
        try (TestServer server = TestServer.start(kind, Clock.systemUTC(), false)) {
            String admin = server.adminUrl();
            long uid = 1000000002L; // the demo sub-account
            for (int i = 0; i < K; i++) {
                assertThat(adminPost(admin, "/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"DUST" + i + "USDT\",\"lastPrice\":\"1\"}").code()).isEqualTo("00000");
                assertThat(adminPost(admin, "/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"DUST" + i
                        + "\",\"amount\":\"2\",\"ref\":\"race-dust-" + i + "\"}").code()).isEqualTo("00000");
            }
            // Exactly K debits of 5 fit: the demo gave 800 USDT, so take it down to 5 x K first.
            assertThat(adminPost(admin, "/admin/v1/ledger/adjust", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"-"
                    + (800 - 5 * K) + "\",\"ref\":\"race-setup\"}").code()).isEqualTo("00000");

            ApiClient client = server.client(Credentials.SUB);
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<Reply>> trades = new ArrayList<>();
            List<Future<Reply>> debits = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int n = t;
                if (n % 2 == 0) {
                    trades.add(pool.submit(() -> {
                        start.await();
                        return client.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"DUST" + ((n / 2) % K) + "\"]}");
                    }));
                } else {
                    debits.add(pool.submit(() -> {
                        start.await();
                        return adminPost(admin, "/admin/v1/ledger/adjust", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"-5\",\"ref\":\"race-" + n + "\"}");
                    }));
                }
            }
            start.countDown();
            int tradesOk = count(trades), debitsOk = count(debits);
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

            assertThat(tradesOk).as("trades").isEqualTo(K);
            assertThat(debitsOk).as("debits").isEqualTo(K);
            Reply balances = ApiClient.raw(admin + "/admin/v1/accounts/" + uid + "/balances", "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
            // Every dust coin was converted and the USDT debited to zero: none of them is listed any more.
            balances.data().forEach(b -> {
                assertThat(b.get("available").asText()).doesNotStartWith("-");
                assertThat(b.get("coin").asText()).doesNotStartWith("DUST");
                assertThat(b.get("account").asText() + "/" + b.get("coin").asText()).isNotEqualTo("unified/USDT");
            });
            Reply check = ApiClient.raw(admin + "/admin/v1/ledger/check", "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
            assertThat(check.data().get("ok").asBoolean()).as(check.raw()).isTrue();
        }
    }

    private static int count(List<Future<Reply>> replies) throws Exception {
        int ok = 0;
        for (Future<Reply> f : replies) {
            Reply r = f.get(60, TimeUnit.SECONDS);
            assertThat(r.status()).as(r.raw()).isIn(200, 400);
            if (r.code().equals("00000")) ok++;
            else assertThat(r.code()).as(r.raw()).isIn("40017", "25202");
        }
        return ok;
    }

    private static Reply adminPost(String admin, String path, String json) {
        return ApiClient.raw(admin + path, "POST", json, "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
    }
}
