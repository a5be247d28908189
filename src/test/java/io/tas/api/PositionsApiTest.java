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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9 positions (§2.14-2.16, §4.4) on H2 and PostgreSQL: v3 history-position, v2 single-position, all-position
 * and history-position. Paging walks against the ingested set, defaults, maxima and windows, the batch's all-or-nothing
 * rule, the JSON type of every field against the spec tables, isolation and the family guard.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class PositionsApiTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final long DAY = 86_400_000L;
    private static final String V3 = "/api/v3/position/history-position";
    private static final String V2 = "/api/v2/mix/position/history-position";
    private static final String ALL = "/api/v2/mix/position/all-position";
    private static final String SINGLE = "/api/v2/mix/position/single-position";

    /** §2.14, §2.15, §2.16: every item field, all strings. */
    private static final Map<String, List<String>> FIELDS = Map.of(
            "2.14", List.of("positionId", "category", "symbol", "marginCoin", "posSide", "marginMode", "holdMode", "openPriceAvg",
                    "closePriceAvg", "openTotalPos", "closeTotalPos", "cumRealisedPnl", "netProfit", "totalFunding", "openFeeTotal",
                    "closeFeeTotal", "cashDividend", "createdTime", "updatedTime"),
            "2.15", List.of("symbol", "marginCoin", "holdSide", "openDelegateSize", "marginSize", "available", "locked", "total",
                    "leverage", "achievedProfits", "openPriceAvg", "marginMode", "posMode", "unrealizedPL", "liquidationPrice",
                    "keepMarginRate", "markPrice", "marginRatio", "breakEvenPrice", "totalFee", "deductedFee", "cashDividend", "grant",
                    "assetMode", "autoMargin", "takeProfit", "stopLoss", "takeProfitId", "stopLossId", "cTime", "uTime"),
            "2.16", List.of("positionId", "symbol", "marginCoin", "holdSide", "posMode", "openAvgPrice", "closeAvgPrice", "marginMode",
                    "openTotalPos", "closeTotalPos", "pnl", "netProfit", "totalFunding", "openFee", "closeFee", "cashDividend",
                    "ctime", "utime"));

    @Parameter Databases.Kind kind;
    TestServer server;
    Admin admin;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        admin = new Admin(server);
    }

    private long now() { return server.clock.millis(); }

    private String name(String what) { return "pos-" + what + "-" + kind + "-" + NAMES.incrementAndGet(); }

    /** A new account of the kind with a read-and-write key and unified USDT for margin. */
    private ApiClient account(String kindName, String usdt) {
        long uid = admin.createAccount("{\"username\":\"" + name(kindName) + "\",\"accountMode\":\"" + kindName + "\"}");
        String key = admin.createKey(uid, "Pos12345", "read-and-write", "[\"uta_mgt\",\"uta_trade\"]");
        if (usdt != null) {
            ok(admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + uid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\""
                    + usdt + "\",\"ref\":\"pos-fund-" + uid + "\"}"));
        }
        admin.lastUid = uid;
        return server.client(new Credentials(key, admin.lastSecret, "Pos12345"));
    }

    /** One history record: a long closed at a 100 profit, 1 paid on each side, 0.5 funding paid: net 97.5. */
    private static String record(long uid, String category, String symbol, long utime) {
        return "{\"uid\":" + uid + ",\"category\":\"" + category + "\",\"symbol\":\"" + symbol + "\",\"holdSide\":\"long\","
                + "\"marginMode\":\"isolated\",\"posMode\":\"one_way_mode\",\"openAvgPrice\":\"95000\",\"closeAvgPrice\":\"96000\","
                + "\"openTotalPos\":\"0.1\",\"closeTotalPos\":\"0.1\",\"pnl\":\"100\",\"totalFunding\":\"-0.5\",\"openFee\":\"-1\","
                + "\"closeFee\":\"-1\",\"netProfit\":\"97.5\",\"ctime\":\"" + (utime - 3_600_000) + "\",\"utime\":\"" + utime + "\"}";
    }

    private List<String> ingest(List<String> records) {
        Reply r = admin.post("/admin/v1/records/history-positions", "{\"records\":[" + String.join(",", records) + "]}");
        ok(r);
        assertThat(r.data().get("count").asInt()).isEqualTo(records.size());
        List<String> ids = new ArrayList<>();
        r.data().get("positionIds").forEach(n -> ids.add(n.asText()));
        return ids;
    }

    private List<String> ingestSeries(long uid, String category, String symbol, int n, long newest, long every) {
        List<String> records = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) records.add(record(uid, category, symbol, newest - i * every));
        return ingest(records);
    }

    /** Walks v3 pages; returns the ids in order and checks the cursor rule on every page. */
    private List<String> walkV3(ApiClient c, String query, int limit) {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 1000; pages++) {
            if (pages % 15 == 14) ServerPool.nextSecond(kind); // 20/s
            Reply r = c.get(V3 + "?" + query + (limit > 0 ? "&limit=" + limit : "") + (cursor == null ? "" : "&cursor=" + cursor));
            ok(r);
            assertShape(r.data(), "cursor", "2.14");
            JsonNode list = r.data().get("list");
            list.forEach(n -> seen.add(n.get("positionId").asText()));
            cursor = r.data().get("cursor").asText();
            int max = limit > 0 ? limit : 100;
            assertThat(list.size()).isLessThanOrEqualTo(max);
            if (cursor.isEmpty()) return seen;
            assertThat(list.size()).as("a page before the end is full").isEqualTo(max);
            assertThat(cursor).isEqualTo(list.get(list.size() - 1).get("positionId").asText());
        }
        throw new AssertionError("no end");
    }

    private List<String> walkV2(ApiClient c, String query, int limit) {
        List<String> seen = new ArrayList<>();
        String endId = null;
        for (int pages = 0; pages < 1000; pages++) {
            if (pages % 15 == 14) ServerPool.nextSecond(kind);
            Reply r = c.get(V2 + "?" + query + (limit > 0 ? "&limit=" + limit : "") + (endId == null ? "" : "&idLessThan=" + endId));
            ok(r);
            assertShape(r.data(), "endId", "2.16");
            JsonNode list = r.data().get("list");
            list.forEach(n -> seen.add(n.get("positionId").asText()));
            assertThat(list.size()).isLessThanOrEqualTo(limit > 0 ? limit : 20);
            if (list.isEmpty()) {
                assertThat(r.data().get("endId").asText()).isEmpty();
                return seen;
            }
            endId = r.data().get("endId").asText();
            assertThat(endId).isEqualTo(list.get(list.size() - 1).get("positionId").asText());
        }
        throw new AssertionError("no end");
    }

    /** data {list: [items of the section], marker: string}; every item has exactly the section's fields, all strings. */
    private static void assertShape(JsonNode data, String marker, String section) {
        assertThat(data.isObject()).as(data.toString()).isTrue();
        assertThat(data.get("list").isArray()).as(data.toString()).isTrue();
        assertThat(data.get(marker).isTextual()).as(data.toString()).isTrue();
        assertThat(data.size()).isEqualTo(2);
        data.get("list").forEach(item -> assertItem(item, section));
    }

    private static void assertItem(JsonNode item, String section) {
        List<String> names = new ArrayList<>();
        item.fieldNames().forEachRemaining(names::add);
        assertThat(names).as(item.toString()).containsExactlyInAnyOrderElementsOf(FIELDS.get(section));
        item.fields().forEachRemaining(e -> assertThat(e.getValue().isTextual()).as(section + " " + e.getKey() + " in " + item).isTrue());
    }

    private static void assertStrictlyDescending(List<String> ids) {
        for (int i = 1; i < ids.size(); i++) assertThat(Long.parseLong(ids.get(i))).isLessThan(Long.parseLong(ids.get(i - 1)));
        assertThat(new HashSet<>(ids)).hasSize(ids.size());
    }

    private static List<String> descending(List<String> ids) {
        return ids.stream().sorted((a, b) -> Long.compare(Long.parseLong(b), Long.parseLong(a))).toList();
    }

    // --- v3 history-position (§4.4.1)

    @Test
    void v3WalksTheIngestedSetExactlyWithEveryLimit() {
        ApiClient c = account("UNIFIED", null);
        long uid = admin.lastUid;
        List<String> ids = ingestSeries(uid, "USDT-FUTURES", "BTCUSDT", 25, now() - 60_000, 3_600_000);
        // Another contract and another product type of the same account, and another account: never in this walk.
        ingestSeries(uid, "COIN-FUTURES", "BTCUSD", 3, now() - 60_000, 3_600_000);
        ApiClient other = account("UNIFIED", null);
        ingestSeries(admin.lastUid, "USDT-FUTURES", "BTCUSDT", 4, now() - 60_000, 3_600_000);
        for (int limit : new int[]{1, 7, 10, 25, 100, 0}) {
            List<String> seen = walkV3(c, "category=USDT-FUTURES", limit);
            assertStrictlyDescending(seen);
            assertThat(seen).as("limit " + limit).containsExactlyElementsOf(descending(ids));
            ServerPool.nextSecond(kind);
        }
        // 10 per page: 10, 10, 5 and the last cursor empty; exactly 20: the second page ends it.
        Reply first = c.get(V3 + "?category=USDT-FUTURES&limit=20");
        assertThat(first.data().get("cursor").asText()).isNotEmpty();
        Reply second = c.get(V3 + "?category=USDT-FUTURES&limit=20&cursor=" + first.data().get("cursor").asText());
        assertThat(second.data().get("list")).hasSize(5);
        assertThat(second.data().get("cursor").asText()).isEmpty();
        assertThat(walkV3(c, "category=COIN-FUTURES", 1)).hasSize(3);
        assertThat(walkV3(c, "category=USDT-FUTURES&symbol=ETHUSDT", 0)).isEmpty();
        assertThat(walkV3(other, "category=USDT-FUTURES", 0)).hasSize(4).doesNotContainAnyElementsOf(ids);
    }

    @Test
    void v3DefaultsToTheLast30DaysAndEnforcesTheWindow() {
        ApiClient c = account("UNIFIED", null);
        long uid = admin.lastUid;
        long t = now();
        // Closed 1, 29, 31, 60 and 89 days ago.
        List<String> ids = ingest(List.of(record(uid, "USDT-FUTURES", "BTCUSDT", t - 89 * DAY), record(uid, "USDT-FUTURES", "BTCUSDT", t - 60 * DAY),
                record(uid, "USDT-FUTURES", "BTCUSDT", t - 31 * DAY), record(uid, "USDT-FUTURES", "BTCUSDT", t - 29 * DAY),
                record(uid, "USDT-FUTURES", "BTCUSDT", t - DAY)));
        assertThat(walkV3(c, "category=USDT-FUTURES", 0)).containsExactly(ids.get(4), ids.get(3));
        assertThat(walkV3(c, "category=USDT-FUTURES&startTime=" + (t - 61 * DAY), 0)).containsExactly(ids.get(2), ids.get(1));
        assertThat(walkV3(c, "category=USDT-FUTURES&endTime=" + (t - 58 * DAY), 0)).containsExactly(ids.get(1));
        // Issue 24: a lone endTime over 60 days old reads the 30 days up to it, clipped to the 90 days (D137), not 40017.
        assertThat(walkV3(c, "category=USDT-FUTURES&endTime=" + (t - 61 * DAY), 0)).containsExactly(ids.get(0));
        assertThat(walkV3(c, "category=USDT-FUTURES&endTime=" + (t - 89 * DAY), 0)).containsExactly(ids.get(0));
        assertThat(walkV3(c, "category=USDT-FUTURES&startTime=" + (t - 89 * DAY - 1) + "&endTime=" + (t - 60 * DAY), 0))
                .containsExactly(ids.get(1), ids.get(0));
        ServerPool.nextSecond(kind);
        assertError(c.get(V3 + "?category=USDT-FUTURES&startTime=" + (t - 40 * DAY) + "&endTime=" + (t - 9 * DAY)), "40017",
                "Parameter verification failed time range between startTime and endTime exceeds 30 days");
        assertError(c.get(V3 + "?category=USDT-FUTURES&startTime=" + (t - 91 * DAY) + "&endTime=" + (t - 80 * DAY)), "40017",
                "Parameter verification failed startTime is older than 90 days");
        assertError(c.get(V3 + "?category=USDT-FUTURES&startTime=" + (t - DAY) + "&endTime=" + (t - 2 * DAY)), "40017",
                "Parameter verification failed startTime is after endTime");
        assertError(c.get(V3 + "?category=USDT-FUTURES&limit=101"), "40020", "Parameter limit error");
        assertError(c.get(V3 + "?category=USDT-FUTURES&limit=0"), "40020", "Parameter limit error");
        assertError(c.get(V3 + "?category=USDT-FUTURES&cursor=abc"), "40020", "Parameter cursor error");
        assertError(c.get(V3), "40019", "Parameter category cannot be empty");
        assertError(c.get(V3 + "?category=SPOT"), "40020", "Parameter category error");
        assertError(c.get(V3 + "?category=NOPE"), "40020", "Parameter category error");
    }

    @Test
    void v3DemoDataPagesWithTheDefaultsAndLimitOne() {
        ApiClient main = server.client(Credentials.MAIN_RW);
        List<String> all = walkV3(main, "category=USDT-FUTURES", 0);
        assertThat(all.size()).as("more than one default page").isGreaterThan(100);
        assertStrictlyDescending(all);
        assertThat(walkV3(main, "category=USDT-FUTURES", 30)).containsExactlyElementsOf(all);
        List<String> coin = walkV3(main, "category=COIN-FUTURES", 1);
        assertThat(coin).hasSize(10);
        assertStrictlyDescending(coin);
        // Older demo positions (31 to 89 days ago) are there with a window.
        assertThat(walkV3(main, "category=USDT-FUTURES&startTime=" + (now() - 60 * DAY) + "&endTime=" + (now() - 31 * DAY), 0)).isNotEmpty();
    }

    @Test
    void v3NeedsAReadAndWriteKeyAndAUnifiedAccount() {
        assertError(server.client(Credentials.MAIN_RO).get(V3 + "?category=USDT-FUTURES"), "40014",
                "Incorrect permissions, need read-and-write permissions");
        assertError(server.client(Credentials.CLASSIC).get(V3 + "?category=USDT-FUTURES"), "40084");
        ok(server.client(Credentials.MAIN_RW).get(V3 + "?category=USDT-FUTURES&limit=1"));
    }

    @Test
    void aParentNeverSeesItsSubAccountsHistoryNorTheSubItsParents() {
        ApiClient main = server.client(Credentials.MAIN_RW);
        ApiClient sub = server.client(Credentials.SUB);
        List<String> subIds = ingestSeries(1000000002L, "USDT-FUTURES", "ETHUSDT", 3, now() - 1000, 1000);
        assertThat(walkV3(sub, "category=USDT-FUTURES", 0)).containsAll(subIds);
        List<String> mainIds = walkV3(main, "category=USDT-FUTURES", 0);
        assertThat(mainIds).doesNotContainAnyElementsOf(subIds);
        assertThat(walkV3(sub, "category=USDT-FUTURES", 0)).doesNotContainAnyElementsOf(mainIds);
        ServerPool.nextSecond(kind);
        // The v2 rows of the classic sub-account: the parent (unified) is refused, the sub's own key reads its own.
        assertError(main.get(V2), "40085");
        assertError(main.get(ALL + "?productType=USDT-FUTURES"), "40085");
        assertError(main.get(SINGLE + "?productType=USDT-FUTURES&symbol=BTCUSDT&marginCoin=USDT"), "40085");
        ApiClient classic = account("CLASSIC", null);
        List<String> mine = ingestSeries(admin.lastUid, "USDT-FUTURES", "BTCUSDT", 2, now() - 1000, 1000);
        assertThat(walkV2(classic, "", 0)).containsExactlyElementsOf(descending(mine));
        assertThat(walkV2(server.client(Credentials.CLASSIC), "", 100)).doesNotContainAnyElementsOf(mine);
    }

    // --- ingestion: all or nothing

    @Test
    void aBatchWithOneBadRecordStoresNothing() {
        ApiClient c = account("UNIFIED", null);
        long uid = admin.lastUid;
        long t = now() - 1000;
        String good = record(uid, "USDT-FUTURES", "BTCUSDT", t);
        Map<String, String[]> bad = new java.util.LinkedHashMap<>();
        bad.put(good.replace("\"netProfit\":\"97.5\"", "\"netProfit\":\"98\""), new String[]{"40017",
                "Parameter verification failed records[1].netProfit 98 is not pnl + totalFunding + openFee + closeFee = 97.5"});
        bad.put(good.replace("\"closeTotalPos\":\"0.1\"", "\"closeTotalPos\":\"0.2\""), new String[]{"40017",
                "Parameter verification failed records[1].closeTotalPos is more than openTotalPos"});
        bad.put(good.replace("\"pnl\":\"100\"", "\"pnl\":\"100.0000000000000000001\"").replace(",\"netProfit\":\"97.5\"", ""),
                new String[]{"40808", "Parameter verification exception records[1].pnl checkBDScale error value=100.0000000000000000001 checkScale=18"});
        bad.put(good.replace("\"holdSide\":\"long\"", "\"holdSide\":\"up\""), new String[]{"40020", "Parameter records[1].holdSide error"});
        bad.put(good.replace("\"symbol\":\"BTCUSDT\"", "\"symbol\":\"NOPEUSDT\""), new String[]{"40017",
                "Parameter verification failed records[1].symbol NOPEUSDT is not a USDT-FUTURES instrument"});
        bad.put(good.replace("\"uid\":" + uid, "\"uid\":1"), new String[]{"40017", "Parameter verification failed records[1].uid 1 does not exist"});
        bad.put(good.replace("\"category\":\"USDT-FUTURES\",", ""), new String[]{"40017", "Parameter verification failed records[1].category is required"});
        bad.put(good.replace("\"ctime\":\"" + (t - 3_600_000) + "\"", "\"ctime\":\"" + (t + 1) + "\""), new String[]{"40017",
                "Parameter verification failed records[1].ctime is after utime"});
        for (var e : bad.entrySet()) {
            Reply r = admin.post("/admin/v1/records/history-positions", "{\"records\":[" + good + "," + e.getKey() + "," + good + "]}");
            assertError(r, e.getValue()[0], e.getValue()[1]);
        }
        // Given ids: a repeat inside the batch, or one already stored, refuses the whole batch too.
        String withId = good.replace("{\"uid\"", "{\"positionId\":\"7000000000000000001\",\"uid\"");
        assertError(admin.post("/admin/v1/records/history-positions", "{\"records\":[" + withId + "," + withId + "]}"), "40017",
                "Parameter verification failed records[1].positionId 7000000000000000001 is repeated in the batch");
        assertThat(ingest(List.of(withId))).containsExactly("7000000000000000001");
        assertError(admin.post("/admin/v1/records/history-positions", "{\"records\":[" + good + "," + withId + "]}"), "40017",
                "Parameter verification failed records[1].positionId 7000000000000000001 already exists");
        assertError(admin.post("/admin/v1/records/history-positions", "{\"records\":[]}"), "40017");
        assertThat(walkV3(c, "category=USDT-FUTURES", 0)).containsExactly("7000000000000000001");
    }

    @Test
    void aBatchOfThousandsGoesInAsOne() {
        ApiClient c = account("CLASSIC", null);
        long uid = admin.lastUid;
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 2000; i++) records.add(record(uid, i % 2 == 0 ? "USDT-FUTURES" : "COIN-FUTURES", i % 2 == 0 ? "BTCUSDT" : "BTCUSD", now() - 1000 - i));
        List<String> ids = ingest(records);
        assertThat(new HashSet<>(ids)).hasSize(2000);
        Reply r = c.get(V2 + "?limit=100");
        assertThat(r.data().get("list")).hasSize(100);
        assertThat(walkV2(c, "productType=COIN-FUTURES", 100)).hasSize(1000);
    }

    // --- v2 history-position (§4.4.2)

    /** The platform's page: "only the data within 3 months" (D137); an older start is moved up to it, not refused. */
    @Test
    void v2ReadsOnlyTheLast90Days() {
        ApiClient c = account("CLASSIC", null);
        long uid = admin.lastUid;
        long t = now();
        List<String> ids = ingest(List.of(record(uid, "USDT-FUTURES", "BTCUSDT", t - 91 * DAY), record(uid, "USDT-FUTURES", "BTCUSDT", t - 89 * DAY)));
        assertThat(walkV2(c, "startTime=" + (t - 100 * DAY) + "&endTime=" + (t - 80 * DAY), 0)).containsExactly(ids.get(1));
        assertThat(walkV2(c, "startTime=" + (t - 100 * DAY), 0)).containsExactly(ids.get(1));
        assertThat(walkV2(c, "endTime=" + (t - 85 * DAY), 0)).containsExactly(ids.get(1));
        assertThat(walkV2(c, "endTime=" + (t - 90 * DAY - 1), 0)).isEmpty();
    }

    @Test
    void v2PagesWithIdLessThanDefaultsToUsdtFuturesAndSymbolWins() {
        ApiClient c = account("CLASSIC", null);
        long uid = admin.lastUid;
        List<String> usdt = ingestSeries(uid, "USDT-FUTURES", "BTCUSDT", 45, now() - 60_000, DAY);   // 45 over 45 days
        List<String> coin = ingestSeries(uid, "COIN-FUTURES", "BTCUSD", 5, now() - 60_000, DAY);
        List<String> seen = walkV2(c, "", 0);
        assertStrictlyDescending(seen);
        assertThat(seen).containsExactlyElementsOf(descending(usdt));
        assertThat(walkV2(c, "", 1)).containsExactlyElementsOf(descending(usdt));
        assertThat(walkV2(c, "", 100)).containsExactlyElementsOf(descending(usdt));
        Reply first = c.get(V2);
        assertThat(first.data().get("list")).hasSize(20);
        assertThat(walkV2(c, "productType=COIN-FUTURES", 2)).containsExactlyElementsOf(descending(coin));
        // symbol overrides productType
        assertThat(walkV2(c, "productType=USDT-FUTURES&symbol=BTCUSD", 0)).containsExactlyElementsOf(descending(coin));
        assertThat(walkV2(c, "symbol=btcusdt", 0)).containsExactlyElementsOf(descending(usdt));
        ServerPool.nextSecond(kind);
        long t = now();
        assertThat(walkV2(c, "startTime=" + (t - 10 * DAY) + "&endTime=" + t, 0)).hasSize(10);
        assertError(c.get(V2 + "?startTime=" + (t - 91 * DAY) + "&endTime=" + t), "40017",
                "Parameter verification failed time range between startTime and endTime exceeds 90 days");
        assertError(c.get(V2 + "?startTime=" + t + "&endTime=" + (t - 1)), "40017", "Parameter verification failed startTime is after endTime");
        assertError(c.get(V2 + "?limit=101"), "40020", "Parameter limit error");
        assertError(c.get(V2 + "?productType=SPOT"), "40020", "Parameter productType error");
        assertError(c.get(V2 + "?idLessThan=-1"), "40020", "Parameter idLessThan error");
        assertError(server.client(Credentials.MAIN_RW).get(V2), "40085");
    }

    @Test
    void v2DemoClassicAccountHasSeveralPages() {
        ApiClient classic = server.client(Credentials.CLASSIC);
        List<String> usdt = walkV2(classic, "", 0);
        assertThat(usdt.size()).isGreaterThan(40);
        assertStrictlyDescending(usdt);
        assertThat(walkV2(classic, "", 1)).containsExactlyElementsOf(usdt);
        assertThat(walkV2(classic, "productType=COIN-FUTURES", 1)).hasSize(6);
        Reply all = classic.get(ALL + "?productType=USDT-FUTURES");
        ok(all);
        assertThat(all.data()).hasSize(2);
        all.data().forEach(item -> assertItem(item, "2.15"));
        Reply coin = classic.get(ALL + "?productType=COIN-FUTURES");
        assertThat(coin.data()).hasSize(1);
        assertThat(coin.data().get(0).get("marginCoin").asText()).isEqualTo("BTC");
    }

    // --- v2 current positions (§2.15)

    @Test
    void currentPositionsAreLiveNewestFirstAndAllStrings() {
        ApiClient c = account("CLASSIC", "10000");
        long uid = admin.lastUid;
        Reply btc = admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\"long\","
                + "\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.05\",\"price\":\"95000\",\"fee\":\"2.85\"}");
        ok(btc);
        ServerPool.clock(kind).advance(Duration.ofSeconds(5));
        ok(admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"ETHUSDT\",\"holdSide\":\"short\","
                + "\"marginMode\":\"crossed\",\"leverage\":\"20\",\"size\":\"1\",\"price\":\"3500\",\"fee\":\"2.1\"}"));
        Reply all = c.get(ALL + "?productType=USDT-FUTURES");
        ok(all);
        assertThat(all.data().isArray()).isTrue();
        assertThat(all.data()).extracting(n -> n.get("symbol").asText()).containsExactly("ETHUSDT", "BTCUSDT");
        all.data().forEach(item -> assertItem(item, "2.15"));
        assertThat(Long.parseLong(all.data().get(0).get("cTime").asText())).isGreaterThan(Long.parseLong(all.data().get(1).get("cTime").asText()));
        // The worked example of docs/formulas.md: 0.05 BTC long at 95000, 10x, mark 97258.8.
        JsonNode p = c.get(SINGLE + "?productType=USDT-FUTURES&symbol=BTCUSDT&marginCoin=usdt").data();
        assertThat(p).hasSize(1);
        JsonNode b = p.get(0);
        assertItem(b, "2.15");
        assertThat(b.get("marginCoin").asText()).isEqualTo("USDT");
        assertThat(b.get("holdSide").asText()).isEqualTo("long");
        assertThat(b.get("total").asText()).isEqualTo("0.05");
        assertThat(b.get("available").asText()).isEqualTo("0.05");
        assertThat(b.get("locked").asText()).isEqualTo("0");
        assertThat(b.get("marginSize").asText()).isEqualTo("475");
        assertThat(b.get("leverage").asText()).isEqualTo("10");
        assertThat(b.get("openPriceAvg").asText()).isEqualTo("95000");
        assertThat(b.get("markPrice").asText()).isEqualTo("97258.8");
        assertThat(b.get("unrealizedPL").asText()).isEqualTo("112.94");
        assertThat(b.get("marginRatio").asText()).isEqualTo("0.0330846");
        assertThat(b.get("liquidationPrice").asText()).isEqualTo("85843.37349398");
        assertThat(b.get("breakEvenPrice").asText()).isEqualTo("95057");
        assertThat(b.get("keepMarginRate").asText()).isEqualTo("0.004");
        assertThat(b.get("deductedFee").asText()).isEqualTo("2.85");
        assertThat(b.get("totalFee").asText()).isEmpty();
        assertThat(b.get("takeProfit").asText()).isEmpty();
        assertThat(b.get("stopLossId").asText()).isEmpty();
        assertThat(b.get("marginMode").asText()).isEqualTo("isolated");
        assertThat(b.get("posMode").asText()).isEqualTo("one_way_mode");
        assertThat(c.get(ALL + "?productType=USDT-FUTURES&marginCoin=BTC").data()).isEmpty();
        assertThat(c.get(ALL + "?productType=COIN-FUTURES").data()).isEmpty();
        assertThat(c.get(SINGLE + "?productType=USDT-FUTURES&symbol=ETHUSDT&marginCoin=BTC").data()).isEmpty();
        ServerPool.nextSecond(kind);
        assertError(c.get(SINGLE + "?productType=USDT-FUTURES&symbol=BTCUSDT"), "40019", "Parameter marginCoin cannot be empty");
        assertError(c.get(SINGLE), "40019", "Parameter productType,symbol,marginCoin cannot be empty");
        assertError(c.get(SINGLE + "?productType=SPOT&symbol=BTCUSDT&marginCoin=USDT"), "40020", "Parameter productType error");
        assertError(c.get(SINGLE + "?productType=USDT-FUTURES&symbol=NOPEUSDT&marginCoin=USDT"), "40034", "Parameter NOPEUSDT does not exist");
        assertError(c.get(ALL), "40019", "Parameter productType cannot be empty");
        assertError(c.get(ALL + "?productType=usdt-futures"), "40020", "Parameter productType error");
        assertError(c.get(ALL + "?productType=USDT-FUTURES&marginCoin=US%20DT"), "40020", "Parameter marginCoin error");
    }

    @Test
    void aPositionClosedThroughTheMoneyCoreBecomesHistoryAtItsCloseTime() {
        ApiClient c = account("CLASSIC", "10000");
        long uid = admin.lastUid;
        Reply opened = admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"holdSide\":\"long\","
                + "\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.1\",\"price\":\"95000\",\"fee\":\"5.7\"}");
        ok(opened);
        long openedAt = now();
        String id = opened.data().get("id").asText();
        ServerPool.clock(kind).advance(Duration.ofMinutes(10));
        ok(admin.post("/admin/v1/positions/" + id + "/fill", "{\"size\":\"-0.04\",\"price\":\"96000\",\"fee\":\"2.304\"}"));
        assertThat(c.get(V2).data().get("list")).isEmpty();
        ServerPool.clock(kind).advance(Duration.ofMinutes(10));
        ok(admin.post("/admin/v1/positions/" + id + "/close", "{\"price\":\"97000\",\"fee\":\"3.492\"}"));
        long closedAt = now();
        assertThat(c.get(ALL + "?productType=USDT-FUTURES").data()).isEmpty();
        JsonNode list = c.get(V2).data().get("list");
        assertThat(list).hasSize(1);
        JsonNode h = list.get(0);
        assertItem(h, "2.16");
        assertThat(h.get("positionId").asText()).isEqualTo(id);
        assertThat(h.get("ctime").asText()).isEqualTo(Long.toString(openedAt));
        assertThat(h.get("utime").asText()).isEqualTo(Long.toString(closedAt));
        // 0.04 x 1000 + 0.06 x 2000 = 160; close value 3840 + 5820 = 9660 over 0.1 = 96600.
        assertThat(h.get("pnl").asText()).isEqualTo("160");
        assertThat(h.get("openAvgPrice").asText()).isEqualTo("95000");
        assertThat(h.get("closeAvgPrice").asText()).isEqualTo("96600");
        assertThat(h.get("openTotalPos").asText()).isEqualTo("0.1");
        assertThat(h.get("closeTotalPos").asText()).isEqualTo("0.1");
        assertThat(h.get("openFee").asText()).isEqualTo("-5.7");
        assertThat(h.get("closeFee").asText()).isEqualTo("-5.796");
        assertThat(h.get("totalFunding").asText()).isEqualTo("0");
        assertThat(h.get("netProfit").asText()).isEqualTo("148.504");
        assertThat(c.get(V2).data().get("endId").asText()).isEqualTo(id);
    }

    @Test
    void everyFamilyGuardBothWays() {
        ApiClient classic = server.client(Credentials.CLASSIC);
        ApiClient main = server.client(Credentials.MAIN_RW);
        assertError(classic.get(V3 + "?category=USDT-FUTURES"), "40084");
        for (String path : new String[]{V2, ALL + "?productType=USDT-FUTURES", SINGLE + "?productType=USDT-FUTURES&symbol=BTCUSDT&marginCoin=USDT"}) {
            assertError(main.get(path), "40085");
            ok(classic.get(path));
        }
        ok(main.get(V3 + "?category=USDT-FUTURES"));
    }

    @Test
    void demoSeedItemsAreConsistent() {
        Iterator<JsonNode> it = server.client(Credentials.MAIN_RW).get(V3 + "?category=USDT-FUTURES&limit=100").data().get("list").elements();
        Set<String> symbols = new HashSet<>();
        while (it.hasNext()) {
            JsonNode n = it.next();
            symbols.add(n.get("symbol").asText());
            java.math.BigDecimal net = new java.math.BigDecimal(n.get("cumRealisedPnl").asText()).add(new java.math.BigDecimal(n.get("totalFunding").asText()))
                    .add(new java.math.BigDecimal(n.get("openFeeTotal").asText())).add(new java.math.BigDecimal(n.get("closeFeeTotal").asText()));
            assertThat(new java.math.BigDecimal(n.get("netProfit").asText())).isEqualByComparingTo(net);
            assertThat(Long.parseLong(n.get("createdTime").asText())).isLessThan(Long.parseLong(n.get("updatedTime").asText()));
            assertThat(n.get("category").asText()).isEqualTo("USDT-FUTURES");
        }
        assertThat(symbols).containsExactlyInAnyOrder("BTCUSDT", "ETHUSDT");
    }
}
