package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.math.BigDecimal;
import java.util.List;

/**
 * A spot or margin pair, or a futures contract. Contracts carry their margin coin, max leverage and
 * tiered maintenance-margin rates; USDT/USDC futures are linear, COIN futures inverse (margined in the base coin).
 */
public record Instrument(Category category, String symbol, String baseCoin, String quoteCoin, String marginCoin,
                         BigDecimal maxLeverage, boolean reality, List<MmrTier> mmrTiers, BookShape book, FeeRates fees) {

    /** The instrument's own synthetic book (D155), each part null where the engine's default applies. */
    public record BookShape(Integer levels, BigDecimal stepBps, BigDecimal levelSize) {
        public static final BookShape DEFAULT = new BookShape(null, null, null);
    }

    /** The instrument's own fee rates (D222), each null where its kind's default applies (D72, D156). */
    public record FeeRates(BigDecimal maker, BigDecimal taker) {
        public static final FeeRates DEFAULT = new FeeRates(null, null);
    }

    /** An instrument with the default synthetic book and fee rates. */
    public Instrument(Category category, String symbol, String baseCoin, String quoteCoin, String marginCoin,
                      BigDecimal maxLeverage, boolean reality, List<MmrTier> mmrTiers) {
        this(category, symbol, baseCoin, quoteCoin, marginCoin, maxLeverage, reality, mmrTiers, BookShape.DEFAULT);
    }

    /** An instrument with the default fee rates. */
    public Instrument(Category category, String symbol, String baseCoin, String quoteCoin, String marginCoin,
                      BigDecimal maxLeverage, boolean reality, List<MmrTier> mmrTiers, BookShape book) {
        this(category, symbol, baseCoin, quoteCoin, marginCoin, maxLeverage, reality, mmrTiers, book, FeeRates.DEFAULT);
    }

    /** Notional (USD) up to maxNotional uses the maintenance-margin rate mmr. */
    public record MmrTier(BigDecimal maxNotional, BigDecimal mmr) {}

    public boolean isInverse() { return category == Category.COIN_FUTURES; }

    /** The default spot and margin fee rate, maker and taker alike (decisions.md D72). */
    public static final BigDecimal SPOT_FEE_RATE = new BigDecimal("0.001");
    /** Quantity decimals of every instrument (D72: quantity step 0.0001). */
    public static final int QUANTITY_DECIMALS = 4;
    /** Default price decimals of an instrument without a ticker (D72). */
    public static final int DEFAULT_PRICE_DECIMALS = 2;

    /** The default futures fee rates, the platform's standard tier (D156). */
    public static final BigDecimal FUTURES_MAKER_FEE_RATE = new BigDecimal("0.0002");
    public static final BigDecimal FUTURES_TAKER_FEE_RATE = new BigDecimal("0.0006");

    /** The maker fee rate: the instrument's own (D222), else a spot or margin pair's (D72) or a contract's (D156). */
    public BigDecimal makerFeeRate() {
        if (fees != null && fees.maker() != null) return fees.maker();
        return category.isFutures() ? FUTURES_MAKER_FEE_RATE : SPOT_FEE_RATE;
    }

    /** The taker fee rate: the instrument's own (D222), else a spot or margin pair's (D72) or a contract's (D156). */
    public BigDecimal takerFeeRate() {
        if (fees != null && fees.taker() != null) return fees.taker();
        return category.isFutures() ? FUTURES_TAKER_FEE_RATE : SPOT_FEE_RATE;
    }

    private static final BigDecimal LEVERAGE_LIMIT = new BigDecimal("100000000");

    /** A leverage as stored (numeric(10, 2)): positive, at most 2 decimals, below 10^8; else 40808 before any SQL. */
    public static BigDecimal checkLeverage(String name, BigDecimal v) {
        if (v == null) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        if (v.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        if (v.stripTrailingZeros().scale() > 2 || v.compareTo(LEVERAGE_LIMIT) >= 0) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, name + " checkBDScale error value=" + v.toPlainString() + " checkScale=2");
        }
        return v;
    }

    /** The tier rate for a notional; beyond the last tier the last rate applies. */
    public BigDecimal mmrFor(BigDecimal notional) {
        if (mmrTiers.isEmpty()) return BigDecimal.ZERO;
        for (MmrTier t : mmrTiers) if (notional.compareTo(t.maxNotional()) <= 0) return t.mmr();
        return mmrTiers.getLast().mmr();
    }
}
