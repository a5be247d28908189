package io.tas.admin.console;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * HTML for the console: escaping, the page frame (inline CSS, no external asset of any kind) and small builders for
 * tables and forms. Every text that did not come from this class passes through {@link #esc} before it is written.
 */
final class Html {
    private Html() {}

    /** Escapes text for an element's content or a double-quoted attribute (OWASP's five characters, plus NUL dropped). */
    static String esc(Object value) {
        if (value == null) return "";
        String s = value.toString();
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                case '\0' -> { }
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** Money as the API shows it: a plain string, never an exponent. */
    static String plain(BigDecimal v) { return v == null ? "" : v.stripTrailingZeros().toPlainString(); }

    static String time(long epochMs) { return Instant.ofEpochMilli(epochMs).toString(); }

    private static final String CSS = """
            body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2330;background:#f5f6f8}
            header{background:#1d2330;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center}
            header a{color:#cfd8e8;text-decoration:none}header a.on{color:#fff;font-weight:600}
            header form{margin-left:auto}main{padding:12px 16px}
            h1{font-size:20px;margin:4px 0 12px}h2{font-size:16px;margin:18px 0 6px}
            table{border-collapse:collapse;background:#fff;margin-bottom:8px}
            th,td{border:1px solid #d9dde5;padding:3px 8px;text-align:left;white-space:nowrap}
            th{background:#eef1f6}td.n{text-align:right;font-variant-numeric:tabular-nums}
            form.inline{display:inline}section{margin-bottom:10px}
            .note{background:#fff7d6;border:1px solid #e8d48a;padding:6px 10px;margin:8px 0}
            .error{background:#fde8e8;border:1px solid #e8a0a0;padding:6px 10px;margin:8px 0}
            .secret{font:15px monospace;background:#e8f6ea;border:1px solid #8fc79a;padding:6px 10px}
            .muted{color:#6b7385}input,select,button{font:inherit}
            """;

    private static final List<String[]> NAV = List.of(new String[]{"accounts", "/console/accounts", "Accounts"},
            new String[]{"book", "/console/book", "Books"}, new String[]{"clock", "/console/sandbox/clock", "Clock"},
            new String[]{"faults", "/console/sandbox/faults", "Faults"}, new String[]{"journal", "/console/sandbox/journal", "Journal"},
            new String[]{"snapshots", "/console/sandbox/snapshots", "Snapshots"});

    /** A whole page: the frame, the navigation (when signed in), a notice or error, then body. refreshSeconds > 0 reloads it. */
    static String page(String title, String active, Session session, String notice, String error, int refreshSeconds, String body) {
        StringBuilder b = new StringBuilder(4096);
        b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">");
        if (refreshSeconds > 0) b.append("<meta http-equiv=\"refresh\" content=\"").append(refreshSeconds).append("\">");
        b.append("<title>").append(esc(title)).append(" · TAS console</title><style>").append(CSS).append("</style></head>");
        b.append("<body data-page=\"").append(esc(active)).append("\"><header><strong>TAS console</strong>");
        if (session != null) {
            for (String[] n : NAV) {
                b.append("<a id=\"nav-").append(n[0]).append("\" href=\"").append(n[1]).append('"')
                        .append(n[0].equals(active) ? " class=\"on\"" : "").append('>').append(n[2]).append("</a>");
            }
            b.append(form("/console/logout", session, "logout") + "<button id=\"logout\">Log out</button></form>");
        }
        b.append("</header><main><h1 id=\"title\">").append(esc(title)).append("</h1>");
        if (notice != null) b.append("<p class=\"note\" id=\"notice\">").append(esc(notice)).append("</p>");
        if (error != null) b.append("<p class=\"error\" id=\"error\">").append(esc(error)).append("</p>");
        return b.append(body).append("</main></body></html>").toString();
    }

    /** The opening of a POST form carrying the session's CSRF token (close it with {@code </form>}). */
    static String form(String action, Session session, String id) {
        return "<form method=\"post\" class=\"inline\" id=\"" + esc(id) + "\" action=\"" + esc(action) + "\">"
                + "<input type=\"hidden\" name=\"csrf\" value=\"" + esc(session.csrf()) + "\">";
    }

    static String input(String name, String label, String value, String type) {
        return "<label>" + esc(label) + " <input name=\"" + esc(name) + "\" id=\"f-" + esc(name) + "\" type=\"" + esc(type)
                + "\" value=\"" + esc(value) + "\"></label> ";
    }

    static String select(String name, String label, List<String> options) {
        StringBuilder b = new StringBuilder("<label>" + esc(label) + " <select name=\"" + esc(name) + "\" id=\"f-" + esc(name) + "\">");
        for (String o : options) b.append("<option>").append(esc(o)).append("</option>");
        return b.append("</select></label> ").toString();
    }

    /** A table with an id; each row's cells are already HTML (use {@link #td}). A row may carry data-* attributes. */
    static String table(String id, List<String> headers, List<String> rows, String empty) {
        if (rows.isEmpty()) return "<p class=\"muted\" id=\"" + esc(id) + "-empty\">" + esc(empty) + "</p>";
        StringBuilder b = new StringBuilder("<table id=\"" + esc(id) + "\"><tr>");
        for (String h : headers) b.append("<th>").append(esc(h)).append("</th>");
        b.append("</tr>");
        rows.forEach(b::append);
        return b.append("</table>").toString();
    }

    /** A row: attrs is raw (built with esc), cells are HTML. */
    static String tr(String attrs, String... cells) {
        StringBuilder b = new StringBuilder("<tr").append(attrs.isEmpty() ? "" : " " + attrs).append('>');
        for (String c : cells) b.append(c);
        return b.append("</tr>").toString();
    }

    static String td(Object text) { return "<td>" + esc(text) + "</td>"; }

    static String num(BigDecimal v) { return "<td class=\"n\">" + esc(plain(v)) + "</td>"; }

    static String link(String href, Object text) { return "<a href=\"" + esc(href) + "\">" + esc(text) + "</a>"; }
}
