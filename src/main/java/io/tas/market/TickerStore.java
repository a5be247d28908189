package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.store.generated.tables.records.TickerRecord;
import org.jooq.DSLContext;

import java.util.List;

import static io.tas.store.generated.Tables.TICKER;

/** SQL for tickers. */
final class TickerStore {

    void upsert(DSLContext dsl, Ticker t) {
        TickerRecord r = dsl.newRecord(TICKER);
        r.setCategory(t.category().wire());
        r.setSymbol(t.symbol());
        r.setLastPrice(t.lastPrice());
        r.setOpenPrice_24h(t.openPrice24h());
        r.setHighPrice_24h(t.highPrice24h());
        r.setLowPrice_24h(t.lowPrice24h());
        r.setAsk1Price(t.ask1Price());
        r.setBid1Price(t.bid1Price());
        r.setAsk1Size(t.ask1Size());
        r.setBid1Size(t.bid1Size());
        r.setPrice_24hPcnt(t.price24hPcnt());
        r.setVolume_24h(t.volume24h());
        r.setTurnover_24h(t.turnover24h());
        r.setIndexPrice(t.indexPrice());
        r.setMarkPrice(t.markPrice());
        r.setFundingRate(t.fundingRate());
        r.setOpenInterest(t.openInterest());
        r.setDeliveryStartTime(t.deliveryStartTime());
        r.setDeliveryTime(t.deliveryTime());
        r.setDeliveryStatus(t.deliveryStatus());
        r.setPlatformTurnover_24h(t.platformTurnover24h());
        r.setTs(t.ts());
        // D220: one upsert. A delete then an insert let two concurrent writers of one symbol both delete the old row and
        // the second insert fail on the key (40015 for a ticker move).
        dsl.insertInto(TICKER).set(r).onDuplicateKeyUpdate().set(r).execute();
    }

    List<Ticker> all(DSLContext dsl) {
        return dsl.selectFrom(TICKER).orderBy(TICKER.CATEGORY, TICKER.SYMBOL).fetch(r -> new Ticker(
                Category.fromWire(r.getCategory()), r.getSymbol(), r.getLastPrice(), r.getOpenPrice_24h(),
                r.getHighPrice_24h(), r.getLowPrice_24h(), r.getAsk1Price(), r.getBid1Price(), r.getAsk1Size(),
                r.getBid1Size(), r.getPrice_24hPcnt(), r.getVolume_24h(), r.getTurnover_24h(), r.getIndexPrice(),
                r.getMarkPrice(), r.getFundingRate(), r.getOpenInterest(), r.getDeliveryStartTime(),
                r.getDeliveryTime(), r.getDeliveryStatus(), r.getPlatformTurnover_24h(), r.getTs()));
    }
}
