package io.tas.http;

import io.tas.config.Config;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * TAS_TRUSTED_PROXIES: the proxies whose X-Forwarded-For names the client. With none configured (the default) the
 * header is ignored and the client is the TCP peer. When the peer is trusted, the header is walked right to left,
 * skipping trusted addresses, and the first untrusted one is the client: nginx's real_ip_recursive rule, so a client
 * cannot plant an address by sending the header itself (the proxy appends the true peer to the right of it). An entry
 * that is not an address stops the walk at the last address reached, as nginx does.
 */
public final class TrustedProxies {
    /** More hops than any real chain: a header longer than this is not walked further (the last address reached wins). */
    static final int MAX_HOPS = 32;

    private record Range(byte[] network, int prefixBits) {
        boolean contains(byte[] a) {
            if (a.length != network.length) return false;
            int full = prefixBits / 8, rest = prefixBits % 8;
            for (int i = 0; i < full; i++) if (a[i] != network[i]) return false;
            if (rest == 0) return true;
            int mask = 0xff << (8 - rest) & 0xff;
            return (a[full] & mask) == (network[full] & mask);
        }
    }

    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<Range> ranges;

    private TrustedProxies(List<Range> ranges) { this.ranges = ranges; }

    /** A comma list of IPs and CIDRs ("10.0.0.5, 10.1.0.0/16, fd00::/8"); blank: none. Config.Invalid names a bad entry. */
    public static TrustedProxies parse(String list) {
        if (list == null || list.isBlank()) return NONE;
        List<Range> out = new ArrayList<>();
        for (String raw : list.split(",")) {
            String entry = raw.strip();
            if (entry.isEmpty()) continue;
            int slash = entry.indexOf('/');
            InetAddress a = literal(slash < 0 ? entry : entry.substring(0, slash));
            if (a == null) throw new Config.Invalid("TAS_TRUSTED_PROXIES: '" + entry + "' is not an IP address or CIDR");
            int max = a.getAddress().length * 8;
            int bits = max;
            if (slash >= 0) {
                String p = entry.substring(slash + 1);
                bits = p.matches("\\d{1,3}") ? Integer.parseInt(p) : -1;
                if (bits < 0 || bits > max) throw new Config.Invalid("TAS_TRUSTED_PROXIES: '" + entry + "' has a prefix length outside 0.." + max);
            }
            out.add(new Range(a.getAddress(), bits));
        }
        return new TrustedProxies(List.copyOf(out));
    }

    public boolean isEmpty() { return ranges.isEmpty(); }

    boolean trusts(InetAddress a) {
        byte[] bytes = a.getAddress();
        for (Range r : ranges) if (r.contains(bytes)) return true;
        return false;
    }

    /**
     * The client's address as text: the peer itself unless it is a trusted proxy, else the right-to-left walk of
     * forwardedFor (every X-Forwarded-For field value in arrival order; null or empty: none).
     */
    public String clientIp(InetAddress peer, List<String> forwardedFor) {
        if (ranges.isEmpty() || forwardedFor == null || forwardedFor.isEmpty() || !trusts(peer)) return peer.getHostAddress();
        InetAddress client = peer;
        int hops = 0;
        for (int f = forwardedFor.size() - 1; f >= 0; f--) {
            String[] entries = forwardedFor.get(f).split(",", -1);
            for (int i = entries.length - 1; i >= 0; i--) {
                String e = entries[i].strip();
                if (e.isEmpty()) continue; // "a, , b" or a trailing comma: nothing was named there
                InetAddress a = forwardedAddress(e);
                if (a == null || ++hops > MAX_HOPS) return client.getHostAddress();
                client = a;
                if (!trusts(a)) return a.getHostAddress();
            }
        }
        return client.getHostAddress(); // every hop trusted: the leftmost one is as far as the chain goes
    }

    /** One X-Forwarded-For entry: an IPv4 or IPv6 literal, optionally with a port ("1.2.3.4:5", "[::1]:5"); else null. */
    static InetAddress forwardedAddress(String e) {
        if (e.startsWith("[")) {
            int close = e.indexOf(']');
            if (close < 0) return null;
            String after = e.substring(close + 1);
            if (!after.isEmpty() && !(after.startsWith(":") && port(after.substring(1)))) return null;
            return literal(e.substring(1, close));
        }
        int colon = e.indexOf(':');
        if (colon >= 0 && colon == e.lastIndexOf(':')) { // one colon: IPv4 with a port (IPv6 has at least two)
            if (!port(e.substring(colon + 1))) return null;
            InetAddress a = literal(e.substring(0, colon));
            return a instanceof Inet4Address ? a : null;
        }
        return literal(e);
    }

    private static boolean port(String s) {
        return s.matches("\\d{1,5}") && Integer.parseInt(s) <= 65_535;
    }

    /** A strict IP literal, never a DNS lookup; IPv4 only as four dotted decimals, no zone ids. */
    private static InetAddress literal(String s) {
        if (s.isEmpty() || s.length() > 45 || s.indexOf('%') >= 0) return null;
        boolean v6 = s.indexOf(':') >= 0;
        if (!v6 && !s.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) return null;
        try {
            return InetAddress.ofLiteral(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
