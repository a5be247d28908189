package io.tas.admin;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.jobs.Jobs;
import io.tas.sandbox.Faults;
import io.tas.sandbox.RequestJournal;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.store.Snapshots;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The sandbox controls of the admin surface (issue 28; DESIGN roadmap 9): the clock (freeze, set, advance, resume, like
 * Stripe's test clocks), due jobs, reset, snapshots, fault rules and the request journal. Everything but reading the
 * clock and running due jobs (harmless anywhere: they are due) is refused outside a sandbox (40017, nothing changed).
 */
public final class SandboxControls {
    /** Ten years: far enough for any scenario, small enough that no time computation overflows. */
    static final long MAX_ADVANCE_MS = 10L * 366 * 24 * 3600 * 1000;
    /** The earliest instant the clock may be set to: the epoch of IDs (2024-01-01), below which no ID can be minted. */
    static final long EARLIEST = 1704067200000L;
    /** The change-feed topic of a clock change: the other nodes read the saved state again. */
    private static final String TOPIC = "clock";
    private static final io.tas.store.generated.tables.SandboxClock SANDBOX_CLOCK = io.tas.store.generated.Tables.SANDBOX_CLOCK;

    /** The parts a sandbox controls besides the clock. */
    public record Parts(IdGenerator ids, Snapshots snapshots, Faults faults, RequestJournal journal, Runnable invalidateCaches) {}

    private final boolean sandbox;
    private final Clock clock;
    private final Jobs jobs;
    private final Database db;
    private final ChangeFeed changes;
    /** Empties every table and drops every cache (Provisioning.reset). */
    private final Runnable reset;
    private final Parts parts;

    public SandboxControls(boolean sandbox, Clock clock, Jobs jobs, Database db, ChangeFeed changes, Runnable reset, Parts parts) {
        this.sandbox = sandbox;
        this.reset = reset;
        this.clock = clock;
        this.jobs = jobs;
        this.db = db;
        this.changes = changes;
        this.parts = parts;
    }

    /**
     * Keeps a sandbox clock level with the other PostgreSQL nodes on its database: a change on any node reaches this
     * one through the change feed, and after a (re)connect of the feed the saved state is read again. Subscribe before
     * the feed starts.
     */
    public static void follow(Clock clock, Database db, ChangeFeed changes) {
        if (!(clock instanceof SandboxClock)) return;
        changes.subscribe(key -> {
            if (key.equals(TOPIC) || key.equals(ChangeFeed.EVERYTHING)) restore(clock, db);
        });
    }

    /** A sandbox clock takes up the state saved at its last change (D55, D188), here at start or from another node. */
    public static void restore(Clock clock, Database db) {
        if (!(clock instanceof SandboxClock sandboxClock)) return;
        // Under the clock's lock, as every change here: a notice of an earlier change read between a later change's
        // move and its commit would set the clock back to the earlier state.
        synchronized (sandboxClock) {
            db.read(dsl -> dsl.selectFrom(SANDBOX_CLOCK).where(SANDBOX_CLOCK.ID.eq(1)).fetchOptional())
                    .ifPresent(r -> sandboxClock.restore(new SandboxClock.State(r.getOffsetMillis(), r.getFrozenAt(), r.getAdvancedMillis())));
        }
    }

    // ---- the clock

    public record ClockView(String now, boolean adjustable, boolean frozen) {}

    public ClockView clock() {
        boolean frozen = clock instanceof SandboxClock s && s.state().frozen();
        return new ClockView(Long.toString(clock.millis()), adjustable(), frozen);
    }

    /** A test's clock may only advance (AdjustableClock); the sandbox's also freezes, sets and resumes. */
    private boolean adjustable() { return sandbox && clock instanceof AdjustableClock; }

    /** Refuses (40017) to move the clock outside a sandbox, where the service runs on the system clock. */
    public void checkAdjustable() {
        if (!adjustable()) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED,
                    "the clock can only be moved in a sandbox (tas demo, or tas serve --sandbox); this service runs on the system clock");
        }
    }

    /** Moves the service clock forward by ms (1 ms to 10 years), frozen or not. */
    public ClockView advance(Long ms) {
        checkAdjustable();
        if (ms == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "ms");
        if (ms <= 0 || ms > MAX_ADVANCE_MS) throw new ApiException(ErrorCode.PARAM_ERROR, "ms");
        if (!(clock instanceof SandboxClock)) {
            ((AdjustableClock) clock).advance(Duration.ofMillis(ms));
            return clock();
        }
        return change(s -> s.advance(Duration.ofMillis(ms)));
    }

    /** Stops the clock at the instant at (epoch ms), or where it is when at is null. */
    public ClockView freeze(Long at) {
        checkAdjustable();
        if (at != null) checkInstant(at);
        return change(s -> s.freeze(at));
    }

    /** Sets the clock to the instant at, forward or back (D188), frozen or running as it was. */
    public ClockView set(Long at) {
        checkAdjustable();
        if (at == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "at");
        checkInstant(at);
        return change(s -> s.set(at));
    }

    /** Lets a frozen clock run again from where it stands. */
    public ClockView resume() {
        checkAdjustable();
        return change(SandboxClock::resume);
    }

    private void checkInstant(long at) {
        if (at < EARLIEST || at > clock.millis() + MAX_ADVANCE_MS) throw new ApiException(ErrorCode.PARAM_ERROR, "at");
    }

    private ClockView change(java.util.function.Consumer<SandboxClock> move) {
        if (!(clock instanceof SandboxClock s)) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "this clock can only be advanced");
        }
        synchronized (s) {
            SandboxClock.State before = s.state();
            move.accept(s);
            try {
                save(s.state());
            } catch (RuntimeException e) {
                s.restore(before); // not saved, not moved
                throw e;
            }
        }
        return clock();
    }

    private void save(SandboxClock.State state) {
        db.tx(tx -> {
            save(tx, state);
            return null;
        });
    }

    /** The clock's row, in a transaction that also tells the other nodes on commit. */
    private void save(io.tas.store.Tx tx, SandboxClock.State state) {
        org.jooq.DSLContext dsl = tx.dsl();
        if (dsl.update(SANDBOX_CLOCK).set(SANDBOX_CLOCK.OFFSET_MILLIS, state.offsetMillis()).set(SANDBOX_CLOCK.FROZEN_AT, state.frozenAt())
                .set(SANDBOX_CLOCK.ADVANCED_MILLIS, state.advancedMillis()).where(SANDBOX_CLOCK.ID.eq(1)).execute() == 0) {
            dsl.insertInto(SANDBOX_CLOCK, SANDBOX_CLOCK.ID, SANDBOX_CLOCK.OFFSET_MILLIS, SANDBOX_CLOCK.FROZEN_AT, SANDBOX_CLOCK.ADVANCED_MILLIS)
                    .values(1, state.offsetMillis(), state.frozenAt(), state.advancedMillis()).execute();
        }
        changes.publish(tx, TOPIC); // the other nodes take the new state up on commit
    }

    public record RunDueView(int due, int remaining, String now) {}

    public RunDueView runDue() {
        Jobs.RunDue r = jobs.runDue();
        return new RunDueView(r.due(), r.remaining(), Long.toString(clock.millis()));
    }

    // ---- reset

    /**
     * Issue 24 item 3: a reset empties every table, so only a sandbox resets (40017 elsewhere, nothing changed): on a
     * service it would wipe production money with one admin call. It also clears the fault rules and the journal, and
     * mints IDs from the start again (the database holds none of them any more, D189).
     */
    public void reset() {
        checkSandbox(RESET_REFUSED);
        reset.run();
        parts.ids().rewind(IdGenerator.Mark.NONE);
        parts.faults().clear();
        parts.journal().clear();
        db.compactIfGrown(); // D204
    }

    public static final String RESET_REFUSED = "a reset empties every table: only a sandbox resets (tas demo, or tas serve --sandbox)";
    static final String SANDBOX_ONLY = "sandbox controls (faults, journal, snapshots) exist only in a sandbox (tas demo, or tas serve --sandbox)";

    public void checkSandbox() { checkSandbox(SANDBOX_ONLY); }

    private void checkSandbox(String why) {
        if (!sandbox) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, why);
    }

    // ---- snapshots (D189)

    /**
     * createdTime: the sandbox time it was saved at; frozen: whether the clock was frozen then (a restore freezes it
     * again); wrote (restores only): "changes" when only the differences were written, "everything" when every table was
     * emptied and refilled.
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public record SnapshotView(String name, String createdTime, String rows, boolean frozen, String tookMs, String wrote) {}

    private static SnapshotView view(Snapshots.Saved s, long tookNanos, String wrote) {
        return new SnapshotView(s.name(), Long.toString(s.createdTime()), Long.toString(s.rows()), s.extras().clockFrozenAt() != null,
                tookNanos < 0 ? null : java.math.BigDecimal.valueOf(tookNanos / 1_000, 3).toPlainString(), wrote);
    }

    public SnapshotView saveSnapshot(String name) {
        checkSandbox();
        checkName(name);
        long started = System.nanoTime();
        SandboxClock.State c = clock instanceof SandboxClock s ? s.state() : SandboxClock.State.START;
        IdGenerator.Mark m = parts.ids().mark();
        Snapshots.Saved saved = parts.snapshots().save(name, clock.millis(),
                new Snapshots.Extras(c.offsetMillis(), c.frozenAt(), c.advancedMillis(), parts.ids().node(), m.lastMillis(), m.sequence()));
        return view(saved, System.nanoTime() - started, null);
    }

    /**
     * Puts the world back as it was saved: the tables in one transaction, then the clock, this node's ID generator
     * (when it saved the snapshot), and every cache on every node (the change feed's EVERYTHING).
     */
    public SnapshotView restoreSnapshot(String name) {
        checkSandbox();
        checkName(name);
        long started = System.nanoTime();
        Snapshots.Restored restored;
        try {
            // The clock's row goes back in the restore's own transaction; this node's clock follows on commit.
            restored = parts.snapshots().restore(name, (tx, snapshot) -> {
                Snapshots.Extras x = snapshot.extras();
                // Right after the commit (every row minted since the mark is gone): minting goes on from the mark.
                if (x.idNode() == parts.ids().node()) tx.afterCommit(() -> parts.ids().rewind(new IdGenerator.Mark(x.idLastMillis(), x.idSequence())));
                if (!(clock instanceof SandboxClock s)) return;
                SandboxClock.State back = new SandboxClock.State(x.clockOffsetMillis(), x.clockFrozenAt(),
                        Math.max(x.clockAdvanced(), s.state().advancedMillis())); // buckets never go back (D188)
                save(tx, back);
                tx.afterCommit(() -> { synchronized (s) { s.restore(back); } });
            }).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "snapshot " + name));
        } catch (Snapshots.Stale e) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, e.getMessage());
        }
        Snapshots.Saved saved = restored.saved();
        parts.invalidateCaches().run();
        db.compactIfGrown(); // D204: a suite's hundreds of restores would grow an H2 file until the next start
        return view(saved, System.nanoTime() - started, restored.onlyChanges() ? "changes" : "everything");
    }

    public List<SnapshotView> snapshots() {
        checkSandbox();
        return parts.snapshots().list().stream().map(s -> view(s, -1, null)).toList();
    }

    public void deleteSnapshot(String name) {
        checkSandbox();
        checkName(name);
        if (!parts.snapshots().delete(name)) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "snapshot " + name);
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "name");
        if (!Snapshots.validName(name)) throw new ApiException(ErrorCode.PARAM_ERROR, "name");
    }

    // ---- faults (D190) and the journal (D191)

    public Faults faults() {
        checkSandbox();
        return parts.faults();
    }

    public RequestJournal journal() {
        checkSandbox();
        if (!parts.journal().enabled()) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "the request journal is off: start with TAS_JOURNAL=on (tas demo has it on)");
        }
        return parts.journal();
    }

    public static Map<String, Object> journalView(RequestJournal.Entry e) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("seq", Long.toString(e.seq()));
        m.put("time", Long.toString(e.time()));
        m.put("kind", e.kind());
        m.put("apiKey", e.apiKey());
        if (e.method() != null) m.put("method", e.method());
        m.put("path", e.path());
        m.put("query", e.query());
        m.put("headers", e.headers());
        m.put("body", e.body());
        m.put("status", e.status());
        m.put("code", e.code());
        m.put("tookMs", Long.toString(e.tookMs()));
        m.put("fault", e.fault());
        return m;
    }
}
