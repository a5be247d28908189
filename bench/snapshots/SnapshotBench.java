import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 28 item 4: the snapshot benchmark's driver. Single-file program on the JDK alone (java SnapshotBench.java ...);
 * bench/run-snapshots starts the servers and drives it. Loopback only; every request and the whole run are bounded.
 *
 *   java SnapshotBench.java --out DIR --rounds N --deposits D --orders O --hash-every K --early-round E
 *        --max-seconds S [--pg-host H --pg-port P --pg-user U] [--no-live-heap] [--histograms] --server SPEC [--server SPEC ...]
 *   SPEC = label,kind,apiPort,adminPort,pid,where   kind h2: where = the .mv.db file; kind pg: where = the database
 *
 * On each server: GET /admin/v1/state-hash, POST /admin/v1/sandbox/snapshots {"name":"demo"} (the demo world as
 * seeded), GET /admin/v1/state-hash again (the reference: it must equal the first). Then N rounds, the servers taken
 * in turn within each round: dirty the world (D admin deposits with refs of their own, one admin ticker move, O signed
 * market orders of the demo key), then POST /admin/v1/sandbox/snapshots/restore {"name":"demo"}, timed by the server
 * (tookMs) and by this client (the round trip). Every K-th round and the last the state hash is read before the
 * restore (it must differ: the writes landed) and after it (it must equal the reference): a wrong restore fails the
 * run (exit 1). After round E and round N: VmRSS, VmHWM and open fds of each server (/proc/PID), the H2 file's size,
 * or PostgreSQL's pg_database_size and the snapshot schemas' size (psql). Writes rounds.csv and resources.csv in DIR
 * and prints the report (RESULT lines for the script).
 */
public class SnapshotBench {
    static final String ADMIN_TOKEN = "tas-demo-admin-token"; // the demo token, accepted with serve --sandbox
    static final String DEMO_KEY = "bg_demo00000000000000000000000001";
    static final String DEMO_SECRET = "demo-secret-main-rw-0000000000000001";
    static final String DEMO_PASS = "DemoPass1";
    static final long DEMO_UID = 1000000001L;
    static final String SNAPSHOT = "demo";
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    record Spec(String label, String kind, int port, int adminPort, long pid, String where) {}

    record Resources(int round, long rssKb, long hwmKb, int fds, long fileBytes, long dbBytes, long snapBytes, long worldBytes,
                     long catalogBytes, int snapSchemas, long pgFiles, long pgEmptyFiles, long liveHeapKb, long heapCommittedKb) {}

    static final class Server {
        final Spec spec;
        final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        String reference;
        double saveServerMs, saveRttMs;
        long rows;
        final List<Double> serverMs = new ArrayList<>(), rttMs = new ArrayList<>(), dirtyMs = new ArrayList<>();
        final List<Resources> resources = new ArrayList<>();
        final List<long[]> rssEvery = new ArrayList<>(); // {round, VmRSS KB}, every tenth of the rounds
        final List<Long> fileBytes = new ArrayList<>(); // H2: the .mv.db file's size after each restore
        int hashChecks;

        Server(Spec spec) { this.spec = spec; }
    }

    /** CPU ticks (USER_HZ) so far: the machine's busy ones (/proc/stat), the servers', every postgres process's, this JVM's. */
    record Cpu(long nanos, long busy, long servers, long postgres, long self) {
        static Cpu read(List<Server> servers) throws IOException {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) if (i != 4 && i != 5) busy += Long.parseLong(f[i]); // all but idle and iowait
            long srv = 0;
            for (Server s : servers) srv += ticks(s.spec.pid());
            long pg = 0;
            try (var procs = Files.list(Path.of("/proc"))) {
                for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
                    try {
                        if (Files.readString(p.resolve("comm")).trim().equals("postgres")) pg += ticks(Long.parseLong(p.getFileName().toString()));
                    } catch (IOException gone) {
                        // exited meanwhile
                    }
                }
            }
            return new Cpu(System.nanoTime(), busy, srv, pg, ticks(ProcessHandle.current().pid()));
        }

        /** utime + stime of a process (its threads included), in ticks; 0 when it is gone. */
        static long ticks(long pid) {
            try {
                String st = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
                return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of stat
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }
    }

    static String pgHost = "127.0.0.1", pgUser = "postgres";
    static int pgPort = 5432;
    static boolean liveHeap = true;
    static Path histograms; // --histograms: jcmd GC.class_histogram of each server at each reading, into the run folder

    public static void main(String[] a) throws Exception {
        Path out = null;
        int rounds = 100, deposits = 3, orders = 1, hashEvery = 10, early = 10;
        long maxSeconds = 900;
        List<Spec> specs = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            String v = i + 1 < a.length ? a[i + 1] : null;
            switch (a[i]) {
                case "--out" -> { out = Path.of(v); i++; }
                case "--rounds" -> { rounds = Integer.parseInt(v); i++; }
                case "--deposits" -> { deposits = Integer.parseInt(v); i++; }
                case "--orders" -> { orders = Integer.parseInt(v); i++; }
                case "--hash-every" -> { hashEvery = Integer.parseInt(v); i++; }
                case "--early-round" -> { early = Integer.parseInt(v); i++; }
                case "--max-seconds" -> { maxSeconds = Long.parseLong(v); i++; }
                case "--pg-host" -> { pgHost = v; i++; }
                case "--pg-port" -> { pgPort = Integer.parseInt(v); i++; }
                case "--pg-user" -> { pgUser = v; i++; }
                case "--no-live-heap" -> liveHeap = false;
                case "--histograms" -> histograms = Path.of("");
                case "--server" -> {
                    String[] p = v.split(",", 6);
                    specs.add(new Spec(p[0], p[1], Integer.parseInt(p[2]), Integer.parseInt(p[3]), Long.parseLong(p[4]), p[5]));
                    i++;
                }
                default -> throw new IllegalArgumentException("unknown argument " + a[i]);
            }
        }
        if (histograms != null && out != null) histograms = out;
        if (out == null || specs.isEmpty() || rounds < 1 || hashEvery < 1) throw new IllegalArgumentException("need --out, --server, rounds >= 1");
        early = Math.min(early, rounds);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);

        List<Server> servers = specs.stream().map(Server::new).toList();
        String failure = null;
        Cpu cpuStart = null, cpuEnd = null;
        StringBuilder csv = new StringBuilder("round,server,server_ms,rtt_ms,dirty_ms,hash_checked\n");
        try {
            for (Server s : servers) save(s);
            // jcmd's first call starts the JVM's attach listener, which keeps a socket open: start it now, so the fd
            // count after round E does not differ from the last one by that socket.
            if (liveHeap || histograms != null) for (Server s : servers) run(List.of(jcmd(), Long.toString(s.spec.pid()), "VM.version"));
            cpuStart = Cpu.read(servers);
            for (int r = 1; r <= rounds; r++) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("--max-seconds " + maxSeconds + " reached in round " + r);
                boolean check = r % hashEvery == 0 || r == rounds;
                for (Server s : servers) {
                    double dirty = dirty(s, r, deposits, orders);
                    if (check) {
                        String before = hash(s);
                        if (before.equals(s.reference)) throw new IllegalStateException(s.spec.label() + " round " + r + ": the writes did not change the state hash");
                    }
                    double[] t = restore(s);
                    if (check) {
                        String after = hash(s);
                        if (!after.equals(s.reference)) {
                            throw new IllegalStateException(s.spec.label() + " round " + r + ": state hash after restore " + after + " != saved " + s.reference);
                        }
                        s.hashChecks++;
                    }
                    s.serverMs.add(t[0]);
                    s.rttMs.add(t[1]);
                    s.dirtyMs.add(dirty);
                    if (s.spec.kind().equals("h2")) s.fileBytes.add(Files.size(Path.of(s.spec.where())));
                    csv.append(r).append(',').append(s.spec.label()).append(',').append(fmt(t[0])).append(',').append(fmt(t[1]))
                            .append(',').append(fmt(dirty)).append(',').append(check).append('\n');
                }
                if (r % Math.max(1, rounds / 10) == 0) for (Server s : servers) s.rssEvery.add(new long[] {r, procStatus(s.spec.pid(), "VmRSS")});
                if (r == rounds) cpuEnd = Cpu.read(servers); // before the readings: jcmd's full collections are not the rounds' CPU
                if (r == early || r == rounds) {
                    for (Server s : servers) {
                        if (s.resources.isEmpty() || s.resources.getLast().round() != r) s.resources.add(resources(s, r));
                    }
                }
                if (r % 10 == 0) {
                    StringBuilder p = new StringBuilder("round " + r + ":");
                    for (Server s : servers) p.append(String.format(Locale.ROOT, " %s %.1f ms (rtt %.1f)", s.spec.label(), s.serverMs.getLast(), s.rttMs.getLast()));
                    System.err.println(p);
                }
            }
        } catch (Exception e) {
            failure = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        Files.writeString(out.resolve("rounds.csv"), csv);
        StringBuilder res = new StringBuilder("server,round,vmrss_kb,vmhwm_kb,fds,h2_file_bytes,pg_database_bytes,pg_snapshot_bytes,pg_world_bytes,pg_catalog_bytes,snapshot_schemas,pg_db_files,pg_db_empty_files,live_heap_kb,heap_committed_kb\n");
        for (Server s : servers) {
            for (Resources x : s.resources) {
                res.append(String.join(",", s.spec.label(), "" + x.round(), "" + x.rssKb(), "" + x.hwmKb(), "" + x.fds(), "" + x.fileBytes(),
                        "" + x.dbBytes(), "" + x.snapBytes(), "" + x.worldBytes(), "" + x.catalogBytes(), "" + x.snapSchemas(), "" + x.pgFiles(),
                        "" + x.pgEmptyFiles(), "" + x.liveHeapKb(), "" + x.heapCommittedKb())).append('\n');
            }
        }
        Files.writeString(out.resolve("resources.csv"), res);
        report(System.out, servers, rounds, deposits, orders, hashEvery, early, failure, cpuStart, cpuEnd);
        System.exit(failure == null ? 0 : 1);
    }

    // ------------------------------------------------------------------ the steps

    static void save(Server s) throws Exception {
        String first = hash(s);
        long t0 = System.nanoTime();
        String body = admin(s, "POST", "/admin/v1/sandbox/snapshots", "{\"name\":\"" + SNAPSHOT + "\"}");
        s.saveRttMs = (System.nanoTime() - t0) / 1e6;
        s.saveServerMs = Double.parseDouble(field(body, "tookMs"));
        s.rows = Long.parseLong(field(body, "rows"));
        s.reference = hash(s);
        if (!first.equals(s.reference)) throw new IllegalStateException(s.spec.label() + ": the state hash moved across the save");
        System.err.printf(Locale.ROOT, "%s: saved snapshot %s (%d rows) in %.1f ms (round trip %.1f ms); state hash %s%n",
                s.spec.label(), SNAPSHOT, s.rows, s.saveServerMs, s.saveRttMs, s.reference);
    }

    /** A test's writes between two restores: deposits (each with its own ref), a ticker move, market orders. */
    static double dirty(Server s, int round, int deposits, int orders) throws Exception {
        long t0 = System.nanoTime();
        for (int i = 0; i < deposits; i++) {
            String ref = "snapbench-" + s.spec.label() + "-" + round + "-" + i;
            String r = admin(s, "POST", "/admin/v1/ledger/deposit", "{\"uid\":" + DEMO_UID + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\""
                    + (10 + i) + "." + round + "\",\"ref\":\"" + ref + "\"}");
            if (!r.contains("\"repeated\":false")) throw new IllegalStateException(s.spec.label() + " deposit " + ref + " answered " + r);
        }
        // The spot BTCUSDT ticker a little off the demo's 97250.5, a different price each round.
        String last = (97000 + round % 200) + ".5";
        String ask = (97000 + round % 200) + ".6";
        admin(s, "POST", "/admin/v1/tickers", "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"lastPrice\":\"" + last + "\",\"ask1Price\":\"" + ask
                + "\",\"bid1Price\":\"" + last + "\",\"ask1Size\":\"0.8\",\"bid1Size\":\"1.2\",\"openPrice24h\":\"96110.2\",\"highPrice24h\":\"98010\","
                + "\"lowPrice24h\":\"95800.1\",\"volume24h\":\"15234.77\",\"turnover24h\":\"1481552310.44\"}");
        for (int i = 0; i < orders; i++) {
            String r = signed(s, "POST", "/api/v3/trade/place-order",
                    "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"orderType\":\"market\",\"side\":\"buy\",\"qty\":\"" + (20 + i) + "\"}");
            if (!r.contains("\"orderId\"")) throw new IllegalStateException(s.spec.label() + " place-order answered " + r);
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    /** {server tookMs, client round trip ms} */
    static double[] restore(Server s) throws Exception {
        long t0 = System.nanoTime();
        String body = admin(s, "POST", "/admin/v1/sandbox/snapshots/restore", "{\"name\":\"" + SNAPSHOT + "\"}");
        double rtt = (System.nanoTime() - t0) / 1e6;
        return new double[] {Double.parseDouble(field(body, "tookMs")), rtt};
    }

    static String hash(Server s) throws Exception {
        String body = admin(s, "GET", "/admin/v1/state-hash", null);
        Matcher m = Pattern.compile("\"data\":\\{\"hash\":\"([0-9a-f]{64})\"").matcher(body);
        if (!m.find()) throw new IllegalStateException(s.spec.label() + " state-hash answered " + body.substring(0, Math.min(300, body.length())));
        return m.group(1);
    }

    // ------------------------------------------------------------------ resources

    static Resources resources(Server s, int round) throws Exception {
        long rss = procStatus(s.spec.pid(), "VmRSS"), hwm = procStatus(s.spec.pid(), "VmHWM");
        int fds;
        try (var l = Files.list(Path.of("/proc/" + s.spec.pid() + "/fd"))) { fds = (int) l.count(); }
        long file = -1, db = -1, snap = -1, world = -1, catalog = -1, files = -1, empty = -1;
        int schemas = -1;
        if (s.spec.kind().equals("h2")) {
            file = Files.size(Path.of(s.spec.where()));
        } else {
            String[] v = psql(s.spec.where(), "select pg_database_size(current_database()),"
                    + " (select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                    + "   where n.nspname like 'tas\\_snap\\_%' and c.relkind in ('r', 'p', 'm')),"
                    + " (select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                    + "   where n.nspname = 'public' and c.relkind in ('r', 'p', 'm')),"
                    + " (select count(*) from pg_namespace where nspname like 'tas\\_snap\\_%'),"
                    + " (select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_class c where c.relnamespace = 'pg_catalog'::regnamespace"
                    + "   and c.relkind in ('r', 'm'))").split("\\|");
            db = Long.parseLong(v[0]);
            snap = Long.parseLong(v[1]);
            world = Long.parseLong(v[2]);
            schemas = Integer.parseInt(v[3]);
            catalog = Long.parseLong(v[4]);
            try { // the files in the database's directory (superuser only): a dropped or truncated relation leaves an empty one until the next checkpoint
                String[] f = psql(s.spec.where(), "select count(*), count(*) filter (where (pg_stat_file('base/' || d.oid || '/' || f, true)).size = 0)"
                        + " from pg_database d, pg_ls_dir('base/' || d.oid) f where d.datname = current_database()").split("\\|");
                files = Long.parseLong(f[0]);
                empty = Long.parseLong(f[1]);
            } catch (Exception notSuperuser) {
                // left at -1
            }
        }
        // After the figures above: a full collection (jcmd), then the heap still live, what a leak would show as.
        long[] heap = liveHeap || histograms != null ? liveHeapKb(s.spec.pid(), s.spec.label(), round) : new long[] {-1, -1};
        return new Resources(round, rss, hwm, fds, file, db, snap, world, catalog, schemas, files, empty, heap[0], heap[1]);
    }

    static long procStatus(long pid, String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(key + ":")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    static String psql(String db, String sql) throws Exception {
        return run(List.of("psql", "-h", pgHost, "-p", Integer.toString(pgPort), "-U", pgUser, "-d", db, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql)).trim();
    }

    static String jcmd() { return Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(); }

    /**
     * {live, committed} KB of the heap: live = the objects jcmd GC.class_histogram counts (it runs a full collection
     * first; the young generation's "used" after a GC.run would count what the server allocated since), less the JVM's
     * fillers of unused space, committed from
     * GC.heap_info. -1 each when jcmd fails. The histogram is saved with --histograms.
     */
    static long[] liveHeapKb(long pid, String label, int round) {
        try {
            String histogram = run(List.of(jcmd(), Long.toString(pid), "GC.class_histogram"));
            if (histograms != null) Files.writeString(histograms.resolve(label + "-histogram-round" + round + ".txt"), histogram);
            Matcher t = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)").matcher(histogram);
            long live = t.find() ? Long.parseLong(t.group(1)) : -1;
            // Less the fillers of unused heap (jdk.internal.vm.FillerElement[], FillerObject): counted, but not objects.
            Matcher f = Pattern.compile("(?m)^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+\\S*jdk\\.internal\\.vm\\.Filler").matcher(histogram);
            while (live > 0 && f.find()) live -= Long.parseLong(f.group(1));
            live = live < 0 ? -1 : live / 1024;
            String info = run(List.of(jcmd(), Long.toString(pid), "GC.heap_info"));
            // Serial: "DefNew     total 116224K, used 9302K [...]" and "Tenured    total ..., used ...K" (the space lines below
            // them are percentages); G1: "garbage-first heap   total ..., used ...K".
            long committed = 0;
            Matcher m = Pattern.compile("(?m)^\\s*(DefNew|Tenured|def new generation|tenured generation|garbage-first heap|PSYoungGen|ParOldGen)"
                    + "\\s+total (\\d+)K, used (\\d+)K").matcher(info);
            while (m.find()) committed += Long.parseLong(m.group(2));
            return new long[] {live, committed == 0 ? -1 : committed};
        } catch (Exception e) {
            return new long[] {-1, -1};
        }
    }

    static String run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) { p.destroyForcibly(); throw new IllegalStateException(cmd.getFirst() + " timed out"); }
        String s = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + s);
        return s;
    }

    // ------------------------------------------------------------------ HTTP

    static String admin(Server s, String method, String path, String body) throws Exception {
        return send(s, s.spec.adminPort(), method, path, body, "Authorization", "Bearer " + ADMIN_TOKEN);
    }

    static String signed(Server s, String method, String path, String body) throws Exception {
        String ts = Long.toString(System.currentTimeMillis());
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(DEMO_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String sign = Base64.getEncoder().encodeToString(mac.doFinal((ts + method + path + body).getBytes(StandardCharsets.UTF_8)));
        return send(s, s.spec.port(), method, path, body, "ACCESS-KEY", DEMO_KEY, "ACCESS-SIGN", sign, "ACCESS-TIMESTAMP", ts,
                "ACCESS-PASSPHRASE", DEMO_PASS, "locale", "en-US");
    }

    static String send(Server s, int port, String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json").headers(headers);
        b = body == null ? b.GET() : b.method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r;
        try {
            r = s.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException(s.spec.label() + " " + method + " 127.0.0.1:" + port + path + ": " + e, e);
        }
        if (r.statusCode() != 200 || !r.body().contains("\"code\":\"00000\"")) {
            throw new IllegalStateException(s.spec.label() + " " + method + " " + path + " -> HTTP " + r.statusCode() + " "
                    + r.body().substring(0, Math.min(400, r.body().length())));
        }
        return r.body();
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        if (!m.find()) throw new IllegalStateException("no " + name + " in " + json);
        return m.group(1);
    }

    // ------------------------------------------------------------------ report

    static double pct(List<Double> v, double p) {
        if (v.isEmpty()) return Double.NaN;
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int rank = (int) Math.ceil(p / 100.0 * s.length); // nearest rank
        return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }

    static double median(List<Double> v) {
        if (v.isEmpty()) return Double.NaN;
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static String fmt(double d) { return String.format(Locale.ROOT, "%.3f", d); }

    static String mb(long bytes) { return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.2f MB", bytes / 1048576.0); }

    static String kbMb(long kb) { return kb < 0 ? "-" : String.format(Locale.ROOT, "%.1f MB", kb / 1024.0); }

    static String growth(long a, long b, boolean bytes) {
        if (a < 0 || b < 0) return "-";
        long d = b - a;
        String abs = bytes ? String.format(Locale.ROOT, "%+.2f MB", d / 1048576.0) : String.format(Locale.ROOT, "%+.1f MB", d / 1024.0);
        return a == 0 ? abs : abs + String.format(Locale.ROOT, " (%+.1f%%)", 100.0 * d / a);
    }

    static void report(PrintStream o, List<Server> servers, int rounds, int deposits, int orders, int hashEvery, int early, String failure,
                       Cpu cpuStart, Cpu cpuEnd) {
        o.printf("rounds: %d, the servers in turn; each round per server: %d admin deposits (own refs), 1 admin ticker move (spot BTCUSDT), "
                + "%d signed market order(s), then restore \"%s\"%n", rounds, deposits, orders, SNAPSHOT);
        o.printf("state hash checked before (must differ) and after (must equal the saved one) every %d rounds and the last%n", hashEvery);
        if (cpuStart != null && cpuEnd != null) {
            double secs = (cpuEnd.nanos() - cpuStart.nanos()) / 1e9, hz = 100.0; // USER_HZ
            double busy = (cpuEnd.busy() - cpuStart.busy()) / hz / secs, servers_ = (cpuEnd.servers() - cpuStart.servers()) / hz / secs;
            double pg = (cpuEnd.postgres() - cpuStart.postgres()) / hz / secs, self = (cpuEnd.self() - cpuStart.self()) / hz / secs;
            o.printf(Locale.ROOT, "rounds took %.1f s; CPU in cores over them: machine %.2f of %d, servers %.2f, PostgreSQL %.2f, this driver %.2f, "
                    + "other processes %.2f%n", secs, busy, Runtime.getRuntime().availableProcessors(), servers_, pg, self, Math.max(0, busy - servers_ - pg - self));
        }
        o.println();
        o.printf("%-6s %6s %9s %-27s %-27s %9s %7s %s%n", "db", "rows", "save ms", "restore server ms p50/p90/max",
                "restore round trip p50/p90/max", "target", "p50", "warm p50/p90/max (rounds > " + early + ")");
        for (Server s : servers) {
            double target = s.spec.kind().equals("h2") ? 20 : 300;
            List<Double> warm = s.serverMs.size() > early ? s.serverMs.subList(early, s.serverMs.size()) : List.of();
            o.printf(Locale.ROOT, "%-6s %6d %9.1f %8.2f / %7.2f / %7.2f   %8.2f / %7.2f / %7.2f   %6.0f ms %7s %s%n", s.spec.label(), s.rows, s.saveServerMs,
                    median(s.serverMs), pct(s.serverMs, 90), pct(s.serverMs, 100), median(s.rttMs), pct(s.rttMs, 90), pct(s.rttMs, 100), target,
                    s.serverMs.isEmpty() ? "-" : median(s.serverMs) <= target ? "met" : "MISSED",
                    warm.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f / %.2f / %.2f", median(warm), pct(warm, 90), pct(warm, 100)));
        }
        o.println();
        int step = Math.max(1, rounds / 10);
        for (Server s : servers) { // a restore that slows as the rounds go on shows here
            StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "%s server ms, median of each %d rounds:", s.spec.label(), step));
            for (int from = 0; from < s.serverMs.size(); from += step) {
                t.append(String.format(Locale.ROOT, " %.1f", median(s.serverMs.subList(from, Math.min(s.serverMs.size(), from + step)))));
            }
            o.println(t);
        }
        for (Server s : servers) {
            StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "%s VmRSS MB after rounds", s.spec.label()));
            for (long[] x : s.rssEvery) t.append(String.format(Locale.ROOT, " %d: %.0f%s", x[0], x[1] / 1024.0, x == s.rssEvery.getLast() ? "" : ","));
            o.println(t);
        }
        for (Server s : servers) { // D204: the file is rewritten while running once it has grown; a shrink is one rewrite
            if (s.fileBytes.isEmpty()) continue;
            int rewrites = 0;
            for (int i = 1; i < s.fileBytes.size(); i++) if (s.fileBytes.get(i) < s.fileBytes.get(i - 1)) rewrites++;
            List<Long> warm = s.fileBytes.subList(Math.min(early, s.fileBytes.size() - 1), s.fileBytes.size());
            o.printf(Locale.ROOT, "%s .mv.db after each restore: round 1 %s, largest %s (rounds > %d: %s), last %s; rewritten while running %d times%n",
                    s.spec.label(), mb(s.fileBytes.getFirst()), mb(java.util.Collections.max(s.fileBytes)), early, mb(java.util.Collections.max(warm)),
                    mb(s.fileBytes.getLast()), rewrites);
        }
        o.println();
        o.printf("%-6s %-9s %9s %9s %4s %10s %10s %9s %9s %10s %7s %13s %9s %14s%n", "db", "after", "VmRSS", "VmHWM", "fds", "H2 .mv.db", "pg db",
                "pg snap", "pg world", "pg catalog", "schemas", "pg files/empty", "live heap", "heap committed");
        for (Server s : servers) {
            for (Resources x : s.resources) {
                o.printf("%-6s %-9s %9s %9s %4d %10s %10s %9s %9s %10s %7s %13s %9s %14s%n", s.spec.label(), "round " + x.round(), kbMb(x.rssKb()), kbMb(x.hwmKb()), x.fds(),
                        mb(x.fileBytes()), mb(x.dbBytes()), mb(x.snapBytes()), mb(x.worldBytes()), mb(x.catalogBytes()), x.snapSchemas() < 0 ? "-" : "" + x.snapSchemas(),
                        x.pgFiles() < 0 ? "-" : x.pgFiles() + " / " + x.pgEmptyFiles(), kbMb(x.liveHeapKb()), kbMb(x.heapCommittedKb()));
            }
        }
        o.println();
        for (Server s : servers) {
            if (s.resources.size() < 2) continue;
            Resources a = s.resources.getFirst(), b = s.resources.getLast();
            o.printf("%s growth round %d -> %d: VmRSS %s, fds %+d, live heap %s (heap committed %s), %s%n", s.spec.label(), a.round(), b.round(),
                    growth(a.rssKb(), b.rssKb(), false), b.fds() - a.fds(), growth(a.liveHeapKb(), b.liveHeapKb(), false),
                    growth(a.heapCommittedKb(), b.heapCommittedKb(), false),
                    s.spec.kind().equals("h2") ? "H2 file " + growth(a.fileBytes(), b.fileBytes(), true)
                            : "pg database " + growth(a.dbBytes(), b.dbBytes(), true) + " (catalog " + growth(a.catalogBytes(), b.catalogBytes(), true)
                            + ", world tables " + growth(a.worldBytes(), b.worldBytes(), true) + ", snapshot copy " + growth(a.snapBytes(), b.snapBytes(), true)
                            + "), snapshot schemas " + a.snapSchemas() + " -> " + b.snapSchemas()
                            + (a.pgFiles() < 0 ? "" : ", files in its directory " + a.pgFiles() + " -> " + b.pgFiles() + " (empty " + a.pgEmptyFiles() + " -> " + b.pgEmptyFiles() + ")"));
        }
        for (Server s : servers) {
            Resources a = s.resources.isEmpty() ? null : s.resources.getFirst(), b = s.resources.isEmpty() ? null : s.resources.getLast();
            Map<String, String> v = new LinkedHashMap<>();
            v.put("restores", "" + s.serverMs.size());
            v.put("rows", "" + s.rows);
            v.put("save_ms", fmt(s.saveServerMs));
            v.put("server_p50_ms", fmt(median(s.serverMs)));
            v.put("server_p90_ms", fmt(pct(s.serverMs, 90)));
            v.put("server_max_ms", fmt(pct(s.serverMs, 100)));
            v.put("rtt_p50_ms", fmt(median(s.rttMs)));
            v.put("rtt_p90_ms", fmt(pct(s.rttMs, 90)));
            v.put("rtt_max_ms", fmt(pct(s.rttMs, 100)));
            v.put("dirty_p50_ms", fmt(median(s.dirtyMs)));
            v.put("hash_checks", "" + s.hashChecks);
            if (a != null) {
                v.put("rss_early_kb", "" + a.rssKb()); v.put("rss_end_kb", "" + b.rssKb());
                v.put("fds_early", "" + a.fds()); v.put("fds_end", "" + b.fds());
                v.put("file_early", "" + a.fileBytes()); v.put("file_end", "" + b.fileBytes());
                v.put("pgdb_early", "" + a.dbBytes()); v.put("pgdb_end", "" + b.dbBytes());
                v.put("snap_early", "" + a.snapBytes()); v.put("snap_end", "" + b.snapBytes());
                v.put("catalog_early", "" + a.catalogBytes()); v.put("catalog_end", "" + b.catalogBytes());
                v.put("pgfiles_early", "" + a.pgFiles()); v.put("pgfiles_end", "" + b.pgFiles());
                v.put("heap_early_kb", "" + a.liveHeapKb()); v.put("heap_end_kb", "" + b.liveHeapKb());
            }
            StringBuilder line = new StringBuilder("RESULT " + s.spec.label());
            v.forEach((k, x) -> line.append(' ').append(k).append('=').append(x));
            o.println(line);
        }
        o.println(failure == null ? "verification: every checked restore matched the saved state hash ("
                + servers.stream().mapToInt(s -> s.hashChecks).sum() + " checks)" : "FAILED: " + failure);
    }
}
