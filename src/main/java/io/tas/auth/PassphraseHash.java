package io.tas.auth;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/** Salted PBKDF2 hashes of API passphrases. Slow on purpose; ApiKeyService caches a fast check after the first match. */
public final class PassphraseHash {
    private static final int ITERATIONS = 20_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PassphraseHash() {}

    public static String newSalt() {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return Base64.getEncoder().encodeToString(salt);
    }

    public static String hash(String passphrase, String salt) {
        try {
            PBEKeySpec spec = new PBEKeySpec(passphrase.toCharArray(), Base64.getDecoder().decode(salt), ITERATIONS, 256);
            byte[] h = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            return Base64.getEncoder().encodeToString(h);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static boolean matches(String passphrase, String salt, String expectedHash) {
        return MessageDigest.isEqual(hash(passphrase, salt).getBytes(), expectedHash.getBytes());
    }
}
