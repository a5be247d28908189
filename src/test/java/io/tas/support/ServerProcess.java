package io.tas.support;

import io.tas.support.ApiClient.Reply;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The built service (target/tas.jar) as a separate process, for the crash and shutdown tests (failsafe, after package). */
public final class ServerProcess {
    private ServerProcess() {}

    /**
     * The JVM flags `./tas` starts the service with (D107: the serial collector, the heap cap, the build's AOT cache when
     * it is current), read from `./tas jvm-options` once: the crash and shutdown proofs run the service as a user does,
     * and each of their many starts takes about a second instead of two (D209).
     */
    private static final List<String> LAUNCHER_FLAGS = launcherFlags();

    private static List<String> launcherFlags() {
        try {
            Process p = new ProcessBuilder("bash", "tas", "jvm-options").redirectError(ProcessBuilder.Redirect.INHERIT).start(); // stdout: the flags only
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            if (p.waitFor() != 0) throw new IllegalStateException("./tas jvm-options failed: " + out);
            return out.isEmpty() ? List.of() : List.of(out.split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts `tas.jar serve` with the demo seed on the given database and waits until the API answers. */
    public static Process start(String url, int port, int adminPort, File log) throws IOException, InterruptedException {
        return start(url, port, adminPort, log, Map.of(), "--seed", "demo");
    }

    /**
     * Starts `tas.jar serve` on the given database with more environment (say, TAS_REQUEST_READ_TIMEOUT_MS) and these
     * flags after the listener and database ones (say, --seed FILE), and waits until the API answers.
     */
    public static Process start(String url, int port, int adminPort, File log, Map<String, String> env, String... flags)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(LAUNCHER_FLAGS);
        command.addAll(List.of("-jar", "target/tas.jar", "serve", "--port", Integer.toString(port),
                "--admin-port", Integer.toString(adminPort), "--db-url", url, "--rate-limits", "off", "--sandbox"));
        command.addAll(List.of(flags));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log);
        pb.environment().put("TAS_ADMIN_TOKEN", TestServer.ADMIN_TOKEN);
        // The tests' own settings, whatever the shell that runs the build has set.
        for (String v : new String[]{"TAS_REDIS_URL", "TAS_SHUTDOWN_GRACE_MS", "TAS_SHUTDOWN_DELAY_MS", "TAS_DB_USER", "TAS_DB_PASSWORD", "TAS_PRICE_FEED",
                "TAS_JOBS_POLL_MS", "TAS_REQUEST_READ_TIMEOUT_MS", "TAS_IDLE_CONNECTION_TIMEOUT_MS", "TAS_HOST", "TAS_ADMIN_HOST", "TAS_MASTER_KEY"}) {
            pb.environment().remove(v);
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        ChildAnswers.serving(port, adminPort);
        for (int i = 0; i < 1200; i++) {
            try {
                if (ApiClient.raw("http://127.0.0.1:" + port + "/api/v2/public/time", "GET", "").code().equals("00000")) return p;
            } catch (UncheckedIOException notYet) {
                Thread.sleep(50);
            }
            if (!p.isAlive()) throw new IllegalStateException("server exited; see " + log);
        }
        p.destroyForcibly();
        throw new IllegalStateException("server did not start; see " + log);
    }

    public static Reply adminPost(String admin, String path, String json) {
        return ApiClient.raw(admin + path, "POST", json, "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
    }

    public static Reply adminGet(String admin, String path) {
        return ApiClient.raw(admin + path, "GET", "", "Authorization", "Bearer " + TestServer.ADMIN_TOKEN);
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
