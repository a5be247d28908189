package io.tas.cli;

import io.tas.http.Endpoint;
import io.tas.http.Routes;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The endpoint inventory (docs/endpoints.md) and its per-area summary (README.md), derived from the catalog and the
 * bound handlers; ReadmeTest checks both documents against them.
 */
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

    /** Rows per area (the path up to its third segment, e.g. `/api/v3/account/`), in catalog order, then the totals. */
    public static String summary(Routes routes) {
        Map<String, int[]> areas = new LinkedHashMap<>(); // area -> {rows, in the spec, done}
        int[] all = new int[3];
        for (Endpoint e : Endpoint.values()) {
            String[] parts = e.path().split("/"); // "", "api", "v3", "account", ...
            int[] n = areas.computeIfAbsent("/" + parts[1] + "/" + parts[2] + "/" + parts[3] + "/", k -> new int[3]);
            for (int[] c : new int[][] {n, all}) {
                c[0]++;
                if (e.inSpec()) c[1]++;
                if (routes.isImplemented(e)) c[2]++;
            }
        }
        StringBuilder sb = new StringBuilder("| Paths | Rows | In the spec | Done |\n|---|---|---|---|\n");
        areas.forEach((area, n) -> sb.append("| `").append(area).append("` | ").append(n[0]).append(" | ").append(n[1])
                .append(" | ").append(n[2]).append(" |\n"));
        return sb.append("| all | ").append(all[0]).append(" | ").append(all[1]).append(" | ").append(all[2]).append(" |\n").toString();
    }
}
