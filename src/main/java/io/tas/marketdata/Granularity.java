package io.tas.marketdata;

import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Optional;

/**
 * A candle granularity of the classic (v2) candles rows, with its spot and futures spelling (docs mirror
 * spot/market/Get-Candle-Data.md and contract/market/Get-Candle-Data.md; 2H only on futures, as ccxt's swap timeframes
 * send it). The plain 6h, 12h, day, 3-day, week and month candles are cut in UTC+8, the "utc" ones in UTC; weeks start
 * on Monday, 3-day candles at multiples of three days since 1970-01-01 in their zone (D181).
 */
enum Granularity {
    M1("1min", "1m", minutes(1)),
    M3("3min", "3m", minutes(3)),
    M5("5min", "5m", minutes(5)),
    M15("15min", "15m", minutes(15)),
    M30("30min", "30m", minutes(30)),
    H1("1h", "1H", Buckets.fixed(Buckets.HOUR, 0)),
    H2(null, "2H", Buckets.fixed(2 * Buckets.HOUR, 0)),
    H4("4h", "4H", Buckets.fixed(4 * Buckets.HOUR, 0)),
    H6("6h", "6H", Buckets.fixed(6 * Buckets.HOUR, Granularity.UTC8)),
    H12("12h", "12H", Buckets.fixed(12 * Buckets.HOUR, Granularity.UTC8)),
    D1("1day", "1D", Buckets.fixed(Buckets.DAY, Granularity.UTC8)),
    D3("3day", "3D", Buckets.fixed(3 * Buckets.DAY, Granularity.UTC8)),
    W1("1week", "1W", Buckets.fixed(7 * Buckets.DAY, Granularity.MONDAY + Granularity.UTC8)),
    MONTH("1M", "1M", Buckets.months(ZoneOffset.ofHours(8))),
    H6_UTC("6Hutc", "6Hutc", Buckets.fixed(6 * Buckets.HOUR, 0)),
    H12_UTC("12Hutc", "12Hutc", Buckets.fixed(12 * Buckets.HOUR, 0)),
    D1_UTC("1Dutc", "1Dutc", Buckets.fixed(Buckets.DAY, 0)),
    D3_UTC("3Dutc", "3Dutc", Buckets.fixed(3 * Buckets.DAY, 0)),
    W1_UTC("1Wutc", "1Wutc", Buckets.fixed(7 * Buckets.DAY, Granularity.MONDAY)),
    MONTH_UTC("1Mutc", "1Mutc", Buckets.months(ZoneOffset.UTC));

    /** Midnight in UTC+8 is 16:00 UTC of the day before: an anchor 8 hours before the epoch. */
    private static final long UTC8 = -8 * Buckets.HOUR;
    /** The epoch was a Thursday: the first Monday 00:00 UTC is four days after it. */
    private static final long MONDAY = 4 * Buckets.DAY;

    private final String spot;
    private final String mix;
    private final Buckets buckets;

    Granularity(String spot, String mix, Buckets buckets) {
        this.spot = spot;
        this.mix = mix;
        this.buckets = buckets;
    }

    Buckets buckets() { return buckets; }

    /** Exactly as the spot docs spell it (1m would be 40020 there, 1M is the month). */
    static Optional<Granularity> spot(String s) {
        return Arrays.stream(values()).filter(g -> s.equals(g.spot)).findFirst();
    }

    /** Exactly as the futures docs spell it: 1m is a minute, 1M a month. */
    static Optional<Granularity> mix(String s) {
        return Arrays.stream(values()).filter(g -> s.equals(g.mix)).findFirst();
    }

    private static Buckets minutes(int n) { return Buckets.fixed(n * 60_000L, 0); }
}
