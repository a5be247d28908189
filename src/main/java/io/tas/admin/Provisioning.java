package io.tas.admin;

import io.tas.account.Account;
import io.tas.account.AccountEnums.*;
import io.tas.account.AccountService;
import io.tas.account.AccountSettings;
import io.tas.account.NewAccount;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.admin.SeedFile.SeedKey;
import io.tas.admin.SeedFile.SeedSettings;
import io.tas.admin.SeedFile.SeedTicker;
import io.tas.auth.ApiKey.PermType;
import io.tas.auth.ApiKeyService;
import io.tas.auth.ApiKeyService.CreatedKey;
import io.tas.auth.NewApiKey;
import io.tas.auth.Permission;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.Json;
import io.tas.market.Instrument;
import io.tas.market.MarketService;
import io.tas.market.Ticker;
import io.tas.ratelimit.RateLimiter;
import io.tas.reality.RealityService;
import io.tas.store.Database;
import io.tas.store.Tx;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tas.admin.AdminInputs.*;

/**
 * Accounts, API keys, tickers and the Reality allow-list as the admin API and seeds provision them, and the sandbox's
 * reset. Money, records and seeds have their own classes (MoneyAdmin, RecordsAdmin, SeedApplier); all of them call
 * the same services the API uses, never their tables.
 */
public final class Provisioning {
    private final Database db;
    private final Clock clock;
    private final AccountService accounts;
    private final ApiKeyService keys;
    private final MarketService market;
    private final RateLimiter limiter;
    private final RealityService reality;

    public Provisioning(Database db, Clock clock, AccountService accounts, ApiKeyService keys, MarketService market,
                        RateLimiter limiter, RealityService reality) {
        this.db = db;
        this.clock = clock;
        this.accounts = accounts;
        this.keys = keys;
        this.market = market;
        this.limiter = limiter;
        this.reality = reality;
    }

    public Account createAccount(SeedAccount a, Long parentUid) {
        NewAccount cmd = newAccount(a, parentUid);
        return accounts.create(cmd);
    }

    /** As createAccount, in a seed's transaction. */
    Account createAccount(Tx tx, SeedAccount a, Long parentUid) { return accounts.create(tx, newAccount(a, parentUid)); }

    private static NewAccount newAccount(SeedAccount a, Long parentUid) {
        if (a.username() == null || a.username().isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, "username");
        // Column widths of the account table (V1): a longer value is a 400 here, never a database error.
        maxLength("username", a.username(), 64);
        maxLength("note", a.note(), 255);
        maxLength("inviterId", a.inviterId(), 32);
        maxLength("channelCode", a.channelCode(), 32);
        maxLength("channel", a.channel(), 32);
        return new NewAccount(a.uid(), parentUid, a.username(),
                or(a.type(), io.tas.account.AccountEnums.AccountType.normal), or(a.accountMode(), AccountKind.UNIFIED), or(a.status(), AccountStatus.normal),
                or(a.note(), ""), or(a.inviterId(), ""), or(a.channelCode(), ""), or(a.channel(), ""),
                Boolean.TRUE.equals(a.realityAllowed()), a.createdTime(), settings(a.settings()));
    }

    public CreatedKey createKey(long uid, SeedKey k) { return keys.create(newKey(uid, k)); }

    /** As createKey, in a seed's transaction. */
    CreatedKey createKey(Tx tx, long uid, SeedKey k) { return keys.create(tx, newKey(uid, k)); }

    private static NewApiKey newKey(long uid, SeedKey k) {
        PermType permType = parse(() -> PermType.fromWire(or(k.permType(), "read-and-write")), "permType");
        List<String> names = k.permissions() == null ? List.of("uta_mgt", "uta_trade") : k.permissions();
        var perms = new LinkedHashSet<Permission>();
        for (String n : names) perms.add(parse(() -> Permission.fromWire(n), "permissions"));
        // Column widths of the api_key table (V1); the secret is stored encrypted (Base64 of nonce + secret + tag).
        maxLength("accessKey", k.accessKey(), 64);
        maxLength("label", k.label(), 64);
        maxLength("secret", k.secret(), 256);
        if (k.ips() != null) maxLength("ips", String.join(",", k.ips()), 1024);
        return new NewApiKey(uid, k.label(), permType, perms, k.ips() == null ? List.of() : k.ips(),
                k.accessKey(), k.secret(), k.passphrase());
    }

    /**
     * A ticker update in a transaction of its own. After its commit the market tells its listeners: the engine fills the
     * resting orders it crosses, Reality ones too (D155, D223), from the domain (MarketService.onTicker), not from here.
     */
    public Ticker putTicker(SeedTicker t) {
        Ticker ticker = ticker(t);
        market.putTicker(ticker);
        return ticker;
    }

    /** As putTicker, in a seed's transaction: a seed provisions, it does not trade, so nothing is matched. */
    Ticker putTicker(Tx tx, SeedTicker t) {
        Ticker ticker = ticker(t);
        market.putTicker(tx, ticker);
        return ticker;
    }

    private Ticker ticker(SeedTicker t) {
        if (t.category() == null || t.symbol() == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "category,symbol");
        Category c = parse(() -> Category.fromWire(t.category()), "category");
        symbol(t.symbol());
        if (t.lastPrice() != null && t.lastPrice().signum() < 0) throw new ApiException(ErrorCode.PARAM_ERROR, "lastPrice");
        checkAmounts("lastPrice", t.lastPrice(), "openPrice24h", t.openPrice24h(), "highPrice24h", t.highPrice24h(),
                "lowPrice24h", t.lowPrice24h(), "ask1Price", t.ask1Price(), "bid1Price", t.bid1Price(), "ask1Size", t.ask1Size(),
                "bid1Size", t.bid1Size(), "price24hPcnt", t.price24hPcnt(), "volume24h", t.volume24h(), "turnover24h", t.turnover24h(),
                "indexPrice", t.indexPrice(), "markPrice", t.markPrice(), "fundingRate", t.fundingRate(),
                "openInterest", t.openInterest(), "platformTurnover24h", t.platformTurnover24h());
        if (t.deliveryStatus() != null && t.deliveryStatus().length() > 32) throw new ApiException(ErrorCode.PARAM_ERROR, "deliveryStatus");
        return new Ticker(c, t.symbol(), zeroIfNull(t.lastPrice()), zeroIfNull(t.openPrice24h()), zeroIfNull(t.highPrice24h()),
                zeroIfNull(t.lowPrice24h()), zeroIfNull(t.ask1Price()), zeroIfNull(t.bid1Price()), zeroIfNull(t.ask1Size()),
                zeroIfNull(t.bid1Size()), zeroIfNull(t.price24hPcnt()), zeroIfNull(t.volume24h()), zeroIfNull(t.turnover24h()),
                futures(c, t.indexPrice()), futures(c, t.markPrice()), futures(c, t.fundingRate()), futures(c, t.openInterest()),
                t.deliveryStartTime(), t.deliveryTime(), t.deliveryStatus(), t.platformTurnover24h(),
                t.ts() != null ? t.ts() : clock.millis());
    }

    public Optional<Account> account(long uid) { return accounts.find(uid); }

    /** §4.7 allow-list: whether the account may use the Reality order rows. */
    public Account setRealityAllowed(long uid, Boolean allowed) {
        if (allowed == null) throw new ApiException(ErrorCode.PARAM_EMPTY, "allowed");
        requireAccount(uid);
        accounts.setRealityAllowed(uid, allowed);
        return accounts.find(uid).orElseThrow();
    }

    /** An account's Reality orders (engine orders, D223) as the admin API shows them, newest first (at most 100). */
    public List<Map<String, Object>> realityOrders(long uid) {
        requireAccount(uid);
        return reality.orders(uid).stream().map(o -> {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("orderId", Long.toString(o.orderId()));
            m.put("clientOid", o.clientOid() == null ? "" : o.clientOid());
            m.put("symbol", o.symbol());
            m.put("side", o.side());
            m.put("orderType", o.orderType());
            m.put("price", Json.plain(o.price()));
            m.put("qty", Json.plain(o.qty()));
            m.put("frozenCoin", o.frozenCoin());
            m.put("frozen", Json.plain(o.frozen()));
            m.put("filledQty", Json.plain(o.cumExecQty()));
            m.put("filledAmount", Json.plain(o.cumExecValue()));
            m.put("status", o.status());
            m.put("cTime", Long.toString(o.cTime()));
            m.put("uTime", Long.toString(o.uTime()));
            return m;
        }).toList();
    }

    void requireAccount(long uid) {
        if (accounts.find(uid).isEmpty()) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, uid);
    }

    /** The state hash over every account (StateHash): proof tests compare it around refused requests and restarts. */
    public io.tas.store.StateHash.Result stateHash() { return io.tas.store.StateHash.of(db); }

    /** Sandbox reset (SandboxControls.reset guards it): every table emptied, every cache and bucket dropped. */
    public void reset() {
        db.truncateAll();
        invalidateCaches();
        limiter.reset();
    }

    /** Drops every cache that may hold what a rolled-back seed read or wrote. */
    public void invalidateCaches() {
        market.invalidate();
        accounts.invalidateAll();
        keys.invalidateAll();
    }

    public boolean isEmpty() { return db.isEmpty(); }

    private static AccountSettings settings(SeedSettings s) {
        if (s == null) return null;
        AccountSettings d = AccountSettings.defaults(0);
        List<AccountSettings.SymbolConfig> symbols = s.symbolConfigList() == null ? List.of() : s.symbolConfigList().stream()
                .map(c -> new AccountSettings.SymbolConfig(parse(() -> Category.fromWire(c.category()), "category"),
                        symbol(c.symbol()), or(c.marginMode(), MarginMode.crossed),
                        Instrument.checkLeverage("longLeverage", or(c.longLeverage(), c.leverage())).setScale(2),
                        Instrument.checkLeverage("shortLeverage", or(c.shortLeverage(), c.leverage())).setScale(2))).toList();
        List<AccountSettings.CoinConfig> coins = s.coinConfigList() == null ? List.of() : s.coinConfigList().stream()
                .map(c -> new AccountSettings.CoinConfig(coin(c.coin()), Instrument.checkLeverage("leverage", c.leverage()).setScale(2))).toList();
        return new AccountSettings(0, or(s.accountMode(), d.accountMode()), or(s.accountLevel(), d.accountLevel()),
                or(s.assetMode(), d.assetMode()), or(s.holdMode(), d.holdMode()), or(s.stpMode(), d.stpMode()),
                or(s.deltaSwitch(), d.deltaSwitch()), or(s.repayMode(), d.repayMode()), or(s.deduct(), d.deduct()),
                symbols, coins);
    }

    /** §2.20: index, mark, funding and open interest are futures-only; spot leaves them empty. */
    private static BigDecimal futures(Category c, BigDecimal v) { return c.isFutures() ? zeroIfNull(v) : null; }
}
