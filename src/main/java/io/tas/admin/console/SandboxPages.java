package io.tas.admin.console;

import io.helidon.webserver.http.HttpRouting;
import io.tas.admin.SandboxControls;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.sandbox.Faults;
import io.tas.sandbox.RequestJournal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static io.tas.admin.console.Html.*;

/**
 * The sandbox controls (sandbox.md): the clock, fault rules, the request journal and snapshots, through SandboxControls
 * as the admin API calls them. Outside a sandbox the controls refuse (40017) and the page says so instead of its forms.
 */
final class SandboxPages {
    private final SandboxControls controls;

    SandboxPages(SandboxControls controls) { this.controls = controls; }

    void register(ConsoleRoutes c, HttpRouting.Builder r) {
        c.get(r, "/console/sandbox/clock", this::clock);
        c.post(r, "/console/sandbox/clock/freeze", q -> done(q, "/clock", "Clock frozen at " + now(controls.freeze(null)) + "."), this::clock);
        c.post(r, "/console/sandbox/clock/advance", q -> done(q, "/clock", "Clock advanced to "
                + now(controls.advance(Forms.longValue("ms", q.field("ms")))) + "."), this::clock);
        c.post(r, "/console/sandbox/clock/resume", q -> done(q, "/clock", "Clock running from " + now(controls.resume()) + "."), this::clock);
        c.post(r, "/console/sandbox/jobs/run-due", q -> {
            var due = controls.runDue();
            return done(q, "/clock", "Ran " + due.due() + " due jobs (" + due.remaining() + " remaining).");
        }, this::clock);

        c.get(r, "/console/sandbox/faults", this::faults);
        c.post(r, "/console/sandbox/faults/add", q -> {
            var rule = controls.faults().add(new Faults.NewRule(q.field("target"), q.field("method"), q.field("path"), null, null,
                    q.field("uid"), q.field("apiKey"), q.field("probability"), null, Forms.optionalInt("count", q.field("count")), null,
                    q.field("action"), q.field("code"), Forms.optionalInt("status", q.field("status")),
                    Forms.optionalLong("delayMs", q.field("delayMs")), q.field("when")));
            return done(q, "/faults", "Added fault rule " + rule.id() + ".");
        }, this::faults);
        c.post(r, "/console/sandbox/faults/remove", q -> {
            long id = Forms.longValue("id", q.field("id"));
            if (!controls.faults().remove(id)) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "fault " + id);
            return done(q, "/faults", "Removed fault rule " + id + ".");
        }, this::faults);
        c.post(r, "/console/sandbox/faults/clear", q -> {
            controls.faults().clear();
            return done(q, "/faults", "Cleared every fault rule.");
        }, this::faults);

        c.get(r, "/console/sandbox/journal", this::journal);

        c.get(r, "/console/sandbox/snapshots", this::snapshots);
        c.post(r, "/console/sandbox/snapshots/save", q -> {
            var s = controls.saveSnapshot(q.field("name"));
            return done(q, "/snapshots", "Saved snapshot " + s.name() + " (" + s.rows() + " rows, " + s.tookMs() + " ms).");
        }, this::snapshots);
        c.post(r, "/console/sandbox/snapshots/restore", q -> {
            var s = controls.restoreSnapshot(q.field("name"));
            return done(q, "/snapshots", "Restored snapshot " + s.name() + " (wrote " + s.wrote() + ", " + s.tookMs() + " ms).");
        }, this::snapshots);
        c.post(r, "/console/sandbox/snapshots/delete", q -> {
            controls.deleteSnapshot(q.field("name"));
            return done(q, "/snapshots", "Deleted snapshot " + q.field("name") + ".");
        }, this::snapshots);
    }

    private static String done(ConsoleRoutes.Req q, String page, String notice) {
        q.session().notice(notice);
        return "/console/sandbox" + page;
    }

    private static String now(SandboxControls.ClockView v) { return time(Long.parseLong(v.now())); }

    /** The body, or the refusal of a node that is not a sandbox (or whose journal is off) as a note. */
    private static String orNote(Supplier<String> body) {
        try {
            return body.get();
        } catch (ApiException e) {
            if (!e.error().code().equals(ErrorCode.PARAM_VERIFICATION_FAILED.code())) throw e;
            return "<p class=\"note\" id=\"not-sandbox\">" + esc(e.getMessage()) + "</p>";
        }
    }

    private ConsoleRoutes.Page clock(ConsoleRoutes.Req q) {
        SandboxControls.ClockView v = controls.clock();
        Session s = q.session();
        StringBuilder b = new StringBuilder("<p id=\"clock\" data-now=\"").append(esc(v.now())).append("\" data-frozen=\"").append(v.frozen())
                .append("\">Now: <strong>").append(esc(now(v))).append("</strong> (").append(esc(v.now())).append(" ms) · ")
                .append(v.frozen() ? "frozen" : "running").append("</p>");
        if (!v.adjustable()) {
            b.append("<p class=\"note\" id=\"not-sandbox\">This node is not a sandbox: it runs on the system clock, which the console cannot move.</p>");
        } else {
            b.append("<p>").append(form("/console/sandbox/clock/freeze", s, "freeze")).append("<button id=\"freeze-submit\">Freeze</button></form> ")
                    .append(form("/console/sandbox/clock/resume", s, "resume")).append("<button id=\"resume-submit\">Resume</button></form></p>")
                    .append("<p>").append(form("/console/sandbox/clock/advance", s, "advance")).append(input("ms", "advance by (ms)", "60000", "text"))
                    .append("<button id=\"advance-submit\">Advance</button></form></p>");
        }
        b.append("<p>").append(form("/console/sandbox/jobs/run-due", s, "run-due")).append("<button id=\"run-due-submit\">Run due jobs</button></form></p>");
        return new ConsoleRoutes.Page("Clock", "clock", b.toString());
    }

    private ConsoleRoutes.Page faults(ConsoleRoutes.Req q) {
        Session s = q.session();
        String body = orNote(() -> {
            List<String> rows = new ArrayList<>();
            for (Map<String, Object> f : controls.faults().list()) {
                String id = String.valueOf(f.get("id"));
                rows.add(tr("data-fault-id=\"" + esc(id) + "\"", td(id), td(f.get("target")), td(f.getOrDefault("method", "")),
                        td(f.getOrDefault("path", "")), td(f.get("action")), td(f.getOrDefault("code", f.getOrDefault("status", ""))),
                        td(f.getOrDefault("count", "")), td(f.get("when")), td(f.get("fired")),
                        "<td>" + form("/console/sandbox/faults/remove", s, "remove-" + id) + "<input type=\"hidden\" name=\"id\" value=\""
                                + esc(id) + "\"><button>Remove</button></form></td>"));
            }
            return table("faults", List.of("ID", "Target", "Method", "Path", "Action", "Code", "Count", "When", "Fired", ""), rows, "No fault rules.")
                    + "<p>" + form("/console/sandbox/faults/add", s, "add-fault") + select("target", "target", List.of("rest", "ws-op", "ws-push"))
                    + select("method", "method", List.of("", "GET", "POST")) + input("path", "path", "/api/v3/trade/*", "text")
                    + select("action", "action", List.of("error", "http", "latency", "drop", "drop-push", "delay-push"))
                    + input("code", "code", "429", "text") + input("status", "status", "", "text") + input("delayMs", "delay ms", "", "text")
                    + input("count", "count", "1", "text") + select("when", "when", List.of("before", "after"))
                    + "<button id=\"add-fault-submit\">Add rule</button></form></p><p>" + form("/console/sandbox/faults/clear", s, "clear-faults")
                    + "<button id=\"clear-faults-submit\">Clear all</button></form></p>";
        });
        return new ConsoleRoutes.Page("Faults", "faults", body);
    }

    private ConsoleRoutes.Page journal(ConsoleRoutes.Req q) {
        String apiKey = q.query("apiKey");
        String path = q.query("path");
        String body = orNote(() -> {
            RequestJournal journal = controls.journal();
            List<String> rows = new ArrayList<>();
            List<RequestJournal.Entry> entries = journal.find(new RequestJournal.Filter(blank(apiKey), null, null, blank(path), null, null, null, 100));
            for (RequestJournal.Entry e : entries.reversed()) {
                rows.add(tr("data-seq=\"" + e.seq() + "\"", td(e.seq()), td(time(e.time())), td(e.kind()), td(e.apiKey()), td(e.method()),
                        td(e.path()), td(e.query()), td(e.status()), td(e.code()), td(e.tookMs()), td(e.fault())));
            }
            return "<form method=\"get\" id=\"journal-filter\" action=\"/console/sandbox/journal\">" + input("apiKey", "API key", apiKey == null ? "" : apiKey, "text")
                    + input("path", "path (with *)", path == null ? "" : path, "text") + "<button id=\"journal-filter-submit\">Filter</button></form>"
                    + "<p class=\"muted\">The newest 100 matching entries, newest first (secrets kept as ***).</p>"
                    + table("journal", List.of("Seq", "Time", "Kind", "API key", "Method", "Path", "Query", "Status", "Code", "ms", "Fault"), rows,
                    "No journal entries match.");
        });
        return new ConsoleRoutes.Page("Journal", "journal", body);
    }

    private static String blank(String v) { return v == null || v.isBlank() ? null : v.trim(); }

    private ConsoleRoutes.Page snapshots(ConsoleRoutes.Req q) {
        Session s = q.session();
        String body = orNote(() -> {
            List<String> rows = new ArrayList<>();
            for (SandboxControls.SnapshotView v : controls.snapshots()) {
                String hidden = "<input type=\"hidden\" name=\"name\" value=\"" + esc(v.name()) + "\">";
                rows.add(tr("data-snapshot=\"" + esc(v.name()) + "\"", td(v.name()), td(time(Long.parseLong(v.createdTime()))), td(v.rows()),
                        td(v.frozen() ? "frozen" : "running"),
                        "<td>" + form("/console/sandbox/snapshots/restore", s, "restore-" + v.name()) + hidden + "<button>Restore</button></form> "
                                + form("/console/sandbox/snapshots/delete", s, "delete-" + v.name()) + hidden + "<button>Delete</button></form></td>"));
            }
            return table("snapshots", List.of("Name", "Saved at (sandbox time)", "Rows", "Clock", ""), rows, "No snapshots.")
                    + "<p>" + form("/console/sandbox/snapshots/save", s, "save-snapshot") + input("name", "name", "", "text")
                    + "<button id=\"save-snapshot-submit\">Save snapshot</button></form></p>";
        });
        return new ConsoleRoutes.Page("Snapshots", "snapshots", body);
    }
}
