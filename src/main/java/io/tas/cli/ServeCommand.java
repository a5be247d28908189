package io.tas.cli;

import io.tas.App;
import io.tas.Main;
import io.tas.admin.SeedFile;
import io.tas.config.Config;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/** `tas serve`: run the service. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the service (H2 file ./data by default, or PostgreSQL by --db-url).")
public final class ServeCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @ParentCommand Main main;
    @Mixin ServerOptions options = new ServerOptions();
    @Option(names = "--seed", description = "seed to apply when the database has no accounts: 'demo' or a YAML/JSON file")
    String seed;
    @Option(names = "--reset", description = "empty the database before seeding")
    boolean reset;
    @Option(names = "--sandbox", description = "run as a sandbox (env TAS_SANDBOX=on): the published demo admin token and master key are allowed")
    boolean sandbox;

    @Override
    public Integer call() throws Exception {
        Config config;
        try {
            config = options.apply(main.env());
            config = config.withSandbox(sandbox || config.sandbox()).validated();
            // Issue 24 item 3: --reset empties every table, which only a sandbox may do.
            if (reset && !config.sandbox()) throw new Config.Invalid("--reset empties every table: only a sandbox resets (add --sandbox, or use tas demo --reset)");
        } catch (Config.Invalid e) {
            return refuse(spec, e);
        }
        App app = start(config, seed, reset);
        spec.commandLine().getOut().printf("Trading Account Service listening on http://127.0.0.1:%d (admin http://%s:%d)%n",
                app.port(), config.adminHost(), app.adminPort());
        spec.commandLine().getOut().flush();
        awaitShutdown(app, main.stopSignal());
        return 0;
    }

    /** A configuration that must not start: one clear line on stderr and a usage exit code, never a stack trace. */
    static int refuse(CommandSpec spec, Config.Invalid e) {
        spec.commandLine().getErr().println("tas " + spec.name() + ": refusing to start: " + e.getMessage());
        spec.commandLine().getErr().flush();
        return ExitCode.USAGE;
    }

    static App start(Config config, String seed, boolean reset) throws Exception {
        SeedFile seedFile = seed == null ? null : SeedFile.load(seed); // a bad file fails before the database opens
        // A sandbox runs on a clock the admin API can move forward (tas admin clock-advance); a service on the system's.
        Clock clock = config.sandbox() ? new io.tas.admin.SandboxClock() : Clock.systemUTC();
        return App.start(config, clock, admin -> {
            if (reset) admin.sandbox().reset(); // only a sandbox resets (D142); call() refused --reset elsewhere
            if (seedFile != null && admin.provisioning().isEmpty()) admin.seeds().apply(seedFile);
        });
    }

    /** Runs until SIGINT/SIGTERM or the embedding caller's stop; the JVM exits only once the app is closed. */
    static void awaitShutdown(App app, CompletableFuture<Void> stop) {
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.complete(null);
            try {
                closed.await(); // close() is bounded step by step (D84); an orchestrator's own SIGKILL bounds the rest
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            stop.join();
        } finally {
            try {
                app.close();
            } finally {
                closed.countDown();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is what woke us
            }
        }
    }
}
