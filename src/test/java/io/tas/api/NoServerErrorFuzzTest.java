package io.tas.api;

import io.tas.http.Endpoint;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** No client input yields a 5xx: random, signed parameters against every catalog row. The seed is printed for replay. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class NoServerErrorFuzzTest {
    private static final List<String> NAMES = List.of("category", "symbol", "coin", "limit", "cursor", "startTime", "endTime",
            "orderId", "marginMode", "leverage", "holdMode", "deduct", "amount", "fromCoinList", "productType", "marginCoin", "idLessThan");
    private static final List<String> VALUES = List.of("", "-1", "0", "101", "1e9", "99999999999999999999999", "SPOT", "USDT-FUTURES",
            "BTCUSDT", "null", "[]", "{}", "%", "%zz", "🙂", "a".repeat(300), "1.5", "NaN", "crossed", "' or 1=1 --");

    @Parameter Databases.Kind kind;

    @Test
    void everyRowAnswersWithAnEnvelopeAndNever5xx() {
        long seed = Long.getLong("tas.fuzz.seed", System.nanoTime());
        System.out.println("NoServerErrorFuzzTest seed=" + seed + " (replay with -Dtas.fuzz.seed=" + seed + ")");
        Random rnd = new Random(seed);
        TestServer server = ServerPool.server(kind);
        ApiClient client = server.client(Credentials.MAIN_RW);
        // The switch row turns an account classic a minute later: never the demo main account, which other classes share.
        ApiClient switcher = server.client(new Admin(server).fundedAccount("fuzz-switch-" + kind + "-" + seed));
        for (int round = 0; round < 6; round++) {
            for (Endpoint e : Endpoint.values()) {
                ServerPool.nextSecond(kind);
                StringBuilder q = new StringBuilder();
                StringBuilder body = new StringBuilder("{");
                int n = rnd.nextInt(4);
                for (int i = 0; i < n; i++) {
                    String k = NAMES.get(rnd.nextInt(NAMES.size()));
                    String v = VALUES.get(rnd.nextInt(VALUES.size()));
                    if (!q.isEmpty()) q.append('&');
                    q.append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
                    if (body.length() > 1) body.append(',');
                    body.append('"').append(k).append("\":\"").append(v.replace("\"", "")).append('"');
                }
                body.append('}');
                ApiClient caller = e == Endpoint.ACCOUNT_SWITCH ? switcher : client;
                Reply r = e.method().equals("GET")
                        ? client.get(e.path() + (q.isEmpty() ? "" : "?" + q))
                        : caller.post(e.path(), rnd.nextInt(5) == 0 ? "{\"broken\"" : body.toString());
                assertThat(r.status()).as(e + " seed=" + seed + " -> " + r.raw()).isIn(200, 400, 429);
                assertThat(r.body().has("code")).as(r.raw()).isTrue();
                assertThat(r.raw()).doesNotContain("Exception").doesNotContain("\tat ");
            }
        }
    }
}
