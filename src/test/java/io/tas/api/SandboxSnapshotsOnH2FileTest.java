package io.tas.api;

import io.tas.admin.SandboxClock;
import io.tas.client.SandboxClient;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 28 item 4, D204: a sandbox on an H2 file restores a snapshot over and over without its file growing. A restore
 * that finds the file grown past its last compaction rewrites it with its live data (here at every doubling: growth 0
 * MB). The world is the saved one after every restore, signed calls made meanwhile all answer, and a deposit
 * acknowledged after a rewrite is in the balance.
 */
class SandboxSnapshotsOnH2FileTest {
    private static final long UID = 1000000001L;
    private static final String ORDER = "{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"side\":\"buy\",\"orderType\":\"limit\",\"qty\":\"0.001\",\"price\":\"50000\"}";

    @Test
    void restoresKeepTheFileSmallAndCallersGoOn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tas.mv.db");
        try (TestServer server = TestServer.start(Databases.Kind.H2, new SandboxClock(), c -> c.withRateLimits(false)
                .withDb("jdbc:h2:file:" + dir.resolve("tas").toAbsolutePath(), "sa", "").withH2CompactGrowthMb(0))) {
            SandboxClient sandbox = new SandboxClient(server.adminUrl(), TestServer.ADMIN_TOKEN);
            Admin admin = new Admin(server);
            ApiClient main = new ApiClient(server.baseUrl(), Credentials.MAIN_RW, Clock.systemUTC());
            String saved = admin.stateHash();
            sandbox.saveSnapshot("demo");

            // Signed reads all along: none may fail while a rewrite holds the pools.
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            List<String> failed = new CopyOnWriteArrayList<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                while (running.get()) {
                    Reply r = main.get("/api/v3/account/assets");
                    if (r.code().equals("00000")) answered.incrementAndGet(); else failed.add(r.raw());
                }
            });
            List<Long> sizes = new ArrayList<>();
            try {
                // 50 rounds: the first rewrite comes once the file has doubled from its size at open, which each
                // migration adds to (V27: round 9 of about 57 KB each), and the second about 32 rounds later.
                for (int round = 1; round <= 50; round++) {
                    admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + UID + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"5\",\"ref\":\"h2f-" + round + "\"}");
                    assertThat(main.post("/api/v3/trade/place-order", ORDER).code()).isEqualTo("00000");
                    assertThat(sandbox.restoreSnapshot("demo").get("name").asText()).isEqualTo("demo");
                    assertThat(admin.stateHash()).as("round %d", round).isEqualTo(saved);
                    sizes.add(Files.size(file));
                }
            } finally {
                running.set(false);
                reader.join(30_000);
            }
            int rewrites = 0;
            for (int i = 1; i < sizes.size(); i++) if (sizes.get(i) < sizes.get(i - 1)) rewrites++;
            System.out.printf("file after each restore: %s; %d rewrites; %d signed reads answered meanwhile%n", sizes, rewrites, answered.get());
            assertThat(failed).as("signed reads during the restores").isEmpty();
            assertThat(answered.get()).isPositive();
            assertThat(rewrites).as("rewrites over 50 restores").isGreaterThanOrEqualTo(2);
            // Without a rewrite the file would only grow, round after round; with them it stays near its first size.
            assertThat(java.util.Collections.max(sizes)).as("the largest the file was after a restore").isLessThan(6L << 20);

            // After a rewrite the service goes on as before: a deposit lands on the restored balance.
            String before = admin.balances(UID).get("unified/USDT").split("/")[0];
            admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + UID + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"7.5\",\"ref\":\"h2f-after\"}");
            String after = admin.balances(UID).get("unified/USDT").split("/")[0];
            assertThat(new BigDecimal(after)).isEqualByComparingTo(new BigDecimal(before).add(new BigDecimal("7.5")));
        }
    }
}
