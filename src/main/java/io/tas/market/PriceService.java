package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * Values coins in USDT from the tickers: the last price of the coin's SPOT pair against USDT. Futures are
 * marked at the contract's mark price. USDT is worth 1; USD-denominated figures treat USDT as USD
 * (docs/formulas.md). A coin without a price is an error: a price is never invented.
 */
public final class PriceService {
    public static final String QUOTE = "USDT";
    private final MarketService market;

    public PriceService(MarketService market) { this.market = market; }

    /** The coin's USDT price, when a SPOT ticker against USDT exists with a positive last price. */
    public Optional<BigDecimal> usdtPrice(String coin) {
        if (QUOTE.equals(coin)) return Optional.of(BigDecimal.ONE);
        return market.ticker(Category.SPOT, coin + QUOTE).map(Ticker::lastPrice).filter(p -> p.signum() > 0);
    }

    public BigDecimal requireUsdtPrice(String coin) {
        return usdtPrice(coin).orElseThrow(() -> new ApiException(ErrorCode.PRICE_UNAVAILABLE, coin));
    }

    /** The mark price of a contract (falls back to nothing: a contract without a mark price has no valuation). */
    public BigDecimal requireMarkPrice(Category category, String symbol) {
        return market.ticker(category, symbol).map(Ticker::markPrice).filter(p -> p != null && p.signum() > 0)
                .orElseThrow(() -> new ApiException(ErrorCode.PRICE_UNAVAILABLE, symbol));
    }
}
