package io.tas.support;

/** The demo seed's keys (src/main/resources/seeds/demo.yaml), as documented in the README. */
public record Credentials(String key, String secret, String passphrase) {
    public static final Credentials MAIN_RW = new Credentials("bg_demo00000000000000000000000001", "demo-secret-main-rw-0000000000000001", "DemoPass1");
    public static final Credentials MAIN_RO = new Credentials("bg_demo00000000000000000000000002", "demo-secret-main-ro-0000000000000002", "DemoPass2");
    public static final Credentials MAIN_IP = new Credentials("bg_demo00000000000000000000000003", "demo-secret-main-ip-0000000000000003", "DemoPass3");
    public static final Credentials SUB = new Credentials("bg_demo00000000000000000000000004", "demo-secret-sub1-0000000000000004", "DemoPass4");
    /** The classic sub-account 1000000005. */
    public static final Credentials CLASSIC = new Credentials("bg_demo00000000000000000000000005", "demo-secret-classic-0000000000000005", "DemoPass5");

    public Credentials withSecret(String s) { return new Credentials(key, s, passphrase); }
    public Credentials withPassphrase(String p) { return new Credentials(key, secret, p); }
    public Credentials withKey(String k) { return new Credentials(k, secret, passphrase); }
}
