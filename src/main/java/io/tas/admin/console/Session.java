package io.tas.admin.console;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A signed-in console session, in memory only. id travels in the cookie; csrf in every form of the session's pages.
 * A notice waits for the next page; a created key's secret waits for the one page that shows it (D202).
 */
final class Session {
    /** A key just created: its secret is shown once, by the first GET of its page, and then forgotten. */
    record CreatedSecret(String accessKey, long uid, String secret) {}

    private final String id;
    private final String csrf;
    private final long createdAt;
    private volatile long lastSeen;
    private final AtomicReference<String> notice = new AtomicReference<>();
    private final AtomicReference<CreatedSecret> secret = new AtomicReference<>();

    Session(String id, String csrf, long now) {
        this.id = id;
        this.csrf = csrf;
        this.createdAt = now;
        this.lastSeen = now;
    }

    String id() { return id; }

    String csrf() { return csrf; }

    long createdAt() { return createdAt; }

    long lastSeen() { return lastSeen; }

    void touch(long now) { lastSeen = now; }

    void notice(String text) { notice.set(text); }

    /** The waiting notice, once. */
    String takeNotice() { return notice.getAndSet(null); }

    void secret(CreatedSecret s) { secret.set(s); }

    /** The waiting secret if it is accessKey's, once: a reload finds nothing. */
    CreatedSecret takeSecret(String accessKey) {
        CreatedSecret s = secret.get();
        return s != null && s.accessKey().equals(accessKey) && secret.compareAndSet(s, null) ? s : null;
    }
}
