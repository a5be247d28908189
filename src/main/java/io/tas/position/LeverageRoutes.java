package io.tas.position;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.ApiRequest;
import io.tas.http.Endpoint;
import io.tas.http.Json;
import io.tas.http.Params;
import io.tas.http.Routes;
import io.tas.position.LeverageService.LeverageRequest;
import io.tas.position.Position.HoldSide;

import java.math.BigDecimal;

/** §4.1.1–4.1.3 leverage and isolated margin rows: HTTP mapping only; rules live in LeverageService. */
public final class LeverageRoutes implements Routes.Feature {
    private final LeverageService leverage;

    public LeverageRoutes(LeverageService leverage) { this.leverage = leverage; }

    @Override
    public void register(Routes routes) {
        routes.bind(Endpoint.PRE_SET_LEVERAGE, this::preSet);
        routes.bind(Endpoint.SET_LEVERAGE, this::set);
        routes.bind(Endpoint.SET_MARGIN, this::setMargin);
    }

    /** §2.4; a field the category does not return is an empty string. */
    public record EstimateView(String estMaxOpen, String estMaxBorrowable, String requiredMargin, String marginChange) {}

    /** §4.1.1: marginMode is required; the spec's `cross` and the real docs' `crossed` both mean crossed (DESIGN). */
    private EstimateView preSet(ApiRequest r) {
        Params p = r.params().require("category", "marginMode");
        MarginMode mode = p.parsed("marginMode", v -> "cross".equals(v) ? MarginMode.crossed : MarginMode.valueOf(v));
        var e = leverage.preSet(request(r, mode));
        return new EstimateView(Json.plain(e.estMaxOpen()), Json.plain(e.estMaxBorrowable()), Json.plain(e.requiredMargin()),
                Json.plain(e.marginChange()));
    }

    /** §4.1.2: data "success" (wire facts §4). marginMode defaults to crossed. */
    private String set(ApiRequest r) {
        r.params().require("category");
        leverage.set(request(r, r.params().enumValue("marginMode", MarginMode.class)));
        return "success";
    }

    /** §4.1.3: data "success", like the other v3 set-* rows (decisions.md D47). */
    private String setMargin(ApiRequest r) {
        Params p = r.params().require("category", "symbol", "posSide", "operation", "amount");
        Category category = futures(p);
        String op = p.get("operation");
        if (!op.equals("add") && !op.equals("remove")) throw new ApiException(ErrorCode.PARAM_ERROR, "operation");
        leverage.adjustMargin(new LeverageService.MarginAdjustment(r.uid(), category, p.get("symbol"),
                p.parsed("posSide", HoldSide::fromWire), op.equals("add"), p.decimal("amount")));
        return "success";
    }

    /** The common parameters of pre-set-leverage and set-leverage: MARGIN needs coin, the futures lines symbol. */
    private LeverageRequest request(ApiRequest r, MarginMode mode) {
        Params p = r.params();
        Category category = p.parsed("category", Category::fromWire);
        if (category == Category.MARGIN) p.require("coin");
        else if (category.isFutures()) p.require("symbol");
        else throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        LeverageRequest req = new LeverageRequest(r.uid(), category, category == Category.MARGIN ? null : p.get("symbol"),
                category == Category.MARGIN ? p.get("coin") : null, mode, p.parsed("posSide", HoldSide::fromWire),
                leverage(p, "leverage"), leverage(p, "longLeverage"), leverage(p, "shortLeverage"));
        leverage.checkBounds(req);
        return req;
    }

    /** A leverage as sent: a positive integer or decimal string; anything else is 40020. */
    private static BigDecimal leverage(Params p, String name) { return p.decimal(name); }

    private static Category futures(Params p) {
        Category c = p.parsed("category", Category::fromWire);
        if (!c.isFutures()) throw new ApiException(ErrorCode.PARAM_ERROR, "category");
        return c;
    }
}
