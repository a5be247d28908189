package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
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

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The issue-2 endpoints, complete per spec: field names, string types, paging. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class EndpointsApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;
    ApiClient main;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        main = server.client(Credentials.MAIN_RW);
    }

    private static void assertAllStrings(JsonNode obj, String... except) {
        List<String> skip = List.of(except);
        obj.properties().forEach(e -> {
            if (!skip.contains(e.getKey())) assertThat(e.getValue().isTextual()).as(e.getKey() + " is a string").isTrue();
        });
    }

    @Test
    void accountInfoHasEveryFieldOfSection2_2() {
        JsonNode d = main.get("/api/v3/account/info").data();
        assertThat(d.properties().stream().map(java.util.Map.Entry::getKey).toList()).containsExactly(
                "userId", "inviterId", "parentId", "channelCode", "channel", "ips", "permType", "permissions", "regisTime");
        assertAllStrings(d, "permissions");
        assertThat(d.get("userId").asText()).isEqualTo("1000000001");
        assertThat(d.get("parentId").asText()).isEmpty();
        assertThat(d.get("permType").asText()).isEqualTo("read-and-write");
        assertThat(d.get("permissions")).extracting(JsonNode::asText).contains("uta_mgt", "uta_trade", "withdraw");
        assertThat(d.get("regisTime").asText()).isEqualTo("1735689600000");
    }

    @Test
    void infoDescribesTheCallingKey() {
        JsonNode d = server.client(Credentials.MAIN_RO).get("/api/v3/account/info").data();
        assertThat(d.get("permType").asText()).isEqualTo("read-only");
        assertThat(d.get("permissions")).extracting(JsonNode::asText).containsExactly("uta_mgt", "uta_trade");
    }

    @Test
    void settingsHaveEveryFieldOfSection2_3() {
        JsonNode d = main.get("/api/v3/account/settings").data();
        assertThat(d.properties().stream().map(java.util.Map.Entry::getKey).toList()).containsExactly(
                "uid", "accountMode", "accountLevel", "assetMode", "holdMode", "stpMode", "deltaSwitch", "repayMode",
                "symbolConfigList", "coinConfigList");
        assertAllStrings(d, "symbolConfigList", "coinConfigList");
        assertThat(d.get("accountMode").asText()).isEqualTo("unified");
        assertThat(d.get("accountLevel").asText()).isEqualTo("advanced");
        JsonNode btc = d.get("symbolConfigList").get(0);
        assertAllStrings(btc);
        assertThat(btc.get("category").asText()).isEqualTo("USDT-FUTURES");
        assertThat(btc.get("symbol").asText()).isEqualTo("BTCUSDT");
        assertThat(btc.get("marginMode").asText()).isEqualTo("isolated");
        assertThat(btc.get("leverage").asText()).isEqualTo("10");
        assertThat(d.get("coinConfigList").get(0).get("coin").asText()).isEqualTo("BTC");
        // Each account reads only its own settings.
        assertThat(server.client(Credentials.SUB).get("/api/v3/account/settings").data().get("uid").asText()).isEqualTo("1000000002");
    }

    @Test
    void subListPagesNewestFirstWithCursor() {
        Reply all = main.get("/api/v3/user/sub-list");
        assertThat(all.data().get("hasNext").isBoolean()).isTrue();
        assertThat(all.data().get("hasNext").asBoolean()).isFalse();
        assertThat(all.data().get("list")).extracting(n -> n.get("subUid").asText()).containsExactly("1000000005", "1000000003", "1000000002");
        JsonNode classic = all.data().get("list").get(0);
        assertAllStrings(classic);
        assertThat(classic.get("status").asText()).isEqualTo("normal");
        assertThat(classic.get("accountMode").asText()).isEqualTo("CLASSIC");
        assertThat(classic.get("type").asText()).isEqualTo("normal");
        JsonNode frozen = all.data().get("list").get(1);
        assertAllStrings(frozen);
        assertThat(frozen.get("status").asText()).isEqualTo("frozen");
        assertThat(frozen.get("accountMode").asText()).isEqualTo("CLASSIC");
        assertThat(frozen.get("type").asText()).isEqualTo("virtual");

        List<String> seen = new ArrayList<>();
        String cursor = "";
        boolean hasNext = true;
        while (hasNext) {
            JsonNode page = main.get("/api/v3/user/sub-list?limit=1" + (cursor.isEmpty() ? "" : "&cursor=" + cursor)).data();
            assertThat(page.get("list").size()).isEqualTo(1);
            seen.add(page.get("list").get(0).get("subUid").asText());
            cursor = page.get("cursor").asText();
            hasNext = page.get("hasNext").asBoolean();
        }
        assertThat(seen).containsExactly("1000000005", "1000000003", "1000000002");
        JsonNode past = main.get("/api/v3/user/sub-list?cursor=1000000002").data();
        assertThat(past.get("list").size()).isZero();
        assertThat(past.get("cursor").asText()).isEmpty();
    }

    @Test
    void tickersArePublicAndSpotLeavesFuturesFieldsEmpty() {
        Reply spot = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=SPOT", "GET", "");
        assertThat(spot.code()).isEqualTo("00000");
        assertThat(spot.data()).extracting(n -> n.get("symbol").asText()).contains("BGBUSDT", "BTCUSDT", "ETHUSDT", "DOGEUSDT").isSorted();
        JsonNode btc = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=SPOT&symbol=BTCUSDT", "GET", "").data().get(0);
        assertAllStrings(btc);
        assertThat(btc.get("lastPrice").asText()).isEqualTo("97250.5");
        for (String f : List.of("indexPrice", "markPrice", "fundingRate", "openInterest", "deliveryStartTime", "deliveryTime", "deliveryStatus")) {
            assertThat(btc.get(f).asText()).as(f).isEmpty();
        }
        JsonNode perp = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=USDT-FUTURES&symbol=BTCUSDT", "GET", "").data();
        assertThat(perp.size()).isEqualTo(1);
        assertThat(perp.get(0).get("markPrice").asText()).isEqualTo("97258.8");
        assertThat(perp.get(0).get("fundingRate").asText()).isEqualTo("0.0001");
    }

    @Test
    void publicTimeIsTheServerClock() {
        Reply r = ApiClient.raw(server.baseUrl() + "/api/v2/public/time", "GET", "");
        assertThat(r.data().get("serverTime").asText()).isEqualTo(Long.toString(server.clock.millis()));
    }
}
