package io.tas.cli;

import io.tas.App;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** `tas endpoints`: the inventory of docs/endpoints.md (or, with --summary, the README's), rendered from the catalog. */
@Command(name = "endpoints", mixinStandardHelpOptions = true, description = "Print the endpoint inventory as a Markdown table.")
public final class EndpointsCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Option(names = "--summary", description = "print the rows per area instead (the README's summary)") boolean summary;

    @Override
    public Integer call() {
        var routes = App.productionRoutes();
        spec.commandLine().getOut().print(summary ? EndpointInventory.summary(routes) : EndpointInventory.markdown(routes));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
