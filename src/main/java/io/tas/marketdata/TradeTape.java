package io.tas.marketdata;

import io.tas.account.AccountEnums.Category;
import io.tas.store.Tx;

import java.math.BigDecimal;

/**
 * The engine's public trades: every fill is recorded here in the fill's own transaction, so recent trades and candles
 * show exactly what committed. (Stub: issue 25's market-data rows fill it in.)
 */
public class TradeTape {
    /** One trade: price, base size and the taker's side (buy, sell), at ts (ms). */
    public void record(Tx tx, Category category, String symbol, BigDecimal price, BigDecimal size, String takerSide, long ts) {}
}
