package io.tas.admin.console;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** D201: a console session opens only with the admin token and ends when idle, when too old, at logout, or when crowded out. */
class ConsoleSessionsTest {
    /** A clock the test moves. */
    private static final class Moving extends Clock {
        long now = 1_767_571_200_000L;

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }

        @Override public Clock withZone(java.time.ZoneId zone) { return this; }

        @Override public Instant instant() { return Instant.ofEpochMilli(now); }

        void move(Duration d) { now += d.toMillis(); }
    }

    private final Moving clock = new Moving();
    private final Sessions sessions = new Sessions("a-long-admin-token", clock);

    @Test
    void onlyTheTokenOpensASessionAndItsIdsAreFresh() {
        assertThat(sessions.login(null)).isEmpty();
        assertThat(sessions.login("")).isEmpty();
        assertThat(sessions.login("a-long-admin-toke")).isEmpty();
        assertThat(sessions.login("a-long-admin-token ")).isEmpty();
        Session a = sessions.login("a-long-admin-token").orElseThrow();
        Session b = sessions.login("a-long-admin-token").orElseThrow();
        assertThat(a.id()).hasSize(64).isNotEqualTo(b.id()).isNotEqualTo(a.csrf());
        assertThat(sessions.find(a.id())).containsSame(a);
        assertThat(sessions.find(a.csrf())).isEmpty();
        assertThat(Sessions.csrfMatches(a, a.csrf())).isTrue();
        assertThat(Sessions.csrfMatches(a, b.csrf())).isFalse();
        assertThat(Sessions.csrfMatches(a, null)).isFalse();
        sessions.logout(a);
        assertThat(sessions.find(a.id())).isEmpty();
        assertThat(sessions.find(b.id())).containsSame(b);
    }

    @Test
    void anIdleSessionEndsAndAUsedOneLastsUntilItsMaximumAge() {
        Session idle = sessions.login("a-long-admin-token").orElseThrow();
        Session used = sessions.login("a-long-admin-token").orElseThrow();
        clock.move(Sessions.IDLE.minusSeconds(1));
        assertThat(sessions.find(used.id())).isPresent();
        clock.move(Duration.ofSeconds(2));
        assertThat(sessions.find(idle.id())).isEmpty();
        for (long spent = Sessions.IDLE.toMillis() + 1_000; spent + Sessions.IDLE.toMillis() / 2 <= Sessions.MAX_AGE.toMillis();
             spent += Sessions.IDLE.toMillis() / 2) {
            clock.move(Sessions.IDLE.dividedBy(2));
            assertThat(sessions.find(used.id())).as("after %d ms", spent).isPresent();
        }
        clock.move(Sessions.IDLE.dividedBy(2));
        assertThat(sessions.find(used.id())).isEmpty();
    }

    @Test
    void pastTheLimitALoginDropsTheLeastRecentlyUsedSession() {
        Session first = sessions.login("a-long-admin-token").orElseThrow();
        clock.move(Duration.ofSeconds(1));
        Session second = sessions.login("a-long-admin-token").orElseThrow();
        for (int i = 2; i < Sessions.MAX_SESSIONS; i++) {
            clock.move(Duration.ofMillis(10));
            sessions.login("a-long-admin-token").orElseThrow();
        }
        clock.move(Duration.ofSeconds(1));
        assertThat(sessions.find(first.id())).isPresent(); // used just now: second is now the least recently used
        assertThat(sessions.login("a-long-admin-token")).isPresent();
        assertThat(sessions.size()).isEqualTo(Sessions.MAX_SESSIONS);
        assertThat(sessions.find(second.id())).isEmpty();
        assertThat(sessions.find(first.id())).isPresent();
    }
}
