package io.tas.api;

import io.tas.http.Endpoint;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.ServerPool;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24 item 2: the startTime/endTime rules of every catalog row that takes them (D137), one table over every row
 * and every shape of window (start only, end only, both, neither, the edges of the 90-day access window and of each
 * row's longest range, start after end, ends in the future, an old start with a recent end) and garbage times, on a
 * real server over H2 and PostgreSQL. The rules are written out here from the spec (§4.2, §4.4.1, §4.4.2, §4.5.1,
 * §4.5.2, §8), D67 and beyond-spec shapes §9-11, not read from the service's TimeWindow. Every case runs at a clock
 * second of its own (a fresh rate-limit window), with "now" read from the server's clock just before it.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class HistoryWindowsApiTest extends SharedServerTest {
    private static final long DAY = 86_400_000L;
    private static final long WINDOW = 90 * DAY; // §4 / §8: "access window is 90 days", "only data within 90 days"

    /** What a startTime older than 90 days gets: refused (the v3 rows), moved up to the window (the v2 rows), or no bound (records). */
    enum Old { REFUSE, CLAMP, NONE }

    /** A windowed row as a client calls it: its required parameters, whose key, its age rule and longest range (0: none). */
    record Row(Endpoint endpoint, String query, Credentials who, Old old, long maxRange) {
        boolean required() { return old == Old.NONE; }
        String rangeError() { return "40017 Parameter verification failed time range between startTime and endTime exceeds " + maxRange / DAY + " days"; }
        @Override public String toString() { return endpoint.name(); }
    }

    static final List<Row> ROWS = List.of(
            new Row(Endpoint.SMALL_ASSETS_HISTORY, "", Credentials.MAIN_RW, Old.REFUSE, 30 * DAY),               // §4.2
            new Row(Endpoint.HISTORY_POSITION_V3, "category=USDT-FUTURES", Credentials.MAIN_RW, Old.REFUSE, 30 * DAY), // §4.4.1
            new Row(Endpoint.HISTORY_POSITION_V2, "", Credentials.CLASSIC, Old.CLAMP, 90 * DAY),                  // §4.4.2
            new Row(Endpoint.SPOT_FILLS, "", Credentials.CLASSIC, Old.CLAMP, 90 * DAY),                           // §4.5.1
            new Row(Endpoint.WITHDRAWAL_RECORDS, "", Credentials.CLASSIC, Old.NONE, 0),                           // §4.5.2
            new Row(Endpoint.HISTORY_STRATEGY_ORDERS, "category=USDT-FUTURES", Credentials.MAIN_RW, Old.REFUSE, 90 * DAY), // D67
            new Row(Endpoint.UTA_FILLS, "", Credentials.MAIN_RW, Old.REFUSE, 30 * DAY),                           // shapes §9
            new Row(Endpoint.UTA_WITHDRAWAL_RECORDS, "", Credentials.MAIN_RW, Old.NONE, 0),                       // shapes §11
            new Row(Endpoint.UTA_DEPOSIT_RECORDS, "", Credentials.MAIN_RW, Old.NONE, 0),                          // shapes §10
            new Row(Endpoint.HISTORY_ORDERS, "category=SPOT", Credentials.MAIN_RW, Old.REFUSE, 90 * DAY),         // issue 25
            // Issue 26, classic order history: the v3 row's window (D172).
            new Row(Endpoint.SPOT_HISTORY_ORDERS, "symbol=BTCUSDT", Credentials.CLASSIC, Old.REFUSE, 90 * DAY),
            new Row(Endpoint.MIX_ORDERS_HISTORY, "productType=USDT-FUTURES", Credentials.CLASSIC, Old.REFUSE, 90 * DAY),
            new Row(Endpoint.MIX_FILLS, "productType=USDT-FUTURES", Credentials.CLASSIC, Old.REFUSE, 30 * DAY),   // as v3 fills
            // Issue 26, public trades: "within 90 days", a range "within 7 days" (spot Get-Market-Trades, contract
            // Get-Fills-History); the v2 habit of moving an old start up (D184).
            new Row(Endpoint.V2_SPOT_FILLS_HISTORY, "symbol=BTCUSDT", Credentials.MAIN_RW, Old.CLAMP, 7 * DAY),
            new Row(Endpoint.V2_MIX_FILLS_HISTORY, "productType=USDT-FUTURES&symbol=BTCUSDT", Credentials.MAIN_RW, Old.CLAMP, 7 * DAY));

    private static final String OK = null;
    private static final String AFTER = "40017 Parameter verification failed startTime is after endTime";
    private static final String START_OLD = "40017 Parameter verification failed startTime is older than 90 days";
    private static final String END_OLD = "40017 Parameter verification failed endTime is older than 90 days";

    /** The ends a case sends (null: left out), from the server's now and the row; expect: null (success) or "code msg". */
    record Case(String name, Ends ends, Function<Row, String> expect) {}

    interface Ends { Long[] at(long now, Row row); }

    private static Case startOnly(String name, Function<Long, Long> start, Function<Row, String> expect) {
        return new Case(name, (n, r) -> new Long[]{start.apply(n), null}, r -> r.required() ? "40019 Parameter endTime cannot be empty" : expect.apply(r));
    }

    private static Case endOnly(String name, Function<Long, Long> end, Function<Row, String> expect) {
        return new Case(name, (n, r) -> new Long[]{null, end.apply(n)}, r -> r.required() ? "40019 Parameter startTime cannot be empty" : expect.apply(r));
    }

    private static Case both(String name, Ends ends, Function<Row, String> expect) { return new Case(name, ends, expect); }

    /** A row's longest range; the record rows have none, so a year stands for "long". */
    private static long longest(Row r) { return r.maxRange() == 0 ? 365 * DAY : r.maxRange(); }

    static final List<Case> CASES = List.of(
            new Case("neither", (n, r) -> new Long[]{null, null}, r -> r.required() ? "40019 Parameter startTime,endTime cannot be empty" : OK),
            startOnly("start only, a day ago", n -> n - DAY, r -> OK),
            startOnly("start only, exactly 90 days old", n -> n - WINDOW, r -> OK),
            startOnly("start only, 90 days + 1 ms old", n -> n - WINDOW - 1, r -> r.old() == Old.REFUSE ? START_OLD : OK),
            startOnly("start only, the epoch", n -> 0L, r -> r.old() == Old.REFUSE ? START_OLD : OK),
            startOnly("start only, in the future", n -> n + DAY, r -> OK),
            startOnly("start only, the largest time accepted", n -> 999_999_999_999_999L, r -> OK),
            // The reported defects: strategy history refused every endTime before now; the 30-day v3 rows one over 60 days old.
            endOnly("end only, 1 ms ago", n -> n - 1, r -> OK),
            endOnly("end only, a day ago", n -> n - DAY, r -> OK),
            endOnly("end only, 61 days old", n -> n - 61 * DAY, r -> OK),
            endOnly("end only, 89 days old", n -> n - 89 * DAY, r -> OK),
            endOnly("end only, exactly 90 days old", n -> n - WINDOW, r -> OK),
            endOnly("end only, 90 days + 1 ms old", n -> n - WINDOW - 1, r -> r.old() == Old.REFUSE ? END_OLD : OK),
            endOnly("end only, the epoch", n -> 0L, r -> r.old() == Old.REFUSE ? END_OLD : OK),
            endOnly("end only, now", n -> n, r -> OK),
            endOnly("end only, in the future", n -> n + DAY, r -> OK),
            endOnly("end only, the largest time accepted", n -> 999_999_999_999_999L, r -> OK),
            both("both, the last day", (n, r) -> new Long[]{n - DAY, n}, r -> OK),
            both("both, one instant", (n, r) -> new Long[]{n - DAY, n - DAY}, r -> OK),
            both("both, start 1 ms after end", (n, r) -> new Long[]{n - DAY + 1, n - DAY}, r -> AFTER),
            both("both, exactly the longest range", (n, r) -> new Long[]{n - longest(r), n}, r -> OK),
            both("both, the longest range + 1 ms", (n, r) -> new Long[]{n - longest(r) - 1, n}, r -> r.required() ? OK : r.rangeError()),
            both("both, the longest range ending a day ago", (n, r) -> new Long[]{n - DAY - longest(r), n - DAY},
                    r -> r.old() == Old.REFUSE && r.maxRange() == WINDOW ? START_OLD : OK),
            both("both, end in the future", (n, r) -> new Long[]{n - DAY, n + DAY}, r -> OK),
            both("both, start exactly 90 days old", (n, r) -> new Long[]{n - WINDOW, n - WINDOW + DAY}, r -> OK),
            both("both, start 90 days + 1 ms old, end inside", (n, r) -> new Long[]{n - WINDOW - 1, n - WINDOW + DAY},
                    r -> r.old() == Old.REFUSE ? START_OLD : OK),
            both("both, wholly before the 90 days", (n, r) -> new Long[]{n - 100 * DAY, n - 95 * DAY}, r -> r.old() == Old.REFUSE ? START_OLD : OK),
            both("both, the epoch to a day later", (n, r) -> new Long[]{0L, DAY}, r -> r.old() == Old.REFUSE ? START_OLD : OK));

    /** Values no time parameter takes: 40020 naming it, whatever the row. */
    static final List<String> GARBAGE = List.of("abc", "-1", "-0", "+1", " 1", "1 ", "1.5", "1e3", "0x10", "NaN", "Infinity", "１０", "٣",
            "9".repeat(16), "9".repeat(20), "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1" + "0".repeat(400),
            "[1]", "{}", "true", "null", "🙂", "1700000000000\u0000");

    /** The row called with the query made from the server's now, in a fresh one-second window (§8: 10/s on the record rows). */
    private Reply call(Row row, Function<Long, String> query) {
        ServerPool.nextSecond(kind);
        String q = join(row.query(), query.apply(server.clock.millis()));
        return server.client(row.who()).get(row.endpoint().path() + (q.isEmpty() ? "" : "?" + q));
    }

    private static String param(String name, Long v) { return v == null ? "" : name + "=" + v; }

    private static String join(String a, String b) { return a.isEmpty() ? b : b.isEmpty() ? a : a + "&" + b; }

    @Test
    void everyWindowedRowAnswersEveryWindowAsItsRuleSays() {
        admin.settleJobs(); // D96: no due job lands between the two hashes
        String before = admin.stateHash();
        List<String> wrong = new ArrayList<>();
        for (Row row : ROWS) {
            for (Case c : CASES) {
                String expected = c.expect().apply(row);
                Reply r = call(row, now -> {
                    Long[] t = c.ends().at(now, row);
                    return join(param("startTime", t[0]), param("endTime", t[1]));
                });
                assertThat(r.status()).as(row + " " + c.name() + ": " + r.raw()).isIn(200, 400);
                String got = r.code().equals("00000") ? null : r.code() + " " + r.msg();
                if (expected == null) {
                    if (got != null) wrong.add(row + " / " + c.name() + ": expected success, got " + got);
                    else ok(r);
                } else if (!expected.equals(got)) {
                    wrong.add(row + " / " + c.name() + ": expected " + expected + ", got " + (got == null ? "success" : got));
                } else {
                    assertError(r, expected.substring(0, expected.indexOf(' ')), expected.substring(expected.indexOf(' ') + 1));
                }
            }
        }
        assertThat(wrong).as("cases answered against the row's rule").isEmpty();
        assertThat(admin.stateHash()).as("reads, refused or not, change nothing").isEqualTo(before);
    }

    @Test
    void garbageTimesAre40020NamingTheParameterAndChangeNothing() {
        admin.settleJobs();
        String before = admin.stateHash();
        for (Row row : ROWS) {
            for (String g : GARBAGE) {
                String v = URLEncoder.encode(g, StandardCharsets.UTF_8);
                Reply start = call(row, now -> "startTime=" + v + "&endTime=" + now);
                assertThat(start.status()).as(row + " startTime=" + g + ": " + start.raw()).isEqualTo(400);
                assertError(start, "40020", "Parameter startTime error");
                Reply end = call(row, now -> "startTime=" + (now - DAY) + "&endTime=" + v);
                assertThat(end.status()).as(row + " endTime=" + g + ": " + end.raw()).isEqualTo(400);
                assertError(end, "40020", "Parameter endTime error");
            }
            // An empty value is a value left out (as every parameter, wire facts §7).
            Reply empty = call(row, now -> "startTime=&endTime=");
            if (row.required()) assertError(empty, "40019", "Parameter startTime,endTime cannot be empty");
            else ok(empty);
        }
        assertThat(admin.stateHash()).as("refused reads change nothing").isEqualTo(before);
    }

    /**
     * The table above is the whole set: every other GET row of the catalog ignores startTime and endTime (a row that read
     * them with its own rule would answer a garbage time with 40020), and every row above is a GET row of the catalog.
     */
    @Test
    void noOtherRowReadsTimes() {
        Set<Endpoint> windowed = ROWS.stream().map(Row::endpoint).collect(Collectors.toSet());
        String params = "category=USDT-FUTURES&productType=USDT-FUTURES&symbol=BTCUSDT&marginCoin=USDT&coin=USDT"
                + "&marginMode=crossed&leverage=10&startTime=abc&endTime=abc";
        for (Endpoint e : Endpoint.values()) {
            if (!e.method().equals("GET") || windowed.contains(e)) continue;
            ServerPool.nextSecond(kind);
            Credentials who = e.family() == Endpoint.Family.CLASSIC ? Credentials.CLASSIC : Credentials.MAIN_RW;
            Reply r = server.client(who).get(e.path() + "?" + params);
            assertThat(r.status()).as(e + ": " + r.raw()).isIn(200, 400);
            assertThat(r.msg()).as(e + " reads a time outside the window table: " + r.raw())
                    .isNotIn("Parameter startTime error", "Parameter endTime error");
        }
        assertThat(ROWS).allSatisfy(r -> assertThat(r.endpoint().method()).isEqualTo("GET"));
    }
}
