package io.tas.risk;

import io.tas.account.AccountEnums.MarginMode;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.market.PriceService;
import io.tas.position.Position;
import io.tas.position.PositionService;
import io.tas.store.Database;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Optional;

/**
 * §2.8 maximum withdrawable amounts, computed at call time (docs/formulas.md):
 * spot = spot available; otc = otc available;
 * uta = max(0, min(available - debt, freeEquity / price)), where
 * freeEquity (USDT) = sum over unified coins of (available - debt) x price + sum of losses of crossed positions.
 * Margin in use (frozen) is not withdrawable; unpriced coins count as zero (never an invented price).
 */
public final class MaxWithdrawal {
    private final Database db;
    private final Ledger ledger;
    private final PriceService prices;
    private final PositionService positions;

    public MaxWithdrawal(Database db, Ledger ledger, PriceService prices, PositionService positions) {
        this.db = db;
        this.ledger = ledger;
        this.prices = prices;
        this.positions = positions;
    }

    public record Result(String coin, BigDecimal otc, BigDecimal spot, BigDecimal uta, BigDecimal total) {}

    /** Balances and positions are read on one connection: under load every pool acquisition is a wait. */
    public Result compute(long uid, String coin) {
        return db.read(dsl -> computeOnOneConnection(dsl, uid, coin));
    }

    private Result computeOnOneConnection(org.jooq.DSLContext dsl, long uid, String coin) {
        List<Balance> balances = ledger.balances(dsl, uid);
        Optional<BigDecimal> price = prices.usdtPrice(coin);
        boolean held = balances.stream().anyMatch(b -> b.key().coin().equals(coin));
        if (price.isEmpty() && !held) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, coin);
        BigDecimal spot = available(balances, new BalanceKey(uid, AccountType.spot, coin));
        BigDecimal otc = available(balances, new BalanceKey(uid, AccountType.otc, coin));
        BigDecimal uta = BigDecimal.ZERO;
        if (price.isPresent()) {
            BigDecimal free = BigDecimal.ZERO;
            for (Balance b : balances) {
                if (b.key().account() != AccountType.unified) continue;
                Optional<BigDecimal> p = prices.usdtPrice(b.key().coin());
                if (p.isPresent()) free = free.add(b.available().subtract(b.debt()).multiply(p.get()));
            }
            for (Position pos : positions.open(dsl, uid)) {
                if (pos.marginMode() != MarginMode.crossed) continue;
                BigDecimal upl = positions.unrealizedPL(pos);
                if (upl.signum() < 0) free = free.add(upl.multiply(prices.requireUsdtPrice(pos.marginCoin())));
            }
            Balance own = balances.stream().filter(b -> b.key().equals(new BalanceKey(uid, AccountType.unified, coin))).findFirst()
                    .orElse(Balance.empty(new BalanceKey(uid, AccountType.unified, coin)));
            BigDecimal byEquity = free.divide(price.get(), MathContext.DECIMAL128);
            uta = floor(own.available().subtract(own.debt()).min(byEquity).max(BigDecimal.ZERO));
        }
        return new Result(coin, floor(otc), floor(spot), uta, floor(spot.add(otc).add(uta)));
    }

    private static BigDecimal available(List<Balance> balances, BalanceKey key) {
        return balances.stream().filter(b -> b.key().equals(key)).map(Balance::available).findFirst().orElse(BigDecimal.ZERO);
    }

    private static BigDecimal floor(BigDecimal v) { return v.setScale(8, RoundingMode.DOWN); }
}
