package io.tas.admin;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.jobs.Jobs;
import io.tas.store.ChangeFeed;

import java.time.Clock;
import java.time.Duration;

/**
 * Sandbox controls of the admin surface (DESIGN roadmap 9: a clock like Stripe's test clocks): move the service clock
 * forward, and run due jobs now instead of at the next poll. The clock moves only in a sandbox whose clock can move;
 * running due jobs is harmless anywhere (they are due).
 */
public final class SandboxControls {
    /** Ten years: far enough for any scenario, small enough that no time computation overflows. */
    static final long MAX_ADVANCE_MS = 10L * 366 * 24 * 3600 * 1000;

    private final boolean sandbox;
    private final Clock clock;
    private final Jobs jobs;
    private final io.tas.store.Database db;
    private final ChangeFeed changes;
    /** The change-feed topic of an advance: "clock:OFFSET", the offset the advancing node saved. */
    private static final String TOPIC = "clock:";

    /** Empties every table and drops every cache (Provisioning.reset). */
    private final Runnable reset;

    public SandboxControls(boolean sandbox, Clock clock, Jobs jobs, io.tas.store.Database db, ChangeFeed changes, Runnable reset) {
        this.sandbox = sandbox;
        this.reset = reset;
        this.clock = clock;
        this.jobs = jobs;
        this.db = db;
        this.changes = changes;
    }

    /**
     * Keeps a sandbox clock level with the other PostgreSQL nodes on its database: an advance on any node reaches this
     * one through the change feed, and after a (re)connect of the feed the saved offset is read again. Subscribe before
     * the feed starts.
     */
    public static void follow(Clock clock, io.tas.store.Database db, ChangeFeed changes) {
        if (!(clock instanceof SandboxClock sandboxClock)) return;
        changes.subscribe(key -> {
            if (key.startsWith(TOPIC)) sandboxClock.restore(Long.parseLong(key.substring(TOPIC.length())));
            else if (key.equals(ChangeFeed.EVERYTHING)) restore(clock, db);
        });
    }

    /** A sandbox clock takes up where it was before a restart (D55): its offset is saved at every advance. */
    public static void restore(Clock clock, io.tas.store.Database db) {
        if (!(clock instanceof SandboxClock sandboxClock)) return;
        db.read(dsl -> dsl.select(SANDBOX_CLOCK.OFFSET_MILLIS).from(SANDBOX_CLOCK).fetchOptional(SANDBOX_CLOCK.OFFSET_MILLIS))
                .ifPresent(sandboxClock::restore);
    }

    private static final io.tas.store.generated.tables.SandboxClock SANDBOX_CLOCK = io.tas.store.generated.Tables.SANDBOX_CLOCK;

    public record ClockView(String now, boolean adjustable) {}

    public ClockView clock() { return new ClockView(Long.toString(clock.millis()), adjustable()); }

    private boolean adjustable() { return sandbox && clock instanceof AdjustableClock; }

    /**
     * Issue 24 item 3: a reset empties every table, so only a sandbox resets (40017 elsewhere, nothing changed): on a
     * service it would wipe production money with one admin call.
     */
    public void reset() {
        if (!sandbox) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, RESET_REFUSED);
        }
        reset.run();
    }

    public static final String RESET_REFUSED = "a reset empties every table: only a sandbox resets (tas demo, or tas serve --sandbox)";

    /** Refuses (40017) to move the clock outside a sandbox, where the service runs on the system clock. */
    public void checkAdjustable() {
        if (!adjustable()) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED,
                    "the clock can only be moved in a sandbox (tas demo, or tas serve --sandbox); this service runs on the system clock");
        }
    }

    /** Moves the service clock forward by ms (1 ms to 10 years). */
    public ClockView advance(Long ms) {
        checkAdjustable();
        if (ms == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "ms");
        if (ms <= 0 || ms > MAX_ADVANCE_MS) throw new ApiException(ErrorCode.PARAM_ERROR, "ms");
        ((AdjustableClock) clock).advance(Duration.ofMillis(ms));
        if (clock instanceof SandboxClock s) save(s.offsetMillis());
        return clock();
    }

    private void save(long offset) {
        db.tx(tx -> {
            org.jooq.DSLContext dsl = tx.dsl();
            if (dsl.update(SANDBOX_CLOCK).set(SANDBOX_CLOCK.OFFSET_MILLIS, org.jooq.impl.DSL.greatest(SANDBOX_CLOCK.OFFSET_MILLIS, org.jooq.impl.DSL.val(offset)))
                    .where(SANDBOX_CLOCK.ID.eq(1)).execute() == 0) {
                dsl.insertInto(SANDBOX_CLOCK, SANDBOX_CLOCK.ID, SANDBOX_CLOCK.OFFSET_MILLIS).values(1, offset).execute();
            }
            changes.publish(tx, TOPIC + offset); // the other nodes move their clocks on commit
            return null;
        });
    }

    public record RunDueView(int due, int remaining, String now) {}

    public RunDueView runDue() {
        Jobs.RunDue r = jobs.runDue();
        return new RunDueView(r.due(), r.remaining(), Long.toString(clock.millis()));
    }
}
