package io.tas.spot;

import java.math.BigDecimal;

/** A stored withdrawal record (§2.18; beyond-spec shapes §11 for a unified account). */
public record Withdrawal(long uid, long orderId, String tradeId, String coin, String clientOid, String type, String dest,
                         BigDecimal size, BigDecimal fee, String status, String fromAddress, String toAddress, String chain,
                         String confirm, String tag, long cTime, long uTime) {}
