package io.tas.common;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.time.Duration;

/**
 * The startTime/endTime rule of every catalog row that takes them, as data (D137): how old data may be (the access
 * window), how long one query's range may be, whether both ends are required, and whether a start older than the access
 * window is refused or moved up to it. Each constant is named as its io.tas.http.Endpoint row. Refusals are ApiExceptions
 * the request pipeline writes as the envelope: 40019 a required end missing, 40017 every other (wire facts §3).
 *
 * <p>What the ends mean (D138): both given, they are checked as sent (start after end, then the range, then the start's
 * age); only startTime, the range is the longest allowed from it; only endTime, the longest allowed up to it, clipped to
 * the access window (an endTime older than the whole window: refused, or an empty window where an old start is clamped);
 * neither, the longest range ending now, clipped to the access window.
 */
public enum TimeWindow {
    /** §4.2 / §8: data of the last 90 days, a range of at most 30 days (D21). */
    SMALL_ASSETS_HISTORY(days(90), Older.REFUSE, days(30), Ends.OPTIONAL),
    /** §4.4.1 / §8: "access window is 90 days", "at most 30 days" (D63). */
    HISTORY_POSITION_V3(days(90), Older.REFUSE, days(30), Ends.OPTIONAL),
    /** §4.4.2 / §8: 3 months, the range and its default; the platform's page: "only the data within 3 months" (D139). */
    HISTORY_POSITION_V2(days(90), Older.CLAMP, days(90), Ends.OPTIONAL),
    /** §4.5.1: "Only data within 90 days is returned" (an older start is clamped, D60), interval at most 90 days. */
    SPOT_FILLS(days(90), Older.CLAMP, days(90), Ends.OPTIONAL),
    /** §4.5.2: both ends required, no range or age bound (D61). */
    WITHDRAWAL_RECORDS(null, Older.REFUSE, null, Ends.REQUIRED),
    /** §4.6 and §8 give none: 90 days of data, at most 90 per query (D67). */
    HISTORY_STRATEGY_ORDERS(days(90), Older.REFUSE, days(90), Ends.OPTIONAL),
    /** Beyond-spec shapes §9: at most 30 days within the last 90 (D78). */
    UTA_FILLS(days(90), Older.REFUSE, days(30), Ends.OPTIONAL),
    /** Beyond-spec shapes §11: both ends required, no range or age bound (D79). */
    UTA_WITHDRAWAL_RECORDS(null, Older.REFUSE, null, Ends.REQUIRED),
    /** Beyond-spec shapes §10: both ends required, no range or age bound (D79). */
    UTA_DEPOSIT_RECORDS(null, Older.REFUSE, null, Ends.REQUIRED),
    /** Issue 25, v3 history-orders: the platform's page keeps 90 days; a query at most 90 (as strategy history, D67). */
    HISTORY_ORDERS(days(90), Older.REFUSE, days(90), Ends.OPTIONAL),
    /** Issue 26, v2 public trades: "within 90 days", start and end "within 7 days" (spot Get-Market-Trades, D184). */
    V2_SPOT_FILLS_HISTORY(days(90), Older.CLAMP, days(7), Ends.OPTIONAL),
    /** Issue 26: "the last 90 days", "the maximum time span supported is a week" (contract Get-Fills-History, D184). */
    V2_MIX_FILLS_HISTORY(days(90), Older.CLAMP, days(7), Ends.OPTIONAL);

    /** What a startTime older than the access window does. */
    public enum Older { REFUSE, CLAMP }
    /** Whether a query may leave out either end. */
    public enum Ends { OPTIONAL, REQUIRED }

    /** The inclusive bounds a query reads; empty (from > to) when nothing of it is inside the access window. */
    public record Range(long from, long to) {
        public boolean isEmpty() { return from > to; }
    }

    private final Duration access;   // null: no bound on age
    private final Older older;
    private final Duration maxRange; // null: no bound on length
    private final Ends ends;

    TimeWindow(Duration access, Older older, Duration maxRange, Ends ends) {
        this.access = access;
        this.older = older;
        this.maxRange = maxRange;
        this.ends = ends;
    }

    public Duration access() { return access; }
    public Older older() { return older; }
    public Duration maxRange() { return maxRange; }
    public Ends ends() { return ends; }

    /** The bounds for the ends a client sent (either may be null) at time now, or the refusal. */
    public Range resolve(Long startTime, Long endTime, long now) {
        if (ends == Ends.REQUIRED && (startTime == null || endTime == null)) {
            throw new ApiException(ErrorCode.PARAM_EMPTY, startTime == null && endTime == null ? "startTime,endTime"
                    : startTime == null ? "startTime" : "endTime");
        }
        long oldest = access == null ? Long.MIN_VALUE : minus(now, access.toMillis());
        long range = maxRange == null ? Long.MAX_VALUE : maxRange.toMillis();
        if (startTime != null && endTime != null) {
            if (startTime > endTime) throw refused("startTime is after endTime");
            if (minus(endTime, startTime) > range) throw refused("time range between startTime and endTime exceeds " + maxRange.toDays() + " days");
            return new Range(notOlder(startTime, oldest, "startTime"), endTime);
        }
        if (startTime != null) {
            long from = notOlder(startTime, oldest, "startTime");
            return new Range(from, plus(from, range));
        }
        long to = endTime != null ? endTime : now;
        long from = Math.max(minus(to, range), oldest);
        if (from > to && older == Older.REFUSE) throw refused("endTime is older than " + access.toDays() + " days");
        return new Range(from, to);
    }

    /** A sent start inside the access window as it is; an older one refused or moved up to the window's start. */
    private long notOlder(long start, long oldest, String name) {
        if (start >= oldest) return start;
        if (older == Older.CLAMP) return oldest;
        throw refused(name + " is older than " + access.toDays() + " days");
    }

    private static ApiException refused(String why) { return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, why); }

    private static Duration days(long n) { return Duration.ofDays(n); }

    /** Saturating: a bound past the ends of long is as good as no bound, and a huge sent time must not wrap around. */
    private static long plus(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
    }

    private static long minus(long a, long b) {
        try {
            return Math.subtractExact(a, b);
        } catch (ArithmeticException e) {
            return b > 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
