package io.tas.proof;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The reference model's arithmetic (RefModel), written from docs/formulas.md, the spec and the decisions it cites, never
 * from the service's classes. Rounding (D134): a figure the service stores is rounded once, half-even, to the ledger's 18
 * decimals from its exact value (formulas.md "Stored position figures have the ledger's 18 decimals, rounded half-even");
 * floors are where the docs say "floor"; a figure the wire shows at 8 decimals is rounded half-even from the exact (or
 * 50-digit) value at comparison time. Sizes are in the base coin; dir is +1 long, -1 short.
 */
final class ModelFormulas {
    private ModelFormulas() {}

    static final int LEDGER_SCALE = 18;
    static final int WIRE_SCALE = 8;
    /** For quotients that do not terminate before they are rounded to a wire scale: far beyond 18 decimals. */
    static final MathContext WIDE = new MathContext(50, RoundingMode.HALF_EVEN);
    static final BigDecimal ONE_UNIT = BigDecimal.ONE.movePointLeft(LEDGER_SCALE);

    static BigDecimal ledger(BigDecimal v) { return v.setScale(LEDGER_SCALE, RoundingMode.HALF_EVEN); }

    static BigDecimal wire(BigDecimal v) { return v.setScale(WIRE_SCALE, RoundingMode.HALF_EVEN); }

    private static BigDecimal div18(BigDecimal a, BigDecimal b) { return a.divide(b, LEDGER_SCALE, RoundingMode.HALF_EVEN); }

    /** An amount the ledger can hold: at most 18 decimals, below 10^20 (formulas.md, Ledger). */
    static boolean ledgerAmount(BigDecimal v) {
        return v != null && v.stripTrailingZeros().scale() <= LEDGER_SCALE && v.abs().compareTo(BigDecimal.TEN.pow(20)) < 0;
    }

    // --- positions (formulas.md "Positions" table)

    /** Initial margin: linear size x price / leverage; inverse size / leverage (size is the base coin, margin in it). */
    static BigDecimal initialMargin(boolean inverse, BigDecimal size, BigDecimal price, BigDecimal leverage) {
        return div18(inverse ? size : size.multiply(price), leverage);
    }

    /**
     * Entry after an add: the size-weighted arithmetic mean, for linear and inverse alike. PnL is size x (exit - entry)
     * (linear) or size x (exit - entry) / exit (inverse) with size in the base coin, so the legs' PnL sums to the whole
     * position's only with the arithmetic mean (issue 24: long 1 at 100, add 1 at 200, close 2 at 200 earns 0.5 BTC).
     */
    static BigDecimal entryAfterAdd(BigDecimal size, BigDecimal entry, BigDecimal added, BigDecimal price) {
        return div18(size.multiply(entry).add(added.multiply(price)), size.add(added));
    }

    /** The planted fault (negative control): the harmonic mean, value in coin being size / price. */
    static BigDecimal harmonicEntry(BigDecimal size, BigDecimal entry, BigDecimal added, BigDecimal price) {
        return div18(size.add(added), size.divide(entry, WIDE).add(added.divide(price, WIDE)));
    }

    /** PnL of size from entry to exit: linear (exit - entry) x size x dir; inverse size x (exit - entry) / exit x dir. Exact. */
    static BigDecimal pnl(boolean inverse, int dir, BigDecimal size, BigDecimal entry, BigDecimal exit) {
        BigDecimal move = exit.subtract(entry).multiply(size).multiply(BigDecimal.valueOf(dir));
        return inverse ? move.divide(exit, WIDE) : move;
    }

    /** Realised PnL as stored: the exact PnL rounded once to 18 decimals. */
    static BigDecimal realised(boolean inverse, int dir, BigDecimal size, BigDecimal entry, BigDecimal exit) {
        BigDecimal move = exit.subtract(entry).multiply(size).multiply(BigDecimal.valueOf(dir));
        return inverse ? div18(move, exit) : ledger(move);
    }

    /** Margin a reduce releases: pro rata, all of it on close (formulas.md). */
    static BigDecimal released(BigDecimal margin, BigDecimal reduce, BigDecimal size) {
        return reduce.compareTo(size) == 0 ? margin : div18(margin.multiply(reduce), size);
    }

    /**
     * formulas.md, leverage: margin' = margin + IM(new) - IM(old), IM(l) = notional / l, rounded once:
     * margin + notional x (old - new) / (old x new).
     */
    static BigDecimal marginAfterLeverage(boolean inverse, BigDecimal size, BigDecimal entry, BigDecimal margin,
                                          BigDecimal oldLeverage, BigDecimal newLeverage) {
        BigDecimal notional = inverse ? size : size.multiply(entry);
        return margin.add(div18(notional.multiply(oldLeverage.subtract(newLeverage)), oldLeverage.multiply(newLeverage)));
    }

    /** The tier rate for notional = size x mark (USD): the first tier whose maxNotional covers it, else the last. */
    static BigDecimal mmr(BigDecimal[][] tiers, BigDecimal size, BigDecimal mark) {
        BigDecimal notional = size.multiply(mark);
        for (BigDecimal[] t : tiers) if (notional.compareTo(t[0]) <= 0) return t[1];
        return tiers[tiers.length - 1][1];
    }

    /** Maintenance margin in the margin coin: linear size x mark x mmr; inverse size x mmr. */
    static BigDecimal maintenance(boolean inverse, BigDecimal size, BigDecimal mark, BigDecimal mmr) {
        return (inverse ? size : size.multiply(mark)).multiply(mmr);
    }

    /** formulas.md set-margin: removable = max(0, margin + min(uPnL, 0) - max(IM, MM)), IM at the ledger's scale. */
    static BigDecimal removable(BigDecimal margin, BigDecimal upl, BigDecimal im, BigDecimal mm) {
        return margin.add(upl.min(BigDecimal.ZERO)).subtract(im.max(mm)).max(BigDecimal.ZERO);
    }

    /** marginRatio = maintenance / (backing + uPnL); 1 when the denominator is 0 or less. Wire scale. */
    static BigDecimal marginRatio(BigDecimal maintenance, BigDecimal backingPlusUpl) {
        return backingPlusUpl.signum() <= 0 ? BigDecimal.ONE.setScale(WIRE_SCALE) : maintenance.divide(backingPlusUpl, WIRE_SCALE, RoundingMode.HALF_EVEN);
    }

    /** breakEvenPrice: linear entry + dir x cost / size; inverse entry x size / (size - dir x cost) (0 when that is 0 or less). Wire scale. */
    static BigDecimal breakEven(boolean inverse, int dir, BigDecimal size, BigDecimal entry, BigDecimal cost) {
        BigDecimal d = BigDecimal.valueOf(dir);
        if (!inverse) return entry.multiply(size).add(d.multiply(cost)).divide(size, WIRE_SCALE, RoundingMode.HALF_EVEN);
        BigDecimal den = size.subtract(d.multiply(cost));
        return den.signum() <= 0 ? BigDecimal.ZERO.setScale(WIRE_SCALE) : entry.multiply(size).divide(den, WIRE_SCALE, RoundingMode.HALF_EVEN);
    }

    /**
     * liquidationPrice (formulas.md): linear long (entry x size - backing) / (size x (1 - mmr)), short (entry x size + backing)
     * / (size x (1 + mmr)); inverse long size x entry / (backing + size x (1 - mmr)), short size x entry / (size x (1 + mmr)
     * - backing). 0 or less is reported as 0 (§2.15). Wire scale.
     */
    static BigDecimal liquidation(boolean inverse, int dir, BigDecimal size, BigDecimal entry, BigDecimal backing, BigDecimal mmr) {
        BigDecimal num, den;
        if (!inverse) {
            num = dir > 0 ? entry.multiply(size).subtract(backing) : entry.multiply(size).add(backing);
            den = size.multiply(dir > 0 ? BigDecimal.ONE.subtract(mmr) : BigDecimal.ONE.add(mmr));
        } else {
            num = size.multiply(entry);
            den = dir > 0 ? backing.add(size.multiply(BigDecimal.ONE.subtract(mmr))) : size.multiply(BigDecimal.ONE.add(mmr)).subtract(backing);
        }
        if (den.signum() <= 0 || num.signum() <= 0) return BigDecimal.ZERO.setScale(WIRE_SCALE);
        return num.divide(den, WIRE_SCALE, RoundingMode.HALF_EVEN);
    }

    // --- small-asset conversion (formulas.md, §4.2)

    /** gross = floor8(available x coinPrice / tokenPrice). */
    static BigDecimal convertGross(BigDecimal available, BigDecimal coinPrice, BigDecimal tokenPrice) {
        return available.multiply(coinPrice).divide(tokenPrice, 8, RoundingMode.DOWN);
    }

    /** fee = floor8(gross x feeRate). */
    static BigDecimal convertFee(BigDecimal gross, BigDecimal feeRate) { return gross.multiply(feeRate).setScale(8, RoundingMode.DOWN); }

    // --- spot fills, Reality ones too (D72, D83: 0.1 % maker and taker; platform-token deduction at a 20 % discount)

    /** The fee in the coin received: rate x (base size for a buy, quote amount for a sell), at the ledger's scale. */
    static BigDecimal fillFee(BigDecimal received, BigDecimal rate) { return ledger(received.multiply(rate)); }

    /** The fee in the platform token: amount x quote price x rate x 0.8 / token price, rounded down to 12 decimals. */
    static BigDecimal tokenFee(BigDecimal amount, BigDecimal quotePrice, BigDecimal rate, BigDecimal tokenPrice) {
        return amount.multiply(quotePrice).multiply(rate).multiply(new BigDecimal("0.8")).divide(tokenPrice, 12, RoundingMode.DOWN);
    }
}
