package io.tas.spot;

import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.spot.UnifiedRecords.FillPage;
import io.tas.spot.UnifiedRecords.FillQuery;
import io.tas.spot.UnifiedRecords.RecordQuery;

import java.util.List;

/**
 * The v3 record rows ccxt reads for unified accounts (beyond-spec shapes §9-11): fills as {list, cursor}, deposit and
 * withdrawal records as plain arrays; every field a string, fee lines an array. The catalog's UNIFIED family answers a
 * classic key 40084 (its records are on the v2 rows).
 */
public final class UnifiedRecordsRoutes implements Routes.Feature {
    private final UnifiedRecords records;

    public UnifiedRecordsRoutes(UnifiedRecords records) { this.records = records; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.UTA_FILLS, this::fills);
        routes.bind(Endpoint.UTA_WITHDRAWAL_RECORDS, this::withdrawals);
        routes.bind(Endpoint.UTA_DEPOSIT_RECORDS, this::deposits);
    }

    /** §9 fee line; ccxt needs feeDetail to be an array and reads its first line. */
    public record FeeLine(String feeCoin, String fee) {}

    /** §9 fill row. */
    public record FillRow(String execId, String orderId, String category, String symbol, String orderType, String side,
                          String execPrice, String execQty, String execValue, String tradeScope, List<FeeLine> feeDetail,
                          String execPnl, String createdTime, String updatedTime) {}

    public record FillsPage(List<FillRow> list, String cursor) {}

    /** §10 deposit row. */
    public record DepositRow(String orderId, String recordId, String coin, String type, String dest, String size, String status,
                             String fromAddress, String toAddress, String chain, String createdTime, String updatedTime) {}

    /** §11 withdrawal row. */
    public record WithdrawalRow(String orderId, String clientOid, String recordId, String coin, String type, String dest, String size,
                                String fee, String confirm, String tag, String status, String fromAddress, String toAddress,
                                String chain, String createdTime, String updatedTime) {}

    /**
     * cursor: the last execId of the page while older fills exist in the window, "" on the last page (as v3
     * history-position, D63). fee: stored with the v2 sign (negative = paid, §2.17's example), shown as the v3 docs
     * show it, a positive charge (§12).
     */
    private FillsPage fills(ApiRequest r) {
        Params p = r.params();
        String category = p.get("category") == null ? null : io.tas.common.Ascii.upper(p.get("category"));
        if (category != null && !SpotRecords.CATEGORIES.contains(category)) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        var q = new FillQuery(category, p.id("orderId"), p.millis("startTime"), p.millis("endTime"), p.intInRange("limit", 100, 1, 100),
                p.id("cursor"));
        FillPage page = records.fills(r.uid(), q);
        List<FillRow> list = page.list().stream().map(f -> new FillRow(Long.toString(f.tradeId()), Long.toString(f.orderId()), f.category(),
                f.symbol(), f.orderType(), f.side(), Json.plain(f.priceAvg()), Json.plain(f.size()), Json.plain(f.amount()), f.tradeScope(),
                List.of(new FeeLine(f.feeCoin(), Json.plain(f.totalFee().negate()))), Json.plain(f.execPnl()), Long.toString(f.cTime()),
                Long.toString(f.uTime()))).toList();
        return new FillsPage(list, page.more() ? list.getLast().execId() : "");
    }

    private List<WithdrawalRow> withdrawals(ApiRequest r) {
        return records.withdrawals(r.uid(), query(r)).stream().map(w -> new WithdrawalRow(Long.toString(w.orderId()), w.clientOid(),
                w.tradeId(), w.coin(), w.type(), w.dest(), Json.plain(w.size()), Json.plain(w.fee()), w.confirm(), w.tag(), w.status(),
                w.fromAddress(), w.toAddress(), w.chain(), Long.toString(w.cTime()), Long.toString(w.uTime()))).toList();
    }

    private List<DepositRow> deposits(ApiRequest r) {
        return records.deposits(r.uid(), query(r)).stream().map(d -> new DepositRow(Long.toString(d.orderId()), d.recordId(), d.coin(),
                "deposit", d.dest(), Json.plain(d.size()), d.status(), d.fromAddress(), d.toAddress(), d.chain(), Long.toString(d.cTime()),
                Long.toString(d.uTime()))).toList();
    }

    /** §10 / §11: startTime and endTime required (TimeWindow: 40019 names the missing ones); limit default 20, max 100. */
    private static RecordQuery query(ApiRequest r) {
        Params p = r.params();
        return new RecordQuery(p.get("coin"), p.id("orderId"), p.get("clientOid"), p.millis("startTime"), p.millis("endTime"),
                p.intInRange("limit", 20, 1, 100), p.id("cursor"));
    }
}
