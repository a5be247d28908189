package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.RawHttp;
import io.tas.support.RawRequest;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.tas.api.Replies.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** Bad input gets HTTP 400 and the envelope with the real code; never a 5xx, never an HTML page. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class ErrorsApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;
    ApiClient main;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        main = server.client(Credentials.MAIN_RW);
    }


    @Test
    void unknownPathIs40404() {
        assertError(main.get("/api/v3/account/nope"), "40404", "Request URL NOT FOUND");
        assertError(ApiClient.raw(server.baseUrl() + "/", "GET", ""), "40404", "Request URL NOT FOUND");
    }

    /**
     * Issue 29's contract check found "usdt-futureſ" taken as USDT-FUTURES: Java's toUpperCase folds the long s into S.
     * Only ASCII letters fold now (Ascii); a value with another letter is refused like any unknown one.
     */
    @Test
    void aLetterOutsideAsciiDoesNotFoldIntoAKnownValue() {
        assertError(main.get("/api/v3/market/instruments?category=usdt-future%C5%BF"), "40020", "Parameter category error");
        assertThat(main.get("/api/v3/market/instruments?category=usdt-futures").code()).isEqualTo("00000");
        assertThat(main.get("/api/v3/market/orderbook?category=SPOT&symbol=btcu%C5%BFdt").code()).isNotEqualTo("00000");
        assertThat(main.get("/api/v3/market/orderbook?category=SPOT&symbol=btcusdt").code()).isEqualTo("00000");
    }

    @Test
    void wrongMethodIs40404() {
        assertError(main.post("/api/v3/account/info", "{}"), "40404", "Request URL NOT FOUND");
        assertError(main.send("DELETE", "/api/v3/account/settings", "", 0, null), "40404", "Request URL NOT FOUND");
    }

    @Test
    void postWithoutJsonContentTypeIs40007() {
        assertError(main.send("POST", "/api/v3/account/set-leverage", "{}", 0, "text/plain"), "40007", "Invalid Content_Type");
        assertError(main.send("POST", "/api/v3/account/set-leverage", "{}", 0, null), "40007", "Invalid Content_Type");
        // A charset suffix is still JSON (wire facts §8): the request gets past the Content-Type check to the row,
        // which names the parameter it misses.
        assertError(main.send("POST", "/api/v3/account/set-leverage", "{}", 0, "application/json; charset=UTF-8"), "40019",
                "Parameter category cannot be empty");
    }

    /** Issue 12 fuzz findings, kept as regressions: each of these had no envelope (or a 5xx) before. */
    @Test
    void framingAndTrailingGarbageGetTheEnvelope() {
        int port = server.app.port();
        try (RawHttp http = new RawHttp(port)) {
            // A request line Helidon refuses before routing (it answered plain-text 505, 400, 414).
            for (String line : new String[] {"GET /api/v3/account/info HTTP/2.0", "GET  /api/v3/account/info HTTP/1.1",
                    "GET /api/v3/account/info?" + "a".repeat(20_000) + " HTTP/1.1"}) {
                List<RawHttp.Answer> got = http.oneShot((line + "\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                assertThat(got).as(line).hasSize(1);
                assertThat(EnvelopeCheck.codeOrProblem(got.getFirst())).as(got.getFirst().text()).isEqualTo("40017");
            }
            // A chunk size that is not hex (it was a 500 from a NumberFormatException inside Helidon).
            RawRequest chunked = new RawRequest("GET", "/api/v3/account/info", null).sign(Credentials.MAIN_RW, server.clock.millis())
                    .header("Transfer-Encoding", "chunked").body("zz\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            chunked.contentLength = false;
            List<RawHttp.Answer> got = http.oneShot(chunked.bytes(port));
            assertThat(got).hasSize(1);
            assertThat(got.getFirst().status()).isEqualTo(400);
            assertThat(got.getFirst().text()).contains("\"code\":\"40017\"", "unreadable request body");
        }
        // A NUL in a value reached PostgreSQL, which refuses it in text: a 500 there (H2 took it).
        assertError(server.client(Credentials.CLASSIC).get("/api/v2/spot/trade/fills?symbol=BTCUSDT%00"), "40020", "Parameter symbol error");
        assertError(main.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"BTC\\u0000\"]}"), "40020", "Parameter fromCoinList error");
        // Trailing tokens after the object: malformed, not {} (a bare account switch took "{}{}" as {}).
        assertError(main.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"one_way_mode\"}x"), "40017",
                "Parameter verification failed malformed JSON body");
        assertError(main.post("/api/v3/account/switch", "{} {}"), "40017", "Parameter verification failed malformed JSON body");
    }

    @Test
    void malformedJsonIs40017() {
        assertError(main.post("/api/v3/account/set-leverage", "{\"category\":"), "40017", "Parameter verification failed malformed JSON body");
        assertError(main.post("/api/v3/account/set-leverage", "[1,2]"), "40017", "Parameter verification failed body must be a JSON object");
    }

    @Test
    void oversizedBodyIs40017() {
        String big = "{\"pad\":\"" + "x".repeat(70_000) + "\"}";
        Reply r = main.post("/api/v3/account/set-leverage", big);
        assertError(r, "40017", "Parameter verification failed request body larger than 65536 bytes");
    }

    @Test
    void emptyBodyAndEmptyObjectBothMeanNoParameters() {
        // Wire facts §1.3: bitget-api sends no body, ccxt sends {}; both pass parsing and reach the row. A fresh account
        // switches (never the shared demo account); the second request, while the first is in process, is accepted too.
        ApiClient fresh = server.client(new Admin(server).fundedAccount("errors-switch-" + kind + "-" + System.nanoTime()));
        Reply noBody = fresh.post("/api/v3/account/switch", "");
        assertThat(noBody.code()).as(noBody.raw()).isEqualTo("00000");
        ServerPool.nextSecond(kind);
        Reply emptyObject = fresh.post("/api/v3/account/switch", "{}");
        assertThat(emptyObject.code()).as(emptyObject.raw()).isEqualTo("00000");
        assertThat(emptyObject.body().get("data").isNull()).isTrue();
    }

    @Test
    void missingParameterIs40019NamingIt() {
        Reply r = ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers", "GET", "");
        assertError(r, "40019", "Parameter category cannot be empty");
        assertError(ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=", "GET", ""), "40019", "Parameter category cannot be empty");
    }

    @Test
    void badEnumOrNumberIs40020() {
        assertError(ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=NOPE", "GET", ""), "40020", "Parameter category error");
        assertError(ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=MARGIN", "GET", ""), "40020", "Parameter category error");
        assertError(main.get("/api/v3/user/sub-list?limit=abc"), "40020", "Parameter limit error");
        assertError(main.get("/api/v3/user/sub-list?limit=101"), "40020", "Parameter limit error");
        assertError(main.get("/api/v3/user/sub-list?limit=0"), "40020", "Parameter limit error");
        assertError(main.get("/api/v3/user/sub-list?limit=-5"), "40020", "Parameter limit error");
        assertError(main.get("/api/v3/user/sub-list?cursor=12x"), "40020", "Parameter cursor error");
    }

    @Test
    void unknownSymbolIs25100() {
        assertError(ApiClient.raw(server.baseUrl() + "/api/v3/market/tickers?category=SPOT&symbol=NOPEUSDT", "GET", ""),
                "25100", "Trading pair NOPEUSDT does not exist");
    }

    @Test
    void everyCatalogRowHasAHandlerSoNothingAnswers40099() {
        // 40099 (D4) stays as the pipeline's answer for an unbound row; since issue 10 every row is bound.
        var routes = io.tas.App.productionRoutes();
        for (io.tas.http.Endpoint e : io.tas.http.Endpoint.values()) {
            org.assertj.core.api.Assertions.assertThat(routes.isImplemented(e)).as(e.name()).isTrue();
        }
        Reply r = main.post("/api/v3/trade/place-reality-order", "{\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"market\",\"qty\":\"1\"}");
        assertError(r, "25100", "Trading pair BTCUSDT does not exist"); // §4.7: only Reality pairs
    }

    private static final String CLASSIC_ON_V3 = "You are in Classic Account mode, and the Unified Account API is not supported at this time";
    private static final String UNIFIED_ON_V2 = "You are in Unified Account mode, and the Classic Account API is not supported at this time";

    @Test
    void theDemoClassicKeyGets40084OnAV3RowAndTheUnifiedKeyGets40085OnAV2Row() {
        // DESIGN "Account kinds", decisions.md D6: the real platform's codes and messages.
        assertError(server.client(Credentials.CLASSIC).get("/api/v3/account/settings"), "40084", CLASSIC_ON_V3);
        assertError(main.get("/api/v2/mix/position/all-position?productType=USDT-FUTURES"), "40085", UNIFIED_ON_V2);
    }

    // Every row against both account families, with the state hash around each refusal: proof/FamilyMatrixTest.

    @Test
    void aClassicAccountIsToldItsKindBeforeItsKeysPermissions() {
        // A real classic key carries no uta_* permission, yet clients read 40084 from it on v3 rows (D6):
        // the account kind is checked before the permission, also for a read-only key on a write row.
        Admin admin = new Admin(server);
        long uid = admin.createAccount("{\"username\":\"classic-" + kind + "\",\"accountMode\":\"CLASSIC\"}");
        String key = admin.createKey(uid, "Classic1", "read-only", "[\"withdraw\"]");
        ApiClient classic = server.client(new Credentials(key, admin.lastSecret, "Classic1"));
        assertError(classic.get("/api/v3/account/settings"), "40084", CLASSIC_ON_V3);
        assertError(classic.post("/api/v3/account/set-leverage", "{}"), "40084", CLASSIC_ON_V3);
        // Rows open to both kinds still answer it; their own permission check still applies.
        Reply info = classic.get("/api/v3/account/info");
        assertThat(info.code()).as(info.raw()).isEqualTo("00000");
        assertThat(info.data().get("userId").asText()).isEqualTo(Long.toString(uid));
        Reply profit = classic.get("/api/v3/copy/futures/profit-summary");
        assertError(profit, "40014", "Incorrect permissions, need copy_futures_order permissions");
        // A unified key that lacks the permission of a v3 row still gets 40014 there.
        assertError(server.client(Credentials.MAIN_RO).get("/api/v3/copy/futures/profit-summary"), "40014",
                "Incorrect permissions, need copy_futures_order permissions");
    }
}
