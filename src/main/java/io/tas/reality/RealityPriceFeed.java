package io.tas.reality;

import io.tas.account.AccountEnums.Category;
import io.tas.config.Config;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An optional, seeded random walk of the Reality pairs' tickers (issue 10), so that resting orders of a sandbox fill
 * without an operator moving prices. Off by default (TAS_PRICE_FEED=on starts it). Each step moves every Reality pair's
 * mid price by at most `step` (a fraction) up or down, keeps its spread and sizes, and stays within `band` (a fraction)
 * of the price it started from; then the update goes the way an admin ticker update goes (MarketService.putTicker).
 * One process's feed: it is a sandbox tool, not for several nodes over one database.
 */
public final class RealityPriceFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RealityPriceFeed.class);

    /** everyTicker: walk every spot and futures ticker, not only the Reality pairs' (issue 25: the demo's feed). */
    public record Settings(boolean enabled, long seed, Duration interval, BigDecimal step, BigDecimal band, boolean everyTicker) {
        static final BigDecimal BAND = new BigDecimal("0.2");

        /** TAS_PRICE_FEED off (read in Config.fromEnv, with its seed, interval and step when it is on). */
        public static final Settings OFF = new Settings(false, 1, Duration.ofMillis(1000), new BigDecimal("0.001"), BAND, false);

        /** How far a walk may move a pair's price from where it started: ±20 %. */
        public static BigDecimal defaultBand() { return BAND; }
    }

    private final MarketService market;
    private final Clock clock;
    private final Settings settings;
    private final Random random;
    private final Map<String, BigDecimal> anchors = new HashMap<>();
    /** Each pair's price decimals, taken once when the walk first sees it: prices that strip to fewer do not coarsen the walk. */
    private final Map<String, Integer> decimals = new HashMap<>();
    private ScheduledExecutorService scheduler;

    public RealityPriceFeed(MarketService market, Clock clock, Settings settings) {
        this.market = market;
        this.clock = clock;
        this.settings = settings;
        this.random = new Random(settings.seed());
    }

    /** Starts the walk when enabled; returns this. */
    public RealityPriceFeed start() {
        if (!settings.enabled()) return this;
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tas-price-feed");
            t.setDaemon(true);
            return t;
        });
        long ms = settings.interval().toMillis();
        scheduler.scheduleWithFixedDelay(this::stepQuietly, ms, ms, TimeUnit.MILLISECONDS);
        LOG.info("Reality price feed on: seed {}, every {} ms, step {}", settings.seed(), ms, settings.step());
        return this;
    }

    private void stepQuietly() {
        try {
            step();
        } catch (RuntimeException e) {
            LOG.warn("price feed step failed: {}", e.toString()); // the next step tries again
        }
    }

    /** One step over every Reality pair with a ticker, or every ticker (public: tests step a feed that is off). */
    public synchronized void step() {
        for (Instrument i : market.instruments()) {
            boolean walked = i.category() == Category.SPOT && i.reality()
                    || settings.everyTicker() && (i.category() == Category.SPOT || i.category().isFutures());
            if (!walked) continue;
            String key = i.category().wire() + " " + i.symbol();
            market.ticker(i.category(), i.symbol()).ifPresent(t -> {
                BigDecimal anchor = anchors.computeIfAbsent(key, s -> mid(t));
                if (anchor.signum() <= 0) return;
                int scale = decimals.computeIfAbsent(key, s -> market.pricePrecision(i));
                Ticker next = next(t, anchor, draw(random), settings.step(), settings.band(), scale, clock.millis());
                market.putTicker(next); // the market's ticker listeners match the orders it crosses
            });
        }
    }

    private static BigDecimal mid(Ticker t) {
        BigDecimal ask = t.ask1Price(), bid = t.bid1Price();
        if (ask != null && bid != null && ask.signum() > 0 && bid.signum() > 0) return ask.add(bid).divide(BigDecimal.TWO, MathContext.DECIMAL64);
        return t.lastPrice() == null ? BigDecimal.ZERO : t.lastPrice();
    }

    /** A uniform move in [-1, 1] with 6 decimals, drawn as an integer: no floating point near prices. */
    static BigDecimal draw(Random random) {
        return BigDecimal.valueOf(random.nextInt(2_000_001) - 1_000_000L, 6);
    }

    /**
     * The ticker one step later: mid x (1 + step x move) for move in [-1, 1], kept within anchor x (1 +- band), at the
     * pair's price decimals; the spread and the sizes stay; high and low follow the last price.
     */
    static Ticker next(Ticker t, BigDecimal anchor, BigDecimal move, BigDecimal step, BigDecimal band, int decimals, long now) {
        BigDecimal tick = BigDecimal.ONE.movePointLeft(decimals);
        BigDecimal mid = mid(t);
        BigDecimal half = t.ask1Price() != null && t.bid1Price() != null && t.ask1Price().compareTo(t.bid1Price()) > 0
                ? t.ask1Price().subtract(t.bid1Price()).divide(BigDecimal.TWO, MathContext.DECIMAL64) : tick;
        BigDecimal drift = step.multiply(move);
        BigDecimal moved = mid.multiply(BigDecimal.ONE.add(drift));
        BigDecimal low = anchor.multiply(BigDecimal.ONE.subtract(band)), high = anchor.multiply(BigDecimal.ONE.add(band));
        moved = moved.max(low).min(high).setScale(decimals, RoundingMode.HALF_EVEN);
        BigDecimal bid = moved.subtract(half).setScale(decimals, RoundingMode.DOWN).max(tick);
        BigDecimal ask = moved.add(half).setScale(decimals, RoundingMode.UP);
        if (ask.compareTo(bid) <= 0) ask = bid.add(tick);
        BigDecimal last = moved.max(tick);
        BigDecimal high24 = t.highPrice24h() == null || t.highPrice24h().signum() == 0 ? last : t.highPrice24h().max(last);
        BigDecimal low24 = t.lowPrice24h() == null || t.lowPrice24h().signum() == 0 ? last : t.lowPrice24h().min(last);
        // A futures ticker's mark and index follow the walk too: TP/SL triggers and PnL read the mark price.
        return new Ticker(t.category(), t.symbol(), last, t.openPrice24h(), high24, low24, ask, bid, t.ask1Size(), t.bid1Size(),
                t.price24hPcnt(), t.volume24h(), t.turnover24h(), t.indexPrice() == null ? null : last, t.markPrice() == null ? null : last,
                t.fundingRate(), t.openInterest(),
                t.deliveryStartTime(), t.deliveryTime(), t.deliveryStatus(), t.platformTurnover24h(), now);
    }

    @Override
    public void close() {
        if (scheduler == null) return;
        scheduler.shutdown(); // a step in a transaction finishes; interrupting it inside JDBC could break the connection
        try {
            if (!scheduler.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS)) scheduler.shutdownNow();
        } catch (InterruptedException e) {
            scheduler.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
