package io.tas.cli;

import io.tas.App;
import io.tas.Main;
import io.tas.config.Config;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * `serve` refuses to start with an admin token that protects nothing, or with the published demo secrets
 * outside a sandbox: one clear line on stderr and a non-zero exit, never a stack trace. `--sandbox` and `demo`
 * start with the demo secrets. Runs the CLI in-process with an injected environment.
 */
class ServeSafetyTest {
    private static final String GOOD_TOKEN = "a-real-admin-token-0123456789";
    private static final String GOOD_MASTER_KEY = "a-real-master-key-0123456789";
    /** The API port, then the admin port, as `serve` and `demo` print them. */
    private static final Pattern LISTENING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)[\\s\\S]*?admin[^h]*http://[^:]+:(\\d+)");

    /** A finished or running CLI invocation. */
    record Run(Main main, CompletableFuture<Integer> exit, StringWriter out, StringWriter err) {}

    private static Run tas(Map<String, String> env, String... args) {
        Main main = new Main(env);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(main);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        // Its own thread: a server that runs blocks it until stopped.
        return new Run(main, CompletableFuture.supplyAsync(() -> cl.execute(args), r -> Thread.ofPlatform().daemon().start(r)), out, err);
    }

    private static String[] serve(String... extra) {
        String[] head = {"serve", "--port", "0", "--admin-port", "0", "--db-url", "jdbc:h2:mem:serve_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1"};
        String[] all = new String[head.length + extra.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(extra, 0, all, head.length, extra.length);
        return all;
    }

    /** The run must end by itself, refused; a server that starts instead is stopped and the test fails. */
    private static String refused(Run run) throws Exception { return refused(run, "serve"); }

    private static String refused(Run run, String command) throws Exception {
        for (int i = 0; i < 600 && !run.exit().isDone(); i++) {
            if (LISTENING.matcher(run.out().toString()).find()) {
                run.main().stop();
                throw new AssertionError("the server started: " + run.out());
            }
            Thread.sleep(100);
        }
        int exit = run.exit().get(1, TimeUnit.SECONDS);
        String err = run.err().toString();
        assertThat(exit).as(err).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err).startsWith("tas " + command + ": refusing to start: ").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(run.out().toString()).doesNotContain("listening");
        return err;
    }

    @Test
    void anEmptyAdminTokenIsRefused() throws Exception {
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", "", "TAS_MASTER_KEY", GOOD_MASTER_KEY), serve())))
                .contains("TAS_ADMIN_TOKEN must be at least 16 characters besides blanks (it is empty)");
        // A sandbox needs a real token too: an empty one would match an empty Bearer header.
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", ""), serve("--sandbox"))))
                .contains("TAS_ADMIN_TOKEN must be at least 16 characters besides blanks (it is empty)");
    }

    @Test
    void malformedRealitySettingsAreRefusedWithOneLine() throws Exception {
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY, "TAS_SIMULATED_EXECUTION", "maybe"), serve())))
                .contains("TAS_SIMULATED_EXECUTION must be on or off (or true/false), not 'maybe'");
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY, "TAS_PRICE_FEED", "on",
                "TAS_PRICE_FEED_STEP", "0.5"), serve()))).contains("TAS_PRICE_FEED_STEP must be above 0 and below 0.2");
        // D84: checked before the database is touched, as one line.
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY, "TAS_SHUTDOWN_GRACE_MS", "soon"), serve())))
                .contains("TAS_SHUTDOWN_GRACE_MS must be a number of milliseconds, got soon");
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY, "TAS_SHUTDOWN_DELAY_MS", "60000"), serve())))
                .contains("TAS_SHUTDOWN_DELAY_MS must be 0..30000 ms, got 60000");
    }

    @Test
    void aTimestampWindowWiderThanThirtySecondsIsForASandboxOnlyAndSlowClientSettingsAreChecked() throws Exception {
        // Issue 12 item 10: bench/run replays requests signed once, under a wide window a live service must not have.
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY, "TAS_TIMESTAMP_WINDOW_MS", "30001"), serve())))
                .contains("TAS_TIMESTAMP_WINDOW_MS above 30000 is for a sandbox only");
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY, "TAS_REQUEST_READ_TIMEOUT_MS", "10"), serve())))
                .contains("TAS_REQUEST_READ_TIMEOUT_MS must be 100..3600000 ms, got 10");
    }

    @Test
    void serveResetsOnlyASandbox() throws Exception {
        // Issue 24 item 3: --reset empties every table; a service refuses to start with it, a sandbox resets.
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY), serve("--reset"))))
                .contains("--reset empties every table: only a sandbox resets (add --sandbox, or use tas demo --reset)");
        startsAndStops(tas(Map.of(), serve("--sandbox", "--reset", "--seed", "demo")), Config.DEMO_ADMIN_TOKEN, true, true);
    }

    @Test
    void anAdminTokenShorterThanSixteenCharactersIsRefused() throws Exception {
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", "fifteen-chars-x", "TAS_MASTER_KEY", GOOD_MASTER_KEY), serve())))
                .contains("TAS_ADMIN_TOKEN must be at least 16 characters besides blanks (it has 15)");
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", " ".repeat(20), "TAS_MASTER_KEY", GOOD_MASTER_KEY), serve())))
                .contains("TAS_ADMIN_TOKEN must be at least 16 characters besides blanks (it is empty)");
    }

    @Test
    void theDemoAdminTokenIsRefusedOutsideASandbox() throws Exception {
        assertThat(refused(tas(Map.of("TAS_MASTER_KEY", GOOD_MASTER_KEY), serve())))
                .contains("TAS_ADMIN_TOKEN is the published demo token")
                .contains("--sandbox");
    }

    @Test
    void theDemoMasterKeyIsRefusedOutsideASandbox() throws Exception {
        String err = refused(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN), serve("--seed", "demo")));
        assertThat(err).contains("TAS_MASTER_KEY is the published demo key").doesNotContain("TAS_ADMIN_TOKEN");
        // Both problems are named at once.
        assertThat(refused(tas(Map.of(), serve()))).contains("TAS_ADMIN_TOKEN is the published demo token", "TAS_MASTER_KEY is the published demo key");
    }

    @Test
    void sandboxStartsWithTheDemoSecretsByFlagOrEnvironment() throws Exception {
        startsAndStops(tas(Map.of(), serve("--sandbox", "--seed", "demo")), Config.DEMO_ADMIN_TOKEN, true, true);
        startsAndStops(tas(Map.of("TAS_SANDBOX", "on"), serve()), Config.DEMO_ADMIN_TOKEN, true, false);
        startsAndStops(tas(Map.of("TAS_ADMIN_TOKEN", GOOD_TOKEN, "TAS_MASTER_KEY", GOOD_MASTER_KEY), serve()), GOOD_TOKEN, false, false);
    }

    @Test
    void demoIsTheSandboxAndNeedsNoFlag() throws Exception {
        String[] demo = {"demo", "--port", "0", "--admin-port", "0", "--db-url", "jdbc:h2:mem:demo_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1"};
        Run run = tas(Map.of(), demo);
        startsAndStops(run, Config.DEMO_ADMIN_TOKEN, true, true);
        assertThat(run.out().toString()).contains("Trading Account Service (sandbox) is up.")
                .containsPattern("API document : http://127\\.0\\.0\\.1:\\d+/openapi ").contains("console      : admin URL + /console");
        assertThat(refused(tas(Map.of("TAS_ADMIN_TOKEN", ""), demo), "demo")).contains("TAS_ADMIN_TOKEN must be at least 16 characters");
    }

    @Test
    void appStartRefusesTheSameConfigurationsWhateverStartsIt() {
        Config sandbox = Config.fromEnv(Map.of("TAS_SANDBOX", "on")).withPort(0).withAdminPort(0).withDb("jdbc:h2:mem:never;DB_CLOSE_DELAY=-1", "sa", "");
        assertThatThrownBy(() -> App.start(sandbox.withAdminToken(""), Clock.systemUTC()))
                .isInstanceOf(Config.Invalid.class).hasMessageContaining("TAS_ADMIN_TOKEN must be at least 16 characters");
        assertThatThrownBy(() -> App.start(sandbox.withSandbox(false).withAdminToken(GOOD_TOKEN), Clock.systemUTC()))
                .isInstanceOf(Config.Invalid.class).hasMessageContaining("TAS_MASTER_KEY is the published demo key");
        assertThatThrownBy(() -> Config.fromEnv(Map.of("TAS_PORT", "eighty")))
                .isInstanceOf(Config.Invalid.class).hasMessage("TAS_PORT must be a whole number, not 'eighty'");
    }

    /**
     * Waits for the listening line, checks the API and the admin token, then stops the server: exit code 0. A sandbox's
     * clock moves forward on request, while signed calls are still checked against the machine's clock (seeded: the
     * demo key works right after a minute's advance); a service on the system clock refuses to move it.
     */
    private static void startsAndStops(Run run, String adminToken, boolean sandbox, boolean seeded) throws Exception {
        Matcher m = null;
        for (int i = 0; i < 600 && (m == null || !m.find()); i++) {
            if (run.exit().isDone()) throw new AssertionError("exited " + run.exit().get() + ": " + run.err());
            Thread.sleep(100);
            m = LISTENING.matcher(run.out().toString());
        }
        try {
            assertThat(m.find(0)).as(run.out().toString()).isTrue();
            Reply time = ApiClient.raw("http://127.0.0.1:" + m.group(1) + "/api/v2/public/time", "GET", "");
            assertThat(time.code()).isEqualTo("00000");
            Reply health = ApiClient.raw("http://127.0.0.1:" + m.group(2) + "/admin/v1/health", "GET", "", "Authorization", "Bearer " + adminToken);
            assertThat(health.code()).as(health.raw()).isEqualTo("00000");
            Reply advance = ApiClient.raw("http://127.0.0.1:" + m.group(2) + "/admin/v1/sandbox/clock/advance", "POST", "{\"ms\":60000}",
                    "Authorization", "Bearer " + adminToken, "Content-Type", "application/json");
            if (sandbox) {
                assertThat(advance.code()).as(advance.raw()).isEqualTo("00000");
                assertThat(advance.data().get("now").asLong()).isGreaterThanOrEqualTo(System.currentTimeMillis() + 59_000);
            } else {
                assertThat(advance.status()).as(advance.raw()).isEqualTo(400);
                assertThat(advance.code()).isEqualTo("40017");
                assertThat(advance.msg()).isEqualTo("Parameter verification failed the clock can only be moved in a sandbox "
                        + "(tas demo, or tas serve --sandbox); this service runs on the system clock");
            }
            if (seeded) {
                Reply info = new ApiClient("http://127.0.0.1:" + m.group(1), io.tas.support.Credentials.MAIN_RW, Clock.systemUTC())
                        .get("/api/v3/account/info");
                assertThat(info.code()).as(info.raw()).isEqualTo("00000");
            }
            // Issue 24 item 3: only a sandbox resets; a service refuses and keeps every row.
            String admin = "http://127.0.0.1:" + m.group(2);
            String[] auth = {"Authorization", "Bearer " + adminToken, "Content-Type", "application/json"};
            Reply created = ApiClient.raw(admin + "/admin/v1/accounts", "POST", "{\"username\":\"reset-probe\"}", auth);
            assertThat(created.code()).as(created.raw()).isEqualTo("00000");
            String uid = created.data().get("uid").asText();
            Reply reset = ApiClient.raw(admin + "/admin/v1/reset", "POST", "", auth);
            Reply after = ApiClient.raw(admin + "/admin/v1/accounts/" + uid, "GET", "", auth);
            if (sandbox) {
                assertThat(reset.code()).as(reset.raw()).isEqualTo("00000");
                assertThat(after.code()).as("reset emptied it: " + after.raw()).isEqualTo("40034");
            } else {
                assertThat(reset.status()).as(reset.raw()).isEqualTo(400);
                assertThat(reset.msg()).isEqualTo("Parameter verification failed a reset empties every table: only a sandbox resets "
                        + "(tas demo, or tas serve --sandbox)");
                assertThat(after.code()).as("still there: " + after.raw()).isEqualTo("00000");
            }
            // Issue 28: snapshots, faults, the journal and the clock's other moves exist only in a sandbox.
            String[][] controls = {{"POST", "/admin/v1/sandbox/snapshots", "{\"name\":\"s\"}"}, {"POST", "/admin/v1/sandbox/snapshots/restore", "{\"name\":\"s\"}"},
                    {"GET", "/admin/v1/sandbox/snapshots", ""}, {"POST", "/admin/v1/sandbox/faults", "{\"action\":\"drop\"}"},
                    {"GET", "/admin/v1/sandbox/faults", ""}, {"GET", "/admin/v1/sandbox/journal", ""},
                    {"POST", "/admin/v1/sandbox/clock/freeze", ""}, {"POST", "/admin/v1/sandbox/clock/set", "{\"at\":1767571200000}"}};
            for (String[] c : controls) {
                Reply r = ApiClient.raw(admin + c[1], c[0], c[2], auth);
                if (sandbox) {
                    assertThat(r.msg()).as(c[1] + " " + r.raw()).doesNotContain("in a sandbox");
                } else {
                    assertThat(r.code()).as(c[1] + " " + r.raw()).isEqualTo("40017");
                    assertThat(r.msg()).as(c[1]).contains("in a sandbox");
                }
            }
            if (sandbox) ApiClient.raw(admin + "/admin/v1/sandbox/clock/resume", "POST", "", auth);
        } finally {
            run.main().stop();
        }
        assertThat(run.exit().get(60, TimeUnit.SECONDS)).isZero();
        assertThat(run.err().toString()).isEmpty();
    }
}
