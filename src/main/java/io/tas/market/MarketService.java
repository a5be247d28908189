package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.store.Database;

import java.util.List;

/** Tickers: provisioned through the admin surface, read by the public API (and, later, by pricing). */
public final class MarketService {
    private final Database db;
    private final TickerStore store = new TickerStore();

    public MarketService(Database db) { this.db = db; }

    public void putTicker(Ticker t) {
        if (t.category() == Category.MARGIN) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        db.tx(dsl -> { store.upsert(dsl, t); return null; });
    }

    /** §4.8: all tickers of a category, or the one symbol (25100 when it does not exist). */
    public List<Ticker> tickers(Category category, String symbol) {
        List<Ticker> list = store.list(db.dsl(), category, symbol);
        if (symbol != null && list.isEmpty()) throw new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol);
        return list;
    }
}
