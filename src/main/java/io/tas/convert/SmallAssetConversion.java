package io.tas.convert;

import io.tas.common.TimeWindow;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.market.PriceService;
import io.tas.store.Database;
import io.tas.store.IdGenerator;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.*;

import static io.tas.ledger.Ledger.move;

/**
 * §4.2 small-asset conversion of the unified account into the platform token (docs/formulas.md):
 * gross = floor8(available x coinPrice / tokenPrice), fee = floor8(gross x feeRate), received = gross - fee.
 */
public final class SmallAssetConversion {
    static final int SCALE = 8;
    static final int MAX_COINS = 50;

    private final Database db;
    private final Clock clock;
    private final IdGenerator ids;
    private final Ledger ledger;
    private final PriceService prices;
    private final ConvertConfig config;
    private final ConvertStore store = new ConvertStore();

    public SmallAssetConversion(Database db, Clock clock, IdGenerator ids, Ledger ledger, PriceService prices, ConvertConfig config) {
        this.db = db;
        this.clock = clock;
        this.ids = ids;
        this.ledger = ledger;
        this.prices = prices;
        this.config = config;
    }

    public ConvertConfig config() { return config; }

    /** §2.9 one convertible coin with its estimate. */
    public record SmallAsset(String coin, BigDecimal available, BigDecimal estimatedAmount, BigDecimal fee, BigDecimal coinPrice, BigDecimal tokenPrice) {}

    /**
     * §2.9: unified-account coins worth less than the threshold, never the token itself. Without a price of the
     * token nothing can be estimated (40098); a coin without a price is left out: it cannot be valued (D20).
     */
    public List<SmallAsset> list(long uid) {
        BigDecimal tokenPrice = prices.requireUsdtPrice(config.platformToken());
        List<SmallAsset> out = new ArrayList<>();
        for (Balance b : ledger.balances(uid)) {
            if (b.key().account() != AccountType.unified) continue;
            estimate(b, prices.usdtPrice(b.key().coin()), tokenPrice).ifPresent(out::add);
        }
        return out;
    }

    /** The estimate of one balance at the given prices (no price: not a small asset anyone can value). */
    private Optional<SmallAsset> estimate(Balance b, Optional<BigDecimal> price, BigDecimal tokenPrice) {
        String coin = b.key().coin();
        if (coin.equals(config.platformToken()) || b.available().signum() <= 0) return Optional.empty();
        if (price.isEmpty()) return Optional.empty();
        if (b.available().multiply(price.get()).compareTo(config.thresholdUsdt()) >= 0) return Optional.empty();
        BigDecimal gross = floor(b.available().multiply(price.get()).divide(tokenPrice, java.math.MathContext.DECIMAL128));
        BigDecimal fee = floor(gross.multiply(config.feeRate()));
        return Optional.of(new SmallAsset(coin, b.available(), gross.subtract(fee), fee, price.get(), tokenPrice));
    }

    /** §2.11 the result of a trade. */
    public record Trade(List<String> fromCoins, String toCoin, long orderId) {}

    /** Converts every listed coin, all or nothing: one that does not qualify rejects the trade and changes nothing. */
    public Trade trade(long uid, List<String> fromCoins) {
        if (fromCoins.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "fromCoinList");
        if (fromCoins.size() > MAX_COINS || new HashSet<>(fromCoins).size() != fromCoins.size()
                || !fromCoins.stream().allMatch(io.tas.common.Inputs::isCoin)) {
            throw new ApiException(ErrorCode.PARAM_ERROR, "fromCoinList");
        }
        String token = config.platformToken();
        BigDecimal tokenPrice = prices.requireUsdtPrice(token);
        // Prices are read here, before the ledger change: its decision runs without SQL (a price reload is SQL).
        Map<String, BigDecimal> coinPrices = new HashMap<>();
        for (String coin : fromCoins) {
            if (coin.equals(token)) throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, coin + " is the target coin");
            coinPrices.put(coin, prices.usdtPrice(coin).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, coin)));
        }
        BalanceKey tokenKey = new BalanceKey(uid, AccountType.unified, token);
        List<BalanceKey> keys = new ArrayList<>();
        keys.add(tokenKey);
        fromCoins.forEach(c -> keys.add(new BalanceKey(uid, AccountType.unified, c)));
        return ledger.submit(keys, rows -> {
            // A v3 row: the account must still be unified under its lock, not only in the cache the guard read (D141).
            if (!rows.unified(uid)) throw new ApiException(ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API);
            long orderId = ids.next();
            long now = clock.millis();
            List<Movement> moves = new ArrayList<>();
            List<ConvertOrder> orders = new ArrayList<>();
            for (String coin : fromCoins) {
                Balance b = rows.get(new BalanceKey(uid, AccountType.unified, coin));
                // Decided under the lock: a concurrent trade may have converted it already.
                SmallAsset a = estimate(b, Optional.of(coinPrices.get(coin)), tokenPrice).orElseThrow(() ->
                        new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, coin + " is not a small asset"));
                BigDecimal gross = a.estimatedAmount().add(a.fee());
                moves.add(move(b.key(), Field.available, b.available().negate(), Counter.conversion));
                moves.add(move(tokenKey, Field.available, gross, Counter.conversion));
                if (a.fee().signum() != 0) moves.add(move(tokenKey, Field.available, a.fee().negate(), Counter.fee));
                orders.add(new ConvertOrder(orderId, uid, coin, b.available(), a.coinPrice(), token,
                        a.estimatedAmount(), tokenPrice, a.fee(), token, "success", now));
            }
            rows.post("convert", null, uid, moves, store.records(orders));
            return new Trade(List.copyOf(fromCoins), token, orderId);
        });
    }

    /** §2.10 history query; the window rules of §4.2 are TimeWindow.SMALL_ASSETS_HISTORY's. */
    public record HistoryQuery(Long orderId, Long startTime, Long endTime, int limit, Long cursor) {}

    public record HistoryPage(List<ConvertOrder> list, String cursor) {}

    public HistoryPage history(long uid, HistoryQuery q) {
        TimeWindow.Range w = TimeWindow.SMALL_ASSETS_HISTORY.resolve(q.startTime(), q.endTime(), clock.millis());
        List<ConvertOrder> list = db.read(dsl -> store.page(dsl, uid, q.orderId(), w.from(), w.to(), q.cursor(), q.limit()));
        String cursor = list.isEmpty() ? "" : Long.toString(list.getLast().orderId());
        return new HistoryPage(list, cursor);
    }

    static BigDecimal floor(BigDecimal v) { return v.setScale(SCALE, RoundingMode.DOWN); }
}
