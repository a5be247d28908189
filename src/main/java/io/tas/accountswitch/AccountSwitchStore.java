package io.tas.accountswitch;

import io.tas.store.generated.tables.records.AccountSwitchRecord;
import org.jooq.DSLContext;

import java.util.Optional;

import static io.tas.store.generated.Tables.ACCOUNT_SWITCH;

/** SQL for the switch requests; nothing else touches account_switch. */
final class AccountSwitchStore {

    /** An account's latest switch request. attempt names its job; finishedTime and transferTx are set when it ends. */
    record Row(long uid, int attempt, SwitchStatus status, String reason, long requestedTime, long dueTime, Long finishedTime, Long transferTx) {
        Row finished(SwitchStatus outcome, String why, long now, Long tx) {
            return new Row(uid, attempt, outcome, why, requestedTime, dueTime, now, tx);
        }
    }

    Optional<Row> find(DSLContext dsl, long uid) {
        return dsl.selectFrom(ACCOUNT_SWITCH).where(ACCOUNT_SWITCH.UID.eq(uid)).fetchOptional().map(AccountSwitchStore::toRow);
    }

    void insert(DSLContext dsl, Row r) {
        dsl.insertInto(ACCOUNT_SWITCH).set(record(dsl, r)).execute();
    }

    void update(DSLContext dsl, Row r) {
        dsl.update(ACCOUNT_SWITCH).set(record(dsl, r)).where(ACCOUNT_SWITCH.UID.eq(r.uid())).execute();
    }

    private static AccountSwitchRecord record(DSLContext dsl, Row r) {
        AccountSwitchRecord rec = dsl.newRecord(ACCOUNT_SWITCH);
        rec.setUid(r.uid());
        rec.setAttempt(r.attempt());
        rec.setStatus(r.status().name());
        rec.setReason(r.reason());
        rec.setRequestedTime(r.requestedTime());
        rec.setDueTime(r.dueTime());
        rec.setFinishedTime(r.finishedTime());
        rec.setTransferTx(r.transferTx());
        return rec;
    }

    private static Row toRow(AccountSwitchRecord r) {
        return new Row(r.getUid(), r.getAttempt(), SwitchStatus.valueOf(r.getStatus()), r.getReason(), r.getRequestedTime(),
                r.getDueTime(), r.getFinishedTime(), r.getTransferTx());
    }
}
