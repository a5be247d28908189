package io.tas.marketdata;

import org.jooq.Field;
import org.jooq.impl.DSL;

import java.time.Instant;
import java.time.ZoneOffset;

/**
 * How candles are cut: buckets of a fixed length, one starting at every anchor + k × length (the v3 intervals: anchor 0,
 * D161), or the calendar months of a zone (the v2 1M and 1Mutc, D181). The 1-minute rows are grouped in SQL by a fixed
 * step each bucket is a union of (the bucket itself, or the zone's day for months) and folded here.
 */
record Buckets(long millis, long anchor, ZoneOffset monthsIn) {
    static final long HOUR = 3_600_000L;
    static final long DAY = 24 * HOUR;

    /** Buckets of a length from an anchor (taken modulo the length). */
    static Buckets fixed(long millis, long anchor) { return new Buckets(millis, Math.floorMod(anchor, millis), null); }

    /** The calendar months of a zone. */
    static Buckets months(ZoneOffset zone) { return new Buckets(0, 0, zone); }

    /** The start of the bucket holding ts. */
    long start(long ts) {
        if (monthsIn != null) {
            return Instant.ofEpochMilli(ts).atOffset(monthsIn).toLocalDate().withDayOfMonth(1).atStartOfDay()
                    .toInstant(monthsIn).toEpochMilli();
        }
        return Math.floorDiv(ts - anchor, millis) * millis + anchor;
    }

    /** The fixed buckets SQL groups the minutes by: these themselves, or the zone's days for months. */
    Buckets step() { return monthsIn == null ? this : fixed(DAY, -monthsIn.getTotalSeconds() * 1000L); }

    /**
     * The start of ts's bucket in SQL, for a fixed step: integer division on both databases (ts is never negative). With
     * anchor 0 it is the v3 expression exactly; else shifted by the offset that makes the anchor a multiple.
     */
    Field<Long> sql(Field<Long> ts) {
        if (monthsIn != null) throw new IllegalStateException("months have no fixed step: use step()");
        long off = Math.floorMod(-anchor, millis);
        if (off == 0) return ts.div(DSL.inline(millis)).mul(DSL.inline(millis));
        return ts.plus(DSL.inline(off)).div(DSL.inline(millis)).mul(DSL.inline(millis)).minus(DSL.inline(off));
    }
}
