package io.tas.support;

import io.tas.support.ApiClient.Reply;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;

/** The built service (target/tas.jar) as a separate process, for the crash and shutdown tests (failsafe, after package). */
public final class ServerProcess {
    private ServerProcess() {}

    /** Starts `tas.jar serve` with the demo seed on the given database and waits until the API answers. */
    public static Process start(String url, int port, int adminPort, File log) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-jar", "target/tas.jar", "serve", "--port", Integer.toString(port),
                "--admin-port", Integer.toString(adminPort), "--db-url", url, "--seed", "demo", "--rate-limits", "off", "--sandbox")
                .redirectErrorStream(true).redirectOutput(log);
        pb.environment().put("TAS_ADMIN_TOKEN", TestServer.ADMIN_TOKEN);
        // The tests' own settings, whatever the shell that runs the build has set.
        for (String v : new String[]{"TAS_REDIS_URL", "TAS_SHUTDOWN_GRACE_MS", "TAS_SHUTDOWN_DELAY_MS", "TAS_DB_USER", "TAS_DB_PASSWORD", "TAS_PRICE_FEED", "TAS_JOBS_POLL_MS"}) {
            pb.environment().remove(v);
        }
        Process p = pb.start();
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
