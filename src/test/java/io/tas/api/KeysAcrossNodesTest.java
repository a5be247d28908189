package io.tas.api;

import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Metrics;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two nodes on one PostgreSQL. Each keeps an index of the live API keys so that an unknown key costs no
 * query; a key created or revoked on one node reaches the other's index and cache through NOTIFY, in
 * milliseconds rather than a cache TTL (the clock here never moves, so a TTL would never expire).
 */
class KeysAcrossNodesTest extends TwoNodesTest {
    /** Polls until the reply has the code, and answers how long that took. */
    private static long millisUntil(String code, Supplier<Reply> call) throws InterruptedException {
        long start = System.nanoTime();
        Reply last = call.get();
        while (!last.code().equals(code)) {
            if (System.nanoTime() - start > 10_000_000_000L) throw new AssertionError("still " + last.raw() + " after 10 s");
            Thread.sleep(5);
            last = call.get();
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    void aKeyCreatedOrRevokedOnOneNodeIsSeenByTheOtherWithinMilliseconds() throws Exception {
        Admin adminA = new Admin(a);
        String warm = adminA.createKey(1000000001L, "Nodes0", "read-and-write", "[\"uta_mgt\"]");
        Credentials w = new Credentials(warm, adminA.lastSecret, "Nodes0");
        millisUntil("00000", () -> b.client(w).get("/api/v3/account/info")); // node B's first signed call warms its path
        String key = adminA.createKey(1000000001L, "Nodes1", "read-and-write", "[\"uta_mgt\"]");
        Credentials c = new Credentials(key, adminA.lastSecret, "Nodes1");
        long created = millisUntil("00000", () -> b.client(c).get("/api/v3/account/info"));

        assertThat(adminA.post("/admin/v1/keys/" + key + "/revoke", "").code()).isEqualTo("00000");
        long revoked = millisUntil("40006", () -> b.client(c).get("/api/v3/account/info"));
        System.out.println("KeysAcrossNodesTest: a key created on node A signed on node B after " + created
                + " ms; a revocation on A was refused on B after " + revoked + " ms");
        assertThat(revoked).isLessThan(5_000);
    }

    /** Issue 8: a settings change group-committed on one node reaches the other node's settings cache (D43). */
    @Test
    void aSettingsChangeOnOneNodeIsReadOnTheOther() throws Exception {
        Admin adminA = new Admin(a);
        Credentials c = adminA.fundedAccount("nodes-settings-" + System.nanoTime());
        millisUntil("00000", () -> b.client(c).get("/api/v3/account/settings")); // node B learns the new key by NOTIFY
        assertThat(b.client(c).get("/api/v3/account/settings").data().get("holdMode").asText()).isEqualTo("one_way_mode"); // cached on B
        assertThat(a.client(c).post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}").code()).isEqualTo("00000");
        // Node A reads its own write at once; node B once the NOTIFY arrives.
        assertThat(a.client(c).get("/api/v3/account/settings").data().get("holdMode").asText()).isEqualTo("hedge_mode");
        long start = System.nanoTime();
        while (!b.client(c).get("/api/v3/account/settings").data().get("holdMode").asText().equals("hedge_mode")) {
            if (System.nanoTime() - start > 10_000_000_000L) throw new AssertionError("node B still reads one_way_mode after 10 s");
            Thread.sleep(5);
        }
        System.out.println("KeysAcrossNodesTest: a hold-mode change on node A was read on node B after "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    @Test
    void aResetOnOneNodeEmptiesTheOtherNodesIndexAndASeedRefillsIt() throws Exception {
        Supplier<Reply> demoOnB = () -> b.client(Credentials.MAIN_RW).get("/api/v3/account/info");
        assertThat(demoOnB.get().code()).isEqualTo("00000");
        Admin adminA = new Admin(a);
        assertThat(adminA.post("/admin/v1/reset", "").code()).isEqualTo("00000");
        millisUntil("40006", demoOnB);
        String demo;
        try (var in = KeysAcrossNodesTest.class.getResourceAsStream("/seeds/demo.yaml")) {
            demo = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Reply seeded = io.tas.support.ApiClient.raw(a.adminUrl() + "/admin/v1/seed", "POST", demo,
                "Authorization", "Bearer " + TestServer.ADMIN_TOKEN, "Content-Type", "application/yaml");
        assertThat(seeded.code()).as(seeded.raw()).isEqualTo("00000");
        millisUntil("00000", demoOnB);
    }

    @Test
    void unknownKeysCostTheOtherNodeNoQueryEither() {
        double before = Metrics.value(b, "tas_api_key_store_lookups_total");
        for (int i = 0; i < 500; i++) {
            assertThat(b.client(Credentials.MAIN_RW.withKey("bg_nodes_unknown_" + i)).get("/api/v3/account/info").code()).isEqualTo("40006");
        }
        assertThat(Metrics.value(b, "tas_api_key_store_lookups_total") - before).isLessThanOrEqualTo(3);
        assertThat(Metrics.value(b, "tas_api_keys_indexed")).isGreaterThanOrEqualTo(4); // the demo keys
    }
}
