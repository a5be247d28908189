package io.tas.copytrade;

import org.jooq.DSLContext;

import static io.tas.store.generated.Tables.COPY_PROFIT_SUMMARY;

/** SQL for the copy-trading profit summary. */
final class CopyTradeStore {

    /** Inserts or replaces the account's summary (MERGE on H2, ON CONFLICT on PostgreSQL). */
    void put(DSLContext dsl, ProfitSummary s) {
        var t = COPY_PROFIT_SUMMARY;
        dsl.insertInto(t, t.UID, t.TOTAL_PROFIT, t.TOTAL_ALLOCATED_PROFIT, t.TOTAL_PENDING_PROFIT, t.UPDATED_TIME)
                .values(s.uid(), s.totalProfit(), s.totalAllocatedProfit(), s.totalPendingProfit(), s.updatedTime())
                .onConflict(t.UID).doUpdate()
                .set(t.TOTAL_PROFIT, s.totalProfit())
                .set(t.TOTAL_ALLOCATED_PROFIT, s.totalAllocatedProfit())
                .set(t.TOTAL_PENDING_PROFIT, s.totalPendingProfit())
                .set(t.UPDATED_TIME, s.updatedTime())
                .execute();
    }

    ProfitSummary find(DSLContext dsl, long uid) {
        var t = COPY_PROFIT_SUMMARY;
        return dsl.selectFrom(t).where(t.UID.eq(uid)).fetchOptional()
                .map(r -> new ProfitSummary(r.getUid(), r.getTotalProfit(), r.getTotalAllocatedProfit(), r.getTotalPendingProfit(), r.getUpdatedTime()))
                .orElse(null);
    }
}
