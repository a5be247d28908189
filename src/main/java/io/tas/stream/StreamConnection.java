package io.tas.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.auth.Caller;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.Json;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One WebSocket connection (websocket-wire.md): the text ping answered with pong, login, subscribe and unsubscribe,
 * and the pushes of what it subscribed. Public topics need no login; private ones (instType UTA) need a login of a
 * unified account's key, on either path, since bitget-api sends both kinds to one URL (D186).
 */
public final class StreamConnection implements WsListener {
    /** websocket-wire.md: at most 15 args a frame (bitget-api), 1000 channels a connection; a frame larger than this is refused. */
    static final int MAX_ARGS = 15, MAX_SUBSCRIPTIONS = 1000;
    /** websocket-wire.md "Keep-alive": at most 10 messages a second, 240 subscribe requests an hour (30006 beyond). */
    static final int MESSAGES_PER_SECOND = 10, SUBSCRIBES_PER_HOUR = 240;
    public static final int MAX_FRAME_CHARS = 64 * 1024;
    private static final Set<String> PRIVATE_TOPICS = Set.of("account", "position", "order", "fill");
    /** Public topics; books1/5/15/50 are whole books, pushed whole at every change (D186). */
    private static final Map<String, Integer> BOOK_DEPTHS = Map.of("books1", 1, "books5", 5, "books15", 15, "books50", 50);
    private static final Set<String> PUBLIC_TOPICS = Set.of("ticker", "books1", "books5", "books15", "books50");

    private final StreamHub hub;
    private final StringBuilder partial = new StringBuilder();
    /** Subscribed args, by (instType, topic, symbol) key, as the client sent them (echoed in pushes). */
    private final Map<String, ObjectNode> subscriptions = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger bookSubscriptions = new java.util.concurrent.atomic.AtomicInteger();
    private volatile WsSession session;
    private volatile long uid = -1;
    private volatile String ip = "";
    /** When the last frame arrived (System.nanoTime): a connection silent for 2 minutes is closed (StreamHub.closeIdle). */
    private volatile long lastFrameNanos = System.nanoTime();
    private long secondStarted = System.nanoTime();
    private int inThisSecond;
    private final java.util.ArrayDeque<Long> subscribes = new java.util.ArrayDeque<>();

    StreamConnection(StreamHub hub) { this.hub = hub; }

    long uid() { return uid; }

    boolean subscribed(String topic) { return subscriptions.containsKey(key("UTA", topic, null)); }

    long lastFrameNanos() { return lastFrameNanos; }

    String ip() { return ip; }

    @Override
    public void onOpen(WsSession s) {
        session = s;
        java.net.SocketAddress peer = s.socketContext().remotePeer().address();
        ip = peer instanceof java.net.InetSocketAddress inet ? inet.getAddress().getHostAddress() : String.valueOf(peer);
        if (!hub.opened(this)) {
            error(30007, "request over limit, connection close");
            close("too many connections from " + ip);
        }
    }

    @Override
    public void onClose(WsSession s, int status, String reason) { hub.closed(this); }

    @Override
    public void onError(WsSession s, Throwable t) { hub.closed(this); }

    @Override
    public void onMessage(WsSession s, String text, boolean last) {
        if (partial.length() + text.length() > MAX_FRAME_CHARS) {
            partial.setLength(0);
            error(30016, "frame too large");
            return;
        }
        partial.append(text);
        if (!last) return;
        String frame = partial.toString();
        partial.setLength(0);
        long now = System.nanoTime();
        lastFrameNanos = now;
        if (now - secondStarted >= 1_000_000_000L) {
            secondStarted = now;
            inThisSecond = 0;
        }
        if (++inThisSecond > MESSAGES_PER_SECOND) {
            error(30006, "request too many");
            return;
        }
        if (frame.equals("ping")) {
            send("pong");
            return;
        }
        JsonNode f;
        try {
            f = Json.MAPPER.readTree(frame);
        } catch (Exception e) {
            error(30016, "Param error");
            return;
        }
        if (f == null || !f.isObject()) {
            error(30016, "Param error");
            return;
        }
        switch (f.path("op").asText("")) {
            case "login" -> login(f.path("args").path(0));
            case "subscribe" -> subscribe(f.path("args"), true);
            case "unsubscribe" -> subscribe(f.path("args"), false);
            default -> error(30003, "invalid op");
        }
    }

    private void login(JsonNode a) {
        try {
            // The connection's own peer (REST reads a trusted proxy's header; a WebSocket upgrade through one is not served yet).
            Caller caller = hub.authenticator.login(text(a, "apiKey"), text(a, "passphrase"), text(a, "timestamp"), text(a, "sign"), ip);
            uid = caller.account().kind() == AccountKind.UNIFIED ? caller.account().uid() : -2;
            send(Json.MAPPER.createObjectNode().put("event", "login").put("code", 0).toString()); // the number 0 (bitget-api)
        } catch (ApiException e) {
            error(loginCode(e.error()), e.getMessage());
        }
    }

    /** websocket-wire.md: 30011 bad key, 30012 bad passphrase, 30013 bad timestamp, 30014 expired, 30015 invalid sign. */
    static int loginCode(ErrorCode e) {
        return switch (e) {
            case ACCESS_KEY_INVALID, ACCESS_KEY_EMPTY -> 30011;
            case PASSPHRASE_INCORRECT, ACCESS_PASSPHRASE_EMPTY -> 30012;
            case ACCESS_TIMESTAMP_INVALID -> 30013;
            case TIMESTAMP_EXPIRED -> 30014;
            case SIGNATURE_ERROR, ACCESS_SIGN_EMPTY -> 30015;
            default -> 30005;
        };
    }

    private void subscribe(JsonNode args, boolean on) {
        long now = System.nanoTime();
        while (!subscribes.isEmpty() && now - subscribes.peekFirst() >= 3_600_000_000_000L) subscribes.pollFirst();
        if (on && subscribes.size() >= SUBSCRIBES_PER_HOUR) {
            error(30006, "request too many: " + SUBSCRIBES_PER_HOUR + " subscribe requests an hour");
            return;
        }
        if (on) subscribes.addLast(now);
        if (!args.isArray() || args.isEmpty() || args.size() > MAX_ARGS) {
            error(30016, "Param error: args");
            return;
        }
        for (JsonNode a : args) {
            if (!a.isObject()) {
                error(30016, "Param error: arg");
                continue;
            }
            String instType = text(a, "instType"), topic = text(a, "topic"), symbol = text(a, "symbol");
            boolean isPrivate = "UTA".equals(instType) && PRIVATE_TOPICS.contains(topic);
            boolean isPublic = instType != null && !instType.equals("UTA") && PUBLIC_TOPICS.contains(topic) && symbol != null;
            if (!isPrivate && !isPublic) {
                error(30001, "channel doesn't exist", a);
                continue;
            }
            if (isPrivate && uid == -1) {
                error(30004, "User must be logged in", a);
                continue;
            }
            if (isPrivate && uid < 0) {
                error(30001, "channel doesn't exist: a classic account's key has the v2 channels", a);
                continue;
            }
            // A books topic must name a book: refused before it is acked.
            java.util.Optional<io.tas.trade.TradingService.Book> book = on && BOOK_DEPTHS.containsKey(topic) ? hub.book(instType, symbol) : null;
            if (book != null && book.isEmpty()) {
                error(30001, "channel doesn't exist: no such symbol", a);
                continue;
            }
            String k = key(instType, topic, symbol);
            if (!on) {
                if (subscriptions.remove(k) != null && BOOK_DEPTHS.containsKey(topic)) bookSubscriptions.decrementAndGet();
                send(Json.MAPPER.createObjectNode().put("event", "unsubscribe").set("arg", a).toString());
                continue;
            }
            if (subscriptions.size() >= MAX_SUBSCRIPTIONS && !subscriptions.containsKey(k)) {
                error(30016, "too many channels", a);
                continue;
            }
            if (subscriptions.put(k, (ObjectNode) a) == null && BOOK_DEPTHS.containsKey(topic)) bookSubscriptions.incrementAndGet();
            send(Json.MAPPER.createObjectNode().put("event", "subscribe").set("arg", a).toString());
            // websocket-wire.md: account and position answer a snapshot at once (position "data":[] when flat).
            long ts = hub.clock.millis();
            if (topic.equals("account")) pushPrivate("account", "snapshot", List.of(hub.account(uid)), ts);
            if (topic.equals("position")) pushPrivate("position", "snapshot", hub.positions(uid), ts);
            if (book != null) pushBooks(instType.toLowerCase(java.util.Locale.ROOT), symbol.toUpperCase(java.util.Locale.ROOT), book.get(), ts);
        }
    }

    void pushTicker(String instType, String symbol, StreamViews.TickerView view, long ts) {
        ObjectNode arg = subscriptions.get(key(instType, "ticker", symbol));
        if (arg != null) push(new StreamViews.Push("snapshot", arg, ts, List.of(view)));
    }

    /** Every books topic this connection has on the symbol, at its depth. */
    void pushBooks(String instType, String symbol, io.tas.trade.TradingService.Book book, long ts) {
        for (var e : BOOK_DEPTHS.entrySet()) {
            ObjectNode arg = subscriptions.get(key(instType, e.getKey(), symbol));
            if (arg != null) push(new StreamViews.Push("snapshot", arg, ts, List.of(StreamViews.book(book, e.getValue()))));
        }
    }

    /** Whether this connection has any books topic (asked for every committed order: a counter, not a scan). */
    boolean hasBooks() { return bookSubscriptions.get() > 0; }

    /** Whether this connection has a books topic on the symbol. */
    boolean wantsBooks(String instType, String symbol) {
        for (String topic : BOOK_DEPTHS.keySet()) if (subscriptions.containsKey(key(instType, topic, symbol))) return true;
        return false;
    }

    void pushPrivate(String topic, String action, List<?> data, long ts) {
        ObjectNode arg = subscriptions.get(key("UTA", topic, null));
        if (arg != null) push(new StreamViews.Push(action, arg, ts, data));
    }

    private void push(StreamViews.Push p) {
        try {
            send(Json.MAPPER.writeValueAsString(p));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void error(int code, String msg) { error(code, msg, null); }

    private void error(int code, String msg, JsonNode arg) {
        ObjectNode e = Json.MAPPER.createObjectNode().put("event", "error").put("code", code).put("msg", msg);
        if (arg != null) e.set("arg", arg);
        send(e.toString());
    }

    /** Pushes come from the hub's thread, answers from the connection's: one frame at a time. */
    private synchronized void send(String text) {
        WsSession s = session;
        if (s == null) return;
        try {
            s.send(text, true);
        } catch (RuntimeException closed) {
            hub.closed(this);
        }
    }

    /** websocket-wire.md "Notices": the upgrade notice, then the close, on a graceful stop. */
    void closeForShutdown() {
        error(30033, "Service upgrade in progress. Connection reset imminent. Please reconnect.");
        close("shutdown");
    }

    void close(String reason) {
        hub.closed(this);
        WsSession s = session;
        if (s == null) return;
        synchronized (this) {
            try {
                s.close(io.helidon.websocket.WsCloseCodes.NORMAL_CLOSE, reason);
            } catch (RuntimeException ignored) {
                // already gone
            }
        }
    }

    private static String key(String instType, String topic, String symbol) {
        return (instType == null ? "" : instType.toLowerCase(java.util.Locale.ROOT)) + "|" + topic + "|" + (symbol == null ? "" : symbol.toUpperCase(java.util.Locale.ROOT));
    }

    /** A string or number field as text (ccxt sends the timestamp as a string, bitget-api as a number). */
    private static String text(JsonNode n, String name) {
        JsonNode v = n.get(name);
        return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
    }
}
