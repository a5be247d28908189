package io.tas.stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.account.AccountEnums.Category;

import java.util.Map;
import java.util.Optional;

/**
 * One subscription as the server understands it (websocket-wire.md "Subscribe"): a v3 `topic` or a v2 `channel`, its
 * instType and what it narrows to. The table of names is data; an arg that fits none is 30001 (D186, D187).
 *
 * @param v2       a classic `channel` arg (else a unified `topic` arg)
 * @param kind     what it streams
 * @param category the book or orders it concerns: null for the unified private topics (every category) and for v2 spot account
 * @param target   the symbol (upper case) or coin it narrows to; null for "default" (everything of the instType)
 * @param depth    the levels of a whole-book channel (books1/5/15/50), 0 otherwise
 * @param series   a candle channel's interval as sent (v3 `interval`, v2 the channel's suffix); null otherwise
 */
record StreamChannel(boolean v2, Kind kind, String instType, Category category, String target, int depth, String series, String name) {

    enum Kind {
        ACCOUNT(true), POSITION(true), ORDER(true), FILL(true), STRATEGY(true), TICKER(false), BOOK(false), INCREMENTAL_BOOK(false), TRADE(false), CANDLE(false);

        final boolean isPrivate;

        Kind(boolean isPrivate) { this.isPrivate = isPrivate; }

        /** Event channels (orders, fills, strategy orders): nothing to send on subscribe, pushes flow from the ack. */
        boolean hasSnapshot() { return this != ORDER && this != FILL && this != STRATEGY; }

        /** Public channels whose pushes follow the engine's book and trades (not the ticker alone). */
        boolean followsBook() { return this == BOOK || this == INCREMENTAL_BOOK || this == TRADE || this == CANDLE; }
    }

    /** The v3 topics (websocket-wire.md; uta/websocket public and private docs as ccxt.pro subscribes them). */
    private static final Map<String, Kind> V3 = Map.of("account", Kind.ACCOUNT, "position", Kind.POSITION, "order", Kind.ORDER,
            "fill", Kind.FILL, "strategy-order", Kind.STRATEGY, "ticker", Kind.TICKER, "books", Kind.INCREMENTAL_BOOK, "publicTrade", Kind.TRADE,
            "kline", Kind.CANDLE);
    /** The v2 channels (websocket-wire.md "v2 classic private channels"; spot and contract public channels). */
    private static final Map<String, Kind> V2 = Map.of("account", Kind.ACCOUNT, "positions", Kind.POSITION, "orders", Kind.ORDER,
            "orders-algo", Kind.STRATEGY, "fill", Kind.FILL, "ticker", Kind.TICKER, "books", Kind.INCREMENTAL_BOOK, "trade", Kind.TRADE);
    private static final Map<String, Integer> V3_DEPTHS = Map.of("books1", 1, "books5", 5, "books15", 15, "books50", 50);
    /** The v2 spot and contract depth channels stop at books15. */
    private static final Map<String, Integer> V2_DEPTHS = Map.of("books1", 1, "books5", 5, "books15", 15);

    /** The key two equal subscriptions share (the arg is echoed as sent, but `SPOT` and `spot` are one channel). */
    String key() {
        return (v2 ? "2|" : "3|") + instType + "|" + name + "|" + (target == null ? "" : target) + "|" + (series == null ? "" : series);
    }

    /** Whether an order of this category belongs to this channel (the unified topics take every category). */
    boolean covers(Category c, String symbol) {
        if (category != null && category != (c == Category.MARGIN ? Category.SPOT : c)) return false;
        return target == null || kind == Kind.ACCOUNT || target.equals(symbol);
    }

    /** Whether this public channel shows the book of category and symbol. */
    boolean shows(Category book, String symbol) {
        // Asked for every subscriber of a move: the enum compared, no wire name built (D232).
        return !kind.isPrivate && category == book && symbol.equals(target);
    }

    /** The channel an arg names, or why not: a 30001 reason. Validity of intervals is the caller's (it knows the candles). */
    static Optional<StreamChannel> parse(JsonNode a) {
        String topic = text(a, "topic"), channel = text(a, "channel"), instType = text(a, "instType");
        if (instType == null || (topic == null) == (channel == null)) return Optional.empty();
        boolean v2 = channel != null;
        String name = v2 ? channel : topic;
        Kind kind = (v2 ? V2 : V3).get(name);
        int depth = (v2 ? V2_DEPTHS : V3_DEPTHS).getOrDefault(name, 0);
        String series = null;
        if (depth > 0) kind = Kind.BOOK;
        if (v2 && kind == null && name.startsWith("candle") && name.length() > 6) {
            kind = Kind.CANDLE;
            series = name.substring(6);
        }
        if (kind == null) return Optional.empty();
        if (!v2 && kind == Kind.CANDLE) series = text(a, "interval");
        if (!v2 && kind.isPrivate) {
            // websocket-wire.md: instType must be exactly UTA.
            return "UTA".equals(instType) ? Optional.of(new StreamChannel(false, kind, "UTA", null, null, 0, null, name)) : Optional.empty();
        }
        Category category = category(instType);
        if (category == null || category == Category.MARGIN) return Optional.empty();
        String scope = upper(text(a, v2 ? (kind == Kind.ACCOUNT ? "coin" : "instId") : "symbol"));
        if (kind.isPrivate) {
            if (kind == Kind.POSITION && !category.isFutures()) return Optional.empty();
            String target = scope == null || scope.equals("DEFAULT") ? null : scope;
            return Optional.of(new StreamChannel(true, kind, category.wire(), category, target, 0, null, name));
        }
        if (scope == null || scope.equals("DEFAULT") || (kind == Kind.CANDLE && series == null)) return Optional.empty();
        return Optional.of(new StreamChannel(v2, kind, category.wire(), category, scope, depth, series, name));
    }

    /** SPOT, USDT-FUTURES, … in either case (v3 public args are lower case, v2's upper case); null when none. */
    private static Category category(String instType) {
        try {
            return Category.fromWire(io.tas.common.Ascii.upper(instType));
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    static String lower(String s) { return io.tas.common.Ascii.lower(s); }

    private static String upper(String s) { return io.tas.common.Ascii.upper(s); }

    /** A string or number field as text (ccxt sends the timestamp as a string, bitget-api as a number). */
    static String text(JsonNode n, String name) {
        JsonNode v = n.get(name);
        return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
    }
}
