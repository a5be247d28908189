package io.tas.auth;

import java.util.List;
import java.util.Set;

/** An API key's public facts. The secret and passphrase never live in this record. */
public record ApiKey(
        String accessKey,
        long uid,
        String label,
        PermType permType,
        Set<Permission> permissions,
        List<String> ips,
        long createdTime,
        boolean revoked) {

    /** §2.2 permType. */
    public enum PermType {
        READ_ONLY("read-only"), READ_AND_WRITE("read-and-write");

        private final String wire;

        PermType(String wire) { this.wire = wire; }

        public String wire() { return wire; }

        public static PermType fromWire(String s) {
            for (PermType p : values()) if (p.wire.equals(s)) return p;
            throw new IllegalArgumentException(s);
        }
    }

    /** §2.2 ips: comma separated. */
    public String ipsWire() { return String.join(",", ips); }
}
