package io.tas.stream;

import io.tas.auth.Authenticator;
import io.tas.market.Ticker;
import io.tas.position.PositionService;
import io.tas.risk.AssetsRoutes;
import io.tas.trade.TradeOrder;
import io.tas.trade.TradingService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The WebSocket streams of this node (issue 27, D186): the open connections and what each subscribed. Changes come in
 * after their commit (a ticker, an account's orders, its balances), from this node or announced by another, and are
 * pushed from one thread, so an account's pushes go out in commit order; an account nobody subscribed costs nothing.
 */
public final class StreamHub implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamHub.class);
    private final Set<StreamConnection> connections = ConcurrentHashMap.newKeySet();
    private final ExecutorService pusher = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("tas-stream-push").factory());
    private final java.util.concurrent.ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("tas-stream-idle").factory());
    final Authenticator authenticator;
    final Clock clock;
    private final TradingService trading;
    private final AssetsRoutes assets;
    private final PositionService positions;
    private final io.tas.spot.SpotRecords spot;
    /** Fills pushed lately (uid/tradeId), the newest 100,000; read and written on the pusher thread only. */
    private final Set<String> pushedFills = java.util.Collections.newSetFromMap(new java.util.LinkedHashMap<>() {
        @Override protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> eldest) { return size() > 100_000; }
    });

    // Across nodes (D186): what this node commits is announced after its commit, and it pushes what the others announce.
    private static final String KEY = "ws:";
    private final io.tas.market.MarketService market;
    private final io.tas.store.ChangeFeed changes;
    private final io.tas.store.Database db;
    private final int nodeId;
    /** Whether another node holds a live lease (checked every 5 s): only then are pushes announced. */
    private volatile boolean peers;
    private final java.util.concurrent.ConcurrentLinkedQueue<String> outbox = new java.util.concurrent.ConcurrentLinkedQueue<>();

    public StreamHub(Authenticator authenticator, Clock clock, TradingService trading, AssetsRoutes assets, PositionService positions,
                     io.tas.spot.SpotRecords spot, io.tas.market.MarketService market, io.tas.store.ChangeFeed changes,
                     io.tas.store.Database db, int nodeId) {
        this.authenticator = authenticator;
        this.clock = clock;
        this.trading = trading;
        this.assets = assets;
        this.positions = positions;
        this.spot = spot;
        this.market = market;
        this.changes = changes;
        this.db = db;
        this.nodeId = nodeId;
        sweeper.scheduleWithFixedDelay(() -> closeIdle(System.nanoTime()), 10, 10, java.util.concurrent.TimeUnit.SECONDS);
        if (changes.sharedAcrossNodes()) {
            changes.subscribe(this::fromAnotherNode);
            sweeper.scheduleWithFixedDelay(this::refreshPeers, 0, 5, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    // --- across nodes

    /** Looks for other live nodes on the database now (every 5 s; tests call it). */
    public void refreshPeers() {
        try {
            long now = System.currentTimeMillis();
            peers = db.read(dsl -> dsl.fetchCount(io.tas.store.generated.Tables.NODE_LEASE,
                    io.tas.store.generated.Tables.NODE_LEASE.NODE_ID.ne(nodeId), io.tas.store.generated.Tables.NODE_LEASE.EXPIRES_TIME.gt(now))) > 0;
        } catch (RuntimeException e) {
            LOG.warn("looking for other nodes failed: {}", e.getClass().getSimpleName());
        }
    }

    /** Queues a key for the other nodes (callers check `peers` first: a lone node builds no key). */
    private void announce(String key) {
        outbox.add(KEY + nodeId + ":" + key);
        pusher.execute(this::flush);
    }

    /** Everything waiting, in one statement (a flush that finds the outbox empty does nothing). */
    private void flush() {
        List<String> keys = new java.util.ArrayList<>();
        for (String k; (k = outbox.poll()) != null; ) keys.add(k);
        try {
            changes.publishNow(keys);
        } catch (RuntimeException e) {
            LOG.warn("announcing {} pushes to the other nodes failed: {}", keys.size(), e.getClass().getSimpleName());
        }
    }

    /** ws:NODE:t:CATEGORY:SYMBOL, ws:NODE:o:UID:ID,ID, ws:NODE:a:UID,UID from another node: pushed here as if committed here. */
    private void fromAnotherNode(String key) {
        if (!key.startsWith(KEY)) return;
        String[] p = key.split(":", 5);
        if (p.length < 4 || p[1].equals(Integer.toString(nodeId))) return;
        try {
            switch (p[2]) {
                case "t" -> market.ticker(io.tas.account.AccountEnums.Category.fromWire(p[3]), p[4]).ifPresent(t -> pushTicker(t));
                case "o" -> pushOrders(Long.parseLong(p[3]), java.util.Arrays.stream(p[4].split(",")).map(Long::valueOf).toList());
                case "a" -> pushAccounts(java.util.Arrays.stream(p[3].split(",")).map(Long::valueOf).collect(java.util.stream.Collectors.toSet()));
                default -> { }
            }
        } catch (RuntimeException e) {
            LOG.warn("a push announced by another node could not be read: {}", e.getClass().getSimpleName());
        }
    }

    /** A new connection's listener (one per WebSocket connection). */
    public StreamConnection connection() { return new StreamConnection(this); }

    /** websocket-wire.md: at most 100 connections per IP; false refuses this one. */
    static final int CONNECTIONS_PER_IP = 100;
    /** websocket-wire.md: the server disconnects after 2 minutes without a ping (any frame counts). */
    static final long IDLE_NANOS = 120_000_000_000L;

    boolean opened(StreamConnection c) {
        synchronized (connections) {
            if (connections.stream().filter(x -> x.ip().equals(c.ip())).count() >= CONNECTIONS_PER_IP) return false;
            connections.add(c);
            return true;
        }
    }

    /** Closes the connections that sent nothing for 2 minutes before nowNanos (every 10 s; tests call it with a later time). */
    public int closeIdle(long nowNanos) {
        int n = 0;
        for (StreamConnection c : connections) {
            if (nowNanos - c.lastFrameNanos() >= IDLE_NANOS) {
                c.close("no ping for 120 s");
                n++;
            }
        }
        return n;
    }

    void closed(StreamConnection c) { connections.remove(c); }

    /** A committed ticker: its subscribers here get it, and the other nodes hear of it. */
    public void tickerCommitted(Ticker t) {
        if (peers) announce("t:" + t.category().wire() + ":" + t.symbol());
        pushTicker(t);
    }

    private void pushTicker(Ticker t) {
        if (connections.isEmpty()) return;
        pusher.execute(() -> {
            StreamViews.TickerView view = StreamViews.ticker(t);
            String instType = StreamViews.lower(t.category().wire());
            for (StreamConnection c : connections) c.pushTicker(instType, t.symbol(), view, t.ts());
        });
        pushBooks(t.category(), t.symbol()); // the synthetic levels follow the ticker
    }

    /** The book of a symbol to its books subscribers (after a ticker or a change of its resting orders). */
    private void pushBooks(io.tas.account.AccountEnums.Category category, String symbol) {
        String instType = StreamViews.lower(category.wire());
        if (connections.stream().noneMatch(c -> c.wantsBooks(instType, symbol))) return;
        pusher.execute(() -> {
            try {
                io.tas.trade.TradingService.Book b = trading.orderBook(category, symbol, 50);
                for (StreamConnection c : connections) c.pushBooks(instType, symbol, b, b.ts());
            } catch (RuntimeException e) {
                LOG.warn("pushing the {} book failed: {}", symbol, e.getClass().getSimpleName());
            }
        });
    }

    /** The book a books topic subscribes to (an unknown instType or symbol: empty). */
    java.util.Optional<io.tas.trade.TradingService.Book> book(String instType, String symbol) {
        try {
            var category = io.tas.account.AccountEnums.Category.fromWire(instType.toUpperCase(java.util.Locale.ROOT));
            return java.util.Optional.of(trading.orderBook(category, symbol.toUpperCase(java.util.Locale.ROOT), 50));
        } catch (RuntimeException unknown) {
            return java.util.Optional.empty();
        }
    }

    /** An account's orders changed (committed): its order subscribers get them (its balances come through accountsCommitted). */
    public void ordersCommitted(long uid, List<Long> orderIds) {
        if (peers) announce("o:" + uid + ":" + String.join(",", orderIds.stream().map(String::valueOf).toList()));
        pushOrders(uid, orderIds);
    }

    private void pushOrders(long uid, List<Long> orderIds) {
        if (connections.stream().noneMatch(c -> c.uid() == uid || c.hasBooks())) return;
        pusher.execute(() -> {
            try {
                List<TradeOrder> changed = trading.orders(uid, orderIds);
                changed.stream().filter(o -> "limit".equals(o.orderType())).map(o -> java.util.Map.entry(o.category(), o.symbol())).distinct()
                        .forEach(e -> pushBooks(e.getKey(), e.getValue())); // a resting order came, went or filled
                List<StreamViews.Order> orders = changed.stream().map(StreamViews::order).toList();
                List<StreamViews.Fill> fills = connections.stream().anyMatch(c -> c.uid() == uid && c.subscribed("fill")) ? newFills(uid, changed) : List.of();
                long ts = clock.millis();
                for (StreamConnection c : connections) {
                    if (c.uid() != uid) continue;
                    c.pushPrivate("order", "snapshot", orders, ts);
                    if (!fills.isEmpty()) c.pushPrivate("fill", "snapshot", fills, ts);
                }
            } catch (RuntimeException e) {
                LOG.warn("pushing the orders of an account failed: {}", e.getClass().getSimpleName());
            }
        });
    }

    /**
     * The fills the orders' latest change made: a fill is stamped with its settlement's time, which is its order's uTime
     * then. Each is pushed once (a cancel in the same millisecond as a fill finds it pushed already).
     */
    private List<StreamViews.Fill> newFills(long uid, List<TradeOrder> orders) {
        if (orders.isEmpty()) return List.of();
        java.util.Map<Long, TradeOrder> byId = new java.util.HashMap<>();
        orders.forEach(o -> byId.put(o.orderId(), o));
        long since = orders.stream().mapToLong(TradeOrder::uTime).min().orElseThrow();
        List<StreamViews.Fill> out = new java.util.ArrayList<>();
        for (io.tas.spot.SpotFill f : spot.fillsOfOrders(uid, byId.keySet(), since)) {
            TradeOrder o = byId.get(f.orderId());
            if (o == null || f.cTime() != o.uTime() || !pushedFills.add(uid + "/" + f.tradeId())) continue;
            out.add(StreamViews.fill(f, o));
        }
        return out;
    }

    /** Accounts whose balances a committed ledger transaction changed: their account and position subscribers get them. */
    public void accountsCommitted(Set<Long> uids) {
        if (peers) announce("a:" + String.join(",", uids.stream().map(String::valueOf).toList()));
        pushAccounts(uids);
    }

    private void pushAccounts(Set<Long> uids) {
        if (connections.stream().noneMatch(c -> uids.contains(c.uid()))) return;
        pusher.execute(() -> {
            long ts = clock.millis();
            for (long uid : uids) {
                try {
                    StreamViews.Account account = null;
                    List<StreamViews.Position> open = null;
                    for (StreamConnection c : connections) {
                        if (c.uid() != uid) continue;
                        if (c.subscribed("account")) c.pushPrivate("account", "update", List.of(account != null ? account : (account = account(uid))), ts);
                        if (c.subscribed("position")) c.pushPrivate("position", "update", open != null ? open : (open = positions(uid)), ts);
                    }
                } catch (RuntimeException e) {
                    LOG.warn("pushing an account failed: {}", e.getClass().getSimpleName());
                }
            }
        });
    }

    StreamViews.Account account(long uid) { return StreamViews.account(assets.of(uid)); }

    List<StreamViews.Position> positions(long uid) {
        return positions.open(uid).stream().map(positions::value).map(StreamViews::position).toList();
    }

    /** Live connections (a metric and tests). */
    public int connections() { return connections.size(); }

    @Override
    public void close() {
        sweeper.shutdownNow();
        pusher.shutdownNow();
        connections.forEach(StreamConnection::closeForShutdown);
    }

}
