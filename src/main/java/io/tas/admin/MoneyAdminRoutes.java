package io.tas.admin;

import io.helidon.webserver.http.HttpRouting;
import io.tas.admin.SeedFile.FillSpec;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedInstrument;
import io.tas.admin.SeedFile.SeedLoanTerms;
import io.tas.admin.SeedFile.SeedPosition;

import io.tas.http.Json;
import io.tas.spot.RecordInputs.FillBatch;
import io.tas.spot.RecordInputs.WithdrawalBatch;
import io.tas.position.Position;
import io.tas.position.PositionMath;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.tas.admin.AdminHttp.longParam;

/** Admin routes of the money core: ledger operations and checks, instruments, loan terms, positions. */
final class MoneyAdminRoutes {
    private final MoneyAdmin p;
    private final RecordsAdmin records;
    private final AdminHttp http;

    MoneyAdminRoutes(MoneyAdmin money, RecordsAdmin records, AdminHttp http) {
        this.p = money;
        this.records = records;
        this.http = http;
    }

    void register(HttpRouting.Builder r) {
        r.post("/admin/v1/ledger/deposit", http.guarded("POST", "/admin/v1/ledger/deposit", req -> p.deposit(http.read(req, LedgerOp.class))));
        r.post("/admin/v1/ledger/adjust", http.guarded("POST", "/admin/v1/ledger/adjust", req -> p.adjust(http.read(req, LedgerOp.class))));
        r.post("/admin/v1/ledger/borrow", http.guarded("POST", "/admin/v1/ledger/borrow", req -> p.borrow(http.read(req, LedgerOp.class))));
        r.get("/admin/v1/ledger/check", http.guarded("GET", "/admin/v1/ledger/check", req -> p.ledgerCheck()));
        r.get("/admin/v1/accounts/{uid}/balances", http.guarded("GET", "/admin/v1/accounts/{uid}/balances", req -> p.balances(longParam(req, "uid"))));
        r.post("/admin/v1/instruments", http.guarded("POST", "/admin/v1/instruments", req -> p.putInstrument(http.read(req, SeedInstrument.class)).symbol()));
        r.post("/admin/v1/loan-terms", http.guarded("POST", "/admin/v1/loan-terms", req -> { p.putLoanTerms(http.read(req, SeedLoanTerms.class)); return null; }));
        r.post("/admin/v1/positions", http.guarded("POST", "/admin/v1/positions", req -> view(p.openPosition(http.read(req, SeedPosition.class)))));
        r.post("/admin/v1/positions/{id}/fill", http.guarded("POST", "/admin/v1/positions/{id}/fill", req -> view(p.fill(longParam(req, "id"), http.read(req, FillSpec.class)))));
        r.post("/admin/v1/positions/{id}/close", http.guarded("POST", "/admin/v1/positions/{id}/close", req -> view(p.close(longParam(req, "id"), http.read(req, FillSpec.class)))));
        r.post("/admin/v1/records/history-positions", http.guarded("POST", "/admin/v1/records/history-positions", req ->
                records.ingestHistoryPositions(http.read(req, io.tas.position.PositionHistory.Batch.class))));
        // Issue 9 batch ingestion: {"uid": ..., "records": [...]}, up to 10,000 records, all or nothing. A feed's
        // batch may exceed the 1 MB cap of other admin bodies, so it has the seed cap (D28).
        r.post("/admin/v1/records/fills", http.guarded("POST", "/admin/v1/records/fills", req -> records.ingestFills(http.readLarge(req, FillBatch.class))));
        r.post("/admin/v1/records/withdrawals", http.guarded("POST", "/admin/v1/records/withdrawals", req -> records.ingestWithdrawals(http.readLarge(req, WithdrawalBatch.class))));
        r.post("/admin/v1/records/deposits", http.guarded("POST", "/admin/v1/records/deposits", req -> records.ingestDeposits(http.readLarge(req, io.tas.spot.RecordInputs.DepositBatch.class))));
        r.get("/admin/v1/accounts/{uid}/positions", http.guarded("GET", "/admin/v1/accounts/{uid}/positions", req -> p.positions(longParam(req, "uid")).stream().map(v -> {
            Map<String, Object> m = view(v.position());
            m.put("markPrice", Json.plain(v.markPrice()));
            m.put("unrealizedPL", Json.plain(PositionMath.round(v.unrealizedPL())));
            m.put("keepMarginRate", Json.plain(v.keepMarginRate()));
            m.put("marginRatio", Json.plain(PositionMath.round(v.marginRatio())));
            m.put("breakEvenPrice", Json.plain(PositionMath.round(v.breakEvenPrice())));
            m.put("liquidationPrice", Json.plain(PositionMath.round(v.liquidationPrice())));
            return m;
        }).toList()));
    }

    /** A position with its money fields as plain strings, like the public API shows money. */
    private static Map<String, Object> view(Position x) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", Long.toString(x.id()));
        m.put("uid", Long.toString(x.uid()));
        m.put("category", x.category().wire());
        m.put("symbol", x.symbol());
        m.put("marginCoin", x.marginCoin());
        m.put("holdSide", x.holdSide().wire());
        m.put("marginMode", x.marginMode().name());
        m.put("posMode", x.posMode().name());
        m.put("leverage", Json.plain(x.leverage()));
        m.put("size", Json.plain(x.size()));
        m.put("openPriceAvg", Json.plain(PositionMath.round(x.openPriceAvg())));
        m.put("closePriceAvg", Json.plain(PositionMath.round(x.closePriceAvg())));
        m.put("marginSize", Json.plain(PositionMath.round(x.marginSize())));
        m.put("achievedProfits", Json.plain(PositionMath.round(x.achievedProfits())));
        m.put("openFeeTotal", Json.plain(x.openFeeTotal()));
        m.put("closeFeeTotal", Json.plain(x.closeFeeTotal()));
        m.put("netProfit", Json.plain(PositionMath.round(x.netProfit())));
        m.put("status", x.status().name());
        m.put("createdTime", Long.toString(x.createdTime()));
        m.put("updatedTime", Long.toString(x.updatedTime()));
        return m;
    }
}
