package io.tas;

import io.tas.cli.AdminCommand;
import io.tas.cli.CallCommand;
import io.tas.cli.DemoCommand;
import io.tas.cli.EndpointsCommand;
import io.tas.cli.ServeCommand;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The `tas` command line: serve, demo, call, admin, endpoints. */
@Command(name = "tas", mixinStandardHelpOptions = true, version = "tas 0.1.0",
        description = "Trading Account Service: the exchange's unified/classic account API, as a sandbox or a service.",
        subcommands = {DemoCommand.class, ServeCommand.class, CallCommand.class, AdminCommand.class, EndpointsCommand.class})
public final class Main {
    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        System.exit(new CommandLine(new Main()).execute(args));
    }
}
