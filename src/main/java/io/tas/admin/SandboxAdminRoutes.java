package io.tas.admin;

import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.sandbox.Faults;
import io.tas.sandbox.RequestJournal;

import java.util.Map;

/** Admin routes of the sandbox controls (issue 28): the clock, due jobs, snapshots, fault rules and the journal. */
final class SandboxAdminRoutes {
    private final SandboxControls controls;
    private final AdminHttp http;

    SandboxAdminRoutes(SandboxControls controls, AdminHttp http) {
        this.controls = controls;
        this.http = http;
    }

    /** Body of a clock advance: {"ms": 60000}. */
    record Advance(Long ms) {}

    /** Body of a clock freeze or set: {"at": epoch ms} (optional for a freeze: where the clock stands). */
    record At(Long at) {}

    /** Body naming a snapshot or a fault rule. */
    record Named(String name) {}
    record RuleId(String id) {}

    void register(HttpRouting.Builder r) {
        r.get("/admin/v1/sandbox/clock", http.guarded("GET", "/admin/v1/sandbox/clock", req -> controls.clock()));
        // Each clock call checks the sandbox before its body: outside a sandbox nothing about the request matters.
        r.post("/admin/v1/sandbox/clock/advance", http.guarded("POST", "/admin/v1/sandbox/clock/advance", req -> {
            controls.checkAdjustable();
            return controls.advance(http.read(req, Advance.class).ms());
        }));
        r.post("/admin/v1/sandbox/clock/freeze", http.guarded("POST", "/admin/v1/sandbox/clock/freeze", req -> {
            controls.checkAdjustable();
            At at = http.readOptional(req, At.class);
            return controls.freeze(at == null ? null : at.at());
        }));
        r.post("/admin/v1/sandbox/clock/set", http.guarded("POST", "/admin/v1/sandbox/clock/set", req -> {
            controls.checkAdjustable();
            return controls.set(http.read(req, At.class).at());
        }));
        r.post("/admin/v1/sandbox/clock/resume", http.guarded("POST", "/admin/v1/sandbox/clock/resume", req -> controls.resume()));
        r.post("/admin/v1/jobs/run-due", http.guarded("POST", "/admin/v1/jobs/run-due", req -> controls.runDue()));

        r.get("/admin/v1/sandbox/snapshots", http.guarded("GET", "/admin/v1/sandbox/snapshots", req -> controls.snapshots()));
        r.post("/admin/v1/sandbox/snapshots", http.guarded("POST", "/admin/v1/sandbox/snapshots", req -> {
            controls.checkSandbox();
            return controls.saveSnapshot(http.read(req, Named.class).name());
        }));
        r.post("/admin/v1/sandbox/snapshots/restore", http.guarded("POST", "/admin/v1/sandbox/snapshots/restore", req -> {
            controls.checkSandbox();
            return controls.restoreSnapshot(http.read(req, Named.class).name());
        }));
        r.post("/admin/v1/sandbox/snapshots/delete", http.guarded("POST", "/admin/v1/sandbox/snapshots/delete", req -> {
            controls.checkSandbox();
            controls.deleteSnapshot(http.read(req, Named.class).name());
            return null;
        }));

        r.get("/admin/v1/sandbox/faults", http.guarded("GET", "/admin/v1/sandbox/faults", req -> controls.faults().list()));
        r.post("/admin/v1/sandbox/faults", http.guarded("POST", "/admin/v1/sandbox/faults", req -> {
            Faults faults = controls.faults();
            return Faults.view(faults.add(http.read(req, Faults.NewRule.class)), 0);
        }));
        r.post("/admin/v1/sandbox/faults/remove", http.guarded("POST", "/admin/v1/sandbox/faults/remove", req -> {
            Faults faults = controls.faults();
            String id = http.read(req, RuleId.class).id();
            if (id == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "id");
            if (!faults.remove(Long.parseLong(id))) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "fault " + id);
            return null;
        }));
        r.post("/admin/v1/sandbox/faults/clear", http.guarded("POST", "/admin/v1/sandbox/faults/clear", req -> { controls.faults().clear(); return null; }));

        r.get("/admin/v1/sandbox/journal", http.guarded("GET", "/admin/v1/sandbox/journal", req -> {
            RequestJournal journal = controls.journal();
            return journal.find(filter(req)).stream().map(SandboxControls::journalView).toList();
        }));
        r.post("/admin/v1/sandbox/journal/clear", http.guarded("POST", "/admin/v1/sandbox/journal/clear", req -> { controls.journal().clear(); return null; }));
    }

    /** The journal's query: apiKey, kind, method, path (with '*'), since, until (sandbox ms), afterSeq, limit. */
    private static RequestJournal.Filter filter(ServerRequest req) {
        Map<String, String> q = new java.util.HashMap<>();
        req.query().names().forEach(n -> q.put(n, req.query().get(n)));
        return new RequestJournal.Filter(q.get("apiKey"), q.get("kind"), q.get("method"), q.get("path"), number(q, "since"),
                number(q, "until"), number(q, "afterSeq"), q.containsKey("limit") ? (int) Math.max(1, Math.min(1_000, number(q, "limit"))) : null);
    }

    private static Long number(Map<String, String> q, String name) {
        String v = q.get(name);
        if (v == null) return null;
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
    }
}
