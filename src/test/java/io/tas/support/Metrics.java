package io.tas.support;

/** Reads one sample of the Prometheus text the admin listener serves at /metrics. */
public final class Metrics {
    /** The value of the sample named exactly name (no labels), or an AssertionError naming what is there. */
    public static double value(TestServer server, String name) {
        String text = ApiClient.raw(server.adminUrl() + "/metrics", "GET", "").raw();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + " ")) return Double.parseDouble(line.substring(name.length() + 1).trim());
        }
        throw new AssertionError("no metric " + name + " at /metrics");
    }

    /** The sum of every sample of name, whatever its labels (0 when there is none yet). */
    public static double sum(TestServer server, String name) {
        String text = ApiClient.raw(server.adminUrl() + "/metrics", "GET", "").raw();
        double total = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).trim());
        }
        return total;
    }

    private Metrics() {}
}
