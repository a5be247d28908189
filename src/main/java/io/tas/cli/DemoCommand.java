package io.tas.cli;

import io.tas.App;
import io.tas.Main;
import io.tas.config.Config;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** `tas demo`: the sandbox on embedded H2 with the demo scenario, and how to make a first signed call. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Start the sandbox on H2 (./data) with demo data.")
public final class DemoCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @ParentCommand Main main;
    @Mixin ServerOptions options = new ServerOptions();
    @Option(names = "--reset", description = "throw away ./data state and start from the demo seed again")
    boolean reset;

    @Override
    public Integer call() throws Exception {
        Config config;
        try {
            config = options.apply(Config.demoEnv(main.env())).withSandbox(true).withJournalUnlessSet().validated(); // the demo is the sandbox
        } catch (Config.Invalid e) {
            return ServeCommand.refuse(spec, e);
        }
        App app = ServeCommand.start(config, "demo", reset);
        String base = "http://127.0.0.1:" + app.port();
        spec.commandLine().getOut().println(banner(base, config, app.adminPort()));
        spec.commandLine().getOut().flush();
        ServeCommand.awaitShutdown(app, main.stopSignal());
        return 0;
    }

    static String banner(String base, Config config, int adminPort) {
        String tas = "./tas call GET /api/v3/account/info" + (base.endsWith(":8080") ? "" : " --base-url " + base);
        return """
                Trading Account Service (sandbox) is up.
                  API base URL : %s
                  database     : %s
                  admin        : http://%s:%d  (Authorization: Bearer %s)
                  API document : %s/openapi (OpenAPI 3.1: %s/openapi.json; the admin API's: admin URL + /admin/openapi)
                  console      : admin URL + /console, log in with the admin token (docs/console.md)

                Demo credentials (main account 1000000001, read-and-write, all permissions):
                  ACCESS-KEY        bg_demo00000000000000000000000001
                  secret            demo-secret-main-rw-0000000000000001
                  ACCESS-PASSPHRASE DemoPass1

                A first signed call, from another terminal in this folder:
                  %s

                The same with curl and openssl:
                  TS=$(date +%%s%%3N); SIGN=$(printf '%%s' "${TS}GET/api/v3/account/info" | openssl dgst -sha256 -hmac demo-secret-main-rw-0000000000000001 -binary | base64)
                  curl -s %s/api/v3/account/info -H "ACCESS-KEY: bg_demo00000000000000000000000001" -H "ACCESS-SIGN: $SIGN" -H "ACCESS-TIMESTAMP: $TS" -H "ACCESS-PASSPHRASE: DemoPass1"

                Every ticker carries a book to trade against (docs/engine.md). Prices stand still: start with
                TAS_PRICE_FEED=on TAS_PRICE_FEED_SCOPE=all for a market that moves and fills resting orders by itself.

                Press Ctrl+C to stop. More keys: README.md, "Demo data"; what the accounts hold: docs/demo-data.md.
                """.formatted(base, config.dbUrl(), config.adminHost(), adminPort,
                Config.DEMO_ADMIN_TOKEN.equals(config.adminToken()) ? config.adminToken() : "<TAS_ADMIN_TOKEN>", base, base, tas, base);
    }
}
