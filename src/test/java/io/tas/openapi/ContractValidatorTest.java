package io.tas.openapi;

import io.tas.http.AnswerTap.Surface;
import io.tas.support.ApiClient;
import io.tas.support.ContractValidator;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29: the contract check catches planted mistakes. A real answer of §2.2 account info from the server passes;
 * the same answer with one planted mistake (a string field sent as a number, a field the document does not name, a
 * required field left out, a code the row does not list, a required parameter missing from an accepted call) is a
 * violation that names it. A fresh validator, so nothing here reaches the run-wide one.
 */
class ContractValidatorTest {
    private static final String INFO = "/api/v3/account/info";

    private static String realAnswer() {
        TestServer server = ServerPool.next(Databases.Kind.H2);
        ApiClient.Reply r = server.client(Credentials.MAIN_RW).get(INFO);
        assertThat(r.status()).isEqualTo(200);
        return r.raw();
    }

    private static java.util.List<String> check(String method, String path, String query, int status, String body) {
        ContractValidator v = new ContractValidator();
        v.answered(Surface.PUBLIC, method, path, query, new byte[0], status, body.getBytes(StandardCharsets.UTF_8));
        return v.violationsFrom(0);
    }

    @Test
    void theRealAnswerPasses() {
        assertThat(check("GET", INFO, null, 200, realAnswer())).isEmpty();
    }

    @Test
    void aStringFieldSentAsANumberFails() {
        String planted = realAnswer().replaceFirst("\"userId\":\"(\\d+)\"", "\"userId\":$1");
        assertThat(planted).doesNotContain("\"userId\":\"");
        assertThat(check("GET", INFO, null, 200, planted)).singleElement().asString().contains("/data/userId").contains("string");
    }

    @Test
    void aFieldTheDocumentDoesNotNameFails() {
        String planted = realAnswer().replaceFirst("\"data\":\\{", "\"data\":{\"leverageHint\":\"5\",");
        assertThat(check("GET", INFO, null, 200, planted)).singleElement().asString().contains("leverageHint");
    }

    @Test
    void aMissingRequiredFieldFails() {
        String planted = realAnswer().replaceFirst("\"permType\":\"[^\"]*\",?", "");
        assertThat(check("GET", INFO, null, 200, planted)).singleElement().asString().contains("permType");
    }

    @Test
    void aCodeTheRowDoesNotListFails() {
        // 25204 (order does not exist) is no code of account info; 40006 (invalid key) is.
        String listed = "{\"code\":\"40006\",\"msg\":\"Invalid ACCESS_KEY\",\"requestTime\":1,\"data\":null}";
        String planted = "{\"code\":\"25204\",\"msg\":\"Order does not exist\",\"requestTime\":1,\"data\":null}";
        assertThat(check("GET", INFO, null, 400, listed)).isEmpty();
        assertThat(check("GET", INFO, null, 400, planted)).singleElement().asString().contains("code");
    }

    @Test
    void anAcceptedCallWithoutARequiredParameterFails() {
        String ok = "{\"code\":\"00000\",\"msg\":\"success\",\"requestTime\":1,\"data\":[]}";
        java.util.List<String> found = check("GET", "/api/v3/market/tickers", "symbol=BTCUSDT", 200, ok);
        assertThat(found).anySatisfy(v -> assertThat(v).contains("required parameter category"));
    }

    @Test
    void aCategoryInAnyLetterCasePassesAndOneOutsideTheSetFails() {
        String ok = "{\"code\":\"00000\",\"msg\":\"success\",\"requestTime\":1,\"data\":[]}";
        assertThat(check("GET", "/api/v3/market/tickers", "category=Usdt-Futures", 200, ok)).isEmpty();
        assertThat(check("GET", "/api/v3/market/tickers", "category=usdt-future%C5%BF", 200, ok))
                .singleElement().asString().contains("accepted parameter category=usdt-futureſ");
    }

    @Test
    void aStatusTheDocumentDoesNotListFails() {
        assertThat(check("GET", INFO, null, 503, "{}")).singleElement().asString().contains("no answer with status 503");
    }

    /** The integration tests' children (ChildAnswers): a concrete admin path is judged by its route's pattern. */
    @Test
    void anAnswerFromAnotherProcessIsMatchedToItsRoute() {
        ContractValidator v = new ContractValidator();
        byte[] none = new byte[0];
        v.answeredElsewhere(Surface.ADMIN, "GET", "/admin/v1/accounts/1000000001", null, none, 503, "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(v.violationsFrom(0)).singleElement().asString().contains("/admin/v1/accounts/{uid}").contains("status 503");
        v.answeredElsewhere(Surface.PUBLIC, "GET", "/api/v3/no-such-row", null, none, 404, "{}".getBytes(StandardCharsets.UTF_8));
        v.answeredElsewhere(Surface.ADMIN, "GET", "/admin/v1/accounts/1/no/such", null, none, 404, "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(v.answers()).isEqualTo(1); // paths no document names are not rows, as on the server's own tap
        v.answeredElsewhere(Surface.PUBLIC, "GET", INFO, null, none, 200, realAnswer().getBytes(StandardCharsets.UTF_8));
        assertThat(v.answers()).isEqualTo(2);
        assertThat(v.violationCount()).isEqualTo(1);
    }
}
