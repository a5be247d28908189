package io.tas.admin;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRouting;
import io.tas.copytrade.ProfitSummary;
import io.tas.copytrade.ProfitSummaryInput;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.Json;
import io.tas.strategy.StrategyInput;

import java.util.ArrayList;
import java.util.List;

/**
 * Admin ingestion of issue 9's strategy orders and copy-trading profit summaries. A batch is all or nothing: the first
 * invalid record is refused naming records[i].field, and nothing is stored.
 */
final class RecordsAdminRoutes {
    private final RecordsAdmin p;
    private final AdminHttp http;

    RecordsAdminRoutes(RecordsAdmin records, AdminHttp http) {
        this.p = records;
        this.http = http;
    }

    /** POST /admin/v1/records/strategy-orders body: one account's orders. */
    record StrategyBatch(Long uid, List<JsonNode> records) {}

    void register(HttpRouting.Builder r) {
        r.post("/admin/v1/records/strategy-orders", http.guarded("POST", "/admin/v1/records/strategy-orders", req -> {
            StrategyBatch b = http.read(req, StrategyBatch.class);
            if (b.uid() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "uid");
            if (b.records() == null || b.records().isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "records");
            List<StrategyInput> records = new ArrayList<>(b.records().size());
            for (int i = 0; i < b.records().size(); i++) records.add(record("records[" + i + "]", b.records().get(i)));
            var stored = p.strategyOrders(b.uid(), records);
            return new StoredOrders(stored.size(), stored.stream().map(o -> Long.toString(o.orderId())).toList());
        }));
        r.post("/admin/v1/records/profit-summary", http.guarded("POST", "/admin/v1/records/profit-summary", req -> {
            ProfitSummaryInput in = http.read(req, ProfitSummaryInput.class);
            if (in.uid() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "uid");
            ProfitSummary s = p.profitSummary(in.uid(), in);
            return new ProfitSummaryView(Long.toString(s.uid()), Json.plain(s.totalProfit()), Json.plain(s.totalAllocatedProfit()),
                    Json.plain(s.totalPendingProfit()));
        }));
    }

    // Answers are records, so their fields keep one order (Map.of's order changes from JVM to JVM, and replayed transcripts with it).
    record StoredOrders(int count, List<String> orderIds) {}

    record ProfitSummaryView(String uid, String totalProfit, String totalAllocatedProfit, String totalPendingProfit) {}

    /** One record, a malformed field named with the record's index (40020 Parameter records[i].field error). */
    private static StrategyInput record(String at, JsonNode node) {
        if (node == null || !node.isObject()) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + " is not an object");
        try {
            return SeedFile.JSON.treeToValue(node, StrategyInput.class);
        } catch (JsonMappingException e) {
            StringBuilder field = new StringBuilder(at);
            for (var ref : e.getPath()) {
                if (ref.getFieldName() != null) field.append('.').append(ref.getFieldName());
                else if (ref.getIndex() >= 0) field.append('[').append(ref.getIndex()).append(']');
            }
            throw new ApiException(ErrorCode.PARAM_ERROR, field.toString());
        } catch (java.io.IOException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, at);
        }
    }
}
