package io.tas.api;

import io.tas.http.Endpoint;
import io.tas.support.Credentials;
import io.tas.support.RawRequest;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * The fuzz generator of issue 12 item 4: from a seed, malformed requests over every catalog row. Most are validly
 * signed, so they get past authentication into the parameter parser; the rest are unsigned or broken at the HTTP level.
 * A request to a row that changes state (POST) is invalid by construction (see write()), so no fuzz request may change state.
 */
final class Malformations {
    /** One generated request; oneShot: its framing is in question, so it goes on its own connection. */
    record Case(String kind, Endpoint row, RawRequest request, byte[] raw, boolean oneShot) {
        boolean write() { return row != null && row.method().equals("POST"); }
    }

    /** Parameter names the spec uses (§4), so the parsers of every row see their own names. */
    static final List<String> NAMES = List.of("category", "symbol", "coin", "limit", "cursor", "startTime", "endTime", "orderId",
            "marginMode", "leverage", "holdMode", "deduct", "amount", "fromCoinList", "productType", "marginCoin", "idLessThan",
            "type", "posSide", "clientOid", "side", "orderType", "qty", "price", "operation", "mode", "deltaSwitch", "targetUid");

    /** Values no parameter of any row accepts (a required parameter given one of these fails its row, see write()). */
    static final List<String> POISON = List.of("🙂", "1e5", "1E-7", "-0e0", "1.5e+2", "NaN", "Infinity", "0x10", "１０", "٣",
            "9".repeat(400), "ＢＴＣＵＳＤＴ", "\u0000", "\u202eTDSU", "tru\u0000e", "%zz", "[]", "{}", "' or 1=1 --", "${jndi:ldap://x}");

    /** Anything: wrong types, huge numbers, negative zero, exponents, unicode, and plausible values. */
    static final List<String> VALUES = List.of("", " ", "abc", "true", "false", "null", "[1,2]", "{\"a\":1}",
            "9223372036854775807", "9223372036854775808", "-9223372036854775809", "9".repeat(19), "9".repeat(64), "9".repeat(65),
            "1" + "0".repeat(308), "0." + "0".repeat(200) + "1", "-0", "-0.0", "+0", "-0.00000000", "0e-0", "1e3", "1E3", "1e308",
            "1e309", "1e-400", "2E2147483648", "🙂", "BTC🙂USDT", "btcuſdt", "usdt-futureſ", "\u200bBTCUSDT", "BTCUSDT\u0000", "é",
            "İ", "\ud83d", "SPOT", "USDT-FUTURES", "COIN-FUTURES", "MARGIN", "BTCUSDT", "ETHUSDT", "USDT", "BTC", "crossed", "isolated",
            "10", "1", "100", "101", "0", "-1", "1.5", "0.00000001", "one_way_mode", "hedge_mode", "on", "off", "basic", "advanced",
            "long", "short", "buy", "sell", "limit", "market", "add", "reduce", "1000000009", "1700000000000", "%", "+", "a+b",
            "../../etc/passwd", "<script>", "a".repeat(300), "x".repeat(5000), " 10", "10 ", "1 0", "\t", "\r\n");

    private static final List<String> BROKEN_JSON = List.of("{", "}", "{\"a\":}", "{'a':'b'}", "{a:1}", "{\"a\":1,}", "[]", "1",
            "\"x\"", "null", "true", "{}x", "{} {}", "{}{}", "{/*c*/}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":01}", "{\"a\":-}",
            "{\"a\":\"\\x\"}", "{\"a\":1}]", "[{}]", "{\"a\" 1}", "{,}", " ", "\n", "{\"a\":\"\u0001\"}",
            "{\"a\":1,\"a\":2}", "{\"a\":[" + "[".repeat(40) + "]}", "{\"a\":" + "{\"b\":".repeat(40) + "1" + "}".repeat(40) + "}");

    private final Random rnd;
    private final Map<Endpoint, List<String>> required;
    private final Map<Endpoint, Credentials> callers;
    private final LongSupplier now;
    private final int maxBody;
    private final int port;

    /** required: each POST row's required parameters as its 40019 names them (empty: the row takes a bare {}). */
    Malformations(long seed, Map<Endpoint, List<String>> required, Map<Endpoint, Credentials> callers, LongSupplier now, int maxBody, int port) {
        this.rnd = new Random(seed);
        this.required = required;
        this.callers = callers;
        this.now = now;
        this.maxBody = maxBody;
        this.port = port;
    }

    Case next() {
        Endpoint row = Endpoint.values()[rnd.nextInt(Endpoint.values().length)];
        int pick = rnd.nextInt(100);
        if (pick < 12) return HttpGarbage.around(rnd, row.method().equals("GET") ? read(row) : write(row), port);
        if (pick < 20) return unsigned(row);
        return row.method().equals("GET") ? read(row) : write(row);
    }

    /** A signed GET whose query is malformed: values of every kind, duplicated keys, broken escapes, raw unicode. */
    private Case read(Endpoint row) {
        StringBuilder q = new StringBuilder();
        int n = rnd.nextInt(6);
        for (int i = 0; i < n; i++) {
            if (!q.isEmpty()) q.append(rnd.nextInt(20) == 0 ? "&&" : "&");
            String name = NAMES.get(rnd.nextInt(NAMES.size()));
            q.append(encode(name)).append('=').append(encode(value()));
            if (rnd.nextInt(5) == 0) q.append('&').append(name).append('=').append(encode(value())); // duplicated key
        }
        switch (rnd.nextInt(12)) {
            case 0 -> q.append("&=x&k&k==v&k=v=w");
            case 1 -> q.append("&limit=1;cursor=2");
            case 2 -> q.append("&").append("p=1&".repeat(300));
            case 3 -> q.append("&symbol=").append("%41".repeat(1500)); // a target near Helidon's prologue limit
            default -> { }
        }
        RawRequest r = new RawRequest("GET", row.path(), q.toString()).header("Content-Type", "application/json");
        return new Case("query", row, r.sign(callers.get(row), now.getAsLong()), null, false);
    }

    /**
     * A signed POST that no row can accept: either the body is not one JSON object (broken, not an object, too deep,
     * oversized, not UTF-8), or one of the row's required parameters is missing or poisoned; other fields are fuzzed.
     * A row without required parameters (the account switch) gets only the first kind.
     */
    private Case write(Endpoint row) {
        List<String> req = required.getOrDefault(row, List.of());
        byte[] body;
        String kind;
        if (req.isEmpty() || rnd.nextInt(3) == 0) {
            kind = "body";
            body = brokenBody();
        } else {
            kind = "params";
            String anchor = req.get(rnd.nextInt(req.size()));
            boolean omit = rnd.nextBoolean();
            StringBuilder b = new StringBuilder("{");
            for (String name : req) {
                if (name.equals(anchor) && omit) continue;
                if (name.equals(anchor)) poisoned(b, name, POISON.get(rnd.nextInt(POISON.size())));
                else field(b, name, value());
            }
            int extra = rnd.nextInt(4);
            for (int i = 0; i < extra; i++) {
                String name = NAMES.get(rnd.nextInt(NAMES.size()));
                if (!req.contains(name)) field(b, name, value());
            }
            body = b.append('}').toString().getBytes(StandardCharsets.UTF_8);
        }
        String type = switch (rnd.nextInt(20)) {
            case 0 -> "text/plain";
            case 1 -> "application/json; charset=utf-16";
            case 2 -> "application/jsonx";
            default -> "application/json";
        };
        RawRequest r = new RawRequest("POST", row.path(), null).header("Content-Type", type).body(body);
        return new Case(kind, row, r.sign(callers.get(row), now.getAsLong()), null, false);
    }

    /** A JSON field with the value as a string, a bare number/literal, or an array or object. */
    private void field(StringBuilder b, String name, String v) {
        if (b.length() > 1) b.append(',');
        b.append('"').append(name).append("\":");
        switch (rnd.nextInt(6)) {
            case 0 -> b.append(v.matches("-?[0-9.eE+]+|true|false|null") ? v : "\"" + jsonEscape(v) + "\"");
            case 1 -> b.append("[\"").append(jsonEscape(v)).append("\"]");
            case 2 -> b.append("{\"v\":\"").append(jsonEscape(v)).append("\"}");
            default -> b.append('"').append(jsonEscape(v)).append('"');
        }
    }

    /** A poisoned value is never a bare JSON number (1e5 would read as the valid 100000.0). */
    private void poisoned(StringBuilder b, String name, String v) {
        if (b.length() > 1) b.append(',');
        b.append('"').append(name).append("\":");
        switch (rnd.nextInt(4)) {
            case 0 -> b.append("[\"").append(jsonEscape(v)).append("\"]");
            case 1 -> b.append("{\"v\":\"").append(jsonEscape(v)).append("\"}");
            default -> b.append('"').append(jsonEscape(v)).append('"');
        }
    }

    private byte[] brokenBody() {
        return switch (rnd.nextInt(6)) {
            case 0 -> new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}'}; // not UTF-8
            case 1 -> ("{\"a\":\"" + "x".repeat(maxBody) + "\"}").getBytes(StandardCharsets.UTF_8); // one past the cap
            case 2 -> ("[".repeat(5000)).getBytes(StandardCharsets.UTF_8);
            default -> BROKEN_JSON.get(rnd.nextInt(BROKEN_JSON.size())).getBytes(StandardCharsets.UTF_8);
        };
    }

    /** No or partial credentials on any row: the authentication codes. */
    private Case unsigned(Endpoint row) {
        String query = row.method().equals("GET") && rnd.nextBoolean() ? "limit=" + encode(value()) : null;
        RawRequest r = new RawRequest(row.method(), row.path(), query).header("Content-Type", "application/json");
        if (row.method().equals("POST")) r.body("{}".getBytes(StandardCharsets.UTF_8));
        Credentials c = callers.get(row);
        String[][] all = {{"ACCESS-KEY", c.key()}, {"ACCESS-SIGN", "c2lnbg=="}, {"ACCESS-TIMESTAMP", Long.toString(now.getAsLong())},
                {"ACCESS-PASSPHRASE", c.passphrase()}};
        for (String[] h : all) {
            int x = rnd.nextInt(4);
            if (x == 0) continue;
            r.header(h[0], x == 1 ? "" : x == 2 ? value().replace("\r", "").replace("\n", "") : h[1]);
        }
        return new Case("unsigned", row, r, null, false);
    }

    private String value() { return VALUES.get(rnd.nextInt(VALUES.size())); }

    /** Mostly percent-encoded; sometimes raw (unicode bytes in the target, broken escapes). */
    private String encode(String v) {
        int x = rnd.nextInt(10);
        if (x == 0) return v.replace(" ", "").replace("\r", "").replace("\n", "").replace("\t", "").replace("#", "");
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    static String jsonEscape(String v) {
        StringBuilder sb = new StringBuilder();
        for (char c : v.toCharArray()) {
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.toString();
    }
}
