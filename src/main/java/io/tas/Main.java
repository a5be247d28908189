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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The `tas` command line: serve, demo, call, admin, endpoints. The environment and the stop signal are
 * fields, so a caller that embeds the CLI (tests) can hand it an environment and stop a running server.
 */
@Command(name = "tas", mixinStandardHelpOptions = true, version = "tas 0.1.0",
        description = "Trading Account Service: the exchange's unified/classic account API, as a sandbox or a service.")
public final class Main {
    /**
     * The subcommands, in help order. Only the one named is built (D112): picocli's classes are Java 5 bytecode, which
     * the JVM's AOT cache cannot hold, so every command model built costs at every start, `serve` included.
     */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> all = new LinkedHashMap<>();
        all.put("demo", DemoCommand::new);
        all.put("serve", ServeCommand::new);
        all.put("call", CallCommand::new);
        all.put("admin", AdminCommand::new);
        all.put("endpoints", EndpointsCommand::new);
        all.put("aot-train", AotTrainCommand::new);
        return Collections.unmodifiableMap(all);
    }

    private final Map<String, String> env;
    private final CompletableFuture<Void> stop = new CompletableFuture<>();

    public Main() { this(System.getenv()); }

    public Main(Map<String, String> env) { this.env = Map.copyOf(env); }

    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        System.exit(commandLine(new Main(), args).execute(args));
    }

    /** The command line for these arguments: the named subcommand alone, or all of them (help, or an unknown name). */
    public static CommandLine commandLine(Main main, String... args) {
        CommandLine cl = new CommandLine(main);
        Supplier<Object> named = args.length > 0 ? SUBCOMMANDS.get(args[0]) : null;
        if (named != null) cl.addSubcommand(args[0], named.get());
        else SUBCOMMANDS.forEach((name, make) -> cl.addSubcommand(name, make.get()));
        return cl;
    }

    /** The TAS_* settings `serve` and `demo` read. */
    public Map<String, String> env() { return env; }

    /** Completes when a running server should stop (SIGINT/SIGTERM, or stop()). */
    public CompletableFuture<Void> stopSignal() { return stop; }

    public void stop() { stop.complete(null); }
}
