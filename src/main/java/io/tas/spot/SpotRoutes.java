package io.tas.spot;

import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.RawJson;
import io.tas.http.Routes;
import io.tas.spot.SpotRecords.FillQuery;
import io.tas.spot.SpotRecords.WithdrawalQuery;

import java.util.List;

/** §4.5 spot fills and withdrawal records (classic accounts: the catalog's CLASSIC family answers 40085 to a unified key). */
public final class SpotRoutes implements Routes.Feature {
    private final SpotRecords records;

    public SpotRoutes(SpotRecords records) { this.records = records; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.SPOT_FILLS, this::fills);
        routes.bind(Endpoint.WITHDRAWAL_RECORDS, this::withdrawals);
    }

    /** §2.18: every field a string. */
    public record WithdrawalView(String orderId, String tradeId, String coin, String clientOid, String type, String dest, String size,
                                 String fee, String status, String fromAddress, String toAddress, String chain, String confirm,
                                 String tag, String cTime, String uTime) {}

    /** §2.17 (FillWire): the page is the fills' stored JSON joined into an array, assembled directly as the answer's bytes. */
    private RawJson fills(ApiRequest r) {
        Params p = r.params();
        var q = new FillQuery(p.get("symbol"), p.id("orderId"), p.millis("startTime"), p.millis("endTime"),
                p.intInRange("limit", 100, 1, 100), p.id("idLessThan"));
        List<byte[]> page = records.fillPage(r.uid(), q);
        int length = 2 + Math.max(0, page.size() - 1);
        for (byte[] fill : page) length += fill.length;
        byte[] out = new byte[length];
        int at = 0;
        out[at++] = '[';
        for (int i = 0; i < page.size(); i++) {
            if (i > 0) out[at++] = ',';
            byte[] fill = page.get(i);
            System.arraycopy(fill, 0, out, at, fill.length);
            at += fill.length;
        }
        out[at] = ']';
        return new RawJson(out);
    }

    private List<WithdrawalView> withdrawals(ApiRequest r) {
        Params p = r.params(); // §4.5.2: both times required (TimeWindow.WITHDRAWAL_RECORDS)
        var q = new WithdrawalQuery(p.get("coin"), p.get("clientOid"), p.id("orderId"), p.millis("startTime"), p.millis("endTime"),
                p.intInRange("limit", 20, 1, 100), p.id("idLessThan"));
        return records.withdrawals(r.uid(), q).stream().map(w -> new WithdrawalView(Long.toString(w.orderId()), w.tradeId(), w.coin(),
                w.clientOid(), w.type(), w.dest(), Json.plain(w.size()), Json.plain(w.fee()), w.status(), w.fromAddress(), w.toAddress(),
                w.chain(), w.confirm(), w.tag(), Long.toString(w.cTime()), Long.toString(w.uTime()))).toList();
    }
}
