package io.tas.position;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.account.AccountService;
import io.tas.account.AccountSettings;
import io.tas.account.AccountSettings.CoinConfig;
import io.tas.account.AccountSettings.SymbolConfig;
import io.tas.account.SettingsChange;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.PriceService;
import io.tas.position.Position.HoldSide;
import io.tas.store.Database;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.tas.ledger.Ledger.move;

/**
 * §4.1.1–4.1.3 leverage and isolated margin. A leverage change of a contract without open positions is a settings
 * change (group-committed); with open positions their margin moves with it through the ledger, in one transaction
 * under the account's lock (lock order: account, positions, balances), so a refusal changes nothing.
 */
public final class LeverageService {
    /** §4.1.2 the highest margin-line (MARGIN) leverage of a coin (decisions.md D46). */
    public static final BigDecimal MAX_MARGIN_LEVERAGE = BigDecimal.TEN;

    private final Database db;
    private final Clock clock;
    private final Ledger ledger;
    private final MarketService market;
    private final PriceService prices;
    private final AccountService accounts;
    private final PositionStore store = new PositionStore();

    public LeverageService(Database db, Clock clock, Ledger ledger, MarketService market, PriceService prices, AccountService accounts) {
        this.db = db;
        this.clock = clock;
        this.ledger = ledger;
        this.market = market;
        this.prices = prices;
        this.accounts = accounts;
    }

    /** Command: §4.1.1 / §4.1.2 a leverage request as sent (null: not sent); bounds already checked by checkBounds. */
    public record LeverageRequest(long uid, Category category, String symbol, String coin, MarginMode marginMode,
                                  HoldSide posSide, BigDecimal leverage, BigDecimal longLeverage, BigDecimal shortLeverage) {}

    /** Command: §4.1.3 add or remove isolated margin. */
    public record MarginAdjustment(long uid, Category category, String symbol, HoldSide posSide, boolean add, BigDecimal amount) {}

    /** §2.4 estimates; null where the category does not return the field. */
    public record Estimate(BigDecimal estMaxOpen, BigDecimal estMaxBorrowable, BigDecimal requiredMargin, BigDecimal marginChange) {}

    /** §4.1.2 */
    public void set(LeverageRequest r) {
        if (r.category() == Category.MARGIN) {
            accounts.change(new SettingsChange.SetCoinLeverage(r.uid(), coinConfig(r)));
            return;
        }
        Instrument inst = contract(r);
        try {
            accounts.change(new SettingsChange.SetContractLeverage(r.uid(), r.category(), r.symbol(), now -> resolve(r, inst, now, true), false));
        } catch (SettingsChange.ContractHasPositions e) {
            accounts.changeTogether(r.uid(), tx -> moveOpenPositions(tx, r, inst));
        }
    }

    /** §4.1.3 */
    public void adjustMargin(MarginAdjustment m) {
        Instrument inst = market.instrument(m.category(), m.symbol());
        if (!m.category().isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        if (Ledger.checkAmount("amount", m.amount()).signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, "amount");
        db.tx(tx -> {
            accounts.lock(tx, m.uid());
            Position p = store.lockOpen(tx.dsl(), m.uid(), m.category(), m.symbol()).stream().filter(x -> x.holdSide() == m.posSide())
                    .findFirst().orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "position"));
            if (p.marginMode() != MarginMode.isolated) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "margin can only be adjusted on an isolated position");
            }
            if (!m.add()) {
                BigDecimal removable = removableMargin(inst, p);
                if (m.amount().compareTo(removable) > 0) {
                    throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "amount exceeds the removable margin " + PositionMath.floor(removable).stripTrailingZeros().toPlainString());
                }
            }
            BigDecimal signed = m.add() ? m.amount() : m.amount().negate();
            BalanceKey key = new BalanceKey(m.uid(), AccountType.unified, p.marginCoin());
            ledger.submit(tx, List.of(key), rows -> rows.post(m.add() ? "margin_add" : "margin_remove", null, m.uid(), List.of(
                    move(key, Field.available, signed.negate(), Counter.margin), move(key, Field.frozen, signed, Counter.margin))));
            store.update(tx.dsl(), p.withMargin(p.leverage(), p.marginSize().add(signed), clock.millis()));
            return null;
        });
    }

    /** §4.1.1: the estimate for a change, which changes nothing (docs/formulas.md, pre-set-leverage). */
    public Estimate preSet(LeverageRequest r) {
        AccountSettings settings = accounts.settings(r.uid());
        if (r.category() == Category.MARGIN) return marginEstimate(r, settings);
        Instrument inst = contract(r);
        SymbolConfig target = resolve(r, inst, settings.symbolConfig(r.category(), r.symbol()), false);
        BigDecimal usd = BigDecimal.ZERO, change = BigDecimal.ZERO;
        for (Position p : db.read(dsl -> store.byStatus(dsl, r.uid(), Position.Status.open))) {
            if (p.category() != r.category() || !p.symbol().equals(r.symbol()) || p.marginMode() != target.marginMode()) continue;
            boolean inverse = inst.isInverse();
            BigDecimal after = PositionMath.initialMargin(inverse, p.size(), p.openPriceAvg(), target.leverage(p.holdSide() == HoldSide.long_));
            BigDecimal price = prices.requireUsdtPrice(p.marginCoin());
            usd = usd.add(after.multiply(price));
            change = change.add(after.subtract(PositionMath.initialMargin(inverse, p.size(), p.openPriceAvg(), p.leverage())).multiply(price));
        }
        // What stays free of the margin coin after the change, opened at the mark with the side's new leverage.
        BigDecimal marginPrice = change.signum() == 0 ? BigDecimal.ONE : prices.requireUsdtPrice(inst.marginCoin());
        BigDecimal free = ledger.balance(new BalanceKey(r.uid(), AccountType.unified, inst.marginCoin())).available()
                .subtract(change.divide(marginPrice, PositionMath.MC)).max(BigDecimal.ZERO);
        BigDecimal leverage = target.leverage(r.posSide() != HoldSide.short_);
        BigDecimal maxOpen = inst.isInverse() ? free.multiply(leverage)
                : free.multiply(leverage).divide(prices.requireMarkPrice(r.category(), r.symbol()), PositionMath.MC);
        return new Estimate(PositionMath.floor(maxOpen), null, PositionMath.round(usd), PositionMath.round(change));
    }

    /**
     * §2.4 margin line: with equity E and debt D (USD, unified account), leverage L lets the account borrow up to
     * E x (L - 1) in total, so estMaxBorrowable = max(0, E x (L - 1) - D) / price(coin); the margin that backs the
     * debt is D / L (requiredMargin), and marginChange = D / L' - D / L.
     */
    private Estimate marginEstimate(LeverageRequest r, AccountSettings settings) {
        CoinConfig target = coinConfig(r);
        BigDecimal before = settings.coinConfig(target.coin()).map(CoinConfig::leverage).orElse(AccountSettings.DEFAULT_LEVERAGE.min(MAX_MARGIN_LEVERAGE));
        BigDecimal equity = BigDecimal.ZERO, debt = BigDecimal.ZERO;
        for (var b : ledger.balances(r.uid())) {
            if (b.key().account() != AccountType.unified) continue;
            Optional<BigDecimal> price = prices.usdtPrice(b.key().coin());
            if (price.isEmpty()) continue; // the service never invents a price (docs/formulas.md)
            equity = equity.add(b.available().add(b.frozen()).subtract(b.debt()).multiply(price.get()));
            debt = debt.add(b.debt().multiply(price.get()));
        }
        BigDecimal l = target.leverage();
        BigDecimal borrowable = equity.multiply(l.subtract(BigDecimal.ONE)).subtract(debt).max(BigDecimal.ZERO)
                .divide(prices.requireUsdtPrice(target.coin()), PositionMath.MC);
        BigDecimal required = debt.divide(l, PositionMath.MC);
        return new Estimate(null, PositionMath.floor(borrowable), PositionMath.round(required),
                PositionMath.round(required.subtract(debt.divide(before, PositionMath.MC))));
    }

    /**
     * §4.1.2 bounds, before anything is read: each leverage sent is a positive decimal with at most 2 places, from 1
     * to the instrument's maximum (the margin line's for MARGIN). 0, negative, above the maximum: 40020.
     */
    public void checkBounds(LeverageRequest r) {
        BigDecimal max = r.category() == Category.MARGIN ? MAX_MARGIN_LEVERAGE : contract(r).maxLeverage();
        check("leverage", r.leverage(), max);
        check("longLeverage", r.longLeverage(), max);
        check("shortLeverage", r.shortLeverage(), max);
    }

    private static void check(String name, BigDecimal v, BigDecimal max) {
        if (v == null) return;
        Instrument.checkLeverage(name, v);
        if (v.compareTo(BigDecimal.ONE) < 0 || v.compareTo(max) > 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
    }

    private Instrument contract(LeverageRequest r) {
        Instrument inst = market.instrument(r.category(), r.symbol());
        if (inst.maxLeverage() == null) throw new ApiException(ErrorCode.PARAM_ERROR, "symbol");
        return inst;
    }

    /** §4.1.2 MARGIN: one leverage per coin, crossed only ("only the futures lines support adjusting isolated leverage"). */
    private CoinConfig coinConfig(LeverageRequest r) {
        if (r.marginMode() == MarginMode.isolated) throw new ApiException(ErrorCode.PARAM_ERROR, "marginMode");
        if (!market.isMarginCoin(r.coin())) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, r.coin());
        BigDecimal l = first(r.longLeverage(), r.shortLeverage(), r.leverage());
        if (l == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "leverage");
        return new CoinConfig(r.coin(), l.setScale(2));
    }

    /**
     * The contract's configuration after the request, from the current one (DESIGN: leverage required unless
     * long/shortLeverage is given; §4.1.2: those win over leverage). Crossed has one leverage for both sides. Isolated
     * without long/shortLeverage sets posSide's side; set-leverage requires posSide (§4.1.2), pre-set-leverage has no
     * such parameter and means both sides (§4.1.1: "isolated hedge with the same leverage on both sides"). A side not
     * named keeps its value (a contract that was crossed starts both sides from its crossed leverage). Never
     * configured: 10x, or the maximum when lower.
     */
    static SymbolConfig resolve(LeverageRequest r, Instrument inst, Optional<SymbolConfig> current, boolean posSideRequired) {
        BigDecimal fallback = AccountSettings.DEFAULT_LEVERAGE.min(inst.maxLeverage());
        SymbolConfig base = current.orElse(new SymbolConfig(r.category(), r.symbol(), MarginMode.crossed, fallback, fallback));
        MarginMode mode = r.marginMode() != null ? r.marginMode() : MarginMode.crossed;
        BigDecimal longLev, shortLev;
        if (mode == MarginMode.crossed) {
            if (r.longLeverage() != null && r.shortLeverage() != null && r.longLeverage().compareTo(r.shortLeverage()) != 0) {
                throw new ApiException(ErrorCode.PARAM_ERROR, "shortLeverage");
            }
            longLev = shortLev = first(r.longLeverage(), r.shortLeverage(), r.leverage());
            if (longLev == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "leverage");
        } else if (r.longLeverage() != null || r.shortLeverage() != null) {
            longLev = r.longLeverage() != null ? r.longLeverage() : base.longLeverage();
            shortLev = r.shortLeverage() != null ? r.shortLeverage() : base.shortLeverage();
        } else {
            if (r.leverage() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "leverage");
            if (r.posSide() == null && posSideRequired) throw new ApiException(ErrorCode.PARAM_EMPTY, "posSide");
            longLev = r.posSide() != HoldSide.short_ ? r.leverage() : base.longLeverage();
            shortLev = r.posSide() != HoldSide.long_ ? r.leverage() : base.shortLeverage();
        }
        return new SymbolConfig(r.category(), r.symbol(), mode, longLev.setScale(2), shortLev.setScale(2));
    }

    /**
     * Under the account's lock: the contract's open positions take the new leverage, and the difference of their
     * margin moves between available and frozen (docs/formulas.md, leverage). More margin needs free balance (25202
     * otherwise); less must leave each position above its maintenance margin. The margin mode cannot change under an
     * open position.
     */
    private SettingsChange moveOpenPositions(io.tas.store.Tx tx, LeverageRequest r, Instrument inst) {
        long uid = r.uid();
        SymbolConfig target = resolve(r, inst, accounts.settingsInTransaction(tx, uid).symbolConfig(r.category(), r.symbol()), true);
        List<Position> moved = new ArrayList<>();
        BigDecimal delta = BigDecimal.ZERO;
        long now = clock.millis();
        for (Position p : store.lockOpen(tx.dsl(), uid, r.category(), r.symbol())) {
            if (p.marginMode() != target.marginMode()) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "marginMode cannot change while a position is open");
            }
            BigDecimal leverage = target.leverage(p.holdSide() == HoldSide.long_);
            if (leverage.compareTo(p.leverage()) == 0) continue;
            BigDecimal margin = Ledger.scaled(PositionMath.marginAfterLeverage(inst.isInverse(), p.size(), p.openPriceAvg(),
                    p.marginSize(), p.leverage(), leverage));
            if (margin.compareTo(p.marginSize()) < 0 && !coversMaintenance(inst, p, margin)) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "leverage " + leverage.stripTrailingZeros().toPlainString()
                        + " would leave the position below its maintenance margin");
            }
            delta = delta.add(margin.subtract(p.marginSize()));
            moved.add(p.withMargin(leverage, margin, now));
        }
        if (delta.signum() != 0) {
            BalanceKey key = new BalanceKey(uid, AccountType.unified, inst.marginCoin());
            BigDecimal d = delta;
            ledger.submit(tx, List.of(key), rows -> rows.post("leverage_change", null, uid, List.of(
                    move(key, Field.available, d.negate(), Counter.margin), move(key, Field.frozen, d, Counter.margin))));
        }
        moved.forEach(p -> store.update(tx.dsl(), p));
        return new SettingsChange.SetContractLeverage(uid, r.category(), r.symbol(), ignored -> target, true);
    }

    /** Whether margin, after the position's unrealised loss, stays above its maintenance margin at the mark. */
    private boolean coversMaintenance(Instrument inst, Position p, BigDecimal margin) {
        AtMark m = atMark(inst, p);
        return margin.add(m.unrealizedPL().min(BigDecimal.ZERO)).compareTo(m.maintenance()) > 0;
    }

    /** §4.1.3 removal bound (docs/formulas.md, set-margin). */
    private BigDecimal removableMargin(Instrument inst, Position p) {
        AtMark m = atMark(inst, p);
        // At the ledger's scale, as the stored margin was computed: margin added on top is removable to the last unit.
        BigDecimal im = Ledger.scaled(PositionMath.initialMargin(inst.isInverse(), p.size(), p.openPriceAvg(), p.leverage()));
        return PositionMath.removableMargin(p.marginSize(), m.unrealizedPL(), im, m.maintenance());
    }

    /** A position's unrealised PnL and maintenance margin at the current mark price (40098 without one). */
    private record AtMark(BigDecimal unrealizedPL, BigDecimal maintenance) {}

    private AtMark atMark(Instrument inst, Position p) {
        BigDecimal mark = prices.requireMarkPrice(p.category(), p.symbol());
        boolean inverse = inst.isInverse();
        return new AtMark(PositionMath.pnl(inverse, p.holdSide().sign(), p.size(), p.openPriceAvg(), mark),
                PositionMath.maintenanceMargin(inverse, p.size(), mark, PositionMath.mmr(inst, p.size(), mark)));
    }

    @SafeVarargs
    private static <T> T first(T... values) {
        for (T v : values) if (v != null) return v;
        return null;
    }
}
