package io.tas.position;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.store.Database;
import org.jooq.DSLContext;
import org.jooq.Record2;

import java.math.BigDecimal;
import java.util.Optional;

import static io.tas.store.generated.Tables.POSITION_REF;

/**
 * D120: caller references that make a position's open, fill and close idempotent, as refs make the ledger's admin
 * operations. One row per ref with the request it carried, written in the transaction that applies the request: a
 * retry of the same request answers the position without applying it again; the ref on another request is 40017.
 * Requests on one position (or one account's opens) are serialised by its lock, so a repeat always finds the row.
 */
final class PositionRefs {
    private PositionRefs() {}

    /** The position an earlier request with this ref changed, if any; 40017 when that request was another. */
    static Optional<Long> earlier(DSLContext dsl, String ref, String request) {
        if (ref == null) return Optional.empty();
        Ledger.checkRef(ref);
        Record2<Long, String> row = dsl.select(POSITION_REF.POSITION_ID, POSITION_REF.REQUEST).from(POSITION_REF)
                .where(POSITION_REF.REF.eq(ref)).fetchOne();
        if (row == null) return Optional.empty();
        if (!row.value2().equals(request)) throw reused(ref);
        return Optional.of(row.value1());
    }

    /** Records the ref with the request it applied; the same ref stored meanwhile by a request on another position is 40017. */
    static void record(DSLContext dsl, String ref, long positionId, String request, long now) {
        if (ref == null) return;
        Database.insertUnique(() -> dsl.insertInto(POSITION_REF).set(POSITION_REF.REF, ref).set(POSITION_REF.POSITION_ID, positionId)
                .set(POSITION_REF.REQUEST, request).set(POSITION_REF.CREATED_TIME, now).execute(), reusedDetail(ref));
    }

    /** A request's canonical text: numbers without trailing zeros, so 1.50 and 1.5 are the same request. */
    static String request(String op, Object... parts) {
        StringBuilder s = new StringBuilder(op);
        for (Object p : parts) s.append(' ').append(p instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString() : String.valueOf(p));
        return s.toString();
    }

    private static ApiException reused(String ref) {
        return new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, reusedDetail(ref));
    }

    private static String reusedDetail(String ref) { return "ref " + ref + " was already used with different parameters"; }
}
