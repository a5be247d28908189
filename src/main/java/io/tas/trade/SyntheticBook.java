package io.tas.trade;

import io.tas.market.Ticker;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The liquidity the engine derives from a symbol's ticker so that a lone bot always has a counterparty (DESIGN: the
 * matching engine; docs/engine.md). Level 1 is the ticker's best ask/bid with its size; each further level is `stepBps`
 * basis points of the best price further out, with the same size. Stateless: every order sees the levels of the current
 * ticker afresh (a synthetic level is not used up by an earlier order).
 */
public record SyntheticBook(int levels, BigDecimal stepBps, BigDecimal defaultSize, BigDecimal fixedSize) {
    public static final SyntheticBook DEFAULT = new SyntheticBook(20, new BigDecimal("5"), BigDecimal.ONE);

    /**
     * An instrument's book: its own levels, step and level size where it sets them (admin instruments API, D155), this
     * book's otherwise; a level size set on the instrument replaces the ticker's for every level.
     */
    public SyntheticBook of(io.tas.market.Instrument.BookShape shape) {
        if (shape == null || shape.equals(io.tas.market.Instrument.BookShape.DEFAULT)) return this;
        return new SyntheticBook(shape.levels() != null ? shape.levels() : levels, shape.stepBps() != null ? shape.stepBps() : stepBps,
                defaultSize, shape.levelSize());
    }

    public SyntheticBook(int levels, BigDecimal stepBps, BigDecimal defaultSize) { this(levels, stepBps, defaultSize, null); }
    private static final BigDecimal BPS = new BigDecimal("10000");

    /** One price level: price and base size. */
    public record Level(BigDecimal price, BigDecimal size) {}

    /** The ask levels (ascending) of a ticker, prices rounded up to `decimals`; empty without a best ask. */
    public List<Level> asks(Ticker t, int decimals) {
        return side(best(t, true), size(t.ask1Size()), decimals, true);
    }

    /** The bid levels (descending), prices rounded down; empty without a best bid. */
    public List<Level> bids(Ticker t, int decimals) {
        return side(best(t, false), size(t.bid1Size()), decimals, false);
    }

    /** The best ask/bid: the ticker's, or its last price when it gives none; null when it has neither. */
    public static BigDecimal best(Ticker t, boolean ask) {
        if (t == null) return null;
        BigDecimal p = ask ? t.ask1Price() : t.bid1Price();
        if (p == null || p.signum() <= 0) p = t.lastPrice();
        return p == null || p.signum() <= 0 ? null : p;
    }

    private BigDecimal size(BigDecimal s) {
        if (fixedSize != null) return fixedSize;
        return s == null || s.signum() <= 0 ? defaultSize : s;
    }

    private List<Level> side(BigDecimal best, BigDecimal size, int decimals, boolean asks) {
        List<Level> out = new ArrayList<>(levels);
        if (best == null) return out;
        BigDecimal previous = null;
        for (int i = 0; i < levels; i++) {
            BigDecimal offset = best.multiply(stepBps).multiply(BigDecimal.valueOf(i)).divide(BPS);
            BigDecimal p = (asks ? best.add(offset) : best.subtract(offset)).setScale(decimals, asks ? RoundingMode.UP : RoundingMode.DOWN);
            if (i == 0) p = best; // level 1 is the ticker's own price, whatever its decimals
            if (p.signum() <= 0) break;
            // Rounding can merge two levels on a coarse tick: one level per price.
            if (previous != null && p.compareTo(previous) == 0) continue;
            out.add(new Level(p, size));
            previous = p;
        }
        return out;
    }
}
