package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.StreamClient;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 (D186, D187): no push for a refused or rolled-back change. On a node of its own (a table is taken away under
 * it), on H2 and PostgreSQL, an account subscribed to its order and account topics sends, in a tight loop, orders that
 * commit (limit buys that rest), orders refused before anything runs (insufficient funds, a bad quantity) and market
 * orders whose transaction fails at its last write (the public trades table is renamed away, so the fill rolls back
 * after the ledger and the order were written) and answer 40015. Exactly the committed orders are pushed, each once;
 * account pushes show committed balances only, in commit order, and the last equals the REST balance.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class StreamRollbackTest {
    @Parameter Databases.Kind kind;

    private static void sql(TestServer server, String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(server.db.url(), server.db.user(), ""); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    @Test
    void refusedAndRolledBackOrdersPushNothing() throws Exception {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(kind, clock, c -> c)) {
            Admin admin = new Admin(server);
            ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"RBUSDT\",\"baseCoin\":\"RB\",\"quoteCoin\":\"USDT\"}"));
            ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"RBUSDT\",\"lastPrice\":\"99.99\",\"ask1Price\":\"100.01\","
                    + "\"bid1Price\":\"99.99\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}"));
            io.tas.support.Credentials creds = admin.fundedAccount("rollback-" + kind, "USDT", "10000");
            ApiClient c = server.client(creds);
            Set<String> committed = new HashSet<>();
            int refused = 0, rolledBack = 0;
            try (StreamClient ws = new StreamClient(server.baseUrl(), "/v3/ws/private")) {
                ws.login(creds, server.clock.millis(), null);
                ws.next(n -> "login".equals(n.path("event").asText()));
                ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"order\"},{\"instType\":\"UTA\",\"topic\":\"account\"}]}");
                ws.next(n -> "account".equals(n.path("arg").path("topic").asText()) && "snapshot".equals(n.path("action").asText()));

                sql(server, "alter table market_trade rename to market_trade_away");
                try {
                    for (int i = 0; i < 25; i++) {
                        clock.advance(java.time.Duration.ofMillis(1001)); // a fresh second of the row's rate limit
                        // Commits: a limit buy of 1 at 90 rests (90 USDT frozen).
                        ApiClient.Reply rest = c.post("/api/v3/trade/place-order", order("limit", "1", ",\"price\":\"90\""));
                        ok(rest);
                        committed.add(rest.data().path("orderId").asText());
                        // Rolled back at its last write: a market buy fills, then recording the public trade fails.
                        ApiClient.Reply market = c.post("/api/v3/trade/place-order", order("market", "100", ""));
                        assertThat(market.code()).as(market.raw()).isEqualTo("40015");
                        rolledBack++;
                        // Refused before anything runs: more than the account holds, and a quantity of 0.
                        assertThat(c.post("/api/v3/trade/place-order", order("limit", "1000", ",\"price\":\"90\"")).code()).isNotEqualTo("00000");
                        assertThat(c.post("/api/v3/trade/place-order", order("limit", "0", ",\"price\":\"90\"")).code()).isNotEqualTo("00000");
                        refused += 2;
                    }
                } finally {
                    sql(server, "alter table market_trade_away rename to market_trade");
                }
                // A last committed order closes the run: every push before it is in once it arrives.
                ApiClient.Reply last = c.post("/api/v3/trade/place-order", order("limit", "1", ",\"price\":\"80\""));
                ok(last);
                String lastId = last.data().path("orderId").asText();
                committed.add(lastId);
                ws.next(n -> "order".equals(n.path("arg").path("topic").asText()) && n.path("data").path(0).path("orderId").asText().equals(lastId));
                // The account after the last order: 26 resting buys, 25 x 90 + 80 = 2330 frozen, 7670 available.
                JsonNode account = ws.next(n -> "account".equals(n.path("arg").path("topic").asText())
                        && coin(n, "locked").compareTo(new BigDecimal("2330")) == 0);
                assertThat(coin(account, "available")).isEqualByComparingTo("7670");
                Thread.sleep(300);
                List<JsonNode> rest = ws.kept();
                Set<String> pushed = new HashSet<>();
                int orderPushes = 1; // the last one, taken above
                for (JsonNode n : rest) {
                    if (!"order".equals(n.path("arg").path("topic").asText())) continue;
                    for (JsonNode o : n.path("data")) {
                        orderPushes++;
                        pushed.add(o.path("orderId").asText());
                    }
                }
                pushed.add(lastId);
                assertThat(pushed).as("%d rolled back, %d refused", rolledBack, refused).isEqualTo(committed);
                assertThat(orderPushes).as("each committed order pushed once").isEqualTo(committed.size());
                // Account updates show committed states only, in commit order: 90, 180, ..., 2250 locked before the last. A
                // busy lane pushes several commits' state once (D187's coalescing), so some may be skipped; none repeats
                // (a subscription is never pushed the state it shows, D226) and none is another figure (a rolled-back
                // fill's balances).
                List<JsonNode> accountPushes = rest.stream().filter(n -> "account".equals(n.path("arg").path("topic").asText()) && n.has("action")).toList();
                List<BigDecimal> locked = accountPushes.stream().map(n -> coin(n, "locked")).toList();
                // Every account push as action locked/available@ts: what a failure below prints.
                String seen = String.join(" ", accountPushes.stream().map(n -> n.path("action").asText() + " " + coin(n, "locked").toPlainString()
                        + "/" + coin(n, "available").toPlainString() + "@" + n.path("ts").asText()).toList());
                assertThat(locked).isNotEmpty().hasSizeLessThanOrEqualTo(25);
                for (int i = 0; i < locked.size(); i++) {
                    BigDecimal l = locked.get(i);
                    assertThat(l.remainder(BigDecimal.valueOf(90)).signum()).as("update %d: %s locked is a committed state", i, l).isZero();
                    assertThat(l).isBetween(BigDecimal.valueOf(90), BigDecimal.valueOf(2250));
                    if (i > 0) assertThat(l).as("update %d after %s; pushes: %s", i, locked.get(i - 1), seen).isGreaterThan(locked.get(i - 1));
                }
                System.out.printf("%s: %d account updates for 25 committed orders (the rest coalesced)%n", kind, locked.size());
            }
            JsonNode assets = c.get("/api/v3/account/assets").data();
            for (JsonNode a : assets.path("assets")) {
                if (a.path("coin").asText().equals("USDT")) assertThat(new BigDecimal(a.path("available").asText())).isEqualByComparingTo("7670");
            }
            admin.assertConserved();
        }
    }

    private static String order(String type, String qty, String extra) {
        return "{\"category\":\"SPOT\",\"symbol\":\"RBUSDT\",\"side\":\"buy\",\"orderType\":\"" + type + "\",\"qty\":\"" + qty + "\"" + extra + "}";
    }

    private static BigDecimal coin(JsonNode accountPush, String field) {
        for (JsonNode c : accountPush.path("data").path(0).path("coin")) {
            if (c.path("coin").asText().equals("USDT")) return new BigDecimal(c.path(field).asText());
        }
        return BigDecimal.ZERO;
    }
}
