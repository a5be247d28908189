package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.api.Admin;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One crash run's writes on a running server: five clients, each on an account of its own, doing one kind of write
 * after another until the server dies under them (deposits with small-asset trades, set-leverage, set-margin, Reality
 * place and cancel, strategy-order batches), plus a switch requested before the load. Each client remembers what was
 * acknowledged (a 00000 reply) and the one request in flight when the connection broke, which may or may not have
 * committed. {@link #verify} checks, on the restarted server, that every acknowledged write is there with exactly its
 * effect, and that the in-flight one is there wholly or not at all.
 */
final class MixedLoad {
    static final int BATCH = 5;
    private static final String[] LEVERAGES = {"5", "20", "10", "25"};
    private static final String REALITY = "AAPLXUSDT";

    private final String tag;
    private final long firstStrategyId;
    /** The clients' failures other than the broken connection (a 5xx, an unexpected refusal). */
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    /** Successes so far, over all clients: the kill waits for the load to be under way. */
    final AtomicInteger successes = new AtomicInteger();

    private long tradeUid, positionsUid, realityUid, strategyUid, switchUid;
    private Credentials trade, positions, reality, strategy, switcher;

    // What the clients saw acknowledged; each client thread writes only its own fields, read after join().
    final List<String> deposits = new ArrayList<>();
    final List<String> conversions = new ArrayList<>();
    private String depositInFlight;
    private String leverageAcked = "10", leverageInFlight;
    int leverageAcks;
    int marginAdds;
    private boolean marginInFlight;
    final Map<String, String> placed = new LinkedHashMap<>(); // clientOid -> orderId
    final Set<String> cancelled = new HashSet<>();
    private String placeInFlight, cancelInFlight;
    int batches;
    private int batchesTried;
    private boolean switchTriggered;

    MixedLoad(String tag, long firstStrategyId) {
        this.tag = tag;
        this.firstStrategyId = firstStrategyId;
    }

    /** The accounts, two isolated positions (BTCUSDT 0.01 at 95000, ETHUSDT 0.1 at 3000, both 10x) and the switch request. */
    void setUp(Admin admin, String base) {
        trade = admin.fundedAccount(tag + "-trade");
        tradeUid = admin.lastUid;
        positions = admin.fundedAccount(tag + "-positions", "USDT", "100000");
        positionsUid = admin.lastUid;
        for (String p : new String[]{"\"symbol\":\"BTCUSDT\",\"size\":\"0.01\",\"price\":\"95000\"", "\"symbol\":\"ETHUSDT\",\"size\":\"0.1\",\"price\":\"3000\""}) {
            ok(admin.post("/admin/v1/positions", "{\"uid\":" + positionsUid + ",\"category\":\"USDT-FUTURES\"," + p
                    + ",\"holdSide\":\"long\",\"marginMode\":\"isolated\",\"leverage\":\"10\",\"fee\":\"0\"}"));
        }
        reality = admin.fundedAccount(tag + "-reality", "USDT", "100000");
        realityUid = admin.lastUid;
        ok(admin.post("/admin/v1/accounts/" + realityUid + "/reality-allow-list", "{\"allowed\":true}"));
        strategy = admin.fundedAccount(tag + "-strategy");
        strategyUid = admin.lastUid;
        switcher = admin.fundedAccount(tag + "-switch", "USDT", "250", "BTC", "0.5");
        switchUid = admin.lastUid;
        ok(client(base, switcher).post("/api/v3/account/switch", ""));
    }

    /** The client threads, each running until the server is gone. */
    List<Runnable> clients(String base, String admin) {
        Admin a = new Admin(admin);
        ApiClient t = client(base, trade), p = client(base, positions), r = client(base, reality), s = client(base, strategy);
        return List.of(
                untilKilled(i -> {
                    depositInFlight = tag + "-d" + i;
                    if (expect(deposit(a, depositInFlight))) deposits.add(depositInFlight);
                    depositInFlight = null;
                    Reply c = t.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"DOGE\"]}");
                    if (expect(c)) conversions.add(c.data().get("orderId").asText());
                }),
                untilKilled(i -> {
                    leverageInFlight = LEVERAGES[i % LEVERAGES.length];
                    if (expect(p.post("/api/v3/account/set-leverage", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"marginMode\":\"isolated\","
                            + "\"posSide\":\"long\",\"leverage\":\"" + leverageInFlight + "\"}"))) {
                        leverageAcked = leverageInFlight;
                        leverageAcks++;
                    }
                    leverageInFlight = null;
                }),
                untilKilled(i -> {
                    marginInFlight = true;
                    if (expect(p.post("/api/v3/account/set-margin", "{\"category\":\"USDT-FUTURES\",\"symbol\":\"ETHUSDT\",\"posSide\":\"long\","
                            + "\"operation\":\"add\",\"amount\":\"1\"}"))) marginAdds++;
                    marginInFlight = false;
                }),
                untilKilled(i -> {
                    // Limit buys of 1 at 2 rest far below the ask and freeze 2 USDT each; every second one is cancelled.
                    String oid = tag + "-o" + i;
                    placeInFlight = oid;
                    Reply placedReply = r.post("/api/v3/trade/place-reality-order", "{\"symbol\":\"" + REALITY
                            + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"1\",\"price\":\"2\",\"clientOid\":\"" + oid + "\"}");
                    if (!expect(placedReply)) return;
                    placed.put(oid, placedReply.data().get("orderId").asText());
                    placeInFlight = null;
                    if (i % 2 == 1) {
                        cancelInFlight = oid;
                        if (expect(r.post("/api/v3/trade/cancel-reality-order", "{\"symbol\":\"" + REALITY + "\",\"clientOid\":\"" + oid + "\"}"))) cancelled.add(oid);
                        cancelInFlight = null;
                    }
                }),
                untilKilled(i -> {
                    batchesTried = i + 1;
                    List<String> records = new ArrayList<>();
                    for (int k = 0; k < BATCH; k++) {
                        records.add("{\"orderId\":\"" + strategyId(i, k) + "\",\"type\":\"trigger\",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"qty\":\"0.01\","
                                + "\"posSide\":\"long\",\"status\":\"success\",\"triggerBy\":\"market\",\"triggerPrice\":\"94000\",\"triggerOrderType\":\"limit\","
                                + "\"triggerOrderPrice\":\"93990\"}");
                    }
                    if (expect(a.post("/admin/v1/records/strategy-orders", "{\"uid\":" + strategyUid + ",\"records\":[" + String.join(",", records) + "]}"))) batches++;
                }));
    }

    /** The switch's minute passes and the due jobs run, so that the job may be running when the kill comes. */
    Runnable switchJob(String admin) {
        Admin a = new Admin(admin);
        return () -> {
            try {
                switchTriggered = true;
                expect(a.post("/admin/v1/sandbox/clock/advance", "{\"ms\":60000}"));
                expect(a.post("/admin/v1/jobs/run-due", ""));
            } catch (UncheckedIOException killed) {
                // the server died first
            }
        };
    }

    /** Acknowledged writes counted for the PROOF line. */
    int acknowledged() {
        return deposits.size() + conversions.size() + leverageAcks + marginAdds + placed.size() + cancelled.size() + batches;
    }

    /** What a run found of its in-flight writes: present as a whole, absent as a whole (never partly). */
    record InFlight(int present, int absent) {}

    /** The checks on a restarted server; returns the in-flight writes' fate. The switch job must already have run. */
    InFlight verify(String base, Admin admin) {
        int present = 0, absent = 0;
        ApiClient t = client(base, trade);
        for (String orderId : conversions) {
            assertThat(t.get("/api/v3/convert/small-assets-history?orderId=" + orderId).data().get("list")).as("conversion " + orderId).hasSize(1);
        }

        Map<String, JsonNode> byOrder = new HashMap<>();
        for (JsonNode p : admin.get("/admin/v1/accounts/" + positionsUid + "/positions").data()) byOrder.put(p.get("symbol").asText(), p);
        BigDecimal lev = new BigDecimal(byOrder.get("BTCUSDT").get("leverage").asText());
        if (leverageInFlight != null && lev.compareTo(new BigDecimal(leverageInFlight)) == 0 && !leverageInFlight.equals(leverageAcked)) present++;
        else {
            assertThat(lev).as("the last acknowledged leverage").isEqualByComparingTo(leverageAcked);
            if (leverageInFlight != null) absent++;
        }
        BigDecimal btcMargin = new BigDecimal(byOrder.get("BTCUSDT").get("marginSize").asText());
        assertThat(btcMargin).as("BTCUSDT margin at leverage " + lev).isEqualByComparingTo(new BigDecimal("950").divide(lev, 18, RoundingMode.HALF_EVEN));
        BigDecimal added = new BigDecimal(byOrder.get("ETHUSDT").get("marginSize").asText()).subtract(new BigDecimal("30"));
        assertThat(added).as("ETHUSDT margin: 30 + the acknowledged adds of 1 (+1 if the one in flight committed)")
                .isIn(BigDecimal.valueOf(marginAdds), BigDecimal.valueOf(marginAdds + (marginInFlight ? 1 : 0)));
        if (marginInFlight) {
            if (added.intValueExact() > marginAdds) present++;
            else absent++;
        }
        BigDecimal ethMargin = added.add(new BigDecimal("30"));
        String[] usdt = admin.balances(positionsUid).get("unified/USDT").split("/");
        assertThat(new BigDecimal(usdt[1])).as("frozen = the two margins").isEqualByComparingTo(btcMargin.add(ethMargin));
        assertThat(new BigDecimal(usdt[0]).add(new BigDecimal(usdt[1]))).isEqualByComparingTo("100000");

        Map<String, JsonNode> orders = new HashMap<>();
        for (JsonNode o : admin.get("/admin/v1/accounts/" + realityUid + "/reality-orders").data()) orders.put(o.get("clientOid").asText(), o);
        int live = 0;
        for (JsonNode o : orders.values()) if (o.get("status").asText().equals("live")) live++;
        placed.forEach((oid, orderId) -> {
            assertThat(orders).as("order " + oid).containsKey(oid);
            assertThat(orders.get(oid).get("orderId").asText()).isEqualTo(orderId);
            if (cancelled.contains(oid)) assertThat(orders.get(oid).get("status").asText()).as("cancelled " + oid).isEqualTo("cancelled");
            else if (!oid.equals(cancelInFlight)) assertThat(orders.get(oid).get("status").asText()).as("live " + oid).isEqualTo("live");
        });
        if (cancelInFlight != null) {
            if (orders.get(cancelInFlight).get("status").asText().equals("cancelled")) present++;
            else absent++;
        }
        if (placeInFlight != null) {
            if (orders.containsKey(placeInFlight)) present++;
            else absent++;
        }
        assertThat(orders.keySet()).as("nothing but the acknowledged orders and the one in flight").allMatch(oid -> placed.containsKey(oid) || oid.equals(placeInFlight));
        assertThat(admin.balances(realityUid).get("unified/USDT")).as("2 USDT frozen per live order").isEqualTo((100000 - 2 * live) + "/" + 2 * live + "/0");

        Set<Long> stored = strategyOrders(client(base, strategy));
        for (int j = 0; j < batchesTried; j++) {
            int n = 0;
            for (int k = 0; k < BATCH; k++) if (stored.contains(strategyId(j, k))) n++;
            if (j < batches) assertThat(n).as("acknowledged batch " + j).isEqualTo(BATCH);
            else {
                assertThat(n).as("batch " + j + " in flight: all or nothing").isIn(0, BATCH);
                if (n == BATCH) present++;
                else absent++;
            }
        }
        assertThat(stored).as("only the batches sent").allMatch(id -> id >= strategyId(0, 0) && id < strategyId(batchesTried, 0));

        // The switch ran exactly once: its balances moved to spot once, and the status is success.
        assertThat(client(base, switcher).get("/api/v3/account/switch-status").data().get("status").asText()).isEqualTo("success");
        assertThat(admin.balances(switchUid)).isEqualTo(Map.of("spot/USDT", "250/0/0", "spot/BTC", "0.5/0/0"));

        // Deposits last: repeating one is a write when it was not there (then it is there now, once).
        for (String ref : deposits) {
            assertThat(deposit(admin, ref).data().get("repeated").asBoolean()).as("deposit " + ref + " was acknowledged").isTrue();
        }
        if (depositInFlight != null) {
            if (deposit(admin, depositInFlight).data().get("repeated").asBoolean()) present++;
            else absent++;
        }
        return new InFlight(present, absent);
    }

    /** The switch's state as the restarted server found it: process (its job had not committed) or success. */
    String switchStatus(String base) {
        return client(base, switcher).get("/api/v3/account/switch-status").data().get("status").asText();
    }

    boolean switchTriggered() { return switchTriggered; }

    private Reply deposit(Admin admin, String ref) {
        return admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + tradeUid + ",\"account\":\"unified\",\"coin\":\"DOGE\",\"amount\":\"1\",\"ref\":\"" + ref + "\"}");
    }

    private long strategyId(int batch, int k) { return firstStrategyId + (long) batch * BATCH + k; }

    /** Every strategy order of the account, through the §4.6 history pages. */
    private static Set<Long> strategyOrders(ApiClient c) {
        Set<Long> ids = new HashSet<>();
        String cursor = "";
        while (true) {
            Reply page = c.get("/api/v3/trade/history-strategy-orders?category=USDT-FUTURES&limit=100" + cursor);
            ok(page);
            JsonNode list = page.data().get("list");
            if (list.isEmpty()) return ids;
            list.forEach(o -> ids.add(o.get("orderId").asLong()));
            cursor = "&cursor=" + page.data().get("cursor").asText();
        }
    }

    private static ApiClient client(String base, Credentials c) { return new ApiClient(base, c, Clock.systemUTC()); }

    /** A success, or a failure recorded (a 5xx or a refusal has no place in this load). */
    private boolean expect(Reply r) {
        if (r.status() == 200 && r.code().equals("00000")) {
            successes.incrementAndGet();
            return true;
        }
        failures.add(r.status() + " " + r.raw());
        return false;
    }

    private interface Step {
        void run(int i);
    }

    /** Runs step 0, 1, 2, ... until the connection breaks (the kill) or a step fails. */
    private Runnable untilKilled(Step step) {
        return () -> {
            try {
                for (int i = 0; failures.isEmpty(); i++) step.run(i);
            } catch (UncheckedIOException killed) {
                // the server is gone: what was in flight is judged after the restart
            } catch (RuntimeException e) {
                failures.add(e.toString());
            }
        };
    }
}
