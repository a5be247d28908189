package io.tas.market;

import io.tas.account.AccountEnums.Category;
import org.jooq.DSLContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.tas.store.generated.Tables.INSTRUMENT;
import static io.tas.store.generated.Tables.INSTRUMENT_MMR_TIER;

/** SQL for instruments and their maintenance-margin tiers. */
final class InstrumentStore {

    void upsert(DSLContext dsl, Instrument i) {
        var key = INSTRUMENT.CATEGORY.eq(i.category().wire()).and(INSTRUMENT.SYMBOL.eq(i.symbol()));
        dsl.deleteFrom(INSTRUMENT_MMR_TIER).where(INSTRUMENT_MMR_TIER.CATEGORY.eq(i.category().wire())
                .and(INSTRUMENT_MMR_TIER.SYMBOL.eq(i.symbol()))).execute();
        dsl.deleteFrom(INSTRUMENT).where(key).execute();
        dsl.insertInto(INSTRUMENT)
                .set(INSTRUMENT.CATEGORY, i.category().wire()).set(INSTRUMENT.SYMBOL, i.symbol())
                .set(INSTRUMENT.BASE_COIN, i.baseCoin()).set(INSTRUMENT.QUOTE_COIN, i.quoteCoin())
                .set(INSTRUMENT.MARGIN_COIN, i.marginCoin()).set(INSTRUMENT.MAX_LEVERAGE, i.maxLeverage())
                .set(INSTRUMENT.IS_REALITY, i.reality()).set(INSTRUMENT.BOOK_LEVELS, i.book().levels())
                .set(INSTRUMENT.BOOK_STEP_BPS, i.book().stepBps()).set(INSTRUMENT.BOOK_LEVEL_SIZE, i.book().levelSize())
                .set(INSTRUMENT.MAKER_FEE_RATE, i.fees().maker()).set(INSTRUMENT.TAKER_FEE_RATE, i.fees().taker()).execute();
        int tier = 1;
        for (Instrument.MmrTier t : i.mmrTiers()) {
            dsl.insertInto(INSTRUMENT_MMR_TIER)
                    .set(INSTRUMENT_MMR_TIER.CATEGORY, i.category().wire()).set(INSTRUMENT_MMR_TIER.SYMBOL, i.symbol())
                    .set(INSTRUMENT_MMR_TIER.TIER, tier++).set(INSTRUMENT_MMR_TIER.MAX_NOTIONAL, t.maxNotional())
                    .set(INSTRUMENT_MMR_TIER.MMR, t.mmr()).execute();
        }
    }

    List<Instrument> all(DSLContext dsl) {
        Map<String, List<Instrument.MmrTier>> tiers = new HashMap<>();
        dsl.selectFrom(INSTRUMENT_MMR_TIER).orderBy(INSTRUMENT_MMR_TIER.TIER).forEach(t -> tiers
                .computeIfAbsent(t.getCategory() + " " + t.getSymbol(), k -> new ArrayList<>())
                .add(new Instrument.MmrTier(t.getMaxNotional(), t.getMmr())));
        return dsl.selectFrom(INSTRUMENT).fetch(r -> new Instrument(Category.fromWire(r.getCategory()), r.getSymbol(),
                r.getBaseCoin(), r.getQuoteCoin(), r.getMarginCoin(), r.getMaxLeverage(), r.getIsReality(),
                List.copyOf(tiers.getOrDefault(r.getCategory() + " " + r.getSymbol(), List.of())),
                new Instrument.BookShape(r.getBookLevels(), r.getBookStepBps(), r.getBookLevelSize()),
                new Instrument.FeeRates(r.getMakerFeeRate(), r.getTakerFeeRate())));
    }
}
