package io.tas.bench;

/** API credentials used for signing. Defaults are the fixed demo account seeded by `serve --seed demo`. */
record Credentials(String key, String secret, String passphrase) {
    static final String DEMO_KEY = "bg_demo00000000000000000000000001";
    static final String DEMO_SECRET = "demo-secret-main-rw-0000000000000001";
    static final String DEMO_PASSPHRASE = "DemoPass1";

    static Credentials from(Args a) {
        return new Credentials(
                a.str("api-key", DEMO_KEY),
                a.str("api-secret", DEMO_SECRET),
                a.str("api-passphrase", DEMO_PASSPHRASE));
    }
}
