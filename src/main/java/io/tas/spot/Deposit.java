package io.tas.spot;

import java.math.BigDecimal;

/** A stored deposit record of a unified account (beyond-spec shapes §10). */
public record Deposit(long uid, long orderId, String recordId, String coin, String dest, BigDecimal size, String status,
                      String fromAddress, String toAddress, String chain, long cTime, long uTime) {
    Deposit withOrderId(long id) {
        return new Deposit(uid, id, recordId, coin, dest, size, status, fromAddress, toAddress, chain, cTime, uTime);
    }
}
