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
 * The WebSocket streams of this node (issue 27, D186, D187): the open connections and what each subscribed. Changes
 * come in after their commit (a ticker, an account's orders, its balances), from this node or announced by another, and
 * are pushed from one thread, so an account's pushes go out in commit order; an account nobody subscribed costs nothing.
 * Each connection sends from its own queue (a virtual thread drains it), so a slow client delays no one.
 */
public final class StreamHub implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamHub.class);
    private final Set<StreamConnection> connections = ConcurrentHashMap.newKeySet();
    private final ExecutorService pusher;
    private final java.util.concurrent.ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("tas-stream-idle").factory());
    /**
     * The connections' writers: one virtual thread per connection while it has frames to send. One name for all: a
     * numbered name was a string built for every push of a fan-out (D232).
     */
    final ExecutorService writers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("tas-stream-write").factory());
    final Authenticator authenticator;
    final Clock clock;
    private final Sources sources;
    private final TradingService trading;
    private final AssetsRoutes assets;
    private final PositionService positions;
    private final io.tas.spot.SpotRecords spot;
    private final MarketPushes marketPushes;
    private final StreamMetrics metrics = new StreamMetrics();
    /** Bytes of unsent frames a connection may hold before it counts as a slow consumer (D187): 4 MiB, about 2,000 books50 pushes. */
    private volatile long sendBufferBytes = 4L << 20;
    /** Fills pushed lately (uid/tradeId), the newest 100,000; the account lanes share it. */
    private final Set<String> pushedFills = java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.LinkedHashMap<>() {
        @Override protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> eldest) { return size() > 100_000; }
    }));
    /** Logged-in connections by account: a commit looks up its account's connections instead of scanning them all. */
    private final java.util.concurrent.ConcurrentHashMap<Long, Set<StreamConnection>> byUid = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * The public subscriptions by book ("CATEGORY|SYMBOL"): a ticker move visits its own subscribers, not every
     * subscription of every connection (5,000 connections with five channels each were 25,000 looks a move).
     */
    private final java.util.concurrent.ConcurrentHashMap<String, Set<StreamConnection.Sub>> followers = new java.util.concurrent.ConcurrentHashMap<>();
    /** Subscriptions to books, trades or candles over all connections: zero means no order change reads anything public. */
    private final java.util.concurrent.atomic.AtomicInteger bookFollowers = new java.util.concurrent.atomic.AtomicInteger();
    /**
     * The private pushes run on account lanes (D187): an account always on the same single thread, so its pushes keep
     * commit order, while accounts on other lanes read and push at the same time. The public channels stay on `pusher`.
     */
    static final int LANES = 4;
    private final ExecutorService[] lanes = new ExecutorService[LANES];
    /** Accounts whose balances changed and are not pushed yet, by lane, with when the first such commit was heard. */
    private final java.util.List<java.util.concurrent.ConcurrentHashMap<Long, Long>> pendingAccounts = new java.util.ArrayList<>();
    private final java.util.concurrent.atomic.AtomicBoolean[] drainScheduled = new java.util.concurrent.atomic.AtomicBoolean[LANES];
    /** Order commits heard and not pushed yet, by lane, in the order heard (D207). */
    private final java.util.List<java.util.concurrent.ConcurrentLinkedQueue<OrderNote>> pendingOrders = new java.util.ArrayList<>();
    private final java.util.concurrent.atomic.AtomicBoolean[] ordersScheduled = new java.util.concurrent.atomic.AtomicBoolean[LANES];

    // Across nodes (D186): what this node commits is announced after its commit, and it pushes what the others announce.
    private static final String KEY = "ws:";
    private final io.tas.market.MarketService market;
    private final io.tas.store.ChangeFeed changes;
    private final io.tas.store.Database db;
    private final int nodeId;
    /** Whether another node holds a live lease (checked every 5 s): only then are pushes announced. */
    private volatile boolean peers;
    private final java.util.concurrent.ConcurrentLinkedQueue<String> outbox = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** What the streams read: the same services and row builders the REST rows use, so a push equals the REST answer. */
    public record Sources(TradingService trading, AssetsRoutes assets, PositionService positions, io.tas.spot.SpotRecords spot,
                          io.tas.market.MarketService market, io.tas.ledger.Ledger ledger, io.tas.position.MixAccountRoutes mixAccounts,
                          io.tas.marketdata.StreamFeed feed, io.tas.strategy.StrategyService strategies) {}

    public StreamHub(Authenticator authenticator, Clock clock, Sources sources, io.tas.store.ChangeFeed changes,
                     io.tas.store.Database db, int nodeId) {
        this.authenticator = authenticator;
        this.clock = clock;
        this.sources = sources;
        this.trading = sources.trading();
        this.assets = sources.assets();
        this.positions = sources.positions();
        this.spot = sources.spot();
        this.market = sources.market();
        this.marketPushes = new MarketPushes(trading, sources.feed());
        // D207: the pushes read on connections of their own, not in line behind the requests.
        this.pusher = Executors.newSingleThreadExecutor(db.pushReaders(Thread.ofPlatform().daemon().name("tas-stream-push").factory()));
        for (int i = 0; i < LANES; i++) {
            lanes[i] = Executors.newSingleThreadExecutor(db.pushReaders(Thread.ofPlatform().daemon().name("tas-stream-account-" + i).factory()));
            pendingAccounts.add(new java.util.concurrent.ConcurrentHashMap<>());
            drainScheduled[i] = new java.util.concurrent.atomic.AtomicBoolean();
            pendingOrders.add(new java.util.concurrent.ConcurrentLinkedQueue<>());
            ordersScheduled[i] = new java.util.concurrent.atomic.AtomicBoolean();
        }
        this.changes = changes;
        this.db = db;
        this.nodeId = nodeId;
        sweeper.scheduleWithFixedDelay(this::sweep, 2, 2, java.util.concurrent.TimeUnit.SECONDS);
        if (changes.sharedAcrossNodes()) {
            changes.subscribe(this::fromAnotherNode);
            sweeper.scheduleWithFixedDelay(this::refreshPeers, 0, 5, java.util.concurrent.TimeUnit.SECONDS);
            // A node that starts says so: the running ones announce to it from now on, not from their next look (5 s).
            announce("h:" + nodeId);
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
        if (key.equals(io.tas.store.ChangeFeed.EVERYTHING)) { // a restore, a reset, or a feed that reconnected
            resync();
            return;
        }
        if (!key.startsWith(KEY)) return;
        String[] p = key.split(":", 5);
        if (p.length < 4 || p[1].equals(Integer.toString(nodeId))) return;
        try {
            switch (p[2]) {
                case "t" -> market.ticker(io.tas.account.AccountEnums.Category.fromWire(p[3]), p[4]).ifPresent(t -> pushTicker(t));
                case "o" -> pushOrders(Long.parseLong(p[3]), java.util.Arrays.stream(p[4].split(",")).map(Long::valueOf).toList());
                case "h" -> peers = true; // a node started: from now on there is someone to tell
                case "s" -> pushStrategies(Long.parseLong(p[3]), java.util.Arrays.stream(p[4].split(",")).map(Long::valueOf).toList());
                case "a" -> pushAccounts(java.util.Arrays.stream(p[3].split(",")).map(Long::valueOf).collect(java.util.stream.Collectors.toSet()));
                default -> { }
            }
        } catch (RuntimeException e) {
            LOG.warn("a push announced by another node could not be read: {}", e.getClass().getSimpleName());
        }
    }

    /** A new connection's listener (one per WebSocket connection) on one of the four paths. */
    public StreamConnection connection(String path) { return new StreamConnection(this, path); }

    /** Issue 28: the sandbox's fault rules (ws-op, ws-push) and request journal (frames); null on a service. */
    volatile io.tas.sandbox.Faults faults;
    volatile io.tas.sandbox.RequestJournal journal;

    public void sandbox(io.tas.sandbox.Faults faults, io.tas.sandbox.RequestJournal journal) {
        this.faults = faults;
        this.journal = journal;
    }

    /** websocket-wire.md: at most 100 connections per IP; false refuses this one. */
    static final int CONNECTIONS_PER_IP = 100;
    /** websocket-wire.md: the server disconnects after 2 minutes without a ping (any frame counts). */
    static final long IDLE_NANOS = 120_000_000_000L;
    /** A slow consumer that cannot take its 30007 and close frame within this is cut off. */
    static final long CUT_AFTER_SECONDS = 5;

    boolean opened(StreamConnection c) {
        synchronized (connections) {
            if (connections.stream().filter(x -> x.ip().equals(c.ip())).count() >= CONNECTIONS_PER_IP) return false;
            connections.add(c);
            metrics.opened();
            return true;
        }
    }

    /** Every 2 s: forgets connections whose socket ended without a close frame, and closes the idle ones. */
    private void sweep() {
        for (StreamConnection c : connections) if (!c.socketOpen()) closed(c, "client");
        closeIdle(System.nanoTime());
    }

    /** Closes the connections that sent nothing for 2 minutes before nowNanos (every 2 s; tests call it with a later time). */
    public int closeIdle(long nowNanos) {
        int n = 0;
        for (StreamConnection c : connections) {
            if (nowNanos - c.lastFrameNanos() >= IDLE_NANOS) {
                c.close("no ping for 120 s", "idle");
                n++;
            }
        }
        return n;
    }

    /** A connection is gone or going: counted once, by the first reason given. */
    void closed(StreamConnection c, String reason) {
        if (!connections.remove(c)) return;
        metrics.closed(reason);
        forget(c, c.uid());
        bookFollowers.addAndGet(-c.bookSubscriptions());
        for (StreamConnection.Sub s : c.subscriptions()) unsubscribed(s);
    }

    /** The public subscriptions on a book. */
    private Set<StreamConnection.Sub> followers(io.tas.account.AccountEnums.Category category, String symbol) {
        return followers.getOrDefault(MarketPushes.bookKey(category, symbol), Set.of());
    }

    /** How many public subscriptions this node holds on a book (tests: a closed or unsubscribed one is forgotten). */
    public int followersOf(io.tas.account.AccountEnums.Category category, String symbol) { return followers(category, symbol).size(); }

    /**
     * A public subscription is indexed by its book, unless its connection closed meanwhile (closed() forgets them). The
     * add is inside compute: a set emptied and dropped by another subscription's end at the same moment cannot take it.
     */
    private void follow(StreamConnection c, StreamConnection.Sub s) {
        followers.compute(MarketPushes.bookKey(s.channel().category(), s.channel().target()), (k, set) -> {
            Set<StreamConnection.Sub> subs = set == null ? ConcurrentHashMap.newKeySet() : set;
            subs.add(s);
            return subs;
        });
        if (!connections.contains(c)) unsubscribed(s);
    }

    /** A subscription ended (unsubscribed, or its connection closed). */
    void unsubscribed(StreamConnection.Sub s) {
        StreamChannel ch = s.channel();
        if (ch.kind().isPrivate) return;
        followers.computeIfPresent(MarketPushes.bookKey(ch.category(), ch.target()), (k, set) -> {
            set.remove(s);
            return set.isEmpty() ? null : set;
        });
    }

    /** A connection logged in (again): its account's pushes find it from now on. */
    void loggedIn(StreamConnection c, long before, long uid) {
        forget(c, before);
        if (connections.contains(c)) byUid.computeIfAbsent(uid, u -> ConcurrentHashMap.newKeySet()).add(c);
    }

    private void forget(StreamConnection c, long uid) {
        if (uid < 0) return;
        byUid.computeIfPresent(uid, (u, set) -> {
            set.remove(c);
            return set.isEmpty() ? null : set;
        });
    }

    /** A connection's books, trades or candles subscriptions changed by delta. */
    void followingBooks(int delta) { bookFollowers.addAndGet(delta); }

    private ExecutorService lane(long uid) { return lanes[laneOf(uid)]; }

    /** An account's lane: its pushes run there, one after another, so they leave in commit order. */
    private static int laneOf(long uid) { return Math.floorMod(Long.hashCode(uid), LANES); }

    /** Runs a drain on the lane unless one is waiting there already (a drain clears its flag first thing). */
    private void schedule(java.util.concurrent.atomic.AtomicBoolean[] scheduled, int lane, java.util.function.IntConsumer drain) {
        if (scheduled[lane].compareAndSet(false, true)) lanes[lane].execute(() -> drain.accept(lane));
    }

    private Set<StreamConnection> of(long uid) { return byUid.getOrDefault(uid, Set.of()); }

    /** The socket of a slow consumer is cut if it has not taken its close by then. */
    void cutLater(StreamConnection c) { sweeper.schedule(c::cut, CUT_AFTER_SECONDS, java.util.concurrent.TimeUnit.SECONDS); }

    long sendBufferBytes() { return sendBufferBytes; }

    private volatile int messagesPerSecond = StreamConnection.MESSAGES_PER_SECOND;

    int messagesPerSecond() { return messagesPerSecond; }

    /** Sets the frames a connection may send in a second (tests lift it to reach the parser with a flood of frames). */
    public void messagesPerSecond(int n) { messagesPerSecond = n; }

    void pushed() { metrics.pushed(); }

    /** Sets how many bytes of unsent frames make a slow consumer (tests make it small). */
    public void sendBufferBytes(long bytes) { sendBufferBytes = bytes; }

    /** Whether a public channel names a book that exists (and a candle channel an interval). */
    boolean exists(StreamChannel ch) {
        if (ch.kind() == StreamChannel.Kind.CANDLE && io.tas.marketdata.StreamFeed.series(ch.v2(), ch.series()).isEmpty()) return false;
        try {
            market.instrument(ch.category(), ch.target());
            return true;
        } catch (RuntimeException unknown) {
            return false;
        }
    }

    /**
     * A new subscription: its snapshot (if it has one) goes out after every earlier push of its kind, from the account's
     * lane for a private channel and from the pusher thread for a public one.
     */
    void subscribed(StreamConnection c, StreamConnection.Sub s) {
        StreamChannel.Kind kind = s.channel().kind();
        if (!kind.isPrivate) follow(c, s);
        if (!kind.hasSnapshot()) {
            // Nothing to wait for: pushes flow from now on, not from when a busy lane gets to this subscription
            // (a client that subscribes and then places an order must see it pushed).
            s.ready(true);
            return;
        }
        (kind.isPrivate ? lane(c.uid()) : pusher).execute(() -> {
            try {
                long ts = clock.millis();
                StreamChannel ch = s.channel();
                switch (ch.kind()) {
                    // websocket-wire.md: account and position answer a snapshot at once (position "data":[] when flat).
                    case ACCOUNT, POSITION -> {
                        StreamConnection.Data data = StreamConnection.Data.of(privateView(c.uid(), ch, new OpenPositions(c.uid()), null));
                        s.alreadyShows(data); // the state the updates after it are compared with (D226)
                        c.push(s, "snapshot", data, ts);
                    }
                    case TICKER -> market.ticker(ch.category(), ch.target())
                            .ifPresent(t -> c.push(s, "snapshot", List.of(ch.v2() ? StreamViewsV2.ticker(t) : StreamViews.ticker(t)), ts));
                    case BOOK, INCREMENTAL_BOOK, TRADE, CANDLE -> marketPushes.snapshot(followers(ch.category(), ch.target()), c, s, ts);
                    default -> { }
                }
            } catch (RuntimeException e) {
                LOG.warn("the snapshot of {} failed: {}", s.channel().key(), e.getClass().getSimpleName());
            } finally {
                s.ready(true);
            }
        });
    }

    /**
     * D232: a committed ticker, before the engine sweeps the book and the tape folds the candle: its ticker channels
     * show the ticker alone, so its fan-out waits for no database work.
     */
    public void tickerSeen(Ticker t) { pushMarket(t, MarketPushes.TICKERS); }

    /** A committed ticker after its sweep and candle: books, trades and candles here, then the other nodes hear of it. */
    public void tickerCommitted(Ticker t) {
        if (peers) announce("t:" + t.category().wire() + ":" + t.symbol());
        pushMarket(t, MarketPushes.ALL_BUT_TICKERS);
        markMoved(t);
    }

    /** Another node's ticker: every channel of it at once (its sweep and candle committed before it announced). */
    private void pushTicker(Ticker t) {
        pushMarket(t, MarketPushes.ALL);
        markMoved(t);
    }

    private void pushMarket(Ticker t, Set<StreamChannel.Kind> kinds) {
        if (connections.isEmpty()) return;
        long origin = System.nanoTime();
        pusher.execute(() -> marketChanged(io.tas.marketdata.TradeTape.book(t.category()), t.symbol(), t, origin, kinds));
    }

    /** The mark price last seen per contract ("CATEGORY SYMBOL"): a ticker that keeps it moves no position. */
    private final java.util.concurrent.ConcurrentHashMap<String, java.math.BigDecimal> marks = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * D193: a contract's mark price moved: the position and account channels of the connected accounts holding it are
     * pushed again (unrealised PnL, equity and margin ratios follow the mark), coalesced on their lanes like a commit's.
     */
    private void markMoved(Ticker t) {
        if (!t.category().isFutures() || t.markPrice() == null) return;
        java.math.BigDecimal before = marks.put(t.category().wire() + " " + t.symbol(), t.markPrice());
        if (before != null && before.compareTo(t.markPrice()) == 0) return;
        if (byUid.isEmpty()) return;
        writers.execute(() -> {
            try {
                Set<Long> holders = new java.util.HashSet<>();
                for (long uid : positions.holders(t.category(), t.symbol())) if (byUid.containsKey(uid)) holders.add(uid);
                if (!holders.isEmpty()) pushAccounts(holders);
            } catch (RuntimeException e) {
                LOG.warn("pushing the positions of {} after a mark move failed: {}", t.symbol(), e.getClass().getSimpleName());
            }
        });
    }

    /** A symbol's ticker, book or trades changed: its public subscribers get it (the synthetic levels follow the ticker). */
    private void marketChanged(io.tas.account.AccountEnums.Category category, String symbol, Ticker t, long origin,
                               Set<StreamChannel.Kind> kinds) {
        try {
            marketPushes.changed(followers(category, symbol), category, symbol, t, clock.millis(), kinds);
            metrics.lag(origin);
        } catch (RuntimeException e) {
            LOG.warn("pushing the {} market failed: {}", symbol, e.getClass().getSimpleName());
        }
    }

    /**
     * Strategy orders placed, ingested or ended: the v3 strategy-order topic as the §2.19 rows show them, the v2
     * orders-algo channel as the classic plan channel does (D206).
     */
    public void strategiesCommitted(long uid, List<Long> orderIds) {
        if (peers) announce("s:" + uid + ":" + String.join(",", orderIds.stream().map(String::valueOf).toList()));
        pushStrategies(uid, orderIds);
    }

    private void pushStrategies(long uid, List<Long> orderIds) {
        if (!byUid.containsKey(uid)) return;
        long origin = System.nanoTime();
        lane(uid).execute(() -> {
            try {
                Set<StreamConnection> mine = of(uid);
                if (mine.stream().noneMatch(c -> c.wants(StreamChannel.Kind.STRATEGY))) return;
                List<io.tas.strategy.StrategyOrder> orders = sources.strategies().orders(uid, orderIds);
                if (orders.isEmpty()) return;
                List<Object> rows = null;
                List<io.tas.position.Position> held = null;
                long ts = clock.millis();
                for (StreamConnection c : mine) {
                    for (StreamConnection.Sub s : c.subscriptions()) {
                        StreamChannel ch = s.channel();
                        if (!s.ready() || ch.kind() != StreamChannel.Kind.STRATEGY) continue;
                        if (!ch.v2()) {
                            if (rows == null) rows = orders.stream().map(o -> (Object) io.tas.strategy.StrategyRoutes.view(o, !o.status().equals("pending"))).toList();
                            c.push(s, "snapshot", rows, ts);
                            continue;
                        }
                        if (held == null) held = sources.positions().open(uid);
                        List<io.tas.position.Position> open = held;
                        List<Object> plans = orders.stream().filter(o -> o.takeProfit() != null || o.stopLoss() != null) // a TP/SL: the plans v2 has
                                .filter(o -> ch.covers(io.tas.account.AccountEnums.Category.fromWire(o.category()), o.symbol()))
                                .map(o -> (Object) StreamViewsV2.algoOrder(o, open.stream().filter(p -> p.symbol().equals(o.symbol())
                                        && p.category().wire().equals(o.category()) && p.holdSide().wire().equals(o.posSide())).findFirst().orElse(null)))
                                .toList();
                        if (!plans.isEmpty()) c.push(s, "snapshot", plans, ts);
                    }
                }
                metrics.lag(origin);
            } catch (RuntimeException e) {
                LOG.warn("pushing the strategy orders of an account failed: {}", e.getClass().getSimpleName());
            }
        });
    }

    /** An account's orders changed (committed): its order subscribers get them (its balances come through accountsCommitted). */
    public void ordersCommitted(long uid, List<Long> orderIds) {
        if (peers) announce("o:" + uid + ":" + String.join(",", orderIds.stream().map(String::valueOf).toList()));
        pushOrders(uid, orderIds);
    }

    /** Order IDs one drain reads at most (a single commit's may be more: a sweep's page). */
    static final int DRAIN_ORDER_IDS = 1_000;

    /** An order commit heard and not pushed yet: its account, its orders, and when it was heard. */
    private record OrderNote(long uid, List<Long> orderIds, long origin) {}

    private void pushOrders(long uid, List<Long> orderIds) {
        boolean books = bookFollowers.get() > 0;
        if (!books && !byUid.containsKey(uid)) return;
        int lane = laneOf(uid);
        pendingOrders.get(lane).add(new OrderNote(uid, orderIds, System.nanoTime()));
        schedule(ordersScheduled, lane, this::drainOrders);
    }

    /**
     * D207: the order commits waiting for one lane are pushed together: their orders in one read and their fills in
     * another, however many accounts they came from (under load a read per commit kept the lanes seconds behind). Each
     * account's orders are pushed once, in the order their commits were heard, with their state as committed now.
     */
    private void drainOrders(int lane) {
        ordersScheduled[lane].set(false); // a commit after this point schedules another drain
        java.util.Map<Long, java.util.LinkedHashSet<Long>> idsByUid = new java.util.LinkedHashMap<>();
        java.util.Map<Long, Long> originByUid = new java.util.HashMap<>();
        int taken = 0;
        // At most about DRAIN_ORDER_IDS a drain: the reads' IN lists stay far below the drivers' parameter limits.
        for (OrderNote n; taken < DRAIN_ORDER_IDS && (n = pendingOrders.get(lane).poll()) != null; taken += n.orderIds().size()) {
            idsByUid.computeIfAbsent(n.uid(), u -> new java.util.LinkedHashSet<>()).addAll(n.orderIds());
            originByUid.putIfAbsent(n.uid(), n.origin());
        }
        if (!pendingOrders.get(lane).isEmpty()) schedule(ordersScheduled, lane, this::drainOrders); // the rest, next on this lane
        if (idsByUid.isEmpty()) return;
        try {
            java.util.Map<Long, TradeOrder> byId = new java.util.HashMap<>();
            for (TradeOrder o : trading.orders(idsByUid.values().stream().flatMap(Set::stream).toList())) byId.put(o.orderId(), o);
            java.util.Map<Long, List<TradeOrder>> changed = new java.util.LinkedHashMap<>();
            idsByUid.forEach((uid, ids) -> changed.put(uid, ids.stream().map(byId::get).filter(o -> o != null && o.uid() == uid).toList()));
            if (bookFollowers.get() > 0) {
                // A resting order came, went or filled, or a trade printed: the symbols' books, trades and candles.
                long origin = originByUid.values().stream().mapToLong(Long::longValue).min().orElseThrow();
                changed.values().stream().flatMap(List::stream)
                        .map(o -> java.util.Map.entry(io.tas.marketdata.TradeTape.book(o.category()), o.symbol())).distinct()
                        .forEach(e -> pusher.execute(() -> marketChanged(e.getKey(), e.getValue(), null, origin, MarketPushes.ALL)));
            }
            java.util.Map<Long, List<Fill>> fills = newFills(changed);
            long ts = clock.millis();
            changed.forEach((uid, orders) -> {
                for (StreamConnection c : of(uid)) pushOrdersTo(c, orders, fills.getOrDefault(uid, List.of()), ts);
                metrics.lag(originByUid.get(uid));
            });
        } catch (RuntimeException e) {
            LOG.warn("pushing the orders of {} accounts failed: {}", idsByUid.size(), e.getClass().getSimpleName());
        }
    }

    /** One connection's order and fill channels: the changed orders and the fills they made that each channel covers. */
    private static void pushOrdersTo(StreamConnection c, List<TradeOrder> changed, List<Fill> fills, long ts) {
        for (StreamConnection.Sub s : c.subscriptions()) {
            StreamChannel ch = s.channel();
            if (!s.ready()) continue;
            if (ch.kind() == StreamChannel.Kind.ORDER) {
                List<Object> orders = changed.stream().filter(o -> ch.covers(o.category(), o.symbol()))
                        .map(o -> ch.v2() ? StreamViewsV2.order(o) : (Object) StreamViews.order(o)).toList();
                if (!orders.isEmpty()) c.push(s, "snapshot", orders, ts);
            } else if (ch.kind() == StreamChannel.Kind.FILL) {
                List<Object> made = fills.stream().filter(f -> ch.covers(f.order().category(), f.order().symbol()))
                        .map(f -> ch.v2() ? StreamViewsV2.fill(f.fill(), f.order()) : (Object) StreamViews.fill(f.fill(), f.order())).toList();
                if (!made.isEmpty()) c.push(s, "snapshot", made, ts);
            }
        }
    }

    /** A fill with its order. */
    private record Fill(io.tas.spot.SpotFill fill, TradeOrder order) {}

    /**
     * The fills the orders' latest change made, by account, for the accounts with a fill subscriber here, in one read:
     * a fill is stamped with its settlement's time, which is its order's uTime then. Each is pushed once (a cancel in
     * the same millisecond as a fill finds it pushed already).
     */
    private java.util.Map<Long, List<Fill>> newFills(java.util.Map<Long, List<TradeOrder>> changed) {
        java.util.Map<Long, TradeOrder> byId = new java.util.HashMap<>();
        changed.forEach((uid, orders) -> {
            if (of(uid).stream().anyMatch(c -> c.wants(StreamChannel.Kind.FILL))) orders.forEach(o -> byId.put(o.orderId(), o));
        });
        if (byId.isEmpty()) return java.util.Map.of();
        long since = byId.values().stream().mapToLong(TradeOrder::uTime).min().orElseThrow();
        Set<Long> uids = byId.values().stream().map(TradeOrder::uid).collect(java.util.stream.Collectors.toSet());
        java.util.Map<Long, List<Fill>> out = new java.util.HashMap<>();
        for (io.tas.spot.SpotFill f : spot.fillsOfOrders(uids, byId.keySet(), since)) {
            TradeOrder o = byId.get(f.orderId());
            if (o == null || o.uid() != f.uid() || f.cTime() != o.uTime() || !pushedFills.add(f.uid() + "/" + f.tradeId())) continue;
            out.computeIfAbsent(f.uid(), u -> new java.util.ArrayList<>()).add(new Fill(f, o));
        }
        return out;
    }

    /**
     * Anything may have changed (a snapshot restored, D189): every connected account's account and position channels
     * are pushed again with the state as it now is. Orders and fills have no state to push; a client reads them anew.
     */
    public void resync() {
        if (!byUid.isEmpty()) pushAccounts(Set.copyOf(byUid.keySet()));
    }

    /** Accounts whose balances a committed ledger transaction changed: their account and position subscribers get them. */
    public void accountsCommitted(Set<Long> uids) {
        if (peers) announce("a:" + String.join(",", uids.stream().map(String::valueOf).toList()));
        pushAccounts(uids);
    }

    /**
     * Marks the accounts for a push on their lanes. The account and position channels show state, so several commits
     * waiting for one lane are pushed once, with the state after the last of them (D187).
     */
    private void pushAccounts(Set<Long> uids) {
        long origin = System.nanoTime();
        for (long uid : uids) {
            if (!byUid.containsKey(uid)) continue;
            int lane = laneOf(uid);
            pendingAccounts.get(lane).putIfAbsent(uid, origin);
            schedule(drainScheduled, lane, this::drainAccounts);
        }
    }

    /** Runs on a lane just before a drain reads its accounts (tests hold a drain there while a commit lands; D226). */
    private volatile Runnable beforeAccountRead = () -> { };

    public void beforeAccountRead(Runnable r) { beforeAccountRead = r == null ? () -> { } : r; }

    /** Accounts one drain pushes at most: their balances and open positions are read in one statement each. */
    static final int DRAIN_ACCOUNTS = 1_000;

    private void drainAccounts(int lane) {
        drainScheduled[lane].set(false); // a commit after this point schedules another drain
        java.util.concurrent.ConcurrentHashMap<Long, Long> pending = pendingAccounts.get(lane);
        java.util.Map<Long, Long> originByUid = new java.util.LinkedHashMap<>();
        for (java.util.Iterator<Long> it = pending.keySet().iterator(); it.hasNext() && originByUid.size() < DRAIN_ACCOUNTS; ) {
            Long uid = it.next();
            Long origin = pending.remove(uid);
            if (origin != null) originByUid.put(uid, origin);
        }
        if (!pending.isEmpty()) schedule(drainScheduled, lane, this::drainAccounts); // the rest, next on this lane
        if (originByUid.isEmpty()) return;
        AccountReads reads;
        try {
            beforeAccountRead.run();
            reads = readAccounts(originByUid.keySet());
        } catch (RuntimeException e) {
            LOG.warn("reading the accounts to push failed: {}", e.getClass().getSimpleName());
            return;
        }
        originByUid.forEach((uid, origin) -> {
            long ts = clock.millis();
            java.util.Map<String, StreamConnection.Data> views = new java.util.HashMap<>(); // one serialization per channel
            OpenPositions open = new OpenPositions(uid, reads.open().get(uid));
            for (StreamConnection c : of(uid)) {
                for (StreamConnection.Sub s : c.subscriptions()) {
                    StreamChannel ch = s.channel();
                    if (!s.ready() || (ch.kind() != StreamChannel.Kind.ACCOUNT && ch.kind() != StreamChannel.Kind.POSITION)) continue;
                    try {
                        StreamConnection.Data data = views.computeIfAbsent(ch.key(),
                                k -> StreamConnection.Data.of(privateView(uid, ch, open, reads.balances().get(uid))));
                        // D226: the state this subscription was pushed last is not pushed again.
                        if (s.alreadyShows(data)) continue;
                        // websocket-wire.md: the v3 topics push `update` after the snapshot; the v2 channels push snapshots.
                        c.push(s, ch.v2() ? "snapshot" : "update", data, ts);
                    } catch (RuntimeException e) {
                        LOG.warn("pushing an account failed: {}", e.getClass().getSimpleName());
                    }
                }
            }
            metrics.lag(origin);
        });
    }

    /** A drain's accounts' open positions and balances, each read once for all of them. */
    private record AccountReads(java.util.Map<Long, List<io.tas.position.Position>> open,
                                java.util.Map<Long, List<io.tas.ledger.LedgerTypes.Balance>> balances) {}

    /** What the drain's accounts' channels show, in one statement each (the v2 account channels read their own rows). */
    private AccountReads readAccounts(Set<Long> uids) {
        return new AccountReads(positions.open(uids), sources.ledger().balances(uids));
    }

    /** An account's open positions, as a drain read them, or read on first use (a snapshot on subscribe). */
    private final class OpenPositions {
        private final long uid;
        private List<io.tas.position.Position> read;

        OpenPositions(long uid) { this(uid, null); }

        OpenPositions(long uid, List<io.tas.position.Position> read) {
            this.uid = uid;
            this.read = read;
        }

        List<io.tas.position.Position> get() {
            if (read == null) read = positions.open(uid);
            return read;
        }
    }

    /** The account or position channel's data for an account, as the REST rows compute it. */
    private List<?> privateView(long uid, StreamChannel ch, OpenPositions open, List<io.tas.ledger.LedgerTypes.Balance> balances) {
        boolean account = ch.kind() == StreamChannel.Kind.ACCOUNT;
        if (!ch.v2() && account) {
            return List.of(StreamViews.account(balances == null ? assets.of(uid, open.get()) : assets.of(balances, open.get())));
        }
        if (!ch.v2()) return positionsOf(open, null, null, false);
        if (!account) return positionsOf(open, ch.category(), ch.target(), true);
        if (ch.category() == io.tas.account.AccountEnums.Category.SPOT) {
            return io.tas.trade.SpotV2Routes.assets(sources.ledger(), uid, ch.target(), clock.millis());
        }
        return sources.mixAccounts().lines(uid, ch.category()).stream().map(StreamViewsV2::account).toList();
    }

    private List<?> positionsOf(OpenPositions open, io.tas.account.AccountEnums.Category category, String symbol, boolean v2) {
        return open.get().stream()
                .filter(p -> (category == null || p.category() == category) && (symbol == null || p.symbol().equals(symbol)))
                .map(positions::value).map(v -> v2 ? (Object) StreamViewsV2.position(v) : StreamViews.position(v)).toList();
    }

    /** Live connections (a metric and tests). */
    public int connections() { return connections.size(); }

    /** This node's streams: connections, logged-in ones and subscriptions. */
    public record Summary(int connections, int loggedIn, int subscriptions) {}

    public Summary summary() {
        return new Summary(connections.size(), (int) connections.stream().filter(c -> c.uid() >= 0).count(),
                connections.stream().mapToInt(c -> c.subscriptions().size()).sum());
    }

    /** Closes this node's connections of an account (every one when uid is null); the clients reconnect. */
    public int disconnect(Long uid) {
        int n = 0;
        for (StreamConnection c : connections) {
            if (uid != null && c.uid() != uid) continue;
            c.close("disconnected by the operator", "admin");
            n++;
        }
        return n;
    }

    /** Registers the streams' meters (docs/streams.md "Metrics"). */
    public void bindMetrics(io.micrometer.core.instrument.MeterRegistry registry) {
        metrics.bind(registry, this::connections, () -> connections.stream().mapToInt(c -> c.subscriptions().size()).sum());
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        pusher.shutdownNow();
        for (ExecutorService l : lanes) l.shutdownNow();
        connections.forEach(StreamConnection::closeForShutdown);
        writers.shutdown(); // the notices and close frames go out first
        try {
            if (!writers.awaitTermination(2, java.util.concurrent.TimeUnit.SECONDS)) writers.shutdownNow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
