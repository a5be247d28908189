package io.tas.admin;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The sandbox's service clock (issue 28, D188), like Stripe's test clocks: the machine's clock plus an offset, or
 * frozen at one instant. It can be advanced, set, frozen and resumed, and a snapshot restore puts it back where the
 * snapshot was taken. Domain time (due jobs, cTime, order expiry, candles, history windows, stream timestamps) follows
 * it. Three things deliberately do not:
 * <ul>
 *   <li>request signatures are checked against the machine's clock ({@link #machine()}): clients sign with their own;</li>
 *   <li>rate-limit buckets refill on {@link #forLimits()}, which moves forward with advances but never freezes or goes
 *       back: a frozen clock would otherwise never refill a bucket;</li>
 *   <li>IDs are minted on {@link #forIds()}: the frozen instant while frozen (so a replay mints the same IDs), the
 *       machine's clock while running (IdGenerator never reuses a millisecond either way).</li>
 * </ul>
 */
public final class SandboxClock extends Clock implements AdjustableClock {
    /**
     * offsetMillis: added to the machine's clock while running. frozenAt: the instant while frozen, else null.
     * advancedMillis: the sum of every forward move, which only grows (the limiter's clock).
     */
    public record State(long offsetMillis, Long frozenAt, long advancedMillis) {
        public static final State START = new State(0, null, 0);
        public boolean frozen() { return frozenAt != null; }
    }

    private final Clock machine;
    private final AtomicReference<State> state = new AtomicReference<>(State.START);

    public SandboxClock(Clock machine) { this.machine = machine; }

    public SandboxClock() { this(Clock.systemUTC()); }

    /** The clock underneath, never moved. */
    public Clock machine() { return machine; }

    public State state() { return state.get(); }

    /** Takes up a saved state (at start, from another node, or from a snapshot). */
    public void restore(State saved) { state.set(saved); }

    @Override public void advance(Duration d) {
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("advance moves forward");
        long ms = d.toMillis();
        state.updateAndGet(s -> s.frozen() ? new State(s.offsetMillis(), s.frozenAt() + ms, s.advancedMillis() + ms)
                : new State(s.offsetMillis() + ms, null, s.advancedMillis() + ms));
    }

    /** Sets the clock to the instant at (forward or back), frozen or running as it was. */
    public void set(long at) {
        long machineNow = machine.millis();
        state.updateAndGet(s -> {
            long forward = Math.max(0, at - now(s, machineNow));
            return s.frozen() ? new State(s.offsetMillis(), at, s.advancedMillis() + forward)
                    : new State(at - machineNow, null, s.advancedMillis() + forward);
        });
    }

    /** Stops the clock at the instant at, or where it is now when at is null. */
    public void freeze(Long at) {
        long machineNow = machine.millis();
        state.updateAndGet(s -> {
            long t = at != null ? at : now(s, machineNow);
            return new State(s.offsetMillis(), t, s.advancedMillis() + Math.max(0, t - now(s, machineNow)));
        });
    }

    /** Lets a frozen clock run again from the instant it stood at. */
    public void resume() {
        long machineNow = machine.millis();
        state.updateAndGet(s -> s.frozen() ? new State(s.frozenAt() - machineNow, null, s.advancedMillis()) : s);
    }

    private static long now(State s, long machineNow) { return s.frozen() ? s.frozenAt() : machineNow + s.offsetMillis(); }

    @Override public long millis() { return now(state.get(), machine.millis()); }
    @Override public Instant instant() { return Instant.ofEpochMilli(millis()); }
    @Override public ZoneId getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(ZoneId zone) { return this; }

    /** The clock rate-limit buckets refill on: the machine's plus every forward move; it never stops or goes back. */
    public Clock forLimits() { return new Derived(this, true); }

    /** The clock IDs are minted on: the frozen instant while frozen, else the machine's. */
    public Clock forIds() { return new Derived(this, false); }

    /** A read-only view of the sandbox clock. */
    private static final class Derived extends Clock {
        private final SandboxClock of;
        private final boolean limits;
        Derived(SandboxClock of, boolean limits) { this.of = of; this.limits = limits; }
        @Override public long millis() {
            State s = of.state.get();
            if (limits) return of.machine.millis() + s.advancedMillis();
            return s.frozen() ? s.frozenAt() : of.machine.millis();
        }
        @Override public Instant instant() { return Instant.ofEpochMilli(millis()); }
        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
    }
}
