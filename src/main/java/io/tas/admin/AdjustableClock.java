package io.tas.admin;

import java.time.Duration;

/** A service clock an operator may move forward in a sandbox (like Stripe's test clocks), e.g. to finish a due job now. */
public interface AdjustableClock {
    /** Moves the clock forward by d (d > 0). */
    void advance(Duration d);
}
