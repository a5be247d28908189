package io.tas.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Startup to first answer (issue 12 item 10): starts the server command of --cmd-file (one argument per line) --times
 * times, each time measuring from the process start to the first HTTP 200 with "00000" of a signed
 * GET --path (the demo key), polling every 5 ms; then stops it (SIGTERM) and waits for it to exit. The database is
 * the command's (an existing one: the script seeds it first), so this is a restart, not a first install.
 */
final class Startup {
    private Startup() {
    }

    static int run(Args a) throws Exception {
        String host = a.str("host", "127.0.0.1");
        int port = Integer.parseInt(a.required("port"));
        List<String> command = Files.readAllLines(Path.of(a.required("cmd-file"))).stream().filter(l -> !l.isEmpty()).toList();
        int times = a.integer("times", 5);
        double timeout = a.dbl("timeout-seconds", 120);
        String path = a.str("path", "/api/v3/account/settings");
        Credentials creds = Credentials.from(a);
        String log = a.str("log", null);
        String resultFile = a.str("result-file", null);
        a.done();

        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            if (log != null) pb.redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of(log).toFile()));
            else pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            long t0 = System.nanoTime();
            Process p = pb.start();
            try {
                long deadline = t0 + (long) (timeout * 1e9);
                while (!answered(host, port, path, creds)) {
                    if (!p.isAlive()) throw new IllegalStateException("the server exited during start " + (i + 1) + " (exit " + p.exitValue() + ")");
                    if (System.nanoTime() > deadline) throw new IllegalStateException("no signed 200 within " + timeout + " s");
                    Thread.sleep(5);
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                millis.add(ms);
                System.out.printf(Locale.ROOT, "[startup] start %d: first signed 200 after %d ms%n", i + 1, ms);
            } finally {
                p.destroy();
                if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
            }
        }
        List<Long> sorted = millis.stream().sorted().toList();
        long median = sorted.get(sorted.size() / 2);
        Map<String, String> r = new LinkedHashMap<>();
        r.put("startup_ms_median", Long.toString(median));
        r.put("startup_ms_min", Long.toString(sorted.getFirst()));
        r.put("startup_ms_max", Long.toString(sorted.getLast()));
        r.put("startup_ms_all", millis.toString().replace(" ", ""));
        System.out.printf(Locale.ROOT, "RESULT startup median=%dms min=%dms max=%dms all=%s%n", median, sorted.getFirst(), sorted.getLast(), millis);
        if (resultFile != null) {
            StringBuilder sb = new StringBuilder();
            r.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            Files.writeString(Path.of(resultFile), sb.toString());
        }
        return 0;
    }

    /** One signed request on a fresh connection: true for 200 with "00000"; false while nothing listens. */
    private static boolean answered(String host, int port, String path, Credentials creds) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1_000);
            s.setSoTimeout(10_000);
            String ts = Long.toString(System.currentTimeMillis());
            String req = "GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nConnection: close\r\nContent-Type: application/json"
                    + "\r\nACCESS-KEY: " + creds.key() + "\r\nACCESS-SIGN: " + new Signer(creds.secret()).sign(ts, "GET", path, "")
                    + "\r\nACCESS-TIMESTAMP: " + ts + "\r\nACCESS-PASSPHRASE: " + creds.passphrase() + "\r\n\r\n";
            s.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
            String answer = head(s.getInputStream());
            return answer.startsWith("HTTP/1.1 200") && answer.contains("\"00000\"");
        } catch (ConnectException notYet) {
            return false;
        } catch (IOException early) {
            return false; // listening but not serving yet (reset, or closed)
        }
    }

    /** The answer's head and the first 4 KiB of its body. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int n;
        while (out.size() < 8192 && (n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
            if (out.toString(StandardCharsets.US_ASCII).contains("\"00000\"")) break;
        }
        return out.toString(StandardCharsets.US_ASCII);
    }
}
