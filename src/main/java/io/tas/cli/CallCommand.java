package io.tas.cli;

import io.tas.auth.Signature;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.Callable;

/** `tas call GET /api/v3/account/info`: signs and sends one request, so nobody needs a signer to try the API. */
@Command(name = "call", mixinStandardHelpOptions = true,
        description = "Sign and send one request (demo credentials unless given). Exit 0 when code is 00000.")
public final class CallCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Parameters(index = "0", description = "GET or POST") String method;
    @Parameters(index = "1", description = "path with optional query, e.g. '/api/v3/market/tickers?category=SPOT'") String target;
    @Option(names = {"-d", "--data"}, description = "JSON body for POST") String body;
    @Option(names = "--base-url", defaultValue = "${env:TAS_BASE_URL:-http://127.0.0.1:8080}") String baseUrl;
    @Option(names = "--key", defaultValue = "${env:TAS_API_KEY:-bg_demo00000000000000000000000001}") String key;
    @Option(names = "--secret", defaultValue = "${env:TAS_API_SECRET:-demo-secret-main-rw-0000000000000001}") String secret;
    @Option(names = "--passphrase", defaultValue = "${env:TAS_API_PASSPHRASE:-DemoPass1}") String passphrase;

    @Override
    public Integer call() throws Exception {
        String m = method.toUpperCase();
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        String payload = body == null ? "" : body;
        String ts = Long.toString(System.currentTimeMillis());
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(baseUrl + target))
                .header("ACCESS-KEY", key)
                .header("ACCESS-SIGN", Signature.sign(secret, ts, m, path, query, payload))
                .header("ACCESS-TIMESTAMP", ts)
                .header("ACCESS-PASSPHRASE", passphrase)
                .header("Content-Type", "application/json")
                .header("locale", "en-US");
        req = m.equals("GET") ? req.GET() : req.method(m, HttpRequest.BodyPublishers.ofString(payload));
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> res = client.send(req.build(), HttpResponse.BodyHandlers.ofString());
            spec.commandLine().getOut().println(res.body());
            return res.body().contains("\"code\":\"00000\"") ? 0 : 1;
        }
    }
}
