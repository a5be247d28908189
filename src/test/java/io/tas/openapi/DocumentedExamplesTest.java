package io.tas.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tas.http.AnswerTap.Surface;
import io.tas.http.Endpoint;
import io.tas.support.ApiClient;
import io.tas.support.ContractValidator;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29 (it replaces the old wire-types resource): the examples /openapi.json documents work on the demo data as
 * written, and their answers meet the document. An order's life first (each family's place-order example), then every
 * GET row's example, then the examples that modify and cancel those orders. Each answer must be 00000 and is checked
 * here with a validator of its own, besides the run-wide one. On a server of its own: the examples change state.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class DocumentedExamplesTest {
    @Parameter Databases.Kind kind;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Endpoint> PLACE = List.of(Endpoint.PLACE_ORDER, Endpoint.SPOT_PLACE_ORDER, Endpoint.MIX_PLACE_ORDER);
    private static final List<Endpoint> THEN = List.of(Endpoint.MODIFY_ORDER, Endpoint.CANCEL_ORDER, Endpoint.SPOT_CANCEL_ORDER,
            Endpoint.MIX_MODIFY_ORDER, Endpoint.MIX_CANCEL_ORDER);

    @Test
    void everyDocumentedExampleAnswersAsDocumented() throws Exception {
        try (TestServer server = TestServer.start(kind, Clock.systemUTC(), false)) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/openapi.json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode doc = JSON.readTree(r.body());
            ContractValidator validator = new ContractValidator();
            List<String> failures = new ArrayList<>();
            int gets = 0;
            for (Endpoint e : PLACE) call(server, doc, e, validator, failures);
            for (Endpoint e : Endpoint.values()) {
                if (e.method().equals("GET") && call(server, doc, e, validator, failures)) gets++;
            }
            for (Endpoint e : THEN) call(server, doc, e, validator, failures);
            assertThat(failures).isEmpty();
            assertThat(validator.violationsFrom(0)).isEmpty();
            // Every GET row documents an example but the few that need none (account info, settings, ...).
            assertThat(gets).isGreaterThanOrEqualTo(50);
        }
    }

    /** Calls the row's documented example, if it has one; false when it has none. */
    private static boolean call(TestServer server, JsonNode doc, Endpoint e, ContractValidator validator, List<String> failures) {
        JsonNode op = doc.path("paths").path(e.path()).path(e.method().toLowerCase());
        String query = op.path("x-example-query").asText(null);
        JsonNode body = op.at("/requestBody/content/application~1json/example");
        if (query == null && body.isMissingNode()) {
            if (e.method().equals("POST")) failures.add(e + ": no example");
            return false;
        }
        ApiClient client = server.client(e.family() == Endpoint.Family.CLASSIC ? Credentials.CLASSIC : Credentials.MAIN_RW);
        ApiClient.Reply reply = e.method().equals("GET") ? client.get(e.path() + "?" + query) : client.post(e.path(), body.toString());
        validator.answered(Surface.PUBLIC, e.method(), e.path(), query, body.isMissingNode() ? new byte[0] : body.toString().getBytes(StandardCharsets.UTF_8),
                reply.status(), reply.raw().getBytes(StandardCharsets.UTF_8));
        if (!reply.body().path("code").asText().equals("00000")) failures.add(e + " " + (query != null ? query : body) + ": " + reply.raw());
        return true;
    }
}
