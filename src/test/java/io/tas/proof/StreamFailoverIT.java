package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.api.Admin;
import io.tas.support.ApiClient;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.StreamClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.tas.support.ServerProcess.freePort;
import static io.tas.support.ServerProcess.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 reliability: two built nodes (target/tas.jar) on one PostgreSQL. A client subscribed to its account and
 * orders on node B sees the orders it places through node A pushed by B (the change feed); node B is killed with
 * SIGKILL; the client reconnects to node A, logs in and subscribes again. Every push B sent before it died names an
 * order REST knows (nothing pushed that did not commit), the account snapshot after the new login equals the REST state
 * (every order acknowledged before and after the kill counted: 90 USDT frozen each), and orders placed after the
 * reconnect are pushed by A.
 */
class StreamFailoverIT {
    private static final String ORDER = "{\"category\":\"SPOT\",\"symbol\":\"%s\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"90\"}";

    @Test
    void aClientOfAKilledNodeReconnectsToTheOtherAndItsSnapshotEqualsRest(@TempDir Path dir) throws Exception {
        try (Databases.TestDb db = Databases.create(Databases.Kind.POSTGRES)) {
            int portA = freePort(), adminA = freePort(), portB = freePort(), adminB = freePort();
            Process a = start(db.url(), portA, adminA, dir.resolve("a.log").toFile());
            Process b = start(db.url(), portB, adminB, dir.resolve("b.log").toFile());
            try {
                String baseA = "http://127.0.0.1:" + portA, baseB = "http://127.0.0.1:" + portB;
                Admin admin = new Admin("http://127.0.0.1:" + adminA);
                String symbol = "FOXUSDT";
                assertThat(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol
                        + "\",\"baseCoin\":\"FOX\",\"quoteCoin\":\"USDT\"}").code()).isEqualTo("00000");
                assertThat(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"100\","
                        + "\"ask1Price\":\"100.01\",\"bid1Price\":\"99.99\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}").code()).isEqualTo("00000");
                Credentials creds = admin.fundedAccount("failover", "USDT", "10000");
                ApiClient rest = new ApiClient(baseA, creds, Clock.systemUTC());
                Set<String> acknowledged = new HashSet<>();
                Set<String> pushedByB = new HashSet<>();

                try (StreamClient onB = subscribed(baseB, creds)) {
                    // B said it started (D187's change feed, "h"): A announces its commits to B from its first order on.
                    for (int i = 0; i < 10; i++) acknowledged.add(place(rest, symbol));
                    // B pushes what A committed; wait for every one, then kill B while A keeps taking orders.
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (!pushedByB.containsAll(acknowledged) && System.nanoTime() < end) {
                        String t = onB.nextText(200);
                        if (t != null) collectOrders(t, pushedByB);
                    }
                    assertThat(pushedByB).as("node B pushed the orders committed on node A").containsAll(acknowledged);
                    for (int i = 0; i < 5; i++) acknowledged.add(place(rest, symbol));
                    b.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL
                    for (int i = 0; i < 5; i++) acknowledged.add(place(rest, symbol));
                    for (String t; (t = onB.nextText(100)) != null; ) collectOrders(t, pushedByB);
                    assertThat(onB.closed.get(30, TimeUnit.SECONDS)).as("the client saw its node go").isNotNull();
                }
                // Nothing pushed that did not commit: every order B pushed is one REST knows.
                Set<String> known = new HashSet<>();
                for (JsonNode o : rest.get("/api/v3/trade/unfilled-orders?category=SPOT&limit=100").data().path("list")) {
                    known.add(o.path("orderId").asText());
                }
                assertThat(known).containsExactlyInAnyOrderElementsOf(acknowledged);
                assertThat(known).containsAll(pushedByB);

                try (StreamClient onA = subscribed(baseA, creds)) {
                    // The snapshot after the new login equals REST: 20 resting buys of 1 at 90.
                    JsonNode snapshot = onA.next(n -> "account".equals(n.path("arg").path("topic").asText()) && "snapshot".equals(n.path("action").asText()));
                    BigDecimal frozen = BigDecimal.valueOf(90L * acknowledged.size());
                    assertThat(coin(snapshot, "locked")).isEqualByComparingTo(frozen);
                    assertThat(coin(snapshot, "available")).isEqualByComparingTo(new BigDecimal("10000").subtract(frozen));
                    JsonNode usdt = null;
                    for (JsonNode x : rest.get("/api/v3/account/assets").data().path("assets")) if (x.path("coin").asText().equals("USDT")) usdt = x;
                    assertThat(new BigDecimal(usdt.path("available").asText())).isEqualByComparingTo(coin(snapshot, "available"));
                    assertThat(new BigDecimal(usdt.path("locked").asText())).isEqualByComparingTo(coin(snapshot, "locked"));
                    // And node A pushes what comes next.
                    String after = place(rest, symbol);
                    Set<String> pushedByA = new HashSet<>();
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (!pushedByA.contains(after) && System.nanoTime() < end) {
                        String t = onA.nextText(200);
                        if (t != null) collectOrders(t, pushedByA);
                    }
                    assertThat(pushedByA).contains(after);
                }
            } finally {
                a.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                b.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** A connection logged in and subscribed to account and order, its account snapshot left to take. */
    private static StreamClient subscribed(String base, Credentials creds) throws Exception {
        StreamClient ws = new StreamClient(base, "/v3/ws/private");
        ws.login(creds, System.currentTimeMillis(), null);
        ws.next(n -> "login".equals(n.path("event").asText()));
        ws.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"UTA\",\"topic\":\"account\"},{\"instType\":\"UTA\",\"topic\":\"order\"}]}");
        ws.next(n -> "subscribe".equals(n.path("event").asText()) && "order".equals(n.path("arg").path("topic").asText()));
        return ws;
    }

    private static String place(ApiClient rest, String symbol) {
        ApiClient.Reply r = rest.post("/api/v3/trade/place-order", ORDER.formatted(symbol));
        assertThat(r.code()).as(r.raw()).isEqualTo("00000");
        return r.data().path("orderId").asText();
    }

    private static void collectOrders(String frame, Set<String> into) throws Exception {
        if (frame.equals("pong")) return;
        JsonNode n = io.tas.http.Json.MAPPER.readTree(frame);
        if (!"order".equals(n.path("arg").path("topic").asText()) || !n.has("action")) return;
        for (JsonNode o : n.path("data")) into.add(o.path("orderId").asText());
    }

    private static BigDecimal coin(JsonNode accountPush, String field) {
        for (JsonNode c : accountPush.path("data").path(0).path("coin")) {
            if (c.path("coin").asText().equals("USDT")) return new BigDecimal(c.path(field).asText());
        }
        return BigDecimal.ZERO;
    }
}
