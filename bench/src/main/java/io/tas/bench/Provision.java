package io.tas.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Creates fresh accounts through the server's admin API, one API key each, and writes their credentials, one line
 * per account ("accessKey secret passphrase uid"), for `load --credentials-file`. Per account:
 * POST /admin/v1/accounts {username, accountMode}, then POST /admin/v1/keys {uid, passphrase, permType, permissions}
 * (the answer is the only place the key's secret is shown).
 */
final class Provision {
    private static final Pattern UID = Pattern.compile("\"uid\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern ACCESS_KEY = Pattern.compile("\"accessKey\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern SECRET = Pattern.compile("\"secret\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_.-]+");

    private Provision() {
    }

    static int run(Args a) throws Exception {
        String host = a.str("host", "127.0.0.1");
        int adminPort = Integer.parseInt(a.required("admin-port"));
        int accounts = a.integer("accounts", 64);
        String out = a.required("out");
        String token = a.str("admin-token", "tas-demo-admin-token"); // the demo token, accepted with serve --sandbox
        String prefix = word(a.str("username-prefix", "bench-"));
        String mode = word(a.str("account-mode", "UNIFIED"));
        String permType = word(a.str("perm-type", "read-and-write"));
        List<String> permissions = a.all("permission", List.of("uta_mgt"));
        String passphrase = word(a.str("passphrase", "BenchPass1"));
        a.done();
        if (accounts < 1 || accounts > 10_000) throw new IllegalArgumentException("--accounts must be 1..10000");
        permissions.forEach(Provision::word);

        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://" + host + ":" + adminPort + "/admin/v1";
        String perms = "[\"" + String.join("\",\"", permissions) + "\"]";
        StringBuilder lines = new StringBuilder("# accessKey secret passphrase uid (bench provision, " + accounts + " accounts)\n");
        for (int i = 0; i < accounts; i++) {
            String account = post(http, base + "/accounts", token,
                    "{\"username\":\"" + prefix + i + "\",\"accountMode\":\"" + mode + "\"}");
            String uid = group(UID, account, "uid");
            String key = post(http, base + "/keys", token, "{\"uid\":" + uid + ",\"label\":\"bench\",\"passphrase\":\""
                    + passphrase + "\",\"permType\":\"" + permType + "\",\"permissions\":" + perms + "}");
            lines.append(new Credentials(group(ACCESS_KEY, key, "accessKey"), group(SECRET, key, "secret"), passphrase)
                    .line(uid)).append('\n');
        }
        Files.writeString(Path.of(out), lines);
        System.out.printf("provisioned %d %s accounts (%s0..%s%d), one %s key each with %s -> %s%n",
                accounts, mode, prefix, prefix, accounts - 1, permType, permissions, out);
        return 0;
    }

    private static String post(HttpClient http, String url, String token, String json) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 || !r.body().contains("\"00000\"")) {
            throw new IllegalStateException("POST " + url + " " + json + " -> HTTP " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    private static String group(Pattern p, String body, String what) {
        Matcher mt = p.matcher(body);
        if (!mt.find()) throw new IllegalStateException("no " + what + " in " + body);
        return mt.group(1);
    }

    /** Flag values go into JSON unescaped, so they must be plain words. */
    private static String word(String s) {
        if (!WORD.matcher(s).matches()) throw new IllegalArgumentException("not a plain word: " + s);
        return s;
    }
}
