package io.tas.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tas.http.Endpoint;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29: the documents as served. /openapi.json on the public port describes every catalog row with its method,
 * signed rows with the four ACCESS-* headers and public ones without; /admin/openapi.json on the admin listener
 * describes every registered admin route (and is not on the public port); both viewers load from the jar.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class OpenApiDocumentTest {
    @Parameter Databases.Kind kind;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void thePublicDocumentDescribesEveryCatalogRow() throws Exception {
        TestServer server = ServerPool.next(kind);
        HttpResponse<String> r = get(server.baseUrl() + "/openapi.json");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode doc = JSON.readTree(r.body());
        assertThat(doc.path("openapi").asText()).isEqualTo("3.1.0");
        int operations = 0;
        for (Endpoint e : Endpoint.values()) {
            JsonNode op = doc.path("paths").path(e.path()).path(e.method().toLowerCase());
            assertThat(op.isObject()).as(e.name()).isTrue();
            assertThat(op.path("operationId").asText()).isEqualTo(e.name());
            assertThat(op.path("security").isMissingNode()).as(e.name() + " signed").isEqualTo(e.isPublic());
            assertThat(op.path("x-rate-limit").path("perSecond").asInt()).isEqualTo(e.ratePerSecond());
            assertThat(op.path("responses").has("200") && op.path("responses").has("400") && op.path("responses").has("429")).isTrue();
            operations++;
        }
        int documented = 0;
        for (JsonNode item : doc.path("paths")) documented += item.size();
        assertThat(documented).isEqualTo(operations).isEqualTo(Endpoint.values().length);
        // §4.1.1: pre-set-leverage requires category and marginMode
        JsonNode preSet = doc.at("/paths/~1api~1v3~1account~1pre-set-leverage/get/parameters");
        assertThat(preSet.findValuesAsText("name")).contains("category", "marginMode", "symbol");
        assertThat(doc.at("/components/securitySchemes/ACCESS-SIGN/in").asText()).isEqualTo("header");
    }

    @Test
    void theAdminDocumentIsOnTheAdminListenerOnly() throws Exception {
        TestServer server = ServerPool.next(kind);
        HttpResponse<String> r = get(server.adminUrl() + "/admin/openapi.json");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode doc = JSON.readTree(r.body());
        assertThat(doc.at("/paths/~1admin~1v1~1sandbox~1clock~1freeze/post/operationId").asText()).isEqualTo("postSandboxClockFreeze");
        assertThat(doc.at("/paths/~1admin~1v1~1accounts~1{uid}/get/parameters/0/in").asText()).isEqualTo("path");
        assertThat(doc.at("/components/securitySchemes/adminToken/scheme").asText()).isEqualTo("bearer");
        HttpResponse<String> onPublic = get(server.baseUrl() + "/admin/openapi.json");
        assertThat(onPublic.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(onPublic.body()).path("code").asText()).isEqualTo("40404");
    }

    @Test
    void theViewersLoadFromTheJar() throws Exception {
        TestServer server = ServerPool.next(kind);
        for (String base : new String[]{server.baseUrl() + "/", server.adminUrl() + "/admin/"}) {
            HttpResponse<String> page = get(base + "openapi");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("openapi/ui/swagger-ui-bundle.js").contains("openapi.json");
            HttpResponse<String> bundle = get(base + "openapi/ui/swagger-ui-bundle.js");
            assertThat(bundle.statusCode()).isEqualTo(200);
            assertThat(bundle.body().length()).isGreaterThan(100_000);
            HttpResponse<String> other = get(base + "openapi/ui/pom.properties"); // only the viewer's files are served
            assertThat(other.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(other.body()).path("code").asText()).isEqualTo("40404");
        }
    }
}
