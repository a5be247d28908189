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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9 spot fills (§2.17, §4.5.1) and withdrawal records (§2.18, §4.5.2) on H2 and PostgreSQL: batch ingestion
 * through the admin API (all or nothing), paging walks, defaults and maxima, windows, field types, isolation and the
 * family guard. Writes go to fresh classic accounts; the demo classic sub-account 1000000005 is only read.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class SpotRecordsApiTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final long DAY = 86_400_000L;
    private static final String FILLS = "/api/v2/spot/trade/fills";
    private static final String WITHDRAWALS = "/api/v2/spot/wallet/withdrawal-records";
    private static final String UNIFIED_ON_V2 = "You are in Unified Account mode, and the Classic Account API is not supported at this time";

    private long now() { return server.clock.millis(); }

    /** A new classic account (a sub-account when parent is given) and a client with its key. */
    private ApiClient classic(Long parent) {
        String name = "spot-" + kind + "-" + NAMES.incrementAndGet();
        long uid = admin.createAccount("{\"username\":\"" + name + "\",\"accountMode\":\"CLASSIC\"}" );
        if (parent != null) {
            Reply r = admin.post("/admin/v1/accounts?parentUid=" + parent, "{\"username\":\"" + name + "-sub\",\"accountMode\":\"CLASSIC\"}");
            ok(r);
            uid = r.data().get("uid").asLong();
        }
        admin.lastUid = uid;
        String key = admin.createKey(uid, "Spot1pass", "read-only", "[\"uta_mgt\"]");
        return server.client(new Credentials(key, admin.lastSecret, "Spot1pass"));
    }

    private static String fill(int i, long cTime) {
        return "{\"orderId\":\"" + (5000 + i) + "\",\"symbol\":\"BTCUSDT\",\"orderType\":\"limit\",\"side\":\"" + (i % 2 == 0 ? "buy" : "sell")
                + "\",\"priceAvg\":\"100.5\",\"size\":\"" + (i + 1) + "\",\"amount\":\"" + new java.math.BigDecimal("100.5").multiply(java.math.BigDecimal.valueOf(i + 1)).toPlainString()
                + "\",\"tradeScope\":\"maker\",\"feeDetail\":{\"deduction\":\"no\",\"feeCoin\":\"USDT\",\"totalDeductionFee\":\"0\",\"totalFee\":\"-0.01\"},\"cTime\":\"" + cTime + "\"}";
    }

    private static String withdrawal(int i, long cTime) {
        return "{\"coin\":\"USDT\",\"clientOid\":\"w-" + i + "\",\"type\":\"withdraw\",\"dest\":\"on_chain\",\"size\":\"" + (10 + i)
                + "\",\"fee\":\"1\",\"status\":\"success\",\"fromAddress\":\"TFrom\",\"toAddress\":\"TTo" + i + "\",\"chain\":\"TRC20\",\"confirm\":\"12\",\"tag\":\"\",\"tradeId\":\"0xabc" + i
                + "\",\"cTime\":" + cTime + ",\"uTime\":" + (cTime + 1000) + "}";
    }

    private static String batch(long uid, int n, IntFunction<String> record) { return Admin.batch(uid, n, record); }

    private Reply ingest(String row, String body) { return admin.ingest(row, body); }

    /** Pages through a row with idLessThan until an empty page; asserts each page's size and returns every item. */
    private List<JsonNode> walk(ApiClient c, String path, String idField, int limit, int... pageSizes) {
        List<JsonNode> all = new ArrayList<>();
        String cursor = null;
        int calls = 0;
        for (int expected : pageSizes) {
            if (++calls % 9 == 0) ServerPool.nextSecond(kind); // 10/s/UID (§8)
            List<String> q = new ArrayList<>();
            if (limit > 0) q.add("limit=" + limit);
            if (cursor != null) q.add("idLessThan=" + cursor);
            Reply r = c.get(q.isEmpty() ? path : path + (path.contains("?") ? "&" : "?") + String.join("&", q));
            ok(r);
            assertThat(r.data().isArray()).isTrue();
            assertThat(r.data().size()).as("page %d of %s", calls, path).isEqualTo(expected);
            r.data().forEach(all::add);
            if (expected > 0) cursor = r.data().get(expected - 1).get(idField).asText();
        }
        // IDs strictly descending across pages: no duplicates, no repeats.
        for (int i = 1; i < all.size(); i++) {
            assertThat(Long.parseLong(all.get(i).get(idField).asText())).isLessThan(Long.parseLong(all.get(i - 1).get(idField).asText()));
        }
        return all;
    }

    private static int[] pages(int total, int limit) {
        List<Integer> out = new ArrayList<>();
        for (int left = total; left > 0; left -= limit) out.add(Math.min(limit, left));
        out.add(0); // the end: an empty page
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    // --- paging

    @Test
    void fillsPageNewestFirstWithoutGapsOrRepeats() {
        ApiClient c = classic(null);
        long uid = admin.lastUid;
        long t0 = now() - 10 * DAY;
        // Two batches, the second older in cTime: IDs follow ingestion, then cTime within a batch.
        ok(ingest("fills", batch(uid, 137, i -> fill(i, t0 + i * 60_000L))));
        Reply second = ingest("fills", batch(uid, 100, i -> fill(137 + i, t0 - DAY + i * 60_000L)));
        ok(second);
        assertThat(second.data().get("stored").asInt()).isEqualTo(100);
        List<JsonNode> all = walk(c, FILLS, "tradeId", 0, 100, 100, 37, 0); // default limit 100
        Set<String> orders = new TreeSet<>();
        all.forEach(f -> orders.add(f.get("orderId").asText()));
        Set<String> expected = new TreeSet<>();
        for (int i = 0; i < 237; i++) expected.add(Integer.toString(5000 + i));
        assertThat(orders).isEqualTo(expected);
        // Within a batch the minted tradeIds follow cTime: the walk shows each batch newest first.
        assertThat(all.get(0).get("orderId").asText()).isEqualTo("5236");
        assertThat(all.get(99).get("orderId").asText()).isEqualTo("5137");
        assertThat(all.get(100).get("orderId").asText()).isEqualTo("5136");
        // The same walk at the maximum and at limit 7; orderId and symbol filter.
        ServerPool.nextSecond(kind);
        assertThat(walk(c, FILLS, "tradeId", 100, 100, 100, 37, 0)).hasSize(237);
        ServerPool.nextSecond(kind);
        assertThat(walk(c, FILLS, "tradeId", 60, pages(237, 60))).hasSize(237);
        ServerPool.nextSecond(kind);
        Reply one = c.get(FILLS + "?orderId=5042");
        ok(one);
        assertThat(one.data()).hasSize(1);
        assertThat(one.data().get(0).get("size").asText()).isEqualTo("43");
        assertThat(one.data().get(0).get("amount").asText()).isEqualTo("4321.5");
        ok(c.get(FILLS + "?symbol=ETHUSDT"));
        assertThat(c.get(FILLS + "?symbol=ETHUSDT").data()).isEmpty();
        assertThat(c.get(FILLS + "?symbol=BTCUSDT&limit=3").data()).hasSize(3);
    }

    @Test
    void withdrawalsPageNewestFirstWithoutGapsOrRepeats() {
        ApiClient c = classic(null);
        long uid = admin.lastUid;
        long t0 = now() - 20 * DAY;
        ok(ingest("withdrawals", batch(uid, 45, i -> withdrawal(i, t0 + i * 3_600_000L))));
        String window = WITHDRAWALS + "?startTime=" + (now() - 30 * DAY) + "&endTime=" + now();
        List<JsonNode> all = walk(c, window, "orderId", 0, 20, 20, 5, 0); // default limit 20
        Set<String> oids = new HashSet<>();
        all.forEach(w -> oids.add(w.get("clientOid").asText()));
        assertThat(oids).hasSize(45).contains("w-0", "w-44");
        assertThat(all.get(0).get("clientOid").asText()).isEqualTo("w-44");
        ServerPool.nextSecond(kind);
        assertThat(walk(c, window, "orderId", 100, 45, 0)).hasSize(45);
        ServerPool.nextSecond(kind);
        assertThat(walk(c, window, "orderId", 1, pages(45, 1))).hasSize(45);
        ServerPool.nextSecond(kind);
        // Filters: clientOid, orderId, coin; the window bounds cTime.
        assertThat(c.get(window + "&clientOid=w-7").data()).hasSize(1);
        String oid = all.get(3).get("orderId").asText();
        assertThat(c.get(window + "&orderId=" + oid).data().get(0).get("orderId").asText()).isEqualTo(oid);
        assertThat(c.get(window + "&coin=BTC").data()).isEmpty();
        assertThat(c.get(WITHDRAWALS + "?startTime=" + t0 + "&endTime=" + (t0 + 9 * 3_600_000L) + "&limit=100").data()).hasSize(10);
    }

    // --- defaults, maxima, windows

    @Test
    void limitsAndWindowsAreEnforced() {
        ApiClient c = classic(null);
        long uid = admin.lastUid;
        long n = now();
        // One fill 91 days old (never returned), one 89 days old, one now.
        ok(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + fill(0, n - 91 * DAY) + "," + fill(1, n - 89 * DAY) + "," + fill(2, n) + "]}"));
        assertThat(c.get(FILLS).data()).hasSize(2);
        assertThat(c.get(FILLS + "?startTime=" + (n - 95 * DAY) + "&endTime=" + (n - 10 * DAY)).data()).hasSize(1);
        assertThat(c.get(FILLS + "?startTime=" + (n - 100 * DAY)).data()).hasSize(2); // clamped to 90 days, not refused
        assertThat(c.get(FILLS + "?endTime=" + (n - DAY)).data()).hasSize(1);
        ServerPool.nextSecond(kind);
        assertError(c.get(FILLS + "?startTime=" + (n - 91 * DAY) + "&endTime=" + n), "40017", "Parameter verification failed time range between startTime and endTime exceeds 90 days");
        assertError(c.get(FILLS + "?startTime=" + n + "&endTime=" + (n - 1)), "40017", "Parameter verification failed startTime is after endTime");
        assertError(c.get(FILLS + "?limit=101"), "40020", "Parameter limit error");
        assertError(c.get(FILLS + "?limit=0"), "40020", "Parameter limit error");
        assertError(c.get(FILLS + "?startTime=yesterday"), "40020", "Parameter startTime error");
        assertError(c.get(FILLS + "?idLessThan=-1"), "40020", "Parameter idLessThan error");
        ok(c.get(FILLS + "?startTime=" + (n - 90 * DAY) + "&endTime=" + n)); // exactly 90 days
        ServerPool.nextSecond(kind);
        assertError(c.get(WITHDRAWALS), "40019", "Parameter startTime,endTime cannot be empty");
        assertError(c.get(WITHDRAWALS + "?startTime=1"), "40019", "Parameter endTime cannot be empty");
        assertError(c.get(WITHDRAWALS + "?startTime=5&endTime=4"), "40017", "Parameter verification failed startTime is after endTime");
        assertError(c.get(WITHDRAWALS + "?startTime=1&endTime=" + n + "&limit=101"), "40020", "Parameter limit error");
        assertError(c.get(WITHDRAWALS + "?startTime=1&endTime=" + n + "&orderId=x"), "40020", "Parameter orderId error");
        ok(c.get(WITHDRAWALS + "?startTime=1&endTime=" + n + "&limit=100"));
    }

    // --- ingestion: all or nothing

    @Test
    void aBatchWithOneBadRecordStoresNothing() {
        ApiClient c = classic(null);
        long uid = admin.lastUid;
        long n = now();
        String good = fill(0, n);
        String[][] bad = {
                {fill(1, n).replace("\"amount\":\"201.0\"", "\"amount\":\"201.01\""), "40017", "Parameter verification failed records[2].amount 201.01 is not priceAvg x size = 201.0"},
                {fill(1, n).replace("\"side\":\"sell\"", "\"side\":\"hold\""), "40020", "Parameter records[2].side error"},
                {fill(1, n).replace("\"tradeScope\":\"maker\"", "\"tradeScope\":\"both\""), "40020", "Parameter records[2].tradeScope error"},
                {fill(1, n).replace("\"size\":\"2\"", "\"size\":\"0.0000000000000000001\"").replace("\"amount\":\"201.0\",", ""), "40808", null},
                {fill(1, n).replace("\"symbol\":\"BTCUSDT\",", ""), "40019", "Parameter records[2].symbol cannot be empty"},
                {fill(1, n).replace("\"cTime\":\"" + n + "\"}", "\"cTime\":\"" + n + "\",\"uTime\":\"" + (n - 1) + "\"}"),
                        "40017", "Parameter verification failed records[2].uTime " + (n - 1) + " is before cTime " + n},
        };
        for (String[] b : bad) {
            Reply r = ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + good + "," + fill(2, n) + "," + b[0] + "]}");
            assertError(r, b[1], b[2]);
        }
        ServerPool.nextSecond(kind);
        assertThat(c.get(FILLS).data()).isEmpty();
        // Withdrawals: status, dest, type values; the whole batch refused.
        String w = withdrawal(0, n);
        assertError(ingest("withdrawals", "{\"uid\":" + uid + ",\"records\":[" + w + "," + withdrawal(1, n).replace("success", "done") + "]}"),
                "40020", "Parameter records[1].status error");
        assertError(ingest("withdrawals", "{\"uid\":" + uid + ",\"records\":[" + w + "," + withdrawal(1, n).replace("on_chain", "mail") + "]}"),
                "40020", "Parameter records[1].dest error");
        assertError(ingest("withdrawals", "{\"uid\":" + uid + ",\"records\":[" + w + "," + withdrawal(1, n).replace("\"withdraw\"", "\"deposit\"") + "]}"),
                "40020", "Parameter records[1].type error");
        assertError(ingest("withdrawals", "{\"uid\":" + uid + ",\"records\":[" + w + "," + withdrawal(1, n).replace("\"size\":\"11\"", "\"size\":\"-11\"") + "]}"),
                "40020", "Parameter records[1].size error");
        assertThat(c.get(WITHDRAWALS + "?startTime=1&endTime=" + (n + 10_000)).data()).isEmpty();
        // Given IDs: twice in one batch, or already stored, refuses the batch.
        String withId = fill(3, n).replace("{\"orderId\"", "{\"tradeId\":\"77\",\"orderId\"");
        assertError(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + withId + "," + withId + "]}"), "40017",
                "Parameter verification failed records[1].tradeId 77 appears twice in the batch");
        ok(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + withId + "]}"));
        assertError(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + good + "," + withId + "]}"), "40017",
                "Parameter verification failed records[1].tradeId 77 already exists");
        ServerPool.nextSecond(kind);
        JsonNode stored = c.get(FILLS).data();
        assertThat(stored).hasSize(1);
        assertThat(stored.get(0).get("tradeId").asText()).isEqualTo("77");
        // The account: required, existing, classic; an empty batch and an oversized one are refused.
        assertError(ingest("fills", "{\"records\":[" + good + "]}"), "40019", "Parameter uid cannot be empty");
        assertError(ingest("fills", "{\"uid\":1,\"records\":[" + good + "]}"), "40034", "Parameter uid does not exist");
        // A classic account's fills are spot fills (they are read on v2 spot/trade/fills); unified accounts' are
        // UnifiedRecordsApiTest's.
        assertError(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + good.replace("{\"orderId\"", "{\"category\":\"USDT-FUTURES\",\"orderId\"") + "]}"),
                "40017", "Parameter verification failed records[0].category USDT-FUTURES: a CLASSIC account's fills are SPOT fills");
        assertError(ingest("fills", "{\"uid\":" + uid + ",\"records\":[" + good.replace("{\"orderId\"", "{\"category\":\"OPTIONS\",\"orderId\"") + "]}"),
                "40020", "Parameter records[0].category error");
        assertError(ingest("fills", "{\"uid\":" + uid + ",\"records\":[]}"), "40019", "Parameter records cannot be empty");
        assertError(ingest("fills", batch(uid, 10_001, i -> "{}")), "40017", "Parameter verification failed at most 10000 records per call, got 10001");
    }

    // --- shapes

    @Test
    void everyFieldIsAStringAndFeeDetailAnObject() {
        ApiClient c = server.client(Credentials.CLASSIC);
        JsonNode f = c.get(FILLS + "?limit=1").data().get(0);
        assertThat(Replies.names(f)).containsExactly("userId", "symbol", "orderId", "tradeId", "orderType", "side", "priceAvg", "size", "amount",
                "tradeScope", "feeDetail", "cTime", "uTime");
        f.properties().forEach(e -> {
            if (e.getKey().equals("feeDetail")) {
                assertThat(e.getValue().isObject()).isTrue();
                assertThat(Replies.names(e.getValue())).containsExactly("deduction", "feeCoin", "totalDeductionFee", "totalFee");
                e.getValue().forEach(v -> assertThat(v.isTextual()).as(e.getValue().toString()).isTrue());
            } else {
                assertThat(e.getValue().isTextual()).as(e.getKey()).isTrue();
            }
        });
        assertThat(f.get("userId").asText()).isEqualTo("1000000005");
        assertThat(f.get("cTime").asText()).matches("\\d{13}"); // milliseconds
        JsonNode w = c.get(WITHDRAWALS + "?limit=1&startTime=" + (now() - 90 * DAY) + "&endTime=" + now()).data().get(0);
        assertThat(Replies.names(w)).containsExactly("orderId", "tradeId", "coin", "clientOid", "type", "dest", "size", "fee", "status",
                "fromAddress", "toAddress", "chain", "confirm", "tag", "cTime", "uTime");
        w.forEach(v -> assertThat(v.isTextual()).as(w.toString()).isTrue());
        assertThat(w.get("cTime").asText()).matches("\\d{13}");
    }

    /** Concurrent batches giving the same tradeId: exactly one is stored, the others are refused (40017), never a 500. */
    @Test
    void concurrentBatchesWithTheSameGivenIdStoreOnce() throws Exception {
        classic(null);
        long uid = admin.lastUid;
        String body = batch(uid, 3, i -> fill(i, now() - DAY).replace("{\"orderId\"", "{\"tradeId\":\"" + (777 + i) + "\",\"orderId\""));
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        var start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Reply>> replies = new ArrayList<>();
        for (int t = 0; t < 8; t++) replies.add(pool.submit(() -> { start.await(); return ingest("fills", body); }));
        start.countDown();
        pool.shutdown();
        int stored = 0;
        for (var f : replies) {
            Reply r = f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            if (r.code().equals("00000")) stored++;
            else assertError(r, "40017");
        }
        assertThat(stored).isEqualTo(1);
    }


    /** issue 9 demo data: 250 fills and 45 withdrawals, several pages with the defaults and with limit 1. */
    @Test
    void demoClassicSubAccountHasSeveralPages() {
        ApiClient c = server.client(Credentials.CLASSIC);
        assertThat(walk(c, FILLS, "tradeId", 0, 100, 100, 50, 0)).hasSize(250);
        ServerPool.nextSecond(kind);
        String window = WITHDRAWALS + "?startTime=" + (now() - 90 * DAY) + "&endTime=" + now();
        assertThat(walk(c, window, "orderId", 0, 20, 20, 5, 0)).hasSize(45);
        ServerPool.nextSecond(kind);
        assertThat(walk(c, FILLS, "tradeId", 1, pages(250, 1))).hasSize(250);
        ServerPool.nextSecond(kind);
        assertThat(walk(c, window, "orderId", 1, pages(45, 1))).hasSize(45);
    }

    // --- isolation and family

    @Test
    void anotherAccountsRecordsNeverAppear() {
        ApiClient parent = classic(null);
        long parentUid = admin.lastUid;
        Reply sub = admin.post("/admin/v1/accounts?parentUid=" + parentUid, "{\"username\":\"spot-sub-" + kind + "-" + NAMES.incrementAndGet() + "\",\"accountMode\":\"CLASSIC\"}");
        ok(sub);
        long subUid = sub.data().get("uid").asLong();
        ApiClient subClient = server.client(new Credentials(admin.createKey(subUid, "Sub1pass", "read-only", "[\"uta_mgt\"]"), admin.lastSecret, "Sub1pass"));
        long n = now();
        ok(ingest("fills", batch(subUid, 5, i -> fill(i, n - i))));
        ok(ingest("withdrawals", batch(subUid, 5, i -> withdrawal(i, n - i))));
        String window = WITHDRAWALS + "?startTime=" + (n - DAY) + "&endTime=" + (n + DAY);
        assertThat(subClient.get(FILLS).data()).hasSize(5);
        assertThat(subClient.get(window).data()).hasSize(5);
        // The parent sees none of its sub-account's records, even with the sub's IDs as filters or cursors.
        assertThat(parent.get(FILLS).data()).isEmpty();
        assertThat(parent.get(window).data()).isEmpty();
        String subTrade = subClient.get(FILLS).data().get(0).get("tradeId").asText();
        assertThat(parent.get(FILLS + "?orderId=5000").data()).isEmpty();
        assertThat(parent.get(FILLS + "?idLessThan=" + (Long.parseLong(subTrade) + 1)).data()).isEmpty();
        // And the demo classic account's records never appear in a fresh account, nor the fresh ones in the demo's.
        ServerPool.nextSecond(kind);
        assertThat(server.client(Credentials.CLASSIC).get(FILLS + "?orderId=5000").data()).isEmpty();
        server.client(Credentials.CLASSIC).get(FILLS).data().forEach(f -> assertThat(f.get("userId").asText()).isEqualTo("1000000005"));
    }

    @Test
    void familyGuardBothWays() {
        // A unified key on the classic v2 rows: 40085, as the real platform answers (D6).
        ApiClient unified = server.client(Credentials.MAIN_RW);
        assertError(unified.get(FILLS), "40085", UNIFIED_ON_V2);
        assertError(unified.get(WITHDRAWALS + "?startTime=1&endTime=2"), "40085", UNIFIED_ON_V2);
        // A classic key is served there, and refused on a v3 unified row (40084).
        ApiClient classic = server.client(Credentials.CLASSIC);
        ok(classic.get(FILLS));
        ok(classic.get(WITHDRAWALS + "?startTime=1&endTime=2"));
        assertError(classic.get("/api/v3/account/settings"), "40084", null);
    }
}
