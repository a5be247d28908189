package io.tas.reality;

import io.tas.api.Admin;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.Metrics;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24 item 10: a ticker update reads only the working orders it crosses, a page at a time, not every working order
 * of the symbol. 250 resting buys far below the market and one that the new ask crosses: the tick examines that one
 * (tas_reality_orders_examined_total). The old loop read all 251 on every tick. Rate limits off (its own server).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RealityMatchingPagesTest {
    private static final java.util.Map<Databases.Kind, TestServer> SERVERS = new java.util.EnumMap<>(Databases.Kind.class);
    @Parameter Databases.Kind kind;

    @AfterAll
    static void stop() {
        SERVERS.values().forEach(TestServer::close);
        SERVERS.clear();
    }

    @Test
    void aTickExaminesOnlyTheOrdersItCrosses() {
        TestServer server = SERVERS.computeIfAbsent(kind, k -> TestServer.start(k, new MutableClock(System.currentTimeMillis()), false));
        Admin admin = new Admin(server);
        ticker(admin, "230.12", "230.1");
        ApiClient c = server.client(admin.fundedAccount("pages-" + kind, "USDT", "100000"));
        long uid = admin.lastUid;
        ok(admin.post("/admin/v1/accounts/" + uid + "/reality-allow-list", "{\"allowed\":true}"));
        for (int i = 0; i < 250; i++) ok(c.post("/api/v3/trade/place-reality-order", order(Integer.toString(100 + i % 100))));
        Reply near = c.post("/api/v3/trade/place-reality-order", order("229"));
        ok(near);

        double before = Metrics.value(server, "tas_reality_orders_examined_total");
        ticker(admin, "228.5", "228.4"); // crosses the buy at 229 only
        double examined = Metrics.value(server, "tas_reality_orders_examined_total") - before;
        assertThat(examined).as("orders read by one tick").isEqualTo(1.0);
        String status = null;
        for (var o : admin.get("/admin/v1/accounts/" + uid + "/reality-orders").data()) {
            if (o.get("orderId").asText().equals(near.data().get("orderId").asText())) status = o.get("status").asText();
        }
        assertThat(status).isEqualTo("filled");
    }

    private static String order(String price) {
        return "{\"symbol\":\"AAPLXUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.1\",\"price\":\"" + price + "\"}";
    }

    private static void ticker(Admin admin, String ask, String bid) {
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"AAPLXUSDT\",\"lastPrice\":\"" + bid
                + "\",\"ask1Price\":\"" + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"100\",\"bid1Size\":\"100\"}"));
    }

    private static void ok(Reply r) {
        assertThat(r.code()).as(r.raw()).isEqualTo("00000");
    }
}
