package io.tas.auth;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import io.tas.common.QueryString;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * ACCESS-SIGN as the platform computes it (wire facts §1.1): Base64(HMAC-SHA256(secret,
 * timestamp + METHOD + path + ["?" + query] + body)). Clients differ in how they put the query into
 * the prehash (§1.2): bitget-api signs the query exactly as it sends it (encoded), ccxt signs its parameters
 * decoded with keys sorted and sends them encoded. So a request verifies over the raw query as sent, or over
 * {@link #decodedSortedQuery} when that form names the same parameters. The body is always the exact bytes received.
 */
public final class Signature {
    private final Mac prototype;

    public Signature(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            this.prototype = mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Signs like a client does; used by the CLI's `call` and by tests. */
    public static String sign(String secret, String timestamp, String method, String path, String query, String body) {
        return Base64.getEncoder().encodeToString(new Signature(secret).mac(prehash(timestamp, method, path, query), body.getBytes(StandardCharsets.UTF_8)));
    }

    public boolean verify(String signatureB64, String timestamp, String method, String rawPath, String rawQuery, byte[] body) {
        // Compared as canonical Base64 text, so no two spellings of one digest both pass.
        byte[] given = signatureB64.trim().getBytes(StandardCharsets.US_ASCII);
        if (MessageDigest.isEqual(given, base64(mac(prehash(timestamp, method, rawPath, rawQuery), body)))) return true;
        String sorted = decodedSortedQuery(rawQuery);
        return sorted != null && !sorted.equals(rawQuery == null ? "" : rawQuery)
                && MessageDigest.isEqual(given, base64(mac(prehash(timestamp, method, rawPath, sorted), body)));
    }

    private static byte[] base64(byte[] digest) { return Base64.getEncoder().encode(digest); }

    static String prehash(String timestamp, String method, String path, String query) {
        // §1.1: an empty query puts no '?' into the prehash.
        return query == null || query.isEmpty() ? timestamp + method + path : timestamp + method + path + "?" + query;
    }

    /**
     * The second prehash form (ccxt's): the parameters exactly as the handler reads them (QueryString.decode), keys
     * sorted (stably, so repeated keys keep their order and the first still wins), joined without encoding. Null when
     * that string, read as a query, names other parameters: a key or value holding '&', a key holding '=', or a '%xx'
     * or '+' that decoding would change. `?a=1%26b%3D2` (a = "1&b=2") would otherwise verify with the signature of
     * `?a=1&b=2`. A signed string therefore always means one parameter list, whichever form it verified in.
     */
    public static String decodedSortedQuery(String rawQuery) {
        List<QueryString.Pair> pairs = new ArrayList<>(QueryString.decode(rawQuery));
        pairs.sort(Comparator.comparing(QueryString.Pair::key));
        StringBuilder sb = new StringBuilder();
        for (QueryString.Pair p : pairs) {
            if (!sb.isEmpty()) sb.append('&');
            sb.append(p.key()).append('=').append(p.value());
        }
        String joined = sb.toString();
        return QueryString.decode(joined).equals(pairs) ? joined : null;
    }

    private byte[] mac(String prehash, byte[] body) {
        try {
            Mac mac = (Mac) prototype.clone();
            mac.update(prehash.getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }
}
