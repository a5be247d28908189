package io.tas.proof;

import io.tas.api.Admin;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.tas.support.ServerProcess.freePort;
import static io.tas.support.ServerProcess.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 12 item 2: the built service (target/tas.jar) is killed with SIGKILL at a random moment (seeded, printed) of
 * a mixed write load ({@link MixedLoad}: deposits and small-asset trades, set-leverage, set-margin, Reality place and
 * cancel, strategy-order ingestion, a switch whose job may be running), restarted, checked, and the next run starts on
 * the same database. Each run checks: recovery is stable (the state hash after a restart equals the one after a
 * second, clean restart), every acknowledged write is there with exactly its effect, a write in flight at the kill is
 * there wholly or not at all, the switch finishes exactly once, the ledger is conserved. On an H2 file and on
 * PostgreSQL; runs per database: 3 in CI (D209), 50 with -Dproof.long=true (or TAS_PROOF_LONG=1), or -Dproof.crash.runs=n. A failed
 * run keeps its server logs and the killed H2 file under target/crash-evidence.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class MixedCrashIT {
    private static final boolean LONG = Boolean.getBoolean("proof.long") || "1".equals(System.getenv("TAS_PROOF_LONG"));
    private static final int RUNS = Integer.getInteger("proof.crash.runs", LONG ? 50 : 3); // D209: 3 in CI
    /** The kill comes at a random time within this window after the load has had WARM successes. */
    private static final int WINDOW_MS = 1000, WARM = 25;
    /** -Dproof.crash.db=H2 (or POSTGRES) runs one database only: a long hunt for a rare loss on one store. */
    private static final String ONLY = System.getProperty("proof.crash.db");
    @Parameter Databases.Kind kind;

    @Test
    void acknowledgedWritesSurviveSigkillWholeAndTheSwitchRunsOnce(@TempDir Path dir) throws Exception {
        assumeTrue(ONLY == null || ONLY.equalsIgnoreCase(kind.name()), "-Dproof.crash.db=" + ONLY);
        long seed = Long.getLong("proof.seed", System.nanoTime());
        Random random = new Random(seed);
        Databases.TestDb db = kind == Databases.Kind.POSTGRES ? Databases.create(kind) : null;
        String url = db != null ? db.url() : "jdbc:h2:file:" + dir.resolve("crash").toAbsolutePath();
        int port = freePort(), adminPort = freePort();
        String base = "http://127.0.0.1:" + port, adminUrl = "http://127.0.0.1:" + adminPort;
        Admin admin = new Admin(adminUrl);
        long started = System.nanoTime();
        int acknowledged = 0, present = 0, absent = 0, switchDone = 0;
        // Every process this test starts, so that none outlives a failed assertion (it would hold the ports and database).
        List<Process> processes = new ArrayList<>();
        Process server = start(url, port, adminPort, dir.resolve("start.log").toFile());
        processes.add(server);
        try {
            for (int run = 0; run < RUNS; run++) {
                MixedLoad load = new MixedLoad("crash-" + kind + "-" + run + "-" + seed, 900_000_000L + run * 1_000_000L);
                load.setUp(admin, base);
                // The kill comes a random time after the load is under way (WARM successes; a cold JVM on a busy
                // machine is slow to answer its first requests); the switch's minute passes at a random time before.
                long killAt = random.nextInt(WINDOW_MS);
                long switchAt = random.nextInt((int) killAt + 1);
                List<Thread> clients = new ArrayList<>();
                for (Runnable c : load.clients(base, adminUrl)) clients.add(Thread.ofPlatform().start(c));
                long warmBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (load.successes.get() < WARM && load.failures.isEmpty() && System.nanoTime() < warmBy) pause(5);
                Runnable switchJob = load.switchJob(adminUrl);
                clients.add(Thread.ofPlatform().start(() -> {
                    pause(switchAt);
                    switchJob.run();
                }));
                pause(killAt);
                server.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
                assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
                for (Thread t : clients) {
                    t.join(30_000);
                    assertThat(t.isAlive()).as("a client still sending after the kill").isFalse();
                }
                String at = "run " + run + " (seed " + seed + ", kill " + killAt + " ms after " + WARM + " successes, switch job at " + switchAt + " ms)";
                // The killed store as the kill left it (H2): a failed run keeps it, to replay its recovery offline.
                if (db == null) Files.copy(dir.resolve("crash.mv.db"), dir.resolve("killed.mv.db"), StandardCopyOption.REPLACE_EXISTING);
                try {
                    assertThat(load.failures).as(at + ": replies other than success").isEmpty();

                    // Recovery is stable: what the restarted node shows once the jobs that were due ran (the killed node's
                    // among them) is what a second, clean restart shows.
                    Process recovered = start(url, port, adminPort, dir.resolve("run" + run + "-recovered.log").toFile());
                    processes.add(recovered);
                    if (load.switchStatus(base).equals("success")) switchDone++;
                    settle(admin);
                    String recoveredHash = admin.stateHash();
                    recovered.destroy(); // SIGTERM: a clean stop
                    assertThat(recovered.waitFor(30, TimeUnit.SECONDS)).isTrue();
                    server = start(url, port, adminPort, dir.resolve("run" + run + "-restarted.log").toFile());
                    processes.add(server);
                    settle(admin);
                    assertThat(admin.stateHash()).as(at + ": state hash after a second, clean restart").isEqualTo(recoveredHash);

                    // The switch's minute passes if the kill came first; its job runs, and every job is done.
                    assertThat(admin.post("/admin/v1/sandbox/clock/advance", "{\"ms\":60000}").code()).isEqualTo("00000");
                    Reply due = settle(admin);
                    assertThat(due.data().get("remaining").asInt()).as(at + ": jobs left after run-due " + due.raw()).isZero();
                    MixedLoad.InFlight inFlight = load.verify(base, admin);
                    admin.assertConserved();
                    acknowledged += load.acknowledged();
                    present += inFlight.present();
                    absent += inFlight.absent();
                    System.out.println("MixedCrashIT[" + kind + "] " + at + ": " + load.acknowledged() + " acknowledged (" + load.deposits.size() + " deposits, "
                            + load.conversions.size() + " trades, " + load.leverageAcks + " set-leverage, " + load.marginAdds + " set-margin, " + load.placed.size()
                            + " placed, " + load.cancelled.size() + " cancelled, " + load.batches + " batches of " + MixedLoad.BATCH + "); in flight: "
                            + inFlight.present() + " whole, " + inFlight.absent() + " absent");
                } catch (AssertionError | RuntimeException e) {
                    throw new AssertionError(at + ": " + e.getMessage() + "\n(server logs and the killed H2 file kept in " + keepEvidence(dir, kind + "-" + seed + "-run" + run) + ")", e);
                }
            }
        } finally {
            for (Process p : processes) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            if (db != null) db.close();
        }
        io.tas.support.Proof.print("crash " + kind + ": runs=" + RUNS + " acknowledged=" + acknowledged + " lost=0 partial=0 conserved switch-exactly-once"
                + " (in flight at the kill: " + present + " wholly present, " + absent + " wholly absent; switch job committed before the kill in "
                + switchDone + " of " + RUNS + " runs; recovery state hash = hash after a clean restart in every run; seed " + seed + "; "
                + (System.nanoTime() - started) / 1_000_000 + " ms)");
    }

    /** Copies the run's logs and the killed H2 file out of the temporary directory, which JUnit deletes. */
    private static Path keepEvidence(Path dir, String name) {
        Path kept = Path.of("target", "crash-evidence", name).toAbsolutePath();
        try (var files = Files.list(dir)) {
            Files.createDirectories(kept);
            for (Path f : files.filter(f -> f.toString().endsWith(".log") || f.getFileName().toString().equals("killed.mv.db")).toList()) {
                Files.copy(f, kept.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            return Path.of("(not kept: " + e + ")");
        }
        return kept;
    }

    /**
     * Runs the due jobs until none is left (or a minute passed). A job that the killed node had picked runs again once
     * that node's lease has expired (Jobs.releaseJobsOfGoneNodes; TAS_NODE_LEASE_TTL_MS, 30 s), so it may take more
     * than one run-due call (each waits up to 15 s).
     */
    private static Reply settle(Admin admin) {
        Reply due = admin.post("/admin/v1/jobs/run-due", "");
        for (int i = 0; i < 4 && due.data().path("remaining").asInt() > 0; i++) due = admin.post("/admin/v1/jobs/run-due", "");
        return due;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
