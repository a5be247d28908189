package io.tas.market;

import io.tas.account.AccountEnums.Category;

import java.math.BigDecimal;
import java.util.List;

/**
 * A spot or margin pair, or a futures contract. Contracts carry their margin coin, max leverage and
 * tiered maintenance-margin rates; USDT/USDC futures are linear, COIN futures inverse (margined in the base coin).
 */
public record Instrument(Category category, String symbol, String baseCoin, String quoteCoin, String marginCoin,
                         BigDecimal maxLeverage, boolean reality, List<MmrTier> mmrTiers) {

    /** Notional (USD) up to maxNotional uses the maintenance-margin rate mmr. */
    public record MmrTier(BigDecimal maxNotional, BigDecimal mmr) {}

    public boolean isInverse() { return category == Category.COIN_FUTURES; }

    /** The tier rate for a notional; beyond the last tier the last rate applies. */
    public BigDecimal mmrFor(BigDecimal notional) {
        if (mmrTiers.isEmpty()) return BigDecimal.ZERO;
        for (MmrTier t : mmrTiers) if (notional.compareTo(t.maxNotional()) <= 0) return t.mmr();
        return mmrTiers.getLast().mmr();
    }
}
