package io.tas.reality;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.Deduct;
import io.tas.account.AccountService;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.PriceService;
import io.tas.market.Ticker;
import io.tas.spot.SpotFill;
import io.tas.spot.SpotRecords;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static io.tas.ledger.Ledger.move;

/**
 * §4.7 Reality (tokenised stock) orders of unified accounts, and their simulated execution (issue 10). Placement freezes
 * the order's balance (a buy the quote coin, price x qty or a market buy's quote qty; a sell the base qty), a fill
 * releases what it used and exchanges the coins against the market, a cancel releases what is left. Each of these is one
 * transaction: the account's lock, the ledger movements, the order row and its §2.17 spot fills.
 */
public final class RealityService {
    private static final Logger LOG = LoggerFactory.getLogger(RealityService.class);
    static final int MAX_CLIENT_OID = 64;
    /**
     * D72/D82: the price decimals Reality orders are validated with are at most 18 - 4: a price x a quantity (4 decimals)
     * then always fits the ledger's 18 decimals, whatever decimals an admin's ticker carries.
     */
    static final int MAX_PRICE_DECIMALS = Ledger.SCALE - Instrument.QUANTITY_DECIMALS;
    /** D72's minimum order value of a spot pair, in the quote coin. */
    static final BigDecimal MIN_NOTIONAL = BigDecimal.ONE;

    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final Ledger ledger;
    private final MarketService market;
    private final PriceService prices;
    private final AccountService accounts;
    private final SpotRecords spot;
    private final String platformToken;
    private final RealityConfig config;
    private final RealityStore store = new RealityStore();

    public RealityService(Database db, Clock clock, IdGenerator ids, Ledger ledger, MarketService market, PriceService prices,
                          AccountService accounts, SpotRecords spot, String platformToken, RealityConfig config) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.ledger = ledger;
        this.market = market;
        this.prices = prices;
        this.accounts = accounts;
        this.spot = spot;
        this.platformToken = platformToken;
        this.config = config;
    }

    public RealityConfig config() { return config; }

    /** The same service with another execution setting, over the same database (tests: orders that rested while it was off). */
    public RealityService withConfig(RealityConfig other) {
        return new RealityService(db, clock, ids, ledger, market, prices, accounts, spot, platformToken, other);
    }

    /** Command: §4.7 place-reality-order, parsed. price is null for market orders. */
    public record Place(long uid, String category, String symbol, String side, String orderType, BigDecimal qty, BigDecimal price,
                        String clientOid) {}

    /** Command: §4.7 cancel-reality-order; orderId wins over clientOid. */
    public record Cancel(long uid, String category, String symbol, Long orderId, String clientOid) {}

    /** §2.22. */
    public record Result(long orderId, String clientOid) {
        static Result of(RealityOrder o) { return new Result(o.orderId(), o.clientOid() == null ? "" : o.clientOid()); }
    }

    // --- placement

    public Result place(Place c) {
        // A repeat of a placed order answers the first result and changes nothing (DESIGN: idempotency). Looked up before
        // the checks that depend on the tickers (decimals, minimum): a retry of an accepted order replays, not refused.
        if (c.clientOid() != null) {
            Optional<RealityOrder> earlier = db.read(dsl -> store.byClientOid(dsl, c.uid(), c.clientOid()));
            if (earlier.isPresent()) return replay(earlier.get(), c);
        }
        Instrument inst = realityPair(c.symbol());
        boolean buy = c.side().equals("buy");
        boolean marketOrder = c.orderType().equals("market");
        // §4.7: a market buy's qty is quote coin; limit orders and market sells are base coin. D82: at most 14 price decimals.
        int pricePrecision = Math.min(market.pricePrecision(inst), MAX_PRICE_DECIMALS);
        BigDecimal qty = decimals("qty", positive("qty", c.qty()), marketOrder && buy ? pricePrecision : Instrument.QUANTITY_DECIMALS);
        BigDecimal price = null;
        if (!marketOrder) {
            if (c.price() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "price");
            price = decimals("price", positive("price", c.price()), pricePrecision);
            // Every limit order's value must be a ledger amount (40808), a sell's too: its fills are worth price x qty.
            Ledger.checkAmount("price x qty", price.multiply(qty));
        }
        BigDecimal frozen = buy ? (marketOrder ? qty : price.multiply(qty)) : qty;
        // Prices are read before the ledger change: its decision runs without SQL (a price reload is SQL).
        Optional<Ticker> ticker = market.ticker(Category.SPOT, inst.symbol());
        Optional<BigDecimal> best = ticker.map(t -> buy ? t.ask1Price() : t.bid1Price()).filter(p -> p != null && p.signum() > 0);
        // D82 minimum order value, in the quote coin: a limit order's price x qty, a market buy's qty (quote coin), a
        // market sell's qty x the best bid when there is one.
        BigDecimal value = marketOrder ? (buy ? qty : best.map(qty::multiply).orElse(null)) : price.multiply(qty);
        if (value != null && value.compareTo(MIN_NOTIONAL) < 0) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "order value is below the minimum " + MIN_NOTIONAL + " " + inst.quoteCoin());
        }
        Place cmd = new Place(c.uid(), c.category(), c.symbol(), c.side(), c.orderType(), qty, price, c.clientOid());
        Optional<BigDecimal> marketPrice = config.simulatedExecution() ? best : Optional.empty();
        if (config.simulatedExecution() && marketOrder && marketPrice.isEmpty()) {
            // Market orders fill at once against the best bid/ask: without one there is nothing to fill against.
            throw new ApiException(ErrorCode.PRICE_UNAVAILABLE, inst.symbol());
        }
        if (marketOrder && buy && marketPrice.isPresent() && baseFor(qty, marketPrice.get()).signum() == 0) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "qty buys less than " + BigDecimal.ONE.movePointLeft(Instrument.QUANTITY_DECIMALS).toPlainString() + " " + inst.baseCoin());
        }
        FeeTerms fees = feeTerms(inst);
        BigDecimal price0 = price;
        try {
            return db.tx(tx -> {
            org.jooq.DSLContext dsl = tx.dsl();
                // The account's lock first (D56): concurrent sends of one clientOid serialise here, and the later ones
                // find the first one's order below.
                accounts.lock(tx, c.uid());
                if (c.clientOid() != null) {
                    Optional<RealityOrder> earlier = store.byClientOid(dsl, c.uid(), c.clientOid());
                    if (earlier.isPresent()) return replay(earlier.get(), cmd);
                }
                boolean deduct = accounts.settingsInTransaction(tx, c.uid()).deduct() == Deduct.on;
                long now = clock.millis();
                RealityOrder placed = new RealityOrder(c.uid(), ids.next(), c.clientOid(), c.category(), inst.symbol(), inst.baseCoin(),
                        inst.quoteCoin(), c.side(), c.orderType(), price0, qty, buy ? inst.quoteCoin() : inst.baseCoin(), frozen,
                        BigDecimal.ZERO, BigDecimal.ZERO, RealityOrder.LIVE, now, now);
                Optional<Match> match = marketPrice.flatMap(p -> crossing(placed, ticker.get(), level(ticker.get(), buy)));
                long tradeId = match.isPresent() ? ids.next() : 0;
                BalanceKey frozenKey = key(c.uid(), placed.frozenCoin());
                Outcome out = ledger.submit(tx, keys(placed, deduct && match.isPresent()), rows -> {
                    // A v3 row: unified under the account's lock, not only in the cache the guard read (D141).
                    if (!rows.unified(c.uid())) throw new ApiException(ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API);
                    List<Movement> moves = new ArrayList<>();
                    // §4.7: placement freezes the balance; insufficient available balance rejects the order (25202).
                    if (rows.get(frozenKey).available().compareTo(frozen) < 0) throw new ApiException(ErrorCode.INSUFFICIENT_BALANCE);
                    moves.add(move(frozenKey, Field.available, frozen.negate(), Counter.order));
                    moves.add(move(frozenKey, Field.frozen, frozen, Counter.order));
                    Outcome o = match.map(m -> execute(placed, m, "taker", deduct, fees, tradeId, now, rows, moves))
                            .orElse(new Outcome(placed, List.of()));
                    rows.post("reality_order", null, c.uid(), moves);
                    return o;
                });
                store.insert(dsl, out.order());
                spot.appendExecutionFills(dsl, out.fills());
                return Result.of(out.order());
            });
        } catch (IntegrityConstraintViolationException e) {
            // The unique (uid, clientOid) key: a concurrent first send won (the lock makes this rare); answer as its repeat.
            // Any other constraint is a refused order (40017, nothing written), never a 5xx.
            Optional<RealityOrder> winner = c.clientOid() == null ? Optional.empty() : db.read(dsl -> store.byClientOid(dsl, c.uid(), c.clientOid()));
            if (winner.isPresent()) return replay(winner.get(), cmd);
            LOG.warn("Reality order on {} refused by a database constraint: {}", c.symbol(), e.getClass().getSimpleName());
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "the order could not be stored");
        }
    }

    /** The same payload under a clientOid answers the first order; another payload is refused and changes nothing. */
    private static Result replay(RealityOrder o, Place c) {
        boolean same = o.category().equals(c.category()) && o.symbol().equals(c.symbol()) && o.side().equals(c.side())
                && o.orderType().equals(c.orderType()) && o.qty().compareTo(c.qty()) == 0
                && (o.price() == null ? c.price() == null : c.price() != null && o.price().compareTo(c.price()) == 0);
        if (!same) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "clientOid " + c.clientOid() + " was already used with different parameters");
        }
        return Result.of(o);
    }

    // --- cancel

    public Result cancel(Cancel c) {
        // D81: the order is found by the account and its orderId/clientOid, not through the pair's registry entry: an
        // order stays cancellable (its freeze releasable) after its pair lost the Reality flag. The symbol must be the order's.
        if (c.orderId() == null && c.clientOid() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "orderId or clientOid");
        return db.tx(tx -> {
            org.jooq.DSLContext dsl = tx.dsl();
            accounts.lock(tx, c.uid());
            // §4.7: when both are given, orderId takes priority.
            Optional<RealityOrder> found = c.orderId() != null ? store.byId(dsl, c.uid(), c.orderId()) : store.byClientOid(dsl, c.uid(), c.clientOid());
            RealityOrder o = found.filter(x -> x.symbol().equals(c.symbol()))
                    .orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, c.orderId() != null ? "orderId" : "clientOid"));
            if (!o.isWorking()) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "order " + o.orderId() + " is " + o.status() + " and cannot be cancelled");
            }
            return Result.of(cancelInTransaction(tx, o));
        });
    }

    /** Cancels a working order inside the caller's transaction (its account locked): the remaining freeze goes back, exactly. */
    private RealityOrder cancelInTransaction(io.tas.store.Tx tx, RealityOrder o) {
        BalanceKey k = key(o.uid(), o.frozenCoin());
        if (o.frozen().signum() > 0) {
            ledger.submit(tx, List.of(k), rows -> rows.post("reality_cancel", null, o.uid(), List.of(
                    move(k, Field.frozen, o.frozen().negate(), Counter.order),
                    move(k, Field.available, o.frozen(), Counter.order))));
        }
        RealityOrder cancelled = o.next(BigDecimal.ZERO, o.filledQty(), o.filledAmount(), RealityOrder.CANCELLED, clock.millis());
        store.update(tx.dsl(), cancelled);
        return cancelled;
    }

    // --- simulated execution of resting orders

    /**
     * A ticker changed: working limit orders of the symbol that it crosses fill as makers at their limit price, oldest
     * first, each in its own transaction; market orders that rested while execution was off fill as takers at the best
     * price (D83). The best level's size is shared among them (a size of 0 means no limit). An order that fails is
     * logged and skipped (D83). Returns the fills made.
     */
    public int onTicker(Ticker t) {
        try {
            return match(t);
        } catch (RuntimeException e) {
            // The ticker is committed by now: matching never fails the update that moved the price (D83).
            LOG.warn("Reality matching on the {} ticker failed: {}", t.symbol(), e.getClass().getSimpleName());
            return 0;
        }
    }

    private int match(Ticker t) {
        if (!config.simulatedExecution() || t.category() != Category.SPOT) return 0;
        Instrument inst;
        try {
            inst = market.instrument(Category.SPOT, t.symbol());
        } catch (ApiException unknown) {
            return 0;
        }
        if (!inst.reality()) return 0;
        FeeTerms fees = feeTerms(inst);
        BigDecimal[] askLeft = {level(t, true)};
        BigDecimal[] bidLeft = {level(t, false)};
        int fills = 0;
        BigDecimal ask = positiveOrNull(t.ask1Price());
        BigDecimal bid = positiveOrNull(t.bid1Price());
        long after = 0;
        // Only orders this ticker crosses, a page at a time, until both levels are used up (issue 24 item 10).
        while (!(usedUp(askLeft) && usedUp(bidLeft))) {
            long cursor = after;
            List<RealityOrder> page = db.read(dsl -> store.crossing(dsl, t.symbol(), usedUp(askLeft) ? null : ask,
                    usedUp(bidLeft) ? null : bid, cursor, MATCH_PAGE));
            examined.add(page.size());
            for (RealityOrder o : page) {
                BigDecimal[] left = o.isBuy() ? askLeft : bidLeft;
                if (usedUp(left)) continue;
                // One order that cannot fill (its transaction rolled back) does not stop the newer ones (D83).
                try {
                    if (fillResting(o, t, left, fees)) fills++;
                } catch (RuntimeException e) {
                    LOG.warn("Reality order {} on {} not filled at this ticker: {}", o.orderId(), o.symbol(),
                            e instanceof ApiException a ? a.getMessage() : e.getClass().getSimpleName());
                }
            }
            if (page.size() < MATCH_PAGE) break;
            after = page.getLast().orderId();
        }
        return fills;
    }

    private boolean fillResting(RealityOrder first, Ticker t, BigDecimal[] left, FeeTerms fees) {
        return db.tx(tx -> {
            org.jooq.DSLContext dsl = tx.dsl();
            accounts.lock(tx, first.uid());
            // Read again under the lock: a cancel or another fill may have come first.
            RealityOrder o = store.byId(dsl, first.uid(), first.orderId()).filter(RealityOrder::isWorking).orElse(null);
            if (o == null) return false;
            BigDecimal levelLeft = left[0];
            // A resting limit order is the maker: it fills at its own limit price once the market reaches it. A market
            // order that rested (execution was off) is a taker at the best price, as at placement (D83).
            Optional<Match> match = crossing(o, t, levelLeft).map(m -> o.isMarket() ? m : new Match(o.price(), m.size()));
            if (match.isEmpty()) return false;
            if (match.get().size().signum() == 0) {
                // A market buy whose quote qty buys less than one quantity step: cancelled, its freeze released, no zero fill.
                cancelInTransaction(tx, o);
                return false;
            }
            String scope = o.isMarket() ? "taker" : "maker";
            boolean deduct = accounts.settingsInTransaction(tx, o.uid()).deduct() == Deduct.on;
            long tradeId = ids.next();
            long now = clock.millis();
            Outcome out = ledger.submit(tx, keys(o, deduct), rows -> {
                List<Movement> moves = new ArrayList<>();
                Outcome r = execute(o, match.get(), scope, deduct, fees, tradeId, now, rows, moves);
                rows.post("reality_fill", null, o.uid(), moves);
                return r;
            });
            store.update(dsl, out.order());
            spot.appendExecutionFills(dsl, out.fills());
            if (levelLeft != null) left[0] = levelLeft.subtract(match.get().size()).max(BigDecimal.ZERO);
            return true;
        });
    }

    /** How many of uid's orders are still working (live or partially filled): they keep the account unified. */
    public int workingCount(long uid) { return db.read(dsl -> store.workingCount(dsl, uid)); }

    /** As workingCount, as the caller's transaction sees it (the switch job, under the account's lock). */
    public int workingCount(io.tas.store.Tx tx, long uid) { return store.workingCount(tx.dsl(), uid); }

    /** The admin view of an account's orders, newest first. */
    public List<RealityOrder> orders(long uid) { return db.read(dsl -> store.ofAccount(dsl, uid, 100)); }

    // --- the execution itself: a decision without SQL (it runs inside the ledger change)

    /** Where and how much an order fills against a ticker: the best ask for a buy, the best bid for a sell. */
    record Match(BigDecimal price, BigDecimal size) {}

    /** The order after a fill, and the fill as §2.17 shows it. */
    record Outcome(RealityOrder order, List<SpotFill> fills) {}

    /** Fee rates of a pair and the prices the platform-token deduction needs (null when one is missing). */
    record FeeTerms(Instrument inst, BigDecimal takerRate, BigDecimal makerRate, BigDecimal tokenPrice, BigDecimal quotePrice) {}

    /** Read before the ledger change: its decision runs without SQL, and a registry or price reload is SQL. */
    private FeeTerms feeTerms(Instrument inst) {
        return new FeeTerms(inst, inst.takerFeeRate(), inst.makerFeeRate(), prices.usdtPrice(platformToken).orElse(null),
                prices.usdtPrice(inst.quoteCoin()).orElse(null));
    }

    /**
     * A buy fills when the best ask is at or below its limit, a sell when the best bid is at or above it (a market order
     * at any price). A market buy's base size is its quote qty at the ask, rounded down to the quantity step; a limit
     * order fills its remaining qty, at most levelLeft.
     */
    private static Optional<Match> crossing(RealityOrder o, Ticker t, BigDecimal levelLeft) {
        BigDecimal p = o.isBuy() ? t.ask1Price() : t.bid1Price();
        if (p == null || p.signum() <= 0) return Optional.empty();
        if (!o.isMarket() && (o.isBuy() ? o.price().compareTo(p) < 0 : o.price().compareTo(p) > 0)) return Optional.empty();
        if (o.isMarket()) return Optional.of(new Match(p, o.isBuy() ? baseFor(o.qty(), p) : o.qty()));
        BigDecimal size = o.remainingBase();
        if (levelLeft != null && levelLeft.compareTo(size) < 0) size = levelLeft.setScale(Instrument.QUANTITY_DECIMALS, RoundingMode.DOWN);
        return size.signum() > 0 ? Optional.of(new Match(p, size)) : Optional.empty();
    }

    /** The size at the best ask (buy) or bid (sell); null when the ticker gives none (no limit). */
    /** Working orders ticker updates have read to match (tas_reality_orders_examined_total). */
    private final java.util.concurrent.atomic.LongAdder examined = new java.util.concurrent.atomic.LongAdder();

    public long ordersExamined() { return examined.sum(); }

    /** Orders a tick reads at a time. */
    static final int MATCH_PAGE = 200;

    /** A level with a size that fills have taken to 0 (null: no size given, no limit). */
    private static boolean usedUp(BigDecimal[] left) { return left[0] != null && left[0].signum() <= 0; }

    private static BigDecimal positiveOrNull(BigDecimal p) { return p == null || p.signum() <= 0 ? null : p; }

    private static BigDecimal level(Ticker t, boolean buy) {
        BigDecimal s = buy ? t.ask1Size() : t.bid1Size();
        return s == null || s.signum() <= 0 ? null : s;
    }

    private static BigDecimal baseFor(BigDecimal quoteQty, BigDecimal price) {
        return quoteQty.divide(price, Instrument.QUANTITY_DECIMALS, RoundingMode.DOWN);
    }

    /**
     * One fill: release what it used from the freeze (all that is left when the order completes), pay and receive through
     * the trade counter, and charge the fee. With fee deduction on, the fee is paid in the platform token at its USDT
     * price with the token discount, when the token is priced and its available balance covers it; otherwise it is taken
     * from the coin received (base for a buy, quote for a sell).
     */
    private Outcome execute(RealityOrder o, Match m, String scope, boolean deduct, FeeTerms fees, long tradeId, long now,
                            Ledger.Locked rows, List<Movement> moves) {
        BigDecimal size = m.size();
        BigDecimal amount = m.price().multiply(size);
        try {
            Ledger.checkAmount("amount", amount); // the ledger's own check, before any movement (D82)
        } catch (ApiException notAnAmount) {
            // A taker fill at a ticker price of many decimals: nothing is posted, the order is refused / stays (40098).
            throw new ApiException(ErrorCode.PRICE_UNAVAILABLE, o.symbol() + " (" + size.toPlainString() + " at "
                    + m.price().toPlainString() + " is not an amount of at most " + Ledger.SCALE + " decimals)");
        }
        BigDecimal filledQty = o.filledQty().add(size);
        BigDecimal filledAmount = o.filledAmount().add(amount);
        boolean done = o.isMarket() || filledQty.compareTo(o.qty()) == 0;
        BigDecimal release = done ? o.frozen() : (o.isBuy() ? o.price().multiply(size) : size);
        BalanceKey base = key(o.uid(), o.baseCoin());
        BalanceKey quote = key(o.uid(), o.quoteCoin());
        BalanceKey frozenKey = o.isBuy() ? quote : base;
        moves.add(move(frozenKey, Field.frozen, release.negate(), Counter.order));
        moves.add(move(frozenKey, Field.available, release, Counter.order));
        moves.add(move(o.isBuy() ? quote : base, Field.available, (o.isBuy() ? amount : size).negate(), Counter.trade));
        moves.add(move(o.isBuy() ? base : quote, Field.available, o.isBuy() ? size : amount, Counter.trade));

        BigDecimal rate = scope.equals("taker") ? fees.takerRate() : fees.makerRate();
        // The engine's spot fee rule (issue 25: one rule for both): the coin received, or the platform token.
        io.tas.trade.SpotSettlement.Fee fee = io.tas.trade.SpotSettlement.fee(o.uid(), fees.inst(), o.isBuy(),
                amount, size, new io.tas.trade.SpotSettlement.Terms(rate, deduct, platformToken, fees.tokenPrice(), fees.quotePrice()), rows, moves);
        if (fee.amount().signum() != 0) moves.add(move(fee.key(), Field.available, fee.amount().negate(), Counter.fee));
        String status = done ? RealityOrder.FILLED : RealityOrder.PARTIALLY_FILLED;
        RealityOrder next = o.next(o.frozen().subtract(release), filledQty, filledAmount, status, now);
        // §2.17: fees as the platform shows them, negative (as the seeded fills).
        SpotFill fill = new SpotFill(o.uid(), tradeId, o.orderId(), o.symbol(), o.orderType(), o.side(), m.price(), size, amount, scope,
                fee.deduction(), fee.coin(), fee.deducted().negate(), fee.amount().negate(), now, now, o.category(), BigDecimal.ZERO);
        return new Outcome(next, List.of(fill));
    }

    // --- helpers

    /** §4.7: only Reality pairs; any other symbol, known or not, is not a pair of these rows (25100). */
    private Instrument realityPair(String symbol) {
        Instrument i = market.instrument(Category.SPOT, symbol);
        if (!i.reality()) throw new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol);
        return i;
    }

    private Set<BalanceKey> keys(RealityOrder o, boolean withToken) {
        Set<BalanceKey> keys = new TreeSet<>();
        keys.add(key(o.uid(), o.baseCoin()));
        keys.add(key(o.uid(), o.quoteCoin()));
        if (withToken) keys.add(key(o.uid(), platformToken));
        return keys;
    }

    private static BalanceKey key(long uid, String coin) { return new BalanceKey(uid, AccountType.unified, coin); }

    private static BigDecimal positive(String name, BigDecimal v) {
        Ledger.checkAmount(name, v);
        if (v.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    /** At most the instrument's decimals (the platform's checkBDScale answer, 40808). */
    private static BigDecimal decimals(String name, BigDecimal v, int scale) {
        if (v.stripTrailingZeros().scale() > scale) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, name + " checkBDScale error value=" + v.toPlainString() + " checkScale=" + scale);
        }
        return v;
    }
}
