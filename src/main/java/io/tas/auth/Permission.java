package io.tas.auth;

/** §5 permission names a key may carry, and what a catalog row demands. */
public enum Permission {
    NONE(""),
    UTA_MGT("uta_mgt"),
    UTA_TRADE("uta_trade"),
    WITHDRAW("withdraw"),
    COPY_FUTURES_POSITION("copy_futures_position"),
    COPY_FUTURES_ORDER("copy_futures_order");

    private final String wire;

    Permission(String wire) { this.wire = wire; }

    public String wire() { return wire; }

    public static Permission fromWire(String s) {
        for (Permission p : values()) if (p != NONE && p.wire.equals(s)) return p;
        throw new IllegalArgumentException(s);
    }
}
