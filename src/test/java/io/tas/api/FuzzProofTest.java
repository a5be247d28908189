package io.tas.api;

import io.tas.api.Malformations.Case;
import io.tas.config.Config;
import io.tas.http.Endpoint;
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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 4: seeded malformed requests over every catalog row (Malformations, HttpGarbage) against a server with
 * rate limits off (so no 429 hides an answer). Every answer is the envelope with a code of ErrorCode and that code's
 * HTTP status, never a 5xx; a success only on a read row; the state hash is unchanged. The seed is printed for replay
 * (-Dtas.fuzz.seed); -Dproof.long=true sends 1M requests per database.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class FuzzProofTest {
    private static final int THREADS = 4;
    @Parameter Databases.Kind kind;

    private int requests() {
        if (Proof.longRun()) return 1_000_000;
        return Integer.getInteger("proof.fuzz.requests", kind == Databases.Kind.H2 ? 100_000 : 10_000);
    }

    @Test
    void malformedRequestsGetTheEnvelopeNeverA5xxAndChangeNothing() throws Exception {
        long seed = Long.getLong("tas.fuzz.seed", System.nanoTime());
        int n = requests();
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(kind, clock, false)) {
            Admin admin = new Admin(server);
            Map<Endpoint, Credentials> callers = callers();
            Map<Endpoint, List<String>> required = requiredParameters(server, admin);
            String before = admin.stateHash();
            int maxBody = Config.fromEnv(Map.of()).maxBodyBytes();

            Map<String, LongAdder> codes = new ConcurrentSkipListMap<>();
            Map<String, LongAdder> kinds = new ConcurrentSkipListMap<>();
            Map<String, String> problems = new ConcurrentHashMap<>();
            LongAdder answers = new LongAdder();
            Map<String, String> slow = new ConcurrentSkipListMap<>();
            long started = System.nanoTime();
            try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    long threadSeed = seed + t;
                    int share = n / THREADS + (t < n % THREADS ? 1 : 0);
                    done.add(pool.submit(() -> {
                        Malformations gen = new Malformations(threadSeed, required, callers, clock::millis, maxBody, server.app.port());
                        try (RawHttp http = new RawHttp(server.app.port())) {
                            for (int i = 0; i < share && problems.size() < 20; i++) {
                                Case c = gen.next();
                                kinds.computeIfAbsent(c.kind(), k -> new LongAdder()).increment();
                                long t0 = System.nanoTime();
                                List<Answer> got = c.oneShot() ? http.oneShot(c.raw()) : List.of(http.exchange(c.request().bytes(server.app.port())));
                                long took = (System.nanoTime() - t0) / 1_000_000;
                                if (took > 500) slow.merge(c.kind(), took + "ms " + describe(c).lines().findFirst().orElse(""), (x, y) -> x);
                                if (got.isEmpty()) got = List.of(new Answer(-1, "closed without an answer", new byte[0]));
                                for (Answer a : got) {
                                    answers.increment();
                                    String code = EnvelopeCheck.codeOrProblem(a);
                                    if (code.equals("00000") && c.write()) code = "!a write row accepted a malformed request";
                                    if (code.equals("429")) code = "!429 with rate limits off";
                                    codes.computeIfAbsent(code.startsWith("!") ? "problem" : code, k -> new LongAdder()).increment();
                                    if (code.startsWith("!")) problems.putIfAbsent(code.length() > 60 ? code.substring(0, 60) : code,
                                            c.kind() + " " + c.row() + " seed=" + threadSeed + " -> " + code + "\n  request: " + describe(c));
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
            System.out.println("FuzzProofTest " + kind + " seed=" + seed + " (replay: -Dtas.fuzz.seed=" + seed + ") " + n + " requests in "
                    + ms + " ms; kinds " + kinds + "; codes " + codes);
            if (!slow.isEmpty()) System.out.println("FuzzProofTest slow answers (over 500 ms), one per kind: " + slow);
            assertThat(problems).as("seed " + seed + ", " + ms + " ms, slow " + slow).isEmpty();
            assertThat(after).as("state hash").isEqualTo(before);
            assertThat(kinds.values().stream().mapToLong(LongAdder::sum).sum()).isEqualTo(n);
            Proof.print("fuzz " + kind.name().toLowerCase() + ": requests=" + n + " answers=" + answers.sum() + " 5xx=0 envelope=100% codes="
                    + String.join(",", codes.keySet()) + " state-unchanged (" + ms + " ms, seed " + seed + ")");
        }
    }

    /** The key each row is called with: the classic sub-account on classic rows, the unified main account elsewhere. */
    static Map<Endpoint, Credentials> callers() {
        Map<Endpoint, Credentials> m = new EnumMap<>(Endpoint.class);
        for (Endpoint e : Endpoint.values()) m.put(e, e.family() == Endpoint.Family.CLASSIC ? Credentials.CLASSIC : Credentials.MAIN_RW);
        return m;
    }

    /**
     * Each POST row's required parameters, read from its 40019 answer to a bare {} (a row that answers otherwise, say
     * the account switch with 00000, has none). Asked as a throwaway account, before the state hash is taken.
     */
    private static Map<Endpoint, List<String>> requiredParameters(TestServer server, Admin admin) {
        Credentials probe = admin.fundedAccount("fuzz-probe");
        Map<Endpoint, List<String>> out = new EnumMap<>(Endpoint.class);
        try (RawHttp http = new RawHttp(server.app.port())) {
            for (Endpoint e : Endpoint.values()) {
                if (!e.method().equals("POST")) continue;
                RawRequest r = new RawRequest("POST", e.path(), null).header("Content-Type", "application/json").body("{}".getBytes(StandardCharsets.UTF_8));
                Answer a = http.exchange(r.sign(probe, server.clock.millis()).bytes(server.app.port()));
                String msg = a.text();
                String prefix = "\"msg\":\"Parameter ";
                int at = msg.indexOf(prefix);
                boolean empty = msg.contains("\"code\":\"40019\"") && at >= 0;
                out.put(e, empty ? Arrays.asList(msg.substring(at + prefix.length(), msg.indexOf(" cannot be empty")).split(",")) : List.of());
            }
        }
        System.out.println("FuzzProofTest required parameters of the POST rows (from their 40019): " + new TreeMap<>(out));
        return out;
    }

    private static String describe(Case c) {
        if (c.request() != null) return c.request().describe();
        String s = new String(c.raw(), StandardCharsets.ISO_8859_1);
        return s.length() > 500 ? s.substring(0, 500) + "...(" + s.length() + " bytes)" : s;
    }
}
