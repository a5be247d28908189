package io.tas.api;

import io.tas.api.Malformations.Case;
import io.tas.support.RawRequest;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The HTTP-level part of the fuzz: a generated (signed, invalid-if-it-writes) request broken at the protocol level:
 * header injection, duplicated and oversized headers, request smuggling framings, odd request lines, methods and paths.
 * A request whose framing is in question goes on its own connection (Case.oneShot) and every answer to it is checked.
 */
final class HttpGarbage {
    private HttpGarbage() {}

    private static final String[] METHODS = {"PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FOO", "get", "POST"};

    static Case around(Random rnd, Case base, int port) {
        RawRequest r = base.request().copy();
        int pick = rnd.nextInt(16);
        switch (pick) {
            case 0 -> { // a CRLF injected into a header value: a new header line
                byte[][] h = r.headers.get(rnd.nextInt(r.headers.size()));
                h[1] = concat(h[1], bytes(rnd.nextBoolean() ? "\r\nX-Injected: 1" : "\r\nACCESS-KEY: bg_injected"));
                return keepAlive("header-injection", base, r);
            }
            case 1 -> { // a blank line and a second request injected into a header value (smuggling)
                byte[][] h = r.headers.get(rnd.nextInt(r.headers.size()));
                h[1] = concat(h[1], bytes("\r\n\r\nGET /api/v3/account/info HTTP/1.1\r\nHost: x\r\nX-Smuggled: 1"));
                return oneShot("header-smuggling", base, r.bytes(port));
            }
            case 2 -> { // a duplicated credential header with another value
                byte[][] h = r.headers.get(rnd.nextInt(r.headers.size()));
                r.header(h[0].clone(), bytes(rnd.nextBoolean() ? "" : "other-value"));
                return keepAlive("duplicate-header", base, r);
            }
            case 3 -> { // two Content-Lengths that disagree
                r.contentLength = false;
                r.header("Content-Length", Integer.toString(r.body.length)).header("Content-Length", Integer.toString(r.body.length + 1));
                return oneShot("duplicate-content-length", base, r.bytes(port));
            }
            case 4 -> { // Content-Length and chunked together (smuggling), or a broken chunk size
                r.contentLength = false;
                byte[] body = r.body;
                r.body = concat(bytes(rnd.nextBoolean() ? Integer.toHexString(body.length) : "zz"), bytes("\r\n"), body, bytes("\r\n0\r\n\r\n"));
                r.header("Transfer-Encoding", "chunked");
                if (rnd.nextBoolean()) r.header("Content-Length", Integer.toString(body.length));
                return oneShot("chunked-framing", base, r.bytes(port));
            }
            case 5 -> { // a Content-Length shorter than the body: the rest reads as a next request
                r.contentLength = false;
                r.body = concat(r.body, bytes("GARBAGE / HTTP/1.1\r\n\r\n"));
                r.header("Content-Length", Integer.toString(Math.max(0, r.body.length - 22)));
                return oneShot("short-content-length", base, r.bytes(port));
            }
            case 6 -> { // header names that are not tokens, a line without a colon, an obsolete folded line
                String[] bad = {"ACCESS KEY: x", "(bad): x", ": x", "no-colon-here", "X-Fold: a\r\n folded", "ACCESS-KEY : x", "X\u0000: y"};
                return oneShot("bad-header-line", base, insertHeaderLine(r.bytes(port), bytes(bad[rnd.nextInt(bad.length)])));
            }
            case 7 -> { // oversized: one header, many headers, or the request target
                int which = rnd.nextInt(3);
                if (which == 0) r.header("X-Big", "v".repeat(20_000));
                else if (which == 1) for (int i = 0; i < 300; i++) r.header("X-Many-" + i, "v");
                else r.path = concat(r.path, bytes("/" + "p".repeat(20_000)));
                return oneShot("oversized-head", base, r.bytes(port));
            }
            case 8 -> { // another method on a catalog path
                r.method = METHODS[rnd.nextInt(METHODS.length)];
                return keepAlive("method", base, r);
            }
            case 9 -> { // a path next to the catalog's: trailing slash, doubled slash, dot segments, escapes, case
                String p = new String(r.path, StandardCharsets.ISO_8859_1);
                String[] variants = {p + "/", p.replace("/api/", "/api//"), p.replace("/api/", "/api/./"), p.replace("/api/", "/x/../api/"),
                        p.replace("/api/", "/api%2F"), p.toUpperCase(), p + "%00", p + ".json", "/api/v3/nope", p.replace("/v", "/V")};
                r.path = bytes(variants[rnd.nextInt(variants.length)]);
                return keepAlive("path", base, r);
            }
            case 10 -> { // bytes outside ASCII in a header value or name
                byte[][] h = r.headers.get(rnd.nextInt(r.headers.size()));
                int at = rnd.nextInt(h[1].length + 1);
                h[1] = concat(java.util.Arrays.copyOf(h[1], at), new byte[] {(byte) (0x80 + rnd.nextInt(128))}, java.util.Arrays.copyOfRange(h[1], at, h[1].length));
                if (rnd.nextBoolean()) r.header(new byte[] {'X', (byte) 0xc3, (byte) 0xa9}, bytes("v"));
                return oneShot("non-ascii-header", base, r.bytes(port));
            }
            case 11 -> { // odd request lines
                String line = new String(r.bytes(port), StandardCharsets.ISO_8859_1);
                int eol = line.indexOf("\r\n");
                String first = line.substring(0, eol);
                String[] variants = {first.replace(" HTTP/1.1", " HTTP/1.0"), first.replace(" HTTP/1.1", " HTTP/2.0"),
                        first.replace(" HTTP/1.1", ""), first.replace(" /", "  /"), first.replace(" /", " http://127.0.0.1/"),
                        first.replace(" /", " "), first.replace(" HTTP/1.1", " HTTP/1.1 extra"), first.replace(" /", " /\u0000"), "*"};
                String changed = variants[rnd.nextInt(variants.length)] + line.substring(eol);
                return oneShot("request-line", base, changed.getBytes(StandardCharsets.ISO_8859_1));
            }
            case 12 -> { // a body on a GET, or a POST body much larger than the cap
                r.body = bytes(r.method.equals("GET") ? "{\"symbol\":\"BTCUSDT\"}" : "{\"a\":\"" + "x".repeat(300_000) + "\"}");
                return keepAlive("body-size", base, r);
            }
            default -> { // an empty, huge or missing Content-Type, Host or credential header value
                byte[][] h = r.headers.get(rnd.nextInt(r.headers.size()));
                h[1] = bytes(switch (rnd.nextInt(3)) {
                    case 0 -> "";
                    case 1 -> "x".repeat(5000);
                    default -> "\t \t";
                });
                return keepAlive("header-value", base, r);
            }
        }
    }

    private static Case keepAlive(String kind, Case base, RawRequest r) { return new Case("http:" + kind, base.row(), r, null, false); }

    private static Case oneShot(String kind, Case base, byte[] raw) { return new Case("http:" + kind, base.row(), null, raw, true); }

    /** Puts a header line right after the request line. */
    private static byte[] insertHeaderLine(byte[] request, byte[] line) {
        int eol = new String(request, StandardCharsets.ISO_8859_1).indexOf("\r\n") + 2;
        return concat(java.util.Arrays.copyOf(request, eol), line, bytes("\r\n"), java.util.Arrays.copyOfRange(request, eol, request.length));
    }

    static byte[] bytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) b.writeBytes(p);
        return b.toByteArray();
    }
}
