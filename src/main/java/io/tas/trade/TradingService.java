package io.tas.trade;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.Deduct;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountService;
import io.tas.account.AccountSettings;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.PriceService;
import io.tas.market.Ticker;
import io.tas.marketdata.TradeTape;
import io.tas.position.Position;
import io.tas.position.Position.HoldSide;
import io.tas.position.PositionService;
import io.tas.spot.SpotFill;
import io.tas.spot.SpotRecords;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.store.Tx;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static io.tas.ledger.Ledger.move;

/**
 * The matching engine of unified accounts (issue 25, docs/engine.md). An order is placed, matched and settled in one
 * transaction that holds its symbol's book lock (D154), then the accounts it trades with in uid order: resting orders of
 * every account by price-time priority, and the ticker's synthetic levels, best price first. A fill moves money through
 * the ledger (spot) or the position service (futures) and writes the fill the fills rows read, and the public trade.
 */
public final class TradingService {
    private static final Logger LOG = LoggerFactory.getLogger(TradingService.class);
    /** order-entry-wire.md: at most 400 open orders per market group; here per account and symbol. */
    static final int MAX_OPEN_ORDERS = 400;
    /** The resting orders one taker reads from the book at most. */
    static final int MAX_MAKERS = 500;
    /** D72's minimum order value of a spot pair, in the quote coin. */
    static final BigDecimal MIN_SPOT_NOTIONAL = BigDecimal.ONE;
    /** Orders a ticker sweep settles per transaction. */
    static final int SWEEP_PAGE = 1000;

    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final Ledger ledger;
    private final MarketService market;
    private final PriceService prices;
    private final AccountService accounts;
    private final SpotRecords spot;
    private final TradeTape tape;
    private final String platformToken;
    private final SyntheticBook book;
    private final FuturesSettlement futures;
    private final OrderStore store = new OrderStore();
    /** D219: on PostgreSQL a sweep runs two pages at a time, on disjoint accounts (H2 writes one transaction at a time). */
    private final boolean parallelSweeps;
    /** A sweep's second page runner (one virtual thread a sweep, while it lasts). */
    private final java.util.concurrent.ExecutorService sweepHelpers =
            java.util.concurrent.Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("tas-sweep-", 0).factory());
    /** Told, after the commit, which of an account's orders changed (the WebSocket order topic, issue 27). */
    private final List<java.util.function.BiConsumer<Long, List<Long>>> orderListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public TradingService(Database db, Clock clock, IdGenerator ids, Ledger ledger, MarketService market, PriceService prices,
                          AccountService accounts, PositionService positions, SpotRecords spot, TradeTape tape, String platformToken,
                          SyntheticBook book) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.ledger = ledger;
        this.market = market;
        this.prices = prices;
        this.accounts = accounts;
        this.spot = spot;
        this.tape = tape;
        this.platformToken = platformToken;
        this.book = book;
        this.futures = new FuturesSettlement(ledger, positions);
        this.parallelSweeps = db.dialect() == org.jooq.SQLDialect.POSTGRES;
        // A spot change's orders, fills and public trades are staged with its movements and written by the batch that
        // commits it (Ledger.writeWith): one statement per kind for a whole group commit or sweep page.
        ledger.writeWith(OrderWrite.class, (dsl, writes) -> store.write(dsl,
                writes.stream().filter(OrderWrite::insert).map(OrderWrite::order).toList(),
                writes.stream().filter(w -> !w.insert()).map(OrderWrite::order).toList()));
        ledger.writeWith(FillWrite.class, (dsl, writes) -> spot.appendExecutionFills(dsl, writes.stream().map(FillWrite::fill).toList()));
        ledger.writeWith(TradeTape.Print.class, tape::recordAll);
    }

    /** A staged order write of a ledger change: inserted (new) or updated. */
    record OrderWrite(TradeOrder order, boolean insert) {}

    /** A staged fill of a ledger change (the fills rows). */
    record FillWrite(SpotFill fill) {}

    /**
     * Command: place-order, parsed. price null for market orders; posSide null in one-way mode; reality: a §4.7 Reality
     * order (D223), which RealityService has checked by its own rules.
     */
    public record Place(long uid, Category category, String symbol, String side, String orderType, String timeInForce,
                        BigDecimal qty, BigDecimal price, String clientOid, String posSide, boolean reduceOnly, boolean classic,
                        boolean reality) {
        /** A unified account's order (the v3 rows). */
        public Place(long uid, Category category, String symbol, String side, String orderType, String timeInForce,
                     BigDecimal qty, BigDecimal price, String clientOid, String posSide, boolean reduceOnly) {
            this(uid, category, symbol, side, orderType, timeInForce, qty, price, clientOid, posSide, reduceOnly, false);
        }

        /** An order of either family's rows, not a Reality one. */
        public Place(long uid, Category category, String symbol, String side, String orderType, String timeInForce,
                     BigDecimal qty, BigDecimal price, String clientOid, String posSide, boolean reduceOnly, boolean classic) {
            this(uid, category, symbol, side, orderType, timeInForce, qty, price, clientOid, posSide, reduceOnly, classic, false);
        }
    }

    /** Command: find one of an account's orders by orderId (wins) or clientOid. */
    public record Lookup(long uid, Long orderId, String clientOid) {
        public Lookup {
            if (orderId == null && clientOid == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId or clientOid");
        }
    }

    /** Command: modify-order: a working limit order's new quantity and/or price. */
    public record Amend(Lookup order, BigDecimal qty, BigDecimal price) {}

    /** place/cancel/modify answer: orderId and clientOid ("" when none). */
    public record Result(long orderId, String clientOid) {
        static Result of(TradeOrder o) { return new Result(o.orderId(), o.clientOid() == null ? "" : o.clientOid()); }
    }

    /** Registers a listener of committed order changes: (uid, orderIds). It must not throw, and runs on the writer's thread. */
    public void onOrders(java.util.function.BiConsumer<Long, List<Long>> listener) { orderListeners.add(listener); }

    private void changed(long uid, List<Long> orderIds) {
        if (orderIds.isEmpty()) return;
        for (var l : orderListeners) {
            try {
                l.accept(uid, orderIds);
            } catch (RuntimeException e) {
                LOG.warn("an order listener failed: {}", e.getClass().getSimpleName());
            }
        }
    }

    /** Orders by id, as committed, of any account (the stream's order pushes: their caller pairs each with its account). */
    public List<TradeOrder> orders(java.util.Collection<Long> orderIds) {
        return db.read(dsl -> store.byIds(dsl, orderIds));
    }

    /** Whether uid is a classic account (its orders go through the v2 rows' family, D171). */
    public boolean classic(long uid) {
        return accounts.find(uid).map(a -> a.kind() == io.tas.account.AccountEnums.AccountKind.CLASSIC).orElse(false);
    }

    /** The coin fees are deducted in when an account has deduction on (D72). */
    public String platformToken() { return platformToken; }

    // --- placement

    public Result place(Place c) {
        Result r = placeOnce(c);
        changed(c.uid(), List.of(r.orderId()));
        return r;
    }

    private Result placeOnce(Place c) {
        Instrument inst = market.instrument(c.category(), c.symbol());
        check(c, inst);
        // §4.7: Reality pairs are for allow-listed UIDs; the engine's own rows keep that gate on them too (D223).
        if (inst.reality() && !c.reality() && !accounts.find(c.uid()).map(a -> a.realityAllowed()).orElse(false)) {
            throw new ApiException(ErrorCode.PERMISSION_DENIED, "reality allow-list");
        }
        if (c.clientOid() != null) {
            Optional<TradeOrder> earlier = db.read(dsl -> store.byClientOid(dsl, c.uid(), c.clientOid()));
            if (earlier.isPresent()) return replay(earlier.get(), c);
        }
        try {
            Result fast = takesOnlySyntheticLiquidity(c) ? placeAgainstSyntheticBook(c, inst) : null;
            return fast != null ? fast : db.tx(tx -> placeIn(tx, c, inst));
        } catch (IntegrityConstraintViolationException e) {
            // The unique (uid, clientOid) key: a concurrent first send on another symbol won; answer as its repeat.
            Optional<TradeOrder> winner = c.clientOid() == null ? Optional.empty() : db.read(dsl -> store.byClientOid(dsl, c.uid(), c.clientOid()));
            if (winner.isPresent()) return replay(winner.get(), c);
            LOG.warn("order on {} refused by a database constraint: {}", c.symbol(), String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "the order could not be stored");
        }
    }

    /** Checks that need no state: quantity and price steps, the spot minimum value. */
    private void check(Place c, Instrument inst) {
        BigDecimal qty = Ledger.checkAmount("qty", c.qty());
        if (qty.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, "qty");
        boolean quoteQty = !c.category().isFutures() && c.orderType().equals("market") && c.side().equals("buy");
        int decimals = market.pricePrecision(inst);
        if (qty.stripTrailingZeros().scale() > (quoteQty ? decimals : Instrument.QUANTITY_DECIMALS)) throw new ApiException(ErrorCode.QTY_PRECISION);
        if (c.price() != null) {
            if (Ledger.checkAmount("price", c.price()).signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, "price");
            if (c.price().stripTrailingZeros().scale() > decimals) {
                throw new ApiException(ErrorCode.PRICE_STEP, BigDecimal.ONE.movePointLeft(decimals).toPlainString());
            }
            Ledger.checkAmount("price x qty", c.price().multiply(qty));
        }
        if (!c.category().isFutures()) {
            BigDecimal value = quoteQty ? qty : c.price() != null ? c.price().multiply(qty) : null;
            if (value != null && value.compareTo(MIN_SPOT_NOTIONAL) < 0) throw new ApiException(ErrorCode.BELOW_MIN_QTY);
        }
    }

    /** A spot order that cannot rest (market, IOC, FOK): it may skip the book lock when no resting order crosses it (D168). */
    private static boolean takesOnlySyntheticLiquidity(Place c) {
        return !c.category().isFutures() && (c.orderType().equals("market") || c.timeInForce().equals("ioc") || c.timeInForce().equals("fok"));
    }

    /**
     * D168: a spot order that cannot rest and that no resting order crosses trades only with the synthetic book, so it
     * touches no other order: it is one ledger change (its freeze, fills, fees, the order row, its fills and trades),
     * group-committed with others, without the book lock. Whether a resting order crosses it is read by its batch, once
     * for all the batch's orders on the book (D213). Null when one crosses it, or when the synthetic book alone cannot
     * decide the order (no level, too little depth for fill-or-kill, a budget under one step): the locked path decides
     * those.
     */
    private Result placeAgainstSyntheticBook(Place c, Instrument inst) {
        boolean buy = c.side().equals("buy");
        BigDecimal limit = c.orderType().equals("limit") ? c.price() : null;
        TradeOrder o = spotOrder(c, inst);
        List<Liquidity> liquidity = Liquidity.merge(List.of(), synthetic(inst, buy), buy, limit);
        // What the synthetic book alone cannot decide (no liquidity, too little for fill-or-kill, a budget below one step)
        // the locked path decides, with the resting orders that may cross.
        if (liquidity.isEmpty()) return null;
        if (o.timeInForce().equals("fok") && Liquidity.depth(liquidity).compareTo(o.qty()) < 0) return null;
        List<Liquidity.Fill> fills = Liquidity.walk(liquidity, o.qtyInQuote() ? null : o.qty(), o.qtyInQuote() ? o.qty() : null,
                Instrument.QUANTITY_DECIMALS);
        if (fills.isEmpty()) return null;
        Map<Long, Boolean> deduct = Map.of(c.uid(), accounts.settings(c.uid()).deduct() == Deduct.on);
        Set<BalanceKey> keys = new TreeSet<>(SpotSettlement.keys(o, inst, platformToken, deduct.get(c.uid())));
        var top = store.bookTopRead(new BookKey(c.category(), inst.symbol()), c.category(), inst.symbol());
        var settle = spotChange(o, inst, deduct, fills, false, o.cTime());
        try {
            return ledger.submit(keys, top, rows -> {
                if (rows.read(top).crosses(buy, limit)) throw new Crossed();
                return settle.apply(rows);
            });
        } catch (Crossed e) {
            return null;
        }
    }

    /** A book, as the key of its batch read (D213). */
    private record BookKey(Category category, String symbol) {}

    /** A resting order crosses a fast-path taker: its batch refused it, the locked path places it (D168). */
    private static final class Crossed extends RuntimeException {
        Crossed() { super(null, null, false, false); }
    }

    private Result placeIn(Tx tx, Place c, Instrument inst) {
        var dsl = tx.dsl();
        store.lockBook(dsl, c.category(), inst.symbol());
        boolean buy = c.side().equals("buy");
        BigDecimal limit = c.orderType().equals("limit") ? c.price() : null;
        List<TradeOrder> makers = store.crossing(dsl, c.category(), inst.symbol(), buy, limit, MAX_MAKERS);
        // Every account this order may trade with, locked in uid order: no deadlock with another symbol's matching.
        Set<Long> uids = new TreeSet<>();
        uids.add(c.uid());
        makers.forEach(m -> uids.add(m.uid()));
        accounts.lockAll(tx, uids);
        if (c.clientOid() != null) {
            Optional<TradeOrder> earlier = store.byClientOid(dsl, c.uid(), c.clientOid());
            if (earlier.isPresent()) return replay(earlier.get(), c);
        }
        if (accounts.find(tx, c.uid()).map(a -> (a.kind() == io.tas.account.AccountEnums.AccountKind.CLASSIC) != c.classic()).orElse(true)) {
            throw new ApiException(familyError(c.classic()));
        }
        if (store.workingCount(dsl, c.uid(), c.category(), inst.symbol()) >= MAX_OPEN_ORDERS) {
            throw new ApiException(ErrorCode.MAX_ORDERS, MAX_OPEN_ORDERS);
        }
        AccountSettings settings = accounts.settingsInTransaction(tx, c.uid());
        TradeOrder o = newOrder(tx, c, inst, settings);
        List<Liquidity> liquidity = Liquidity.merge(tradableMakers(tx, makers, c.uid()), synthetic(inst, buy), buy, limit);
        long now = o.cTime();
        if (o.timeInForce().equals("post_only") && !liquidity.isEmpty()) return refuse(tx, o, "post_only", now);
        if (o.isMarket() && liquidity.isEmpty()) throw new ApiException(ErrorCode.INSUFFICIENT_LIQUIDITY);
        if (o.timeInForce().equals("fok") && Liquidity.depth(liquidity).compareTo(o.qty()) < 0) return refuse(tx, o, "fok", now);
        List<Liquidity.Fill> fills = Liquidity.walk(liquidity, o.qtyInQuote() ? null : o.qty(), o.qtyInQuote() ? o.qty() : null,
                Instrument.QUANTITY_DECIMALS);
        if (o.qtyInQuote() && fills.isEmpty()) throw new ApiException(ErrorCode.BELOW_MIN_QTY);
        changedAfterCommit(tx, fills.stream().map(Liquidity.Fill::maker).filter(java.util.Objects::nonNull).toList());
        boolean rests = !o.isMarket() && (o.timeInForce().equals("gtc") || o.timeInForce().equals("post_only"));
        if (!o.isFutures()) return settleSpot(tx, o, inst, settings, fills, rests, now);
        Matched m = settleFutures(tx, o, inst, fills, rests, now);
        store.insert(dsl, m.taker());
        m.makers().values().forEach(x -> store.update(dsl, x));
        spot.appendExecutionFills(dsl, m.fills());
        for (SpotFill f : m.fills()) {
            if (f.uid() == c.uid() && f.orderId() == o.orderId()) tape.record(tx, o.category(), o.symbol(), f.priceAvg(), f.size(), o.side(), now);
        }
        return Result.of(m.taker());
    }

    /** An order refused by its time in force before any fill: stored cancelled, nothing frozen (post-only, fill-or-kill). */
    private Result refuse(Tx tx, TradeOrder o, String reason, long now) {
        TradeOrder cancelled = o.next(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, TradeOrder.CANCELLED, reason, now);
        store.insert(tx.dsl(), cancelled);
        return Result.of(cancelled);
    }

    /** The taker after matching, the makers it changed (by orderId) and every fill of both sides. */
    private record Matched(TradeOrder taker, Map<Long, TradeOrder> makers, List<SpotFill> fills) {}

    /** The new order: hold mode, position side and what it freezes; a closing order must have a position to close. */
    private TradeOrder newOrder(Tx tx, Place c, Instrument inst, AccountSettings settings) {
        if (!c.category().isFutures()) return spotOrder(c, inst);
        long now = clock.millis();
        boolean buy = c.side().equals("buy");
        HoldMode mode = settings.holdMode();
        String posSide = null;
        boolean closes;
        if (mode == HoldMode.hedge_mode) {
            // order-entry-wire.md: hedge mode names the position; close long = sell + posSide long.
            if (c.posSide() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "posSide");
            posSide = c.posSide();
            closes = buy != posSide.equals("long");
        } else {
            closes = c.reduceOnly();
        }
        var config = settings.symbolConfig(c.category(), inst.symbol());
        String marginMode = config.map(x -> x.marginMode().name()).orElse("crossed");
        boolean longSide = posSide != null ? posSide.equals("long") : buy;
        BigDecimal leverage = config.map(x -> x.leverage(longSide)).orElse(AccountSettings.DEFAULT_LEVERAGE);
        TradeOrder o = new TradeOrder(ids.next(), c.uid(), c.clientOid(), c.category(), inst.symbol(), c.side(), c.orderType(),
                c.timeInForce(), c.price(), c.qty(), posSide, mode.name(), closes ? "close" : "open", c.reduceOnly() || closes && posSide != null,
                marginMode, leverage, inst.marginCoin(), BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null,
                TradeOrder.LIVE, null, now, now, c.classic(), false);
        if (closes) {
            BigDecimal held = futures.tradable(tx, o, c.qty());
            if (held.signum() == 0) throw new ApiException(ErrorCode.NO_POSITION_TO_CLOSE);
            if (held.compareTo(c.qty()) < 0) throw new ApiException(ErrorCode.CLOSE_EXCEEDS_POSITION);
            return o;
        }
        // An opening limit order freezes its margin and the taker fee at its price; a market order pays as it fills.
        BigDecimal frozen = c.price() == null ? BigDecimal.ZERO : FuturesSettlement.freeze(inst, c.price(), c.qty(), leverage);
        return o.next(frozen, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, TradeOrder.LIVE, null, now);
    }

    /** A new spot order: it freezes price x qty of the quote coin (a limit buy), its quote budget (a market buy) or its qty. */
    private TradeOrder spotOrder(Place c, Instrument inst) {
        long now = clock.millis();
        boolean buy = c.side().equals("buy");
        BigDecimal frozen = buy ? (c.price() == null ? c.qty() : c.price().multiply(c.qty())) : c.qty();
        return new TradeOrder(ids.next(), c.uid(), c.clientOid(), c.category(), inst.symbol(), c.side(), c.orderType(),
                c.timeInForce(), c.price(), c.qty(), null, HoldMode.one_way_mode.name(), null, false, null, null,
                buy ? inst.quoteCoin() : inst.baseCoin(), Ledger.plain(frozen), BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, null, TradeOrder.LIVE, null, now, now, c.classic(), c.reality());
    }

    /** Resting orders as liquidity: a closing maker offers at most what its position still holds (0: left out). */
    private List<TradeOrder> tradableMakers(Tx tx, List<TradeOrder> makers, long takerUid) {
        List<TradeOrder> out = new ArrayList<>(makers.size());
        for (TradeOrder m : makers) {
            if (!m.isFutures() || !(m.closes() || m.reduceOnly())) { out.add(m); continue; }
            BigDecimal can = futures.tradable(tx, m, m.remaining());
            if (can.signum() > 0) out.add(can.compareTo(m.remaining()) == 0 ? m
                    : new TradeOrder(m.orderId(), m.uid(), m.clientOid(), m.category(), m.symbol(), m.side(), m.orderType(), m.timeInForce(),
                    m.price(), m.cumExecQty().add(can), m.posSide(), m.holdMode(), m.tradeSide(), m.reduceOnly(), m.marginMode(), m.leverage(),
                    m.frozenCoin(), m.frozen(), m.cumExecQty(), m.cumExecValue(), m.fee(), m.feeCoin(), m.status(), m.cancelReason(), m.cTime(), m.uTime(),
                    m.classic(), m.reality()));
        }
        return out;
    }

    private List<SyntheticBook.Level> synthetic(Instrument inst, boolean takerBuys) {
        Ticker t = ticker(inst).orElse(null);
        if (t == null) return List.of();
        int decimals = market.pricePrecision(inst);
        SyntheticBook own = book.of(inst.book());
        // The levels depend only on the ticker, the book's shape and the decimals: computed once per ticker (D213).
        LevelsKey key = new LevelsKey(inst.category(), inst.symbol(), takerBuys);
        LevelsMemo memo = levelsMemo.get(key);
        if (memo != null && memo.ticker() == t && memo.book().equals(own) && memo.decimals() == decimals) return memo.levels();
        List<SyntheticBook.Level> levels = List.copyOf(takerBuys ? own.asks(t, decimals) : own.bids(t, decimals));
        levelsMemo.put(key, new LevelsMemo(t, own, decimals, levels));
        return levels;
    }

    private record LevelsKey(Category category, String symbol, boolean asks) {}
    private record LevelsMemo(Ticker ticker, SyntheticBook book, int decimals, List<SyntheticBook.Level> levels) {}
    private final Map<LevelsKey, LevelsMemo> levelsMemo = new java.util.concurrent.ConcurrentHashMap<>();

    private Optional<Ticker> ticker(Instrument inst) {
        return market.ticker(inst.category() == Category.MARGIN ? Category.SPOT : inst.category(), inst.symbol());
    }

    // --- settlement

    private Result settleSpot(Tx tx, TradeOrder taker0, Instrument inst, AccountSettings settings, List<Liquidity.Fill> fills,
                              boolean rests, long now) {
        Map<Long, Boolean> deduct = new LinkedHashMap<>();
        deduct.put(taker0.uid(), settings.deduct() == Deduct.on);
        Set<BalanceKey> keys = new TreeSet<>(SpotSettlement.keys(taker0, inst, platformToken, deduct.get(taker0.uid())));
        for (Liquidity.Fill f : fills) {
            if (f.maker() == null) continue;
            boolean d = deduct.computeIfAbsent(f.maker().uid(), u -> accounts.settingsInTransaction(tx, u).deduct() == Deduct.on);
            keys.addAll(SpotSettlement.keys(f.maker(), inst, platformToken, d)); // a maker's wallet may differ (D171)
        }
        return ledger.submit(tx, keys, spotChange(taker0, inst, deduct, fills, rests, now));
    }

    /**
     * A spot taker's whole settlement as one ledger change, without SQL (it may run in a group commit, and again alone):
     * the freeze, each fill's two sides, the fees, what is left released or kept, and the order rows, fills and public
     * trades staged with the movements. The account must be unified under its lock (D141).
     */
    private java.util.function.Function<Ledger.Locked, Result> spotChange(TradeOrder taker0, Instrument inst, Map<Long, Boolean> deduct,
                                                                          List<Liquidity.Fill> fills, boolean rests, long now) {
        long[] tradeIds = new long[fills.size()];
        long[] makerIds = new long[fills.size()];
        for (int i = 0; i < tradeIds.length; i++) {
            tradeIds[i] = ids.next();
            makerIds[i] = fills.get(i).maker() != null ? makerTradeId(fills.get(i).maker(), taker0, tradeIds[i]) : 0;
        }
        BigDecimal tokenPrice = prices.usdtPrice(platformToken).orElse(null);
        BigDecimal quotePrice = prices.usdtPrice(inst.quoteCoin()).orElse(null);
        return rows -> {
            if (rows.unified(taker0.uid()) == taker0.classic()) throw new ApiException(familyError(taker0.classic()));
            // One list of movements per account, posted as one ledger transaction each: an account that is maker and
            // taker at once (a self-trade) sees its own earlier platform-token fees in one view.
            Map<Long, List<Movement>> moves = new LinkedHashMap<>();
            List<Movement> takerMoves = moves.computeIfAbsent(taker0.uid(), u -> new ArrayList<>());
            BalanceKey frozenKey = taker0.key(taker0.frozenCoin());
            // Placing freezes what the order can cost; not enough available refuses it (25202), nothing changed.
            if (rows.get(frozenKey).available().compareTo(taker0.frozen()) < 0) throw new ApiException(ErrorCode.INSUFFICIENT_BALANCE);
            // An order that cannot rest gives back in this same change all it would freeze: the pair of movements would
            // cancel out, so it is not journaled (D168); the check above is the freeze's.
            TradeOrder taker = rests ? taker0
                    : taker0.next(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, TradeOrder.LIVE, null, now);
            if (rests) {
                takerMoves.add(move(frozenKey, Field.available, taker0.frozen().negate(), Counter.order));
                takerMoves.add(move(frozenKey, Field.frozen, taker0.frozen(), Counter.order));
            }
            Map<Long, TradeOrder> makers = new LinkedHashMap<>();
            List<SpotFill> out = new ArrayList<>();
            for (int i = 0; i < fills.size(); i++) {
                Liquidity.Fill f = fills.get(i);
                SpotSettlement.Settled t = SpotSettlement.settle(taker, inst, f.price(), f.size(), "taker",
                        terms(inst.takerFeeRate(), deduct.get(taker.uid()), tokenPrice, quotePrice), rows, takerMoves, tradeIds[i], now);
                taker = t.order();
                out.add(t.fill());
                if (f.maker() != null) {
                    TradeOrder maker = makers.getOrDefault(f.maker().orderId(), f.maker());
                    List<Movement> makerMoves = moves.computeIfAbsent(maker.uid(), u -> new ArrayList<>());
                    SpotSettlement.Settled m = SpotSettlement.settle(maker, inst, f.price(), f.size(), "maker",
                            terms(inst.makerFeeRate(), deduct.get(maker.uid()), tokenPrice, quotePrice), rows, makerMoves, makerIds[i], now);
                    makers.put(maker.orderId(), spotFinish(m.order(), true, makerMoves, now));
                    out.add(m.fill());
                }
            }
            taker = spotFinish(taker, rests, takerMoves, now);
            // No ref on the makers' side: a resting order fills many times, and ledger refs are unique per kind.
            for (var e : moves.entrySet()) {
                boolean isTaker = e.getKey() == taker0.uid();
                rows.post(isTaker ? Ledger.ORDER_PLACE : "order_fill", isTaker ? Long.toString(taker0.orderId()) : null, e.getKey(), e.getValue());
            }
            rows.alsoWrite(new OrderWrite(taker, true));
            makers.values().forEach(m -> rows.alsoWrite(new OrderWrite(m, false)));
            for (SpotFill f : out) {
                rows.alsoWrite(new FillWrite(f));
                if (f.orderId() == taker0.orderId() && f.uid() == taker0.uid()) {
                    rows.alsoWrite(new TradeTape.Print(taker0.category(), taker0.symbol(), f.priceAvg(), f.size(), taker0.side(), now));
                }
            }
            return Result.of(taker);
        };
    }

    /**
     * The maker's side of a trade shares the taker's tradeId, except when one account is both (stpMode none lets it
     * trade with itself): its two fills then need two ids, fills being keyed by (uid, tradeId).
     */
    private long makerTradeId(TradeOrder maker, TradeOrder taker, long tradeId) {
        return maker.uid() == taker.uid() ? ids.next() : tradeId;
    }

    private SpotSettlement.Terms terms(BigDecimal rate, boolean deduct, BigDecimal tokenPrice, BigDecimal quotePrice) {
        return new SpotSettlement.Terms(rate, deduct, platformToken, tokenPrice, quotePrice);
    }

    /**
     * A spot order after its fills: filled when nothing is left (a market buy when its budget is spent as far as the
     * book went), resting when it may rest, cancelled otherwise; whatever it no longer needs frozen goes back.
     */
    private static TradeOrder spotFinish(TradeOrder o, boolean rests, List<Movement> moves, long now) {
        boolean filled = o.qtyInQuote() ? o.cumExecQty().signum() > 0 : o.cumExecQty().compareTo(o.qty()) == 0;
        TradeOrder next = o.afterFills(filled, rests, now);
        BigDecimal release = o.frozen().subtract(next.frozen());
        if (release.signum() > 0) {
            BalanceKey k = o.key(o.frozenCoin());
            moves.add(move(k, Field.frozen, release.negate(), Counter.order));
            moves.add(move(k, Field.available, release, Counter.order));
        }
        return next;
    }

    private Matched settleFutures(Tx tx, TradeOrder taker0, Instrument inst, List<Liquidity.Fill> fills, boolean rests, long now) {
        BalanceKey key = taker0.key(inst.marginCoin());
        if (taker0.frozen().signum() > 0) {
            try {
                ledger.submit(tx, List.of(key), rows -> {
                    if (rows.get(key).available().compareTo(taker0.frozen()) < 0) throw new ApiException(ErrorCode.INSUFFICIENT_MARGIN);
                    return rows.post(Ledger.ORDER_PLACE, Long.toString(taker0.orderId()), taker0.uid(), List.of(
                            move(key, Field.available, taker0.frozen().negate(), Counter.order), move(key, Field.frozen, taker0.frozen(), Counter.order)));
                });
            } catch (ApiException e) {
                throw e.error() == ErrorCode.INSUFFICIENT_BALANCE ? new ApiException(ErrorCode.INSUFFICIENT_MARGIN) : e;
            }
        }
        TradeOrder taker = taker0;
        Map<Long, TradeOrder> makers = new LinkedHashMap<>();
        List<SpotFill> out = new ArrayList<>();
        for (Liquidity.Fill f : fills) {
            long tradeId = ids.next();
            FuturesSettlement.Settled t;
            try {
                t = futures.settle(tx, taker, inst, f.price(), f.size(), "taker", tradeId, now);
            } catch (ApiException e) {
                throw e.error() == ErrorCode.INSUFFICIENT_BALANCE ? new ApiException(ErrorCode.INSUFFICIENT_MARGIN) : e;
            }
            if (t.size().signum() == 0) break;
            taker = t.order();
            out.add(t.fill());
            if (f.maker() != null) {
                TradeOrder maker = makers.getOrDefault(f.maker().orderId(), f.maker());
                FuturesSettlement.Settled m = futures.settle(tx, maker, inst, f.price(), t.size(), "maker", makerTradeId(maker, taker0, tradeId), now);
                makers.put(maker.orderId(), futuresFinish(tx, m.order(), true, now));
                out.add(m.fill());
            }
        }
        return new Matched(futuresFinish(tx, taker, rests, now), makers, out);
    }

    /** As spotFinish, for a futures order: the rest of its margin freeze goes back through the ledger. */
    private TradeOrder futuresFinish(Tx tx, TradeOrder o, boolean rests, long now) {
        TradeOrder next = o.afterFills(o.cumExecQty().compareTo(o.qty()) == 0, rests, now);
        if (next.frozen().signum() == 0) release(tx, o);
        return next;
    }

    /** Gives back all an order still holds frozen. */
    private void release(Tx tx, TradeOrder o) {
        if (o.frozen().signum() == 0) return;
        BalanceKey k = o.key(o.frozenCoin());
        ledger.post(tx, "order_release", Long.toString(o.orderId()), o.uid(), List.of(
                move(k, Field.frozen, o.frozen().negate(), Counter.order), move(k, Field.available, o.frozen(), Counter.order)));
    }

    /** The account-family refusal of an order placed through the other family's rows (40085 on v2, 40084 on v3). */
    static ErrorCode familyError(boolean classicOrder) {
        return classicOrder ? ErrorCode.UNIFIED_ACCOUNT_ON_CLASSIC_API : ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API;
    }

    /**
     * The same payload under a clientOid answers the first order; another payload is 25212 and changes nothing. A
     * Reality order and an order of the other rows are never the same payload (D223).
     */
    private static Result replay(TradeOrder o, Place c) {
        boolean same = o.reality() == c.reality() && o.category() == c.category() && o.symbol().equals(c.symbol()) && o.side().equals(c.side())
                && o.orderType().equals(c.orderType()) && o.qty().compareTo(c.qty()) == 0
                && (o.price() == null ? c.price() == null : c.price() != null && o.price().compareTo(c.price()) == 0);
        if (!same) throw new ApiException(ErrorCode.DUPLICATE_CLIENT_OID);
        return Result.of(o);
    }

    // --- cancel and modify

    public Result cancel(Lookup l, String symbol) {
        TradeOrder found = find(l);
        if (symbol != null && !symbol.equals(found.symbol())) throw new ApiException(ErrorCode.ORDER_NOT_EXIST);
        return db.tx(tx -> {
            store.lockBook(tx.dsl(), found.category(), found.symbol());
            accounts.lock(tx, l.uid());
            TradeOrder o = store.byId(tx.dsl(), l.uid(), found.orderId()).filter(TradeOrder::isWorking)
                    .orElseThrow(() -> new ApiException(ErrorCode.ORDER_NOT_EXIST));
            return Result.of(cancelIn(tx, o, "user_cancel"));
        });
    }

    private TradeOrder cancelIn(Tx tx, TradeOrder o, String reason) {
        release(tx, o);
        TradeOrder cancelled = o.next(BigDecimal.ZERO, o.cumExecQty(), o.cumExecValue(), o.fee(), o.feeCoin(), TradeOrder.CANCELLED, reason, clock.millis());
        store.update(tx.dsl(), cancelled);
        changedAfterCommit(tx, List.of(o));
        return cancelled;
    }

    /** The orders' accounts are told once the transaction has committed (never for one that rolls back). */
    private void changedAfterCommit(Tx tx, List<TradeOrder> orders) {
        if (orderListeners.isEmpty() || orders.isEmpty()) return;
        Map<Long, Set<Long>> byUid = new LinkedHashMap<>();
        for (TradeOrder o : orders) byUid.computeIfAbsent(o.uid(), u -> new java.util.LinkedHashSet<>()).add(o.orderId());
        tx.afterCommit(() -> byUid.forEach((uid, ids) -> changed(uid, List.copyOf(ids))));
    }

    /** cancel-symbol-order: every working order of the account on one symbol, in one transaction. */
    public List<Result> cancelSymbol(long uid, Category category, String symbol) {
        Instrument inst = market.instrument(category, symbol);
        return db.tx(tx -> {
            store.lockBook(tx.dsl(), category, inst.symbol());
            accounts.lock(tx, uid);
            List<Result> out = new ArrayList<>();
            for (TradeOrder o : store.working(tx.dsl(), uid, category.wire(), inst.symbol(), null, MAX_OPEN_ORDERS)) {
                out.add(Result.of(cancelIn(tx, o, "user_cancel")));
            }
            return out;
        });
    }

    /**
     * modify-order: a working limit order gets a new price and/or quantity (at least what has filled), keeps its orderId
     * and loses its time priority; its freeze is recomputed. A new price that the synthetic book crosses fills at once
     * as a maker, as a ticker move would (D157).
     */
    public Result amend(Amend a) {
        TradeOrder found = find(a.order());
        Instrument inst = market.instrument(found.category(), found.symbol());
        if (a.qty() == null && a.price() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "qty,price");
        Result r = db.tx(tx -> {
            store.lockBook(tx.dsl(), found.category(), found.symbol());
            accounts.lock(tx, found.uid());
            TradeOrder o = store.byId(tx.dsl(), found.uid(), found.orderId()).filter(TradeOrder::isWorking)
                    .orElseThrow(() -> new ApiException(ErrorCode.ORDER_NOT_EXIST));
            if (o.isMarket()) throw new ApiException(ErrorCode.ORDER_NOT_MODIFIABLE);
            BigDecimal qty = a.qty() != null ? a.qty() : o.qty();
            BigDecimal price = a.price() != null ? a.price() : o.price();
            if (qty.compareTo(o.qty()) == 0 && price.compareTo(o.price()) == 0) throw new ApiException(ErrorCode.MODIFY_UNCHANGED);
            check(new Place(o.uid(), o.category(), o.symbol(), o.side(), o.orderType(), o.timeInForce(), qty, price, null, o.posSide(), o.reduceOnly(),
                    o.classic()), inst);
            if (qty.compareTo(o.cumExecQty()) <= 0) throw new ApiException(ErrorCode.ORDER_NOT_MODIFIABLE);
            BigDecimal left = qty.subtract(o.cumExecQty());
            BigDecimal frozen = !o.isFutures() ? (o.isBuy() ? Ledger.plain(price.multiply(left)) : left)
                    : o.closes() ? BigDecimal.ZERO : FuturesSettlement.freeze(inst, price, left, o.leverage());
            BigDecimal delta = frozen.subtract(o.frozen());
            if (delta.signum() != 0) {
                BalanceKey k = o.key(o.frozenCoin());
                ledger.submit(tx, List.of(k), rows -> {
                    if (rows.get(k).available().compareTo(delta) < 0) {
                        throw new ApiException(o.isFutures() ? ErrorCode.INSUFFICIENT_MARGIN : ErrorCode.INSUFFICIENT_BALANCE);
                    }
                    return rows.post("order_modify", null, o.uid(), List.of(
                            move(k, Field.available, delta.negate(), Counter.order), move(k, Field.frozen, delta, Counter.order)));
                });
            }
            TradeOrder amended = o.amended(price, qty, frozen, clock.millis());
            store.update(tx.dsl(), amended);
            changedAfterCommit(tx, List.of(amended));
            return Result.of(amended);
        });
        ticker(inst).ifPresent(t -> sweep(inst, t, found.orderId()));
        return r;
    }

    // --- resting orders a ticker move crosses

    /**
     * A committed ticker: the working limit orders it crosses (buys at or above the synthetic best ask, sells at or below
     * the best bid) fill in full as makers at their own price against the synthetic book, oldest first, a page of orders
     * per transaction (D155). A failure is logged and never fails the ticker update.
     */
    public int onTicker(Ticker t) {
        try {
            List<Instrument> insts = new ArrayList<>();
            for (Category c : t.category() == Category.SPOT ? List.of(Category.SPOT, Category.MARGIN) : List.of(t.category())) {
                try {
                    insts.add(market.instrument(c, t.symbol()));
                } catch (ApiException unknown) {
                    // no such instrument in this category
                }
            }
            int n = 0;
            for (Instrument inst : insts) n += sweep(inst, t, null);
            return n;
        } catch (RuntimeException e) {
            LOG.warn("matching on the {} ticker failed: {}", t.symbol(), e.getClass().getSimpleName());
            return 0;
        }
    }

    private int sweep(Instrument inst, Ticker t, Long onlyOrder) {
        BigDecimal ask = SyntheticBook.best(t, true);
        BigDecimal bid = SyntheticBook.best(t, false);
        if (onlyOrder == null && parallelSweeps) {
            List<List<Long>> groups = accountGroups(db.read(dsl -> store.crossedPerAccount(dsl, inst.category(), inst.symbol(), ask, bid)));
            // The last pass, under the exclusive lock, takes what an order placed meanwhile left crossed (it reads nothing else).
            if (groups.size() > 1) return inParallel(inst, ask, bid, groups) + sweepPages(inst, ask, bid, null, null);
        }
        return sweepPages(inst, ask, bid, onlyOrder, null);
    }

    /**
     * D219: the groups' pages two at a time: they share the book lock and touch disjoint accounts, so neither waits for the
     * other's balance rows, and while one page's statements run in PostgreSQL the other's settlement is computed here.
     */
    private int inParallel(Instrument inst, BigDecimal ask, BigDecimal bid, List<List<Long>> groups) {
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.IntSupplier pages = () -> {
            int n = 0;
            for (int i; (i = next.getAndIncrement()) < groups.size(); ) n += sweepPages(inst, ask, bid, null, groups.get(i));
            return n;
        };
        java.util.concurrent.Future<Integer> helper = sweepHelpers.submit(pages::getAsInt);
        int filled = 0;
        try {
            filled = pages.getAsInt();
        } finally { // the helper's pages end before the sweep goes on (or fails: onTicker logs it)
            try {
                filled += helper.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException e) {
                LOG.warn("sweeping {} failed: {}", inst.symbol(), e.getCause().getClass().getSimpleName());
            }
        }
        return filled;
    }

    /** Crossed orders below which a sweep runs on one thread: a second transaction would cost more than it saves. */
    static final int PARALLEL_SWEEP_MIN = 200;

    /**
     * D219: the accounts a sweep crosses (crossed orders by uid), in uid order, split into at least two groups of about
     * equal orders, each at most a page (an account's crossed orders stay in one group: at most MAX_OPEN_ORDERS of a
     * symbol, fewer than a page). None when the sweep is small.
     */
    static List<List<Long>> accountGroups(java.util.SortedMap<Long, Integer> crossedPerAccount) {
        int total = crossedPerAccount.values().stream().mapToInt(Integer::intValue).sum();
        if (total < PARALLEL_SWEEP_MIN) return List.of();
        int groupsWanted = Math.max(2, (total + SWEEP_PAGE - 1) / SWEEP_PAGE);
        int target = (total + groupsWanted - 1) / groupsWanted;
        List<List<Long>> groups = new ArrayList<>();
        List<Long> group = new ArrayList<>();
        int orders = 0;
        for (var e : crossedPerAccount.entrySet()) {
            if (!group.isEmpty() && orders + e.getValue() > SWEEP_PAGE) {
                groups.add(group);
                group = new ArrayList<>();
                orders = 0;
            }
            group.add(e.getKey());
            orders += e.getValue();
            if (orders >= target) {
                groups.add(group);
                group = new ArrayList<>();
                orders = 0;
            }
        }
        if (!group.isEmpty()) groups.add(group);
        return groups;
    }

    /**
     * The crossed orders, a page per transaction under the book lock, oldest first: of every account (uids null) under
     * the exclusive lock (D177: the page is read in the transaction that fills it), or of some accounts under the
     * shared lock, each order locked as it is read (D219).
     */
    private int sweepPages(Instrument inst, BigDecimal ask, BigDecimal bid, Long onlyOrder, List<Long> uids) {
        int filled = 0;
        long after = 0;
        while (true) {
            long cursor = after;
            Page page;
            try {
                page = db.tx(tx -> {
                    if (uids == null) store.lockBook(tx.dsl(), inst.category(), inst.symbol());
                    else store.lockBookShared(tx.dsl(), inst.category(), inst.symbol());
                    List<TradeOrder> crossed = crossedPage(tx.dsl(), inst, ask, bid, cursor, onlyOrder, uids, uids != null);
                    return new Page(crossed, crossed.isEmpty() ? 0 : fillCrossed(tx, inst, crossed, clock.millis()));
                });
            } catch (RuntimeException pageFailed) {
                // One order that cannot fill does not hold back the others: one transaction each.
                List<TradeOrder> orders = db.read(dsl -> crossedPage(dsl, inst, ask, bid, cursor, onlyOrder, uids, false));
                int n = 0;
                for (TradeOrder o : orders) {
                    try {
                        n += db.tx(tx -> fillCrossed(tx, inst, lockedAndCrossed(tx, inst, o, ask, bid), clock.millis()));
                    } catch (RuntimeException e) {
                        LOG.warn("order {} on {} not filled at this ticker: {}", o.orderId(), o.symbol(),
                                e instanceof ApiException a ? a.getMessage() : e.getClass().getSimpleName());
                    }
                }
                page = new Page(orders, n);
            }
            filled += page.filled();
            if (onlyOrder != null || page.orders().size() < SWEEP_PAGE) break;
            after = page.orders().getLast().orderId();
        }
        return filled;
    }

    /** A sweep page: the crossed orders it read and how many of them filled. */
    private record Page(List<TradeOrder> orders, int filled) {}

    /** A sweep's page of crossed orders after the cursor: of every account (uids null) or of some, locked when asked (D219). */
    private List<TradeOrder> crossedPage(org.jooq.DSLContext dsl, Instrument inst, BigDecimal ask, BigDecimal bid, long after, Long onlyOrder,
                                         List<Long> uids, boolean lock) {
        List<TradeOrder> page = store.crossedBy(dsl, inst.category(), inst.symbol(), ask, bid, after, SWEEP_PAGE, uids, lock);
        return onlyOrder == null ? page : page.stream().filter(o -> o.orderId() == onlyOrder).toList();
    }

    /** One order of a failed page, under the book lock: read again (a cancel or a taker may have come first); empty when gone. */
    private List<TradeOrder> lockedAndCrossed(Tx tx, Instrument inst, TradeOrder o, BigDecimal ask, BigDecimal bid) {
        store.lockBook(tx.dsl(), inst.category(), inst.symbol());
        return store.byIds(tx.dsl(), List.of(o.orderId())).stream()
                .filter(x -> x.isWorking() && (x.isBuy() ? ask != null && x.price().compareTo(ask) >= 0 : bid != null && x.price().compareTo(bid) <= 0))
                .toList();
    }

    /**
     * Settles crossed orders in the caller's transaction, which holds the book lock: the accounts and their settings
     * locked in two statements, the spot ones as one ledger change with their order updates, fills and trades staged
     * with it; futures ones through the position service, one by one.
     */
    private int fillCrossed(Tx tx, Instrument inst, List<TradeOrder> crossed, long now) {
        if (crossed.isEmpty()) return 0;
        var dsl = tx.dsl();
        changedAfterCommit(tx, crossed);
        Set<Long> uids = new TreeSet<>();
        crossed.forEach(o -> uids.add(o.uid()));
        Map<Long, AccountSettings> settings = accounts.lockAllSettings(tx, uids);
        List<TradeOrder> spotOrders = crossed.stream().filter(o -> !o.isFutures()).toList();
        int n = spotOrders.isEmpty() ? 0 : fillSpotMakers(tx, inst, spotOrders, settings, now);
        List<SpotFill> fills = new ArrayList<>();
        for (TradeOrder o : crossed) {
            if (!o.isFutures()) continue;
            FuturesSettlement.Settled s = futures.settle(tx, o, inst, o.price(), o.remaining(), "maker", ids.next(), now);
            if (s.size().signum() == 0) {
                store.update(dsl, cancelIn(tx, o, "position_closed"));
                continue;
            }
            fills.add(s.fill());
            store.update(dsl, futuresFinish(tx, s.order(), true, now));
            tape.record(tx, o.category(), o.symbol(), o.price(), s.size(), o.isBuy() ? "sell" : "buy", now);
            n++;
        }
        spot.appendExecutionFills(dsl, fills);
        return n;
    }

    /** Crossed spot orders fill in full as makers at their own price: one ledger change, one ledger transaction each. */
    private int fillSpotMakers(Tx tx, Instrument inst, List<TradeOrder> orders, Map<Long, AccountSettings> settings, long now) {
        Set<BalanceKey> keys = new TreeSet<>();
        for (TradeOrder o : orders) keys.addAll(SpotSettlement.keys(o, inst, platformToken, deducts(settings, o.uid())));
        long[] tradeIds = new long[orders.size()];
        for (int i = 0; i < tradeIds.length; i++) tradeIds[i] = ids.next();
        BigDecimal tokenPrice = prices.usdtPrice(platformToken).orElse(null);
        BigDecimal quotePrice = prices.usdtPrice(inst.quoteCoin()).orElse(null);
        return ledger.submit(tx, keys, rows -> {
            for (int i = 0; i < orders.size(); i++) {
                TradeOrder o = orders.get(i);
                List<Movement> moves = new ArrayList<>();
                SpotSettlement.Settled s = SpotSettlement.settle(o, inst, o.price(), o.remaining(), "maker",
                        terms(inst.makerFeeRate(), deducts(settings, o.uid()), tokenPrice, quotePrice), rows, moves, tradeIds[i], now);
                TradeOrder done = spotFinish(s.order(), true, moves, now); // its release joins the movements
                rows.post("order_fill", null, o.uid(), moves);
                rows.alsoWrite(new OrderWrite(done, false));
                rows.alsoWrite(new FillWrite(s.fill()));
                rows.alsoWrite(new TradeTape.Print(o.category(), o.symbol(), o.price(), s.fill().size(), o.isBuy() ? "sell" : "buy", now));
            }
            return orders.size();
        });
    }

    private static boolean deducts(Map<Long, AccountSettings> settings, long uid) {
        AccountSettings s = settings.get(uid);
        return s != null && s.deduct() == Deduct.on;
    }

    // --- reads

    public TradeOrder order(Lookup l) { return find(l); }

    private TradeOrder find(Lookup l) { return lookup(l).orElseThrow(() -> new ApiException(ErrorCode.ORDER_NOT_EXIST)); }

    public List<TradeOrder> unfilled(long uid, Category category, String symbol, Long cursor, int limit) {
        return db.read(dsl -> store.working(dsl, uid, category == null ? null : category.wire(), symbol, cursor, limit));
    }

    public List<TradeOrder> history(long uid, Category category, String symbol, Long cursor, int limit, Long start, Long end) {
        return db.read(dsl -> store.finished(dsl, uid, category == null ? null : category.wire(), symbol, cursor, limit, start, end));
    }

    /** Working orders of uid, Reality ones or the others (each keeps the account unified, D223). */
    public int workingCount(Tx tx, long uid, boolean reality) { return store.workingCount(tx.dsl(), uid, reality); }

    /** An account's order by clientOid, as committed (RealityService's replay before its checks). */
    public Optional<TradeOrder> byClientOid(long uid, String clientOid) { return db.read(dsl -> store.byClientOid(dsl, uid, clientOid)); }

    /** An account's order by orderId (wins) or clientOid, as committed, if it has one. */
    public Optional<TradeOrder> lookup(Lookup l) {
        return db.read(dsl -> l.orderId() != null ? store.byId(dsl, l.uid(), l.orderId()) : store.byClientOid(dsl, l.uid(), l.clientOid()));
    }

    /** An account's Reality orders, newest first (the admin view, D223). */
    public List<TradeOrder> realityOrders(long uid, int limit) { return db.read(dsl -> store.realityOrders(dsl, uid, limit)); }

    /** The exposure settings changes read, with each account's working orders added to its pending orders (D44). */
    public io.tas.account.SettingsChange.ExposureProbe withWorkingOrders(io.tas.account.SettingsChange.ExposureProbe inner) {
        return (dsl, uids) -> {
            Map<Long, io.tas.account.SettingsChange.Exposure> out = new java.util.HashMap<>(inner.of(dsl, uids));
            store.workingCounts(dsl, uids).forEach((uid, n) -> {
                var e = out.getOrDefault(uid, io.tas.account.SettingsChange.Exposure.NONE);
                out.put(uid, new io.tas.account.SettingsChange.Exposure(e.openContracts(), e.pendingOrders() + n));
            });
            return out;
        };
    }

    /** The order book row: resting orders aggregated by price, merged with the synthetic levels, best first. */
    public record Book(List<BigDecimal[]> asks, List<BigDecimal[]> bids, long ts) {}

    public Book orderBook(Category category, String symbol, int depth) {
        Instrument inst = market.instrument(category, symbol);
        Ticker t = ticker(inst).orElse(null);
        int decimals = market.pricePrecision(inst);
        Book resting = resting(category, inst.symbol(), depth);
        SyntheticBook own = book.of(inst.book());
        List<SyntheticBook.Level> asks = t == null ? List.of() : own.asks(t, decimals);
        List<SyntheticBook.Level> bids = t == null ? List.of() : own.bids(t, decimals);
        return new Book(mergeLevels(resting.asks(), asks, true, depth), mergeLevels(resting.bids(), bids, false, depth), resting.ts());
    }

    /** Only the engine's resting orders of the symbol, aggregated by price, best first (the admin console's book page). */
    public Book restingLevels(Category category, String symbol, int depth) {
        return resting(category, market.instrument(category, symbol).symbol(), depth);
    }

    /** Both sides' resting levels in one read. */
    private Book resting(Category category, String symbol, int depth) {
        return db.read(dsl -> new Book(store.levels(dsl, category, symbol, false, depth), store.levels(dsl, category, symbol, true, depth),
                clock.millis()));
    }

    private static List<BigDecimal[]> mergeLevels(List<BigDecimal[]> resting, List<SyntheticBook.Level> synthetic, boolean asks, int depth) {
        java.util.TreeMap<BigDecimal, BigDecimal> levels = new java.util.TreeMap<BigDecimal, BigDecimal>(asks ? java.util.Comparator.<BigDecimal>naturalOrder() : java.util.Comparator.<BigDecimal>reverseOrder());
        for (BigDecimal[] r : resting) levels.merge(r[0].stripTrailingZeros(), r[1], BigDecimal::add);
        for (SyntheticBook.Level l : synthetic) levels.merge(l.price().stripTrailingZeros(), l.size(), BigDecimal::add);
        List<BigDecimal[]> out = new ArrayList<>();
        for (var e : levels.entrySet()) {
            if (out.size() == depth) break;
            out.add(new BigDecimal[]{e.getKey(), e.getValue()});
        }
        return out;
    }

    /** One position close-positions closed (its symbol and order), or why it could not (the line's code and message). */
    public record CloseLine(String symbol, Result result, ApiException failure) {}

    /**
     * close-positions: each open position of the account (of one symbol, one side) closed by a market order of its own;
     * one that cannot be (a size the quantity step cannot express) is answered in its line, the others still close.
     */
    public List<CloseLine> closePositions(long uid, Category category, String symbol, String posSide, List<Position> open) {
        return closePositions(uid, category, symbol, posSide, open, false);
    }

    /** As above, through the rows of the account's family (classic: the v2 rows, D171). */
    public List<CloseLine> closePositions(long uid, Category category, String symbol, String posSide, List<Position> open, boolean classic) {
        List<CloseLine> out = new ArrayList<>();
        for (Position p : open) {
            if (p.category() != category || (symbol != null && !p.symbol().equals(symbol))) continue;
            if (posSide != null && !p.holdSide().wire().equals(posSide)) continue;
            boolean hedge = p.posMode() == HoldMode.hedge_mode;
            String side = p.holdSide() == HoldSide.long_ ? "sell" : "buy";
            try {
                out.add(new CloseLine(p.symbol(), place(new Place(uid, category, p.symbol(), side, "market", "ioc", p.size(), null, null,
                        hedge ? p.holdSide().wire() : null, !hedge, classic)), null));
            } catch (ApiException e) {
                out.add(new CloseLine(p.symbol(), null, e));
            }
        }
        if (out.isEmpty()) throw new ApiException(ErrorCode.NO_POSITION_TO_CLOSE);
        return out;
    }
}
