package io.tas.marketdata;

import io.tas.account.AccountEnums.Category;
import io.tas.config.Config;
import io.tas.store.Database;
import io.tas.support.Databases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D221: a minute's candle is one row per ledger writer, merged when read. The rows below are folded by hand, with
 * print IDs that interleave across writers as two writers' batches do; the merged candle takes its open from the
 * earliest print and its close from the latest, whichever row holds them, and high, low and the volumes over all rows.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class CandleRowsPerWriterTest {
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01 00:00 UTC, a 5-minute boundary
    private static final long MIN = 60_000L;
    @Parameter Databases.Kind kind;
    private Databases.TestDb testDb;
    private Database db;
    private final MarketDataStore store = new MarketDataStore();

    @BeforeEach
    void open() {
        testDb = Databases.create(kind);
        db = Database.open(Config.fromEnv(Map.of()).withDb(testDb.url(), testDb.user(), ""));
    }

    @AfterEach
    void close() {
        db.close();
        testDb.close();
    }

    /** Trades of size 1 at each price, first ID id0 and one more per trade, into writer's row of the minute. */
    private void fold(long minute, int writer, long id0, String... prices) {
        BigDecimal high = null, low = null, turnover = BigDecimal.ZERO;
        for (String p : prices) {
            BigDecimal v = new BigDecimal(p);
            high = high == null ? v : high.max(v);
            low = low == null ? v : low.min(v);
            turnover = turnover.add(v);
        }
        var f = new MarketDataStore.Fold(Category.SPOT, "CANDLEUSDT", minute, writer, new BigDecimal(prices[0]), id0, high, low,
                new BigDecimal(prices[prices.length - 1]), id0 + prices.length - 1, new BigDecimal(prices.length), turnover);
        db.tx(tx -> {
            store.foldIntoCandle(tx.dsl(), f);
            return null;
        });
    }

    /** The candles up to T0 + 10 min, each as "ts open high low close volume turnover", numbers without trailing zeros. */
    private List<String> candles(Interval interval) {
        return db.read(dsl -> store.candles(dsl, Category.SPOT, "CANDLEUSDT", interval.buckets(), 0, T0 + 10 * MIN, 100)).stream()
                .map(c -> (c.ts() - T0) / MIN + "m " + String.join(" ", List.of(c.open(), c.high(), c.low(), c.close(), c.volume(), c.turnover())
                        .stream().map(v -> v.stripTrailingZeros().toPlainString()).toList()))
                .toList();
    }

    @Test
    void theWritersRowsMergeByTheirPrintsOrder() {
        // Minute 0: writer 1 prints IDs 110, 111 at 100, 104; writer 2 prints 112, 113 at 99, 102 (committed first,
        // but minted later); a trade off the writers' threads (writer 0) at 101 with ID 114; then writer 1 again, 115 at 103.
        fold(T0, 2, 112, "99", "102");
        fold(T0, 1, 110, "100", "104");
        fold(T0, 0, 114, "101");
        fold(T0, 1, 115, "103");
        // Open 100 (ID 110), high 104, low 99, close 103 (ID 115); volume 6, turnover 100+104+99+102+101+103 = 609.
        assertThat(candles(Interval.M1)).containsExactly("0m 100 104 99 103 6 609");

        // A fold whose print is older than the row's first (ID 105) takes the open; one older than the last does not
        // take the close. Writer 2's row: open 98 (ID 105), close still 102 (ID 113).
        fold(T0, 2, 105, "98");
        assertThat(candles(Interval.M1)).containsExactly("0m 98 104 98 103 7 707");

        // Minute 1, writer 2 only: 97 then 96. The 5-minute candle takes minute 0's open and minute 1's close.
        fold(T0 + MIN, 2, 120, "97", "96");
        assertThat(candles(Interval.M1)).containsExactly("0m 98 104 98 103 7 707", "1m 97 97 96 96 2 193");
        assertThat(candles(Interval.M5)).containsExactly("0m 98 104 96 96 9 900");
    }

    /** The state hash (proof tests' replays and recoveries) sees each minute merged, not how the writers split it. */
    @Test
    void theStateHashSeesTheMergedMinuteNotTheWritersSplit() {
        fold(T0, 1, 10, "100", "104");
        fold(T0, 2, 12, "99", "102");
        String split = candleHash();
        db.tx(tx -> tx.dsl().deleteFrom(io.tas.store.generated.Tables.MARKET_CANDLE).execute());
        fold(T0, 2, 10, "100", "104", "99", "102"); // the same prints, all folded by writer 2
        assertThat(candles(Interval.M1)).containsExactly("0m 100 104 99 102 4 405");
        assertThat(candleHash()).isEqualTo(split);
        fold(T0, 1, 14, "101"); // a later print: another close
        assertThat(candleHash()).isNotEqualTo(split);
    }

    private String candleHash() {
        return io.tas.store.StateHash.of(db).tables().get("market_candle").hash();
    }
}
