package io.tas.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped proxy configs (deploy/nginx/tas.conf, deploy/haproxy/tas.cfg) run as they are but for their addresses:
 * a foreground nginx or HAProxy of the test's own on a loopback port, with its config, pid, logs and temp files in a
 * temp directory (never the system service). .ci/run installs both; a machine without them fails here by name.
 */
public final class ProxyProcess implements AutoCloseable {
    /** The example node addresses in the shipped configs, swapped for the test's nodes. */
    static final String NODE1 = "tas1:8080", NODE2 = "tas2:8080";

    public final int port;
    public final Path dir;
    private final Process process;

    private ProxyProcess(int port, Path dir, Process process) {
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    public String baseUrl() { return "http://127.0.0.1:" + port; }

    /** deploy/nginx/tas.conf in front of the two API ports; extraDirectives go at the start of its location block. */
    public static ProxyProcess nginx(int node1Port, int node2Port, String extraDirectives) throws IOException {
        Path bin = binary("nginx", "nginx (./tas test installs it: bin/test-setup)");
        int port = ServerProcess.freePort();
        Path dir = Files.createTempDirectory("tas-nginx");
        String site = shipped("deploy/nginx/tas.conf",
                "server " + NODE1, "server 127.0.0.1:" + node1Port,
                "server " + NODE2, "server 127.0.0.1:" + node2Port,
                "listen 80;", "listen 127.0.0.1:" + port + ";",
                "location / {\n", "location / {\n" + extraDirectives + "\n");
        Files.writeString(dir.resolve("tas.conf"), site);
        String d = dir.toString();
        Files.writeString(dir.resolve("nginx.conf"), """
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 512; }
                http {
                    access_log %1$s/access.log;
                    client_body_temp_path %1$s/client_body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    include %1$s/tas.conf;
                }
                """.formatted(d));
        Process p = new ProcessBuilder(bin.toString(), "-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log", "-g", "daemon off;")
                .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        return started(port, dir, p, "error.log");
    }

    /**
     * deploy/haproxy/tas.cfg in front of the two API ports, with a stats socket (stat()) for the health checks' view;
     * change: more (from, to) pairs for a variant of the shipped file.
     */
    public static ProxyProcess haproxy(int node1Port, int node2Port, String... change) throws IOException, InterruptedException {
        Path bin = binary("haproxy", "haproxy (./tas test installs it: bin/test-setup)");
        int port = ServerProcess.freePort();
        Path dir = Files.createTempDirectory("tas-haproxy");
        String cfg = shipped("deploy/haproxy/tas.cfg", concat(new String[] {
                "server node1 " + NODE1, "server node1 127.0.0.1:" + node1Port,
                "server node2 " + NODE2, "server node2 127.0.0.1:" + node2Port,
                "bind :80", "bind 127.0.0.1:" + port,
                "global\n", "global\n    stats socket " + dir.resolve("stats.sock") + " level user\n"}, change));
        Path file = dir.resolve("tas.cfg");
        Files.writeString(file, cfg);
        Process check = new ProcessBuilder(bin.toString(), "-c", "-f", file.toString()).redirectErrorStream(true).start();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(10, TimeUnit.SECONDS) && check.exitValue() == 0).as("haproxy -c -f deploy/haproxy/tas.cfg:\n" + out).isTrue();
        Process p = new ProcessBuilder(bin.toString(), "-db", "-f", file.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        return started(port, dir, p, "haproxy.log");
    }

    /** HAProxy's `show stat` CSV through its stats socket. */
    public String stat() throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(dir.resolve("stats.sock")));
            ch.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            return new String(readAll(ch), StandardCharsets.US_ASCII);
        }
    }

    private static byte[] readAll(SocketChannel ch) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(8192);
        while (ch.read(buf) >= 0) {
            out.write(buf.array(), 0, buf.position());
            buf.clear();
        }
        return out.toByteArray();
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The shipped file with each (from, to) pair replaced; each from must occur exactly once, so the file cannot drift from the test. */
    private static String shipped(String path, String... fromTo) throws IOException {
        String s = Files.readString(Path.of(path));
        for (int i = 0; i < fromTo.length; i += 2) {
            assertThat(s.split(java.util.regex.Pattern.quote(fromTo[i]), -1)).as(path + ": '" + fromTo[i] + "' exactly once").hasSize(2);
            s = s.replace(fromTo[i], fromTo[i + 1]);
        }
        return s;
    }

    private static Path binary(String name, String install) {
        for (String d : List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin")) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) return p;
        }
        throw new AssertionError(name + " is not installed: this test runs the shipped proxy config in a real " + install);
    }

    private static ProxyProcess started(int port, Path dir, Process p, String log) throws IOException {
        ProxyProcess proxy = new ProxyProcess(port, dir, p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) break;
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return proxy;
            } catch (IOException notYet) {
                sleep();
            }
        }
        String text = Files.exists(dir.resolve(log)) ? Files.readString(dir.resolve(log)) : "";
        proxy.close();
        throw new AssertionError("proxy did not listen on 127.0.0.1:" + port + "\n" + text);
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String log(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroy(); // SIGTERM: nginx and HAProxy stop at once
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
