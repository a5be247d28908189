package io.tas.admin.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's sessions (D201): opened by the admin token (compared in constant time), kept in this node's memory
 * only, ended by logout, by IDLE without a request or by MAX_AGE after login. At most MAX_SESSIONS live at once; a
 * login past that drops the least recently used. Times are the machine's clock, never the sandbox clock (a frozen or
 * advanced sandbox clock must not sign an operator out or keep a session alive).
 */
final class Sessions {
    static final Duration IDLE = Duration.ofMinutes(30);
    static final Duration MAX_AGE = Duration.ofHours(12);
    static final int MAX_SESSIONS = 100;

    private final byte[] token;
    private final Clock machine;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> live = new ConcurrentHashMap<>();

    Sessions(String token, Clock machine) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.machine = machine;
    }

    /** A new session when given is the admin token, else empty (the caller answers 401, no cookie). */
    Optional<Session> login(String given) {
        byte[] g = given == null ? new byte[0] : given.getBytes(StandardCharsets.UTF_8);
        if (token.length == 0 || !MessageDigest.isEqual(g, token)) return Optional.empty();
        long now = machine.millis();
        expire(now);
        while (live.size() >= MAX_SESSIONS) {
            live.values().stream().min(java.util.Comparator.comparingLong(Session::lastSeen)).ifPresent(s -> live.remove(s.id()));
        }
        Session s = new Session(randomHex(), randomHex(), now);
        live.put(s.id(), s);
        return Optional.of(s);
    }

    /** The live session of this cookie value, touched; empty when unknown or expired. */
    Optional<Session> find(String id) {
        if (id == null || id.isEmpty()) return Optional.empty();
        Session s = live.get(id);
        if (s == null) return Optional.empty();
        long now = machine.millis();
        if (expired(s, now)) {
            live.remove(id, s);
            return Optional.empty();
        }
        s.touch(now);
        return Optional.of(s);
    }

    void logout(Session s) { live.remove(s.id(), s); }

    /** Whether the form's token is the session's (constant time). */
    static boolean csrfMatches(Session s, String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), s.csrf().getBytes(StandardCharsets.UTF_8));
    }

    int size() { return live.size(); }

    private void expire(long now) { live.values().removeIf(s -> expired(s, now)); }

    private static boolean expired(Session s, long now) {
        return now - s.lastSeen() > IDLE.toMillis() || now - s.createdAt() > MAX_AGE.toMillis();
    }

    private String randomHex() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
