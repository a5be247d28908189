package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10 item 4, the v3 record rows ccxt reads for unified accounts (beyond-spec shapes §9-11) on H2 and PostgreSQL:
 * GET /api/v3/trade/fills, /api/v3/account/withdrawal-records and /api/v3/account/deposit-records. Paging walks against
 * the ingested sets, windows, defaults and maxima, shapes, isolation, the family guard, ingestion refusals, and the
 * admin ledger deposit's record. Writes go to fresh unified accounts; the demo main account 1000000001 is only read.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class UnifiedRecordsApiTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final long DAY = 86_400_000L;
    private static final String FILLS = "/api/v3/trade/fills";
    private static final String WITHDRAWALS = "/api/v3/account/withdrawal-records";
    private static final String DEPOSITS = "/api/v3/account/deposit-records";
    private static final String CATEGORIES = "SPOT,MARGIN,USDT-FUTURES,COIN-FUTURES,USDC-FUTURES";

    private long now() { return server.clock.millis(); }

    /** A fresh unified main account with a read-and-write key (uta_mgt, uta_trade) and no money (so no deposit records). */
    private ApiClient unified() {
        return server.client(admin.fundedAccount("uta-rec-" + kind + "-" + NAMES.incrementAndGet()));
    }

    /** Fill i: orderId 7000 + i, category by i over the five, size i + 1 at 100.5, fee 0.01 USDT paid (v2 sign). */
    private static String fill(int i, long cTime) {
        String category = CATEGORIES.split(",")[i % 5];
        return "{\"orderId\":\"" + (7000 + i) + "\",\"category\":\"" + category + "\",\"symbol\":\"BTCUSDT\",\"orderType\":\"limit\",\"side\":\""
                + (i % 2 == 0 ? "buy" : "sell") + "\",\"priceAvg\":\"100.5\",\"size\":\"" + (i + 1) + "\",\"tradeScope\":\"maker\","
                + "\"feeDetail\":{\"feeCoin\":\"USDT\",\"totalFee\":\"-0.01\"},\"execPnl\":\"" + (i % 5 >= 2 ? "-0.5" : "0") + "\",\"cTime\":" + cTime + "}";
    }

    private static String withdrawal(int i, long cTime) {
        return "{\"coin\":\"" + (i % 3 == 0 ? "BTC" : "USDT") + "\",\"clientOid\":\"uw-" + i + "\",\"dest\":\"on_chain\",\"size\":\"" + (10 + i)
                + "\",\"fee\":\"1\",\"status\":\"success\",\"fromAddress\":\"TFrom\",\"toAddress\":\"TTo" + i + "\",\"chain\":\"TRC20\",\"confirm\":\"12\","
                + "\"tradeId\":\"0xw" + i + "\",\"cTime\":" + cTime + ",\"uTime\":" + (cTime + 1000) + "}";
    }

    private static String deposit(int i, long cTime) {
        return "{\"coin\":\"" + (i % 3 == 0 ? "BTC" : "USDT") + "\",\"size\":\"" + (20 + i) + "\",\"status\":\"" + (i % 4 == 1 ? "pending" : "success")
                + "\",\"dest\":\"on_chain\",\"recordId\":\"0xd" + i + "\",\"fromAddress\":\"DFrom" + i + "\",\"toAddress\":\"DTo\",\"chain\":\"TRC20\","
                + "\"createdTime\":" + cTime + ",\"updatedTime\":" + (cTime + 1000) + "}";
    }

    private static String batch(long uid, int n, IntFunction<String> record) { return Admin.batch(uid, n, record); }

    private Reply ingest(String row, String body) { return admin.ingest(row, body); }

    private static String with(String path, String param) { return path + (path.contains("?") ? "&" : "?") + param; }

    /**
     * Walks v3 fills with the reply's cursor until it is "" (the end marker); asserts each page's size, the cursor (the
     * page's last execId while more follow), and execIds strictly descending across pages. Returns every row.
     */
    private List<JsonNode> walkFills(ApiClient c, String path, int limit, int... pageSizes) {
        List<JsonNode> all = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < pageSizes.length; page++) {
            if (page % 15 == 14) ServerPool.nextSecond(kind); // 20/s/UID
            String target = limit > 0 ? with(path, "limit=" + limit) : path;
            Reply r = c.get(cursor == null ? target : with(target, "cursor=" + cursor));
            ok(r);
            assertThat(r.data().isObject()).isTrue();
            JsonNode list = r.data().get("list");
            assertThat(list.size()).as("page %d of %s", page, path).isEqualTo(pageSizes[page]);
            list.forEach(all::add);
            cursor = r.data().get("cursor").asText();
            boolean last = page == pageSizes.length - 1;
            assertThat(cursor).as("cursor of page %d", page).isEqualTo(last ? "" : list.get(list.size() - 1).get("execId").asText());
        }
        for (int i = 1; i < all.size(); i++) {
            assertThat(Long.parseLong(all.get(i).get("execId").asText())).isLessThan(Long.parseLong(all.get(i - 1).get("execId").asText()));
        }
        return all;
    }

    /**
     * Walks deposit or withdrawal records with cursor = the smallest orderId of the previous page (the platform's
     * rule) until an empty page; asserts sizes and strictly descending orderIds.
     */
    private List<JsonNode> walkRecords(ApiClient c, String path, int limit, int... pageSizes) {
        List<JsonNode> all = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < pageSizes.length; page++) {
            if (page % 8 == 7) ServerPool.nextSecond(kind); // 10/s/UID
            String target = limit > 0 ? with(path, "limit=" + limit) : path;
            Reply r = c.get(cursor == null ? target : with(target, "cursor=" + cursor));
            ok(r);
            assertThat(r.data().isArray()).isTrue();
            assertThat(r.data().size()).as("page %d of %s", page, path).isEqualTo(pageSizes[page]);
            r.data().forEach(all::add);
            if (pageSizes[page] > 0) cursor = r.data().get(pageSizes[page] - 1).get("orderId").asText();
        }
        for (int i = 1; i < all.size(); i++) {
            assertThat(Long.parseLong(all.get(i).get("orderId").asText())).isLessThan(Long.parseLong(all.get(i - 1).get("orderId").asText()));
        }
        return all;
    }

    private static int[] pages(int total, int limit, boolean emptyEnd) {
        List<Integer> out = new ArrayList<>();
        for (int left = total; left > 0; left -= limit) out.add(Math.min(limit, left));
        if (emptyEnd) out.add(0);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }


    // --- fills

    @Test
    void fillsPageNewestFirstWithACursorUntilItIsEmpty() {
        ApiClient c = unified();
        long uid = admin.lastUid;
        long t0 = now() - 10 * DAY;
        ok(ingest("fills", batch(uid, 137, i -> fill(i, t0 + i * 60_000L))));
        ok(ingest("fills", batch(uid, 100, i -> fill(137 + i, t0 - DAY + i * 60_000L))));
        List<JsonNode> all = walkFills(c, FILLS, 0, 100, 100, 37); // default limit 100
        Set<String> orders = new TreeSet<>();
        all.forEach(f -> orders.add(f.get("orderId").asText()));
        Set<String> expected = new TreeSet<>();
        for (int i = 0; i < 237; i++) expected.add(Integer.toString(7000 + i));
        assertThat(orders).isEqualTo(expected);
        assertThat(all.get(0).get("orderId").asText()).isEqualTo("7236"); // the later batch's newest first
        ServerPool.nextSecond(kind);
        assertThat(walkFills(c, FILLS, 100, 100, 100, 37)).hasSize(237);
        ServerPool.nextSecond(kind);
        assertThat(walkFills(c, FILLS, 60, pages(237, 60, false))).hasSize(237);
        ServerPool.nextSecond(kind);
        // A page that ends exactly at the last fill carries the end marker: no empty page is needed.
        assertThat(walkFills(c, FILLS + "?category=SPOT", 0, 48)).hasSize(48); // i % 5 == 0: 48 of 237
        assertThat(walkFills(c, FILLS + "?category=SPOT", 24, 24, 24)).hasSize(48);
        // Every category alone, lower case accepted (bitget-api allows it); together they are the whole set.
        int sum = 0;
        for (String category : CATEGORIES.split(",")) {
            Reply r = c.get(FILLS + "?limit=100&category=" + category.toLowerCase());
            ok(r);
            r.data().get("list").forEach(f -> assertThat(f.get("category").asText()).isEqualTo(category));
            sum += r.data().get("list").size();
        }
        assertThat(sum).isEqualTo(237);
        ServerPool.nextSecond(kind);
        Reply one = c.get(FILLS + "?orderId=7042");
        ok(one);
        assertThat(one.data().get("list")).hasSize(1);
        JsonNode f = one.data().get("list").get(0);
        assertThat(f.get("execQty").asText()).isEqualTo("43");
        assertThat(f.get("execValue").asText()).isEqualTo("4321.5");
        assertThat(f.get("category").asText()).isEqualTo("USDT-FUTURES");
        assertThat(f.get("execPnl").asText()).isEqualTo("-0.5");
        // The stored fee -0.01 (paid, v2 sign) is the v3 docs' positive charge (beyond-spec shapes §12).
        assertThat(f.get("feeDetail").isArray()).isTrue();
        assertThat(f.get("feeDetail").get(0).get("fee").asText()).isEqualTo("0.01");
        assertThat(f.get("feeDetail").get(0).get("feeCoin").asText()).isEqualTo("USDT");
        assertThat(one.data().get("cursor").asText()).isEmpty();
        assertThat(c.get(FILLS + "?orderId=1").data().get("list")).isEmpty();
    }

    @Test
    void fillWindowsLimitsAndCursorsAreEnforced() {
        ApiClient c = unified();
        long uid = admin.lastUid;
        long n = now();
        // One fill 89 days old, one 40 days, one a day, one now.
        ok(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + fill(0, n - 89 * DAY) + "," + fill(1, n - 40 * DAY) + ","
                + fill(2, n - DAY) + "," + fill(3, n) + "]}"));
        assertThat(c.get(FILLS).data().get("list")).hasSize(2); // default: the last 30 days
        assertThat(c.get(FILLS + "?startTime=" + (n - 50 * DAY)).data().get("list")).hasSize(1); // 30 days from startTime: the 40-day one
        assertThat(c.get(FILLS + "?endTime=" + (n - 35 * DAY)).data().get("list")).hasSize(1); // 30 days up to endTime
        assertThat(c.get(FILLS + "?endTime=" + (n - 80 * DAY)).data().get("list")).hasSize(1); // not before the 90 days: the 89-day one
        long start = n - 89 * DAY - 1000;
        assertThat(c.get(FILLS + "?startTime=" + start + "&endTime=" + (start + 30 * DAY)).data().get("list")).hasSize(1); // exactly 30 days
        ServerPool.nextSecond(kind);
        assertError(c.get(FILLS + "?startTime=" + (n - 91 * DAY) + "&endTime=" + (n - 70 * DAY)), "40017",
                "Parameter verification failed startTime is older than 90 days");
        assertError(c.get(FILLS + "?startTime=" + (n - 31 * DAY) + "&endTime=" + n), "40017",
                "Parameter verification failed time range between startTime and endTime exceeds 30 days");
        assertError(c.get(FILLS + "?startTime=" + n + "&endTime=" + (n - 1)), "40017", "Parameter verification failed startTime is after endTime");
        assertError(c.get(FILLS + "?limit=101"), "40020", "Parameter limit error");
        assertError(c.get(FILLS + "?limit=0"), "40020", "Parameter limit error");
        assertError(c.get(FILLS + "?category=OPTIONS"), "40020", "Parameter category error");
        assertError(c.get(FILLS + "?cursor=abc"), "40020", "Parameter cursor error");
        assertError(c.get(FILLS + "?orderId=-5"), "40020", "Parameter orderId error");
        assertError(c.get(FILLS + "?startTime=yesterday"), "40020", "Parameter startTime error");
        ServerPool.nextSecond(kind);
        // A cursor below every fill gives an empty page with the end marker.
        Reply r = c.get(FILLS + "?cursor=1");
        ok(r);
        assertThat(r.data().get("list")).isEmpty();
        assertThat(r.data().get("cursor").asText()).isEmpty();
    }

    // --- withdrawals and deposits

    @Test
    void withdrawalsAndDepositsPageBelowTheSmallestOrderId() {
        ApiClient c = unified();
        long uid = admin.lastUid;
        long t0 = now() - 20 * DAY;
        Reply stored = ingest("withdrawals", batch(uid, 45, i -> withdrawal(i, t0 + i * 3_600_000L)));
        ok(stored);
        assertThat(stored.data().get("stored").asInt()).isEqualTo(45);
        ok(ingest("deposits", batch(uid, 45, i -> deposit(i, t0 + i * 3_600_000L))));
        for (String row : List.of(WITHDRAWALS, DEPOSITS)) {
            ServerPool.nextSecond(kind);
            String window = row + "?startTime=" + (now() - 30 * DAY) + "&endTime=" + now();
            List<JsonNode> all = walkRecords(c, window, 0, 20, 20, 5, 0); // default limit 20
            Set<String> sizes = new TreeSet<>();
            all.forEach(w -> sizes.add(w.get("size").asText()));
            assertThat(sizes).hasSize(45);
            ServerPool.nextSecond(kind);
            assertThat(walkRecords(c, window, 100, 45, 0)).hasSize(45);
            ServerPool.nextSecond(kind);
            assertThat(walkRecords(c, window, 7, pages(45, 7, true))).hasSize(45);
            ServerPool.nextSecond(kind);
            // Filters: coin (the platform's examples are lower case), orderId; the window bounds createdTime.
            assertThat(c.get(window + "&coin=btc&limit=100").data()).hasSize(15);
            assertThat(c.get(window + "&coin=USDT&limit=100").data()).hasSize(30);
            String oid = all.get(3).get("orderId").asText();
            assertThat(c.get(window + "&orderId=" + oid).data()).hasSize(1);
            assertThat(c.get(row + "?startTime=" + t0 + "&endTime=" + (t0 + 9 * 3_600_000L) + "&limit=100").data()).hasSize(10);
            assertThat(c.get(row + "?startTime=1&endTime=" + (t0 - 1)).data()).isEmpty();
        }
        ServerPool.nextSecond(kind);
        String window = WITHDRAWALS + "?startTime=" + (now() - 30 * DAY) + "&endTime=" + now();
        JsonNode w7 = c.get(window + "&clientOid=uw-7").data();
        assertThat(w7).hasSize(1);
        assertThat(w7.get(0).get("recordId").asText()).isEqualTo("0xw7");
        // orderId wins over clientOid (beyond-spec shapes §11).
        String other = c.get(window + "&clientOid=uw-8").data().get(0).get("orderId").asText();
        assertThat(c.get(window + "&clientOid=uw-7&orderId=" + other).data().get(0).get("clientOid").asText()).isEqualTo("uw-8");
        JsonNode d = c.get(DEPOSITS + "?startTime=" + t0 + "&endTime=" + t0 + "&limit=1").data().get(0);
        assertThat(d.get("size").asText()).isEqualTo("20");
        assertThat(d.get("recordId").asText()).isEqualTo("0xd0");
        assertThat(d.get("createdTime").asText()).isEqualTo(Long.toString(t0));
        assertThat(d.get("updatedTime").asText()).isEqualTo(Long.toString(t0 + 1000));
    }

    @Test
    void recordWindowsAndLimitsAreEnforced() {
        ApiClient c = unified();
        long n = now();
        for (String row : List.of(WITHDRAWALS, DEPOSITS)) {
            ServerPool.nextSecond(kind);
            assertError(c.get(row), "40019", "Parameter startTime,endTime cannot be empty");
            assertError(c.get(row + "?startTime=1"), "40019", "Parameter endTime cannot be empty");
            assertError(c.get(row + "?startTime=5&endTime=4"), "40017", "Parameter verification failed startTime is after endTime");
            assertError(c.get(row + "?startTime=1&endTime=" + n + "&limit=101"), "40020", "Parameter limit error");
            assertError(c.get(row + "?startTime=1&endTime=" + n + "&limit=0"), "40020", "Parameter limit error");
            assertError(c.get(row + "?startTime=1&endTime=" + n + "&cursor=x"), "40020", "Parameter cursor error");
            assertError(c.get(row + "?startTime=1&endTime=" + n + "&orderId=x"), "40020", "Parameter orderId error");
            ok(c.get(row + "?startTime=1&endTime=" + n + "&limit=100")); // no maximum range (the platform gives none)
        }
    }

    // --- the admin ledger deposit leaves a record

    @Test
    void anAdminDepositToAUnifiedAccountIsADepositRecordOnce() {
        String name = "uta-dep-" + kind + "-" + NAMES.incrementAndGet();
        ApiClient c = server.client(admin.fundedAccount(name, "USDT", "1000", "BTC", "0.1"));
        long uid = admin.lastUid;
        String window = DEPOSITS + "?startTime=" + (now() - DAY) + "&endTime=" + (now() + DAY);
        JsonNode records = c.get(window).data();
        assertThat(records).hasSize(2);
        JsonNode btc = records.get(0); // the later deposit first
        assertThat(btc.get("coin").asText()).isEqualTo("BTC");
        assertThat(btc.get("size").asText()).isEqualTo("0.1");
        assertThat(btc.get("status").asText()).isEqualTo("success");
        assertThat(btc.get("dest").asText()).isEqualTo("on_chain");
        assertThat(btc.get("recordId").asText()).isEqualTo("fund-" + name + "-BTC"); // the admin's ref
        // A repeat of the same ref changes nothing and writes no second record; its txId is the record's orderId.
        Reply again = admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"BTC\",\"amount\":\"0.1\",\"ref\":\"fund-"
                + name + "-BTC\"}");
        ok(again);
        assertThat(again.data().get("repeated").asBoolean()).isTrue();
        assertThat(again.data().get("txId").asText()).isEqualTo(btc.get("orderId").asText());
        assertThat(c.get(window).data()).hasSize(2);
    }

    /** Concurrent first deposits with one ref: one ledger transaction, one record, every call answered 00000. */
    @Test
    void concurrentDepositsWithOneRefLeaveOneRecord() throws Exception {
        ApiClient c = unified();
        long uid = admin.lastUid;
        String body = "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"race-" + uid + "\"}";
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        var start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Reply>> replies = new ArrayList<>();
        for (int t = 0; t < 8; t++) replies.add(pool.submit(() -> { start.await(); return admin.post("/admin/v1/ledger/deposit", body); }));
        start.countDown();
        pool.shutdown();
        Set<String> txIds = new TreeSet<>();
        for (var f : replies) {
            Reply r = f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            ok(r);
            txIds.add(r.data().get("txId").asText());
        }
        assertThat(txIds).hasSize(1);
        JsonNode records = c.get(DEPOSITS + "?startTime=" + (now() - DAY) + "&endTime=" + (now() + DAY)).data();
        assertThat(records).hasSize(1);
        assertThat(records.get(0).get("orderId").asText()).isEqualTo(txIds.iterator().next());
        assertThat(admin.balances(uid).get("unified/USDT")).startsWith("5/");
    }

    // --- ingestion

    @Test
    void aBatchWithOneBadRecordStoresNothing() {
        ApiClient c = unified();
        long uid = admin.lastUid;
        long n = now();
        String good = deposit(0, n);
        String[][] bad = {
                {deposit(1, n).replace("\"status\":\"pending\"", "\"status\":\"done\""), "40020", "Parameter records[1].status error"},
                {deposit(1, n).replace("\"dest\":\"on_chain\"", "\"dest\":\"mail\""), "40020", "Parameter records[1].dest error"},
                {deposit(1, n).replace("{\"coin\"", "{\"type\":\"withdraw\",\"coin\""), "40020", "Parameter records[1].type error"},
                {deposit(1, n).replace("\"size\":\"21\"", "\"size\":\"-21\""), "40020", "Parameter records[1].size error"},
                {deposit(1, n).replace("\"coin\":\"USDT\",", ""), "40019", "Parameter records[1].coin cannot be empty"},
                {deposit(1, n).replace("\"updatedTime\":" + (n + 1000), "\"updatedTime\":" + (n - 1)), "40017",
                        "Parameter verification failed records[1].updatedTime " + (n - 1) + " is before createdTime " + n},
                {deposit(1, n).replace("\"createdTime\":" + n + ",", "\"ago\":\"PT1H\",\"createdTime\":" + n + ","), "40017",
                        "Parameter verification failed records[1].createdTime and records[1].ago are exclusive"},
        };
        for (String[] b : bad) assertError(ingest("deposits", "{\"uid\":" + uid + ",\"records\":[" + good + "," + b[0] + "]}"), b[1], b[2]);
        String window = DEPOSITS + "?startTime=1&endTime=" + (n + DAY);
        assertThat(c.get(window).data()).isEmpty();
        // Given IDs: twice in a batch, or already stored.
        String withId = deposit(2, n).replace("{\"coin\"", "{\"orderId\":\"77\",\"coin\"");
        assertError(ingest("deposits", "{\"uid\":" + uid + ",\"records\":[" + withId + "," + withId + "]}"), "40017",
                "Parameter verification failed records[1].orderId 77 appears twice in the batch");
        ok(ingest("deposits", "{\"uid\":" + uid + ",\"records\":[" + withId + "]}"));
        assertError(ingest("deposits", "{\"uid\":" + uid + ",\"records\":[" + good + "," + withId + "]}"), "40017",
                "Parameter verification failed records[1].orderId 77 already exists");
        assertThat(c.get(window).data()).hasSize(1);
        // The account: required, existing, unified (a classic account's deposits would never be readable).
        assertError(ingest("deposits", "{\"records\":[" + good + "]}"), "40019", "Parameter uid cannot be empty");
        assertError(ingest("deposits", "{\"uid\":1,\"records\":[" + good + "]}"), "40034", "Parameter uid does not exist");
        assertError(ingest("deposits", "{\"uid\":1000000005,\"records\":[" + good + "]}"), "40017",
                "Parameter verification failed uid 1000000005 is a CLASSIC account; deposit records are served to UNIFIED accounts only");
        assertError(ingest("deposits", "{\"uid\":" + uid + ",\"records\":[]}"), "40019", "Parameter records cannot be empty");
        assertError(ingest("deposits", batch(uid, 10_001, i -> "{}")), "40017", "Parameter verification failed at most 10000 records per call, got 10001");
        // Fills of a unified account: the category must be one of the five; the batch is refused whole.
        assertError(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + fill(0, n) + "," + fill(1, n).replace("\"SPOT\"", "\"X\"")
                .replace("\"MARGIN\"", "\"OPTIONS\"") + "]}"), "40020", "Parameter records[1].category error");
        assertError(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + fill(0, n) + "," + fill(1, n).replace("\"execPnl\":\"0\"", "\"execPnl\":\"x\"") + "]}"),
                "40020", null);
        ServerPool.nextSecond(kind);
        assertThat(c.get(FILLS).data().get("list")).isEmpty();
    }

    // --- shapes

    @Test
    void everyFieldHasThePlatformsNameAndType() {
        ApiClient c = server.client(Credentials.MAIN_RW);
        JsonNode page = c.get(FILLS + "?limit=1").data();
        assertThat(Replies.names(page)).containsExactly("list", "cursor");
        JsonNode f = page.get("list").get(0);
        assertThat(Replies.names(f)).containsExactly("execId", "orderId", "category", "symbol", "orderType", "side", "execPrice", "execQty",
                "execValue", "tradeScope", "feeDetail", "execPnl", "createdTime", "updatedTime");
        f.properties().forEach(e -> {
            if (e.getKey().equals("feeDetail")) {
                assertThat(e.getValue().isArray()).isTrue();
                assertThat(e.getValue()).hasSize(1);
                assertThat(Replies.names(e.getValue().get(0))).containsExactly("feeCoin", "fee");
                e.getValue().get(0).forEach(v -> assertThat(v.isTextual()).isTrue());
            } else {
                assertThat(e.getValue().isTextual()).as(e.getKey()).isTrue();
            }
        });
        assertThat(f.get("createdTime").asText()).matches("\\d{13}");
        String window = "?limit=1&startTime=" + (now() - 30 * DAY) + "&endTime=" + now();
        JsonNode w = c.get(WITHDRAWALS + window).data().get(0);
        assertThat(Replies.names(w)).containsExactly("orderId", "clientOid", "recordId", "coin", "type", "dest", "size", "fee", "confirm", "tag",
                "status", "fromAddress", "toAddress", "chain", "createdTime", "updatedTime");
        w.forEach(v -> assertThat(v.isTextual()).as(w.toString()).isTrue());
        assertThat(w.get("type").asText()).isEqualTo("withdraw");
        JsonNode d = c.get(DEPOSITS + window).data().get(0);
        assertThat(Replies.names(d)).containsExactly("orderId", "recordId", "coin", "type", "dest", "size", "status", "fromAddress", "toAddress",
                "chain", "createdTime", "updatedTime");
        d.forEach(v -> assertThat(v.isTextual()).as(d.toString()).isTrue());
        assertThat(d.get("type").asText()).isEqualTo("deposit");
    }

    /** The demo main account's records (UnifiedDemoData): 150 fills, 30 withdrawals, 30 deposits in the last 25 days. */
    @Test
    void demoMainAccountHasTwoPagesOfEach() {
        ApiClient c = server.client(Credentials.MAIN_RO); // read-only keys may read all three
        List<JsonNode> fills = walkFills(c, FILLS, 0, 100, 50);
        assertThat(fills).hasSize(150);
        assertThat(fills.stream().filter(f -> f.get("category").asText().equals("COIN-FUTURES")).count()).isEqualTo(50);
        assertThat(fills.stream().filter(f -> f.get("symbol").asText().equals("BTCUSDT")).count()).isEqualTo(50);
        assertThat(fills.stream().filter(f -> f.get("symbol").asText().equals("ETHUSDT")).count()).isEqualTo(50);
        // The newest fill is i = 149 (COIN-FUTURES BTCUSD, sell at 97009, 0.01; fee 0.06 % of the size in BTC, pnl 0.00002).
        JsonNode newest = fills.get(0);
        assertThat(newest.get("symbol").asText()).isEqualTo("BTCUSD");
        assertThat(newest.get("side").asText()).isEqualTo("sell");
        assertThat(newest.get("execPrice").asText()).isEqualTo("97009");
        assertThat(newest.get("execQty").asText()).isEqualTo("0.01");
        assertThat(newest.get("execValue").asText()).isEqualTo("970.09");
        assertThat(newest.get("feeDetail").get(0).get("fee").asText()).isEqualTo("0.000006");
        assertThat(newest.get("feeDetail").get(0).get("feeCoin").asText()).isEqualTo("BTC");
        assertThat(newest.get("execPnl").asText()).isEqualTo("0.00002");
        ServerPool.nextSecond(kind);
        String window = "?startTime=" + (now() - 30 * DAY) + "&endTime=" + now();
        List<JsonNode> withdrawals = walkRecords(c, WITHDRAWALS + window, 0, 20, 10, 0);
        assertThat(withdrawals.get(0).get("status").asText()).isEqualTo("pending");
        assertThat(withdrawals.get(0).get("clientOid").asText()).isEqualTo("uta-w-29");
        assertThat(withdrawals.get(0).get("coin").asText()).isEqualTo("BTC");
        assertThat(withdrawals.get(0).get("size").asText()).isEqualTo("0.0049");
        ServerPool.nextSecond(kind);
        List<JsonNode> deposits = walkRecords(c, DEPOSITS + window, 0, 20, 10, 0);
        assertThat(deposits.get(0).get("status").asText()).isEqualTo("pending");
        assertThat(deposits.get(0).get("coin").asText()).isEqualTo("USDT");
        assertThat(deposits.get(0).get("size").asText()).isEqualTo("390");
    }

    // --- isolation and family

    @Test
    void anotherAccountsRecordsNeverAppear() {
        ApiClient parent = unified();
        long parentUid = admin.lastUid;
        Reply sub = admin.post("/admin/v1/accounts?parentUid=" + parentUid, "{\"username\":\"uta-rec-sub-" + kind + "-" + NAMES.incrementAndGet() + "\"}");
        ok(sub);
        long subUid = sub.data().get("uid").asLong();
        ApiClient subClient = server.client(new Credentials(admin.createKey(subUid, "Sub1pass", "read-only", "[\"uta_mgt\",\"uta_trade\"]"),
                admin.lastSecret, "Sub1pass"));
        long n = now();
        ok(ingest("fills", batch(subUid, 5, i -> fill(i, n - i))));
        ok(ingest("withdrawals", batch(subUid, 5, i -> withdrawal(i, n - i))));
        ok(ingest("deposits", batch(subUid, 5, i -> deposit(i, n - i))));
        String window = "?startTime=" + (n - DAY) + "&endTime=" + (n + DAY);
        assertThat(subClient.get(FILLS).data().get("list")).hasSize(5);
        assertThat(subClient.get(WITHDRAWALS + window).data()).hasSize(5);
        assertThat(subClient.get(DEPOSITS + window).data()).hasSize(5);
        // The parent sees none of its sub-account's records, even with the sub's IDs as filters or cursors.
        String subExec = subClient.get(FILLS).data().get("list").get(0).get("execId").asText();
        String subWithdrawal = subClient.get(WITHDRAWALS + window).data().get(0).get("orderId").asText();
        String subDeposit = subClient.get(DEPOSITS + window).data().get(0).get("orderId").asText();
        ServerPool.nextSecond(kind);
        assertThat(parent.get(FILLS).data().get("list")).isEmpty();
        assertThat(parent.get(FILLS + "?orderId=7000").data().get("list")).isEmpty();
        assertThat(parent.get(FILLS + "?cursor=" + (Long.parseLong(subExec) + 1)).data().get("list")).isEmpty();
        assertThat(parent.get(WITHDRAWALS + window).data()).isEmpty();
        assertThat(parent.get(WITHDRAWALS + window + "&orderId=" + subWithdrawal).data()).isEmpty();
        assertThat(parent.get(WITHDRAWALS + window + "&clientOid=uw-0").data()).isEmpty();
        assertThat(parent.get(DEPOSITS + window).data()).isEmpty();
        assertThat(parent.get(DEPOSITS + window + "&orderId=" + subDeposit).data()).isEmpty();
        assertThat(parent.get(DEPOSITS + window + "&cursor=" + (Long.parseLong(subDeposit) + 1)).data()).isEmpty();
        // The demo main account's records are not the fresh ones, nor the other way round.
        ServerPool.nextSecond(kind);
        ApiClient demo = server.client(Credentials.MAIN_RW);
        assertThat(demo.get(FILLS + "?orderId=7000").data().get("list")).isEmpty();
        assertThat(demo.get(WITHDRAWALS + window + "&clientOid=uw-0").data()).isEmpty();
        assertThat(demo.get(DEPOSITS + window + "&orderId=" + subDeposit).data()).isEmpty();
    }

    @Test
    void familyGuardBothWays() {
        // A classic key on the v3 rows: 40084; its own records stay on the v2 rows.
        ApiClient classic = server.client(Credentials.CLASSIC);
        assertError(classic.get(FILLS), "40084", null);
        assertError(classic.get(WITHDRAWALS + "?startTime=1&endTime=2"), "40084", null);
        assertError(classic.get(DEPOSITS + "?startTime=1&endTime=2"), "40084", null);
        ok(classic.get("/api/v2/spot/trade/fills"));
        // A unified key on the v2 rows: 40085; its records are on the v3 rows.
        ApiClient unified = server.client(Credentials.MAIN_RW);
        assertError(unified.get("/api/v2/spot/trade/fills"), "40085", null);
        assertError(unified.get("/api/v2/spot/wallet/withdrawal-records?startTime=1&endTime=2"), "40085", null);
        ok(unified.get(FILLS));
    }

    @Test
    void permissionsFollowThePlatformsPages() {
        // Fills need uta_trade, the wallet records uta_mgt (read-only keys are enough).
        long uid = admin.createAccount("{\"username\":\"uta-perm-" + kind + "-" + NAMES.incrementAndGet() + "\"}");
        ApiClient mgtOnly = server.client(new Credentials(admin.createKey(uid, "Perm1pass", "read-only", "[\"uta_mgt\"]"), admin.lastSecret, "Perm1pass"));
        ApiClient tradeOnly = server.client(new Credentials(admin.createKey(uid, "Perm2pass", "read-only", "[\"uta_trade\"]"), admin.lastSecret, "Perm2pass"));
        assertThat(mgtOnly.get(FILLS).code()).isNotEqualTo("00000");
        ok(tradeOnly.get(FILLS));
        ok(mgtOnly.get(DEPOSITS + "?startTime=1&endTime=2"));
        ok(mgtOnly.get(WITHDRAWALS + "?startTime=1&endTime=2"));
        assertThat(tradeOnly.get(DEPOSITS + "?startTime=1&endTime=2").code()).isNotEqualTo("00000");
    }
}
