package io.tas.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * The keys to sign with: every line of --credentials-file ("accessKey secret passphrase [uid]", as written by
     * `provision`), or the one key of the --api-* flags (default: the demo key). Connection i signs with key i mod n.
     */
    static List<Credentials> all(Args a) throws IOException {
        String file = a.str("credentials-file", null);
        if (file == null) {
            return List.of(from(a));
        }
        List<Credentials> out = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(file))) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && !f[0].startsWith("#")) {
                out.add(new Credentials(f[0], f[1], f[2]));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--credentials-file " + file + " holds no \"key secret passphrase\" line");
        }
        return out;
    }

    /** One line of a credentials file. */
    String line(String uid) {
        return key + " " + secret + " " + passphrase + " " + uid;
    }
}
