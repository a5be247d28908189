package io.tas.admin;

import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.copytrade.CopyTradeService;
import io.tas.copytrade.ProfitSummary;
import io.tas.copytrade.ProfitSummaryInput;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.position.PositionHistory;
import io.tas.spot.RecordInputs.DepositBatch;
import io.tas.spot.RecordInputs.DepositInput;
import io.tas.spot.RecordInputs.FillBatch;
import io.tas.spot.RecordInputs.FillInput;
import io.tas.spot.RecordInputs.Generate;
import io.tas.spot.RecordInputs.WithdrawalBatch;
import io.tas.spot.RecordInputs.WithdrawalInput;
import io.tas.spot.SpotDemoData;
import io.tas.spot.SpotRecords;
import io.tas.spot.UnifiedDemoData;
import io.tas.spot.UnifiedRecords;
import io.tas.store.Tx;
import io.tas.strategy.StrategyInput;
import io.tas.strategy.StrategyOrder;
import io.tas.strategy.StrategyService;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import static io.tas.admin.AdminInputs.require;

/**
 * Record ingestion (issue 9): fills, withdrawals and deposits feeds, history positions, strategy orders and profit
 * summaries, as a matching engine or the platform's history would report them; each batch all or nothing (D58).
 */
public final class RecordsAdmin {
    private final Clock clock;
    private final PositionHistory history;
    private final StrategyService strategies;
    private final CopyTradeService copyTrading;
    private final SpotRecords spot;
    private final UnifiedRecords unifiedRecords;

    public RecordsAdmin(Clock clock, PositionHistory history, StrategyService strategies, CopyTradeService copyTrading,
                        SpotRecords spot, UnifiedRecords unifiedRecords) {
        this.clock = clock;
        this.history = history;
        this.strategies = strategies;
        this.copyTrading = copyTrading;
        this.spot = spot;
        this.unifiedRecords = unifiedRecords;
    }

    /** A batch of one unified account's strategy orders, all or nothing (StrategyService.ingest). */
    public List<StrategyOrder> strategyOrders(long uid, List<StrategyInput> records) {
        return strategies.ingest(uid, records);
    }

    /** Sets an account's copy-trading profit summary. */
    public ProfitSummary profitSummary(long uid, ProfitSummaryInput in) {
        return copyTrading.put(uid, in);
    }

    /** What a record feed stored; a record, so its fields keep one order (Map.of's order changes from JVM to JVM). */
    public record Ingested(String uid, int stored) {}

    /** The admin batch call: {"uid": ..., "records": [...]}; all or nothing (SpotRecords). */
    public Ingested ingestFills(FillBatch b) {
        return new Ingested(Long.toString(require(b.uid(), "uid")), spot.ingestFills(b.uid(), b.records()));
    }

    public Ingested ingestWithdrawals(WithdrawalBatch b) {
        return new Ingested(Long.toString(require(b.uid(), "uid")), spot.ingestWithdrawals(b.uid(), b.records()));
    }

    /** Deposit records of a unified account (beyond-spec shapes §10), all or nothing (UnifiedRecords). */
    public Ingested ingestDeposits(DepositBatch b) {
        return new Ingested(Long.toString(require(b.uid(), "uid")), unifiedRecords.ingestDeposits(b.uid(), b.records()));
    }

    /** History positions a matching engine reports: all or nothing (PositionHistory.ingest). */
    public PositionHistory.Ingested ingestHistoryPositions(PositionHistory.Batch batch) {
        if (batch == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "records");
        return history.ingest(batch.records());
    }

    /**
     * A seed's records of one account, in its transaction: history positions (listed and generated), strategy orders,
     * the profit summary, and fills, withdrawals and deposits (listed and generated: SpotDemoData's for a classic
     * account, UnifiedDemoData's for a unified one), in batches of the admin API's size with the same checks.
     */
    void seed(Tx tx, Account a, SeedAccount spec) {
        long uid = a.uid();
        List<PositionHistory.HistoryRecord> closed = new ArrayList<>();
        for (PositionHistory.HistoryRecord h : spec.historyPositions()) closed.add(h == null ? null : h.withUid(uid));
        for (PositionHistory.Series s : spec.historyPositionSeries()) closed.addAll(history.generate(uid, s, clock.millis()));
        if (!closed.isEmpty()) history.ingest(tx, closed);
        if (!spec.strategyOrders().isEmpty()) strategies.ingest(tx, uid, spec.strategyOrders());
        if (spec.profitSummary() != null) copyTrading.put(tx, uid, spec.profitSummary());

        boolean unified = a.kind() == AccountKind.UNIFIED;
        List<FillInput> fills = new ArrayList<>(spec.fills());
        List<WithdrawalInput> withdrawals = new ArrayList<>(spec.withdrawals());
        List<DepositInput> deposits = new ArrayList<>(spec.deposits());
        Generate g = spec.generate();
        if (g != null) {
            if (g.fills() != null) {
                int n = count("generate.fills", g.fills());
                fills.addAll(unified ? UnifiedDemoData.fills(n) : SpotDemoData.fills(n));
            }
            if (g.withdrawals() != null) {
                int n = count("generate.withdrawals", g.withdrawals());
                withdrawals.addAll(unified ? UnifiedDemoData.withdrawals(n) : SpotDemoData.withdrawals(n));
            }
            if (g.deposits() != null) deposits.addAll(UnifiedDemoData.deposits(count("generate.deposits", g.deposits())));
        }
        inBatches(fills, (from, to) -> spot.ingestFills(tx, uid, fills.subList(from, to)));
        inBatches(withdrawals, (from, to) -> spot.ingestWithdrawals(tx, uid, withdrawals.subList(from, to)));
        inBatches(deposits, (from, to) -> unifiedRecords.ingestDeposits(tx, uid, deposits.subList(from, to)));
    }

    private static void inBatches(List<?> all, BiConsumer<Integer, Integer> batch) {
        for (int i = 0; i < all.size(); i += SpotRecords.MAX_BATCH) batch.accept(i, Math.min(all.size(), i + SpotRecords.MAX_BATCH));
    }

    private static int count(String name, int n) {
        if (n < 0 || n > 1_000_000) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return n;
    }
}
