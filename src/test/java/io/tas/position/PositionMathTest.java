package io.tas.position;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

/** Worked examples of docs/formulas.md, each computed by hand in the comment. */
class PositionMathTest {
    private static BigDecimal d(String s) { return new BigDecimal(s); }

    private static void same(BigDecimal actual, String expected) {
        assertThat(PositionMath.round(actual)).isEqualByComparingTo(expected);
    }

    @Test
    void linearLong() {
        // 0.05 BTC long at 95000, 10x: margin = 0.05 x 95000 / 10 = 475 USDT.
        same(PositionMath.initialMargin(false, d("0.05"), d("95000"), d("10")), "475");
        // mark 97258.8: uPnL = (97258.8 - 95000) x 0.05 = 112.94
        same(PositionMath.pnl(false, 1, d("0.05"), d("95000"), d("97258.8")), "112.94");
        // maintenance = 0.05 x 97258.8 x 0.004 = 19.45176; ratio = 19.45176 / (475 + 112.94) = 0.03308460
        BigDecimal mm = PositionMath.maintenanceMargin(false, d("0.05"), d("97258.8"), d("0.004"));
        same(mm, "19.45176");
        same(PositionMath.marginRatio(mm, d("587.94")), "0.03308460");
        // liquidation: (95000 x 0.05 - 475) / (0.05 x 0.996) = 4275 / 0.0498 = 85843.37349398
        same(PositionMath.liquidationPrice(false, 1, d("0.05"), d("95000"), d("475"), d("0.004")), "85843.37349398");
        // break-even after paying 2.85 fees: 95000 + 2.85 / 0.05 = 95057
        same(PositionMath.breakEven(false, 1, d("0.05"), d("95000"), d("2.85")), "95057");
    }

    @Test
    void linearShort() {
        // 2 ETH short at 3500, mark 3422.1: uPnL = (3422.1 - 3500) x 2 x -1 = 155.8
        same(PositionMath.pnl(false, -1, d("2"), d("3500"), d("3422.1")), "155.8");
        // isolated margin 350, mmr 0.005: (3500 x 2 + 350) / (2 x 1.005) = 7350 / 2.01 = 3656.71641791
        same(PositionMath.liquidationPrice(false, -1, d("2"), d("3500"), d("350"), d("0.005")), "3656.71641791");
        // break-even for a short is below entry: 3500 - 4.2 / 2 = 3497.9
        same(PositionMath.breakEven(false, -1, d("2"), d("3500"), d("4.2")), "3497.9");
    }

    @Test
    void inverse() {
        // 1 BTC of BTCUSD inverse long at 100000, 20x: margin = 1 / 20 = 0.05 BTC.
        same(PositionMath.initialMargin(true, d("1"), d("100000"), d("20")), "0.05");
        // exit 125000: PnL in BTC = 1 x (125000 - 100000) / 125000 = 0.2
        same(PositionMath.pnl(true, 1, d("1"), d("100000"), d("125000")), "0.2");
        // short loses 0.2 BTC on the same move
        same(PositionMath.pnl(true, -1, d("1"), d("100000"), d("125000")), "-0.2");
        // long liquidation, mmr 0.005: 1 x 100000 / (0.05 + 1 x 0.995) = 100000 / 1.045 = 95693.77990431
        same(PositionMath.liquidationPrice(true, 1, d("1"), d("100000"), d("0.05"), d("0.005")), "95693.77990431");
        // short liquidation: 100000 / (1.005 - 0.05) = 100000 / 0.955 = 104712.04188482
        same(PositionMath.liquidationPrice(true, -1, d("1"), d("100000"), d("0.05"), d("0.005")), "104712.04188482");
        // break-even after paying 0.001 BTC: 100000 / (1 - 0.001) = 100100.10010010
        same(PositionMath.breakEven(true, 1, d("1"), d("100000"), d("0.001")), "100100.10010010");
    }

    @Test
    void anInverseAddAveragesBySizeSoTheWholePaysWhatItsLegsPay() {
        // D140: long 1 BTC of BTCUSD at 100, add 1 at 200: entry (100 + 200) / 2 = 150 (the harmonic mean would be 133.33).
        same(PositionMath.averageEntry(d("1"), d("100"), d("1"), d("200")), "150");
        // Closing both at 200: the legs earn 1 x 100 / 200 + 1 x 0 / 200 = 0.5 BTC, and so does the whole: 2 x 50 / 200.
        same(PositionMath.pnl(true, 1, d("2"), d("150"), d("200")), "0.5");
        // Uneven legs, short: 0.3 at 90000 and 0.7 at 100000 -> (27000 + 70000) / 1 = 97000; exit 80000:
        // legs -(0.3 x -10000 + 0.7 x -20000) / 80000 = 17000 / 80000 = 0.2125 BTC.
        same(PositionMath.averageEntry(d("0.3"), d("90000"), d("0.7"), d("100000")), "97000");
        same(PositionMath.pnl(true, -1, d("1"), d("97000"), d("80000")), "0.2125");
    }

    @Test
    void atTheLiquidationPriceMarginPlusPnlIsTheMaintenanceMargin() {
        // The estimate agrees with the PnL and maintenance formulas for both kinds and sides (docs/formulas.md).
        for (boolean inverse : new boolean[] {false, true}) {
            for (int dir : new int[] {1, -1}) {
                BigDecimal size = d("0.8"), entry = d("95000"), mmr = d("0.005");
                BigDecimal margin = PositionMath.initialMargin(inverse, size, entry, d("20"));
                BigDecimal liq = PositionMath.liquidationPrice(inverse, dir, size, entry, margin, mmr);
                BigDecimal equity = margin.add(PositionMath.pnl(inverse, dir, size, entry, liq));
                BigDecimal maintenance = PositionMath.maintenanceMargin(inverse, size, liq, mmr);
                assertThat(equity.subtract(maintenance).abs()).as("inverse=" + inverse + " dir=" + dir)
                        .isLessThan(d("0.000000000001"));
            }
        }
    }

    @Test
    void noLiquidationPriceIsZero() {
        // A 1x long fully margined: (100 x 1 - 100) / (1 x 0.996) = 0, reported as 0.
        same(PositionMath.liquidationPrice(false, 1, d("1"), d("100"), d("100"), d("0.004")), "0");
        // Over-margined long: negative result -> 0.
        same(PositionMath.liquidationPrice(false, 1, d("1"), d("100"), d("150"), d("0.004")), "0");
    }

    @Test
    void netProfitIsPnlPlusFundingPlusFees() {
        // §2.16: netProfit = pnl + totalFunding + openFee + closeFee (fees negative when paid)
        Position p = new Position(1, 1, io.tas.account.AccountEnums.Category.USDT_FUTURES, "BTCUSDT", "USDT",
                Position.HoldSide.long_, io.tas.account.AccountEnums.MarginMode.isolated, io.tas.account.AccountEnums.HoldMode.one_way_mode,
                d("10"), d("0"), d("0"), d("90000"), d("0"), d("10"), d("-0.3"), d("-0.54"), d("-0.546"), d("0.01"), d("0.01"),
                d("910"), "off", Position.Status.closed, 0, 0);
        same(p.netProfit(), "8.614"); // 10 - 0.3 - 0.54 - 0.546
        same(p.closePriceAvg(), "91000");
        same(p.deductedFee(), "1.086");
    }
}
