package io.tas.conformance;

import io.tas.admin.SandboxClock;
import io.tas.auth.Signature;
import io.tas.support.ApiClient;
import io.tas.support.Databases;
import io.tas.support.LoopbackClient;
import io.tas.support.Metrics;
import io.tas.support.ProxyProcess;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11 item 4, behind real proxies: the shipped deploy/nginx/tas.conf (Debian's nginx) in front of two nodes on one
 * PostgreSQL, the nodes trusting the proxy's address (TAS_TRUSTED_PROXIES=127.0.0.1). The bitget-api SDK script runs
 * through it, IP allow-lists see the client behind it, and deploy/haproxy/tas.cfg passes `haproxy -c`, marks both
 * nodes up with its HTTP/1.1 check and forwards the client's address.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProxyConformanceTest {
    private static final String ALLOWED_IP = "127.0.0.7";
    private static TestServer a;
    private static TestServer b;
    private static ProxyProcess nginx;

    @BeforeAll
    static void start() throws Exception {
        NodeConformance.ensureInstalled();
        // A sandbox clock as in BitgetSdkConformanceTest; the second node shares it (and the database). TAS_CACHE off:
        // with it on, a node's cached settings hear of a write on the other node a few ms late, and the script's
        // set-leverage-then-read-back sent round robin failed 1 run in 3 (deploy/nginx/tas.conf says so).
        a = TestServer.start(Databases.Kind.POSTGRES, new SandboxClock(), c -> c.withTrustedProxies("127.0.0.1, ::1").withCache(false));
        b = TestServer.secondNode(a);
        nginx = ProxyProcess.nginx(a.app.port(), b.app.port(), "");
    }

    @AfterAll
    static void stop() {
        if (nginx != null) nginx.close();
        if (b != null) b.close();
        if (a != null) a.close();
    }

    /** The SDK script, unchanged but for its base URL (the proxy's; the admin URL stays node a's, admin is not proxied). */
    @Test
    @Order(1)
    void bitgetApiSdkWorksThroughNginxAndBothNodesServe() throws Exception {
        double servedA = Metrics.sum(a, "tas_requests_total"), servedB = Metrics.sum(b, "tas_requests_total");
        ProcessBuilder pb = new ProcessBuilder("node", "sdk-conformance.mjs");
        NodeConformance.serverEnv(pb.environment(), a);
        pb.environment().put("TAS_BASE_URL", nginx.baseUrl());
        long t0 = System.nanoTime();
        NodeConformance.Result r = NodeConformance.run(pb, 120);
        System.out.printf("%s(sdk run through nginx: %d ms)%n", r.output(), (System.nanoTime() - t0) / 1_000_000);
        assertThat(r.output()).contains("ok v3 account settings", "ok v3 set-leverage + settings read back",
                "ok v3 switch to classic: process, then success, then 40084", "ok v2 spot fills paging (3 pages with limit=1)");
        assertThat(r.output()).containsPattern("(?m)^\\d+ passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
        // Round robin: each node answered a share of the script's requests.
        assertThat(Metrics.sum(a, "tas_requests_total") - servedA).as("requests node a served").isGreaterThan(10);
        assertThat(Metrics.sum(b, "tas_requests_total") - servedB).as("requests node b served").isGreaterThan(10);
    }

    @Test
    @Order(2)
    void anIpAllowListedKeyIsAllowedFromItsIpThroughATrustedProxyOnly() throws Exception {
        ApiClient.Reply created = ApiClient.raw(a.adminUrl() + "/admin/v1/keys", "POST",
                "{\"uid\":1000000001,\"passphrase\":\"Proxy1\",\"permissions\":[\"uta_mgt\"],\"ips\":[\"" + ALLOWED_IP + "\"]}",
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
        assertThat(created.code()).as(created.raw()).isEqualTo("00000");
        String key = created.data().get("accessKey").asText(), secret = created.data().get("secret").asText();
        knownToNodeB(key, "Proxy1", secret);

        // Through nginx from the allowed IP: nginx appends its peer 127.0.0.7, the node trusts nginx's 127.0.0.1.
        for (int i = 0; i < 2; i++) { // both nodes (round robin)
            assertThat(info(ALLOWED_IP, nginx.port, key, secret).code()).isEqualTo("00000");
        }
        // Another client claiming the allowed IP: nginx appends the true peer to the right, which is what counts.
        assertThat(info("127.0.0.9", nginx.port, key, secret, "X-Forwarded-For", ALLOWED_IP).code()).isEqualTo("40018");
        // Straight to a node, the header is not believed from an untrusted peer...
        assertThat(info("127.0.0.9", a.app.port(), key, secret, "X-Forwarded-For", ALLOWED_IP).code()).isEqualTo("40018");
        // ...nor does it hide one: the allowed IP is the client whatever it says.
        assertThat(info(ALLOWED_IP, a.app.port(), key, secret, "X-Forwarded-For", "127.0.0.9").code()).isEqualTo("00000");
        // Garbage from a trusted peer is no 5xx: the walk stops at the peer, which is not the allowed IP.
        for (String garbage : new String[] {"unknown", "[::1", "1.2.3.4.5, ,", "x".repeat(2000), "127.0.0.7:99999"}) {
            LoopbackClient.Response r = info("127.0.0.1", a.app.port(), key, secret, "X-Forwarded-For", garbage);
            assertThat(r.status()).as(garbage).isEqualTo(400);
            assertThat(r.code()).as(garbage).isEqualTo("40018");
        }

        // The same nginx config, its upstream connections from 127.0.0.3, which the nodes do not trust: refused.
        try (ProxyProcess untrusted = ProxyProcess.nginx(a.app.port(), b.app.port(), "proxy_bind 127.0.0.3;")) {
            for (int i = 0; i < 2; i++) {
                LoopbackClient.Response r = info(ALLOWED_IP, untrusted.port, key, secret);
                assertThat(r.status()).isEqualTo(400);
                assertThat(r.code()).isEqualTo("40018");
            }
        }
    }

    /** helidon-io/helidon#9604: a node refuses HTTP/1.0 (400, the envelope); through nginx an HTTP/1.0 client is served. */
    @Test
    @Order(3)
    void http10ClientsAreServedThroughNginxNotDirectly() throws IOException {
        // Helidon 4 refuses HTTP/1.0 (helidon-io/helidon#9604); ProtocolErrors gives the refusal the envelope (D97).
        assertThat(statusLine(a.app.port())).startsWith("HTTP/1.1 400");
        assertThat(statusLine(nginx.port)).matches("HTTP/1\\.[01] 200 .*");
    }

    /** deploy/haproxy/tas.cfg: valid, its HTTP/1.1 check marks both nodes up, and option forwardfor names the client. */
    @Test
    @Order(4)
    void haproxyConfigChecksBothNodesUpAndForwardsTheClient() throws Exception {
        ApiClient.Reply created = ApiClient.raw(a.adminUrl() + "/admin/v1/keys", "POST",
                "{\"uid\":1000000001,\"passphrase\":\"Proxy2\",\"permissions\":[\"uta_mgt\"],\"ips\":[\"" + ALLOWED_IP + "\"]}",
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/json");
        String key = created.data().get("accessKey").asText(), secret = created.data().get("secret").asText();
        knownToNodeB(key, "Proxy2", secret);
        try (ProxyProcess haproxy = ProxyProcess.haproxy(a.app.port(), b.app.port())) {
            String stat = checked(haproxy);
            assertThat(checkStatus(stat, "node1")).as(stat).isEqualTo("L7OK");
            assertThat(checkStatus(stat, "node2")).as(stat).isEqualTo("L7OK");
            assertThat(infoAs(ALLOWED_IP, haproxy.port, key, "Proxy2", secret).code()).isEqualTo("00000");
            assertThat(infoAs("127.0.0.9", haproxy.port, key, "Proxy2", secret, "X-Forwarded-For", ALLOWED_IP).code()).isEqualTo("40018");
        }
    }

    /** Without the shipped http-check line HAProxy checks in HTTP/1.0, and the nodes' refusal marks them failed (L7STS). */
    @Test
    @Order(5)
    void haproxysDefaultHttp10CheckWouldFailBothNodes() throws Exception {
        String sendLine = "    http-check send meth GET uri /health/ready ver HTTP/1.1 hdr Host localhost\n";
        try (ProxyProcess haproxy = ProxyProcess.haproxy(a.app.port(), b.app.port(), sendLine, "")) {
            String stat = checked(haproxy);
            assertThat(checkStatus(stat, "node1")).as(stat).isEqualTo("L7STS");
            assertThat(checkStatus(stat, "node2")).as(stat).isEqualTo("L7STS");
        }
    }

    /** `show stat` once both servers have a completed check (an L4/L6/L7 status), at most 10 s on. */
    private static String checked(ProxyProcess haproxy) throws Exception {
        String stat = "";
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            stat = haproxy.stat();
            if (checkStatus(stat, "node1").startsWith("L") && checkStatus(stat, "node2").startsWith("L")) break;
            Thread.sleep(100);
        }
        return stat;
    }

    /**
     * A key made on node a reaches node b through the change feed (ApiKeyService), a few milliseconds later; until then
     * b answers 40006. Waits for that (straight to b from the allowed IP), so round robin cannot land on b too early.
     */
    private static void knownToNodeB(String key, String passphrase, String secret) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!infoAs(ALLOWED_IP, b.app.port(), key, passphrase, secret).code().equals("00000") && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(infoAs(ALLOWED_IP, b.app.port(), key, passphrase, secret).code()).as("node b knows the new key").isEqualTo("00000");
    }

    /** The check_status column of a server's row in `show stat` ("L7OK" once an HTTP check passed), or "". */
    private static String checkStatus(String csv, String server) {
        String[] lines = csv.split("\n");
        if (lines.length == 0 || !lines[0].startsWith("# ")) return "";
        int col = java.util.Arrays.asList(lines[0].substring(2).split(",")).indexOf("check_status");
        for (String line : lines) {
            String[] f = line.split(",", -1);
            if (f.length > col && f[0].equals("tas_api") && f[1].equals(server)) return f[col];
        }
        return "";
    }

    private static LoopbackClient.Response info(String fromIp, int port, String key, String secret, String... headers) {
        return infoAs(fromIp, port, key, "Proxy1", secret, headers);
    }

    /** A signed GET /api/v3/account/info sent from fromIp (any of 127/8) to port. */
    private static LoopbackClient.Response infoAs(String fromIp, int port, String key, String passphrase, String secret, String... headers) {
        String ts = Long.toString(System.currentTimeMillis());
        String sign = Signature.sign(secret, ts, "GET", "/api/v3/account/info", "", "");
        String[] all = new String[headers.length + 8];
        System.arraycopy(new String[] {"ACCESS-KEY", key, "ACCESS-SIGN", sign, "ACCESS-TIMESTAMP", ts, "ACCESS-PASSPHRASE", passphrase}, 0, all, 0, 8);
        System.arraycopy(headers, 0, all, 8, headers.length);
        return LoopbackClient.get(fromIp, port, "/api/v3/account/info", all);
    }

    private static String statusLine(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            s.setSoTimeout(5_000);
            s.getOutputStream().write("GET /health/ready HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String reply = new String(in.readNBytes(64), StandardCharsets.US_ASCII);
            return reply.split("\r\n", 2)[0];
        }
    }
}
