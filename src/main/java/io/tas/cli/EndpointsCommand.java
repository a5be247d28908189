package io.tas.cli;

import io.tas.App;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** `tas endpoints`: the README inventory, rendered from the catalog. A test checks the README against it. */
@Command(name = "endpoints", mixinStandardHelpOptions = true, description = "Print the endpoint inventory as a Markdown table.")
public final class EndpointsCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.print(EndpointInventory.markdown(App.productionRoutes()));
        return 0;
    }
}
