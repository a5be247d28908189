package io.tas.cli;

import io.tas.http.Endpoint;
import io.tas.http.Routes;

/** The endpoint inventory table of the README, derived from the catalog and the bound handlers. */
public final class EndpointInventory {
    private EndpointInventory() {}

    public static String markdown(Routes routes) {
        StringBuilder sb = new StringBuilder();
        sb.append("| Method | Path | Permission | Access | Limit | Spec | Status |\n");
        sb.append("|---|---|---|---|---|---|---|\n");
        for (Endpoint e : Endpoint.values()) {
            String perm = e.isPublic() ? "public" : e.permission().wire().isEmpty() ? "none" : e.permission().wire();
            String guards = e.guards().isEmpty() ? "" : " " + e.guards().toString().toLowerCase().replace("_", "-");
            sb.append("| ").append(e.method()).append(" | `").append(e.path()).append("` | ").append(perm).append(guards)
                    .append(" | ").append(e.access().name().toLowerCase())
                    .append(" | ").append(e.ratePerSecond()).append("/s/").append(e.scope())
                    .append(" | ").append(e.inSpec() ? e.section() : "beyond spec")
                    .append(" | ").append(routes.isImplemented(e) ? "done" : "not implemented yet (40099)")
                    .append(" |\n");
        }
        return sb.toString();
    }
}
