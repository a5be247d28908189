package io.tas.cli;

import io.tas.auth.Signature;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The training's second half (D230): what a bot does all day, so the cache also holds the order, matching, ledger and
 * push paths' classes and profiles, which the catalog's bare calls never reach: a logged-in private WebSocket subscribed
 * to account, position, order and fill, a public one to the ticker and books, and rounds of spot market orders both
 * ways, a resting limit order cancelled, and an admin ticker move that every subscriber is pushed.
 */
final class AotTrainTrading {
    /** Rounds of orders: the bench and a bot's first minutes run these paths thousands of times. */
    private static final int ROUNDS = 400;
    private static final String SYMBOL = "BTCUSDT";

    private final HttpClient client;
    private final String base;
    private final String adminBase;
    private final String key;
    private final String secret;
    private final String pass;
    private final String adminToken;
    private final AtomicLong pushes = new AtomicLong();

    AotTrainTrading(HttpClient client, int port, int adminPort, String key, String secret, String pass, String adminToken) {
        this.client = client;
        this.base = "http://127.0.0.1:" + port;
        this.adminBase = "http://127.0.0.1:" + adminPort;
        this.key = key;
        this.secret = secret;
        this.pass = pass;
        this.adminToken = adminToken;
    }

    /** Runs the rounds; returns how many orders were accepted and how many frames the sockets received. */
    long[] run() throws Exception {
        WebSocket privateWs = open("/v3/ws/private");
        WebSocket publicWs = open("/v3/ws/public");
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        privateWs.sendText("{\"op\":\"login\",\"args\":[{\"apiKey\":\"" + key + "\",\"passphrase\":\"" + pass + "\",\"timestamp\":\"" + ts
                + "\",\"sign\":\"" + Signature.sign(secret, ts, "GET", "/user/verify", "", "") + "\"}]}", true).get(5, TimeUnit.SECONDS);
        Thread.sleep(200); // logged in before the subscribe
        StringBuilder topics = new StringBuilder();
        for (String t : new String[]{"account", "position", "order", "fill"}) {
            topics.append(topics.isEmpty() ? "" : ",").append("{\"instType\":\"UTA\",\"topic\":\"").append(t).append("\"}");
        }
        privateWs.sendText("{\"op\":\"subscribe\",\"args\":[" + topics + "]}", true).get(5, TimeUnit.SECONDS);
        publicWs.sendText("{\"op\":\"subscribe\",\"args\":[{\"instType\":\"spot\",\"topic\":\"ticker\",\"symbol\":\"" + SYMBOL + "\"},"
                + "{\"instType\":\"spot\",\"topic\":\"books5\",\"symbol\":\"" + SYMBOL + "\"}]}", true).get(5, TimeUnit.SECONDS);
        long accepted = 0;
        for (int round = 0; round < ROUNDS; round++) {
            accepted += order("{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL + "\",\"side\":\"buy\",\"orderType\":\"market\",\"qty\":\"20\"}") != null ? 1 : 0;
            accepted += order("{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL + "\",\"side\":\"sell\",\"orderType\":\"market\",\"qty\":\"0.0002\"}") != null ? 1 : 0;
            String resting = order("{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL + "\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\","
                    + "\"price\":\"50000\",\"timeInForce\":\"gtc\"}");
            if (resting != null) {
                accepted++;
                signed("POST", "/api/v3/trade/cancel-order", "{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL + "\",\"orderId\":\"" + resting + "\"}");
            }
            if (round % 10 == 0) tickerMove(round);
        }
        privateWs.sendText("ping", true).get(5, TimeUnit.SECONDS);
        Thread.sleep(300); // the last pushes in
        privateWs.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        publicWs.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        return new long[]{accepted, pushes.get()};
    }

    private WebSocket open(String path) throws Exception {
        return client.newWebSocketBuilder().buildAsync(URI.create(base.replace("http", "ws") + path), new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                pushes.incrementAndGet();
                ws.request(1);
                return null;
            }
        }).get(5, TimeUnit.SECONDS);
    }

    /** The order's ID, or null when it was refused. */
    private String order(String body) throws Exception {
        String answer = signed("POST", "/api/v3/trade/place-order", body);
        int at = answer.indexOf("\"orderId\":\"");
        if (!answer.contains("\"code\":\"00000\"") || at < 0) return null;
        int from = at + "\"orderId\":\"".length();
        return answer.substring(from, answer.indexOf('"', from));
    }

    /** A move of the demo's BTCUSDT price by a tick or two, which the resting order at 50000 never reaches. */
    private void tickerMove(int round) throws Exception {
        String last = round % 20 == 0 ? "97250.6" : "97250.4";
        String body = "{\"category\":\"SPOT\",\"symbol\":\"" + SYMBOL + "\",\"lastPrice\":\"" + last + "\",\"ask1Price\":\"97250.7\","
                + "\"bid1Price\":\"97250.3\",\"ask1Size\":\"5\",\"bid1Size\":\"5\"}";
        client.send(HttpRequest.newBuilder(URI.create(adminBase + "/admin/v1/tickers")).header("Authorization", "Bearer " + adminToken)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String signed(String method, String path, String body) throws Exception {
        HttpRequest req = AotTrainCommand.signed(base, key, secret, pass, method, path, body)
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        return client.send(req, HttpResponse.BodyHandlers.ofString()).body();
    }
}
