package io.tas.stream;

import io.tas.auth.Authenticator;
import io.tas.market.Ticker;
import io.tas.position.PositionService;
import io.tas.risk.AssetsRoutes;
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
 * after their commit (a ticker, an account's orders) and are pushed from one thread, so an account's pushes go out in
 * commit order; a connection that is not subscribed costs nothing.
 */
public final class StreamHub implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StreamHub.class);
    private final Set<StreamConnection> connections = ConcurrentHashMap.newKeySet();
    private final ExecutorService pusher = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("tas-stream-push").factory());
    final Authenticator authenticator;
    final Clock clock;
    private final TradingService trading;
    private final AssetsRoutes assets;
    private final PositionService positions;

    public StreamHub(Authenticator authenticator, Clock clock, TradingService trading, AssetsRoutes assets, PositionService positions) {
        this.authenticator = authenticator;
        this.clock = clock;
        this.trading = trading;
        this.assets = assets;
        this.positions = positions;
    }

    /** A new connection's listener (one per WebSocket connection). */
    public StreamConnection connection(boolean privateEndpoint) { return new StreamConnection(this, privateEndpoint); }

    void opened(StreamConnection c) { connections.add(c); }

    void closed(StreamConnection c) { connections.remove(c); }

    /** A committed ticker: its subscribers get it. */
    public void tickerCommitted(Ticker t) {
        if (connections.isEmpty()) return;
        pusher.execute(() -> {
            StreamViews.TickerView view = StreamViews.ticker(t);
            String instType = StreamViews.lower(t.category().wire());
            for (StreamConnection c : connections) c.pushTicker(instType, t.symbol(), view, t.ts());
        });
    }

    /** An account's orders changed (committed): its order, account and position subscribers get them. */
    public void ordersCommitted(long uid, List<Long> orderIds) {
        if (connections.stream().noneMatch(c -> c.uid() == uid)) return;
        pusher.execute(() -> {
            try {
                List<StreamViews.Order> orders = trading.orders(uid, orderIds).stream().map(StreamViews::order).toList();
                long ts = clock.millis();
                for (StreamConnection c : connections) {
                    if (c.uid() != uid) continue;
                    c.pushPrivate("order", "snapshot", orders, ts);
                    if (c.subscribed("account")) c.pushPrivate("account", "update", List.of(account(uid)), ts);
                    if (c.subscribed("position")) c.pushPrivate("position", "update", positions(uid), ts);
                }
            } catch (RuntimeException e) {
                LOG.warn("pushing the orders of an account failed: {}", e.getClass().getSimpleName());
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
        pusher.shutdownNow();
        connections.forEach(StreamConnection::closeForShutdown);
    }

}
