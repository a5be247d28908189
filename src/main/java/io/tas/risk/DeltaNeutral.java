package io.tas.risk;

import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.market.MarketService;
import io.tas.market.PriceService;
import io.tas.position.Position;
import io.tas.position.PositionMath;
import io.tas.position.PositionService;
import io.tas.store.Database;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * §2.7 delta-neutral info, computed at call time (docs/formulas.md, delta-neutral). Per coin C of the unified account:
 * holding H = available + frozen - debt, futures delta F = sum of dir x size of open positions on contracts with base
 * coin C; positionRatio = |H + F| / (|H| + |F|): 0 is fully hedged, 1 not hedged at all. Quote coins (USDT, USDC) are
 * the collateral, not a position, and are not listed. The deprecated deltaEquityRatio = |sum of (H + F) x price| /
 * equity, equity = sum of H x price over priced coins.
 */
public final class DeltaNeutral {
    /** Coins that are collateral rather than a position to hedge. */
    private static final Set<String> COLLATERAL = Set.of("USDT", "USDC", "USD");

    private final Database db;
    private final Ledger ledger;
    private final MarketService market;
    private final PriceService prices;
    private final PositionService positions;
    private final Config config;

    public DeltaNeutral(Database db, Ledger ledger, MarketService market, PriceService prices, PositionService positions, Config config) {
        this.db = db;
        this.ledger = ledger;
        this.market = market;
        this.prices = prices;
        this.positions = positions;
        this.config = config;
    }

    /** §2.7 thresholds: positionThreshold from TAS_DELTA_POSITION_THRESHOLD, deltaThreshold (deprecated) 20 % per §2.7. */
    public record Config(BigDecimal positionThreshold, BigDecimal deltaThreshold) {
        /** §2.7: at or below 20 % counts as neutral. */
        public static final BigDecimal DELTA_THRESHOLD = new BigDecimal("0.2");

        public static Config of(BigDecimal positionThreshold) { return new Config(positionThreshold, DELTA_THRESHOLD); }
    }

    public record CoinRatio(String coin, BigDecimal positionRatio) {}

    public record Info(BigDecimal deltaEquityRatio, BigDecimal deltaThreshold, BigDecimal positionThreshold, List<CoinRatio> list) {}

    public Info compute(long uid) {
        return db.read(dsl -> {
            Map<String, BigDecimal> holding = new TreeMap<>(), futures = new TreeMap<>();
            for (Balance b : ledger.balances(dsl, uid)) {
                if (b.key().account() != AccountType.unified || COLLATERAL.contains(b.key().coin())) continue;
                holding.merge(b.key().coin(), b.available().add(b.frozen()).subtract(b.debt()), BigDecimal::add);
            }
            for (Position p : positions.open(dsl, uid)) {
                String base = market.instrument(p.category(), p.symbol()).baseCoin();
                futures.merge(base, p.size().multiply(BigDecimal.valueOf(p.holdSide().sign())), BigDecimal::add);
            }
            TreeMap<String, Boolean> coins = new TreeMap<>();
            holding.keySet().forEach(c -> coins.put(c, true));
            futures.keySet().forEach(c -> coins.put(c, true));
            List<CoinRatio> list = new ArrayList<>();
            BigDecimal netUsd = BigDecimal.ZERO;
            for (String coin : coins.keySet()) {
                BigDecimal h = holding.getOrDefault(coin, BigDecimal.ZERO), f = futures.getOrDefault(coin, BigDecimal.ZERO);
                BigDecimal gross = h.abs().add(f.abs());
                if (gross.signum() == 0) continue;
                list.add(new CoinRatio(coin, PositionMath.round(h.add(f).abs().divide(gross, PositionMath.MC))));
                Optional<BigDecimal> price = prices.usdtPrice(coin);
                if (price.isPresent()) netUsd = netUsd.add(h.add(f).multiply(price.get()));
            }
            BigDecimal equity = BigDecimal.ZERO;
            for (Balance b : ledger.balances(dsl, uid)) {
                if (b.key().account() != AccountType.unified) continue;
                Optional<BigDecimal> price = prices.usdtPrice(b.key().coin());
                if (price.isPresent()) equity = equity.add(b.available().add(b.frozen()).subtract(b.debt()).multiply(price.get()));
            }
            BigDecimal ratio = equity.signum() <= 0 ? BigDecimal.ZERO : PositionMath.round(netUsd.abs().divide(equity, PositionMath.MC));
            return new Info(ratio, config.deltaThreshold(), config.positionThreshold(), list);
        });
    }
}
