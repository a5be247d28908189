package io.tas.position;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
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
 * Issue 8: set-margin racing set-leverage on one isolated position, 32 clients at once. Whatever order they commit in,
 * the ledger stays conserved and the position stays consistent: its leverage is the configured one, the frozen balance
 * is its margin, and that margin is the initial margin at the final leverage plus exactly what the accepted set-margin
 * calls added and removed (set-leverage keeps added margin, docs/formulas.md).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class MarginLeverageRaceTest {
    private static final int THREADS = 32;
    private static final String[] LEVERAGES = {"5", "10", "20", "25"};
    @Parameter Databases.Kind kind;

    @Test
    void setMarginAndSetLeverageLeaveThePositionConsistent() throws Exception {
        try (TestServer server = TestServer.start(kind, Clock.systemUTC(), false)) {
            long uid = 1000000002L; // the demo sub-account: 800 USDT, no positions
            // 0.01 BTC long isolated at 95000, 10x: notional 950, margin 95.
            Reply open = post(server, "/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\","
                    + "\"holdSide\":\"long\",\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.01\",\"price\":\"95000\",\"fee\":\"0\"}");
            assertThat(open.code()).as(open.raw()).isEqualTo("00000");
            ApiClient client = server.client(Credentials.SUB);
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<Reply>> leverage = new ArrayList<>(), adds = new ArrayList<>(), removes = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int n = t;
                Future<Reply> f = pool.submit(() -> {
                    start.await();
                    return switch (n % 3) {
                        case 0 -> client.post("/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\","
                                + "\"marginMode\":\"isolated\",\"posSide\":\"long\",\"leverage\":\"" + LEVERAGES[n % LEVERAGES.length] + "\"}");
                        case 1 -> client.post("/api/v3/account/set-margin", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\","
                                + "\"operation\":\"add\",\"amount\":\"3\"}");
                        default -> client.post("/api/v3/account/set-margin", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\","
                                + "\"operation\":\"remove\",\"amount\":\"2\"}");
                    };
                });
                (n % 3 == 0 ? leverage : n % 3 == 1 ? adds : removes).add(f);
            }
            start.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            for (Future<Reply> f : leverage) assertThat(f.get().code()).as(f.get().raw()).isEqualTo("00000");
            BigDecimal net = BigDecimal.ZERO;
            for (Future<Reply> f : adds) {
                assertThat(f.get().code()).as(f.get().raw()).isEqualTo("00000");
                net = net.add(new BigDecimal("3"));
            }
            for (Future<Reply> f : removes) {
                // A removal is refused only by its bound (40017), never half-done.
                assertThat(f.get().code()).as(f.get().raw()).isIn("00000", "40017");
                if (f.get().code().equals("00000")) net = net.subtract(new BigDecimal("2"));
            }

            JsonNode p = get(server, "/admin/v1/accounts/" + uid + "/positions").data().get(0);
            BigDecimal lev = new BigDecimal(p.get("leverage").asText());
            BigDecimal margin = new BigDecimal(p.get("marginSize").asText());
            assertThat(margin).isEqualByComparingTo(new BigDecimal("950").divide(lev, 18, java.math.RoundingMode.HALF_EVEN).add(net));
            JsonNode settings = client.get("/api/v3/account/settings").data();
            String configured = "";
            for (JsonNode c : settings.get("symbolConfigList")) if (c.get("symbol").asText().equals("BTCUSDT")) configured = c.get("longLeverage").asText();
            assertThat(new BigDecimal(configured)).isEqualByComparingTo(lev);
            JsonNode usdt = null;
            for (JsonNode b : get(server, "/admin/v1/accounts/" + uid + "/balances").data()) {
                if (b.get("account").asText().equals("unified") && b.get("coin").asText().equals("USDT")) usdt = b;
            }
            assertThat(new BigDecimal(usdt.get("frozen").asText())).isEqualByComparingTo(margin);
            assertThat(new BigDecimal(usdt.get("available").asText()).add(margin)).isEqualByComparingTo("800");
            assertThat(get(server, "/admin/v1/ledger/check").data().get("ok").asBoolean()).isTrue();
        }
    }

    private static Reply post(TestServer s, String path, String json) {
        return ApiClient.raw(s.adminUrl() + path, "POST", json, "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
    }

    private static Reply get(TestServer s, String path) {
        return ApiClient.raw(s.adminUrl() + path, "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
    }
}
