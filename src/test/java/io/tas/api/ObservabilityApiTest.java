package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11 item 5 on H2 and PostgreSQL: per-row latency histograms, JVM metrics, group-commit metrics and rate-limit
 * rejections by row at /metrics, and the X-Request-Id header on every API answer.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class ObservabilityApiTest extends SharedServerTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private String metrics() {
        return ApiClient.raw(server.adminUrl() + "/metrics", "GET", "").raw();
    }

    /**
     * The metrics once the sample reaches expected, or after 5 s as they are. A call's latency is recorded right after its
     * answer is written, so a client can scrape before it lands (CI saw the "unknown" row still absent once).
     */
    private String metricsOnce(double expected, String name, String... labels) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        String text = metrics();
        while (sample(text, name, labels) != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
            text = metrics();
        }
        return text;
    }

    /** The value of the one sample named name whose labels include every given label="value" (0 when there is none). */
    private static double sample(String text, String name, String... labels) {
        double found = 0;
        int matches = 0;
        for (String line : text.split("\n")) {
            if (!line.startsWith(name + "{")) continue;
            String labelPart = line.substring(name.length(), line.lastIndexOf('}') + 1);
            if (Arrays.stream(labels).allMatch(labelPart::contains)) {
                found = Double.parseDouble(line.substring(line.lastIndexOf('}') + 1).trim());
                matches++;
            }
        }
        assertThat(matches).as("samples of %s with %s", name, Arrays.toString(labels)).isLessThanOrEqualTo(1);
        return found;
    }

    private HttpResponse<String> publicTime(String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/v2/public/time"));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return HTTP.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void latencyHistogramPerRowCountsExactlyTheCallsMade() throws Exception {
        String row = "endpoint=\"PUBLIC_TIME\"";
        double before = sample(metrics(), "tas_request_duration_seconds_count", row, "outcome=\"2xx\"");
        for (int i = 0; i < 3; i++) assertThat(publicTime().statusCode()).isEqualTo(200);
        String text = metricsOnce(before + 3, "tas_request_duration_seconds_count", row, "outcome=\"2xx\"");
        assertThat(sample(text, "tas_request_duration_seconds_count", row, "outcome=\"2xx\"")).isEqualTo(before + 3);
        assertThat(text).contains("# TYPE tas_request_duration_seconds histogram");
        // The +Inf bucket holds every call; the 250 ms bucket is one of the SLO buckets.
        assertThat(sample(text, "tas_request_duration_seconds_bucket", row, "outcome=\"2xx\"", "le=\"+Inf\"")).isEqualTo(before + 3);
        assertThat(text).containsPattern("tas_request_duration_seconds_bucket\\{[^}]*endpoint=\"PUBLIC_TIME\"[^}]*le=\"0\\.25\"");
        // A path outside the catalog is one bounded "unknown" row, never the raw path.
        double unknown = sample(text, "tas_request_duration_seconds_count", "endpoint=\"unknown\"", "outcome=\"4xx\"");
        ApiClient.raw(server.baseUrl() + "/api/v3/no/such/row-" + System.nanoTime() + "?x=1", "GET", "");
        text = metricsOnce(unknown + 1, "tas_request_duration_seconds_count", "endpoint=\"unknown\"", "outcome=\"4xx\"");
        assertThat(sample(text, "tas_request_duration_seconds_count", "endpoint=\"unknown\"", "outcome=\"4xx\"")).isEqualTo(unknown + 1);
        assertThat(text).doesNotContain("no/such/row");
    }

    @Test
    void every429CountsOnceUnderItsRowScopeAndReason() throws Exception {
        String[] row = {"endpoint=\"PUBLIC_TIME\"", "scope=\"ip\"", "reason=\"quota\""};
        String text = metrics();
        double before = sample(text, "tas_rate_limit_rejections_total", row);
        // Registered at zero for every row before any refusal: a signed per-UID row that no test throttles is there too.
        assertThat(text).containsPattern("tas_rate_limit_rejections_total\\{endpoint=\"UTA_DEPOSIT_RECORDS\",reason=\"quota\",scope=\"uid\"\\} ");
        // Past the row's 20/s per IP within this second (the shared server's clock stands still): some calls get 429.
        int refused = 0;
        for (int i = 0; i < io.tas.http.Endpoint.PUBLIC_TIME.ratePerSecond() + 5; i++) {
            HttpResponse<String> r = publicTime();
            if (r.statusCode() == 429) refused++;
            else assertThat(r.statusCode()).isEqualTo(200);
        }
        assertThat(refused).isGreaterThanOrEqualTo(5);
        assertThat(sample(metrics(), "tas_rate_limit_rejections_total", row)).isEqualTo(before + refused);
    }

    @Test
    void jvmAndProcessMetricsArePublished() {
        String text = metrics();
        assertThat(text).contains("jvm_memory_used_bytes{", "jvm_threads_live_threads", "jvm_classes_loaded_classes",
                "process_cpu_usage", "process_uptime_seconds", "system_cpu_count", "hikaricp_connections");
    }

    @Test
    void groupCommitBatchesAreCountedAfterADeposit() {
        double batches = sample(metrics(), "tas_group_commit_batch_size_count", "group=\"ledger-writer\"");
        admin.fundedAccount("obs" + System.nanoTime() % 1_000_000, "USDT", "10");
        String text = metrics();
        assertThat(sample(text, "tas_group_commit_batch_size_count", "group=\"ledger-writer\"")).isGreaterThan(batches);
        assertThat(text).contains("tas_group_commit_queue_depth{group=\"ledger-writer\"}", "tas_group_commit_queue_depth{group=\"settings-writer\"}",
                "tas_group_commit_batch_size_bucket{group=\"ledger-writer\"");
    }

    @Test
    void requestIdIsEchoedWhenSaneAndGeneratedOtherwise() throws Exception {
        assertThat(publicTime("X-Request-Id", "abc.DEF_123-xyz").headers().firstValue("X-Request-Id")).hasValue("abc.DEF_123-xyz");

        String a = publicTime().headers().firstValue("X-Request-Id").orElseThrow();
        String b = publicTime().headers().firstValue("X-Request-Id").orElseThrow();
        assertThat(a).isNotBlank().isNotEqualTo(b).matches("[A-Za-z0-9._-]{1,64}");

        for (String bad : new String[]{"has space", "x".repeat(65), "semi;colon", "<script>", "a/b"}) {
            String given = publicTime("X-Request-Id", bad).headers().firstValue("X-Request-Id").orElseThrow();
            assertThat(given).as("replacement for %s", bad).isNotEqualTo(bad).matches("[A-Za-z0-9._-]{1,64}");
        }
        // Errors carry it too (an unknown row, a signed row without credentials).
        HttpResponse<String> notFound = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/v3/nothing"))
                .header("X-Request-Id", "err-1").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(notFound.statusCode()).isEqualTo(400);
        assertThat(notFound.headers().firstValue("X-Request-Id")).hasValue("err-1");
        HttpResponse<String> unsigned = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/v3/account/info"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unsigned.statusCode()).isGreaterThanOrEqualTo(400);
        assertThat(unsigned.headers().firstValue("X-Request-Id")).isPresent();
    }
}
