package io.tas.cli;

import io.tas.App;
import io.tas.auth.Signature;
import io.tas.config.Config;
import io.tas.http.Endpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * The build's AOT training run (D107): run under {@code -XX:AOTCacheOutput}, it starts the sandbox on a throw-away H2
 * file with the demo seed, sends every catalog row signed (the demo keys; most answer an error, which is trained too),
 * then trades and watches the streams (AotTrainTrading, D230), then stops, so the JVM writes a cache of the classes,
 * links and profiles a start needs. {@code ./tas} then starts with {@code -XX:AOTCache}: issue 12 item 10's startup
 * target.
 */
@Command(name = "aot-train", hidden = true, description = "Exercise the service once for the JVM's AOT cache (build step).")
public final class AotTrainCommand implements Callable<Integer> {
    private static final String MAIN_KEY = "bg_demo00000000000000000000000001";
    private static final String MAIN_SECRET = "demo-secret-main-rw-0000000000000001";
    private static final String MAIN_PASS = "DemoPass1";
    private static final String CLASSIC_KEY = "bg_demo00000000000000000000000005";
    private static final String CLASSIC_SECRET = "demo-secret-classic-0000000000000005";
    private static final String CLASSIC_PASS = "DemoPass5";
    /** Rounds over the catalog: enough for the hot paths to be profiled, short enough for every build. */
    private static final int ROUNDS = 30;
    /** Rows that answer 00000 to a bare signed call with the demo keys (18 today): fewer means the training broke. */
    private static final int MIN_OK_ROWS = 10;
    /** Orders the trading half must have placed, and frames its sockets received (1,200 and more when it works). */
    private static final int MIN_ORDERS = 600;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("tas-aot-train");
        try {
            // Not the caller's TAS_* settings: a build must not depend on the shell it runs in (loopback, any free port).
            Config config = Config.fromEnv(Map.of()).withHost("127.0.0.1").withPort(0).withAdminPort(0)
                    .withDb("jdbc:h2:file:" + dir.resolve("train"), "sa", "")
                    .withRateLimits(false).withSandbox(true).validated();
            App app = ServeCommand.start(config, "demo", false);
            try (HttpClient client = HttpClient.newHttpClient()) {
                String base = "http://127.0.0.1:" + app.port();
                int ok = 0;
                for (int round = 0; round < ROUNDS; round++) {
                    for (Endpoint e : Endpoint.values()) {
                        boolean classic = e.family() == Endpoint.Family.CLASSIC;
                        ok += send(client, base, e, classic ? CLASSIC_KEY : MAIN_KEY, classic ? CLASSIC_SECRET : MAIN_SECRET,
                                classic ? CLASSIC_PASS : MAIN_PASS) ? 1 : 0;
                    }
                }
                spec.commandLine().getOut().printf("aot-train: %d rounds over %d rows, %d answered 00000%n", ROUNDS, Endpoint.values().length, ok);
                // A cache trained only on refusals would slow every start unnoticed: fail the build instead.
                if (ok < ROUNDS * MIN_OK_ROWS) {
                    spec.commandLine().getErr().printf("aot-train: only %d answers were 00000 (expected at least %d): signing or the demo keys are broken%n",
                            ok, ROUNDS * MIN_OK_ROWS);
                    return 1;
                }
                long[] trading = new AotTrainTrading(client, app.port(), app.adminPort(), MAIN_KEY, MAIN_SECRET, MAIN_PASS, config.adminToken()).run();
                spec.commandLine().getOut().printf("aot-train: %d orders accepted, %d WebSocket frames received%n", trading[0], trading[1]);
                // The orders and pushes are the part a run spends its life in: a training that placed none trained nothing.
                if (trading[0] < MIN_ORDERS || trading[1] < MIN_ORDERS) {
                    spec.commandLine().getErr().printf("aot-train: the trading half placed %d orders and received %d frames (expected at least %d each)%n",
                            trading[0], trading[1], MIN_ORDERS);
                    return 1;
                }
            } finally {
                app.close();
            }
            return 0;
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static boolean send(HttpClient client, String base, Endpoint e, String key, String secret, String pass) throws Exception {
        String path = e.path(); // no catalog row takes a path parameter
        String body = e.method().equals("GET") ? "" : "{}";
        HttpRequest.Builder req = signed(base, key, secret, pass, e.method(), path, body).header("locale", "en-US");
        req = e.method().equals("GET") ? req.GET() : req.method(e.method(), HttpRequest.BodyPublishers.ofString(body));
        return client.send(req.build(), HttpResponse.BodyHandlers.ofString()).body().contains("\"code\":\"00000\"");
    }

    /** A request to base + path with the signature headers for this method and body (no method set yet). */
    static HttpRequest.Builder signed(String base, String key, String secret, String pass, String method, String path, String body) {
        String ts = Long.toString(System.currentTimeMillis());
        return HttpRequest.newBuilder(URI.create(base + path))
                .header("ACCESS-KEY", key)
                .header("ACCESS-SIGN", Signature.sign(secret, ts, method, path, "", body))
                .header("ACCESS-TIMESTAMP", ts)
                .header("ACCESS-PASSPHRASE", pass)
                .header("Content-Type", "application/json");
    }
}
