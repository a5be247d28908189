package io.tas.strategy;

import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountService;
import io.tas.account.SettingsChange;
import io.tas.common.TimeWindow;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.strategy.StrategyInput.TwapInput;
import io.tas.strategy.StrategyOrder.IcebergParam;
import io.tas.strategy.StrategyOrder.OcoParam;
import io.tas.strategy.StrategyOrder.TrailingStopParam;
import io.tas.strategy.StrategyOrder.TwapParam;
import io.tas.strategy.StrategyOrder.Type;
import org.jooq.DSLContext;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Strategy orders (§2.19, §4.6): ingestion of batches from operators, and the history and unfilled reads. */
public final class StrategyService {
    /** Categories a strategy order has (§2.19); the reads also accept SPOT and MARGIN (§4.6), which hold none. */
    static final Set<String> ORDER_CATEGORIES = Set.of("USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES");
    static final Set<String> QUERY_CATEGORIES = Set.of("SPOT", "MARGIN", "USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES");
    static final Set<String> STATUSES = Set.of("pending", "success", "failed", "cancelled", "submitting");
    /** Longest JSON text of one order's parameter list (the column's width). */
    static final int MAX_PARAMS_CHARS = 16000;

    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final AccountService accounts;
    private final StrategyStore store = new StrategyStore();

    public StrategyService(Database db, Clock clock, IdGenerator ids, AccountService accounts) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.accounts = accounts;
    }

    // --- ingestion

    /**
     * Stores a batch of one unified account's orders, all or nothing: the first invalid record is refused with its
     * index and field (records[i].field) and nothing is stored.
     */
    private final List<java.util.function.BiConsumer<Long, List<Long>>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Issue 27: told after the commit of every strategy order placed, ingested or ended (the strategy-order topic). */
    public void onChanged(java.util.function.BiConsumer<Long, List<Long>> listener) { listeners.add(listener); }

    private void changed(io.tas.store.Tx tx, long uid, List<Long> orderIds) {
        if (!listeners.isEmpty() && !orderIds.isEmpty()) tx.afterCommit(() -> listeners.forEach(l -> l.accept(uid, orderIds)));
    }

    /** uid's strategy orders of these ids, as they are now. */
    public List<StrategyOrder> orders(long uid, List<Long> orderIds) {
        return db.read(dsl -> store.byIds(dsl, uid, orderIds));
    }

    public List<StrategyOrder> ingest(long uid, List<StrategyInput> records) {
        Checked c = checked(uid, records);
        return db.tx(tx -> store(tx, c));
    }

    /** As ingest, in the caller's transaction (a seed). */
    public List<StrategyOrder> ingest(io.tas.store.Tx tx, long uid, List<StrategyInput> records) {
        return store(tx, checked(uid, records));
    }

    /** A batch that passed every check, and the orderIds its records gave. */
    private record Checked(List<StrategyOrder> orders, Set<Long> givenIds) {}

    private Checked checked(long uid, List<StrategyInput> records) { return checked(uid, records, false); }

    /** classicToo: the engine's TP/SL of a classic account's position (the v2 place-tpsl-order row, D173). */
    private Checked checked(long uid, List<StrategyInput> records, boolean classicToo) {
        var account = accounts.find(uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid"));
        if (account.kind() != AccountKind.UNIFIED && !classicToo) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "uid " + uid
                    + " is a classic account; strategy orders are served by the unified (v3) rows only");
        }
        if (records == null || records.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "records");
        long now = clock.millis();
        List<StrategyOrder> orders = new ArrayList<>(records.size());
        Set<Long> givenIds = new HashSet<>();
        for (int i = 0; i < records.size(); i++) {
            StrategyOrder o = validate("records[" + i + "].", uid, records.get(i), now);
            if (records.get(i) != null && records.get(i).orderId() != null && !givenIds.add(o.orderId())) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "records[" + i + "].orderId repeats an earlier record");
            }
            orders.add(o);
        }
        return new Checked(orders, givenIds);
    }

    private List<StrategyOrder> store(io.tas.store.Tx tx, Checked c) {
        org.jooq.DSLContext dsl = tx.dsl();
        List<StrategyOrder> orders = c.orders();
        Set<Long> givenIds = c.givenIds();
        {
            if (!givenIds.isEmpty()) {
                Set<Long> taken = store.existing(dsl, givenIds);
                for (int i = 0; i < orders.size(); i++) {
                    if (taken.contains(orders.get(i).orderId())) {
                        throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "records[" + i + "].orderId already exists");
                    }
                }
            }
            Database.insertUnique(() -> store.insert(dsl, orders), "records: a given orderId already exists"); // a concurrent batch's
            if (!orders.isEmpty()) changed(tx, orders.getFirst().uid(), orders.stream().map(StrategyOrder::orderId).toList());
            return orders;
        }
    }

    private StrategyOrder validate(String at, long uid, StrategyInput in, long now) {
        if (in == null) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at.substring(0, at.length() - 1) + " is null");
        String category = oneOf(at, "category", in.category(), true, ORDER_CATEGORIES);
        String typeName = oneOf(at, "type", in.type(), true, Set.of("tpsl", "trigger", "oco", "trailing_stop", "iceberg", "twap"));
        Type type = Type.fromWire(typeName);
        String symbol = text(at, "symbol", in.symbol(), true, 32);
        BigDecimal qty = amount(at, "qty", in.qty(), true);
        if (qty.signum() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "qty");
        String posSide = oneOf(at, "posSide", in.posSide(), true, Set.of("long", "short"));
        String status = oneOf(at, "status", in.status(), true, STATUSES);
        String clientOid = text(at, "clientOid", in.clientOid(), false, 64);
        Set<String> by = Set.of("market", "mark");
        Set<String> orderTypes = Set.of("limit", "market");
        String triggerType = oneOf(at, "triggerType", in.triggerType(), false, Set.of("takeProfit", "stopLoss"));
        String tpTriggerBy = oneOf(at, "tpTriggerBy", in.tpTriggerBy(), false, by);
        String slTriggerBy = oneOf(at, "slTriggerBy", in.slTriggerBy(), false, by);
        String tpOrderType = oneOf(at, "tpOrderType", in.tpOrderType(), false, orderTypes);
        String slOrderType = oneOf(at, "slOrderType", in.slOrderType(), false, orderTypes);
        String triggerBy = oneOf(at, "triggerBy", in.triggerBy(), false, by);
        String triggerOrderType = oneOf(at, "triggerOrderType", in.triggerOrderType(), false, orderTypes);
        BigDecimal takeProfit = amount(at, "takeProfit", in.takeProfit(), false);
        BigDecimal stopLoss = amount(at, "stopLoss", in.stopLoss(), false);
        BigDecimal tpLimitPrice = amount(at, "tpLimitPrice", in.tpLimitPrice(), false);
        BigDecimal slLimitPrice = amount(at, "slLimitPrice", in.slLimitPrice(), false);
        BigDecimal triggerPrice = amount(at, "triggerPrice", in.triggerPrice(), false);
        BigDecimal triggerOrderPrice = amount(at, "triggerOrderPrice", in.triggerOrderPrice(), false);
        if (type == Type.tpsl && takeProfit == null && stopLoss == null) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + "takeProfit or " + at + "stopLoss is required for type tpsl");
        }
        if (type == Type.trigger && triggerPrice == null) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + "triggerPrice is required for type trigger");
        }
        // Parameter lists: exactly the type's own, non-empty; every other one absent.
        Map<String, List<?>> lists = new java.util.LinkedHashMap<>();
        lists.put("ocoParams", in.ocoParams());
        lists.put("trailingStopParams", in.trailingStopParams());
        lists.put("icebergParams", in.icebergParams());
        lists.put("twapParams", in.twapParams());
        for (var e : lists.entrySet()) {
            boolean own = e.getKey().equals(type.paramsField());
            if (own && (e.getValue() == null || e.getValue().isEmpty())) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + e.getKey() + " is required for type " + typeName);
            }
            if (!own && e.getValue() != null) {
                throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + e.getKey() + " is not allowed for type " + typeName);
            }
        }
        List<?> params = switch (type) {
            case tpsl, trigger -> List.of();
            case oco -> items(at + "ocoParams", in.ocoParams(), this::oco);
            case trailing_stop -> items(at + "trailingStopParams", in.trailingStopParams(), this::trailingStop);
            case iceberg -> items(at + "icebergParams", in.icebergParams(), this::iceberg);
            case twap -> items(at + "twapParams", in.twapParams(), this::twap);
        };
        if (!params.isEmpty() && StrategyStore.paramsJson(params).length() > MAX_PARAMS_CHARS) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, at + type.paramsField() + " longer than " + MAX_PARAMS_CHARS + " characters");
        }
        long created = time(at, "createdTime", in.createdTime(), "createdAgoMs", in.createdAgoMs(), now, now);
        long updated = time(at, "updatedTime", in.updatedTime(), "updatedAgoMs", in.updatedAgoMs(), now, created);
        if (created > updated) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + "createdTime is after " + at + "updatedTime");
        if (in.orderId() != null && in.orderId() <= 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + "orderId");
        long orderId = in.orderId() != null ? in.orderId() : ids.next();
        return new StrategyOrder(orderId, null, uid, clientOid == null ? "" : clientOid, category, type, symbol, qty, posSide, status,
                triggerType, tpTriggerBy, slTriggerBy, takeProfit, stopLoss, tpOrderType, slOrderType, tpLimitPrice, slLimitPrice,
                triggerBy, triggerPrice, triggerOrderType, triggerOrderPrice, params, created, updated);
    }

    private interface ItemCheck<I, O> { O check(String at, I item); }

    private static <I, O> List<O> items(String at, List<I> in, ItemCheck<I, O> check) {
        if (in.size() > 100) throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, at + " has more than 100 items");
        List<O> out = new ArrayList<>(in.size());
        for (int i = 0; i < in.size(); i++) {
            if (in.get(i) == null) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + "[" + i + "] is null");
            out.add(check.check(at + "[" + i + "].", in.get(i)));
        }
        return out;
    }

    private OcoParam oco(String at, OcoParam p) {
        return new OcoParam(amount(at, "ocoLimitPrice", p.ocoLimitPrice(), false), amount(at, "ocoTriggerPrice", p.ocoTriggerPrice(), true),
                oneOf(at, "ocoOrderType", p.ocoOrderType(), true, Set.of("limit", "market")),
                amount(at, "ocoOrderPrice", p.ocoOrderPrice(), false));
    }

    private TrailingStopParam trailingStop(String at, TrailingStopParam p) {
        return new TrailingStopParam(amount(at, "activationPrice", p.activationPrice(), false),
                oneOf(at, "activationType", p.activationType(), false, Set.of("market", "mark", "index")),
                oneOf(at, "trailType", p.trailType(), true, Set.of("ratio", "spread")),
                amount(at, "trailVariance", p.trailVariance(), true),
                oneOf(at, "preOrderType", p.preOrderType(), false, Set.of("limit", "market")),
                amount(at, "preOrderPrice", p.preOrderPrice(), false));
    }

    private IcebergParam iceberg(String at, IcebergParam p) {
        return new IcebergParam(oneOf(at, "splitMode", p.splitMode(), true, Set.of("quantity", "order")),
                amount(at, "qtyPerOrder", p.qtyPerOrder(), false), amount(at, "splitOrderNumbers", p.splitOrderNumbers(), false),
                oneOf(at, "orderPreference", p.orderPreference(), false, Set.of("faster_execution", "fixed_distance", "fixed_price")),
                oneOf(at, "executionStrategy", p.executionStrategy(), false, Set.of("queue1", "counterparty1")),
                oneOf(at, "fixedDistanceType", p.fixedDistanceType(), false, Set.of("spread", "percentage")),
                amount(at, "distance", p.distance(), false), amount(at, "fixedPrice", p.fixedPrice(), false),
                amount(at, "priceLimit", p.priceLimit(), false));
    }

    private TwapParam twap(String at, TwapInput p) {
        Integer offsetType = p.limitOffsetType() == null ? null : switch (p.limitOffsetType()) {
            case "percentage", "1" -> 1;
            case "spread", "2" -> 2;
            default -> throw new ApiException(ErrorCode.PARAM_ERROR, at + "limitOffsetType");
        };
        return new TwapParam(amount(at, "duration", p.duration(), true), amount(at, "interval", p.interval(), true),
                oneOf(at, "orderType", p.orderType(), true, Set.of("market", "limit")), offsetType,
                amount(at, "limitOffsetPercentage", p.limitOffsetPercentage(), false),
                amount(at, "limitOffsetSpread", p.limitOffsetSpread(), false),
                amount(at, "twapTriggerPrice", p.twapTriggerPrice(), false),
                amount(at, "twapTerminationPrice", p.twapTerminationPrice(), false));
    }

    static String oneOf(String at, String field, String value, boolean required, Set<String> allowed) {
        if (value == null || value.isEmpty()) {
            if (required) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + field + " is required");
            return null;
        }
        if (!allowed.contains(value)) throw new ApiException(ErrorCode.PARAM_ERROR, at + field);
        return value;
    }

    static String text(String at, String field, String value, boolean required, int max) {
        if (value == null || value.isEmpty()) {
            if (required) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + field + " is required");
            return null;
        }
        if (value.length() > max) throw new ApiException(ErrorCode.PARAM_VERIFICATION_EXCEPTION, at + field + " longer than " + max + " characters");
        return value;
    }

    /** A price or quantity: not negative, and storable exactly (Ledger.checkAmount: 40808). */
    static BigDecimal amount(String at, String field, BigDecimal value, boolean required) {
        if (value == null) {
            if (required) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + field + " is required");
            return null;
        }
        Ledger.checkAmount(at + field, value);
        if (value.signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, at + field);
        return value;
    }

    private static long time(String at, String field, Long absolute, String agoField, Long ago, long now, long fallback) {
        if (absolute != null && ago != null) {
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, at + field + " and " + at + agoField + " are exclusive");
        }
        if (absolute != null) {
            if (absolute < 0 || absolute > 99_999_999_999_999L) throw new ApiException(ErrorCode.PARAM_ERROR, at + field);
            return absolute;
        }
        if (ago != null) {
            if (ago < 0 || ago > now) throw new ApiException(ErrorCode.PARAM_ERROR, at + agoField);
            return now - ago;
        }
        return fallback;
    }

    // --- reads

    /** §4.6 history query; category and type are checked wire values, type may be null. */
    public record HistoryQuery(String category, String type, Long startTime, Long endTime, int limit, Long cursor) {}

    /** A page and its cursor: the seq of the last item, null on an empty page (D65). */
    public record HistoryPage(List<StrategyOrder> list, Long cursor) {}

    public HistoryPage history(long uid, HistoryQuery q) {
        // D67: 90 days of history, at most 90 per query (TimeWindow).
        TimeWindow.Range w = TimeWindow.HISTORY_STRATEGY_ORDERS.resolve(q.startTime(), q.endTime(), clock.millis());
        return db.read(dsl -> {
            Long below = null;
            if (q.cursor() != null) {
                below = store.orderIdOfSeq(dsl, uid, q.cursor());
                if (below == null) throw new ApiException(ErrorCode.PARAM_ERROR, "cursor");
            }
            List<StrategyOrder> list = store.history(dsl, uid, q.category(), q.type(), w.from(), w.to(), below, q.limit());
            return new HistoryPage(list, list.isEmpty() ? null : list.getLast().seq());
        });
    }

    /** §4.6 unfilled: every pending or submitting order of the category (and type), newest first. */
    public List<StrategyOrder> unfilled(long uid, String category, String type) {
        return db.read(dsl -> store.open(dsl, uid, category, type));
    }

    /** The settings writer's exposure with this account's working strategy orders counted as pending orders (D44). */
    public SettingsChange.ExposureProbe withPendingOrders(SettingsChange.ExposureProbe positions) {
        return (dsl, uids) -> {
            Map<Long, SettingsChange.Exposure> out = new HashMap<>(positions.of(dsl, uids));
            store.openCounts(dsl, uids).forEach((uid, n) -> {
                var e = out.getOrDefault(uid, SettingsChange.Exposure.NONE);
                out.put(uid, new SettingsChange.Exposure(e.openContracts(), e.pendingOrders() + n));
            });
            return out;
        };
    }

    /** How many strategy orders of uid are still working (pending or submitting). */
    public int pendingCount(long uid) {
        return db.read(dsl -> store.openCounts(dsl, List.of(uid)).getOrDefault(uid, 0));
    }

    /** As pendingCount, as the caller's transaction sees it (the switch job, under the account's lock). */
    public int pendingCount(io.tas.store.Tx tx, long uid) {
        return store.openCounts(tx.dsl(), List.of(uid)).getOrDefault(uid, 0);
    }

    /**
     * A TP/SL order placed through the API (issue 25, D159): stored as an ingested one, and marked as one the engine
     * triggers, in one transaction.
     */
    public StrategyOrder placeTpsl(long uid, StrategyInput in) {
        Checked c = checked(uid, List.of(in), true);
        return db.tx(tx -> {
            StrategyOrder o = store(tx, c).getFirst();
            store.markTriggered(tx.dsl(), uid, o.orderId());
            return o;
        });
    }

    /** Pending tpsl orders of a symbol placed through the API, oldest first (the engine triggers them, D159). */
    public List<StrategyOrder> pendingTpsl(String category, String symbol) {
        return db.read(dsl -> store.pendingTpsl(dsl, category, symbol));
    }

    /**
     * One of uid's working strategy orders by orderId (wins) or clientOid (ingested records may share one: the newest),
     * locked for the caller's transaction.
     */
    public java.util.Optional<StrategyOrder> findOpen(io.tas.store.Tx tx, long uid, Long orderId, String clientOid) {
        return store.findOpen(tx.dsl(), uid, orderId, clientOid);
    }

    /** Ends a working order (success: triggered; cancelled); false when it was no longer working. */
    public boolean finish(io.tas.store.Tx tx, long uid, long orderId, String status) {
        boolean ended = store.finish(tx.dsl(), uid, orderId, status, clock.millis());
        if (ended) changed(tx, uid, List.of(orderId));
        return ended;
    }
}
