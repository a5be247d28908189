package io.tas.cli;

import io.tas.App;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** `tas endpoints`: the README inventory, rendered from the catalog. A test checks the README against it. */
@Command(name = "endpoints", mixinStandardHelpOptions = true, description = "Print the endpoint inventory as a Markdown table.")
public final class EndpointsCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(EndpointInventory.markdown(App.productionRoutes()));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
