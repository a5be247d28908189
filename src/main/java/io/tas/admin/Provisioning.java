package io.tas.admin;

import io.tas.account.Account;
import io.tas.account.AccountEnums.*;
import io.tas.account.AccountService;
import io.tas.account.AccountSettings;
import io.tas.account.NewAccount;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.admin.SeedFile.SeedKey;
import io.tas.admin.SeedFile.SeedSettings;
import io.tas.admin.SeedFile.SeedTicker;
import io.tas.admin.SeedFile.FillSpec;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedBalance;
import io.tas.admin.SeedFile.SeedInstrument;
import io.tas.admin.SeedFile.SeedLoanTerms;
import io.tas.admin.SeedFile.SeedPosition;
import io.tas.http.Json;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.loan.LoanService;
import io.tas.market.Instrument;
import io.tas.position.Position;
import io.tas.position.PositionHistory;
import io.tas.position.PositionService;
import io.tas.auth.ApiKey.PermType;
import io.tas.auth.ApiKeyService;
import io.tas.auth.ApiKeyService.CreatedKey;
import io.tas.auth.NewApiKey;
import io.tas.auth.Permission;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.market.MarketService;
import io.tas.market.Ticker;
import io.tas.ratelimit.RateLimiter;
import io.tas.spot.RecordInputs.FillBatch;
import io.tas.spot.RecordInputs.FillInput;
import io.tas.spot.RecordInputs.Generate;
import io.tas.spot.RecordInputs.WithdrawalBatch;
import io.tas.spot.RecordInputs.WithdrawalInput;
import io.tas.spot.SpotDemoData;
import io.tas.spot.SpotRecords;
import io.tas.spot.RecordInputs.DepositBatch;
import io.tas.spot.RecordInputs.DepositInput;
import io.tas.spot.UnifiedDemoData;
import io.tas.spot.UnifiedRecords;
import io.tas.store.Database;
import io.tas.copytrade.CopyTradeService;
import io.tas.copytrade.ProfitSummary;
import io.tas.copytrade.ProfitSummaryInput;
import io.tas.strategy.StrategyInput;
import io.tas.strategy.StrategyOrder;
import io.tas.strategy.StrategyService;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns admin requests and seed documents into service commands. The admin HTTP API, the CLI and seed
 * files all end here, and from here only the same services the API uses are called.
 */
public final class Provisioning {
    private final Database db;
    private final Clock clock;
    private final AccountService accounts;
    private final ApiKeyService keys;
    private final MarketService market;
    private final RateLimiter limiter;
    private final Ledger ledger;
    private final LoanService loans;
    private final PositionService positions;
    private final PositionHistory history;
    private final StrategyService strategies;
    private final CopyTradeService copyTrading;
    private final SpotRecords spot;
    private final UnifiedRecords unifiedRecords;
    private final io.tas.reality.RealityService reality;

    public Provisioning(Database db, Clock clock, AccountService accounts, ApiKeyService keys, MarketService market,
                        RateLimiter limiter, Ledger ledger, LoanService loans, PositionService positions,
                        PositionHistory history, StrategyService strategies, CopyTradeService copyTrading, SpotRecords spot,
                        UnifiedRecords unifiedRecords, io.tas.reality.RealityService reality) {
        this.reality = reality;
        this.strategies = strategies;
        this.copyTrading = copyTrading;
        this.db = db;
        this.clock = clock;
        this.accounts = accounts;
        this.keys = keys;
        this.market = market;
        this.limiter = limiter;
        this.ledger = ledger;
        this.loans = loans;
        this.positions = positions;
        this.history = history;
        this.spot = spot;
        this.unifiedRecords = unifiedRecords;
    }

    /** What a seed created: accounts, and each key with its secret (shown this once). */
    public record SeedResult(List<Account> accounts, List<CreatedKey> keys, int tickers) {}

    /** One transaction for the whole document: a seed that fails anywhere leaves nothing behind. */
    public SeedResult apply(SeedFile seed) {
        try {
            return db.tx(dsl -> applyAll(seed));
        } catch (RuntimeException e) {
            accounts.invalidateAll(); // entries read inside the rolled-back transaction
            keys.invalidateAll();
            market.invalidate();
            throw e;
        }
    }

    private SeedResult applyAll(SeedFile seed) {
        List<Account> created = new ArrayList<>();
        List<CreatedKey> createdKeys = new ArrayList<>();
        for (SeedInstrument i : seed.instruments()) putInstrument(i);
        for (SeedTicker t : seed.tickers()) putTicker(t);
        for (SeedLoanTerms t : seed.loanTerms()) putLoanTerms(t);
        for (SeedAccount main : seed.accounts()) {
            Account m = createAccount(main, null);
            created.add(m);
            seedAccountContents(m, main, createdKeys);
            for (SeedAccount sub : main.subAccounts()) {
                Account s = createAccount(sub, m.uid());
                created.add(s);
                seedAccountContents(s, sub, createdKeys);
            }
        }
        return new SeedResult(created, createdKeys, seed.tickers().size());
    }

    private void seedAccountContents(Account a, SeedAccount spec, List<CreatedKey> createdKeys) {
        for (SeedKey k : spec.apiKeys()) createdKeys.add(createKey(a.uid(), k));
        // The opening balances are one deposit transaction per account: a seed with thousands of balances costs
        // a few statements per account, not per balance.
        List<Movement> deposits = new ArrayList<>();
        for (SeedBalance b : spec.balances()) {
            // A negative opening balance or debt is a mistake in the seed, refused like a negative deposit (40020).
            if (b.available() != null && Ledger.checkAmount("available", b.available()).signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "available");
            if (b.debt() != null && Ledger.checkAmount("debt", b.debt()).signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "debt");
            if (b.available() != null && b.available().signum() > 0) {
                deposits.add(Ledger.move(balanceKey(a.uid(), b.account(), b.coin()), Field.available, b.available(), Counter.deposit));
            }
        }
        if (!deposits.isEmpty()) ledger.postOnce("deposit", "seed:" + a.uid(), a.uid(), deposits);
        for (SeedBalance b : spec.balances()) {
            String ref = "seed:" + a.uid() + ":" + b.account() + ":" + b.coin();
            if (b.debt() != null && b.debt().signum() > 0) {
                // Debt is the unified account's (D57): on another account it would be borrowed into unified unseen.
                if (b.account() != null && !"unified".equals(b.account())) {
                    throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "debt of " + b.coin() + " on the " + b.account() + " account: only the unified account borrows");
                }
                borrow(new LedgerOp(a.uid(), "unified", b.coin(), b.debt(), ref + ":debt"));
            }
        }
        for (SeedPosition pos : spec.positions()) {
            // D120: refs are for retries of the admin rows; a seed is one transaction and is refused or stored whole.
            if (pos.ref() != null) throw new ApiException(ErrorCode.PARAM_ERROR, "ref");
            openPosition(new SeedPosition(a.uid(), pos.category(), pos.symbol(), pos.holdSide(), pos.marginMode(),
                    pos.leverage(), pos.size(), pos.price(), pos.fee(), null));
        }
        List<PositionHistory.HistoryRecord> closed = new ArrayList<>();
        for (PositionHistory.HistoryRecord h : spec.historyPositions()) closed.add(h == null ? null : h.withUid(a.uid()));
        for (PositionHistory.Series s : spec.historyPositionSeries()) closed.addAll(history.generate(a.uid(), s, clock.millis()));
        if (!closed.isEmpty()) history.ingest(closed);
        if (!spec.strategyOrders().isEmpty()) strategyOrders(a.uid(), spec.strategyOrders());
        if (spec.profitSummary() != null) profitSummary(a.uid(), spec.profitSummary());
        seedSpotRecords(a, spec);
    }

    // --- records (issue 9): strategy orders and the copy-trading profit summary

    /** A batch of one unified account's strategy orders, all or nothing (StrategyService.ingest). */
    public List<StrategyOrder> strategyOrders(long uid, List<StrategyInput> records) {
        return strategies.ingest(uid, records);
    }

    /** Sets an account's copy-trading profit summary. */
    public ProfitSummary profitSummary(long uid, ProfitSummaryInput in) {
        return copyTrading.put(uid, in);
    }

    /**
     * A seed's fills, withdrawals and deposits, listed and generated, in batches of the admin API's size (same checks).
     * Generated records are SpotDemoData's for a classic account and UnifiedDemoData's for a unified one.
     */
    private void seedSpotRecords(Account a, SeedAccount spec) {
        long uid = a.uid();
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
        for (int i = 0; i < fills.size(); i += SpotRecords.MAX_BATCH) {
            spot.ingestFills(uid, fills.subList(i, Math.min(fills.size(), i + SpotRecords.MAX_BATCH)));
        }
        for (int i = 0; i < withdrawals.size(); i += SpotRecords.MAX_BATCH) {
            spot.ingestWithdrawals(uid, withdrawals.subList(i, Math.min(withdrawals.size(), i + SpotRecords.MAX_BATCH)));
        }
        for (int i = 0; i < deposits.size(); i += SpotRecords.MAX_BATCH) {
            unifiedRecords.ingestDeposits(uid, deposits.subList(i, Math.min(deposits.size(), i + SpotRecords.MAX_BATCH)));
        }
    }

    private static int count(String name, int n) {
        if (n < 0 || n > 1_000_000) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return n;
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

    public Account createAccount(SeedAccount a, Long parentUid) {
        if (a.username() == null || a.username().isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, "username");
        // Column widths of the account table (V1): a longer value is a 400 here, never a database error.
        maxLength("username", a.username(), 64);
        maxLength("note", a.note(), 255);
        maxLength("inviterId", a.inviterId(), 32);
        maxLength("channelCode", a.channelCode(), 32);
        maxLength("channel", a.channel(), 32);
        return accounts.create(new NewAccount(a.uid(), parentUid, a.username(),
                or(a.type(), io.tas.account.AccountEnums.AccountType.normal), or(a.accountMode(), AccountKind.UNIFIED), or(a.status(), AccountStatus.normal),
                or(a.note(), ""), or(a.inviterId(), ""), or(a.channelCode(), ""), or(a.channel(), ""),
                Boolean.TRUE.equals(a.realityAllowed()), a.createdTime(), settings(a.settings())));
    }

    public CreatedKey createKey(long uid, SeedKey k) {
        PermType permType = parse(() -> PermType.fromWire(or(k.permType(), "read-and-write")), "permType");
        List<String> names = k.permissions() == null ? List.of("uta_mgt", "uta_trade") : k.permissions();
        var perms = new LinkedHashSet<Permission>();
        for (String n : names) perms.add(parse(() -> Permission.fromWire(n), "permissions"));
        // Column widths of the api_key table (V1); the secret is stored encrypted (Base64 of nonce + secret + tag).
        maxLength("accessKey", k.accessKey(), 64);
        maxLength("label", k.label(), 64);
        maxLength("secret", k.secret(), 256);
        if (k.ips() != null) maxLength("ips", String.join(",", k.ips()), 1024);
        return keys.create(new NewApiKey(uid, k.label(), permType, perms, k.ips() == null ? List.of() : k.ips(),
                k.accessKey(), k.secret(), k.passphrase()));
    }

    public Ticker putTicker(SeedTicker t) {
        if (t.category() == null || t.symbol() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "category,symbol");
        Category c = parse(() -> Category.fromWire(t.category()), "category");
        symbol(t.symbol());
        if (t.lastPrice() != null && t.lastPrice().signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "lastPrice");
        checkAmounts("lastPrice", t.lastPrice(), "openPrice24h", t.openPrice24h(), "highPrice24h", t.highPrice24h(),
                "lowPrice24h", t.lowPrice24h(), "ask1Price", t.ask1Price(), "bid1Price", t.bid1Price(), "ask1Size", t.ask1Size(),
                "bid1Size", t.bid1Size(), "price24hPcnt", t.price24hPcnt(), "volume24h", t.volume24h(), "turnover24h", t.turnover24h(),
                "indexPrice", t.indexPrice(), "markPrice", t.markPrice(), "fundingRate", t.fundingRate(),
                "openInterest", t.openInterest(), "platformTurnover24h", t.platformTurnover24h());
        if (t.deliveryStatus() != null && t.deliveryStatus().length() > 32) throw new ApiException(ErrorCode.PARAM_ERROR, "deliveryStatus");
        Ticker ticker = new Ticker(c, t.symbol(), z(t.lastPrice()), z(t.openPrice24h()), z(t.highPrice24h()),
                z(t.lowPrice24h()), z(t.ask1Price()), z(t.bid1Price()), z(t.ask1Size()), z(t.bid1Size()),
                z(t.price24hPcnt()), z(t.volume24h()), z(t.turnover24h()),
                futures(c, t.indexPrice()), futures(c, t.markPrice()), futures(c, t.fundingRate()), futures(c, t.openInterest()),
                t.deliveryStartTime(), t.deliveryTime(), t.deliveryStatus(), t.platformTurnover24h(),
                t.ts() != null ? t.ts() : clock.millis());
        market.putTicker(ticker);
        // Issue 10: a ticker update fills the Reality orders it crosses (simulated execution). Not inside a seed's
        // transaction: a seed provisions, it does not trade.
        // The ticker is committed by now: matching never fails the admin's call (D83; each order's failure is logged).
        if (reality != null && !db.inTransaction()) {
            try {
                reality.onTicker(ticker);
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(Provisioning.class).warn("Reality matching on the {} ticker failed: {}",
                        ticker.symbol(), e.getClass().getSimpleName());
            }
        }
        return ticker;
    }

    public Optional<Account> account(long uid) { return accounts.find(uid); }

    /** §4.7 allow-list: whether the account may use the Reality order rows. */
    public Account setRealityAllowed(long uid, Boolean allowed) {
        if (allowed == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "allowed");
        requireAccount(uid);
        accounts.setRealityAllowed(uid, allowed);
        return accounts.find(uid).orElseThrow();
    }

    /** An account's Reality orders as the admin API shows them, newest first (at most 100). */
    public List<Map<String, Object>> realityOrders(long uid) {
        requireAccount(uid);
        return reality.orders(uid).stream().map(o -> {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("orderId", Long.toString(o.orderId()));
            m.put("clientOid", o.clientOid() == null ? "" : o.clientOid());
            m.put("symbol", o.symbol());
            m.put("side", o.side());
            m.put("orderType", o.orderType());
            m.put("price", Json.plain(o.price()));
            m.put("qty", Json.plain(o.qty()));
            m.put("frozenCoin", o.frozenCoin());
            m.put("frozen", Json.plain(o.frozen()));
            m.put("filledQty", Json.plain(o.filledQty()));
            m.put("filledAmount", Json.plain(o.filledAmount()));
            m.put("status", o.status());
            m.put("cTime", Long.toString(o.cTime()));
            m.put("uTime", Long.toString(o.uTime()));
            return m;
        }).toList();
    }

    // --- money core: every operation goes through the ledger, loan and position services

    /** What an admin ledger operation did. */
    public record LedgerResult(String txId, boolean repeated) {}

    /** A deposit to a unified account also leaves a deposit record (UnifiedRecords.recordLedgerDeposit). */
    public LedgerResult deposit(LedgerOp op) {
        if (Ledger.checkAmount("amount", op.amount()).signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, "amount");
        LedgerResult r = post("deposit", op, Counter.deposit);
        unifiedRecords.recordLedgerDeposit(op.uid(), Long.parseLong(r.txId()), op.coin(), op.amount(), op.ref());
        return r;
    }

    public LedgerResult adjust(LedgerOp op) {
        if (Ledger.checkAmount("amount", op.amount()).signum() == 0) throw new ApiException(ErrorCode.PARAM_ERROR, "amount");
        return post("adjustment", op, Counter.adjustment);
    }

    public LedgerResult borrow(LedgerOp op) {
        long uid = require(op.uid(), "uid");
        Account account = accounts.find(uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, uid));
        // D57: a classic account cannot borrow; its debt would sit on a unified balance no row shows and nothing charges.
        if (account.kind() != AccountKind.UNIFIED) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "uid " + uid + " is a classic account, which cannot borrow");
        }
        Ledger.checkAmount("amount", op.amount());
        Ledger.checkRef(op.ref());
        Ledger.Posted p = loans.borrow(op.uid(), coin(op.coin()), op.amount(), op.ref());
        return new LedgerResult(Long.toString(p.txId()), p.repeated());
    }

    /** Every input is checked before anything reaches SQL (uid, account, coin, amount, ref), so a bad value is a 400. */
    private LedgerResult post(String kind, LedgerOp op, Counter counter) {
        long uid = require(op.uid(), "uid");
        BalanceKey key = balanceKey(uid, op.account(), op.coin());
        Ledger.checkRef(op.ref());
        requireAccount(uid);
        Ledger.Posted p = ledger.postOnce(kind, op.ref(), uid, List.of(Ledger.move(key, Field.available, op.amount(), counter)));
        return new LedgerResult(Long.toString(p.txId()), p.repeated());
    }

    private BalanceKey balanceKey(long uid, String account, String coin) {
        return new BalanceKey(uid, parse(() -> AccountType.valueOf(require(account, "account")), "account"), coin(coin));
    }

    public Ledger.Check ledgerCheck() { return ledger.check(); }

    /** A balance row as the admin API shows it. */
    public record BalanceView(String account, String coin, String available, String frozen, String debt) {}

    public List<BalanceView> balances(long uid) {
        return ledger.balances(uid).stream().map(b -> new BalanceView(b.key().account().name(), b.key().coin(),
                Json.plain(b.available()), Json.plain(b.frozen()), Json.plain(b.debt()))).toList();
    }

    public Instrument putInstrument(SeedInstrument i) {
        Category c = parse(() -> Category.fromWire(require(i.category(), "category")), "category");
        List<Instrument.MmrTier> tiers = i.mmrTiers() == null ? List.of() : i.mmrTiers().stream()
                .map(t -> new Instrument.MmrTier(Ledger.checkAmount("maxNotional", t.maxNotional()), Ledger.checkAmount("mmr", t.mmr()))).toList();
        if (i.maxLeverage() != null) Instrument.checkLeverage("maxLeverage", i.maxLeverage());
        if (i.marginCoin() != null) coin(i.marginCoin());
        if (c.isFutures() && tiers.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "mmrTiers");
        // D81: re-posting an instrument without "reality" keeps its flag (a working Reality order keeps its pair).
        boolean flagged = i.reality() != null ? i.reality() : existingReality(c, i.symbol());
        Instrument inst = new Instrument(c, symbol(i.symbol()), coin(i.baseCoin()), coin(i.quoteCoin()),
                i.marginCoin(), i.maxLeverage(), flagged, tiers);
        market.putInstrument(inst);
        return inst;
    }

    private boolean existingReality(Category c, String symbol) {
        if (symbol == null) return false;
        try {
            return market.instrument(c, symbol).reality();
        } catch (ApiException unknown) {
            return false;
        }
    }

    /** The Reality order service (tests: orders placed with another execution setting). */
    public io.tas.reality.RealityService reality() { return reality; }

    public void putLoanTerms(SeedLoanTerms t) {
        loans.putTerms(new LoanService.LoanTerms(coin(t.coin()), Ledger.checkAmount("interestFreeAmount", t.interestFreeAmount()),
                Ledger.checkAmount("hourlyRate", t.hourlyRate())));
    }

    public Position openPosition(SeedPosition s) {
        long uid = require(s.uid(), "uid");
        requireAccount(uid);
        return positions.open(new PositionService.Open(uid,
                parse(() -> Category.fromWire(require(s.category(), "category")), "category"), require(s.symbol(), "symbol"),
                parse(() -> Position.HoldSide.fromWire(require(s.holdSide(), "holdSide")), "holdSide"),
                or(s.marginMode(), MarginMode.crossed), require(s.leverage(), "leverage"), require(s.size(), "size"),
                require(s.price(), "price"), or(s.fee(), BigDecimal.ZERO), s.ref()));
    }

    public Position fill(long positionId, FillSpec f) {
        return positions.fill(new PositionService.Fill(positionId, require(f.size(), "size"), require(f.price(), "price"), or(f.fee(), BigDecimal.ZERO), f.ref()));
    }

    public Position close(long positionId, FillSpec f) {
        return positions.close(positionId, require(f.price(), "price"), or(f.fee(), BigDecimal.ZERO), f.ref());
    }

    /** History positions a matching engine reports: all or nothing (PositionHistory.ingest). */
    public PositionHistory.Ingested ingestHistoryPositions(PositionHistory.Batch batch) {
        if (batch == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "records");
        return history.ingest(batch.records());
    }

    public List<PositionService.Valuation> positions(long uid) {
        return positions.open(uid).stream().map(positions::value).toList();
    }

    private void requireAccount(long uid) {
        if (accounts.find(uid).isEmpty()) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, uid);
    }

    private static void maxLength(String name, String value, int max) {
        if (value != null && value.length() > max) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, name + " is longer than " + max + " characters");
        }
    }

    /** Each (name, value) pair that is given must fit the ledger's numeric(38, 18). */
    private static void checkAmounts(Object... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) Ledger.checkAmount((String) namesAndValues[i], (BigDecimal) namesAndValues[i + 1]);
        }
    }

    private static String symbol(String s) {
        if (s == null || s.isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, "symbol");
        if (!s.matches("[A-Za-z0-9_.-]{1,32}")) throw new ApiException(ErrorCode.PARAM_ERROR, "symbol");
        return s;
    }

    private static String coin(String c) {
        if (c == null || c.isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, "coin");
        if (!LedgerTypes.isCoin(c)) throw new ApiException(ErrorCode.PARAM_ERROR, "coin");
        return c;
    }

    /** The state hash over every account (StateHash): proof tests compare it around refused requests and restarts. */
    public io.tas.store.StateHash.Result stateHash() { return io.tas.store.StateHash.of(db); }

    /** Sandbox reset: every table emptied, every cache and bucket dropped. */
    public void reset() {
        db.truncateAll();
        market.invalidate();
        accounts.invalidateAll();
        keys.invalidateAll();
        limiter.reset();
    }

    public boolean isEmpty() { return db.isEmpty(); }

    private static AccountSettings settings(SeedSettings s) {
        if (s == null) return null;
        AccountSettings d = AccountSettings.defaults(0);
        List<AccountSettings.SymbolConfig> symbols = s.symbolConfigList() == null ? List.of() : s.symbolConfigList().stream()
                .map(c -> new AccountSettings.SymbolConfig(parse(() -> Category.fromWire(c.category()), "category"),
                        symbol(c.symbol()), or(c.marginMode(), MarginMode.crossed),
                        Instrument.checkLeverage("longLeverage", or(c.longLeverage(), c.leverage())).setScale(2),
                        Instrument.checkLeverage("shortLeverage", or(c.shortLeverage(), c.leverage())).setScale(2))).toList();
        List<AccountSettings.CoinConfig> coins = s.coinConfigList() == null ? List.of() : s.coinConfigList().stream()
                .map(c -> new AccountSettings.CoinConfig(coin(c.coin()), Instrument.checkLeverage("leverage", c.leverage()).setScale(2))).toList();
        return new AccountSettings(0, or(s.accountMode(), d.accountMode()), or(s.accountLevel(), d.accountLevel()),
                or(s.assetMode(), d.assetMode()), or(s.holdMode(), d.holdMode()), or(s.stpMode(), d.stpMode()),
                or(s.deltaSwitch(), d.deltaSwitch()), or(s.repayMode(), d.repayMode()), or(s.deduct(), d.deduct()),
                symbols, coins);
    }

    private static <T> T parse(java.util.function.Supplier<T> f, String name) {
        try {
            return f.get();
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
    }

    private static <T> T require(T v, String name) {
        if (v == null) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        return v;
    }

    private static <T> T or(T v, T d) { return v != null ? v : d; }

    private static BigDecimal z(BigDecimal v) { return v != null ? v : BigDecimal.ZERO; }

    /** §2.20: index, mark, funding and open interest are futures-only; spot leaves them empty. */
    private static BigDecimal futures(Category c, BigDecimal v) { return c.isFutures() ? z(v) : null; }
}
