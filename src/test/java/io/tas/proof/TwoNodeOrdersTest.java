package io.tas.proof;

import io.tas.api.Admin;
import io.tas.api.TwoNodesTest;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Proof;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * Issue 25 on two nodes over one PostgreSQL database: clients of six accounts (three only buy, three only sell) send
 * limit orders around one price on one symbol, and cancel some of them, half through node a and half through node b,
 * all at once, so the only thing that orders the matching is the book lock in the database (D154). The ticker's own
 * levels are far from every order (ask 150, bid 50; its last price 100.005 makes the price step 0.001), so every fill
 * is one account's order against another's. Then {@link OrderAudit} reads the tables: every acknowledged order is
 * there, no order filled twice or beyond its qty, each order's fills sum to its cumExecQty, each trade is one maker
 * fill and one taker fill that agree, the book is not crossed, each account's balances equal what its fills give by
 * the audit's own arithmetic with exactly its working orders' freezes frozen; and the ledger is conserved.
 */
class TwoNodeOrdersTest extends TwoNodesTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final int ACCOUNTS = 6, CLIENTS = 12;
    private static final int ACTIONS = Proof.longRun() ? 250 : 30;

    @Test
    void ordersFromBothNodesOnOneBookMatchOnceAndBalancesFollowTheFills() throws Exception {
        long seed = Long.getLong("proof.seed", System.nanoTime());
        Admin admin = new Admin(a);
        String base = "TNO" + NAMES.incrementAndGet() + "X", quote = "USDT", symbol = base + quote;
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"baseCoin\":\"" + base + "\",\"quoteCoin\":\"USDT\"}"));
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"lastPrice\":\"100.005\",\"ask1Price\":\"150\",\"bid1Price\":\"50\"}"));
        // Node b learns of the new instrument and its ticker (whose last price gives the price step, 0.001) through the change feed.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ApiClient.raw(b.baseUrl() + "/api/v3/market/orderbook?category=SPOT&symbol=" + symbol, "GET", "").data()
                .path("a").path(0).path(0).asText().equals("150")) {
            assertThat(System.nanoTime()).as("node b knows " + symbol).isLessThan(deadline);
            Thread.sleep(50);
        }
        Map<Long, Map<String, BigDecimal>> initial = new ConcurrentHashMap<>();
        List<io.tas.support.Credentials> keys = new ArrayList<>();
        List<Long> uids = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) {
            boolean buyer = i % 2 == 0;
            String coin = buyer ? quote : base, amount = buyer ? "1000000" : "10000";
            keys.add(admin.fundedAccount("two-node-orders-" + seed + "-" + i, coin, amount));
            uids.add(admin.lastUid);
            initial.put(admin.lastUid, Map.of(coin, new BigDecimal(amount)));
        }

        Map<Long, Long> acknowledged = new ConcurrentHashMap<>();
        List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger places = new AtomicInteger(), cancels = new AtomicInteger(), cancelled = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int n = 0; n < CLIENTS; n++) {
                int account = n % ACCOUNTS;
                TestServer node = n % 2 == 0 ? a : b;
                ApiClient c = node.client(keys.get(account));
                long uid = uids.get(account);
                boolean buyer = account % 2 == 0;
                Random random = new Random(seed * 31 + n);
                done.add(pool.submit(() -> {
                    start.await();
                    List<String> mine = new ArrayList<>();
                    for (int i = 0; i < ACTIONS; i++) {
                        if (!mine.isEmpty() && random.nextInt(5) == 0) {
                            String id = mine.remove(random.nextInt(mine.size()));
                            Reply r = c.post("/api/v3/trade/cancel-order", "{\"orderId\":\"" + id + "\"}");
                            cancels.incrementAndGet();
                            if (r.code().equals("00000")) cancelled.incrementAndGet();
                            else if (!r.code().equals("25204")) unexpected.add("cancel " + id + " on " + node.baseUrl() + ": " + r.raw());
                            continue;
                        }
                        // Limit orders from 99.90 to 100.10, 0.1 to 2.0 at a time; one in seven immediate-or-cancel.
                        String price = new BigDecimal(9990 + random.nextInt(21)).movePointLeft(2).toPlainString();
                        String qty = new BigDecimal(1 + random.nextInt(20)).movePointLeft(1).toPlainString();
                        String tif = random.nextInt(7) == 0 ? "ioc" : "gtc";
                        Reply r = c.post("/api/v3/trade/place-order", "{\"category\":\"SPOT\",\"symbol\":\"" + symbol + "\",\"side\":\""
                                + (buyer ? "buy" : "sell") + "\",\"orderType\":\"limit\",\"qty\":\"" + qty + "\",\"price\":\"" + price
                                + "\",\"timeInForce\":\"" + tif + "\"}");
                        places.incrementAndGet();
                        if (r.code().equals("00000")) {
                            String id = r.data().get("orderId").asText();
                            acknowledged.put(Long.parseLong(id), uid);
                            if (tif.equals("gtc")) mine.add(id);
                        } else {
                            unexpected.add("place on " + node.baseUrl() + ": " + r.raw());
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) f.get(300, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        OrderAudit.Result audit;
        try (Connection c = DriverManager.getConnection(a.db.url(), a.db.user(), "")) {
            audit = OrderAudit.audit(c, symbol, base, quote, initial, acknowledged, true);
        }
        assertThat(audit.violations()).as(audit.summary() + " (seed " + seed + ")").isEmpty();
        assertThat(audit.pairs()).as("trades between the accounts").isPositive();
        // Every placement succeeds (the accounts afford every order) and a cancel finds its order or answers 25204 (it filled).
        assertThat(unexpected).as("replies other than success").isEmpty();
        admin.assertConserved();
        new Admin(b).assertConserved();
        Proof.print("orders POSTGRES 2 nodes: " + CLIENTS + " clients of " + ACCOUNTS + " accounts, " + places + " placements and " + cancels
                + " cancels (" + cancelled + " ok) on one symbol through both nodes: " + audit.summary() + "; every acknowledged order present, "
                + "fills sum to cumExecQty, no fill beyond qty, every trade one maker + one taker fill that agree, book not crossed, "
                + "balances = the fills recomputed independently, frozen = working orders' needs, conserved (seed " + seed + ")");
    }
}
