package io.tas.position;

import io.tas.market.Instrument;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The formulas of docs/formulas.md, as pure functions. Linear contracts (USDT/USDC futures) settle in the
 * quote coin; inverse contracts (COIN futures) settle in the base coin. Sizes are in the base coin.
 */
public final class PositionMath {
    public static final MathContext MC = new MathContext(34, RoundingMode.HALF_EVEN);
    private static final int SCALE = 8;

    private PositionMath() {}

    /** Margin needed to open size at price with leverage, in the margin coin. */
    public static BigDecimal initialMargin(boolean inverse, BigDecimal size, BigDecimal price, BigDecimal leverage) {
        BigDecimal notional = inverse ? size : size.multiply(price);
        return notional.divide(leverage, MC);
    }

    /** PnL of size moving from entry to exit, in the margin coin. Linear: (exit - entry) x size x dir. Inverse: size x (exit - entry) / exit x dir. */
    public static BigDecimal pnl(boolean inverse, int dir, BigDecimal size, BigDecimal entry, BigDecimal exit) {
        BigDecimal move = exit.subtract(entry).multiply(size).multiply(BigDecimal.valueOf(dir));
        return inverse ? move.divide(exit, MC) : move;
    }

    /**
     * The average entry after adding addSize at addPrice to size at entry: total value in the quote / total size (the
     * platform's "total position value / total quantity"). Linear and inverse alike, since sizes are in the base coin
     * (D140): with PnL = size x (exit - entry) / exit, the legs' PnL sums to that of the whole at this mean.
     */
    public static BigDecimal averageEntry(BigDecimal size, BigDecimal entry, BigDecimal addSize, BigDecimal addPrice) {
        return entry.multiply(size).add(addPrice.multiply(addSize)).divide(size.add(addSize), MC);
    }

    /** Notional in USD at the mark price (the tier key for the maintenance-margin rate). */
    public static BigDecimal notionalUsd(BigDecimal size, BigDecimal mark) { return size.multiply(mark); }

    /** Maintenance margin in the margin coin: notional x mmr (inverse: size x mmr, as notional in coin is the size). */
    public static BigDecimal maintenanceMargin(boolean inverse, BigDecimal size, BigDecimal mark, BigDecimal mmr) {
        return (inverse ? size : size.multiply(mark)).multiply(mmr);
    }

    /** §2.15 marginRatio: maintenance margin / (margin + unrealised PnL); 1 (or more) means liquidation. */
    public static BigDecimal marginRatio(BigDecimal maintenance, BigDecimal marginBalance) {
        if (marginBalance.signum() <= 0) return BigDecimal.ONE;
        return maintenance.divide(marginBalance, MC);
    }

    /**
     * §2.15 breakEvenPrice: the exit price at which PnL pays back the fees and funding paid so far.
     * Linear: entry + dir x (deductedFee - totalFunding) / size. Inverse: entry / (1 - dir x cost / size).
     */
    public static BigDecimal breakEven(boolean inverse, int dir, BigDecimal size, BigDecimal entry, BigDecimal cost) {
        if (size.signum() == 0) return BigDecimal.ZERO;
        BigDecimal perUnit = cost.divide(size, MC).multiply(BigDecimal.valueOf(dir));
        if (!inverse) return entry.add(perUnit);
        BigDecimal denom = BigDecimal.ONE.subtract(perUnit);
        return denom.signum() <= 0 ? BigDecimal.ZERO : entry.divide(denom, MC);
    }

    /**
     * §2.15 liquidationPrice: the mark price at which margin + PnL equals the maintenance margin.
     * Linear long:  P = (entry x size - margin) / (size x (1 - mmr));  short: P = (entry x size + margin) / (size x (1 + mmr)).
     * Inverse long: P = size x entry / (margin + size x (1 - mmr));    short: P = size x entry / (size x (1 + mmr) - margin).
     * A result of 0 or less means no liquidation price (reported as "0").
     */
    public static BigDecimal liquidationPrice(boolean inverse, int dir, BigDecimal size, BigDecimal entry, BigDecimal margin, BigDecimal mmr) {
        if (size.signum() == 0) return BigDecimal.ZERO;
        BigDecimal one = BigDecimal.ONE;
        BigDecimal p;
        if (!inverse) {
            BigDecimal num = dir > 0 ? entry.multiply(size).subtract(margin) : entry.multiply(size).add(margin);
            BigDecimal den = size.multiply(dir > 0 ? one.subtract(mmr) : one.add(mmr));
            p = den.signum() <= 0 ? BigDecimal.ZERO : num.divide(den, MC);
        } else {
            BigDecimal den = dir > 0 ? margin.add(size.multiply(one.subtract(mmr))) : size.multiply(one.add(mmr)).subtract(margin);
            p = den.signum() <= 0 ? BigDecimal.ZERO : size.multiply(entry).divide(den, MC);
        }
        return p.signum() <= 0 ? BigDecimal.ZERO : p;
    }

    /**
     * A position's margin after its leverage changes (docs/formulas.md, leverage): the initial margin moves from the
     * old leverage's to the new one's, and margin added or removed by set-margin on top of it stays.
     * margin' = margin + IM(new) - IM(old), IM(l) = initialMargin(size, entry, l).
     */
    public static BigDecimal marginAfterLeverage(boolean inverse, BigDecimal size, BigDecimal entry, BigDecimal margin,
                                                 BigDecimal oldLeverage, BigDecimal newLeverage) {
        return margin.add(initialMargin(inverse, size, entry, newLeverage)).subtract(initialMargin(inverse, size, entry, oldLeverage));
    }

    /**
     * How much isolated margin set-margin may remove (docs/formulas.md): what is left must cover the larger of the
     * initial margin at the position's leverage and the maintenance margin at the mark, after any unrealised loss,
     * so the position stays above maintenance margin. max(0, margin + min(uPnL, 0) - max(IM, MM)).
     */
    public static BigDecimal removableMargin(BigDecimal margin, BigDecimal unrealizedPL, BigDecimal initialMargin, BigDecimal maintenance) {
        BigDecimal keep = initialMargin.max(maintenance);
        return margin.add(unrealizedPL.min(BigDecimal.ZERO)).subtract(keep).max(BigDecimal.ZERO);
    }

    /** Rounds down to 8 decimals (estimates a client may act on never promise more than there is). */
    public static BigDecimal floor(BigDecimal v) { return v.setScale(SCALE, RoundingMode.DOWN); }

    /** Wire rounding of derived figures: 8 decimals, half-even. */
    public static BigDecimal round(BigDecimal v) { return v.setScale(SCALE, RoundingMode.HALF_EVEN); }

    /** The rate of an instrument's tier for this position at this mark. */
    public static BigDecimal mmr(Instrument instrument, BigDecimal size, BigDecimal mark) {
        return instrument.mmrFor(notionalUsd(size, mark));
    }
}
