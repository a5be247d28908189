package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.tas.support.ServerProcess.freePort;
import static io.tas.support.ServerProcess.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 8: resource limits of the built service. An oversized body is 40017; oversized headers and an
 * oversized request line are a clean 4xx with the envelope; a client that sends its headers (or its body) one byte a
 * second is disconnected once TAS_REQUEST_READ_TIMEOUT_MS has passed; and /health/live keeps answering within a second
 * while 2,000 idle connections are held open. H2: no step depends on the database.
 */
class ResourceLimitsIT {
    private static final long READ_TIMEOUT_MS = 2_000;
    /** The sweeper looks every read-timeout / 10; the rest is a shared 2-core machine's scheduling. */
    private static final long CLOSE_SLACK_MS = 2_500;
    private static final int IDLE_CONNECTIONS = 2_000;
    private static final int HEALTH_CHECKS = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void limitsHoldAndHealthAnswersUnderTwoThousandIdleConnections(@TempDir Path dir) throws Exception {
        int port = freePort(), adminPort = freePort();
        Process server = start("jdbc:h2:file:" + dir.resolve("limits").toAbsolutePath(), port, adminPort, dir.resolve("server.log").toFile(),
                Map.of("TAS_REQUEST_READ_TIMEOUT_MS", Long.toString(READ_TIMEOUT_MS)), "--seed", "demo");
        try {
            String base = "http://127.0.0.1:" + port;
            // Slow clients first, in the background: each takes the read timeout.
            CompletableFuture<Long> slowHeaders = CompletableFuture.supplyAsync(() -> trickle(port,
                    "GET /api/v2/public/time HTTP/1.1\r\nHost: x\r\n", "X-Slowloris: " + "a".repeat(100)));
            CompletableFuture<Long> slowBody = CompletableFuture.supplyAsync(() -> trickle(port,
                    "POST /api/v3/account/set-leverage HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
                    "{" + " ".repeat(99)));

            // §1 / D28: the API's body cap (TAS_MAX_BODY_BYTES, 64 KiB) is the 40017 envelope, before any work.
            Reply body = new ApiClient(base, Credentials.MAIN_RW, Clock.systemUTC())
                    .post("/api/v3/account/set-leverage", "{\"symbol\":\"" + "x".repeat(70_000) + "\"}");
            assertThat(body.status()).isEqualTo(400);
            assertThat(body.code()).isEqualTo("40017");
            assertThat(body.msg()).isEqualTo("Parameter verification failed request body larger than 65536 bytes");

            // Helidon refuses a head over 16 KiB before routing; ProtocolErrors gives it the envelope, HTTP 400 like every refusal (D97).
            Answer headers = exchange(port, "GET /api/v2/public/time HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
            assertThat(headers.status).isEqualTo(400);
            assertThat(headers.body.path("code").asText()).isEqualTo("40017");
            assertThat(headers.body.path("msg").asText()).contains("headers larger than 16384 bytes");
            Answer line = exchange(port, "GET /api/v2/public/time?" + "a".repeat(5_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(line.status).isEqualTo(400);
            assertThat(line.body.path("msg").asText()).contains("request line too long");
            assertThat(line.body.path("code").asText()).isEqualTo("40017");

            long headersClosedAfter = slowHeaders.get();
            long bodyClosedAfter = slowBody.get();
            assertThat(headersClosedAfter).isBetween(READ_TIMEOUT_MS, READ_TIMEOUT_MS + CLOSE_SLACK_MS);
            assertThat(bodyClosedAfter).isBetween(READ_TIMEOUT_MS, READ_TIMEOUT_MS + CLOSE_SLACK_MS);

            long fdLimit = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
            Assumptions.assumeTrue(fdLimit > IDLE_CONNECTIONS + 500, "PROOF resource-limits: the open-file limit (ulimit -n) is "
                    + fdLimit + ", too low to hold " + IDLE_CONNECTIONS + " connections; raise it for this test");
            List<SocketChannel> idle = new ArrayList<>();
            long[] healthMs = new long[HEALTH_CHECKS];
            try {
                for (int i = 0; i < IDLE_CONNECTIONS; i++) idle.add(SocketChannel.open(new InetSocketAddress("127.0.0.1", port)));
                for (int i = 0; i < HEALTH_CHECKS; i++) {
                    long t0 = System.nanoTime();
                    Answer live = exchange(port, "GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                    healthMs[i] = (System.nanoTime() - t0) / 1_000_000;
                    assertThat(live.status).isEqualTo(200);
                }
                // Every idle connection is still open: a non-blocking read finds no data and no end of stream.
                ByteBuffer one = ByteBuffer.allocate(1);
                for (SocketChannel c : idle) {
                    c.configureBlocking(false);
                    assertThat(c.read(one)).isZero();
                }
            } finally {
                for (SocketChannel c : idle) c.close();
            }
            Arrays.sort(healthMs);
            long p99 = healthMs[(int) Math.ceil(HEALTH_CHECKS * 0.99) - 1];
            assertThat(p99).isLessThan(1_000);
            io.tas.support.Proof.figure("resource-limits: body=%s headers=%d slowloris-closed-after=%dms (slow body %dms; limit %dms) "
                            + "idle-connections=%d health-p99=%dms (max %dms, %d checks)%n",
                    body.code(), headers.status, headersClosedAfter, bodyClosedAfter, READ_TIMEOUT_MS, IDLE_CONNECTIONS, p99,
                    healthMs[HEALTH_CHECKS - 1], HEALTH_CHECKS);
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    private record Answer(int status, JsonNode body) {}

    /** One request on its own connection; the status and the JSON body of the answer. */
    private static Answer exchange(int port, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) throw new IOException("the connection closed inside the answer's head: " + head);
                head.write(b);
            }
            String raw = head.toString(StandardCharsets.ISO_8859_1);
            int status = Integer.parseInt(raw.substring(9, 12));
            // Helidon keeps the socket open a while after a Connection: close answer: read Content-Length bytes.
            int length = raw.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
                    .map(l -> Integer.parseInt(l.substring(15).trim())).findFirst().orElse(0);
            byte[] body = in.readNBytes(length);
            return new Answer(status, length == 0 ? JSON.missingNode() : JSON.readTree(body));
        }
    }

    /**
     * Sends head at once, then slow one byte a second (never finishing it); the milliseconds from the head until the
     * server closed the connection. Bounded: gives up after 30 s.
     */
    private static long trickle(int port, String head, String slow) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(1_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            long t0 = System.nanoTime();
            for (int i = 0; i < 30; i++) {
                try {
                    out.write(slow.charAt(i % slow.length()));
                    out.flush();
                    int b = in.read(); // waits up to a second: the pace
                    if (b >= 0) throw new AssertionError("the server answered a request that never finished arriving");
                    return (System.nanoTime() - t0) / 1_000_000;
                } catch (SocketTimeoutException stillOpen) {
                    // one more byte
                } catch (SocketException reset) {
                    return (System.nanoTime() - t0) / 1_000_000;
                }
            }
            throw new AssertionError("a client sending one byte a second was still connected after 30 s");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
