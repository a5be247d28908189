package io.tas.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.auth.Signature;
import io.tas.http.Json;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A WebSocket client of the streams (issue 27) for tests: sends text frames, and hands over what arrives, in order. */
public final class StreamClient implements AutoCloseable {
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    /** Completed with "status reason" when the server closes the connection. */
    public final java.util.concurrent.CompletableFuture<String> closed = new java.util.concurrent.CompletableFuture<>();
    private final WebSocket ws;

    public StreamClient(String httpBaseUrl, String path) {
        this.ws = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create(httpBaseUrl.replaceFirst("^http", "ws") + path), new WebSocket.Listener() {
                    private final StringBuilder partial = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            received.add(partial.toString());
                            partial.setLength(0);
                        }
                        w.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
                        closed.complete(status + " " + reason);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket w, Throwable error) { closed.complete("error " + error); }
                }).join();
    }

    public void send(String text) { ws.sendText(text, true).join(); }

    /** The next frame as text, or null after the wait. */
    public String nextText(long millis) throws InterruptedException { return received.poll(millis, TimeUnit.MILLISECONDS); }

    /**
     * The oldest JSON frame not taken yet that matches, taken; frames that do not match stay for a later call (pushes of
     * different topics may come in either order). Fails after 10 s.
     */
    public JsonNode next(Predicate<JsonNode> which) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        while (true) {
            for (java.util.Iterator<JsonNode> it = kept.iterator(); it.hasNext(); ) {
                JsonNode n = it.next();
                if (which.test(n)) {
                    it.remove();
                    return n;
                }
            }
            if (System.nanoTime() > end) throw new AssertionError("no such frame within 10 s; kept: " + kept);
            String t = received.poll(100, TimeUnit.MILLISECONDS);
            if (t != null && !t.equals("pong")) kept.add(Json.MAPPER.readTree(t));
        }
    }

    private final java.util.List<JsonNode> kept = new java.util.ArrayList<>();

    /** The frames received and not taken yet (after draining what has arrived). */
    public java.util.List<JsonNode> kept() throws Exception {
        for (String t; (t = received.poll()) != null; ) if (!t.equals("pong")) kept.add(Json.MAPPER.readTree(t));
        return java.util.List.copyOf(kept);
    }

    /** The login frame as ccxt sends it: timestamp in seconds as a string, sign = HMAC(timestamp + GET + /user/verify). */
    public void login(Credentials c, long nowMillis, String signOverride) {
        String ts = Long.toString(nowMillis / 1000);
        String sign = signOverride != null ? signOverride : Signature.sign(c.secret(), ts, "GET", "/user/verify", "", "");
        send("{\"op\":\"login\",\"args\":[{\"apiKey\":\"" + c.key() + "\",\"passphrase\":\"" + c.passphrase() + "\",\"timestamp\":\"" + ts
                + "\",\"sign\":\"" + sign + "\"}]}");
    }

    @Override
    public void close() { ws.abort(); }
}
