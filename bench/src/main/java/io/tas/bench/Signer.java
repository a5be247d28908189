package io.tas.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Bitget V3 request signing: ACCESS-SIGN = Base64(HMAC-SHA256(secret, timestamp + METHOD + path[?query] + body)).
 * Not thread-safe (holds a Mac); use one instance per connection.
 */
final class Signer {
    private final Mac mac;
    private final Base64.Encoder b64 = Base64.getEncoder();

    Signer(String secret) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    String sign(String timestamp, String method, String requestPath, String body) {
        String prehash = timestamp + method + requestPath + (body == null ? "" : body);
        byte[] sig = mac.doFinal(prehash.getBytes(StandardCharsets.UTF_8));
        return b64.encodeToString(sig);
    }
}
