package io.tas.spot;

import java.math.BigDecimal;

/** A stored withdrawal record (§2.18) of a classic account. */
public record Withdrawal(long uid, long orderId, String tradeId, String coin, String clientOid, String type, String dest,
                         BigDecimal size, BigDecimal fee, String status, String fromAddress, String toAddress, String chain,
                         String confirm, String tag, long cTime, long uTime) {}
