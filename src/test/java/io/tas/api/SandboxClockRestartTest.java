package io.tas.api;

import io.tas.admin.SandboxClock;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D55: sandbox time survives a restart. The clock moved forward an hour stays an hour ahead in the next process (its
 * offset is saved; without it, domain time would go back an hour, and due jobs would wait for it to come back), while
 * the public time clients sync their signatures with stays the machine's.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class SandboxClockRestartTest {
    @Parameter Databases.Kind kind;

    @Test
    void theOffsetIsKeptAcrossARestart() {
        TestServer server = TestServer.start(kind, new SandboxClock());
        try {
            Admin admin = new Admin(server);
            long before = System.currentTimeMillis();
            Reply advanced = admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":3600000}");
            assertThat(advanced.code()).as(advanced.raw()).isEqualTo("00000");
            long firstUid = admin.createAccount("{\"username\":\"sandbox-restart-1\"}");

            server = server.restart(new SandboxClock()); // a new process: its clock starts without an offset
            admin = new Admin(server);
            long now = Long.parseLong(admin.get("/admin/v1/sandbox/clock").data().get("now").asText());
            assertThat(now - before).isGreaterThanOrEqualTo(3_600_000L);
            long secondUid = admin.createAccount("{\"username\":\"sandbox-restart-2\"}");
            assertThat(secondUid).isNotEqualTo(firstUid);
            // The public time a client corrects its skew with is the clock signatures are checked against, not sandbox time.
            long serverTime = ApiClient.raw(server.baseUrl() + "/api/v2/public/time", "GET", "").data().get("serverTime").asLong();
            assertThat(Math.abs(serverTime - System.currentTimeMillis())).isLessThan(60_000L);
            // Signed requests still use the machine's clock for ACCESS-TIMESTAMP.
            ApiClient client = new ApiClient(server.baseUrl(), Credentials.MAIN_RW, java.time.Clock.systemUTC());
            assertThat(client.get("/api/v3/account/info").code()).isEqualTo("00000");
        } finally {
            server.close();
        }
    }

    /**
     * D189: a frozen clock mints at the frozen instant, where the process may have minted before a restart. The new
     * process starts past every ID the database holds, so the same instant mints new IDs, not the old ones again.
     */
    @Test
    void aFrozenClockMintsNewIdsAfterARestart() {
        TestServer server = TestServer.start(kind, new SandboxClock());
        try {
            Admin admin = new Admin(server);
            assertThat(admin.post("/admin/v1/sandbox/clock/freeze", "{\"at\":1767571200000}").code()).isEqualTo("00000");
            ApiClient client = new ApiClient(server.baseUrl(), Credentials.MAIN_RW, java.time.Clock.systemUTC());
            String order = "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\",\"price\":\"50000\"}";
            Reply first = client.post("/api/v3/trade/place-order", order);
            assertThat(first.code()).as(first.raw()).isEqualTo("00000");

            server = server.restart(new SandboxClock());
            client = new ApiClient(server.baseUrl(), Credentials.MAIN_RW, java.time.Clock.systemUTC());
            assertThat(new Admin(server).get("/admin/v1/sandbox/clock").data().get("now").asText()).isEqualTo("1767571200000");
            Reply second = client.post("/api/v3/trade/place-order", order);
            assertThat(second.code()).as(second.raw()).isEqualTo("00000");
            assertThat(Long.parseLong(second.data().get("orderId").asText())).isGreaterThan(Long.parseLong(first.data().get("orderId").asText()));
            assertThat(client.get("/api/v3/trade/unfilled-orders?category=SPOT").data().path("list").size()).isEqualTo(2);
        } finally {
            server.close();
        }
    }
}
