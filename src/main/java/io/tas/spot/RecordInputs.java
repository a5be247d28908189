package io.tas.spot;

import java.math.BigDecimal;
import java.util.List;

/**
 * Records as a feed (admin API, CLI, seed file) hands them in: the §2.17 / §2.18 fields, numbers as strings or
 * JSON numbers. Absent IDs are minted; absent times are "now", or now minus {@code ago} (an ISO-8601 duration such
 * as "PT2H" or "P3D", resolved at ingest time so a seed's records stay inside the 90-day window whenever it runs).
 */
public final class RecordInputs {
    private RecordInputs() {}

    /** A batch call's body: the account and its records (at most SpotRecords.MAX_BATCH). */
    public record FillBatch(Long uid, List<FillInput> records) {}

    public record WithdrawalBatch(Long uid, List<WithdrawalInput> records) {}

    /**
     * A fill. category (default SPOT) and execPnl (default 0) are the v3 fields of a unified account's fills
     * (beyond-spec shapes §9); a classic account's fills are spot fills.
     */
    public record FillInput(Long tradeId, Long orderId, String symbol, String orderType, String side, BigDecimal priceAvg,
                            BigDecimal size, BigDecimal amount, String tradeScope, FeeInput feeDetail, Long cTime, Long uTime,
                            String ago, String category, BigDecimal execPnl) {
        /** A spot fill: the §2.17 fields only. */
        public FillInput(Long tradeId, Long orderId, String symbol, String orderType, String side, BigDecimal priceAvg,
                         BigDecimal size, BigDecimal amount, String tradeScope, FeeInput feeDetail, Long cTime, Long uTime, String ago) {
            this(tradeId, orderId, symbol, orderType, side, priceAvg, size, amount, tradeScope, feeDetail, cTime, uTime, ago, null, null);
        }
    }

    /** §2.17 feeDetail; deduction yes/no (default no), fees default 0. */
    public record FeeInput(String deduction, String feeCoin, BigDecimal totalDeductionFee, BigDecimal totalFee) {}

    public record WithdrawalInput(Long orderId, String tradeId, String coin, String clientOid, String type, String dest,
                                  BigDecimal size, BigDecimal fee, String status, String fromAddress, String toAddress,
                                  String chain, String confirm, String tag, Long cTime, Long uTime, String ago) {}

    public record DepositBatch(Long uid, List<DepositInput> records) {}

    /** A deposit (beyond-spec shapes §10): recordId is the on-chain hash or, for an internal transfer, the order ID. */
    public record DepositInput(Long orderId, String recordId, String coin, String type, String dest, BigDecimal size, String status,
                               String fromAddress, String toAddress, String chain, Long createdTime, Long updatedTime, String ago) {}

    /**
     * A seed's compact demo data: this many generated fills, withdrawals and deposits (SpotDemoData for a classic
     * account, UnifiedDemoData for a unified one).
     */
    public record Generate(Integer fills, Integer withdrawals, Integer deposits) {
        public Generate(Integer fills, Integer withdrawals) { this(fills, withdrawals, null); }
    }
}
