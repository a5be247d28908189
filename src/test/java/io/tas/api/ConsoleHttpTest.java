package io.tas.api;

import io.tas.admin.SandboxClock;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29 item 3 (D200 to D203), at the HTTP level: the console answers only on the admin listener, only to a session
 * opened with the admin token, and only to forms carrying the session's CSRF token; a refused form changes nothing; text
 * from accounts and keys is escaped. The browser test (ConsoleBrowserTest) drives the same pages in Chromium.
 */
class ConsoleHttpTest {
    private static TestServer server;
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private static final long UID = 1000000001L;

    @BeforeAll
    static void start() { server = TestServer.start(Databases.Kind.H2, new SandboxClock(), c -> c.withJournalUnlessSet()); }

    @AfterAll
    static void stop() { server.close(); }

    private static HttpResponse<String> get(String url, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
        if (cookie != null) b.header("Cookie", cookie);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String url, String cookie, String... fields) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < fields.length; i += 2) {
            if (!body.isEmpty()) body.append('&');
            body.append(URLEncoder.encode(fields[i], StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (cookie != null) b.header("Cookie", cookie);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Logs in and answers the cookie pair "tas_console=...". */
    private static String login() throws Exception {
        HttpResponse<String> r = post(server.adminUrl() + "/console/login", null, "token", TestServer.ADMIN_TOKEN);
        assertThat(r.statusCode()).isEqualTo(303);
        assertThat(r.headers().firstValue("Location")).hasValue("/console/accounts");
        String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).contains("HttpOnly", "SameSite=Strict", "Path=/console");
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    private static String csrf(String html) {
        Matcher m = Pattern.compile("name=\"csrf\" value=\"([0-9a-f]{64})\"").matcher(html);
        assertThat(m.find()).as("a form with the CSRF token").isTrue();
        return m.group(1);
    }

    private static BigDecimal usdt(String cookie) throws Exception {
        String html = get(server.adminUrl() + "/console/accounts/" + UID, cookie).body();
        Matcher m = Pattern.compile("data-account=\"unified\" data-coin=\"USDT\">.*?data-field=\"available\">([^<]*)<").matcher(html);
        return m.find() ? new BigDecimal(m.group(1)) : BigDecimal.ZERO;
    }

    @Test
    void theConsoleIsNeverOnThePublicPort() throws Exception {
        for (String path : new String[]{"/console", "/console/login", "/console/accounts"}) {
            HttpResponse<String> r = get(server.baseUrl() + path, null);
            assertThat(r.headers().firstValue("Content-Type").orElse("")).as(path).startsWith("application/json");
            assertThat(r.body()).as(path).startsWith("{\"code\":\"").doesNotContain("<html", "console");
        }
        HttpResponse<String> p = post(server.baseUrl() + "/console/login", null, "token", TestServer.ADMIN_TOKEN);
        assertThat(p.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(p.body()).startsWith("{\"code\":\"");
    }

    @Test
    void onlyTheAdminTokenOpensASession() throws Exception {
        HttpResponse<String> anonymous = get(server.adminUrl() + "/console/accounts", null);
        assertThat(anonymous.statusCode()).isEqualTo(303);
        assertThat(anonymous.headers().firstValue("Location")).hasValue("/console/login");
        assertThat(get(server.adminUrl() + "/console/accounts", "tas_console=" + "ab".repeat(32)).statusCode()).isEqualTo(303);

        HttpResponse<String> wrong = post(server.adminUrl() + "/console/login", null, "token", TestServer.ADMIN_TOKEN + "x");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(wrong.body()).contains("wrong admin token").doesNotContain(TestServer.ADMIN_TOKEN);

        String cookie = login();
        HttpResponse<String> page = get(server.adminUrl() + "/console/accounts", cookie);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(page.body()).contains("data-uid=\"1000000001\" data-kind=\"unified\"", "data-uid=\"1000000005\" data-kind=\"classic\"");

        // Logging out ends the session on the server: the old cookie opens nothing.
        assertThat(post(server.adminUrl() + "/console/logout", cookie, "csrf", csrf(page.body())).statusCode()).isEqualTo(303);
        assertThat(get(server.adminUrl() + "/console/accounts", cookie).statusCode()).isEqualTo(303);
    }

    @Test
    void aFormWithoutTheSessionsCsrfTokenChangesNothing() throws Exception {
        String cookie = login();
        BigDecimal before = usdt(cookie);
        String deposit = server.adminUrl() + "/console/accounts/" + UID + "/deposit";
        HttpResponse<String> none = post(deposit, cookie, "account", "unified", "coin", "USDT", "amount", "5", "ref", "csrf-1");
        HttpResponse<String> other = post(deposit, cookie, "csrf", "00".repeat(32), "account", "unified", "coin", "USDT", "amount", "5", "ref", "csrf-2");
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(usdt(cookie)).isEqualByComparingTo(before);

        // Another session's token is not this one's either.
        String second = login();
        String secondCsrf = csrf(get(server.adminUrl() + "/console/accounts/" + UID, second).body());
        assertThat(post(deposit, cookie, "csrf", secondCsrf, "account", "unified", "coin", "USDT", "amount", "5", "ref", "csrf-3").statusCode())
                .isEqualTo(403);
        assertThat(usdt(cookie)).isEqualByComparingTo(before);
    }

    @Test
    void aBadDepositIsA400PageAndChangesNothingAndAGoodOneMovesTheBalanceByItsAmount() throws Exception {
        String cookie = login();
        String csrf = csrf(get(server.adminUrl() + "/console/accounts/" + UID, cookie).body());
        BigDecimal before = usdt(cookie);
        String deposit = server.adminUrl() + "/console/accounts/" + UID + "/deposit";
        for (String amount : new String[]{"abc", "-5", "0", "1e400", "0.0000000000000000001", ""}) {
            HttpResponse<String> r = post(deposit, cookie, "csrf", csrf, "account", "unified", "coin", "USDT", "amount", amount, "ref", "bad-" + amount);
            assertThat(r.statusCode()).as(amount).isEqualTo(400);
            assertThat(r.body()).as(amount).contains("id=\"error\"", "Parameter");
        }
        assertThat(post(deposit, cookie, "csrf", csrf, "account", "nowhere", "coin", "USDT", "amount", "5", "ref", "bad-account").statusCode()).isEqualTo(400);
        assertThat(post(deposit, cookie, "csrf", csrf, "account", "unified", "coin", "<b>", "amount", "5", "ref", "bad-coin").body())
                .doesNotContain("<b>");
        assertThat(usdt(cookie)).isEqualByComparingTo(before);

        BigDecimal amount = new BigDecimal("123.456789");
        HttpResponse<String> ok = post(deposit, cookie, "csrf", csrf, "account", "unified", "coin", "USDT", "amount", amount.toPlainString(), "ref", "good-1");
        assertThat(ok.statusCode()).isEqualTo(303);
        // The same form sent twice (same ref) deposits once.
        assertThat(post(deposit, cookie, "csrf", csrf, "account", "unified", "coin", "USDT", "amount", amount.toPlainString(), "ref", "good-1").statusCode())
                .isEqualTo(303);
        assertThat(usdt(cookie)).isEqualByComparingTo(before.add(amount));
        // The ledger journal shows the deposit's one row with the counter account it moved against (D224).
        String page = get(server.adminUrl() + "/console/accounts/" + UID, cookie).body();
        assertThat(page).contains("<th>Amount</th><th>Counter</th><th>Time</th>");
        assertThat(Pattern.compile("<td>deposit</td><td>good-1</td><td>unified</td><td>available</td><td>USDT</td><td class=\"n\">123.456789</td>"
                + "<td>deposit</td>").matcher(page).results().count()).as(page).isEqualTo(1);
    }

    @Test
    void aKeysSecretIsShownOnceAndLabelsAreEscaped() throws Exception {
        String cookie = login();
        String csrf = csrf(get(server.adminUrl() + "/console/accounts/" + UID, cookie).body());
        HttpResponse<String> created = post(server.adminUrl() + "/console/accounts/" + UID + "/keys", cookie, "csrf", csrf,
                "label", "<script>alert(1)</script>", "passphrase", "Pass-1234", "permType", "read-and-write", "perm-uta_trade", "on");
        assertThat(created.statusCode()).isEqualTo(303);
        String location = created.headers().firstValue("Location").orElseThrow();
        String first = get(server.adminUrl() + location, cookie).body();
        Matcher secret = Pattern.compile("id=\"secret\">([0-9a-f]{64})<").matcher(first);
        assertThat(secret.find()).as(first).isTrue();
        String again = get(server.adminUrl() + location, cookie).body();
        assertThat(again).contains("id=\"secret-gone\"").doesNotContain(secret.group(1));
        String account = get(server.adminUrl() + "/console/accounts/" + UID, cookie).body();
        assertThat(account).contains("&lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert(1)").doesNotContain(secret.group(1));

        // No permission at all is refused, and no key is made.
        long keysBefore = Pattern.compile("data-access-key=").matcher(account).results().count();
        HttpResponse<String> none = post(server.adminUrl() + "/console/accounts/" + UID + "/keys", cookie, "csrf", csrf,
                "label", "x", "passphrase", "Pass-1234", "permType", "read-and-write");
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(Pattern.compile("data-access-key=").matcher(get(server.adminUrl() + "/console/accounts/" + UID, cookie).body()).results().count())
                .isEqualTo(keysBefore);
    }

    @Test
    void everyPageAnswersAndAnUnknownAccountIsA400PageNotAnError() throws Exception {
        String cookie = login();
        for (String path : new String[]{"/console/accounts", "/console/accounts/1000000005", "/console/book", "/console/book/SPOT/BTCUSDT",
                "/console/book/USDT-FUTURES/BTCUSDT", "/console/sandbox/clock", "/console/sandbox/faults", "/console/sandbox/journal",
                "/console/sandbox/snapshots", "/console/accounts/1000000001/positions"}) {
            HttpResponse<String> r = get(server.adminUrl() + path, cookie);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.body()).as(path).doesNotContain("id=\"error\"");
        }
        assertThat(get(server.adminUrl() + "/console/accounts/42", cookie).statusCode()).isEqualTo(400);
        assertThat(get(server.adminUrl() + "/console/accounts/x", cookie).statusCode()).isEqualTo(400);
        assertThat(get(server.adminUrl() + "/console/book/NOPE/BTCUSDT", cookie).statusCode()).isEqualTo(400);
        assertThat(get(server.adminUrl() + "/console/book/SPOT/NOPEUSDT", cookie).statusCode()).isBetween(400, 499);
    }
}
