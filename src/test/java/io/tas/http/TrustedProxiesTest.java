package io.tas.http;

import io.tas.config.Config;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TAS_TRUSTED_PROXIES and the right-to-left X-Forwarded-For walk (nginx real_ip_recursive). */
class TrustedProxiesTest {
    private static final TrustedProxies PROXIES = TrustedProxies.parse("10.0.0.5, 10.1.0.0/16,fd00::/8, 2001:db8::7");

    private static String client(String peer, String... xff) {
        return PROXIES.clientIp(InetAddress.ofLiteral(peer), Arrays.asList(xff));
    }

    @Test
    void noProxiesConfiguredMeansTheHeaderIsIgnored() {
        assertThat(TrustedProxies.parse("").clientIp(InetAddress.ofLiteral("10.0.0.5"), List.of("203.0.113.9"))).isEqualTo("10.0.0.5");
        assertThat(TrustedProxies.parse(" , ").isEmpty()).isTrue();
        assertThat(Config.fromEnv(Map.of()).trustedProxies()).isEmpty();
    }

    @Test
    void anUntrustedPeerIsTheClientWhateverItSends() {
        assertThat(client("198.51.100.4", "203.0.113.9")).isEqualTo("198.51.100.4");
        assertThat(client("10.0.0.6", "203.0.113.9")).as("next to a trusted IP, not in it").isEqualTo("10.0.0.6");
        assertThat(client("10.2.0.1", "203.0.113.9")).as("outside the /16").isEqualTo("10.2.0.1");
    }

    @Test
    void aTrustedPeerNamesTheClient() {
        assertThat(client("10.0.0.5", "203.0.113.9")).isEqualTo("203.0.113.9");
        assertThat(client("10.1.255.254", "203.0.113.9")).as("inside the /16").isEqualTo("203.0.113.9");
        assertThat(client("10.0.0.5")).as("no header value").isEqualTo("10.0.0.5");
    }

    @Test
    void aSpoofedLeftPartIsSkippedTheFirstUntrustedFromTheRightWins() {
        // The client sent "1.1.1.1, 10.0.0.5"; the edge proxy appended the real peer 198.51.100.4.
        assertThat(client("10.0.0.5", "1.1.1.1, 10.0.0.5, 198.51.100.4")).isEqualTo("198.51.100.4");
        // Two trusted hops (10.1.2.3 forwarded to 10.0.0.5): both skipped.
        assertThat(client("10.0.0.5", "1.1.1.1, 198.51.100.4, 10.1.2.3")).isEqualTo("198.51.100.4");
        // Several header lines are one list in arrival order.
        assertThat(client("10.0.0.5", "1.1.1.1", "198.51.100.4, 10.1.2.3")).isEqualTo("198.51.100.4");
        // Every hop trusted: the leftmost is as far as the chain goes.
        assertThat(client("10.0.0.5", "10.1.0.1, 10.0.0.5")).isEqualTo("10.1.0.1");
    }

    @Test
    void ipv6RangesAndForms() {
        assertThat(client("fd12::1", "2001:db8::1")).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(client("2001:db8::7", "[2001:db8::2]:443")).as("bracketed with a port").isEqualTo("2001:db8:0:0:0:0:0:2");
        assertThat(client("2001:db8::8", "203.0.113.9")).as("a single IPv6 is no range").isEqualTo("2001:db8:0:0:0:0:0:8");
        assertThat(client("fd12::1", "203.0.113.9:51000")).as("IPv4 with a port").isEqualTo("203.0.113.9");
        assertThat(client("fd12::1", "::ffff:203.0.113.9")).as("IPv4-mapped is IPv4").isEqualTo("203.0.113.9");
        assertThat(client("10.0.0.5", "::ffff:10.0.0.5, 2001:db8::9")).isEqualTo("2001:db8:0:0:0:0:0:9");
    }

    @Test
    void garbageStopsTheWalkAtTheLastAddressReached() {
        assertThat(client("10.0.0.5", "unknown")).isEqualTo("10.0.0.5");
        assertThat(client("10.0.0.5", "198.51.100.4, garbage")).as("garbage on the right: nothing left of it is believed").isEqualTo("10.0.0.5");
        assertThat(client("10.0.0.5", "garbage, 10.1.0.9")).isEqualTo("10.1.0.9");
        for (String bad : List.of("", " , ,", "example.com", "1.2.3", "0x7f.0.0.1", "999.1.1.1", "1.2.3.4:port", "1.2.3.4:123456", "1.2.3.4:65536", "[::1]:70000",
                "[::1", "[::1]x", "fe80::1%eth0", "::1::2", "1.2.3.4/8", "\"1.2.3.4\"", "a".repeat(10_000))) {
            assertThat(client("10.0.0.5", bad)).as(bad).isEqualTo("10.0.0.5");
        }
        assertThat(client("10.0.0.5", ",198.51.100.4,")).as("empty entries are skipped").isEqualTo("198.51.100.4");
    }

    @Test
    void aChainLongerThanAnyRealOneIsNotWalkedToTheEnd() {
        String trustedHops = String.join(",", java.util.Collections.nCopies(TrustedProxies.MAX_HOPS, "10.0.0.5"));
        assertThat(client("10.0.0.5", "198.51.100.4," + trustedHops)).isEqualTo("10.0.0.5");
        String fewer = String.join(",", java.util.Collections.nCopies(TrustedProxies.MAX_HOPS - 1, "10.0.0.5"));
        assertThat(client("10.0.0.5", "198.51.100.4," + fewer)).isEqualTo("198.51.100.4");
    }

    @Test
    void badSettingsAreRefusedByName() {
        for (String bad : List.of("10.0.0.0/33", "fd00::/129", "10.0.0.1/x", "proxy.example", "10.0.0.1/", "10.0.0")) {
            assertThatThrownBy(() -> TrustedProxies.parse(bad)).as(bad).isInstanceOf(Config.Invalid.class).hasMessageContaining("TAS_TRUSTED_PROXIES");
            assertThat(Config.fromEnv(Map.of("TAS_TRUSTED_PROXIES", bad, "TAS_SANDBOX", "on")).problems()).as(bad)
                    .anySatisfy(p -> assertThat(p).contains("TAS_TRUSTED_PROXIES", bad));
        }
        assertThat(Config.fromEnv(Map.of("TAS_TRUSTED_PROXIES", "10.0.0.0/8, ::1", "TAS_SANDBOX", "on")).problems()).isEmpty();
        assertThat(TrustedProxies.parse("0.0.0.0/0").clientIp(InetAddress.ofLiteral("192.0.2.1"), List.of("198.51.100.4")))
                .as("/0 trusts every IPv4 peer").isEqualTo("198.51.100.4");
    }
}
