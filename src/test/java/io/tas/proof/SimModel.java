package io.tas.proof;

import io.tas.proof.SimWorld.Acct;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one seed's run has been told so far: acknowledged records to read back, prices, IDs handed out. */
final class SimModel {
    /** A record the service acknowledged: whose, and its ID. */
    record Ack(Acct owner, String id) {}

    private final java.time.Clock clock;
    int step;
    int clientOids;
    long recordIds;
    BigDecimal realityMid = new BigDecimal("200.25");
    final Map<String, BigDecimal> mark = new HashMap<>(Map.of("BTCUSDT", new BigDecimal("95000"),
            "ETHUSDT", new BigDecimal("3500"), "BTCUSD", new BigDecimal("95000")));
    /** Acknowledged Reality orders per account, in order of placement. */
    final Map<Acct, List<String>> realityOrders = new LinkedHashMap<>();
    /** Acknowledged ledger bodies per admin operation (a retry repeats one). */
    final Map<String, List<String>> ledgerBodies = new HashMap<>();
    /** The accounts the current step changed settings or positions of: checked right after it. */
    final java.util.Set<Acct> touched = new java.util.LinkedHashSet<>();
    final List<Ack> fills = new ArrayList<>();
    final List<Ack> withdrawals = new ArrayList<>();
    /** Deposit records: an admin deposit to a unified account leaves one with the transaction's ID (D79), a feed's its orderId. */
    final List<Ack> depositRecords = new ArrayList<>();

    /** A record an admin write acknowledged, with the signed read row (target) that must list it under idField. */
    record Read(Acct owner, String id, String target, String idField) {}

    /** An API key the admin API created: its account and credentials. */
    record Key(long uid, io.tas.support.Credentials creds) {}

    /** History positions (v3 for a unified owner, v2 for the classic one) and strategy orders (unfilled or history row). */
    final List<Read> historyPositions = new ArrayList<>();
    final List<Read> strategyOrders = new ArrayList<>();
    /** The last acknowledged profit summary per account: totalProfit, totalAllocatedProfit, totalPendingProfit. */
    final Map<Acct, BigDecimal[]> profitSummaries = new LinkedHashMap<>();
    /** The last acknowledged interest-free amount per coin of POST /admin/v1/loan-terms. */
    final Map<String, BigDecimal> interestFree = new java.util.TreeMap<>();
    /** Keys created and not revoked (they must sign), and revoked ones (they must be refused, 40006). */
    final List<Key> liveKeys = new ArrayList<>();
    final List<Key> revokedKeys = new ArrayList<>();
    /** UIDs of the accounts POST /admin/v1/accounts created. */
    final List<Long> createdAccounts = new ArrayList<>();
    /** Counters of seeded names: access keys, account UIDs. */
    int keys;

    SimModel(java.time.Clock clock) { this.clock = clock; }

    long now() { return clock.millis(); }
}
