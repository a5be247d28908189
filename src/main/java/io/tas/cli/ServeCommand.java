package io.tas.cli;

import io.tas.App;
import io.tas.admin.SeedFile;
import io.tas.config.Config;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** `tas serve`: run the service. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the service (H2 file ./data by default, or PostgreSQL by --db-url).")
public final class ServeCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin ServerOptions options = new ServerOptions();
    @Option(names = "--seed", description = "seed to apply when the database has no accounts: 'demo' or a YAML/JSON file")
    String seed;
    @Option(names = "--reset", description = "empty the database before seeding")
    boolean reset;

    @Override
    public Integer call() throws Exception {
        Config config = options.apply(Config.fromEnv(System.getenv()));
        App app = start(config, seed, reset);
        spec.commandLine().getOut().printf("Trading Account Service listening on http://127.0.0.1:%d (admin http://%s:%d)%n",
                app.port(), config.adminHost(), app.adminPort());
        spec.commandLine().getOut().flush();
        awaitShutdown(app);
        return 0;
    }

    static App start(Config config, String seed, boolean reset) throws Exception {
        SeedFile seedFile = seed == null ? null : SeedFile.load(seed); // a bad file fails before the database opens
        return App.start(config, Clock.systemUTC(), p -> {
            if (reset) p.reset();
            if (seedFile != null && p.isEmpty()) p.apply(seedFile);
        });
    }

    static void awaitShutdown(App app) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.close();
            done.countDown();
        }));
        done.await();
    }
}
