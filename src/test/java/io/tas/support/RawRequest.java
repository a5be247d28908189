package io.tas.support;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One HTTP/1.1 request as bytes, built part by part so a test can change any single byte of any part (method, path,
 * query, a header's name or value, the body) and still frame the rest correctly (Host, Content-Length).
 */
public final class RawRequest {
    public String method;
    public byte[] path;
    /** Without the '?'; null or empty: no query. */
    public byte[] query;
    public final List<byte[][]> headers = new ArrayList<>();
    public byte[] body = new byte[0];
    /** false: no Content-Length header is added (the test frames the body itself). */
    public boolean contentLength = true;

    public RawRequest(String method, String path, String query) {
        this.method = method;
        this.path = path.getBytes(StandardCharsets.UTF_8);
        this.query = query == null ? null : query.getBytes(StandardCharsets.UTF_8);
    }

    public RawRequest header(String name, String value) {
        return header(name.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    public RawRequest header(byte[] name, byte[] value) {
        headers.add(new byte[][] {name, value});
        return this;
    }

    public RawRequest body(byte[] b) {
        body = b;
        return this;
    }

    /** ACCESS-* headers signed over timestamp + method + path + ["?" + query] + body, byte for byte (wire facts §1.1). */
    public RawRequest sign(Credentials c, long timestamp) {
        return sign(c, timestamp, query == null ? "" : new String(query, StandardCharsets.UTF_8));
    }

    /** As sign(c, timestamp), with the prehash taking signedQuery in place of the query sent (ccxt's decoded-sorted form). */
    public RawRequest sign(Credentials c, long timestamp, String signedQuery) {
        String ts = Long.toString(timestamp);
        String prehash = ts + method + new String(path, StandardCharsets.UTF_8) + (signedQuery.isEmpty() ? "" : "?" + signedQuery);
        return header("ACCESS-KEY", c.key()).header("ACCESS-SIGN", hmac(c.secret(), prehash, body))
                .header("ACCESS-TIMESTAMP", ts).header("ACCESS-PASSPHRASE", c.passphrase());
    }

    public static String hmac(String secret, String prehash, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(prehash.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A deep copy, to mutate one part of it. */
    public RawRequest copy() {
        RawRequest r = new RawRequest(method, "", null);
        r.path = path.clone();
        r.query = query == null ? null : query.clone();
        for (byte[][] h : headers) r.headers.add(new byte[][] {h[0].clone(), h[1].clone()});
        r.body = body.clone();
        r.contentLength = contentLength;
        return r;
    }

    public byte[] bytes(int port) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(256 + body.length);
        b.writeBytes(method.getBytes(StandardCharsets.ISO_8859_1));
        b.write(' ');
        b.writeBytes(path);
        if (query != null && query.length > 0) {
            b.write('?');
            b.writeBytes(query);
        }
        b.writeBytes((" HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[][] h : headers) {
            b.writeBytes(h[0]);
            b.writeBytes(": ".getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(h[1]);
            b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        if (contentLength && (body.length > 0 || method.equals("POST"))) {
            b.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(body);
        return b.toByteArray();
    }

    /** A short readable form for failure messages. */
    public String describe() {
        String q = query == null || query.length == 0 ? "" : "?" + new String(query, StandardCharsets.ISO_8859_1);
        String s = method + " " + new String(path, StandardCharsets.ISO_8859_1) + q + " body=" + new String(body, StandardCharsets.ISO_8859_1);
        return s.length() > 400 ? s.substring(0, 400) + "...(" + s.length() + " chars)" : s;
    }
}
