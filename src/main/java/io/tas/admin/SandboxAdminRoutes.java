package io.tas.admin;

import io.helidon.webserver.http.HttpRouting;

/** Admin routes of the sandbox controls: the clock and due jobs. */
final class SandboxAdminRoutes {
    private final SandboxControls controls;
    private final AdminHttp http;

    SandboxAdminRoutes(SandboxControls controls, AdminHttp http) {
        this.controls = controls;
        this.http = http;
    }

    /** Body of a clock advance: {"ms": 60000}. */
    record Advance(Long ms) {}

    void register(HttpRouting.Builder r) {
        r.get("/admin/v1/sandbox/clock", http.guarded(req -> controls.clock()));
        r.post("/admin/v1/sandbox/clock/advance", http.guarded(req -> {
            controls.checkAdjustable(); // before the body: outside a sandbox nothing about the request matters
            return controls.advance(http.read(req, Advance.class).ms());
        }));
        r.post("/admin/v1/jobs/run-due", http.guarded(req -> controls.runDue()));
    }
}
