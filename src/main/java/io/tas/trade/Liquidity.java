package io.tas.trade;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a taker can trade against, best price first: resting orders of every account (price-time priority) and the
 * synthetic levels of the ticker. At one price, resting orders come before the synthetic level (they were there first).
 * maker is null for a synthetic level.
 */
record Liquidity(BigDecimal price, BigDecimal size, TradeOrder maker) {

    /** One fill a taker makes: at a price, a base size, against a maker (null: synthetic). */
    record Fill(BigDecimal price, BigDecimal size, TradeOrder maker) {}

    static List<Liquidity> merge(List<TradeOrder> makers, List<SyntheticBook.Level> synthetic, boolean takerBuys, BigDecimal limit) {
        List<Liquidity> out = new ArrayList<>();
        for (TradeOrder m : makers) out.add(new Liquidity(m.price(), m.remaining(), m));
        for (SyntheticBook.Level l : synthetic) {
            if (limit != null && (takerBuys ? l.price().compareTo(limit) > 0 : l.price().compareTo(limit) < 0)) break;
            out.add(new Liquidity(l.price(), l.size(), null));
        }
        Comparator<Liquidity> byPrice = Comparator.comparing(Liquidity::price);
        if (!takerBuys) byPrice = byPrice.reversed();
        // A stable sort: resting orders (listed first, in time order) stay ahead of a synthetic level at their price.
        out.sort(byPrice);
        return out;
    }

    /**
     * Walks the liquidity for a taker: `base` is the base size to fill, or null when the taker spends a quote budget
     * (a spot market buy), then `quote` is that budget and each fill's size is rounded down to the quantity step.
     */
    static List<Fill> walk(List<Liquidity> book, BigDecimal base, BigDecimal quote, int qtyDecimals) {
        List<Fill> fills = new ArrayList<>();
        BigDecimal left = base != null ? base : quote;
        for (Liquidity l : book) {
            if (left.signum() <= 0) break;
            BigDecimal size = base != null ? l.size().min(left)
                    : l.size().min(left.divide(l.price(), qtyDecimals, RoundingMode.DOWN));
            if (size.signum() <= 0) break;
            fills.add(new Fill(l.price(), size, l.maker()));
            left = left.subtract(base != null ? size : size.multiply(l.price()));
        }
        return fills;
    }

    /** The base size the book can fill (fill-or-kill's test). */
    static BigDecimal depth(List<Liquidity> book) {
        return book.stream().map(Liquidity::size).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
