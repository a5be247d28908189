package io.tas.conformance;

import io.tas.support.Credentials;
import io.tas.support.TestServer;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Node side of the conformance tests (conformance/): one `npm ci` per checkout, shared by every test that runs a
 * script there, and run again only when an installed package is missing or its version differs from package.json's
 * exact pin. A file lock keeps two JVMs from installing at once.
 */
final class NodeConformance {
    static final Path DIR = Path.of("conformance");
    private static final Pattern DEP = Pattern.compile("\"([a-z0-9@/._-]+)\"\\s*:\\s*\"(\\d[^\"]*)\"");

    private NodeConformance() {}

    record Result(int exit, String output) {}

    static synchronized void ensureInstalled() throws IOException, InterruptedException {
        if (installed()) return;
        try (FileChannel ch = FileChannel.open(DIR.resolve(".npm-ci.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = ch.lock()) {
            if (installed()) return;
            Result ci = run(new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"), 300);
            assertThat(ci.exit()).as("npm ci\n" + ci.output()).isZero();
        }
        assertThat(installed()).as("node_modules matches package.json after npm ci").isTrue();
    }

    /** Every dependency pinned in package.json is in node_modules at that version. */
    private static boolean installed() throws IOException {
        String pkg = Files.readString(DIR.resolve("package.json"));
        String deps = pkg.substring(pkg.indexOf("\"dependencies\""));
        deps = deps.substring(0, deps.indexOf('}'));
        Matcher m = DEP.matcher(deps);
        int n = 0;
        while (m.find()) {
            n++;
            Path installed = DIR.resolve("node_modules").resolve(m.group(1)).resolve("package.json");
            if (!Files.isRegularFile(installed)) return false;
            Matcher v = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"").matcher(Files.readString(installed));
            if (!v.find() || !v.group(1).equals(m.group(2))) return false;
        }
        return n > 0;
    }

    static void put(Map<String, String> env, String prefix, Credentials c) {
        env.put(prefix + "API_KEY", c.key());
        env.put(prefix + "API_SECRET", c.secret());
        env.put(prefix + "API_PASSPHRASE", c.passphrase());
    }

    /** The server's URLs, admin token and the demo keys, in the variables the scripts read. */
    static void serverEnv(Map<String, String> env, TestServer server) {
        env.put("TAS_BASE_URL", server.baseUrl());
        env.put("TAS_ADMIN_URL", server.adminUrl());
        env.put("TAS_ADMIN_TOKEN", TestServer.ADMIN_TOKEN);
        put(env, "TAS_", Credentials.MAIN_RW);
        put(env, "TAS_SUB_", Credentials.SUB);
        put(env, "TAS_CLASSIC_", Credentials.CLASSIC);
        put(env, "TAS_RO_", Credentials.MAIN_RO);
    }

    static Result run(ProcessBuilder pb, int timeoutSeconds) throws IOException, InterruptedException {
        File log = File.createTempFile("conformance", ".log");
        try {
            Process p = pb.directory(DIR.toFile()).redirectErrorStream(true).redirectOutput(log).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out after " + timeoutSeconds + " s\n" + Files.readString(log.toPath(), StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(log.toPath(), StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log.toPath());
        }
    }
}
