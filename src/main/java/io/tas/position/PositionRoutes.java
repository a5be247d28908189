package io.tas.position;

import io.tas.account.AccountEnums.AssetMode;
import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountService;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.market.MarketService;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;

/** §4.4 position rows: v3 history (§2.14), v2 current (§2.15) and v2 history (§2.16). Every field is a string. */
public final class PositionRoutes implements Routes.Feature {
    private final PositionService positions;
    private final PositionHistory history;
    private final AccountService accounts;
    private final MarketService market;

    public PositionRoutes(PositionService positions, PositionHistory history, AccountService accounts, MarketService market) {
        this.positions = positions;
        this.history = history;
        this.accounts = accounts;
        this.market = market;
    }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.HISTORY_POSITION_V3, this::historyV3);
        routes.bind(Endpoint.SINGLE_POSITION, this::single);
        routes.bind(Endpoint.ALL_POSITION, this::all);
        routes.bind(Endpoint.HISTORY_POSITION_V2, this::historyV2);
        routes.bind(Endpoint.UTA_CURRENT_POSITION, this::currentV3);
    }

    /** §2.14 */
    public record V3Item(String positionId, String category, String symbol, String marginCoin, String posSide, String marginMode,
                         String holdMode, String openPriceAvg, String closePriceAvg, String openTotalPos, String closeTotalPos,
                         String cumRealisedPnl, String netProfit, String totalFunding, String openFeeTotal, String closeFeeTotal,
                         String cashDividend, String createdTime, String updatedTime) {}

    public record V3Page(List<V3Item> list, String cursor) {}

    /** §2.15 */
    public record Current(String symbol, String marginCoin, String holdSide, String openDelegateSize, String marginSize,
                          String available, String locked, String total, String leverage, String achievedProfits,
                          String openPriceAvg, String marginMode, String posMode, String unrealizedPL, String liquidationPrice,
                          String keepMarginRate, String markPrice, String marginRatio, String breakEvenPrice, String totalFee,
                          String deductedFee, String cashDividend, String grant, String assetMode, String autoMargin,
                          String takeProfit, String stopLoss, String takeProfitId, String stopLossId, String cTime, String uTime) {}

    /** §2.16 */
    public record V2Item(String positionId, String symbol, String marginCoin, String holdSide, String posMode, String openAvgPrice,
                         String closeAvgPrice, String marginMode, String openTotalPos, String closeTotalPos, String pnl,
                         String netProfit, String totalFunding, String openFee, String closeFee, String cashDividend,
                         String ctime, String utime) {}

    public record V2Page(List<V2Item> list, String endId) {}

    /** cursor: the last positionId of the page while older records exist in the window; "" once the page is the last. */
    private V3Page historyV3(ApiRequest r) {
        Params p = r.params().require("category");
        Category category = futures(p, "category");
        PositionHistory.Page page = history.v3(r.uid(), category, upper(p.get("symbol")), p.millis("startTime"), p.millis("endTime"),
                p.intInRange("limit", 100, 1, 100), p.id("cursor"), r.now());
        List<V3Item> list = page.list().stream().map(x -> new V3Item(Long.toString(x.id()), x.category().wire(), x.symbol(),
                x.marginCoin(), x.holdSide().wire(), x.marginMode().name(), x.posMode().name(), avg(x.openPriceAvg()),
                avg(x.closePriceAvg()), Json.plain(x.openTotal()), Json.plain(x.closeTotal()), Json.plain(x.achievedProfits()),
                Json.plain(x.netProfit()), Json.plain(x.totalFunding()), Json.plain(x.openFeeTotal()), Json.plain(x.closeFeeTotal()),
                "0", Long.toString(x.createdTime()), Long.toString(x.updatedTime()))).toList();
        return new V3Page(list, page.more() ? list.getLast().positionId() : "");
    }

    /** endId: the last item's positionId (§2.16); "" when the page is empty. */
    private V2Page historyV2(ApiRequest r) {
        Params p = r.params();
        Category productType = p.get("productType") == null ? Category.USDT_FUTURES : futures(p, "productType");
        PositionHistory.Page page = history.v2(r.uid(), productType, upper(p.get("symbol")), p.millis("startTime"), p.millis("endTime"),
                p.intInRange("limit", 20, 1, 100), p.id("idLessThan"), r.now());
        List<V2Item> list = page.list().stream().map(x -> new V2Item(Long.toString(x.id()), x.symbol(), x.marginCoin(),
                x.holdSide().wire(), x.posMode().name(), avg(x.openPriceAvg()), avg(x.closePriceAvg()), x.marginMode().name(),
                Json.plain(x.openTotal()), Json.plain(x.closeTotal()), Json.plain(x.achievedProfits()), Json.plain(x.netProfit()),
                Json.plain(x.totalFunding()), Json.plain(x.openFeeTotal()), Json.plain(x.closeFeeTotal()), "0",
                Long.toString(x.createdTime()), Long.toString(x.updatedTime()))).toList();
        return new V2Page(list, list.isEmpty() ? "" : list.getLast().positionId());
    }

    /** Both sides of one contract (hedge mode) or the one open side; a known symbol under another productType is served (wire facts §4). */
    private List<Current> single(ApiRequest r) {
        Params p = r.params().require("productType", "symbol", "marginCoin");
        futures(p, "productType");
        String symbol = upper(p.get("symbol"));
        String marginCoin = coin(p, "marginCoin");
        boolean known = false;
        for (Category c : Category.values()) {
            if (!c.isFutures()) continue;
            try {
                market.instrument(c, symbol);
                known = true;
            } catch (ApiException e) {
                // not in this product type
            }
        }
        if (!known) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, symbol);
        return current(r.uid(), positions.open(r.uid()).stream()
                .filter(x -> x.symbol().equals(symbol) && x.marginCoin().equals(marginCoin)).toList());
    }

    /** Newest cTime first (ties: newest id). */
    private List<Current> all(ApiRequest r) {
        Params p = r.params().require("productType");
        Category productType = futures(p, "productType");
        String marginCoin = p.get("marginCoin") == null ? null : coin(p, "marginCoin");
        return current(r.uid(), positions.open(r.uid()).stream()
                .filter(x -> x.category() == productType && (marginCoin == null || x.marginCoin().equals(marginCoin)))
                .sorted(Comparator.comparingLong(Position::createdTime).thenComparingLong(Position::id).reversed()).toList());
    }

    private List<Current> current(long uid, List<Position> open) {
        if (open.isEmpty()) return List.of();
        String assetMode = accounts.settings(uid).assetMode() == AssetMode.multi_assets ? "union" : "single";
        return open.stream().map(positions::value).map(v -> {
            Position x = v.position();
            return new Current(x.symbol(), x.marginCoin(), x.holdSide().wire(), "0", Json.plain(PositionMath.round(x.marginSize())),
                    Json.plain(x.available()), Json.plain(x.locked()), Json.plain(x.size()), Json.plain(x.leverage()),
                    Json.plain(x.achievedProfits()), avg(x.openPriceAvg()), x.marginMode().name(), x.posMode().name(),
                    Json.plain(PositionMath.round(v.unrealizedPL())), Json.plain(PositionMath.round(v.liquidationPrice())),
                    Json.plain(v.keepMarginRate()), Json.plain(v.markPrice()), Json.plain(PositionMath.round(v.marginRatio())),
                    Json.plain(PositionMath.round(v.breakEvenPrice())),
                    x.totalFunding().signum() == 0 ? "" : Json.plain(x.totalFunding()), Json.plain(x.deductedFee()), "0", "0",
                    assetMode, x.autoMargin(), "", "", "", "", Long.toString(x.createdTime()), Long.toString(x.updatedTime()));
        }).toList();
    }

    /** Beyond-spec shapes §8: GET /api/v3/position/current-position, data {"list": [...]}, every field a string. */
    public record V3Current(String category, String symbol, String marginCoin, String holdMode, String posSide, String marginMode,
                            String positionBalance, String available, String frozen, String total, String leverage,
                            String curRealisedPnl, String avgPrice, String positionStatus, String unrealisedPnl,
                            String liquidationPrice, String mmr, String profitRate, String markPrice, String breakEvenPrice,
                            String totalFunding, String openFeeTotal, String closeFeeTotal, String cashDividend,
                            String createdTime, String updatedTime) {}

    public record V3CurrentList(List<V3Current> list) {}

    /** category required (a futures one), symbol and posSide optional filters; newest createdTime first (ties: newest id). */
    private V3CurrentList currentV3(ApiRequest r) {
        Params p = r.params().require("category");
        Category category = futures(p, "category");
        String symbol = upper(p.get("symbol"));
        String posSide = p.get("posSide");
        if (posSide != null && !posSide.equals("long") && !posSide.equals("short")) throw new ApiException(ErrorCode.PARAM_ERROR, "posSide");
        List<V3Current> list = positions.open(r.uid()).stream()
                .filter(x -> x.category() == category && (symbol == null || x.symbol().equals(symbol))
                        && (posSide == null || x.holdSide().wire().equals(posSide)))
                .sorted(Comparator.comparingLong(Position::createdTime).thenComparingLong(Position::id).reversed())
                .map(positions::value).map(v -> {
                    Position x = v.position();
                    BigDecimal profitRate = x.marginSize().signum() == 0 ? BigDecimal.ZERO
                            : v.unrealizedPL().divide(x.marginSize(), PositionMath.MC);
                    return new V3Current(x.category().wire(), x.symbol(), x.marginCoin(), x.posMode().name(), x.holdSide().wire(),
                            x.marginMode().name(), Json.plain(PositionMath.round(x.marginSize())), Json.plain(x.available()),
                            Json.plain(x.locked()), Json.plain(x.size()), Json.plain(x.leverage()), Json.plain(x.achievedProfits()),
                            avg(x.openPriceAvg()), "normal", Json.plain(PositionMath.round(v.unrealizedPL())),
                            Json.plain(PositionMath.round(v.liquidationPrice())), Json.plain(v.keepMarginRate()),
                            Json.plain(PositionMath.round(profitRate)), Json.plain(v.markPrice()),
                            Json.plain(PositionMath.round(v.breakEvenPrice())), Json.plain(x.totalFunding()),
                            Json.plain(x.openFeeTotal()), Json.plain(x.closeFeeTotal()), "0",
                            Long.toString(x.createdTime()), Long.toString(x.updatedTime()));
                }).toList();
        return new V3CurrentList(list);
    }

    private static String avg(BigDecimal v) { return Json.plain(PositionMath.round(v)); }

    /** USDT-FUTURES, COIN-FUTURES or USDC-FUTURES; anything else is 40020. */
    private static Category futures(Params p, String name) {
        Category c = p.parsed(name, Category::fromWire);
        if (c == null) throw new ApiException(ErrorCode.PARAM_EMPTY, name);
        if (!c.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return c;
    }

    /** A coin; a lower-case one is normalised (decision: usdt is USDT). */
    private static String coin(Params p, String name) { return io.tas.common.Inputs.coinParam(name, p.get(name)); }

    /** An optional symbol, upper-cased (Inputs.symbolParam); absent stays null. */
    private static String upper(String s) { return s == null ? null : io.tas.common.Inputs.symbolParam("symbol", s); }
}
