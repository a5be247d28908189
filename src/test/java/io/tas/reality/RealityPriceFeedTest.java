package io.tas.reality;

import io.tas.account.AccountEnums.Category;
import io.tas.market.Ticker;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The optional random-walk price feed: one step's figures by hand, and a long walk stays in its band and decimals. */
class RealityPriceFeedTest {
    private static Ticker ticker(String last, String ask, String bid) {
        BigDecimal z = BigDecimal.ZERO;
        return new Ticker(Category.SPOT, "AAPLXUSDT", new BigDecimal(last), z, z, z, new BigDecimal(ask), new BigDecimal(bid),
                new BigDecimal("150"), new BigDecimal("180"), z, z, z, null, null, null, null, null, null, null, null, 0);
    }

    @Test
    void oneStepMovesTheMidAndKeepsTheSpread() {
        // mid 230.11, half spread 0.01; move = 1 -> drift +0.001: 230.11 x 1.001 = 230.34011 -> 230.34; ask 230.35, bid 230.33.
        Ticker n = RealityPriceFeed.next(ticker("230.11", "230.12", "230.1"), new BigDecimal("230.11"), BigDecimal.ONE,
                new BigDecimal("0.001"), new BigDecimal("0.2"), 2, 7);
        assertThat(n.lastPrice()).isEqualByComparingTo("230.34");
        assertThat(n.ask1Price()).isEqualByComparingTo("230.35");
        assertThat(n.bid1Price()).isEqualByComparingTo("230.33");
        assertThat(n.ask1Size()).isEqualByComparingTo("150");
        assertThat(n.highPrice24h()).isEqualByComparingTo("230.34");
        assertThat(n.ts()).isEqualTo(7);
    }

    @Test
    void aFuturesTickersMarkAndIndexFollowTheWalk() {
        BigDecimal z = BigDecimal.ZERO;
        Ticker perp = new Ticker(Category.USDT_FUTURES, "BTCUSDT", new BigDecimal("100"), z, z, z, new BigDecimal("100.1"),
                new BigDecimal("99.9"), BigDecimal.ONE, BigDecimal.ONE, z, z, z, new BigDecimal("99"), new BigDecimal("99.5"), null, null,
                null, null, null, null, 0);
        // mid 100, move -1 at step 0.001: 99.9; mark and index follow the new last, a spot ticker's stay absent.
        Ticker n = RealityPriceFeed.next(perp, new BigDecimal("100"), BigDecimal.ONE.negate(), new BigDecimal("0.001"), new BigDecimal("0.2"), 1, 3);
        assertThat(n.lastPrice()).isEqualByComparingTo("99.9");
        assertThat(n.markPrice()).isEqualByComparingTo("99.9");
        assertThat(n.indexPrice()).isEqualByComparingTo("99.9");
        assertThat(RealityPriceFeed.next(ticker("230.11", "230.12", "230.1"), new BigDecimal("230.11"), BigDecimal.ONE,
                new BigDecimal("0.001"), new BigDecimal("0.2"), 2, 7).markPrice()).isNull();
    }

    @Test
    void aLongSeededWalkStaysWithinItsBandAndDecimals() {
        BigDecimal anchor = new BigDecimal("230.11");
        Random r = new Random(42);
        Ticker t = ticker("230.11", "230.12", "230.1");
        for (int i = 0; i < 20_000; i++) {
            t = RealityPriceFeed.next(t, anchor, RealityPriceFeed.draw(r), new BigDecimal("0.01"), new BigDecimal("0.2"), 2, i);
            assertThat(t.lastPrice()).isBetween(new BigDecimal("184.08"), new BigDecimal("276.14"));
            assertThat(t.ask1Price()).isGreaterThan(t.bid1Price());
            assertThat(t.bid1Price().signum()).isPositive();
            assertThat(t.ask1Price().stripTrailingZeros().scale()).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void feedSettingsAreReadOnlyWhenTheFeedIsOnAndTheStepIsRangeChecked() {
        // Off: malformed values of the other settings do not matter (they are not read).
        RealityPriceFeed.Settings off = feed(Map.of("TAS_PRICE_FEED_INTERVAL_MS", "soon",
                "TAS_PRICE_FEED_SEED", "x", "TAS_PRICE_FEED_STEP", "big"));
        assertThat(off.enabled()).isFalse();
        assertThat(feed(Map.of("TAS_PRICE_FEED", "false")).enabled()).isFalse();
        RealityPriceFeed.Settings on = feed(Map.of("TAS_PRICE_FEED", "true", "TAS_PRICE_FEED_STEP", "0.01",
                "TAS_PRICE_FEED_SEED", "7", "TAS_PRICE_FEED_INTERVAL_MS", "250"));
        assertThat(on.enabled()).isTrue();
        assertThat(on.step()).isEqualByComparingTo("0.01");
        assertThat(on.seed()).isEqualTo(7);
        assertThat(on.interval().toMillis()).isEqualTo(250);
        // On: a malformed or out-of-range value refuses the start with one clear message (Config.Invalid).
        assertThatThrownBy(() -> feed(Map.of("TAS_PRICE_FEED", "on", "TAS_PRICE_FEED_STEP", "big")))
                .isInstanceOf(io.tas.config.Config.Invalid.class).hasMessage("TAS_PRICE_FEED_STEP must be a decimal number, not 'big'");
        for (String step : new String[]{"0", "-0.001", "0.2", "1"}) {
            assertThatThrownBy(() -> feed(Map.of("TAS_PRICE_FEED", "on", "TAS_PRICE_FEED_STEP", step)))
                    .isInstanceOf(io.tas.config.Config.Invalid.class).hasMessageContaining("TAS_PRICE_FEED_STEP must be above 0 and below 0.2");
        }
        assertThatThrownBy(() -> feed(Map.of("TAS_PRICE_FEED", "on", "TAS_PRICE_FEED_SEED", "x")))
                .isInstanceOf(io.tas.config.Config.Invalid.class).hasMessage("TAS_PRICE_FEED_SEED must be a whole number, not 'x'");
        assertThatThrownBy(() -> feed(Map.of("TAS_PRICE_FEED", "maybe")))
                .isInstanceOf(io.tas.config.Config.Invalid.class).hasMessage("TAS_PRICE_FEED must be on or off (or true/false), not 'maybe'");
    }

    /** D223: retired and ignored; a value other than on/off/true/false still stops the start, as before. */
    @Test
    void theRetiredSimulatedExecutionSettingIsStillChecked() {
        for (String v : java.util.List.of("on", "off", "TRUE", "false")) {
            assertThat(io.tas.config.Config.fromEnv(Map.of("TAS_SIMULATED_EXECUTION", v)).features().priceFeed().enabled()).isFalse();
        }
        assertThatThrownBy(() -> io.tas.config.Config.fromEnv(Map.of("TAS_SIMULATED_EXECUTION", "yes")))
                .isInstanceOf(io.tas.config.Config.Invalid.class).hasMessage("TAS_SIMULATED_EXECUTION must be on or off (or true/false), not 'yes'");
    }

    private static RealityPriceFeed.Settings feed(Map<String, String> env) { return io.tas.config.Config.fromEnv(env).features().priceFeed(); }
}
