package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.Credentials;
import io.tas.support.StreamClient;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 across nodes (D186): a subscriber on node b gets what node a commits (an order, the account's balances, a
 * ticker), announced through the change feed after the commit. One PostgreSQL database, two nodes.
 */
class TwoNodeStreamsTest extends TwoNodesTest {
    @Test
    void aSubscriberOnOneNodeGetsWhatTheOtherCommits() throws Exception {
        Admin admin = new Admin(a);
        String base = "TNW" + System.nanoTime() % 100_000 + "X", spot = base + "USDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDT\"}"));
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"lastPrice\":\"99.99\",\"ask1Price\":\"100.01\",\"bid1Price\":\"99.99\"}"));
        Credentials creds = admin.fundedAccount("two-node-streams-" + System.nanoTime(), "USDT", "1000");
        a.app.streams().refreshPeers();
        b.app.streams().refreshPeers();
        try (StreamClient ws = new StreamClient(b.baseUrl(), "/v3/ws/private")) {
            ws.login(creds, b.clock.millis(), null);
            ws.next(n -> "login".equals(n.path("event").asText()));
            ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"},{\"instType\":\"UTA\",\"topic\":\"order\"},"
                    + "{\"instType\":\"spot\",\"topic\":\"ticker\",\"symbol\":\"" + spot + "\"}]}");
            ws.next(n -> "subscribe".equals(n.path("event").asText()) && "ticker".equals(n.path("arg").path("topic").asText()));
            ws.next(n -> "account".equals(n.path("arg").path("topic").asText()) && "snapshot".equals(n.path("action").asText()));

            // Through node a: a limit buy of 2 at 100 rests, 200 USDT frozen.
            ApiClient.Reply r = a.client(creds).post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + spot
                    + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"2\",\"price\":\"100\"}");
            ok(r);
            String id = r.data().path("orderId").asText();
            JsonNode order = ws.next(n -> "order".equals(n.path("arg").path("topic").asText()) && n.has("action"));
            assertThat(order.path("data").path(0).path("orderId").asText()).isEqualTo(id);
            JsonNode account = ws.next(n -> "account".equals(n.path("arg").path("topic").asText()) && "update".equals(n.path("action").asText()));
            JsonNode usdt = null;
            for (JsonNode c : account.path("data").path(0).path("coin")) if (c.path("coin").asText().equals("USDT")) usdt = c;
            assertThat(usdt).isNotNull();
            assertThat(new BigDecimal(usdt.path("available").asText())).isEqualByComparingTo("800");
            assertThat(new BigDecimal(usdt.path("locked").asText())).isEqualByComparingTo("200");

            // A ticker set on node a reaches node b's public subscriber.
            ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"lastPrice\":\"101.5\",\"ask1Price\":\"101.6\",\"bid1Price\":\"101.5\"}"));
            JsonNode tick = ws.next(n -> "ticker".equals(n.path("arg").path("topic").asText()) && n.has("action")
                    && "101.5".equals(n.path("data").path(0).path("lastPrice").asText()));
            assertThat(tick.path("arg").path("symbol").asText()).isEqualTo(spot);
        }
    }
}
