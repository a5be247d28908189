package io.tas.reality;

import io.tas.account.AccountEnums.Category;
import io.tas.market.Ticker;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The optional random-walk price feed: one step's figures by hand, and a long walk stays in its band and decimals. */
class RealityPriceFeedTest {
    private static Ticker ticker(String last, String ask, String bid) {
        BigDecimal z = BigDecimal.ZERO;
        return new Ticker(Category.SPOT, "AAPLXUSDT", new BigDecimal(last), z, z, z, new BigDecimal(ask), new BigDecimal(bid),
                new BigDecimal("150"), new BigDecimal("180"), z, z, z, null, null, null, null, null, null, null, null, 0);
    }

    @Test
    void oneStepMovesTheMidAndKeepsTheSpread() {
        // mid 230.11, half spread 0.01; u = 1 -> drift +0.001: 230.11 x 1.001 = 230.34011 -> 230.34; ask 230.35, bid 230.33.
        Ticker n = RealityPriceFeed.next(ticker("230.11", "230.12", "230.1"), new BigDecimal("230.11"), 1.0,
                new BigDecimal("0.001"), new BigDecimal("0.2"), 2, 7);
        assertThat(n.lastPrice()).isEqualByComparingTo("230.34");
        assertThat(n.ask1Price()).isEqualByComparingTo("230.35");
        assertThat(n.bid1Price()).isEqualByComparingTo("230.33");
        assertThat(n.ask1Size()).isEqualByComparingTo("150");
        assertThat(n.highPrice24h()).isEqualByComparingTo("230.34");
        assertThat(n.ts()).isEqualTo(7);
    }

    @Test
    void aLongSeededWalkStaysWithinItsBandAndDecimals() {
        BigDecimal anchor = new BigDecimal("230.11");
        Random r = new Random(42);
        Ticker t = ticker("230.11", "230.12", "230.1");
        for (int i = 0; i < 20_000; i++) {
            t = RealityPriceFeed.next(t, anchor, r.nextDouble(), new BigDecimal("0.01"), new BigDecimal("0.2"), 2, i);
            assertThat(t.lastPrice()).isBetween(new BigDecimal("184.08"), new BigDecimal("276.14"));
            assertThat(t.ask1Price()).isGreaterThan(t.bid1Price());
            assertThat(t.bid1Price().signum()).isPositive();
            assertThat(t.ask1Price().stripTrailingZeros().scale()).isLessThanOrEqualTo(2);
        }
    }
}
