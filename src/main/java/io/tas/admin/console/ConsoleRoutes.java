package io.tas.admin.console;

import io.helidon.http.HeaderNames;
import io.helidon.http.SetCookie;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.tas.admin.AdminSurface;
import io.tas.error.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The admin console (issue 29 item 3, docs/console.md, D200 to D203): server-rendered HTML under /console on the admin
 * listener only. A browser signs in once with the admin token and holds an HttpOnly, SameSite=Strict session cookie;
 * every POST carries the session's CSRF token; every change goes through the same control-plane calls as the admin API.
 * A GET answers a page; a POST that works redirects (303) to a page, one that is refused shows the page again with the
 * refusal (400) and changed nothing.
 */
public final class ConsoleRoutes {
    private static final Logger log = LoggerFactory.getLogger(ConsoleRoutes.class);
    static final String COOKIE = "tas_console";
    /** A console form is a few fields: anything larger is refused before it is read. */
    static final int MAX_FORM_BYTES = 16 * 1024;

    private final Sessions sessions;
    private final AccountPages accounts;
    private final MarketPages market;
    private final SandboxPages sandbox;

    public ConsoleRoutes(AdminSurface admin, String token) {
        this(admin, token, Clock.systemUTC());
    }

    ConsoleRoutes(AdminSurface admin, String token, Clock machine) {
        this.sessions = new Sessions(token, machine);
        this.accounts = new AccountPages(admin);
        this.market = new MarketPages(admin.reads());
        this.sandbox = new SandboxPages(admin.sandbox());
    }

    /** A page to show: its title, its navigation entry, its body; refreshSeconds > 0 reloads the whole page. */
    record Page(String title, String active, String body) {}

    /** A request as the pages see it: the session, the path's parameters, the query and the form's fields. */
    record Req(ServerRequest raw, Session session, Map<String, String> form) {
        String path(String name) { return raw.path().pathParameters().get(name); }

        long uid() { return Forms.longValue("uid", path("uid")); }

        String query(String name) { return raw.query().first(name).orElse(null); }

        String field(String name) {
            String v = form.get(name);
            return v == null || v.isBlank() ? null : v.trim();
        }
    }

    interface View { Page render(Req r); }

    /** A change: where to go when it worked (its notice is in the session). */
    interface Action { String run(Req r); }

    public void register(HttpRouting.Builder r) {
        r.get("/console", (req, res) -> redirect(res, "/console/accounts"));
        r.get("/console/login", (req, res) -> send(res, 200, Html.page("Log in", "login", null, null, null, 0, loginForm())));
        r.post("/console/login", this::login);
        r.post("/console/logout", (req, res) -> {
            Session s = session(req);
            Map<String, String> form = readForm(req);
            if (s != null && Sessions.csrfMatches(s, form.get("csrf"))) sessions.logout(s);
            res.headers().addCookie(cookie("", java.time.Duration.ZERO));
            redirect(res, "/console/login");
        });
        accounts.register(this, r);
        market.register(this, r);
        sandbox.register(this, r);
    }

    void get(HttpRouting.Builder r, String path, View view) {
        r.get(path, (req, res) -> {
            Session s = session(req);
            if (s == null) {
                redirect(res, "/console/login");
                return;
            }
            show(res, new Req(req, s, Map.of()), view, 200, null);
        });
    }

    /** A part of a page that its script reloads: HTML without the frame; 401 (no body) without a session. */
    void fragment(HttpRouting.Builder r, String path, java.util.function.Function<Req, String> part) {
        r.get(path, (req, res) -> {
            Session s = session(req);
            if (s == null) {
                headers(res);
                res.status(401);
                res.send();
                return;
            }
            try {
                send(res, 200, part.apply(new Req(req, s, Map.of())));
            } catch (ApiException e) {
                send(res, 400, "<p class=\"error\">" + Html.esc(e.getMessage()) + "</p>");
            }
        });
    }

    /** A POST: session, CSRF token, then the action; refused input shows back's page with the error (400). */
    void post(HttpRouting.Builder r, String path, Action action, View back) {
        r.post(path, (req, res) -> {
            Session s = session(req);
            Map<String, String> form;
            try {
                form = readForm(req);
            } catch (ApiException e) {
                send(res, 400, Html.page("Refused", "", s, null, e.getMessage(), 0, ""));
                return;
            }
            if (s == null) {
                redirect(res, "/console/login");
                return;
            }
            if (!Sessions.csrfMatches(s, form.get("csrf"))) {
                send(res, 403, Html.page("Refused", "", s, null, "this form is stale or was not sent by this console (CSRF token): nothing changed", 0,
                        Html.link("/console/accounts", "Back to the accounts")));
                return;
            }
            Req q = new Req(req, s, form);
            String next;
            try {
                next = action.run(q);
            } catch (ApiException e) {
                show(res, q, back, 400, e.getMessage());
                return;
            } catch (RuntimeException e) {
                log.error("console action failed: {}", req.path().rawPath(), e);
                show(res, q, back, 500, "the action failed on the server; see the server log");
                return;
            }
            redirect(res, next);
        });
    }

    private void show(ServerResponse res, Req q, View view, int status, String error) {
        Page p;
        try {
            p = view.render(q);
        } catch (ApiException e) {
            send(res, e.error().httpStatus() >= 400 && e.error().httpStatus() < 500 ? e.error().httpStatus() : 400,
                    Html.page("Not shown", "", q.session(), null, e.getMessage(), 0, Html.link("/console/accounts", "Back to the accounts")));
            return;
        } catch (RuntimeException e) {
            log.error("console page failed: {}", q.raw().path().rawPath(), e);
            send(res, 500, Html.page("Not shown", "", q.session(), null, "the page failed on the server; see the server log", 0, ""));
            return;
        }
        send(res, status, Html.page(p.title(), p.active(), q.session(), status == 200 ? q.session().takeNotice() : null, error, 0, p.body()));
    }

    private void login(ServerRequest req, ServerResponse res) {
        Map<String, String> form;
        try {
            form = readForm(req);
        } catch (ApiException e) {
            form = Map.of();
        }
        var s = sessions.login(form.get("token"));
        if (s.isEmpty()) {
            send(res, 401, Html.page("Log in", "login", null, null, "wrong admin token", 0, loginForm()));
            return;
        }
        res.headers().addCookie(cookie(s.get().id(), Sessions.IDLE.plus(Sessions.MAX_AGE)));
        redirect(res, "/console/accounts");
    }

    private static String loginForm() {
        return "<form method=\"post\" action=\"/console/login\" id=\"login\"><p>The admin token of this node (TAS_ADMIN_TOKEN):</p>"
                + "<input type=\"password\" name=\"token\" id=\"f-token\" autocomplete=\"off\" size=\"40\"> "
                + "<button id=\"login-submit\">Log in</button></form>";
    }

    private static SetCookie cookie(String value, java.time.Duration maxAge) {
        return SetCookie.builder(COOKIE, value).httpOnly(true).sameSite(SetCookie.SameSite.STRICT).path("/console").maxAge(maxAge).build();
    }

    private Session session(ServerRequest req) {
        String id = req.headers().cookies().first(COOKIE).orElse(null);
        return sessions.find(id).orElse(null);
    }

    /** An application/x-www-form-urlencoded body of at most MAX_FORM_BYTES; the first value of each name. */
    private static Map<String, String> readForm(ServerRequest req) {
        if (!req.content().hasEntity()) return Map.of();
        if (req.headers().contentLength().orElse(-1L) > MAX_FORM_BYTES) throw Forms.tooLarge();
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = in.readNBytes(MAX_FORM_BYTES + 1);
        } catch (IOException e) {
            throw Forms.malformed();
        }
        if (body.length > MAX_FORM_BYTES) throw Forms.tooLarge();
        Map<String, String> out = new HashMap<>();
        try {
            for (var pair : io.tas.common.QueryString.decodeStrict(new String(body, StandardCharsets.UTF_8))) out.putIfAbsent(pair.key(), pair.value());
        } catch (IllegalArgumentException e) {
            throw Forms.malformed();
        }
        return out;
    }

    private static void redirect(ServerResponse res, String location) {
        headers(res);
        res.status(303);
        res.header(HeaderNames.LOCATION, location);
        res.send();
    }

    private static void send(ServerResponse res, int status, String html) {
        headers(res);
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        res.send(html.getBytes(StandardCharsets.UTF_8));
    }

    /** No page is cached (one shows a secret), framed, or sends a referrer; scripts and styles only inline ones. */
    private static void headers(ServerResponse res) {
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        res.header("X-Frame-Options", "DENY");
        res.header("X-Content-Type-Options", "nosniff");
        res.header("Referrer-Policy", "no-referrer");
        res.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    }
}
