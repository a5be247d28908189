package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tas.http.Endpoint;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The reference model of the classic (v2) order rows (issue 26): each v2 request is the v3 row's rule for the other
 * family (D171 to D173), so it is translated into that row's body and judged by ModelOrders and ModelPositions with
 * `classic` set: refused to a unified account, a spot order settled on the account's spot balances. The batch rows are
 * sent with one line (SimClassicOps), so the line's outcome is the batch's. Futures market orders are ModelOrders'; the
 * futures limit orders, which rest far from the mark, are ModelRestingFutures', as the v3 rows' are.
 */
final class ModelClassic {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final RefModel m;
    private final ModelOrders orders;
    private final ModelPositions positions;
    ModelClassic(RefModel m, ModelOrders orders, ModelPositions positions) {
        this.m = m;
        this.orders = orders;
        this.positions = positions;
    }

    /** Whether the row is one of the classic order rows this model judges. */
    static boolean handles(Endpoint e) { return e.name().startsWith("SPOT_") || e.name().startsWith("MIX_"); }

    void api(ModelAccount a, Endpoint e, JsonNode b, Reply r) {
        switch (e) {
            case SPOT_PLACE_ORDER -> orders.placeSpot(a, spot(b, null), r, true);
            case SPOT_BATCH_ORDERS -> orders.placeSpot(a, spot(line(b), text(b, "symbol")), lineReply(r), true);
            case SPOT_CANCEL_ORDER -> orders.cancel(a, b, r, true);
            case SPOT_BATCH_CANCEL_ORDER -> orders.cancel(a, withSymbol(line(b), text(b, "symbol")), lineReply(r), true);
            case SPOT_CANCEL_SYMBOL_ORDER -> orders.cancelSymbol(a, obj().put("category", "SPOT").put("symbol", text(b, "symbol")), r, true);
            case SPOT_CANCEL_REPLACE_ORDER -> cancelReplace(a, b, r);
            case MIX_PLACE_ORDER -> placeFutures(a, b, r);
            case MIX_BATCH_PLACE_ORDER -> placeFutures(a, merged(b), lineReply(r));
            case MIX_CANCEL_ORDER -> cancelFutures(a, b, r);
            case MIX_BATCH_CANCEL_ORDERS -> cancelFuturesBatch(a, b, r);
            case MIX_CANCEL_ALL_ORDERS -> cancelAllFutures(a, b, r);
            case MIX_MODIFY_ORDER -> modifyFutures(a, b, r);
            case MIX_CLOSE_POSITIONS -> orders.closePositions(a, obj().put("category", upper(b, "productType")).put("symbol", text(b, "symbol"))
                    .put("posSide", text(b, "holdSide")), r, true);
            case MIX_PLACE_TPSL_ORDER -> orders.placeTpsl(a, tpsl(b), r, true);
            case MIX_SET_LEVERAGE -> positions.setLeverage(a, leverage(a, b), r, true);
            case MIX_SET_MARGIN_MODE -> positions.setLeverage(a, marginMode(a, b), r, true);
            case MIX_SET_POSITION_MODE -> {
                boolean family = !a.unified;
                if (m.settle("set-position-mode " + b, family ? RefModel.Verdict.accept("") : RefModel.Verdict.refuse("the other family's row"), r)) {
                    a.hedge = "hedge_mode".equals(text(b, "posMode"));
                }
            }
            default -> { } // reads
        }
    }

    /** cancel-replace-order: the old order cancelled, then (success "success") a new limit order of its side and force. */
    private void cancelReplace(ModelAccount a, JsonNode b, Reply r) {
        ModelOrders.Order old = orders.lookup(a, b);
        boolean canCancel = !a.unified && old != null && old.working && old.type.equals("limit");
        if (!m.settle("cancel-replace-order " + b, canCancel ? RefModel.Verdict.accept("") : RefModel.Verdict.refuse("no working limit order (43001)"), r)) return;
        orders.cancel(a, obj().put("orderId", old.id), okReply(obj().put("orderId", old.id)), true);
        if (!"success".equals(r.data().path("success").asText())) return;
        ObjectNode next = obj().put("category", "SPOT").put("symbol", SimWorld.ENGINE_SPOT).put("side", old.side).put("orderType", "limit")
                .put("timeInForce", old.tif).put("qty", text(b, "size")).put("price", text(b, "price"));
        if (text(b, "newClientOid") != null) next.put("clientOid", text(b, "newClientOid"));
        orders.placeSpot(a, next, okReply(obj().put("orderId", r.data().path("orderId").asText()).put("clientOid", r.data().path("clientOid").asText())), true);
    }

    // --- futures orders: market ones are ModelOrders'; limit ones rest far from the mark

    private void placeFutures(ModelAccount a, JsonNode b, Reply r) {
        if (!"limit".equalsIgnoreCase(text(b, "orderType"))) {
            orders.placeFutures(a, futures(a, b), r, true);
            return;
        }
        m.resting.place(a, true, "mix place-order " + b, new ModelRestingFutures.Place(upper(b, "productType"), text(b, "symbol"),
                text(b, "side"), "open".equalsIgnoreCase(text(b, "tradeSide")), "YES".equalsIgnoreCase(text(b, "reduceOnly")),
                text(b, "clientOid"), dec(b, "price"), dec(b, "size")), r);
    }

    private ModelRestingFutures.Order find(ModelAccount a, JsonNode b) {
        return m.resting.find(a, true, text(b, "orderId"), text(b, "clientOid"));
    }

    private void cancelFutures(ModelAccount a, JsonNode b, Reply r) {
        ModelRestingFutures.Order o = find(a, b);
        m.resting.cancel(a, true, "mix cancel-order " + b, o,
                o != null && o.symbol.equals(text(b, "symbol")) && o.category.equals(upper(b, "productType")), r);
    }

    /** batch-cancel-orders: the listed order, or (no list) every working order of the symbol. */
    private void cancelFuturesBatch(ModelAccount a, JsonNode b, Reply r) {
        JsonNode list = b.get("orderIdList");
        if (list != null && list.isArray() && list.size() == 1) {
            cancelFutures(a, withSymbol(withProduct(list.get(0), text(b, "productType")), text(b, "symbol")), lineReply(r));
            return;
        }
        cancelMany(a, "mix batch-cancel-orders " + b, r, o -> o.symbol.equals(text(b, "symbol")) && o.category.equals(upper(b, "productType")));
    }

    private void cancelAllFutures(ModelAccount a, JsonNode b, Reply r) {
        cancelMany(a, "mix cancel-all-orders " + b, r, o -> o.category.equals(upper(b, "productType")));
    }

    private void cancelMany(ModelAccount a, String what, Reply r, java.util.function.Predicate<ModelRestingFutures.Order> which) {
        m.resting.cancelAll(a, true, what, m.resting.of(a.acct, true).stream().filter(which).toList(), r.data().path("successList").size(), r);
    }

    /** modify-order: a new price and/or size (D157). */
    private void modifyFutures(ModelAccount a, JsonNode b, Reply r) {
        ModelRestingFutures.Order o = find(a, b);
        m.resting.modify(a, true, "mix modify-order " + b, o, o != null && o.category.equals(upper(b, "productType")),
                dec(b, "newPrice"), dec(b, "newSize"), r);
    }

    private static JsonNode withProduct(JsonNode line, String productType) {
        ObjectNode o = line.isObject() ? ((ObjectNode) line).deepCopy() : obj();
        if (productType != null) o.put("productType", productType);
        return o;
    }

    private static BigDecimal dec(JsonNode b, String name) {
        String v = text(b, name);
        try {
            return v == null ? null : new BigDecimal(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // --- the v2 bodies as the v3 rows' (the routes' own translation, D172, D173)

    private static ObjectNode spot(JsonNode b, String symbol) {
        ObjectNode o = obj().put("category", "SPOT").put("symbol", text(b, "symbol") != null ? upperText(b, "symbol") : symbol);
        copy(b, o, "side", "side");
        copy(b, o, "orderType", "orderType");
        copy(b, o, "force", "timeInForce");
        copy(b, o, "size", "qty");
        copy(b, o, "price", "price");
        copy(b, o, "clientOid", "clientOid");
        if (o.path("orderType").asText().equalsIgnoreCase("market")) o.remove("timeInForce");
        return o;
    }

    /** Hedge mode: side names the position and tradeSide opens or closes it; one-way: reduceOnly YES reduces. */
    private static ObjectNode futures(ModelAccount a, JsonNode b) {
        ObjectNode o = obj().put("category", upper(b, "productType"));
        copy(b, o, "symbol", "symbol");
        copy(b, o, "orderType", "orderType");
        copy(b, o, "size", "qty");
        String side = text(b, "side");
        if (a.hedge && side != null) {
            String tradeSide = text(b, "tradeSide");
            String posSide = side.equals("buy") ? "long" : side.equals("sell") ? "short" : side;
            if (tradeSide != null) o.put("posSide", posSide);
            o.put("side", "close".equalsIgnoreCase(tradeSide) ? (side.equals("buy") ? "sell" : "buy") : side);
        } else {
            if (side != null) o.put("side", side);
            copy(b, o, "reduceOnly", "reduceOnly");
        }
        return o;
    }

    /** place-tpsl-order: profit plans take profit, loss plans stop loss; pos_* plans close the whole position. */
    private static ObjectNode tpsl(JsonNode b) {
        String plan = String.valueOf(text(b, "planType"));
        ObjectNode o = obj().put("category", upper(b, "productType")).put("symbol", text(b, "symbol"));
        String hold = text(b, "holdSide");
        if (hold != null) o.put("posSide", hold.equals("buy") ? "long" : hold.equals("sell") ? "short" : hold);
        if (plan.equals("profit_plan") || plan.equals("pos_profit")) copy(b, o, "triggerPrice", "takeProfit");
        if (plan.equals("loss_plan") || plan.equals("pos_loss")) copy(b, o, "triggerPrice", "stopLoss");
        if (!plan.startsWith("pos_")) copy(b, o, "size", "qty");
        return o;
    }

    /** set-leverage: the contract's current margin mode; crossed both sides, isolated holdSide's side or both. */
    private static ObjectNode leverage(ModelAccount a, JsonNode b) {
        ObjectNode o = obj().put("category", upper(b, "productType")).put("symbol", text(b, "symbol"));
        ModelAccount.Config cfg = a.configs.get(text(b, "symbol"));
        String mode = cfg == null ? "crossed" : cfg.marginMode();
        o.put("marginMode", mode);
        String hold = text(b, "holdSide");
        if (mode.equals("crossed") || hold == null) {
            copy(b, o, "leverage", "longLeverage");
            copy(b, o, "leverage", "shortLeverage");
            copy(b, o, "leverage", "leverage");
        } else {
            copy(b, o, "leverage", hold.equals("long") ? "longLeverage" : "shortLeverage");
        }
        return o;
    }

    /** set-margin-mode: each side keeps its leverage (crossed takes the long side's). */
    private static ObjectNode marginMode(ModelAccount a, JsonNode b) {
        ObjectNode o = obj().put("category", upper(b, "productType")).put("symbol", text(b, "symbol"));
        String mode = text(b, "marginMode");
        mode = mode == null ? null : switch (mode.toLowerCase(Locale.ROOT)) {
            case "crossed", "cross" -> "crossed";
            case "isolated", "fixed" -> "isolated";
            default -> mode;
        };
        if (mode != null) o.put("marginMode", mode);
        ModelAccount.Config cfg = a.configs.get(text(b, "symbol"));
        String lng = cfg == null ? "10" : cfg.longLeverage().toPlainString(), shrt = cfg == null ? "10" : cfg.shortLeverage().toPlainString();
        if ("crossed".equals(mode)) o.put("leverage", lng);
        else o.put("longLeverage", lng).put("shortLeverage", shrt);
        return o;
    }

    // --- helpers

    private static JsonNode line(JsonNode b) {
        JsonNode list = b.path("orderList");
        return list.isArray() && list.size() == 1 ? list.get(0) : obj();
    }

    private static JsonNode merged(JsonNode b) {
        ObjectNode o = b.isObject() ? ((ObjectNode) b).deepCopy() : obj();
        o.remove("orderList");
        JsonNode l = line(b);
        if (l.isObject()) o.setAll((ObjectNode) l);
        return o;
    }

    private static JsonNode withSymbol(JsonNode line, String symbol) {
        ObjectNode o = line.isObject() ? ((ObjectNode) line).deepCopy() : obj();
        if (!o.has("symbol") && symbol != null) o.put("symbol", symbol);
        return o;
    }

    /** A one-line batch's answer as that line's own reply: its success, or its failure's code. */
    private static Reply lineReply(Reply r) {
        if (!r.code().equals("00000")) return r;
        JsonNode ok = r.data().path("successList");
        if (ok.size() == 1) return okReply((ObjectNode) ok.get(0));
        JsonNode failed = r.data().path("failureList").path(0);
        ObjectNode body = obj().put("code", failed.path("errorCode").asText("40017")).put("msg", failed.path("errorMsg").asText(""));
        body.putNull("data");
        return new Reply(200, body, body.toString());
    }

    private static Reply okReply(ObjectNode data) {
        ObjectNode body = obj().put("code", "00000").put("msg", "success");
        body.set("data", data);
        return new Reply(200, body, body.toString());
    }

    private static void copy(JsonNode from, ObjectNode to, String name, String as) {
        JsonNode v = from.get(name);
        if (v != null && !v.isNull()) to.set(as, v);
    }

    private static ObjectNode obj() { return JSON.createObjectNode(); }

    private static String text(JsonNode b, String name) {
        JsonNode n = b.get(name);
        return n == null || n.isNull() || n.asText().isEmpty() ? null : n.asText();
    }

    private static String upperText(JsonNode b, String name) { return text(b, name).toUpperCase(Locale.ROOT); }

    private static String upper(JsonNode b, String name) { return text(b, name) == null ? null : upperText(b, name); }
}
