package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.api.Admin;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.TestServer;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The races of issue 12 item 3, each on an account of its own, over one node or several nodes on one database: client
 * n talks to node n mod nodes (its signed API and its admin API), so on two nodes half of every race comes in through
 * each. Every race asserts its outcome and returns the counts for its PROOF line.
 */
public final class Races {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String[] LEVERAGES = {"5", "10", "20", "25"};

    private Races() {}

    /** Debits: exactly k small-asset trades and exactly k debits of 5 USDT succeeded. */
    public record Debits(int clients, int k, int tradesOk, int debitsOk) {
        public String proof(String where) {
            return "races " + where + ": debit race " + clients + " clients, K=" + k + ": " + tradesOk + " trades + " + debitsOk
                    + " debits succeeded (exactly K each), no negative balance, conserved";
        }
    }

    /**
     * clients threads race small-asset trades and debit adjustments on one account holding just enough for k of each
     * (k dust coins of 2, and 5 x k USDT): exactly k of each succeed, nothing goes negative, the ledger stays conserved.
     */
    public static Debits debits(List<TestServer> nodes, int clients, int k) throws Exception {
        Admin admin = new Admin(nodes.getFirst());
        List<String> funds = new ArrayList<>(List.of("USDT", Integer.toString(5 * k)));
        for (int i = 0; i < k; i++) {
            ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"DUST" + i + "USDT\",\"lastPrice\":\"1\"}"));
            funds.addAll(List.of("DUST" + i, "2"));
        }
        Credentials creds = admin.fundedAccount(name("debits"), funds.toArray(String[]::new));
        long uid = admin.lastUid;
        List<Future<Reply>> trades = new ArrayList<>(), debits = new ArrayList<>();
        race(clients, (n, pool, start) -> {
            TestServer node = nodes.get(n % nodes.size());
            if (n % 2 == 0) {
                ApiClient c = node.client(creds);
                trades.add(pool.submit(awaiting(start, () -> c.post("/api/v3/convert/small-assets-trade",
                        "{\"fromCoinList\":[\"DUST" + ((n / 2) % k) + "\"]}"))));
            } else {
                Admin a = new Admin(node);
                debits.add(pool.submit(awaiting(start, () -> a.post("/admin/v1/ledger/adjust", "{\"uid\":" + uid
                        + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"-5\",\"ref\":\"race-" + uid + "-" + n + "\"}"))));
            }
        });
        int tradesOk = succeeded(trades, "40017", "25202"), debitsOk = succeeded(debits, "40017", "25202");
        assertThat(tradesOk).as("trades").isEqualTo(k);
        assertThat(debitsOk).as("debits").isEqualTo(k);
        // Every dust coin was converted and the USDT debited to zero: none of them is listed any more.
        admin.get("/admin/v1/accounts/" + uid + "/balances").data().forEach(b -> {
            assertThat(b.get("available").asText()).doesNotStartWith("-");
            assertThat(b.get("coin").asText()).doesNotStartWith("DUST");
            assertThat(b.get("account").asText() + "/" + b.get("coin").asText()).isNotEqualTo("unified/USDT");
        });
        admin.assertConserved();
        return new Debits(clients, k, tradesOk, debitsOk);
    }

    /** Set-margin against set-leverage: every call's outcome and the position they left. */
    public record MarginLeverage(int clients, int leverageOk, int addsOk, int removesOk, int removesRefused, BigDecimal leverage, BigDecimal margin) {
        public String proof(String where) {
            return "races " + where + ": set-margin vs set-leverage " + clients + " clients on one position: " + leverageOk + " set-leverage, "
                    + addsOk + " adds, " + removesOk + " removes ok (" + removesRefused + " refused by the bound); final leverage "
                    + leverage.stripTrailingZeros().toPlainString() + ", margin " + margin.stripTrailingZeros().toPlainString()
                    + " = 950/leverage + net added = frozen, conserved";
        }
    }

    /**
     * Issue 8: set-margin racing set-leverage on one isolated position (0.01 BTC long at 95000, 10x: notional 950,
     * margin 95). Whatever order they commit in, the ledger stays conserved and the position consistent: its leverage
     * is the configured one, the frozen balance is its margin, and that margin is the initial margin at the final
     * leverage plus exactly what the accepted set-margin calls added and removed (set-leverage keeps added margin,
     * docs/formulas.md).
     */
    public static MarginLeverage marginAgainstLeverage(List<TestServer> nodes, int clients) throws Exception {
        Admin admin = new Admin(nodes.getFirst());
        Credentials creds = admin.fundedAccount(name("margin"), "USDT", "800");
        long uid = admin.lastUid;
        ok(admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\","
                + "\"holdSide\":\"long\",\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.01\",\"price\":\"95000\",\"fee\":\"0\"}"));
        List<Future<Reply>> leverage = new ArrayList<>(), adds = new ArrayList<>(), removes = new ArrayList<>();
        race(clients, (n, pool, start) -> {
            ApiClient c = nodes.get(n % nodes.size()).client(creds);
            String body = switch (n % 3) {
                case 0 -> "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"marginMode\":\"isolated\",\"posSide\":\"long\",\"leverage\":\""
                        + LEVERAGES[n % LEVERAGES.length] + "\"}";
                case 1 -> "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\",\"operation\":\"add\",\"amount\":\"3\"}";
                default -> "{\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"posSide\":\"long\",\"operation\":\"remove\",\"amount\":\"2\"}";
            };
            String path = n % 3 == 0 ? "/api/v3/account/set-leverage" : "/api/v3/account/set-margin";
            (n % 3 == 0 ? leverage : n % 3 == 1 ? adds : removes).add(pool.submit(awaiting(start, () -> c.post(path, body))));
        });
        int leverageOk = succeeded(leverage), addsOk = succeeded(adds);
        // A removal is refused only by its bound (40017), never half-done.
        int removesOk = succeeded(removes, "40017");
        assertThat(leverageOk).isEqualTo(leverage.size());
        assertThat(addsOk).isEqualTo(adds.size());
        BigDecimal net = BigDecimal.valueOf(3L * addsOk - 2L * removesOk);

        JsonNode p = admin.get("/admin/v1/accounts/" + uid + "/positions").data().get(0);
        BigDecimal lev = new BigDecimal(p.get("leverage").asText());
        BigDecimal margin = new BigDecimal(p.get("marginSize").asText());
        assertThat(margin).isEqualByComparingTo(new BigDecimal("950").divide(lev, 18, RoundingMode.HALF_EVEN).add(net));
        String configured = "";
        for (JsonNode c : nodes.getFirst().client(creds).get("/api/v3/account/settings").data().get("symbolConfigList")) {
            if (c.get("symbol").asText().equals("BTCUSDT")) configured = c.get("longLeverage").asText();
        }
        assertThat(new BigDecimal(configured)).isEqualByComparingTo(lev);
        String[] usdt = admin.balances(uid).get("unified/USDT").split("/");
        assertThat(new BigDecimal(usdt[1])).as("frozen = margin").isEqualByComparingTo(margin);
        assertThat(new BigDecimal(usdt[0]).add(margin)).isEqualByComparingTo("800");
        admin.assertConserved();
        return new MarginLeverage(clients, leverageOk, addsOk, removesOk, removes.size() - removesOk, lev, margin);
    }

    /** The clientOid replay race: how many sends, and how many orders and order IDs they made. */
    public record Replay(int clients, int sends, int orderIds, int orders) {
        public String proof(String where) {
            return "races " + where + ": clientOid replay " + clients + " clients x " + sends / clients + " sends = " + sends
                    + " placements of one clientOid: all answered 00000 with " + orderIds + " orderId, " + orders + " order, one freeze, conserved";
        }
    }

    /** clients threads send one Reality order with one clientOid sendsEach times: one order, one orderId, one freeze. */
    public static Replay clientOidReplay(List<TestServer> nodes, int clients, int sendsEach) throws Exception {
        Admin admin = new Admin(nodes.getFirst());
        String coin = "RACE" + NAMES.incrementAndGet() + "X";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + coin + "USDT\",\"baseCoin\":\"" + coin
                + "\",\"quoteCoin\":\"USDT\",\"reality\":true}"));
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + coin + "USDT\",\"lastPrice\":\"50\",\"ask1Price\":\"50.5\",\"bid1Price\":\"50\"}"));
        Credentials creds = admin.fundedAccount(name("replay"), "USDT", "1000");
        long uid = admin.lastUid;
        ok(admin.post("/admin/v1/accounts/" + uid + "/reality-allow-list", "{\"allowed\":true}"));
        // A limit buy of 3 at 40, below the ask: it rests and freezes 120 USDT.
        String body = "{\"symbol\":\"" + coin + "USDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"3\",\"price\":\"40\",\"clientOid\":\"race-1\"}";
        Set<String> ids = ConcurrentHashMap.newKeySet(), codes = ConcurrentHashMap.newKeySet();
        List<Future<Reply>> done = new ArrayList<>();
        race(clients, (n, pool, start) -> {
            ApiClient c = nodes.get(n % nodes.size()).client(creds);
            done.add(pool.submit(awaiting(start, () -> {
                Reply last = null;
                for (int i = 0; i < sendsEach; i++) {
                    last = c.post("/api/v3/trade/place-reality-order", body);
                    codes.add(last.code());
                    if (last.code().equals("00000")) ids.add(last.data().get("orderId").asText());
                }
                return last;
            })));
        });
        for (Future<Reply> f : done) f.get(60, TimeUnit.SECONDS);
        assertThat(codes).containsExactly("00000");
        assertThat(ids).hasSize(1);
        JsonNode orders = admin.get("/admin/v1/accounts/" + uid + "/reality-orders").data();
        assertThat(orders).hasSize(1);
        assertThat(orders.get(0).get("orderId").asText()).isEqualTo(ids.iterator().next());
        assertThat(admin.balances(uid)).containsEntry("unified/USDT", "880/120/0");
        admin.assertConserved();
        return new Replay(clients, clients * sendsEach, ids.size(), orders.size());
    }

    private interface Client {
        void submit(int n, ExecutorService pool, CountDownLatch start) throws Exception;
    }

    /** Submits one task per client, each waiting for one start signal, gives the signal and waits for them all. */
    private static void race(int clients, Client client) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch start = new CountDownLatch(1);
        try {
            for (int n = 0; n < clients; n++) client.submit(n, pool, start);
            start.countDown();
        } finally {
            pool.shutdown();
        }
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }

    private static Callable<Reply> awaiting(CountDownLatch start, Callable<Reply> call) {
        return () -> {
            start.await();
            return call.call();
        };
    }

    /** How many succeeded; every other one was refused with one of the given codes (a 4xx, never a 5xx). */
    private static int succeeded(List<Future<Reply>> replies, String... refusals) throws Exception {
        int ok = 0;
        for (Future<Reply> f : replies) {
            Reply r = f.get(60, TimeUnit.SECONDS);
            if (r.code().equals("00000")) {
                assertThat(r.status()).as(r.raw()).isEqualTo(200);
                ok++;
            } else {
                assertThat(r.status()).as(r.raw()).isEqualTo(400);
                assertThat(r.code()).as(r.raw()).isIn((Object[]) refusals);
            }
        }
        return ok;
    }

    private static String name(String race) { return "race-" + race + "-" + NAMES.incrementAndGet() + "-" + System.nanoTime(); }
}
