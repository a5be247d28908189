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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9 strategy orders (§2.19, §4.6) and the copy-trading profit summary (§2.21) over HTTP on H2 and PostgreSQL:
 * ingestion (all or nothing), history paging with a Number cursor, unfilled orders, JSON types against the spec's
 * tables, isolation between accounts, the family guard and the copy-trading permission.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class StrategyOrdersApiTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String HISTORY = "/api/v3/trade/history-strategy-orders";
    private static final String UNFILLED = "/api/v3/trade/unfilled-strategy-orders";
    private static final String SUMMARY = "/api/v3/copy/futures/profit-summary";
    private static final String[] TYPES = {"tpsl", "trigger", "oco", "trailing_stop", "iceberg", "twap"};
    @Parameter Databases.Kind kind;
    TestServer server;
    Admin admin;
    ApiClient main;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        admin = new Admin(server);
        main = server.client(Credentials.MAIN_RW);
    }

    /** A fresh unified account with a key holding uta_trade and copy_futures_order. */
    private ApiClient fresh() {
        String name = "strategy-" + kind + "-" + NAMES.incrementAndGet();
        long uid = admin.createAccount("{\"username\":\"" + name + "\"}");
        String key = admin.createKey(uid, "Strategy1", "read-and-write", "[\"uta_mgt\",\"uta_trade\",\"copy_futures_order\"]");
        admin.lastUid = uid;
        return server.client(new Credentials(key, admin.lastSecret, "Strategy1"));
    }

    /** One record of the given type and status, JSON. */
    static String order(String type, String status, String extra) {
        String params = switch (type) {
            case "tpsl" -> "\"triggerType\":\"takeProfit\",\"tpTriggerBy\":\"mark\",\"takeProfit\":\"98000\",\"tpOrderType\":\"market\"";
            case "trigger" -> "\"triggerBy\":\"market\",\"triggerPrice\":\"94000\",\"triggerOrderType\":\"limit\",\"triggerOrderPrice\":\"93990\"";
            case "oco" -> "\"ocoParams\":[{\"ocoLimitPrice\":\"96000\",\"ocoTriggerPrice\":\"93000\",\"ocoOrderType\":\"market\"}]";
            case "trailing_stop" -> "\"trailingStopParams\":[{\"activationPrice\":\"97000\",\"activationType\":\"index\",\"trailType\":\"spread\",\"trailVariance\":\"50\",\"preOrderType\":\"market\"}]";
            case "iceberg" -> "\"icebergParams\":[{\"splitMode\":\"order\",\"splitOrderNumbers\":\"4\",\"orderPreference\":\"fixed_price\",\"fixedPrice\":\"95000\"}]";
            case "twap" -> "\"twapParams\":[{\"duration\":\"30\",\"interval\":\"10\",\"orderType\":\"limit\",\"limitOffsetType\":\"spread\",\"limitOffsetPercentage\":\"0\",\"limitOffsetSpread\":\"1.5\",\"twapTriggerPrice\":\"95000.5\",\"twapTerminationPrice\":\"99000\"}]";
            default -> throw new IllegalArgumentException(type);
        };
        return "{\"type\":\"" + type + "\",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"qty\":\"0.01\",\"posSide\":\"long\",\"status\":\""
                + status + "\"," + params + extra + "}";
    }

    private Reply ingest(long uid, List<String> records) {
        return admin.post("/admin/v1/records/strategy-orders", "{\"uid\":" + uid + ",\"records\":[" + String.join(",", records) + "]}");
    }

    /** Ingests n finished orders (every type, statuses success/failed/cancelled) and returns their IDs. */
    private List<Long> ingestFinished(long uid, int n) {
        String[] statuses = {"success", "failed", "cancelled"};
        List<String> records = new ArrayList<>();
        for (int i = 0; i < n; i++) records.add(order(TYPES[i % 6], statuses[i % 3], ",\"createdAgoMs\":" + (1000L * (n - i))));
        Reply r = ingest(uid, records);
        ok(r);
        List<Long> ids = new ArrayList<>();
        r.data().get("orderIds").forEach(id -> ids.add(Long.parseLong(id.asText())));
        assertThat(ids).hasSize(n);
        return ids;
    }

    private Reply get(ApiClient c, String target, int[] calls) {
        if (++calls[0] % 15 == 0) ServerPool.nextSecond(kind); // 20/s/UID (§8)
        return c.get(target);
    }

    /** Walks every page; returns the IDs in order and checks the cursor rules (D65). */
    private List<Long> walk(ApiClient c, String query, int limit) {
        List<Long> seen = new ArrayList<>();
        int[] calls = {0};
        Long cursor = null;
        while (true) {
            String target = HISTORY + "?" + query + (limit > 0 ? "&limit=" + limit : "") + (cursor == null ? "" : "&cursor=" + cursor);
            Reply r = get(c, target, calls);
            ok(r);
            JsonNode list = r.data().get("list");
            JsonNode next = r.data().get("cursor");
            assertThat(list.isArray()).isTrue();
            if (list.isEmpty()) {
                assertThat(next.isNull()).as("end marker: an empty page carries cursor null").isTrue();
                return seen;
            }
            assertThat(list.size()).isLessThanOrEqualTo(limit > 0 ? limit : 100);
            assertThat(next.isIntegralNumber()).as("cursor is a JSON Number").isTrue();
            assertThat(next.asLong()).isLessThan(1L << 53); // exact in a JavaScript client
            list.forEach(o -> seen.add(Long.parseLong(o.get("orderId").asText())));
            cursor = next.asLong();
            assertThat(seen.size()).isLessThan(10_000);
        }
    }

    private static void assertStrictlyDescending(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) assertThat(ids.get(i)).isLessThan(ids.get(i - 1));
    }

    // --- paging

    @Test
    void historyWalkWithLimitOneReturnsEveryFinishedOrderOnceNewestFirst() {
        ApiClient c = fresh();
        long uid = admin.lastUid;
        List<Long> ids = ingestFinished(uid, 31);
        ok(ingest(uid, List.of(order("oco", "pending", ""), order("twap", "submitting", ""))));
        List<Long> walked = walk(c, "category=USDT-FUTURES", 1);
        assertStrictlyDescending(walked);
        assertThat(new HashSet<>(walked)).hasSize(walked.size());
        assertThat(walked).containsExactlyElementsOf(ids.reversed());
        // limit 7: the same orders, pages of 7 and a short last one, then the empty end page
        assertThat(walk(c, "category=USDT-FUTURES", 7)).containsExactlyElementsOf(ids.reversed());
        // type filter
        assertThat(walk(c, "category=USDT-FUTURES&type=iceberg", 2)).hasSize(5);
        // other categories hold none of them
        assertThat(walk(c, "category=COIN-FUTURES", 0)).isEmpty();
        assertThat(walk(c, "category=SPOT", 0)).isEmpty();
    }

    @Test
    void demoHistoryHasSeveralPagesAtTheDefaultLimitAndDefaultsAndMaximaAreEnforced() {
        List<Long> all = walk(main, "category=USDT-FUTURES", 0);
        assertThat(all).hasSize(135);
        assertStrictlyDescending(all);
        Reply first = main.get(HISTORY + "?category=USDT-FUTURES");
        assertThat(first.data().get("list")).hasSize(100); // default 100
        assertThat(main.get(HISTORY + "?category=USDT-FUTURES&limit=100").data().get("list")).hasSize(100);
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&limit=101"), "40020", "Parameter limit error");
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&limit=0"), "40020", "Parameter limit error");
        assertError(main.get(HISTORY), "40019", "Parameter category cannot be empty");
        assertError(main.get(UNFILLED), "40019", "Parameter category cannot be empty");
        assertError(main.get(HISTORY + "?category=usdt-futures"), "40020", "Parameter category error");
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&type=bracket"), "40020", "Parameter type error");
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&cursor=abc"), "40020", "Parameter cursor error");
        ServerPool.nextSecond(kind);
        assertError(main.get(UNFILLED + "?category=USDT-FUTURES&type=bracket"), "40020", "Parameter type error");
        assertThat(walk(main, "category=COIN-FUTURES", 0)).hasSize(15);
        // every type is in the demo history
        Set<String> types = new HashSet<>();
        main.get(HISTORY + "?category=USDT-FUTURES").data().get("list").forEach(o -> types.add(typeOf(o)));
        assertThat(types).containsExactlyInAnyOrder(TYPES);
    }

    /** Issue 24: a lone endTime reads the 90 days up to it (D137); every endTime before now was 40017. */
    @Test
    void aLoneEndTimeReadsUpToIt() {
        ApiClient c = fresh();
        long uid = admin.lastUid;
        long day = 86_400_000L;
        long[] ages = {day, 30 * day, 61 * day, 89 * day};
        List<String> records = new ArrayList<>();
        for (long age : ages) records.add(order("tpsl", "success", ",\"createdAgoMs\":" + age));
        Reply r = ingest(uid, records);
        ok(r);
        List<Long> ids = new ArrayList<>();
        r.data().get("orderIds").forEach(id -> ids.add(Long.parseLong(id.asText())));
        long now = server.clock.millis();
        assertThat(walk(c, "category=USDT-FUTURES&endTime=" + (now - 1), 0)).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(walk(c, "category=USDT-FUTURES&endTime=" + (now - 2 * day), 0)).containsExactlyInAnyOrder(ids.get(1), ids.get(2), ids.get(3));
        assertThat(walk(c, "category=USDT-FUTURES&endTime=" + (now - 62 * day), 0)).containsExactly(ids.get(3));
        assertThat(walk(c, "category=USDT-FUTURES&endTime=" + (now - 90 * day), 0)).isEmpty();
    }

    @Test
    void windowViolationsAre40017() {
        long now = server.clock.millis();
        long day = 86_400_000L;
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&startTime=" + now + "&endTime=" + (now - 1)), "40017",
                "Parameter verification failed startTime is after endTime");
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&startTime=" + (now - 91 * day) + "&endTime=" + now), "40017",
                "Parameter verification failed time range between startTime and endTime exceeds 90 days");
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&startTime=" + (now - 95 * day) + "&endTime=" + (now - 94 * day)), "40017",
                "Parameter verification failed startTime is older than 90 days");
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&startTime=yesterday"), "40020", "Parameter startTime error");
        // a window that is allowed filters on createdTime: the demo's last 24 hours hold fewer orders than all of them
        Reply lastDay = main.get(HISTORY + "?category=USDT-FUTURES&startTime=" + (now - day) + "&endTime=" + now);
        ok(lastDay);
        assertThat(lastDay.data().get("list").size()).isBetween(1, 99);
        lastDay.data().get("list").forEach(o -> assertThat(Long.parseLong(o.get("createdTime").asText())).isBetween(now - day, now));
    }

    // --- unfilled

    @Test
    void unfilledServesWorkingOrdersOfTheCategoryAndType() {
        Reply r = main.get(UNFILLED + "?category=USDT-FUTURES");
        ok(r);
        assertThat(r.data().isArray()).isTrue();
        assertThat(r.data()).hasSize(6);
        Set<String> types = new HashSet<>();
        List<Long> ids = new ArrayList<>();
        r.data().forEach(o -> {
            assertThat(o.get("status").asText()).isIn("pending", "submitting");
            assertThat(o.has("triggerType")).as("triggerType is listed in the history only").isFalse();
            types.add(typeOf(o));
            ids.add(Long.parseLong(o.get("orderId").asText()));
        });
        assertThat(types).containsExactlyInAnyOrder(TYPES);
        assertStrictlyDescending(ids);
        assertThat(main.get(UNFILLED + "?category=USDT-FUTURES&type=twap").data()).hasSize(1);
        assertThat(main.get(UNFILLED + "?category=COIN-FUTURES").data()).isEmpty();
        assertThat(main.get(UNFILLED + "?category=MARGIN").data()).isEmpty();
    }

    // --- JSON types against §2.19 / §2.21

    /** §2.19: every field a string, the parameter lists arrays of objects. */
    private static final List<String> ORDER_STRINGS = List.of("orderId", "clientOid", "category", "symbol", "qty", "posSide", "status",
            "tpTriggerBy", "slTriggerBy", "takeProfit", "stopLoss", "tpOrderType", "slOrderType", "tpLimitPrice", "slLimitPrice",
            "triggerBy", "triggerPrice", "triggerOrderType", "triggerOrderPrice", "createdTime", "updatedTime");
    private static final Map<String, Map<String, String>> PARAM_TYPES = Map.of(
            "ocoParams", Map.of("ocoLimitPrice", "string", "ocoTriggerPrice", "string", "ocoOrderType", "string", "ocoOrderPrice", "string"),
            "trailingStopParams", Map.of("activationPrice", "string", "activationType", "string", "trailType", "string",
                    "trailVariance", "string", "preOrderType", "string", "preOrderPrice", "string"),
            "icebergParams", Map.ofEntries(entry("splitMode", "string"), entry("qtyPerOrder", "string"), entry("splitOrderNumbers", "string"),
                    entry("orderPreference", "string"), entry("executionStrategy", "string"), entry("fixedDistanceType", "string"),
                    entry("distance", "string"), entry("fixedPrice", "string"), entry("priceLimit", "string")),
            "twapParams", Map.of("duration", "string", "interval", "string", "orderType", "string", "limitOffsetType", "number",
                    "limitOffsetPercentage", "number", "limitOffsetSpread", "number", "twapTriggerPrice", "number",
                    "twapTerminationPrice", "number"));

    private static String jsonType(JsonNode n) {
        if (n == null) return "absent";
        if (n.isTextual()) return "string";
        if (n.isNumber()) return "number";
        if (n.isBoolean()) return "boolean";
        if (n.isArray()) return "array";
        if (n.isObject()) return "object";
        return "null";
    }

    private static String typeOf(JsonNode o) {
        for (String f : PARAM_TYPES.keySet()) {
            if (o.has(f)) return switch (f) {
                case "ocoParams" -> "oco";
                case "trailingStopParams" -> "trailing_stop";
                case "icebergParams" -> "iceberg";
                default -> "twap";
            };
        }
        return o.get("triggerPrice").asText().isEmpty() ? "tpsl" : "trigger";
    }

    private static void assertItemTypes(JsonNode o, boolean history) {
        for (String f : ORDER_STRINGS) assertThat(jsonType(o.get(f))).as(f).isEqualTo("string");
        assertThat(jsonType(o.get("triggerType"))).as("triggerType").isEqualTo(history ? "string" : "absent");
        int lists = 0;
        for (var e : PARAM_TYPES.entrySet()) {
            JsonNode list = o.get(e.getKey());
            if (list == null) continue;
            lists++;
            assertThat(jsonType(list)).as(e.getKey()).isEqualTo("array");
            assertThat(list).isNotEmpty();
            for (JsonNode item : list) {
                assertThat(jsonType(item)).isEqualTo("object");
                Set<String> names = new HashSet<>();
                item.fieldNames().forEachRemaining(names::add);
                assertThat(names).isEqualTo(e.getValue().keySet());
                e.getValue().forEach((field, type) -> assertThat(jsonType(item.get(field))).as(e.getKey() + "." + field).isEqualTo(type));
            }
        }
        assertThat(lists).as("at most the type's own parameter list").isLessThanOrEqualTo(1);
        int expected = ORDER_STRINGS.size() + (history ? 1 : 0) + lists;
        assertThat(o.size()).as("no other fields").isEqualTo(expected);
    }

    @Test
    void everyFieldHasTheSpecsJsonType() {
        Reply h = main.get(HISTORY + "?category=USDT-FUTURES");
        ok(h);
        assertThat(jsonType(h.data())).isEqualTo("object");
        assertThat(jsonType(h.data().get("list"))).isEqualTo("array");
        assertThat(jsonType(h.data().get("cursor"))).isEqualTo("number");
        h.data().get("list").forEach(o -> assertItemTypes(o, true));
        Reply u = main.get(UNFILLED + "?category=USDT-FUTURES");
        assertThat(jsonType(u.data())).isEqualTo("array");
        u.data().forEach(o -> assertItemTypes(o, false));
        // twap Numbers and the limitOffsetType code (1 percentage, 2 spread) read back exactly
        JsonNode twap = u.data().findParents("twapParams").getFirst().get("twapParams").get(0);
        assertThat(twap.get("limitOffsetType").asInt()).isEqualTo(1);
        assertThat(twap.get("limitOffsetPercentage").decimalValue()).isEqualByComparingTo("0.002");
        assertThat(twap.get("duration").asText()).isEqualTo("60");

        ServerPool.nextSecond(kind);
        Reply s = main.get(SUMMARY);
        ok(s);
        assertThat(s.data().size()).isEqualTo(3);
        for (String f : List.of("totalProfit", "totalAllocatedProfit", "totalPendingProfit")) {
            assertThat(jsonType(s.data().get(f))).as(f).isEqualTo("string");
        }
        assertThat(s.data().get("totalProfit").asText()).isEqualTo("1523.46");
    }

    @Test
    void ingestedFieldsReadBackExactly() {
        ApiClient c = fresh();
        ok(ingest(admin.lastUid, List.of(order("twap", "success", ",\"clientOid\":\"mine-1\",\"createdTime\":" + (server.clock.millis() - 5000)
                + ",\"updatedTime\":" + (server.clock.millis() - 1000)))));
        JsonNode o = c.get(HISTORY + "?category=USDT-FUTURES").data().get("list").get(0);
        assertThat(o.get("clientOid").asText()).isEqualTo("mine-1");
        assertThat(o.get("qty").asText()).isEqualTo("0.01");
        assertThat(o.get("triggerType").asText()).isEmpty();
        assertThat(o.get("takeProfit").asText()).isEmpty();
        JsonNode twap = o.get("twapParams").get(0);
        assertThat(twap.get("limitOffsetType").asInt()).isEqualTo(2);
        assertThat(twap.get("limitOffsetSpread").decimalValue()).isEqualByComparingTo("1.5");
        assertThat(twap.get("twapTriggerPrice").decimalValue()).isEqualByComparingTo("95000.5");
        assertThat(Long.parseLong(o.get("updatedTime").asText()) - Long.parseLong(o.get("createdTime").asText())).isEqualTo(4000);
        // a given orderId is kept
        ok(ingest(admin.lastUid, List.of(order("tpsl", "cancelled", ",\"orderId\":77"))));
        assertThat(c.get(HISTORY + "?category=USDT-FUTURES&type=tpsl").data().get("list").get(0).get("orderId").asText()).isEqualTo("77");
        assertError(ingest(admin.lastUid, List.of(order("tpsl", "cancelled", ",\"orderId\":77"))), "40017",
                "Parameter verification failed records[0].orderId already exists");
    }

    // --- ingestion: all or nothing

    @Test
    void aBatchWithOneBadRecordStoresNothing() {
        ApiClient c = fresh();
        long uid = admin.lastUid;
        List<String> good = new ArrayList<>();
        for (int i = 0; i < 5; i++) good.add(order(TYPES[i], "success", ""));
        Map<String, String[]> bad = Map.of(
                order("oco", "done", ""), new String[]{"40020", "Parameter records[3].status error"},
                order("oco", "success", ",\"twapParams\":[{\"duration\":\"1\",\"interval\":\"1\",\"orderType\":\"market\"}]"),
                new String[]{"40017", "Parameter verification failed records[3].twapParams is not allowed for type oco"},
                "{\"type\":\"twap\",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\",\"qty\":\"1\",\"posSide\":\"long\",\"status\":\"success\"}",
                new String[]{"40017", "Parameter verification failed records[3].twapParams is required for type twap"},
                order("tpsl", "success", ",\"qty\":\"0.0000000000000000001\"").replace("\"qty\":\"0.01\",", ""),
                new String[]{"40808", "Parameter verification exception records[3].qty checkBDScale error value=0.0000000000000000001 checkScale=18"},
                order("tpsl", "success", ",\"createdTime\":2000,\"updatedTime\":1000"),
                new String[]{"40017", "Parameter verification failed records[3].createdTime is after records[3].updatedTime"},
                order("oco", "success", "").replace("\"ocoOrderType\":\"market\"", "\"ocoOrderType\":\"stop\""),
                new String[]{"40020", "Parameter records[3].ocoParams[0].ocoOrderType error"},
                order("trigger", "success", "").replace("\"triggerPrice\":\"94000\"", "\"triggerPrice\":\"cheap\""),
                new String[]{"40020", "Parameter records[3].triggerPrice error"},
                order("tpsl", "success", "").replace("\"category\":\"USDT-FUTURES\"", "\"category\":\"SPOT\""),
                new String[]{"40020", "Parameter records[3].category error"});
        for (var e : bad.entrySet()) {
            List<String> batch = new ArrayList<>(good.subList(0, 3));
            batch.add(e.getKey());
            batch.add(good.get(4));
            assertError(ingest(uid, batch), e.getValue()[0], e.getValue()[1]);
        }
        assertThat(c.get(HISTORY + "?category=USDT-FUTURES").data().get("list")).isEmpty();
        assertThat(c.get(UNFILLED + "?category=USDT-FUTURES").data()).isEmpty();
        ok(ingest(uid, good));
        assertThat(c.get(HISTORY + "?category=USDT-FUTURES").data().get("list")).hasSize(5);
    }

    @Test
    void aBatchOfThousandsIsStoredInOneCall() {
        ApiClient c = fresh();
        long uid = admin.lastUid;
        List<Long> ids = ingestFinished(uid, 2000);
        assertStrictlyDescending(ids.reversed());
        List<Long> walked = walk(c, "category=USDT-FUTURES", 100);
        assertThat(walked).containsExactlyElementsOf(ids.reversed());
    }

    // --- isolation, family, permission

    @Test
    void anotherAccountsOrdersNeverAppear() {
        ApiClient a = fresh();
        long uidA = admin.lastUid;
        List<Long> idsA = ingestFinished(uidA, 3);
        ok(ingest(uidA, List.of(order("oco", "pending", ""))));
        List<Long> mainIds = walk(main, "category=USDT-FUTURES", 100);
        assertThat(mainIds).doesNotContainAnyElementsOf(idsA);
        main.get(UNFILLED + "?category=USDT-FUTURES").data()
                .forEach(o -> assertThat(o.get("clientOid").asText()).startsWith("demo-"));
        // A's cursor means nothing to the main account
        long cursorA = a.get(HISTORY + "?category=USDT-FUTURES&limit=1").data().get("cursor").asLong();
        assertError(main.get(HISTORY + "?category=USDT-FUTURES&cursor=" + cursorA), "40020", "Parameter cursor error");
        // a sub-account's orders are its own: the parent does not see them, and it does not see the parent's
        ApiClient sub = server.client(Credentials.SUB);
        List<Long> subIds = ingestFinished(1000000002L, 2);
        assertThat(walk(sub, "category=USDT-FUTURES", 100)).containsAll(subIds).doesNotContainAnyElementsOf(mainIds);
        assertThat(walk(main, "category=USDT-FUTURES", 100)).doesNotContainAnyElementsOf(subIds);
    }

    @Test
    void familyGuardBothWays() {
        ApiClient classic = server.client(Credentials.CLASSIC);
        String v3 = "You are in Classic Account mode, and the Unified Account API is not supported at this time";
        assertError(classic.get(HISTORY + "?category=USDT-FUTURES"), "40084", v3);
        assertError(classic.get(UNFILLED + "?category=USDT-FUTURES"), "40084", v3);
        // records of the v3 rows are for unified accounts only
        assertError(ingest(1000000005L, List.of(order("tpsl", "success", ""))), "40017",
                "Parameter verification failed uid 1000000005 is a classic account; strategy orders are served by the unified (v3) rows only");
        assertError(ingest(999L, List.of(order("tpsl", "success", ""))), "40034", "Parameter uid does not exist");
        // the unified key is served
        ok(main.get(HISTORY + "?category=USDT-FUTURES&limit=1"));
        // the profit summary is open to both kinds (D6): the classic demo key lacks copy_futures_order
        assertError(classic.get(SUMMARY), "40014", "Incorrect permissions, need copy_futures_order permissions");
    }

    @Test
    void profitSummaryNeedsCopyTradingPermissionAndDefaultsToZeros() {
        assertError(server.client(Credentials.MAIN_RO).get(SUMMARY), "40014", "Incorrect permissions, need copy_futures_order permissions");
        ApiClient c = fresh();
        long uid = admin.lastUid;
        Reply zero = c.get(SUMMARY);
        ok(zero);
        assertThat(zero.data().toString()).isEqualTo("{\"totalProfit\":\"0\",\"totalAllocatedProfit\":\"0\",\"totalPendingProfit\":\"0\"}");
        ok(admin.post("/admin/v1/records/profit-summary", "{\"uid\":" + uid
                + ",\"totalProfit\":\"-12.50\",\"totalAllocatedProfit\":\"3\",\"totalPendingProfit\":\"0.25\"}"));
        ServerPool.nextSecond(kind);
        assertThat(c.get(SUMMARY).data().toString())
                .isEqualTo("{\"totalProfit\":\"-12.5\",\"totalAllocatedProfit\":\"3\",\"totalPendingProfit\":\"0.25\"}");
        ok(admin.post("/admin/v1/records/profit-summary", "{\"uid\":" + uid
                + ",\"totalProfit\":\"20\",\"totalAllocatedProfit\":\"4\",\"totalPendingProfit\":\"1\"}"));
        ServerPool.nextSecond(kind);
        assertThat(c.get(SUMMARY).data().get("totalProfit").asText()).isEqualTo("20");
        assertThat(c.get(SUMMARY).code()).isEqualTo("429"); // 1/s/UID (§8)
        assertError(admin.post("/admin/v1/records/profit-summary", "{\"uid\":" + uid
                + ",\"totalProfit\":\"1\",\"totalAllocatedProfit\":\"-1\",\"totalPendingProfit\":\"0\"}"), "40020", "Parameter totalAllocatedProfit error");
        assertError(admin.post("/admin/v1/records/profit-summary", "{\"uid\":" + uid
                + ",\"totalProfit\":\"1\",\"totalAllocatedProfit\":\"0.1234567890123456789\",\"totalPendingProfit\":\"0\"}"), "40808");
        // the unified row's key without uta permissions but with copy_futures_order works on a classic account too
        String key = admin.createKey(1000000005L, "Copy1", "read-only", "[\"copy_futures_order\"]");
        ok(server.client(new Credentials(key, admin.lastSecret, "Copy1")).get(SUMMARY));
    }

    @Test
    void aWorkingStrategyOrderBlocksSetHoldMode() {
        ApiClient c = fresh();
        long uid = admin.lastUid;
        ok(ingest(uid, List.of(order("trigger", "success", ""))));
        ok(c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}"));
        ok(ingest(uid, List.of(order("trigger", "pending", ""))));
        ServerPool.nextSecond(kind);
        assertError(c.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"one_way_mode\"}"), "25010", "Unsupported position mode switch");
    }

    @Test
    void aWorkingStrategyOrderFailsTheSwitchToClassic() {
        ApiClient c = fresh();
        long uid = admin.lastUid;
        ok(ingest(uid, List.of(order("oco", "pending", ""), order("twap", "submitting", ""), order("tpsl", "success", ""))));
        ok(c.post("/api/v3/account/switch", "{}"));
        ok(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":60000}"));
        ok(admin.post("/admin/v1/jobs/run-due", ""));
        JsonNode status = c.get("/api/v3/account/switch-status").data();
        assertThat(status.get("status").asText()).isEqualTo("fail");
        assertThat(status.get("reason").asText()).isEqualTo("the account has 2 pending strategy orders");
        ServerPool.nextSecond(kind);
        ok(c.get(HISTORY + "?category=USDT-FUTURES")); // still unified
    }
}
