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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds freshly signed requests (new timestamp + signature for every call). One instance per connection.
 * A POST body is a template: each "{n}" in it becomes the next value of the cycle from..to (from, from+1, ..., to,
 * from, ...), so consecutive requests of one connection always send different values; each "{alt}" becomes the next of
 * the --alt values ("|"-separated, cycling per request), e.g. a buy and then a sell.
 */
final class SignedRequests {
    static final AsciiString ACCESS_KEY = AsciiString.cached("ACCESS-KEY");
    static final AsciiString ACCESS_SIGN = AsciiString.cached("ACCESS-SIGN");
    static final AsciiString ACCESS_TIMESTAMP = AsciiString.cached("ACCESS-TIMESTAMP");
    static final AsciiString ACCESS_PASSPHRASE = AsciiString.cached("ACCESS-PASSPHRASE");

    /**
     * What to send: method, request target (incl. optional "?query", signed exactly as sent), body template, and the
     * cursors (lines of --cursor-file) that replace "{cursor}" in the target, the next one per request, cycling.
     */
    record Spec(HttpMethod method, String path, String bodyTemplate, int from, int to, List<String> cursors, List<String> alts) {
        Spec(HttpMethod method, String path, String bodyTemplate, int from, int to, List<String> cursors) {
            this(method, path, bodyTemplate, from, to, cursors, List.of());
        }

        Spec {
            if (bodyTemplate.contains("{alt}") == alts.isEmpty()) {
                throw new IllegalArgumentException("--alt and an {alt} in --body go together");
            }
            if (to < from) throw new IllegalArgumentException("--n-to must be >= --n-from");
            if (path.contains("{cursor}") == cursors.isEmpty()) {
                throw new IllegalArgumentException("--cursor-file and a {cursor} in --path go together");
            }
        }

        static Spec from(Args a, String defaultPath) throws IOException {
            String file = a.str("cursor-file", null);
            List<String> cursors = file == null ? List.of()
                    : Files.readAllLines(Path.of(file)).stream().map(String::trim).filter(l -> !l.isEmpty()).toList();
            if (file != null && cursors.isEmpty()) throw new IllegalArgumentException("--cursor-file " + file + " is empty");
            return new Spec(HttpMethod.valueOf(a.str("method", "GET")), a.str("path", defaultPath), a.str("body", ""),
                    a.integer("n-from", 2), a.integer("n-to", 20), cursors, alts(a.str("alt", null)));
        }

        private static List<String> alts(String flag) {
            return flag == null ? List.of() : List.of(flag.split("\\|", -1));
        }

        /**
         * The request target of the request with sequence number seq: "{cursor}" becomes the next cursor, and "{n}"
         * the value of the n-from..n-to cycle, as in a body (e.g. "idLessThan={n}000000000").
         */
        String path(long seq) {
            String p = cursors.isEmpty() ? path : path.replace("{cursor}", cursors.get((int) (seq % cursors.size())));
            return p.contains("{n}") ? p.replace("{n}", Long.toString(from + seq % (to - from + 1))) : p;
        }

        /** The body of the request with sequence number seq (0, 1, ...). */
        String body(long seq) {
            String b = bodyTemplate.replace("{n}", Long.toString(from + seq % (to - from + 1)));
            return alts.isEmpty() ? b : b.replace("{alt}", alts.get((int) (seq % alts.size())));
        }
    }

    private final Credentials creds;
    private final Signer signer;
    private final String hostHeader;
    private final Spec spec;
    private long seq;

    SignedRequests(Credentials creds, String host, int port, Spec spec) {
        this.creds = creds;
        this.signer = new Signer(creds.secret());
        this.hostHeader = host + ":" + port;
        this.spec = spec;
    }

    SignedRequests(Credentials creds, String host, int port, Spec spec, long firstSeq) {
        this(creds, host, port, spec);
        this.seq = firstSeq;
    }

    FullHttpRequest next() {
        String ts = Long.toString(System.currentTimeMillis());
        String method = spec.method().name();
        String path = spec.path(seq);
        String body = spec.bodyTemplate().isEmpty() ? "" : spec.body(seq);
        seq++;
        String sign = signer.sign(ts, method, path, body);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, spec.method(), path,
                bytes.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
        HttpHeaders h = req.headers();
        h.set(HttpHeaderNames.HOST, hostHeader);
        h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        h.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        if (bytes.length > 0 || spec.method() != HttpMethod.GET) {
            h.setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        }
        h.set(ACCESS_KEY, creds.key());
        h.set(ACCESS_SIGN, sign);
        h.set(ACCESS_TIMESTAMP, ts);
        h.set(ACCESS_PASSPHRASE, creds.passphrase());
        return req;
    }
}
