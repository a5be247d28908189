package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.proof.ModelAccount.Bal;
import io.tas.proof.ModelAccount.Position;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.tas.proof.ModelFormulas.wire;

/**
 * The reference model against the service's rows (D133): every figure equal by compareTo at the scale the row shows it
 * (18 decimals for balances, sizes, fees and the realised PnL of the signed rows; 8 for averages, margins and figures at
 * the mark, D134). A difference throws, naming the account, the figure, the model's value and the service's.
 */
final class ModelCheck {
    private final RefModel m;
    private long figures;

    ModelCheck(RefModel m) { this.m = m; }

    long figures() { return figures; }

    // --- balances: GET /admin/v1/accounts/{uid}/balances (every account type) and GET /api/v3/account/assets

    void balances(String where, ModelAccount a, JsonNode rows) {
        Map<String, JsonNode> service = new LinkedHashMap<>();
        for (JsonNode b : rows) service.put(b.get("account").asText() + "/" + b.get("coin").asText(), b);
        Set<String> keys = new TreeSet<>(service.keySet());
        a.balances.forEach((k, b) -> { if (!b.isZero()) keys.add(k); });
        for (String k : keys) {
            Bal b = a.balances.getOrDefault(k, new Bal());
            JsonNode s = service.get(k);
            String at = where + ": " + a.acct.name() + " " + k + " ";
            same(at + "available", b.available, s == null ? "0" : s.get("available").asText());
            same(at + "frozen", b.frozen, s == null ? "0" : s.get("frozen").asText());
            same(at + "debt", b.debt, s == null ? "0" : s.get("debt").asText());
        }
    }

    /** GET /api/v3/account/assets of a unified account: per coin its ledger figures and equity; the account's totals. */
    private void assets(String where, ModelAccount a, ApiClient client) {
        Reply r = client.get("/api/v3/account/assets");
        if (!RefModel.ok(r)) m.fail(where + ": assets of " + a.acct.name() + " unreadable: " + r.raw());
        Map<String, BigDecimal> upl = new LinkedHashMap<>();
        BigDecimal uplUsdt = BigDecimal.ZERO, imr = BigDecimal.ZERO, mmr = BigDecimal.ZERO, equityUsdt = BigDecimal.ZERO;
        for (Position p : a.positions.values()) {
            BigDecimal u = m.positions.upl(p), price = m.prices.get(p.marginCoin());
            upl.merge(p.marginCoin(), wire(u), BigDecimal::add);
            uplUsdt = uplUsdt.add(u.multiply(price));
            imr = imr.add(p.margin.multiply(price));
            mmr = mmr.add(m.positions.maintenance(p).multiply(price));
        }
        Set<String> coins = new TreeSet<>(upl.keySet());
        a.balances.forEach((k, b) -> { if (k.startsWith("unified/") && !b.isZero()) coins.add(k.substring("unified/".length())); });
        Map<String, JsonNode> rows = new LinkedHashMap<>();
        for (JsonNode x : r.data().path("assets")) rows.put(x.get("coin").asText(), x);
        if (!rows.keySet().equals(coins)) m.fail(where + ": " + a.acct.name() + " assets lists " + rows.keySet() + ", the model " + coins);
        for (String coin : coins) {
            Bal b = a.unified(coin);
            JsonNode x = rows.get(coin);
            BigDecimal equity = b.available.add(b.frozen).subtract(b.debt).add(upl.getOrDefault(coin, BigDecimal.ZERO));
            BigDecimal usd = m.prices.containsKey(coin) ? equity.multiply(m.prices.get(coin)) : BigDecimal.ZERO;
            equityUsdt = equityUsdt.add(usd);
            String at = where + ": " + a.acct.name() + " assets " + coin + " ";
            same(at + "available", b.available, x.get("available").asText());
            same(at + "locked", b.frozen, x.get("locked").asText());
            same(at + "debt", b.debt, x.get("debt").asText());
            same(at + "equity", equity, x.get("equity").asText());
            same(at + "usdValue", wire(usd), x.get("usdValue").asText());
        }
        String at = where + ": " + a.acct.name() + " assets ";
        same(at + "accountEquity", wire(equityUsdt), r.data().get("accountEquity").asText());
        same(at + "unrealisedPnl", wire(uplUsdt), r.data().get("unrealisedPnl").asText());
        same(at + "imr", wire(imr), r.data().get("imr").asText());
        same(at + "mmr", wire(mmr), r.data().get("mmr").asText());
    }

    // --- positions: the admin rows, the admin replies of open/fill/close, and the signed v3 / v2 rows

    /** Row field -> the model's figure, for each row that shows positions. */
    private static final Map<String, String> ADMIN = Map.ofEntries(Map.entry("size", "size"), Map.entry("openPriceAvg", "entry8"),
            Map.entry("marginSize", "margin8"), Map.entry("achievedProfits", "achieved8"), Map.entry("openFeeTotal", "openFee"),
            Map.entry("closeFeeTotal", "closeFee"), Map.entry("netProfit", "net8"), Map.entry("leverage", "leverage"));
    private static final Map<String, String> AT_MARK = Map.of("markPrice", "mark", "unrealizedPL", "upl8", "keepMarginRate", "mmr",
            "marginRatio", "marginRatio8", "breakEvenPrice", "breakEven8", "liquidationPrice", "liquidation8");
    /** §2.15 GET /api/v2/mix/position/all-position. */
    private static final Map<String, String> V2 = Map.ofEntries(Map.entry("total", "size"), Map.entry("available", "size"),
            Map.entry("openPriceAvg", "entry8"), Map.entry("marginSize", "margin8"), Map.entry("achievedProfits", "achieved"),
            Map.entry("deductedFee", "deductedFee"), Map.entry("leverage", "leverage"), Map.entry("markPrice", "mark"),
            Map.entry("unrealizedPL", "upl8"), Map.entry("keepMarginRate", "mmr"), Map.entry("marginRatio", "marginRatio8"),
            Map.entry("breakEvenPrice", "breakEven8"), Map.entry("liquidationPrice", "liquidation8"));
    /** Beyond-spec shapes §8 GET /api/v3/position/current-position. */
    private static final Map<String, String> V3 = Map.ofEntries(Map.entry("total", "size"), Map.entry("available", "size"),
            Map.entry("avgPrice", "entry8"), Map.entry("positionBalance", "margin8"), Map.entry("curRealisedPnl", "achieved"),
            Map.entry("openFeeTotal", "openFee"), Map.entry("closeFeeTotal", "closeFee"), Map.entry("leverage", "leverage"),
            Map.entry("markPrice", "mark"), Map.entry("unrealisedPnl", "upl8"), Map.entry("mmr", "mmr"),
            Map.entry("breakEvenPrice", "breakEven8"), Map.entry("liquidationPrice", "liquidation8"), Map.entry("profitRate", "profitRate8"));

    /** The model's figures of an open position, stored ones and those at the mark (formulas.md, Positions). */
    private Map<String, BigDecimal> figures(ModelAccount a, Position p, boolean atMark) {
        Map<String, BigDecimal> f = new LinkedHashMap<>();
        f.put("size", p.size);
        f.put("entry8", wire(p.entry));
        f.put("margin8", wire(p.margin));
        f.put("achieved", p.achieved);
        f.put("achieved8", wire(p.achieved));
        f.put("openFee", p.openFee);
        f.put("closeFee", p.closeFee);
        f.put("deductedFee", p.deductedFee());
        f.put("net8", wire(p.achieved.add(p.openFee).add(p.closeFee)));
        f.put("leverage", p.leverage);
        if (!atMark) return f;
        BigDecimal upl = m.positions.upl(p), mmr = m.positions.mmr(p), backing = m.positions.backing(a, p);
        f.put("mark", m.positions.mark(p));
        f.put("upl8", wire(upl));
        f.put("mmr", mmr);
        f.put("marginRatio8", ModelFormulas.marginRatio(m.positions.maintenance(p), backing.add(upl)));
        f.put("breakEven8", ModelFormulas.breakEven(p.inverse(), p.dir(), p.size, p.entry, p.deductedFee()));
        f.put("liquidation8", ModelFormulas.liquidation(p.inverse(), p.dir(), p.size, p.entry, backing, mmr));
        f.put("profitRate8", p.margin.signum() == 0 ? BigDecimal.ZERO : upl.divide(p.margin, 8, java.math.RoundingMode.HALF_EVEN));
        return f;
    }

    /** GET /admin/v1/accounts/{uid}/positions: the same open positions, every stored figure and every figure at the mark. */
    void positions(String where, ModelAccount a, JsonNode rows) {
        Map<String, JsonNode> service = new LinkedHashMap<>();
        for (JsonNode x : rows) service.put(x.get("id").asText(), x);
        if (!service.keySet().equals(a.positions.keySet())) {
            m.fail(where + ": " + a.acct.name() + " open positions " + service.keySet() + ", the model's " + a.positions.keySet() + " " + a.positions.values());
        }
        for (Position p : a.positions.values()) {
            JsonNode x = service.get(p.id);
            String at = where + ": " + a.acct.name() + " position " + p.id + " " + p.contract.symbol() + " " + p.side + " ";
            text(at + "holdSide", p.side, x.get("holdSide").asText());
            text(at + "marginMode", p.marginMode, x.get("marginMode").asText());
            compare(at, figures(a, p, true), ADMIN, x);
            compare(at, figures(a, p, true), AT_MARK, x);
        }
    }

    /** The admin reply of a position open, fill or close: the position after it, status included. */
    void view(Position p, JsonNode x, String status) {
        String at = m.where + ": position " + p.id + " " + p.contract.symbol() + " " + p.side + " as answered ";
        text(at + "status", status, x.get("status").asText());
        compare(at, figures(null, p, false), ADMIN, x);
    }

    /** The signed rows of an account: assets and v3 current-position (unified), v2 all-position (classic). */
    void signed(String where, ModelAccount a, ApiClient client) {
        if (a.unified) assets(where, a, client);
        for (String category : new TreeSet<>(a.positions.values().stream().map(p -> p.contract.category()).toList())) {
            Reply r = client.get(a.unified ? "/api/v3/position/current-position?category=" + category
                    : "/api/v2/mix/position/all-position?productType=" + category);
            if (!RefModel.ok(r)) m.fail(where + ": positions of " + a.acct.name() + " unreadable: " + r.raw());
            JsonNode list = a.unified ? r.data().path("list") : r.data();
            long expected = a.positions.values().stream().filter(p -> p.contract.category().equals(category)).count();
            if (list.size() != expected) m.fail(where + ": " + a.acct.name() + " " + category + " lists " + list.size() + " positions, the model " + expected + ": " + r.raw());
            for (JsonNode x : list) {
                String side = x.path(a.unified ? "posSide" : "holdSide").asText();
                Position p = a.open(x.get("symbol").asText(), side);
                if (p == null) m.fail(where + ": " + a.acct.name() + " has no " + side + " " + x.get("symbol").asText() + " in the model: " + x);
                String at = where + ": " + a.acct.name() + (a.unified ? " v3 " : " v2 ") + p.contract.symbol() + " " + side + " ";
                text(at + "marginMode", p.marginMode, x.get("marginMode").asText());
                compare(at, figures(a, p, true), a.unified ? V3 : V2, x);
            }
        }
    }

    /**
     * The positions the model closed, on the history row of the account's family (v3 history-position for a unified
     * account, v2 for a classic one, §2.14 / §2.16), page by page: every figure, the realised PnL and fees exactly.
     */
    void closed(String where, ModelAccount a, ApiClient client) {
        for (String category : new TreeSet<>(a.closed.values().stream().map(p -> p.contract.category()).toList())) {
            Map<String, JsonNode> service = new LinkedHashMap<>();
            String page = "";
            for (int n = 0; n < 100; n++) {
                Reply r = client.get(a.unified ? "/api/v3/position/history-position?category=" + category + "&limit=100" + (page.isEmpty() ? "" : "&cursor=" + page)
                        : "/api/v2/mix/position/history-position?productType=" + category + "&limit=100" + (page.isEmpty() ? "" : "&idLessThan=" + page));
                if (!RefModel.ok(r)) m.fail(where + ": history positions of " + a.acct.name() + " unreadable: " + r.raw());
                JsonNode list = r.data().path("list");
                for (JsonNode x : list) service.put(x.get("positionId").asText(), x);
                page = a.unified ? r.data().path("cursor").asText() : list.size() < 100 ? "" : r.data().path("endId").asText();
                if (page.isEmpty()) break;
            }
            for (Position p : a.closed.values()) {
                if (!p.contract.category().equals(category)) continue;
                JsonNode x = service.get(p.id);
                String at = where + ": " + a.acct.name() + " history position " + p.id + " " + p.contract.symbol() + " " + p.side + " ";
                if (x == null) m.fail(at + "is not listed as closed");
                text(at + "marginMode", p.marginMode, x.get("marginMode").asText());
                text(at + "side", p.side, x.path(a.unified ? "posSide" : "holdSide").asText());
                same(at + "openPriceAvg", wire(p.entry), x.get(a.unified ? "openPriceAvg" : "openAvgPrice").asText());
                same(at + "closePriceAvg", p.closeValue.divide(p.closeTotal, 8, java.math.RoundingMode.HALF_EVEN), x.get(a.unified ? "closePriceAvg" : "closeAvgPrice").asText());
                same(at + "openTotalPos", p.openTotal, x.get("openTotalPos").asText());
                same(at + "closeTotalPos", p.closeTotal, x.get("closeTotalPos").asText());
                same(at + "realised PnL", p.achieved, x.get(a.unified ? "cumRealisedPnl" : "pnl").asText());
                same(at + "openFee", p.openFee, x.get(a.unified ? "openFeeTotal" : "openFee").asText());
                same(at + "closeFee", p.closeFee, x.get(a.unified ? "closeFeeTotal" : "closeFee").asText());
                same(at + "netProfit", p.achieved.add(p.openFee).add(p.closeFee), x.get("netProfit").asText());
            }
        }
    }

    /** §2.3 symbolConfigList of the futures contracts: margin mode and each side's leverage as the model resolved them (D46). */
    void settings(String where, ModelAccount a, JsonNode settings) {
        Map<String, JsonNode> service = new LinkedHashMap<>();
        for (JsonNode x : settings.path("symbolConfigList")) {
            if (x.get("category").asText().toUpperCase(java.util.Locale.ROOT).endsWith("FUTURES")) service.put(x.get("symbol").asText(), x);
        }
        if (!service.keySet().equals(a.configs.keySet())) m.fail(where + ": " + a.acct.name() + " configures " + service.keySet() + ", the model " + a.configs);
        a.configs.forEach((symbol, c) -> {
            JsonNode x = service.get(symbol);
            String at = where + ": " + a.acct.name() + " settings " + symbol + " ";
            text(at + "marginMode", c.marginMode(), x.get("marginMode").asText());
            same(at + "longLeverage", c.longLeverage(), x.get("longLeverage").asText());
            same(at + "shortLeverage", c.shortLeverage(), x.get("shortLeverage").asText());
        });
    }

    private void compare(String at, Map<String, BigDecimal> model, Map<String, String> fields, JsonNode row) {
        fields.forEach((field, figure) -> same(at + field, model.get(figure), row.path(field).asText()));
    }

    private void same(String figure, BigDecimal model, String service) {
        figures++;
        BigDecimal s;
        try {
            s = new BigDecimal(service);
        } catch (NumberFormatException e) {
            s = null;
        }
        if (s == null || model.compareTo(s) != 0) {
            throw new AssertionError(figure + ": model " + model.toPlainString() + ", service " + service + " (the reference model disagrees)");
        }
    }

    private void text(String figure, String model, String service) {
        figures++;
        if (!model.equals(service)) throw new AssertionError(figure + ": model " + model + ", service " + service + " (the reference model disagrees)");
    }
}
