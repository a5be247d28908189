package io.tas.api;

import io.tas.common.QueryString;
import io.tas.support.RawRequest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Issue 12 item 5: one byte of one part of a signed request flipped (one bit), replaced, inserted or deleted.
 * neutral() names the mutations that leave the signed content as the server reads it unchanged; they are not
 * tampering and are left out of the count (wire facts §1.1-1.2 and HTTP's own rules):
 * <ul>
 * <li>a header value whose change is only leading/trailing whitespace or control bytes: HTTP strips the optional
 *     whitespace around a value and the signature is compared after String.trim();</li>
 * <li>a header name changed only in letter case: header names are case-insensitive (RFC 9110 §5.1);</li>
 * <li>a query whose raw form or percent-decoded, key-sorted form is still the signed string (the two forms the
 *     service accepts, AuthApiTest.queryMaySignRawOrDecodedSorted): e.g. an '&' added at either end or doubled,
 *     a percent-escape's hex digit changed in case;</li>
 * <li>a path with '?' added at its end when the query is empty: "/p?" has the same path and an empty query;</li>
 * <li>a '#' whose fragment (dropped by Helidon) leaves the path and the query as signed: "/p#" with no query,
 *     "/p?q#" (found by this test: the mutation was accepted, and rightly).</li>
 * </ul>
 */
final class OneByteMutation {
    enum Part { KEY, SIGN, TIMESTAMP, PASSPHRASE, HEADER_NAME, PATH, QUERY, BODY }
    enum Op { FLIP, REPLACE, INSERT, DELETE }

    static final String[] CREDENTIAL_HEADERS = {"ACCESS-KEY", "ACCESS-SIGN", "ACCESS-TIMESTAMP", "ACCESS-PASSPHRASE"};

    final Part part;
    final Op op;
    final RawRequest request;
    /** Why the mutation is neutral, or null: it changes what is signed (or who signs). */
    final String neutral;

    private OneByteMutation(Part part, Op op, RawRequest request, String neutral) {
        this.part = part;
        this.op = op;
        this.request = request;
        this.neutral = neutral;
    }

    /** A mutation of base in the given part; signedQuery is the query string the base's signature was computed over. */
    static OneByteMutation of(RawRequest base, String signedQuery, Part part, Random rnd) {
        RawRequest r = base.copy();
        Op op;
        String neutral = null;
        switch (part) {
            case KEY, SIGN, TIMESTAMP, PASSPHRASE -> {
                byte[][] h = header(r, CREDENTIAL_HEADERS[part.ordinal()]);
                byte[] before = h[1];
                op = op(rnd, before.length);
                h[1] = apply(before, op, rnd);
                if (latin1(h[1]).trim().equals(latin1(before))) neutral = "header value: whitespace or control byte at an end";
            }
            case HEADER_NAME -> {
                byte[][] h = header(r, CREDENTIAL_HEADERS[rnd.nextInt(CREDENTIAL_HEADERS.length)]);
                byte[] before = h[0];
                op = op(rnd, before.length);
                h[0] = apply(before, op, rnd);
                if (latin1(h[0]).equalsIgnoreCase(latin1(before))) neutral = "header name: letter case";
            }
            case PATH -> {
                op = op(rnd, r.path.length);
                r.path = apply(r.path, op, rnd);
                neutral = sameTarget(base, r, signedQuery);
            }
            case QUERY -> {
                op = op(rnd, r.query.length);
                r.query = apply(r.query, op, rnd);
                neutral = sameTarget(base, r, signedQuery);
            }
            default -> {
                op = op(rnd, r.body.length);
                r.body = apply(r.body, op, rnd);
            }
        }
        return new OneByteMutation(part, op, r, neutral);
    }

    /**
     * Why the mutated target is the base's as the server reads it, or null: the target cut at a '#' (a fragment, which
     * Helidon drops) and split at the first '?', with the same path and a query the base's signature still covers.
     */
    private static String sameTarget(RawRequest base, RawRequest mutated, String signedQuery) {
        String target = latin1(mutated.path) + (mutated.query == null || mutated.query.length == 0 ? "" : "?" + latin1(mutated.query));
        int hash = target.indexOf('#');
        String cut = hash < 0 ? target : target.substring(0, hash);
        int q = cut.indexOf('?');
        String path = q < 0 ? cut : cut.substring(0, q);
        String query = q < 0 ? "" : new String(cut.substring(q + 1).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        if (!path.equals(latin1(base.path))) return null;
        if (!query.equals(signedQuery) && !signedQuery.equals(decodedSorted(query))) return null;
        return hash >= 0 ? "target: a '#' fragment that leaves path and query as signed"
                : query.isEmpty() ? "target: '?' before an empty query" : "query: same raw or decoded-sorted form";
    }

    /** Whether the request needs its own connection: a byte that may end a line or the head, or a non-ASCII byte. */
    boolean mayBreakFraming() {
        for (byte[][] h : request.headers) if (unsafe(h[0]) || unsafe(h[1])) return true;
        return unsafe(request.path) || request.query != null && unsafe(request.query);
    }

    private static boolean unsafe(byte[] b) {
        for (byte x : b) if (x < 0x21 || x == 0x7f) return true; // negative: 0x80-0xff
        return false;
    }

    private static Op op(Random rnd, int length) {
        return length == 0 ? Op.INSERT : Op.values()[rnd.nextInt(Op.values().length)];
    }

    private static byte[] apply(byte[] in, Op op, Random rnd) {
        int at = rnd.nextInt(op == Op.INSERT ? in.length + 1 : in.length);
        return switch (op) {
            case FLIP -> {
                byte[] out = in.clone();
                out[at] ^= (byte) (1 << rnd.nextInt(8));
                yield out;
            }
            case REPLACE -> {
                byte[] out = in.clone();
                out[at] = (byte) (in[at] + 1 + rnd.nextInt(255)); // any byte but the one there
                yield out;
            }
            case INSERT -> {
                byte[] out = new byte[in.length + 1];
                System.arraycopy(in, 0, out, 0, at);
                out[at] = (byte) rnd.nextInt(256);
                System.arraycopy(in, at, out, at + 1, in.length - at);
                yield out;
            }
            case DELETE -> {
                byte[] out = new byte[in.length - 1];
                System.arraycopy(in, 0, out, 0, at);
                System.arraycopy(in, at + 1, out, at, in.length - at - 1);
                yield out;
            }
        };
    }

    private static byte[][] header(RawRequest r, String name) {
        return r.headers.stream().filter(h -> latin1(h[0]).equalsIgnoreCase(name)).findFirst().orElseThrow();
    }

    private static String latin1(byte[] b) { return new String(b, StandardCharsets.ISO_8859_1); }

    /** The percent-decoded query with its keys sorted, the second form the service verifies (wire facts §1.2); null where it would name other parameters. */
    static String decodedSorted(String rawQuery) { return io.tas.auth.Signature.decodedSortedQuery(rawQuery); }

    @Override
    public String toString() { return part + " " + op + ": " + request.describe() + " " + Arrays.toString(request.headers.stream().map(h -> latin1(h[0]) + "=" + latin1(h[1])).toArray()); }
}
