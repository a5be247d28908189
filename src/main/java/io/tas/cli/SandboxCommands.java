package io.tas.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** `tas admin clock|snapshot|faults|journal ...`: the sandbox controls of issue 28 from the command line (docs/sandbox.md). */
final class SandboxCommands {
    private SandboxCommands() {}

    private static final String JSON = "application/json";

    /** A usage error naming the action the command does not know. */
    private static picocli.CommandLine.ParameterException unknown(AdminCommand admin, String command, String action) {
        return new picocli.CommandLine.ParameterException(admin.spec.commandLine(), "unknown " + command + " action: " + action);
    }

    @Command(name = "clock", description = "Show or move the sandbox clock: clock [show|freeze [AT]|set AT|advance MS|resume] (AT: epoch ms).")
    static final class Clock implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(index = "0", defaultValue = "show", description = "show, freeze, set, advance or resume") String action;
        @Parameters(index = "1", arity = "0..1", description = "epoch ms (freeze, set) or milliseconds (advance)") Long value;
        public Integer call() throws Exception {
            return switch (action) {
                case "show" -> admin.send("GET", "/admin/v1/sandbox/clock", JSON, null);
                case "freeze" -> admin.send("POST", "/admin/v1/sandbox/clock/freeze", JSON, value == null ? null : "{\"at\":" + value + "}");
                case "set" -> admin.send("POST", "/admin/v1/sandbox/clock/set", JSON, "{\"at\":" + value + "}");
                case "advance" -> admin.send("POST", "/admin/v1/sandbox/clock/advance", JSON, "{\"ms\":" + value + "}");
                case "resume" -> admin.send("POST", "/admin/v1/sandbox/clock/resume", JSON, null);
                default -> throw unknown(admin, "clock", action);
            };
        }
    }

    @Command(name = "snapshot", description = "Snapshots of the whole state: snapshot list | save NAME | restore NAME | delete NAME.")
    static final class Snapshot implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(index = "0", description = "list, save, restore or delete") String action;
        @Parameters(index = "1", arity = "0..1", description = "the snapshot's name") String name;
        public Integer call() throws Exception {
            String body = "{\"name\":" + io.tas.http.Json.MAPPER.writeValueAsString(name) + "}";
            return switch (action) {
                case "list" -> admin.send("GET", "/admin/v1/sandbox/snapshots", JSON, null);
                case "save" -> admin.send("POST", "/admin/v1/sandbox/snapshots", JSON, body);
                case "restore" -> admin.send("POST", "/admin/v1/sandbox/snapshots/restore", JSON, body);
                case "delete" -> admin.send("POST", "/admin/v1/sandbox/snapshots/delete", JSON, body);
                default -> throw unknown(admin, "snapshot", action);
            };
        }
    }

    @Command(name = "faults", description = "Fault rules: faults list | add JSON | remove ID | clear (rule fields: docs/sandbox.md).")
    static final class Faults implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(index = "0", defaultValue = "list", description = "list, add, remove or clear") String action;
        @Parameters(index = "1", arity = "0..1", description = "the rule (add) or its id (remove)") String arg;
        public Integer call() throws Exception {
            return switch (action) {
                case "list" -> admin.send("GET", "/admin/v1/sandbox/faults", JSON, null);
                case "add" -> admin.send("POST", "/admin/v1/sandbox/faults", JSON, arg);
                case "remove" -> admin.send("POST", "/admin/v1/sandbox/faults/remove", JSON, "{\"id\":" + io.tas.http.Json.MAPPER.writeValueAsString(arg) + "}");
                case "clear" -> admin.send("POST", "/admin/v1/sandbox/faults/clear", JSON, null);
                default -> throw unknown(admin, "faults", action);
            };
        }
    }

    @Command(name = "journal", description = "The request journal (oldest first): journal [--key K] [--path P] [--since MS] [--limit N] | journal clear.")
    static final class Journal implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(index = "0", arity = "0..1", description = "clear, to empty it") String action;
        @Option(names = "--key", description = "one API key's requests and frames") String key;
        @Option(names = "--path", description = "a path, '*' matching any run of characters") String path;
        @Option(names = "--kind", description = "rest or ws") String kind;
        @Option(names = "--since", description = "sandbox time, epoch ms") Long since;
        @Option(names = "--limit", description = "at most this many, the newest (default 100, at most 1000)") Integer limit;
        public Integer call() throws Exception {
            if ("clear".equals(action)) return admin.send("POST", "/admin/v1/sandbox/journal/clear", JSON, null);
            if (action != null) throw unknown(admin, "journal", action);
            StringBuilder q = new StringBuilder();
            add(q, "apiKey", key);
            add(q, "path", path);
            add(q, "kind", kind);
            add(q, "since", since);
            add(q, "limit", limit);
            return admin.send("GET", "/admin/v1/sandbox/journal" + q, JSON, null);
        }

        private static void add(StringBuilder q, String name, Object v) {
            if (v == null) return;
            q.append(q.isEmpty() ? '?' : '&').append(name).append('=').append(URLEncoder.encode(v.toString(), StandardCharsets.UTF_8));
        }
    }
}
