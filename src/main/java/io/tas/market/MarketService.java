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
    private final InstrumentStore instruments = new InstrumentStore();

    public MarketService(Database db) { this.db = db; }

    public void putTicker(Ticker t) {
        if (t.category() == Category.MARGIN) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        db.tx(dsl -> { store.upsert(dsl, t); return null; });
    }

    /** One ticker, if provisioned. */
    public java.util.Optional<Ticker> ticker(Category category, String symbol) {
        return store.list(db.dsl(), category, symbol).stream().findFirst();
    }

    public void putInstrument(Instrument i) {
        if (i.category().isFutures() && (i.marginCoin() == null || i.maxLeverage() == null || i.maxLeverage().signum() <= 0)) {
            throw new ApiException(ErrorCode.PARAM_EMPTY, "marginCoin,maxLeverage");
        }
        db.tx(dsl -> { instruments.upsert(dsl, i); return null; });
    }

    /** A known instrument, or 25100 (trading pair does not exist). */
    public Instrument instrument(Category category, String symbol) {
        return instruments.find(db.dsl(), category, symbol)
                .orElseThrow(() -> new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol));
    }

    /** §4.8: all tickers of a category, or the one symbol (25100 when it does not exist). */
    public List<Ticker> tickers(Category category, String symbol) {
        List<Ticker> list = store.list(db.dsl(), category, symbol);
        if (symbol != null && list.isEmpty()) throw new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol);
        return list;
    }
}
