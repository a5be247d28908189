package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tas.support.ApiClient;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/grafana-dashboard.json (issue 11 item 5) queries only metrics the service exports: every metric name in every
 * panel's expression is on /metrics of a PostgreSQL node with Redis-shared limits (the configuration that has them all)
 * after a few calls.
 */
class DashboardTest {
    private static final Pattern METRIC = Pattern.compile("\\b((?:tas|jvm|hikaricp|process)_[a-z0-9_]+)");

    @Test
    void everyPanelQueriesAnExportedMetric() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(Path.of("docs/grafana-dashboard.json")));
        Set<String> wanted = new TreeSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                Matcher m = METRIC.matcher(target.get("expr").asText());
                while (m.find()) wanted.add(m.group(1));
            }
        }
        assertThat(wanted).as("metric names in the dashboard").hasSizeGreaterThan(10);

        String prefix = "tas:test:" + UUID.randomUUID() + ":";
        try (TestServer server = TestServer.start(Databases.Kind.POSTGRES, new MutableClock(System.currentTimeMillis()),
                c -> c.withRedisUrl(SharedRateLimitTest.REDIS).withRedisKeyPrefix(prefix))) {
            Admin admin = new Admin(server);
            Credentials user = admin.fundedAccount("dashboard-1", "USDT", "100");
            ApiClient client = server.client(user);
            assertThat(client.get("/api/v3/account/settings").code()).isEqualTo("00000");
            assertThat(client.get("/api/v3/account/settings?x=").code()).isNotEmpty();
            assertThat(client.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}").code()).isEqualTo("00000");
            // jvm_gc_pause appears with the first collection, which a young JVM may not have had yet; the JVM reports
            // a pause asynchronously, so the scrape is retried for a few seconds.
            System.gc();
            Set<String> exported = new TreeSet<>();
            long until = System.nanoTime() + 10_000_000_000L;
            do {
                exported.clear();
                for (String line : ApiClient.raw(server.adminUrl() + "/metrics", "GET", "").raw().split("\n")) {
                    Matcher m = METRIC.matcher(line);
                    if (!line.startsWith("#") && m.lookingAt()) exported.add(m.group(1));
                }
                if (exported.containsAll(wanted)) break;
                Thread.sleep(200);
            } while (System.nanoTime() < until);
            assertThat(exported).as("exported metric names").containsAll(wanted);
        }
    }
}
