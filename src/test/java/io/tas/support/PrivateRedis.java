package io.tas.support;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of the test's own on a free loopback port (not the shared one on 6379), so that what it counts
 * (INFO commandstats) is this test's alone. No persistence; stopped by its own process handle.
 */
public final class PrivateRedis implements AutoCloseable {
    private final Process process;
    private final int port;

    private PrivateRedis(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static PrivateRedis start() throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Process p = new ProcessBuilder("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(port), "--save", "",
                "--appendonly", "no", "--dir", System.getProperty("java.io.tmpdir"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return new PrivateRedis(p, port);
            } catch (IOException e) {
                if (System.nanoTime() > until || !p.isAlive()) {
                    p.destroyForcibly();
                    throw new AssertionError("redis-server did not start on " + port, e);
                }
                Thread.sleep(50);
            }
        }
    }

    public String url() { return "redis://127.0.0.1:" + port; }

    /** Commands this server has run, but INFO and a connection's set-up (HELLO, CLIENT), which this method itself sends. */
    public long commandsRun() {
        RedisClient client = RedisClient.create(url());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            long total = 0;
            for (String line : c.sync().info("commandstats").split("\r?\n")) {
                // cmdstat_ping:calls=3,usec=12,...
                if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_info:") || line.startsWith("cmdstat_hello:")
                        || line.startsWith("cmdstat_client|")) continue;
                int from = line.indexOf("calls=") + "calls=".length();
                total += Long.parseLong(line.substring(from, line.indexOf(',', from)));
            }
            return total;
        } finally {
            client.shutdown();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
    }
}
