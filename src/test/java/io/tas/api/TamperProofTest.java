package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.api.OneByteMutation.Part;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.support.ApiClient;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.Proof;
import io.tas.support.RawHttp;
import io.tas.support.RawHttp.Answer;
import io.tas.support.RawRequest;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

import static io.tas.api.Replies.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 5: one-byte mutations (OneByteMutation) of valid signed requests, none accepted, nothing changed;
 * and the timestamp window's edges exactly at ±30 000 ms. The bases are the signature-vectors file's requests
 * (bitget-api and ccxt, re-signed with test keys in the form each client used) and every signed GET row of the
 * catalog that takes no parameters. -Dproof.long=true sends 1M mutations per database.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class TamperProofTest {
    private static final int THREADS = 4;
    /** PBKDF2 runs for each wrong passphrase (the signature is right), about 10 ms each: a smaller share keeps CI fast. */
    private static final int[] WEIGHTS = {14, 14, 14, 1, 14, 14, 14, 14};

    @Parameter Databases.Kind kind;

    /** A valid signed request, what its signature covers, and whether it may be sent as is before the run (a read). */
    record Base(String name, RawRequest request, String signedQuery, boolean read) {}

    private int mutations() {
        if (Proof.longRun()) return 1_000_000;
        return Integer.getInteger("proof.tamper.mutations", kind == Databases.Kind.H2 ? 100_000 : 10_000);
    }

    @Test
    void noOneByteMutationOfASignedRequestIsAccepted() throws Exception {
        long seed = Long.getLong("tas.tamper.seed", System.nanoTime());
        int n = mutations();
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(kind, clock, false)) {
            int port = server.app.port();
            Admin admin = new Admin(server);
            List<Base> bases = new ArrayList<>();
            try (RawHttp http = new RawHttp(port)) {
                // Every base is valid: a read is sent as is now (a vector must pass; a catalog row that wants parameters drops out).
                for (Base b : bases(admin.fundedAccount("tamper-unified", "USDT", "1000"), clock.millis())) {
                    String code = b.read() ? EnvelopeCheck.codeOrProblem(http.exchange(b.request().bytes(port))) : "00000";
                    if (b.name().startsWith("catalog") && !code.equals("00000")) continue;
                    assertThat(code).as(b.name()).isEqualTo("00000");
                    bases.add(b);
                }
            }
            System.out.println("TamperProofTest bases: " + bases.stream().map(Base::name).toList());
            String before = admin.stateHash();
            List<Base> withQuery = bases.stream().filter(b -> b.request().query != null && b.request().query.length > 0).toList();

            Map<String, LongAdder> byPart = new ConcurrentSkipListMap<>();
            Map<String, LongAdder> neutral = new ConcurrentSkipListMap<>();
            Map<String, LongAdder> codes = new ConcurrentSkipListMap<>();
            Map<String, String> problems = new ConcurrentHashMap<>();
            LongAdder sent = new LongAdder();
            long started = System.nanoTime();
            try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    long threadSeed = seed + t;
                    int share = n / THREADS + (t < n % THREADS ? 1 : 0);
                    done.add(pool.submit(() -> {
                        Random rnd = new Random(threadSeed);
                        int left = share;
                        try (RawHttp http = new RawHttp(port)) {
                            while (problems.size() < 20) {
                                Part part = part(rnd);
                                List<Base> having = part == Part.QUERY ? withQuery : bases;
                                Base b = having.get(rnd.nextInt(having.size()));
                                OneByteMutation m = OneByteMutation.of(b.request(), b.signedQuery(), part, rnd);
                                if (m.neutral != null) {
                                    neutral.computeIfAbsent(m.neutral, k -> new LongAdder()).increment();
                                    continue;
                                }
                                if (left-- <= 0) break;
                                sent.increment();
                                byPart.computeIfAbsent(part.name().toLowerCase(), k -> new LongAdder()).increment();
                                byte[] bytes = m.request.bytes(port);
                                List<Answer> got = m.mayBreakFraming() ? http.oneShot(bytes) : List.of(http.exchange(bytes));
                                if (got.isEmpty()) codes.computeIfAbsent("closed", k -> new LongAdder()).increment();
                                for (Answer a : got) {
                                    String code = EnvelopeCheck.codeOrProblem(a);
                                    if (code.equals("00000")) code = "!accepted";
                                    codes.computeIfAbsent(code.startsWith("!") ? "problem" : code, k -> new LongAdder()).increment();
                                    if (code.startsWith("!")) problems.putIfAbsent(b.name() + " " + m.part + " " + code.substring(0, Math.min(40, code.length())),
                                            b.name() + " seed=" + threadSeed + " " + code + "\n  " + m);
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) f.get();
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            String after = admin.stateHash();
            System.out.println("TamperProofTest " + kind + " seed=" + seed + " (replay: -Dtas.tamper.seed=" + seed + ") " + sent.sum() + " mutations in " + ms
                    + " ms; codes " + codes + "; excluded as neutral " + neutral);
            assertThat(problems).as("seed " + seed).isEmpty();
            assertThat(sent.sum()).isEqualTo(n);
            assertThat(after).as("state hash").isEqualTo(before);
            // The writes themselves are valid: sent unchanged now, after the count (the account switch last).
            try (RawHttp http = new RawHttp(port)) {
                for (Base b : bases) if (!b.read()) assertThat(EnvelopeCheck.codeOrProblem(http.exchange(b.request().bytes(port)))).as(b.name()).isEqualTo("00000");
            }
            Proof.print("tamper " + kind.name().toLowerCase() + ": mutations=" + n + " accepted=0 by-part=" + byPart.toString().replace(" ", "")
                    + " codes=" + String.join(",", codes.keySet()) + " excluded-neutral=" + neutral.values().stream().mapToLong(LongAdder::sum).sum()
                    + " bases=" + bases.size() + " state-unchanged (" + ms + " ms, seed " + seed + ")");
        }
    }

    /** §1.5 of wire facts, 40008 beyond 30 s either way: the edges are exact, 30 000 ms in, 30 001 ms out, and change nothing. */
    @Test
    void timestampWindowEdgesAreExactlyThirtySeconds() {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(kind, clock, false)) {
            Admin admin = new Admin(server);
            ApiClient c = server.client(Credentials.MAIN_RW);
            String before = admin.stateHash();
            for (long skew : new long[] {-30_000, 30_000}) {
                assertThat(c.send("GET", "/api/v3/account/info", "", skew, null).code()).as("skew " + skew).isEqualTo("00000");
            }
            for (long skew : new long[] {-30_001, 30_001}) {
                assertError(c.send("GET", "/api/v3/account/info", "", skew, null), "40008", "Request timestamp expired");
                // A write outside the window is refused before its body is read for parameters.
                assertError(c.send("POST", "/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}", skew, "application/json"), "40008");
            }
            assertThat(admin.stateHash()).isEqualTo(before);
            Proof.print("tamper-window " + kind.name().toLowerCase() + ": ±30000 ms accepted, ±30001 ms refused 40008, state-unchanged");
        }
    }

    /** Uniform over the parts but the passphrase (WEIGHTS). */
    private static Part part(Random rnd) {
        int total = 0;
        for (int w : WEIGHTS) total += w;
        int x = rnd.nextInt(total);
        for (int i = 0; i < WEIGHTS.length; i++) {
            if (x < WEIGHTS[i]) return Part.values()[i];
            x -= WEIGHTS[i];
        }
        throw new IllegalStateException();
    }

    /**
     * The signature-vectors requests (target, body, Content-Type, signed form as captured) re-signed now with a test key of
     * the row's account family, and every signed GET row of the catalog without parameters. The vectors' POSTs change state,
     * so they are sent unchanged only after the run.
     */
    static List<Base> bases(Credentials unified, long now) throws IOException {
        List<Base> out = new ArrayList<>();
        JsonNode vectors;
        Path shared = Path.of("../shared/reference/signature-vectors.json");
        try (InputStream in = Files.exists(shared) ? Files.newInputStream(shared) : TamperProofTest.class.getResourceAsStream("/signature-vectors.json")) {
            vectors = Json.MAPPER.readTree(in);
        }
        Map<String, Endpoint> rows = new java.util.HashMap<>();
        for (Endpoint e : Endpoint.values()) rows.put(e.method() + " " + e.path(), e);
        List<Base> switches = new ArrayList<>();
        for (JsonNode v : vectors.get("requests")) {
            String target = v.get("target").asText();
            int q = target.indexOf('?');
            String path = q < 0 ? target : target.substring(0, q);
            String query = q < 0 ? "" : target.substring(q + 1);
            String method = v.get("method").asText();
            Endpoint row = rows.get(method + " " + path);
            Credentials c = row.family() == Endpoint.Family.CLASSIC ? Credentials.CLASSIC : unified;
            String signed = v.get("signedOver").asText().startsWith("decoded") ? OneByteMutation.decodedSorted(query) : query;
            RawRequest r = new RawRequest(method, path, query.isEmpty() ? null : query);
            if (v.get("headers").has("Content-Type")) r.header("Content-Type", v.get("headers").get("Content-Type").asText());
            r.body(v.get("body").asText().getBytes(StandardCharsets.UTF_8)).sign(c, now, signed);
            Base b = new Base(v.get("client").asText() + " " + method + " " + path, r, signed, method.equals("GET"));
            (row == Endpoint.ACCOUNT_SWITCH ? switches : out).add(b);
        }
        for (Endpoint e : Endpoint.values()) {
            if (e.isPublic() || !e.method().equals("GET")) continue;
            Credentials c = e.family() == Endpoint.Family.CLASSIC ? Credentials.CLASSIC : unified;
            out.add(new Base("catalog " + e, new RawRequest("GET", e.path(), null).sign(c, now), "", true));
        }
        out.addAll(switches); // last: checked after the run in this order, the switch after the other writes
        return out;
    }
}
