package io.tas.stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The streams' meters (issue 27 item 6): connections and subscriptions now, connections opened, pushes sent, why
 * connections closed, and the lag from a commit being heard to its pushes being queued on every subscriber's connection.
 * Counted here before any registry is bound, so a node without metrics pays a few adders.
 */
final class StreamMetrics {
    private final LongAdder opened = new LongAdder(), pushes = new LongAdder();
    private final Map<String, LongAdder> closes = new ConcurrentHashMap<>();
    private volatile Timer lag;
    private volatile MeterRegistry registry;

    void opened() { opened.increment(); }

    void pushed() { pushes.increment(); }

    void closed(String reason) {
        closes.computeIfAbsent(reason, r -> {
            LongAdder a = new LongAdder();
            MeterRegistry reg = registry;
            if (reg != null) register(reg, r, a);
            return a;
        }).increment();
    }

    /** A commit heard at originNanos has had its pushes queued. */
    void lag(long originNanos) {
        Timer t = lag;
        if (t != null) t.record(Duration.ofNanos(System.nanoTime() - originNanos));
    }

    void bind(MeterRegistry reg, Supplier<Number> connections, Supplier<Number> subscriptions) {
        Gauge.builder("tas_ws_connections", connections).strongReference(true)
                .description("open WebSocket stream connections on this node").register(reg);
        Gauge.builder("tas_ws_subscriptions", subscriptions).strongReference(true)
                .description("channels subscribed over all WebSocket connections of this node").register(reg);
        io.micrometer.core.instrument.FunctionCounter.builder("tas_ws_connections_opened_total", opened, LongAdder::sum)
                .description("WebSocket connections accepted").register(reg);
        io.micrometer.core.instrument.FunctionCounter.builder("tas_ws_pushes_total", pushes, LongAdder::sum)
                .description("frames pushed to subscribers (snapshots and updates)").register(reg);
        lag = Timer.builder("tas_ws_push_lag").publishPercentiles(0.5, 0.99)
                .description("from a commit being heard to its pushes being queued on each subscriber's connection").register(reg);
        registry = reg;
        closes.forEach((r, a) -> register(reg, r, a));
    }

    private static void register(MeterRegistry reg, String reason, LongAdder a) {
        io.micrometer.core.instrument.FunctionCounter.builder("tas_ws_disconnects_total", a, LongAdder::sum).tag("reason", reason)
                .description("WebSocket connections closed, by reason: client, error, idle, slow_consumer, connections_per_ip, shutdown")
                .register(reg);
    }
}
