package io.tas.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tas.http.Json;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 28 item 3 (D191), like WireMock's request journal: the last N requests and WebSocket frames of each API key
 * (public calls under the key ""), with what the client sent and what it got, so a test can assert afterwards what its
 * client did. Secrets are redacted before anything is kept: the signature and passphrase headers, and any body field
 * named like a secret. Off unless TAS_JOURNAL is on (the demo turns it on); a reset empties it.
 */
public final class RequestJournal {
    /** At most this many keys are kept; the key written longest ago goes first. */
    static final int MAX_KEYS = 1_000;
    /** And at most this many characters of bodies and headers in all (about 64 MB): the keys written longest ago go. */
    static final long MAX_CHARS = 32L << 20;
    static final int MAX_BODY_CHARS = 16_384;
    private static final Set<String> SECRET_HEADERS = Set.of("access-sign", "access-passphrase", "authorization", "cookie");
    private static final Set<String> SECRET_FIELDS = Set.of("passphrase", "sign", "secret", "secretkey", "password");
    static final String REDACTED = "***";

    /**
     * One request or frame. time: the sandbox clock; seq: the order it was recorded in (ascending). kind: rest or ws.
     * status and code: the HTTP status and the envelope's code (ws: the event's code, or null). fault: the id of the fault
     * rule that fired, or null.
     */
    public record Entry(long seq, long time, String kind, String apiKey, String method, String path, String query,
                        Map<String, String> headers, String body, Integer status, String code, long tookMs, String fault) {}

    /** A query: each field null for "any"; path may hold '*'. */
    public record Filter(String apiKey, String kind, String method, String path, Long since, Long until, Long afterSeq, Integer limit) {}

    private final boolean enabled;
    private final int perKey;
    private final Clock clock;
    private final AtomicLong seq = new AtomicLong();
    private final LinkedHashMap<String, ArrayDeque<Entry>> byKey = new LinkedHashMap<>(16, 0.75f, true);
    private long chars;

    public RequestJournal(boolean enabled, int perKey, Clock clock) {
        this.enabled = enabled;
        this.perKey = perKey;
        this.clock = clock;
    }

    public boolean enabled() { return enabled; }

    /** Keeps a request or frame (when the journal is on); headers are redacted here, the body by {@link #redactBody}. */
    public void record(String kind, String apiKey, String method, String path, String query, Map<String, String> headers,
                       byte[] body, Integer status, String code, long tookMs, String fault) {
        if (!enabled) return;
        Map<String, String> kept = new LinkedHashMap<>();
        headers.forEach((k, v) -> kept.put(k, SECRET_HEADERS.contains(k.toLowerCase(java.util.Locale.ROOT)) ? REDACTED : v));
        String text = body == null || body.length == 0 ? "" : redactBody(new String(body, StandardCharsets.UTF_8));
        String key = apiKey == null ? "" : apiKey;
        synchronized (byKey) {
            Entry e = new Entry(seq.incrementAndGet(), clock.millis(), kind, key, method, path, query == null ? "" : query,
                    kept, text, status, code, tookMs, fault);
            ArrayDeque<Entry> q = byKey.computeIfAbsent(key, k -> new ArrayDeque<>());
            q.addLast(e);
            chars += size(e);
            if (q.size() > perKey) chars -= size(q.removeFirst());
            while (byKey.size() > MAX_KEYS || (chars > MAX_CHARS && byKey.size() > 1)) {
                Iterator<Map.Entry<String, ArrayDeque<Entry>>> eldest = byKey.entrySet().iterator();
                for (Entry gone : eldest.next().getValue()) chars -= size(gone);
                eldest.remove();
            }
        }
    }

    private static long size(Entry e) {
        long n = e.body().length() + e.path().length() + e.query().length();
        for (var h : e.headers().entrySet()) n += h.getKey().length() + h.getValue().length();
        return n;
    }

    /** The body with every secret-named field (at any depth) replaced, cut at MAX_BODY_CHARS; a non-JSON body as sent. */
    static String redactBody(String body) {
        String cut = body.length() > MAX_BODY_CHARS ? body.substring(0, MAX_BODY_CHARS) : body;
        String lower = cut.toLowerCase(java.util.Locale.ROOT);
        if (SECRET_FIELDS.stream().noneMatch(lower::contains)) return cut;
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            redact(n);
            return Json.MAPPER.writeValueAsString(n);
        } catch (Exception e) {
            return REDACTED; // a secret-looking text we cannot parse is not kept at all
        }
    }

    private static void redact(JsonNode n) {
        if (n instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String f : names) {
                if (SECRET_FIELDS.contains(f.toLowerCase(java.util.Locale.ROOT))) o.put(f, REDACTED);
                else redact(o.get(f));
            }
        } else if (n != null && n.isArray()) {
            n.forEach(RequestJournal::redact);
        }
    }

    /** Entries matching the filter, oldest first, at most limit (default 100, at most 1,000): the newest ones. */
    public List<Entry> find(Filter f) {
        int limit = f.limit() == null ? 100 : Math.max(1, Math.min(1_000, f.limit()));
        java.util.regex.Pattern path = f.path() == null ? null : Glob.compile(f.path());
        List<Entry> out = new ArrayList<>();
        synchronized (byKey) {
            for (var e : byKey.entrySet()) {
                if (f.apiKey() != null && !f.apiKey().equals(e.getKey())) continue;
                for (Entry x : e.getValue()) {
                    if (f.kind() != null && !f.kind().equals(x.kind())) continue;
                    if (f.method() != null && !f.method().equalsIgnoreCase(String.valueOf(x.method()))) continue;
                    if (path != null && !path.matcher(x.path()).matches()) continue;
                    if (f.since() != null && x.time() < f.since()) continue;
                    if (f.until() != null && x.time() > f.until()) continue;
                    if (f.afterSeq() != null && x.seq() <= f.afterSeq()) continue;
                    out.add(x);
                }
            }
        }
        out.sort(Comparator.comparingLong(Entry::seq));
        return out.size() > limit ? List.copyOf(out.subList(out.size() - limit, out.size())) : out;
    }

    /** Empties it; seq starts at 1 again (a suite that clears sees the same numbers every run). */
    public void clear() {
        synchronized (byKey) {
            byKey.clear();
            chars = 0;
            seq.set(0);
        }
    }
}
