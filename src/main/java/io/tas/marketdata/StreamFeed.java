package io.tas.marketdata;

import io.tas.account.AccountEnums.Category;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * The engine's public trades and candles as the WebSocket trade and candle channels read them (issue 27): the same rows
 * the REST market data rows answer, so a push and the REST answer after it agree.
 */
public final class StreamFeed {
    private final TradeTape tape;

    public StreamFeed(TradeTape tape) { this.tape = tape; }

    /** One public trade; side is the taker's. */
    public record Trade(long id, BigDecimal price, BigDecimal size, String side, long ts) {}

    /** One candle: ts is its bucket's start; volume in base coin, turnover in quote coin. */
    public record Candle(long ts, BigDecimal open, BigDecimal high, BigDecimal low, BigDecimal close, BigDecimal volume, BigDecimal turnover) {}

    /** A candle interval as a channel spells it: the v3 kline `interval` (1m … 1D) or the v2 `candle` suffix (1m … 1Mutc). */
    public static final class Series {
        private final Buckets buckets;

        private Series(Buckets buckets) { this.buckets = buckets; }
    }

    /** The series a channel names, if it is one (v2: the futures docs' spelling, which the spot channels share). */
    public static Optional<Series> series(boolean v2, String spelled) {
        if (spelled == null) return Optional.empty();
        return v2 ? Granularity.mix(spelled).map(g -> new Series(g.buckets())) : Interval.fromWire(spelled).map(i -> new Series(i.buckets()));
    }

    /** The newest trades of the book, newest first. */
    public List<Trade> trades(Category category, String symbol, int limit) {
        return tape.trades(category, symbol, limit).stream().map(t -> new Trade(t.execId(), t.price(), t.size(), t.side(), t.ts())).toList();
    }

    /** The candles of the series' last `count` buckets up to now (only those with a row), oldest first. */
    public List<Candle> candles(Category category, String symbol, Series series, long now, int count) {
        Buckets b = series.buckets;
        long from = b.monthsIn() != null ? 0 : b.start(now) - (count - 1) * b.millis(); // months: read back to the first
        return tape.candles(category, symbol, b, Math.max(0, from), now, count).stream()
                .map(c -> new Candle(c.ts(), c.open(), c.high(), c.low(), c.close(), c.volume(), c.turnover())).toList();
    }
}
