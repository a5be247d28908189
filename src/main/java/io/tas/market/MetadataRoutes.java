package io.tas.market;

import io.tas.account.AccountEnums.Category;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Public market metadata beyond the spec: the rows ccxt's loadMarkets reads (beyond-spec shapes §2-6), served from the
 * instrument registry in the platform's shapes. What the registry does not model gets fixed sandbox defaults:
 * <ul>
 *   <li>price decimals: the most decimals among the instrument's ticker last/bid/ask prices (at least 1), else 2;</li>
 *   <li>quantity decimals 4 (quantity step 0.0001), quote decimals = price decimals;</li>
 *   <li>fees: the instrument's own rates (D222), by default spot and margin 0.1% maker and taker, futures 0.02% maker
 *   and 0.06% taker;</li>
 *   <li>quantity limits 0.0001 to 10000000000 base; minimum notional 1 USDT (spot) and 5 USDT (futures);</li>
 *   <li>one deposit/withdraw network per coin, named after the coin, open both ways, no fee, 8 withdrawal decimals;</li>
 *   <li>margin pairs: borrowable both ways, cross 3x and isolated 10x (or the instrument's maxLeverage when set).</li>
 * </ul>
 * Every contract is a perpetual. Flags follow the platform: coin flags are the strings "true"/"false", margin borrow
 * flags JSON booleans (ccxt depends on both).
 */
public final class MetadataRoutes implements Routes.Feature {
    static final int QUANTITY_PRECISION = Instrument.QUANTITY_DECIMALS;
    static final int DEFAULT_PRICE_PRECISION = Instrument.DEFAULT_PRICE_DECIMALS;
    static final String MIN_QTY = "0.0001";
    static final String MAX_QTY = "10000000000";
    /** ccxt asks for all six on every classic load; the three demo (S-prefixed) types hold no contracts here. */
    public static final List<String> DEMO_PRODUCT_TYPES = List.of("SUSDT-FUTURES", "SCOIN-FUTURES", "SUSDC-FUTURES");

    private final MarketService market;

    public MetadataRoutes(MarketService market) { this.market = market; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.SPOT_SYMBOLS, this::symbols);
        routes.bind(Endpoint.SPOT_COINS, this::coins);
        routes.bind(Endpoint.MIX_CONTRACTS, this::contracts);
        routes.bind(Endpoint.INSTRUMENTS, this::instruments);
        routes.bind(Endpoint.MARGIN_CURRENCIES, this::marginCurrencies);
    }

    // ---- GET /api/v2/spot/public/symbols (shapes §3)

    private List<Map<String, Object>> symbols(ApiRequest r) {
        return filter(market.instruments(Category.SPOT), symbol(r.params())).stream().map(i -> {
            int pp = pricePrecision(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("symbol", i.symbol());
            m.put("baseCoin", i.baseCoin());
            m.put("quoteCoin", i.quoteCoin());
            m.put("minTradeAmount", MIN_QTY);
            m.put("maxTradeAmount", MAX_QTY);
            m.put("takerFeeRate", Json.plain(i.takerFeeRate()));
            m.put("makerFeeRate", Json.plain(i.makerFeeRate()));
            m.put("pricePrecision", Integer.toString(pp));
            m.put("quantityPrecision", Integer.toString(QUANTITY_PRECISION));
            m.put("quotePrecision", Integer.toString(pp));
            m.put("status", "online");
            m.put("minTradeUSDT", "1");
            m.put("buyLimitPriceRatio", "0.05");
            m.put("sellLimitPriceRatio", "0.05");
            m.put("orderQuantity", "200");
            m.put("areaSymbol", "no");
            return m;
        }).toList();
    }

    // ---- GET /api/v2/spot/public/coins (shapes §2)

    private List<Map<String, Object>> coins(ApiRequest r) {
        String only = r.params().get("coin") == null ? null : io.tas.common.Ascii.upper(r.params().get("coin"));
        List<String> coins = coinNames();
        if (only != null && !coins.contains(only)) throw new ApiException(ErrorCode.PARAM_ERROR, "coin");
        List<Map<String, Object>> out = new ArrayList<>();
        for (int n = 0; n < coins.size(); n++) {
            String coin = coins.get(n);
            if (only != null && !only.equals(coin)) continue;
            Map<String, Object> chain = new LinkedHashMap<>();
            chain.put("chain", coin);
            chain.put("needTag", "false");
            chain.put("withdrawable", "true");
            chain.put("rechargeable", "true");
            chain.put("withdrawFee", "0");
            chain.put("extraWithdrawFee", "0");
            chain.put("depositConfirm", "1");
            chain.put("withdrawConfirm", "1");
            chain.put("minDepositAmount", "0");
            chain.put("minWithdrawAmount", "0");
            chain.put("browserUrl", "");
            chain.put("contractAddress", "");
            chain.put("withdrawStep", "0");
            chain.put("withdrawMinScale", "8");
            chain.put("congestion", "normal");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("coinId", Integer.toString(n + 1));
            m.put("coin", coin);
            m.put("transfer", "true");
            m.put("chains", List.of(chain));
            m.put("areaCoin", "no");
            out.add(m);
        }
        return out;
    }

    /** The coins of the registry (base, quote and margin coins), by name; a quote that is no coin (COIN-FUTURES' USD) is left out. */
    List<String> coinNames() {
        TreeSet<String> coins = new TreeSet<>();
        for (Instrument i : market.instruments()) {
            if (i.category().isFutures()) {
                if (i.marginCoin() != null) coins.add(i.marginCoin());
                if (!i.isInverse()) { coins.add(i.baseCoin()); coins.add(i.quoteCoin()); }
                else coins.add(i.baseCoin());
            } else {
                coins.add(i.baseCoin());
                coins.add(i.quoteCoin());
            }
        }
        coins.removeIf(c -> !io.tas.common.Inputs.isCoin(c));
        return List.copyOf(coins);
    }

    // ---- GET /api/v2/mix/market/contracts (shapes §4)

    private List<Map<String, Object>> contracts(ApiRequest r) {
        Params p = r.params().require("productType");
        String type = io.tas.common.Ascii.upper(p.get("productType"));
        if (DEMO_PRODUCT_TYPES.contains(type)) return List.of();
        Category c = futures(type, "productType");
        return filter(market.instruments(c), symbol(p)).stream().map(i -> {
            int pp = pricePrecision(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("symbol", i.symbol());
            m.put("baseCoin", i.baseCoin());
            m.put("quoteCoin", i.quoteCoin());
            m.put("buyLimitPriceRatio", "0.05");
            m.put("sellLimitPriceRatio", "0.05");
            m.put("feeRateUpRatio", "0.005");
            m.put("makerFeeRate", Json.plain(i.makerFeeRate()));
            m.put("takerFeeRate", Json.plain(i.takerFeeRate()));
            m.put("openCostUpRatio", "0.01");
            m.put("supportMarginCoins", List.of(i.marginCoin()));
            m.put("minTradeNum", MIN_QTY);
            m.put("priceEndStep", "1");
            m.put("volumePlace", Integer.toString(QUANTITY_PRECISION));
            m.put("pricePlace", Integer.toString(pp));
            m.put("sizeMultiplier", MIN_QTY);
            m.put("symbolType", "perpetual");
            m.put("minTradeUSDT", "5");
            m.put("maxSymbolOrderNum", "200");
            m.put("maxProductOrderNum", "400");
            m.put("maxPositionNum", "150");
            m.put("symbolStatus", "normal");
            m.put("offTime", "-1");
            m.put("limitOpenTime", "-1");
            m.put("deliveryTime", "");
            m.put("deliveryStartTime", "");
            m.put("deliveryPeriod", "");
            m.put("launchTime", "");
            m.put("fundInterval", "8");
            m.put("minLever", "1");
            m.put("maxLever", Json.plain(i.maxLeverage()));
            m.put("posLimit", "0.1");
            m.put("maintainTime", "");
            m.put("maxMarketOrderQty", MAX_QTY);
            m.put("maxOrderQty", MAX_QTY);
            m.put("isRwa", "NO");
            return m;
        }).toList();
    }

    // ---- GET /api/v3/market/instruments (shapes §6)

    private List<Map<String, Object>> instruments(ApiRequest r) {
        Params p = r.params().require("category");
        Category c = p.parsed("category", s -> Category.fromWire(io.tas.common.Ascii.upper(s)));
        return filter(market.instruments(c), symbol(p)).stream().map(i -> {
            int pp = pricePrecision(i);
            boolean fut = c.isFutures();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("symbol", i.symbol());
            m.put("category", c.wire());
            m.put("baseCoin", i.baseCoin());
            m.put("quoteCoin", i.quoteCoin());
            m.put("buyLimitPriceRatio", "0.05");
            m.put("sellLimitPriceRatio", "0.05");
            m.put("feeRateUpRatio", fut ? "0.005" : "");
            m.put("makerFeeRate", Json.plain(i.makerFeeRate()));
            m.put("takerFeeRate", Json.plain(i.takerFeeRate()));
            m.put("openCostUpRatio", fut ? "0.01" : "");
            m.put("minOrderQty", MIN_QTY);
            m.put("maxOrderQty", "");
            m.put("maxMarketOrderQty", "");
            m.put("pricePrecision", Integer.toString(pp));
            m.put("quantityPrecision", Integer.toString(QUANTITY_PRECISION));
            m.put("quotePrecision", fut ? "" : Integer.toString(pp));
            m.put("priceMultiplier", fut ? BigDecimal.ONE.movePointLeft(pp).toPlainString() : "");
            m.put("quantityMultiplier", fut ? MIN_QTY : "");
            if (fut) m.put("type", "perpetual");
            m.put("symbolType", "crypto");
            m.put("minOrderAmount", fut ? "5" : "1");
            m.put("maxSymbolOrderNum", "200");
            m.put("maxProductOrderNum", "400");
            m.put("maxPositionNum", fut ? "150" : "");
            m.put("status", "online");
            m.put("offTime", "-1");
            m.put("limitOpenTime", "-1");
            m.put("deliveryTime", "");
            m.put("deliveryStartTime", "");
            m.put("deliveryPeriod", "");
            m.put("launchTime", "");
            m.put("fundInterval", fut ? "8" : "");
            m.put("minLeverage", fut ? "1" : "");
            m.put("maxLeverage", fut ? Json.plain(i.maxLeverage()) : "");
            m.put("maintainTime", "");
            m.put("areaSymbol", "no");
            m.put("isRwa", "NO");
            m.put("isReality", i.reality() ? "yes" : "no");
            if (c == Category.MARGIN) {
                m.put("isIsolatedBaseBorrowable", "YES");
                m.put("isIsolatedQuotedBorrowable", "YES");
                m.put("maxCrossedLeverage", crossLeverage(i));
                m.put("maxIsolatedLeverage", isolatedLeverage(i));
                m.put("warningRiskRatio", "0.8");
                m.put("liquidationRiskRatio", "1");
                m.put("userMinBorrow", "0");
            }
            return m;
        }).toList();
    }

    // ---- GET /api/v2/margin/currencies (shapes §5)

    private List<Map<String, Object>> marginCurrencies(ApiRequest r) {
        return market.instruments(Category.MARGIN).stream().map(i -> {
            int pp = pricePrecision(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("symbol", i.symbol());
            m.put("baseCoin", i.baseCoin());
            m.put("quoteCoin", i.quoteCoin());
            m.put("maxCrossedLeverage", crossLeverage(i));
            m.put("maxIsolatedLeverage", isolatedLeverage(i));
            m.put("warningRiskRatio", "0.8");
            m.put("liquidationRiskRatio", "1");
            m.put("minTradeAmount", MIN_QTY);
            m.put("maxTradeAmount", MAX_QTY);
            m.put("takerFeeRate", Json.plain(i.takerFeeRate()));
            m.put("makerFeeRate", Json.plain(i.makerFeeRate()));
            m.put("pricePrecision", Integer.toString(pp));
            m.put("quantityPrecision", Integer.toString(QUANTITY_PRECISION));
            m.put("minTradeUSDT", "1");
            m.put("isBorrowable", true);
            m.put("userMinBorrow", "0");
            m.put("status", "1");
            m.put("isIsolatedBaseBorrowable", true);
            m.put("isIsolatedQuoteBorrowable", true);
            m.put("isCrossBorrowable", true);
            return m;
        }).toList();
    }

    // ---- shared

    /** The optional symbol filter, upper-cased; an unknown one gives 25100 like the tickers row. */
    private static String symbol(Params p) {
        String s = p.get("symbol");
        return s == null || s.isBlank() ? null : io.tas.common.Ascii.upper(s);
    }

    private static List<Instrument> filter(List<Instrument> all, String symbol) {
        if (symbol == null) return all;
        List<Instrument> one = all.stream().filter(i -> i.symbol().equals(symbol)).toList();
        if (one.isEmpty()) throw new ApiException(ErrorCode.TRADING_PAIR_NOT_EXIST, symbol);
        return one;
    }

    private static Category futures(String type, String name) {
        Category c;
        try {
            c = Category.fromWire(type);
        } catch (RuntimeException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
        if (!c.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return c;
    }

    /** Price decimals: the most among the ticker's last/bid/ask (at least 1); 2 for an instrument without a ticker. */
    int pricePrecision(Instrument i) { return market.pricePrecision(i); }

    private static String crossLeverage(Instrument i) {
        return "3";
    }

    private static String isolatedLeverage(Instrument i) {
        return i.maxLeverage() == null ? "10" : Json.plain(i.maxLeverage());
    }
}
