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
 * and the pushes of what it subscribed. Public channels need no login; private ones need a login, a unified account's
 * key for the v3 topics and a classic one's for the v2 channels, on any path, since bitget-api sends both kinds to one
 * URL (D186). Frames leave through a queue of their own, so a client that stops reading holds up no one (D187).
 */
public final class StreamConnection implements WsListener {
    /** websocket-wire.md: at most 15 args a frame (bitget-api), 1000 channels a connection; a frame larger than this is refused. */
    static final int MAX_ARGS = 15, MAX_SUBSCRIPTIONS = 1000;
    /** websocket-wire.md "Keep-alive": at most 10 messages a second, 240 subscribe requests an hour (30006 beyond). */
    static final int MESSAGES_PER_SECOND = 10, SUBSCRIBES_PER_HOUR = 240;
    public static final int MAX_FRAME_CHARS = 64 * 1024;

    /**
     * A subscription: its connection, its channel, the arg as the client sent it (echoed in pushes), and whether its
     * snapshot went out.
     */
    static final class Sub {
        private final StreamConnection owner;
        private final StreamChannel channel;
        private final ObjectNode arg;
        private final String argJson;
        private volatile boolean ready;
        /** The data of the last state this subscription was pushed (account and position channels; D226). */
        private volatile String shown;

        Sub(StreamConnection owner, StreamChannel channel, ObjectNode arg) {
            this.owner = owner;
            this.channel = channel;
            this.arg = arg;
            this.argJson = Json.text(arg);
        }

        StreamConnection owner() { return owner; }

        StreamChannel channel() { return channel; }

        ObjectNode arg() { return arg; }

        /** Pushes wait for the snapshot: an update before it would apply to nothing. */
        boolean ready() { return ready; }

        void ready(boolean r) { ready = r; }

        /**
         * D226: whether this state is the one last pushed here, remembering it otherwise. A state channel shows what is, so
         * the same state again tells the client nothing (a drain that read a commit its predecessor showed already).
         */
        boolean alreadyShows(Data d) {
            if (d.json.equals(shown)) return true;
            shown = d.json;
            return false;
        }
    }

    private final StreamHub hub;
    private final StringBuilder partial = new StringBuilder();
    /** The rest of a message already answered as too large is read and dropped. */
    private boolean discarding;
    private final Map<String, Sub> subscriptions = new ConcurrentHashMap<>();
    /** Subscriptions to a book, trades or candles: asked for every committed order, so a counter, not a scan. */
    private final java.util.concurrent.atomic.AtomicInteger followingBooks = new java.util.concurrent.atomic.AtomicInteger();
    private volatile WsSession session;
    /** The logged-in account, -1 before a login. */
    private volatile long uid = -1;
    private volatile boolean unified;
    private volatile String ip = "";
    /** When the last frame arrived (System.nanoTime): a connection silent for 2 minutes is closed (StreamHub.closeIdle). */
    private volatile long lastFrameNanos = System.nanoTime();
    private long secondStarted = System.nanoTime();
    private int inThisSecond;
    private final java.util.ArrayDeque<Long> subscribes = new java.util.ArrayDeque<>();
    // The outgoing queue of whole frames: one writer at a time drains it; beyond the hub's limit the client is too slow
    // and is let go. A pong to a client's ping leaves through it too, as two writers on one socket garble frames.
    private final java.util.concurrent.ConcurrentLinkedQueue<byte[]> outbox = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicLong queuedBytes = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicBoolean draining = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closing, closeSent;
    private volatile String closeWhy = "";

    /** The path it was opened on (/v3/ws/private, ...), as the journal shows it. */
    private final String path;
    /** The logged-in key (the journal's and the fault rules' key), null before a login. */
    private volatile String apiKey;

    StreamConnection(StreamHub hub, String path) {
        this.hub = hub;
        this.path = path;
    }

    long uid() { return uid; }

    boolean unified() { return unified; }

    java.util.Collection<Sub> subscriptions() { return subscriptions.values(); }

    /** Whether this connection subscribed a private channel of this kind (a quick check before reading anything). */
    boolean wants(StreamChannel.Kind kind) {
        for (Sub s : subscriptions.values()) if (s.channel().kind() == kind) return true;
        return false;
    }

    /** How many books, trades or candles this connection follows (the hub keeps the total). */
    int bookSubscriptions() { return followingBooks.get(); }

    long lastFrameNanos() { return lastFrameNanos; }

    String ip() { return ip; }

    @Override
    public void onOpen(WsSession s) {
        session = s;
        java.net.SocketAddress peer = s.socketContext().remotePeer().address();
        ip = peer instanceof java.net.InetSocketAddress inet ? inet.getAddress().getHostAddress() : String.valueOf(peer);
        if (!hub.opened(this)) {
            error(30007, "request over limit, connection close");
            close("too many connections from " + ip, "connections_per_ip");
        }
    }

    @Override
    public void onClose(WsSession s, int status, String reason) { hub.closed(this, "client"); }

    @Override
    public void onError(WsSession s, Throwable t) { hub.closed(this, "error"); }

    /** A ping frame (websocket-wire.md: clients send the text ping; a control ping still gets its pong, in turn). */
    @Override
    public void onPing(WsSession s, io.helidon.common.buffers.BufferData payload) {
        if (closing || session == null) return;
        enqueue(frame(OP_PONG, payload.readBytes()));
        drain();
    }

    /** Binary frames are not part of the protocol: each is answered 30016 (and counts toward the frame limit). */
    @Override
    public void onMessage(WsSession s, io.helidon.common.buffers.BufferData bytes, boolean last) {
        if (last && admit()) error(30016, "Param error: binary frames are not read");
    }

    /** A whole frame arrived: it keeps the connection alive, and more than 10 in a second are answered 30006. */
    private boolean admit() {
        long now = System.nanoTime();
        lastFrameNanos = now;
        if (now - secondStarted >= 1_000_000_000L) {
            secondStarted = now;
            inThisSecond = 0;
        }
        if (++inThisSecond > hub.messagesPerSecond()) {
            error(30006, "request too many");
            return false;
        }
        return true;
    }

    @Override
    public void onMessage(WsSession s, String text, boolean last) {
        if (discarding || partial.length() + text.length() > MAX_FRAME_CHARS) {
            if (!discarding) error(30016, "frame too large"); // once a message, however many fragments follow
            partial.setLength(0);
            discarding = !last;
            return;
        }
        partial.append(text);
        if (!last) return;
        String frame = partial.toString();
        partial.setLength(0);
        if (!admit()) return;
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
        String op = f.path("op").asText("");
        if (hub.faults != null && sandboxed(op, frame, f)) return;
        switch (op) {
            case "login" -> login(f.path("args").path(0));
            case "subscribe" -> subscribe(f.path("args"), true);
            case "unsubscribe" -> subscribe(f.path("args"), false);
            default -> error(30003, "invalid op");
        }
    }

    /**
     * Issue 28: the frame goes into the journal, and a ws-op fault rule may answer it instead (an error event with the
     * rule's code, or the socket cut) or hold it back. True when the frame was answered by the fault.
     */
    private boolean sandboxed(String op, String frame, JsonNode f) {
        String key = op.equals("login") ? text(f.path("args").path(0), "apiKey") : apiKey;
        io.tas.sandbox.FaultRule fault = hub.faults.fire(io.tas.sandbox.FaultRule.Target.WS_OP, null, op, uid == -1 ? null : uid, key);
        io.tas.sandbox.RequestJournal journal = hub.journal;
        if (journal != null) {
            journal.record("ws", key, op, path, null, Map.of(), frame.getBytes(java.nio.charset.StandardCharsets.UTF_8), null,
                    fault != null && fault.code() != null ? fault.code() : null, 0, fault == null ? null : Long.toString(fault.id()));
        }
        if (fault == null) return false;
        switch (fault.action()) {
            case ERROR -> {
                error(Integer.parseInt(fault.code()), "fault " + fault.id());
                return true;
            }
            case DROP -> {
                hub.closed(this, "fault");
                cut();
                return true;
            }
            case LATENCY -> {
                try {
                    Thread.sleep(fault.delayMs());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }
            default -> { return false; }
        }
    }

    private void login(JsonNode a) {
        try {
            // The connection's own peer (REST reads a trusted proxy's header; a WebSocket upgrade through one is not served yet).
            Caller caller = hub.authenticator.login(text(a, "apiKey"), text(a, "passphrase"), text(a, "timestamp"), text(a, "sign"), ip);
            unified = caller.account().kind() == AccountKind.UNIFIED;
            long before = uid;
            uid = caller.account().uid();
            apiKey = caller.key().accessKey();
            hub.loggedIn(this, before, uid);
            send(Json.text(Json.MAPPER.createObjectNode().put("event", "login").put("code", 0))); // the number 0 (bitget-api)
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
            java.util.Optional<StreamChannel> parsed = StreamChannel.parse(a);
            if (parsed.isEmpty()) {
                error(30001, "channel doesn't exist", a);
                continue;
            }
            StreamChannel ch = parsed.get();
            if (ch.kind().isPrivate && uid == -1) {
                error(30004, "User must be logged in", a);
                continue;
            }
            if (ch.kind().isPrivate && ch.v2() == unified) {
                error(30001, unified ? "channel doesn't exist: a unified account's key has the v3 topics"
                        : "channel doesn't exist: a classic account's key has the v2 channels", a);
                continue;
            }
            // A public channel must name a book, and a candle channel an interval: refused before any ack.
            if (on && !ch.kind().isPrivate && !hub.exists(ch)) {
                error(30001, "channel doesn't exist: " + ch.instType() + " " + ch.name() + " " + ch.target(), a);
                continue;
            }
            String k = ch.key();
            if (!on) {
                Sub gone = subscriptions.remove(k);
                if (gone != null) {
                    hub.unsubscribed(gone);
                    if (ch.kind().followsBook()) {
                        followingBooks.decrementAndGet();
                        hub.followingBooks(-1);
                    }
                }
                send(Json.text(Json.MAPPER.createObjectNode().put("event", "unsubscribe").set("arg", a)));
                continue;
            }
            if (subscriptions.size() >= MAX_SUBSCRIPTIONS && !subscriptions.containsKey(k)) {
                error(30016, "too many channels", a);
                continue;
            }
            Sub sub = subscriptions.computeIfAbsent(k, x -> {
                if (ch.kind().followsBook()) {
                    followingBooks.incrementAndGet();
                    hub.followingBooks(1);
                }
                return new Sub(this, ch, (ObjectNode) a);
            });
            send(Json.text(Json.MAPPER.createObjectNode().put("event", "subscribe").set("arg", a)));
            hub.subscribed(this, sub); // its snapshot, if it has one, from the pusher thread
        }
    }

    /** A push to one subscription of this connection. */
    void push(Sub s, String action, List<?> data, long ts) { push(s, action, Data.of(data), ts); }

    /**
     * A push of data serialized once for every subscriber (a ticker to 5,000 connections is one serialization): the
     * frame {"action","arg","ts","data"} around it, the arg as the client sent it.
     */
    void push(Sub s, String action, Data data, long ts) {
        byte[] frame = data.frame(action, s.argJson, ts);
        io.tas.sandbox.Faults faults = hub.faults;
        io.tas.sandbox.FaultRule fault = faults == null || faults.isEmpty() ? null // a fan-out boxes no uid for no rule
                : faults.fire(io.tas.sandbox.FaultRule.Target.WS_PUSH, null, s.channel().name(), uid == -1 ? null : uid, apiKey);
        if (fault != null) { // issue 28: a push lost, held back, or its connection cut
            switch (fault.action()) {
                case DROP_PUSH -> { return; }
                case DELAY_PUSH -> {
                    java.util.concurrent.CompletableFuture.delayedExecutor(fault.delayMs(), java.util.concurrent.TimeUnit.MILLISECONDS, hub.writers)
                            .execute(() -> send(frame));
                    hub.pushed();
                    return;
                }
                case DROP -> {
                    hub.closed(this, "fault");
                    cut();
                    return;
                }
                default -> { }
            }
        }
        send(frame);
        hub.pushed();
    }

    /**
     * A push's data as JSON, whether it holds nothing, and the last frame built around it: the subscribers of a fan-out
     * mostly sent the same arg, so 5,000 ticker pushes are one frame written 5,000 times.
     */
    static final class Data {
        private final String json;
        private final boolean empty;
        private volatile Framed last;

        private record Framed(String action, String argJson, long ts, byte[] frame) {}

        private Data(String json, boolean empty) {
            this.json = json;
            this.empty = empty;
        }

        static Data of(List<?> items) {
            try {
                return new Data(Json.MAPPER.writeValueAsString(items), items.isEmpty());
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        boolean empty() { return empty; }

        /** The frame {"action","arg","ts","data"}, the arg as the client sent it. */
        byte[] frame(String action, String argJson, long ts) {
            Framed f = last;
            if (f != null && f.ts() == ts && f.action().equals(action) && f.argJson().equals(argJson)) return f.frame();
            byte[] frame = textFrame("{\"action\":\"" + action + "\",\"arg\":" + argJson + ",\"ts\":" + ts + ",\"data\":" + json + "}");
            last = new Framed(action, argJson, ts, frame);
            return frame;
        }
    }

    static final int OP_TEXT = 0x1, OP_PONG = 0xA;

    /** A whole frame as it goes on the wire (RFC 6455 §5.2: final, and unmasked from a server). */
    static byte[] frame(int opcode, byte[] payload) {
        int n = payload.length, head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
        byte[] f = new byte[head + n];
        f[0] = (byte) (0x80 | opcode);
        if (n < 126) {
            f[1] = (byte) n;
        } else if (n < 65_536) {
            f[1] = 126;
            f[2] = (byte) (n >>> 8);
            f[3] = (byte) n;
        } else {
            f[1] = 127;
            for (int i = 0; i < 8; i++) f[2 + i] = (byte) ((long) n >>> (56 - 8 * i));
        }
        System.arraycopy(payload, 0, f, head, n);
        return f;
    }

    static byte[] textFrame(String text) { return frame(OP_TEXT, text.getBytes(java.nio.charset.StandardCharsets.UTF_8)); }

    private void error(int code, String msg) { error(code, msg, null); }

    private void error(int code, String msg, JsonNode arg) {
        ObjectNode e = Json.MAPPER.createObjectNode().put("event", "error").put("code", code).put("msg", msg);
        if (arg != null) e.set("arg", arg);
        send(Json.text(e));
    }

    private void send(String text) { send(textFrame(text)); }

    /**
     * Queues a frame; one writer at a time sends them in order. A client whose unsent frames pass the hub's limit
     * reads too slowly: it gets 30007 and the close, and the socket is cut if it cannot take even those (D187).
     */
    private void send(byte[] frame) {
        if (closing || session == null) return; // after a close is asked for, nothing more is queued
        if (queuedBytes.get() + frame.length > hub.sendBufferBytes()) {
            closeWhy = "slow consumer";
            closing = true;
            enqueue(textFrame(Json.text(Json.MAPPER.createObjectNode().put("event", "error").put("code", 30007)
                    .put("msg", "request over limit, connection close: the client reads too slowly"))));
            hub.closed(this, "slow_consumer");
            hub.cutLater(this);
            drain();
            return;
        }
        enqueue(frame);
        drain();
    }

    private void enqueue(byte[] frame) {
        queuedBytes.addAndGet(frame.length);
        outbox.add(frame);
    }

    /** Starts a writer unless one is running. */
    private void drain() {
        if (!draining.compareAndSet(false, true)) return;
        try {
            hub.writers.execute(this::write);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            draining.set(false); // the node is stopping: its close frames went out already
        }
    }

    /** Frames a writer takes from the queue for one write (a socket write copies 16 KB at a time anyway). */
    private static final int WRITE_BATCH_BYTES = 64 * 1024;

    /**
     * Sends what is queued, the frames waiting together in one write: an order's order and fill pushes, or a burst of
     * pushes to a slow reader, cost one system call, not one each. The frames are written on the connection's own
     * writer (the WebSocket session's send would encode and write them one by one). Helidon writes on this socket only
     * its close frames, and a blocking socket write is whole, so frames never interleave.
     */
    private void write() {
        io.helidon.common.buffers.DataWriter out = ((io.helidon.webserver.ConnectionContext) session.socketContext()).dataWriter();
        java.util.List<io.helidon.common.buffers.BufferData> batch = null; // made for a second frame only (a fan-out's push is one)
        while (true) {
            for (byte[] first; (first = outbox.poll()) != null; ) {
                int bytes = first.length;
                io.helidon.common.buffers.BufferData whole = io.helidon.common.buffers.BufferData.create(first);
                if (!outbox.isEmpty()) {
                    if (batch == null) batch = new java.util.ArrayList<>();
                    batch.add(whole);
                    for (byte[] f; bytes < WRITE_BATCH_BYTES && (f = outbox.poll()) != null; bytes += f.length) {
                        batch.add(io.helidon.common.buffers.BufferData.create(f));
                    }
                    whole = batch.size() == 1 ? batch.getFirst() : io.helidon.common.buffers.BufferData.create(batch);
                }
                try {
                    out.writeNow(whole);
                } catch (RuntimeException gone) {
                    outbox.clear();
                    hub.closed(this, "error");
                    return; // draining stays set: nothing more is sent
                }
                queuedBytes.addAndGet(-bytes);
                if (batch != null) batch.clear();
            }
            if (closing && !closeSent) {
                closeSent = true;
                closeSession(closeWhy);
            }
            draining.set(false);
            boolean more = !outbox.isEmpty() || (closing && !closeSent); // a close asked for after the check above
            if (!more || !draining.compareAndSet(false, true)) return;
        }
    }

    /**
     * Whether the socket is still there. Helidon tells no listener when the client's socket ends without a close frame
     * (the read that fails is outside its handler's try), so the hub looks every few seconds (StreamHub.sweep).
     */
    boolean socketOpen() {
        WsSession s = session;
        if (s == null) return true;
        try {
            return ((io.helidon.webserver.ConnectionContext) s.socketContext()).serverSocket().isConnected();
        } catch (RuntimeException unknown) {
            return true; // a socket that cannot say: the idle sweep still ends it
        }
    }

    /** Cuts the socket of a slow client that did not take its close in time (the writer may be blocked on it). */
    void cut() {
        try {
            ((io.helidon.webserver.ConnectionContext) session.socketContext()).serverSocket().close();
        } catch (RuntimeException ignored) {
            // already gone
        }
    }

    /** websocket-wire.md "Notices": the upgrade notice, then the close, on a graceful stop. */
    void closeForShutdown() {
        error(30033, "Service upgrade in progress. Connection reset imminent. Please reconnect.");
        close("shutdown", "shutdown");
    }

    /** Closes after what is queued (the writer sends the close frame last). */
    void close(String why, String reason) {
        hub.closed(this, reason);
        closeWhy = why;
        closing = true;
        drain();
    }

    private void closeSession(String why) {
        WsSession s = session;
        if (s == null) return;
        try {
            s.close(io.helidon.websocket.WsCloseCodes.NORMAL_CLOSE, why);
        } catch (RuntimeException ignored) {
            // already gone
        }
    }

    /** A string or number field as text (ccxt sends the timestamp as a string, bitget-api as a number). */
    private static String text(JsonNode n, String name) { return StreamChannel.text(n, name); }
}
