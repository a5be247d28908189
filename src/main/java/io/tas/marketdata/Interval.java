package io.tas.marketdata;

import java.util.Arrays;
import java.util.Optional;

/**
 * A candle interval of the v3 candles rows: the docs' 1m to 1D (uta/public/Get-Candle-Data.md) plus 2H, which ccxt's
 * timeframes map too. Buckets start at multiples of the length since the epoch, so 1D is the UTC day (D161).
 */
public enum Interval {
    M1("1m", 1), M3("3m", 3), M5("5m", 5), M15("15m", 15), M30("30m", 30),
    H1("1H", 60), H2("2H", 120), H4("4H", 240), H6("6H", 360), H12("12H", 720), D1("1D", 1440);

    public static final long MINUTE_MS = 60_000;

    private final String wire;
    private final long millis;

    Interval(String wire, int minutes) {
        this.wire = wire;
        this.millis = minutes * MINUTE_MS;
    }

    public String wire() { return wire; }

    public long millis() { return millis; }

    /** The start of the bucket holding ts. */
    public long bucket(long ts) { return Math.floorDiv(ts, millis) * millis; }

    /** Its buckets: multiples of the length since the epoch. */
    Buckets buckets() { return Buckets.fixed(millis, 0); }

    /** Exactly as the docs spell it: 1m is a minute, so no case folding (1M would be a month elsewhere). */
    public static Optional<Interval> fromWire(String s) {
        return Arrays.stream(values()).filter(i -> i.wire.equals(s)).findFirst();
    }
}
