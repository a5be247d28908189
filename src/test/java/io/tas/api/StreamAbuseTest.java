package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.http.Json;
import io.tas.stream.StreamHub;
import io.tas.support.Databases;
import io.tas.support.RawStream;
import io.tas.support.ServerPool;
import io.tas.support.StreamClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27's reliability (D187), on a server of its own per database (its limits are changed here): a client that stops
 * reading is let go with 30007 while the others keep their pushes, and 50,000 fuzzed frames a database (100,000 in the
 * run: bad JSON, unknown ops, junk args and logins, frames over 64 KiB, binary and fragmented frames, floods) get only
 * the real answers or a close, and leave the node serving.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class StreamAbuseTest extends SharedServerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    /** Every error code a frame may be answered with (websocket-wire.md). */
    private static final Set<Integer> CODES = Set.of(30001, 30003, 30004, 30005, 30006, 30007, 30011, 30012, 30013, 30014, 30015, 30016);
    private StreamHub hub;
    private String spot;

    @BeforeEach
    void ownServer() {
        server = ServerPool.next(kind, "stream-abuse");
        admin = new Admin(server);
        hub = server.app.streams();
        String tag = kind.name().charAt(0) + "" + NAMES.incrementAndGet();
        spot = "WA" + tag + "USDT";
        ok(admin.post("/admin/v1/instruments", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"baseCoin\":\"WA" + tag + "\",\"quoteCoin\":\"USDT\"}"));
        ticker(0);
    }

    /** Ask and bid move with i, 5 a level, so every move changes the book. */
    private void ticker(int i) {
        String bid = "99." + (10 + i % 80), ask = "100." + (10 + i % 80);
        ok(admin.post("/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"" + spot + "\",\"lastPrice\":\"" + bid + "\",\"ask1Price\":\""
                + ask + "\",\"bid1Price\":\"" + bid + "\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}"));
    }

    private long slowDisconnects() {
        String metrics = io.tas.support.ApiClient.raw(server.adminUrl() + "/metrics", "GET", "").raw();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("tas_ws_disconnects_total{reason=\"slow_consumer\"")) return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
        return 0;
    }

    @Test
    void aClientThatStopsReadingIsLetGoAndTheOthersKeepTheirPushes() throws Exception {
        hub.sendBufferBytes(200_000); // about 15 moves of the slow client's channels, 400 of the quick one's ticker
        long before = slowDisconnects();
        try (RawStream slow = new RawStream(server.app.port(), "/v2/ws/public", "127.0.0.1", 2048);
             StreamClient quick = new StreamClient(server.baseUrl(), "/v3/ws/public")) {
            // Every channel a move changes, so each move sends it about 10 KB: books, tickers and the candles of each interval.
            for (String args : slowChannels()) slow.text("{\"op\":\"subscribe\",\"args\":[" + args + "]}");
            slow.flush();
            quick.send("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"spot\",\"topic\":\"ticker\",\"symbol\":\"" + spot + "\"}]}");
            quick.next(n -> "subscribe".equals(n.path("event").asText()));
            // Each move pushes the whole book (about 1 KB) to the client that reads nothing: its socket fills, then its queue.
            int moves = 0;
            long end = System.nanoTime() + 60_000_000_000L;
            while (slowDisconnects() == before && moves < 3_000 && System.nanoTime() < end) {
                for (int i = 0; i < 10; i++) ticker(++moves);
            }
            assertThat(slowDisconnects()).as("after %d moves", moves).isGreaterThan(before);
            // The slow client, reading at once, finds 30007 and the close after what was queued (its socket is cut only
            // if it still takes nothing StreamHub.CUT_AFTER_SECONDS later).
            boolean told = false, closed = false;
            for (RawStream.Frame f; !closed && (f = readOrNull(slow)) != null; ) {
                if (f.opcode() == 8) closed = true;
                else if (f.opcode() == 1 && f.text().contains("\"code\":30007")) told = true;
            }
            // The reader was never held up: the quick client has the last move's ticker.
            String lastBid = "99." + (10 + moves % 80);
            quick.next(n -> n.path("data").path(0).path("lastPrice").asText().equals(new java.math.BigDecimal(lastBid).stripTrailingZeros().toPlainString()));
            assertThat(told).as("30007 before the close").isTrue();
        } finally {
            hub.sendBufferBytes(4L << 20);
        }
    }

    /** Subscribe args, at most 15 a frame: the v2 and v3 book, ticker and candle channels of the pair. */
    private List<String> slowChannels() {
        List<String> args = new ArrayList<>();
        for (String c : List.of("books1", "books5", "books15", "books", "ticker", "candle1m", "candle5m", "candle15m", "candle30m", "candle1H",
                "candle4H", "candle6H", "candle12H", "candle1D", "candle3D", "candle1W", "candle1M", "candle6Hutc", "candle12Hutc", "candle1Dutc")) {
            args.add("{\"instType\":\"SPOT\",\"channel\":\"" + c + "\",\"instId\":\"" + spot + "\"}");
        }
        for (String t : List.of("books1", "books5", "books15", "books50", "books", "ticker")) {
            args.add("{\"instType\":\"spot\",\"topic\":\"" + t + "\",\"symbol\":\"" + spot + "\"}");
        }
        for (String i : List.of("1m", "3m", "5m", "15m", "30m", "1H", "2H", "4H", "6H", "12H", "1D")) {
            args.add("{\"instType\":\"spot\",\"topic\":\"kline\",\"symbol\":\"" + spot + "\",\"interval\":\"" + i + "\"}");
        }
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < args.size(); i += 15) frames.add(String.join(",", args.subList(i, Math.min(args.size(), i + 15))));
        return frames;
    }

    private static RawStream.Frame readOrNull(RawStream s) {
        try {
            return s.read();
        } catch (java.io.IOException cut) {
            return null;
        }
    }

    /** One kind of frame the fuzzer sends; each answer is checked by what it is, not by which frame caused it. */
    private static void fuzzFrame(RawStream s, Random r, String spot, LongAdder huge) throws java.io.IOException {
        switch (r.nextInt(12)) {
            case 0 -> s.text("{\"op\":\"subscribe\",\"args\":[" + "{".repeat(r.nextInt(4)) + "]");                   // bad JSON
            case 1 -> s.text("{\"op\":\"" + Long.toString(r.nextLong(), 36) + "\"}");                                    // unknown op
            case 2 -> s.text("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"" + pick(r, "SPOT", "spot", "UTA", "X", "USDT-FUTURES")
                    + "\",\"" + pick(r, "channel", "topic") + "\":\"" + pick(r, "books", "books5", "trade", "ticker", "candle1m", "kline",
                    "account", "orders", "nope") + "\",\"" + pick(r, "instId", "symbol") + "\":\"" + pick(r, spot, "NOPEUSDT", "default") + "\"}]}");
            case 3 -> s.text("{\"op\":\"login\",\"args\":[{\"apiKey\":\"bg_" + r.nextInt() + "\",\"passphrase\":\"x\",\"timestamp\":"
                    + pick(r, "1", "\"abc\"", "null", "[]", Long.toString(System.currentTimeMillis())) + ",\"sign\":\"eA==\"}]}");
            case 4 -> s.text(pick(r, "ping", "[]", "null", "42", "\"op\"", "{}", "{\"op\":null}", "{\"op\":\"unsubscribe\",\"args\":7}"));
            case 5 -> s.frame(0x2, true, new byte[r.nextInt(64)]);                                                        // binary
            case 6 -> {                                                                                                    // fragments
                s.frame(0x1, false, "{\"op\":".getBytes(StandardCharsets.UTF_8));
                s.frame(0x0, true, "\"ping\"}".getBytes(StandardCharsets.UTF_8));
            }
            case 7 -> {
                if (r.nextInt(20) == 0) {                                                                                  // over 64 KiB in two fragments
                    huge.increment();
                    s.frame(0x1, false, ("{\"op\":\"subscribe\",\"pad\":\"" + "x".repeat(40_000)).getBytes(StandardCharsets.UTF_8));
                    s.frame(0x0, true, ("x".repeat(40_000) + "\"}").getBytes(StandardCharsets.UTF_8));
                } else {
                    s.frame(0x9, true, new byte[]{1, 2, 3});                                                              // a ping frame
                }
            }
            case 8 -> s.text("{\"op\":\"subscribe\",\"args\":[" + "{\"instType\":\"SPOT\",\"channel\":\"ticker\",\"instId\":\"" + spot + "\"},".repeat(16) + "{}]}");
            case 9 -> s.text("{\"op\":\"subscribe\",\"args\":[1,\"a\",null,{\"instType\":{\"a\":1}}]}");
            case 10 -> s.text("\u0000\u00ff\u2603 {\"op\":\"login\"");
            default -> s.text("{\"op\":\"unsubscribe\",\"args\":[{\"instType\":\"SPOT\",\"channel\":\"ticker\",\"instId\":\"" + spot + "\"}]}");
        }
    }

    private static String pick(Random r, String... options) { return options[r.nextInt(options.length)]; }

    @Test
    void fuzzedFramesGetTheRealAnswersAndTheNodeKeepsServing() throws Exception {
        int baseline = hub.connections();
        Map<String, LongAdder> answers = new ConcurrentHashMap<>();
        List<String> strange = java.util.Collections.synchronizedList(new ArrayList<>());
        LongAdder huge = new LongAdder();
        int connections = 8, perConnection = 5_500, flood = 6_000; // 8 x 5,500 + 6,000 = 50,000 frames
        hub.messagesPerSecond(Integer.MAX_VALUE); // the parser, not the limit, answers the fuzzed frames
        List<Thread> readers = new ArrayList<>();
        List<RawStream> streams = new ArrayList<>();
        try {
            for (int c = 0; c < connections; c++) {
                RawStream s = new RawStream(server.app.port(), c % 2 == 0 ? "/v3/ws/public" : "/v2/ws/private", "127.0.0." + (2 + c), 0);
                streams.add(s);
                readers.add(Thread.ofVirtual().start(() -> drain(s, answers, strange)));
            }
            List<Thread> writers = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                RawStream s = streams.get(c);
                Random r = new Random(27_000 + c);
                writers.add(Thread.ofVirtual().start(() -> {
                    try {
                        for (int i = 0; i < perConnection; i++) fuzzFrame(s, r, spot, huge);
                        s.flush();
                    } catch (java.io.IOException closed) {
                        answers.computeIfAbsent("closed while sending", k -> new LongAdder()).increment();
                    }
                }));
            }
            for (Thread t : writers) t.join(60_000);
            // The server answers the backlog after the writers are done: until the answers stop coming for a second.
            long seen = -1, end = System.nanoTime() + 60_000_000_000L;
            while (total(answers) != seen && System.nanoTime() < end) {
                seen = total(answers);
                Thread.sleep(1_000);
            }
        } finally {
            hub.messagesPerSecond(10);
        }
        // A flood at the real limit: every frame is answered, pong for at most 10 a second and 30006 for the rest.
        Map<String, LongAdder> floodAnswers = new ConcurrentHashMap<>();
        long started = System.nanoTime();
        try (RawStream s = new RawStream(server.app.port(), "/v3/ws/public", "127.0.0.20", 0)) {
            Thread reader = Thread.ofVirtual().start(() -> drain(s, floodAnswers, strange));
            for (int i = 0; i < flood; i++) s.text("ping");
            s.flush();
            long end = System.nanoTime() + 20_000_000_000L;
            while (count(floodAnswers, "pong") + count(floodAnswers, "error 30006") < flood && System.nanoTime() < end) Thread.sleep(20);
            double seconds = (System.nanoTime() - started) / 1e9;
            assertThat(count(floodAnswers, "pong") + count(floodAnswers, "error 30006")).as("%s; fuzz: %s", floodAnswers, answers).isEqualTo(flood);
            assertThat(count(floodAnswers, "pong")).isBetween(10L, 10L * ((long) Math.ceil(seconds) + 1));
            s.close();
            reader.join(5_000);
        }

        // One frame over 64 KiB: the web server closes the connection (1009 "Payload too large"), or resets it.
        try (RawStream s = new RawStream(server.app.port(), "/v3/ws/public", "127.0.0.21", 0)) {
            s.text("{\"op\":\"ping\",\"pad\":\"" + "x".repeat(70_000) + "\"}");
            s.flush();
            RawStream.Frame f = readOrNull(s);
            assertThat(f == null || (f.opcode() == 8 && new String(f.payload(), StandardCharsets.UTF_8).contains("Payload too large")))
                    .as("close or reset, got %s", f == null ? null : f.opcode() + " " + f.text()).isTrue();
        }

        // Every answer was a real one; the node serves a new connection and REST as before.
        streams.forEach(s -> { try { s.close(); } catch (java.io.IOException ignored) { } });
        for (Thread t : readers) t.join(10_000);
        assertThat(strange).as("frames that are not real answers").isEmpty();
        assertThat(count(answers, "error 30016")).as("bad JSON, messages over 64 KiB, binary frames: %s, %d over 64 KiB", answers, huge.sum()).isGreaterThan(huge.sum());
        assertThat(answers.keySet()).as("no connection closed or reset while fuzzed: %s", answers)
                .noneMatch(k -> k.startsWith("close") || (k.startsWith("reader ended") && !k.endsWith("Socket closed")));
        assertThat(count(answers, "pong frame")).as("ping frames answered").isPositive();
        assertThat(count(answers, "error 30003")).as("unknown ops").isPositive();
        assertThat(count(answers, "error 30001")).as("unknown channels").isPositive();
        assertThat(count(answers, "event subscribe")).as("valid subscriptions: %s", answers).isPositive();
        assertThat(count(answers, "pong")).isPositive();
        try (StreamClient fresh = new StreamClient(server.baseUrl(), "/v3/ws/public")) {
            fresh.send("ping");
            assertThat(fresh.nextText(5_000)).isEqualTo("pong");
        }
        ok(server.client(io.tas.support.Credentials.MAIN_RW).get("/api/v3/account/settings"));
        long end = System.nanoTime() + 10_000_000_000L;
        while (hub.connections() > baseline && System.nanoTime() < end) Thread.sleep(50);
        assertThat(hub.connections()).as("every fuzzed connection is gone").isEqualTo(baseline);
    }

    private static long total(Map<String, LongAdder> m) { return m.values().stream().mapToLong(LongAdder::sum).sum(); }

    private static long count(Map<String, LongAdder> m, String k) { return m.getOrDefault(k, new LongAdder()).sum(); }

    /** Reads until the socket closes, sorting each frame: pong, an event (error with its code), a push, or strange. */
    private static void drain(RawStream s, Map<String, LongAdder> answers, List<String> strange) {
        try {
            for (RawStream.Frame f; (f = s.read()) != null; ) {
                String kind;
                if (f.opcode() == 8) kind = "close" + (f.payload().length > 2 ? " " + new String(f.payload(), 2, f.payload().length - 2, StandardCharsets.UTF_8) : "");
                else if (f.opcode() == 10) kind = "pong frame";
                else if (f.opcode() != 1) kind = "opcode " + f.opcode();
                else if (f.text().equals("pong")) kind = "pong";
                else kind = classify(f.text());
                if (kind.startsWith("strange") || kind.startsWith("opcode")) strange.add(kind + ": " + (f.opcode() == 1 ? f.text() : ""));
                answers.computeIfAbsent(kind, k -> new LongAdder()).increment();
                if (f.opcode() == 8) return;
            }
        } catch (java.io.IOException gone) {
            answers.computeIfAbsent("reader ended: " + gone.getMessage(), k -> new LongAdder()).increment(); // a reset shows here
        } catch (RuntimeException bug) {
            strange.add("reader failed: " + bug);
        }
    }

    private static String classify(String text) {
        try {
            JsonNode n = Json.MAPPER.readTree(text);
            String event = n.path("event").asText("");
            if (event.equals("error")) return CODES.contains(n.path("code").asInt()) ? "error " + n.path("code").asInt() : "strange code";
            if (event.equals("subscribe") || event.equals("unsubscribe") || event.equals("login")) return "event " + event;
            if (n.has("action") && n.has("arg") && n.has("data")) return "push";
            return "strange";
        } catch (Exception notJson) {
            return "strange";
        }
    }
}
