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
                }).join();
    }

    public void send(String text) { ws.sendText(text, true).join(); }

    /** The next frame as text, or null after the wait. */
    public String nextText(long millis) throws InterruptedException { return received.poll(millis, TimeUnit.MILLISECONDS); }

    /** The next JSON frame that matches, skipping others; fails after 10 s. */
    public JsonNode next(Predicate<JsonNode> which) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < end) {
            String t = received.poll(100, TimeUnit.MILLISECONDS);
            if (t == null || t.equals("pong")) continue;
            JsonNode n = Json.MAPPER.readTree(t);
            if (which.test(n)) return n;
        }
        throw new AssertionError("no such frame within 10 s");
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
