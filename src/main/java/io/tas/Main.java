package io.tas;

import io.tas.cli.AdminCommand;
import io.tas.cli.AotTrainCommand;
import io.tas.cli.CallCommand;
import io.tas.cli.DemoCommand;
import io.tas.cli.EndpointsCommand;
import io.tas.cli.ServeCommand;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The `tas` command line: serve, demo, call, admin, endpoints. The environment and the stop signal are
 * fields, so a caller that embeds the CLI (tests) can hand it an environment and stop a running server.
 */
@Command(name = "tas", mixinStandardHelpOptions = true, version = "tas 0.1.0",
        description = "Trading Account Service: the exchange's unified/classic account API, as a sandbox or a service.",
        subcommands = {DemoCommand.class, ServeCommand.class, CallCommand.class, AdminCommand.class, EndpointsCommand.class, AotTrainCommand.class})
public final class Main {
    private final Map<String, String> env;
    private final CompletableFuture<Void> stop = new CompletableFuture<>();

    public Main() { this(System.getenv()); }

    public Main(Map<String, String> env) { this.env = Map.copyOf(env); }

    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        System.exit(new CommandLine(new Main()).execute(args));
    }

    /** The TAS_* settings `serve` and `demo` read. */
    public Map<String, String> env() { return env; }

    /** Completes when a running server should stop (SIGINT/SIGTERM, or stop()). */
    public CompletableFuture<Void> stopSignal() { return stop; }

    public void stop() { stop.complete(null); }
}
