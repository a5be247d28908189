package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.Metrics;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.tas.api.Replies.assertError;
import static io.tas.api.Replies.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24 item 7, D122: failed authentications (40006, 40009, 40012) are limited per client IP, and wrong
 * passphrases per key; past the limit the answer is the §8 429, before the key lookup or the PBKDF2 check. Here 20 a
 * minute per IP and 5 per key (TAS_AUTH_FAILURES_PER_IP, TAS_PASSPHRASE_FAILURES_PER_KEY); the clock stands still, so
 * no budget refills until the test moves it. Requests from 127.0.0.2 are another IP (LoopbackClient).
 */
class AuthFailureLimitTest {
    static final String INFO = "/api/v3/account/settings"; // 20/s per UID: the §8 limit stays out of the way
    static final String B = "127.0.0.2";

    private static void tooMany(Reply r) {
        assertThat(r.status()).as(r.raw()).isEqualTo(429);
        assertThat(r.code()).isEqualTo("429");
        assertThat(r.msg()).isEqualTo("Too Many Requests");
    }

    @Test
    void floodsOfFailedAuthenticationsGet429BeforeTheWorkAndSpareOthers() {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        try (TestServer server = TestServer.start(Databases.Kind.H2, clock, c -> c.withAuthFailureLimits(20, 5))) {
            ApiClient rw = server.client(Credentials.MAIN_RW);
            ApiClient ro = server.client(Credentials.MAIN_RO);
            ApiClient wrongPassphrase = server.client(Credentials.MAIN_RW.withPassphrase("NotThePass1"));
            // Both keys in use: their passphrases are verified once, and then cost no PBKDF2.
            ok(rw.get(INFO));
            ok(ro.get(INFO));
            double hashes = Metrics.value(server, "tas_passphrase_hashes_total");

            // Wrong passphrases for one key from IP A: the key's 5 are checked, then 429 with no PBKDF2.
            for (int i = 0; i < 5; i++) assertError(wrongPassphrase.get(INFO), "40012");
            assertThat(Metrics.value(server, "tas_passphrase_hashes_total")).isEqualTo(hashes + 5);
            for (int i = 0; i < 10; i++) tooMany(wrongPassphrase.get(INFO));
            tooMany(wrongPassphrase.from(B).get(INFO)); // the budget is the key's, whichever IP guesses
            assertThat(Metrics.value(server, "tas_passphrase_hashes_total")).as("PBKDF2 checks").isEqualTo(hashes + 5);
            // The key's owner is not locked out: a verified passphrase needs no slow check. Another key is unaffected.
            ok(rw.get(INFO));
            ok(rw.from(B).get(INFO));
            ok(ro.get(INFO));

            // IP A has 15 failures left (the 429s cost none): unknown keys use them up, with no key read past them.
            for (int i = 0; i < 15; i++) assertError(server.client(Credentials.MAIN_RW.withKey("bg_unknown_" + i)).get(INFO), "40006");
            double lookups = Metrics.value(server, "tas_api_key_store_lookups_total");
            tooMany(server.client(Credentials.MAIN_RW.withKey("bg_unknown_x")).get(INFO));
            tooMany(server.client(Credentials.MAIN_RW.withSecret("not-the-secret")).get(INFO));
            tooMany(rw.get(INFO)); // an IP over its failures is refused whatever it sends
            assertThat(Metrics.value(server, "tas_api_key_store_lookups_total")).isEqualTo(lookups);
            // IP B is not: its own failures get their codes, its good requests pass.
            assertError(server.client(Credentials.MAIN_RW.withSecret("not-the-secret")).from(B).get(INFO), "40009");
            ok(rw.from(B).get(INFO));
            ok(ro.from(B).get(INFO));

            assertThat(Metrics.sum(server, "tas_auth_failure_refusals_total")).isEqualTo(11 + 3);
            // A minute later every budget is whole again.
            clock.advance(Duration.ofMinutes(1));
            ok(rw.get(INFO));
            assertError(wrongPassphrase.get(INFO), "40012");
            assertThat(Metrics.value(server, "tas_passphrase_hashes_total")).isEqualTo(hashes + 6);
        }
    }
}
