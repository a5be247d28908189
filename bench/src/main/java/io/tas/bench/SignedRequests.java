package io.tas.bench;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;

/** Builds freshly signed GET requests (new timestamp + signature for every call). One instance per connection. */
final class SignedRequests {
    static final AsciiString ACCESS_KEY = AsciiString.cached("ACCESS-KEY");
    static final AsciiString ACCESS_SIGN = AsciiString.cached("ACCESS-SIGN");
    static final AsciiString ACCESS_TIMESTAMP = AsciiString.cached("ACCESS-TIMESTAMP");
    static final AsciiString ACCESS_PASSPHRASE = AsciiString.cached("ACCESS-PASSPHRASE");

    private final Credentials creds;
    private final Signer signer;
    private final String hostHeader;
    private final String path; // request target incl. optional "?query"; signed exactly as sent

    SignedRequests(Credentials creds, String host, int port, String path) {
        this.creds = creds;
        this.signer = new Signer(creds.secret());
        this.hostHeader = host + ":" + port;
        this.path = path;
    }

    FullHttpRequest nextGet() {
        String ts = Long.toString(System.currentTimeMillis());
        String sign = signer.sign(ts, "GET", path, "");
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path, Unpooled.EMPTY_BUFFER);
        HttpHeaders h = req.headers();
        h.set(HttpHeaderNames.HOST, hostHeader);
        h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        h.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        h.set(ACCESS_KEY, creds.key());
        h.set(ACCESS_SIGN, sign);
        h.set(ACCESS_TIMESTAMP, ts);
        h.set(ACCESS_PASSPHRASE, creds.passphrase());
        return req;
    }
}
