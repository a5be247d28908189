package io.tas.risk;

import io.tas.account.AccountEnums.Category;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Routes;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.market.PriceService;
import io.tas.position.PositionMath;
import io.tas.position.PositionService;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * GET /api/v3/account/assets (beyond-spec shapes §7, ccxt fetchBalance with UTA), computed at call time from the
 * unified ledger rows and the open positions (docs/formulas.md style):
 * per coin: balance = available + locked (frozen: position margin and order holds); equity = balance - debt + the
 * unrealised PnL of open positions margined in the coin (each rounded to 8 decimals, as current-position shows it);
 * ledger figures are exact (up to 18 decimals), USDT values are rounded to 8; usdValue = equity x USDT price ("0" when
 * unpriced).
 * Account: usdtEquity = accountEquity = effEquity = sum of usdValue (USD taken as USDT); unrealisedPnl in USDT;
 * imr = sum of position margins, mmr = sum of maintenance margins (USDT); mgnRatio = positionMgnRatio = mmr / effEquity;
 * btcEquity and btcUnrealizedPnl divide by the BTC price ("0" when BTC is unpriced). Unpriced coins count 0.
 */
public final class AssetsRoutes implements Routes.Feature {
    private static final MathContext MC = PositionMath.MC;
    private final Ledger ledger;
    private final PriceService prices;
    private final PositionService positions;

    public AssetsRoutes(Ledger ledger, PriceService prices, PositionService positions) {
        this.ledger = ledger;
        this.prices = prices;
        this.positions = positions;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.UTA_ASSETS, this::assets);
    }

    public record AssetRow(String coin, String equity, String usdValue, String balance, String available, String locked,
                           String debt) {}

    public record Assets(String accountEquity, String usdtEquity, String btcEquity, String unrealisedPnl,
                         String usdtUnrealisedPnl, String btcUnrealizedPnl, String effEquity, String mmr, String imr,
                         String mgnRatio, String positionMgnRatio, List<AssetRow> assets) {}

    private Assets assets(ApiRequest r) { return of(r.uid()); }

    /** The account's unified assets now (the REST row, and the WebSocket account topic's push). */
    public Assets of(long uid) { return of(uid, positions.open(uid)); }

    /** As of(uid), with the account's open positions already read (a stream push reads them once for two channels). */
    public Assets of(long uid, List<io.tas.position.Position> open) { return of(ledger.balances(uid), open); }

    /** As of(uid), from the account's balances and open positions already read (a stream drain reads many at once). */
    public Assets of(List<Balance> balances, List<io.tas.position.Position> open) {
        Map<String, BigDecimal[]> coins = new TreeMap<>(); // coin -> available, frozen, debt, upl
        for (Balance b : balances) {
            if (b.key().account() != AccountType.unified) continue;
            coins.put(b.key().coin(), new BigDecimal[]{b.available(), b.frozen(), b.debt(), BigDecimal.ZERO});
        }
        BigDecimal uplUsdt = BigDecimal.ZERO, imr = BigDecimal.ZERO, mmr = BigDecimal.ZERO;
        for (var p : open) {
            PositionService.Valuation v = positions.value(p);
            BigDecimal[] row = coins.computeIfAbsent(p.marginCoin(),
                    c -> new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
            row[3] = row[3].add(PositionMath.round(v.unrealizedPL()));
            Optional<BigDecimal> price = prices.usdtPrice(p.marginCoin());
            if (price.isEmpty()) continue;
            BigDecimal maintenance = PositionMath.maintenanceMargin(p.category() == Category.COIN_FUTURES, p.size(),
                    v.markPrice(), v.keepMarginRate());
            uplUsdt = uplUsdt.add(v.unrealizedPL().multiply(price.get()));
            imr = imr.add(p.marginSize().multiply(price.get()));
            mmr = mmr.add(maintenance.multiply(price.get()));
        }
        BigDecimal equityUsdt = BigDecimal.ZERO;
        List<AssetRow> rows = new ArrayList<>();
        for (var e : coins.entrySet()) {
            BigDecimal[] x = e.getValue();
            BigDecimal balance = x[0].add(x[1]);
            BigDecimal equity = balance.subtract(x[2]).add(x[3]);
            BigDecimal usd = prices.usdtPrice(e.getKey()).map(equity::multiply).orElse(BigDecimal.ZERO);
            equityUsdt = equityUsdt.add(usd);
            rows.add(new AssetRow(e.getKey(), Json.plain(equity), money(usd), Json.plain(balance), Json.plain(x[0]),
                    Json.plain(x[1]), Json.plain(x[2])));
        }
        Optional<BigDecimal> btc = prices.usdtPrice("BTC");
        BigDecimal totalUsdt = equityUsdt, pnlUsdt = uplUsdt;
        String ratio = equityUsdt.signum() <= 0 ? "0" : money(mmr.divide(equityUsdt, MC));
        String eq = money(equityUsdt);
        return new Assets(eq, eq, btc.map(b -> money(totalUsdt.divide(b, MC))).orElse("0"), money(uplUsdt), money(uplUsdt),
                btc.map(b -> money(pnlUsdt.divide(b, MC))).orElse("0"), eq, money(mmr), money(imr), ratio, ratio, rows);
    }

    /** 8 decimals (half-even), as the position figures; plain string. */
    private static String money(BigDecimal v) { return Json.plain(PositionMath.round(v)); }
}
