package io.tas.position;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.account.AccountService;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountSettings;
import io.tas.account.SettingsChange;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.PriceService;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

/**
 * The classic futures account rows (issue 26): `mix/account/accounts` (ccxt's fetchBalance for swap), `mix/account/account`
 * (one margin coin with the symbol's leverage and modes) and the settings a classic account trades under (set-leverage,
 * set-margin-mode, set-position-mode, D173). A classic account's futures
 * margin is its `unified` balance of the margin coin (D171): available is free, frozen is position margin and order
 * freezes, equity adds the open positions' unrealised PnL at the mark price (D174).
 */
public final class MixAccountRoutes implements Routes.Feature {
    private final Ledger ledger;
    private final PositionService positions;
    private final MarketService market;
    private final PriceService prices;
    private final AccountService accounts;
    private final LeverageService leverage;

    public MixAccountRoutes(Ledger ledger, PositionService positions, MarketService market, PriceService prices, AccountService accounts,
                            LeverageService leverage) {
        this.leverage = leverage;
        this.ledger = ledger;
        this.positions = positions;
        this.market = market;
        this.prices = prices;
        this.accounts = accounts;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.MIX_ACCOUNTS, this::accountsRow);
        routes.bind(Endpoint.MIX_ACCOUNT, this::accountRow);
        routes.bind(Endpoint.MIX_SET_LEVERAGE, this::setLeverage);
        routes.bind(Endpoint.MIX_SET_MARGIN_MODE, this::setMarginMode);
        routes.bind(Endpoint.MIX_SET_POSITION_MODE, this::setPositionMode);
    }

    /** contract/account/Get-Account-List: one line per margin coin of the product type. */
    public record AccountLine(String marginCoin, String locked, String available, String crossedMaxAvailable, String isolatedMaxAvailable,
                              String maxTransferOut, String accountEquity, String usdtEquity, String btcEquity, String crossedRiskRate,
                              String unrealizedPL, String coupon, String crossedUnrealizedPL, String isolatedUnrealizedPL, String assetMode) {}

    /** contract/account/Get-Single-Account: the same figures with the symbol's leverage and modes. */
    public record SingleAccount(String marginCoin, String locked, String available, String crossedMaxAvailable, String isolatedMaxAvailable,
                                String maxTransferOut, String accountEquity, String usdtEquity, String btcEquity, String crossedRiskRate,
                                String crossedMarginLeverage, String isolatedLongLever, String isolatedShortLever, String marginMode,
                                String posMode, String unrealizedPL, String coupon, String crossedUnrealizedPL, String isolatedUnrealizedPL) {}

    /** The money of one margin coin: the balance row and the open positions' unrealised PnL by margin mode. */
    private record Figures(String coin, BigDecimal available, BigDecimal frozen, BigDecimal crossedUpl, BigDecimal isolatedUpl,
                           BigDecimal equity, BigDecimal usdtEquity, BigDecimal btcEquity) {}

    private List<AccountLine> accountsRow(ApiRequest r) {
        return lines(r.uid(), productType(r.params().require("productType")));
    }

    /** One line per margin coin of a futures category, as the accounts row and the v2 futures account channel show them. */
    public List<AccountLine> lines(long uid, Category category) {
        return marginCoins(category).stream().map(coin -> figures(uid, category, coin)).map(f -> new AccountLine(f.coin(),
                Json.plain(f.frozen()), Json.plain(f.available()), Json.plain(f.available()), Json.plain(f.available()),
                Json.plain(f.available()), Json.plain(f.equity()), Json.plain(f.usdtEquity()), Json.plain(f.btcEquity()), "0",
                Json.plain(f.crossedUpl().add(f.isolatedUpl())), "0", Json.plain(f.crossedUpl()), Json.plain(f.isolatedUpl()), "single"))
                .toList();
    }

    private SingleAccount accountRow(ApiRequest r) {
        Params p = r.params().require("symbol", "productType", "marginCoin");
        Category category = productType(p);
        String symbol = io.tas.common.Ascii.upper(p.get("symbol"));
        Instrument inst;
        try {
            inst = market.instrument(category, symbol);
        } catch (ApiException unknown) {
            throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "symbol");
        }
        String coin = io.tas.common.Ascii.upper(p.get("marginCoin"));
        if (!coin.equals(inst.marginCoin())) throw new ApiException(ErrorCode.PARAM_ERROR, "marginCoin");
        Figures f = figures(r.uid(), category, coin);
        AccountSettings settings = accounts.settings(r.uid());
        var config = settings.symbolConfig(category, symbol);
        BigDecimal fallback = AccountSettings.DEFAULT_LEVERAGE.min(inst.maxLeverage() == null ? AccountSettings.DEFAULT_LEVERAGE : inst.maxLeverage());
        BigDecimal longLev = config.map(AccountSettings.SymbolConfig::longLeverage).orElse(fallback);
        BigDecimal shortLev = config.map(AccountSettings.SymbolConfig::shortLeverage).orElse(fallback);
        MarginMode mode = config.map(AccountSettings.SymbolConfig::marginMode).orElse(MarginMode.crossed);
        return new SingleAccount(coin, Json.plain(f.frozen()), Json.plain(f.available()), Json.plain(f.available()), Json.plain(f.available()),
                Json.plain(f.available()), Json.plain(f.equity()), Json.plain(f.usdtEquity()), Json.plain(f.btcEquity()), "0",
                Json.plain(longLev.stripTrailingZeros()), Json.plain(longLev.stripTrailingZeros()), Json.plain(shortLev.stripTrailingZeros()),
                mode.name(), settings.holdMode().name(), Json.plain(f.crossedUpl().add(f.isolatedUpl())), "0",
                Json.plain(f.crossedUpl()), Json.plain(f.isolatedUpl()));
    }

    public record LeverageView(String symbol, String marginCoin, String longLeverage, String shortLeverage, String crossMarginLeverage,
                               String marginMode) {}

    public record PosModeView(String posMode) {}


    /**
     * set-leverage: the contract's leverage under its current margin mode; crossed sets both sides, isolated the side
     * holdSide names, or both without it (D173).
     */
    private LeverageView setLeverage(ApiRequest r) {
        Params p = r.params().require("symbol", "productType", "marginCoin", "leverage");
        Category category = productType(p);
        String symbol = io.tas.common.Ascii.upper(p.get("symbol"));
        MarginMode mode = config(r.uid(), category, symbol).map(AccountSettings.SymbolConfig::marginMode).orElse(MarginMode.crossed);
        BigDecimal lev = p.decimal("leverage");
        String holdSide = p.get("holdSide");
        boolean both = mode == MarginMode.crossed || holdSide == null;
        if (holdSide != null && !holdSide.equals("long") && !holdSide.equals("short")) throw new ApiException(ErrorCode.PARAM_ERROR, "holdSide");
        var req = new LeverageService.LeverageRequest(r.uid(), category, symbol, null, mode, null,
                both ? lev : null, both || holdSide.equals("long") ? lev : null, both || holdSide.equals("short") ? lev : null);
        leverage.checkBounds(req);
        leverage.set(req);
        return leverageView(r.uid(), category, symbol, io.tas.common.Ascii.upper(p.get("marginCoin")));
    }

    /** set-margin-mode: crossed or isolated, each side keeping its leverage (crossed takes the long side's). */
    private LeverageView setMarginMode(ApiRequest r) {
        Params p = r.params().require("symbol", "productType", "marginCoin", "marginMode");
        Category category = productType(p);
        String symbol = io.tas.common.Ascii.upper(p.get("symbol"));
        String m = io.tas.common.Ascii.lower(p.get("marginMode"));
        MarginMode mode = switch (m) {
            case "crossed", "cross" -> MarginMode.crossed;
            case "isolated", "fixed" -> MarginMode.isolated;
            default -> throw new ApiException(ErrorCode.PARAM_ERROR, "marginMode");
        };
        var current = config(r.uid(), category, symbol);
        BigDecimal fallback = AccountSettings.DEFAULT_LEVERAGE;
        BigDecimal longLev = current.map(AccountSettings.SymbolConfig::longLeverage).orElse(fallback);
        BigDecimal shortLev = current.map(AccountSettings.SymbolConfig::shortLeverage).orElse(fallback);
        var req = mode == MarginMode.crossed
                ? new LeverageService.LeverageRequest(r.uid(), category, symbol, null, mode, null, longLev, null, null)
                : new LeverageService.LeverageRequest(r.uid(), category, symbol, null, mode, null, null, longLev, shortLev);
        leverage.checkBounds(req);
        leverage.set(req);
        return leverageView(r.uid(), category, symbol, io.tas.common.Ascii.upper(p.get("marginCoin")));
    }

    /** set-position-mode: one_way_mode or hedge_mode for the account (refused with open positions or orders, D44). */
    private PosModeView setPositionMode(ApiRequest r) {
        Params p = r.params().require("productType", "posMode");
        productType(p);
        HoldMode mode = p.enumValue("posMode", HoldMode.class);
        accounts.change(new SettingsChange.SetHoldMode(r.uid(), mode));
        return new PosModeView(mode.name());
    }

    private java.util.Optional<AccountSettings.SymbolConfig> config(long uid, Category category, String symbol) {
        return accounts.settings(uid).symbolConfig(category, symbol);
    }

    private LeverageView leverageView(long uid, Category category, String symbol, String marginCoin) {
        var c = config(uid, category, symbol).orElseThrow();
        return new LeverageView(symbol, marginCoin, Json.plain(c.longLeverage()), Json.plain(c.shortLeverage()),
                Json.plain(c.longLeverage()), c.marginMode().name());
    }

    private Figures figures(long uid, Category category, String coin) {
        Balance b = ledger.balance(new BalanceKey(uid, AccountType.unified, coin));
        BigDecimal crossed = BigDecimal.ZERO;
        BigDecimal isolated = BigDecimal.ZERO;
        for (Position pos : positions.open(uid)) {
            if (pos.category() != category || !pos.marginCoin().equals(coin)) continue;
            BigDecimal upl = positions.unrealizedPL(pos);
            if (pos.marginMode() == MarginMode.crossed) crossed = crossed.add(upl);
            else isolated = isolated.add(upl);
        }
        BigDecimal equity = Ledger.plain(b.available().add(b.frozen()).add(crossed).add(isolated));
        BigDecimal usdt = prices.usdtPrice(coin).map(x -> Ledger.plain(equity.multiply(x))).orElse(BigDecimal.ZERO);
        BigDecimal btc = prices.usdtPrice("BTC").filter(x -> x.signum() > 0)
                .map(x -> usdt.divide(x, MathContext.DECIMAL64).setScale(8, java.math.RoundingMode.DOWN).stripTrailingZeros()).orElse(BigDecimal.ZERO);
        return new Figures(coin, b.available(), b.frozen(), PositionMath.round(crossed), PositionMath.round(isolated), equity, usdt, btc);
    }

    /** USDT-FUTURES: USDT; USDC-FUTURES: USDC; COIN-FUTURES: the margin coin of every contract, once each, in order. */
    private List<String> marginCoins(Category category) {
        return market.instruments(category).stream().map(Instrument::marginCoin).filter(java.util.Objects::nonNull).distinct().sorted().toList();
    }

    private static String upper(String v) { return io.tas.common.Ascii.upper(v); }

    private static Category productType(Params p) {
        String v = p.get("productType");
        Category c;
        try {
            c = Category.fromWire(io.tas.common.Ascii.upper(v));
        } catch (RuntimeException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "productType");
        }
        if (!c.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, "productType");
        return c;
    }
}
