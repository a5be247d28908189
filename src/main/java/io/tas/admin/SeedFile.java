package io.tas.admin;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tas.account.AccountEnums.*;
import io.tas.spot.RecordInputs.FillInput;
import io.tas.spot.RecordInputs.Generate;
import io.tas.spot.RecordInputs.WithdrawalInput;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import java.math.BigDecimal;
import java.util.List;

/**
 * A whole scenario in one YAML or JSON document: accounts (with their sub-accounts, settings and API
 * keys) and tickers. The admin API's create calls take the same pieces. Absent fields get the defaults
 * a new account on the platform would have.
 */
public record SeedFile(List<SeedInstrument> instruments, List<SeedTicker> tickers, List<SeedLoanTerms> loanTerms,
                       List<SeedAccount> accounts) {
    /**
     * YAML is a superset of JSON, so one mapper reads both. SnakeYAML stops at 3 MB by default; a seed is the
     * operator's own file and may hold many thousand balances, so it may be up to 256 MB.
     */
    public static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder().loaderOptions(seedLoaderOptions()).build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .registerModule(plainText());

    /** The admin API's JSON: as the API's, and every text plain (see plainText). */
    public static final ObjectMapper JSON = io.tas.http.Json.MAPPER.copy().registerModule(plainText());

    /**
     * Texts of admin input (names, refs, notes, keys) carry no control characters: PostgreSQL refuses U+0000 in a
     * text column (a 500, not a 400), and line breaks in a ref or a name would forge log lines. A text with one is
     * refused while parsing, as "Parameter {field} error" (40020).
     */
    private static com.fasterxml.jackson.databind.Module plainText() {
        var module = new com.fasterxml.jackson.databind.module.SimpleModule("plain-text");
        module.addDeserializer(String.class, new com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer<String>(String.class) {
            @Override
            public String deserialize(com.fasterxml.jackson.core.JsonParser p, com.fasterxml.jackson.databind.DeserializationContext ctxt)
                    throws IOException {
                String s = com.fasterxml.jackson.databind.deser.std.StringDeserializer.instance.deserialize(p, ctxt);
                if (s != null && s.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                    throw ctxt.weirdStringException(s, String.class, "control characters are not allowed");
                }
                return s;
            }
        });
        return module;
    }

    private static org.yaml.snakeyaml.LoaderOptions seedLoaderOptions() {
        var options = new org.yaml.snakeyaml.LoaderOptions();
        options.setCodePointLimit(256 * 1024 * 1024);
        return options;
    }

    /** "demo" is the bundled scenario; anything else is a path to a YAML or JSON file. */
    public static SeedFile load(String nameOrPath) throws IOException {
        if ("demo".equals(nameOrPath)) {
            try (InputStream in = SeedFile.class.getResourceAsStream("/seeds/demo.yaml")) {
                return YAML.readValue(in, SeedFile.class);
            }
        }
        return YAML.readValue(Files.readAllBytes(Path.of(nameOrPath)), SeedFile.class);
    }

    public List<SeedAccount> accounts() { return accounts == null ? List.of() : accounts; }
    public List<SeedTicker> tickers() { return tickers == null ? List.of() : tickers; }
    public List<SeedInstrument> instruments() { return instruments == null ? List.of() : instruments; }
    public List<SeedLoanTerms> loanTerms() { return loanTerms == null ? List.of() : loanTerms; }

    /** §2.2 / §2.3 / §2.13 fields of one account. */
    public record SeedAccount(Long uid, String username, AccountKind accountMode, AccountType type,
                              AccountStatus status, String note, String inviterId, String channelCode,
                              String channel, Boolean realityAllowed, Long createdTime, SeedSettings settings,
                              List<SeedAccount> subAccounts, List<SeedKey> apiKeys, List<SeedBalance> balances,
                              List<SeedPosition> positions,
                              List<io.tas.position.PositionHistory.HistoryRecord> historyPositions,
                              List<io.tas.position.PositionHistory.Series> historyPositionSeries,
                              List<io.tas.strategy.StrategyInput> strategyOrders,
                              io.tas.copytrade.ProfitSummaryInput profitSummary,
                              List<FillInput> fills, List<WithdrawalInput> withdrawals, Generate generate,
                              List<io.tas.spot.RecordInputs.DepositInput> deposits) {
        /** An account without issue 9's records (the fields before they existed). */
        public SeedAccount(Long uid, String username, AccountKind accountMode, AccountType type, AccountStatus status, String note,
                           String inviterId, String channelCode, String channel, Boolean realityAllowed, Long createdTime,
                           SeedSettings settings, List<SeedAccount> subAccounts, List<SeedKey> apiKeys, List<SeedBalance> balances,
                           List<SeedPosition> positions) {
            this(uid, username, accountMode, type, status, note, inviterId, channelCode, channel, realityAllowed, createdTime,
                    settings, subAccounts, apiKeys, balances, positions, null, null, null, null, null, null, null, null);
        }

        public List<SeedAccount> subAccounts() { return subAccounts == null ? List.of() : subAccounts; }
        /** Fills and withdrawal records (§2.17, §2.18 for a classic account; beyond-spec shapes §9, §11 for a unified one). */
        public List<FillInput> fills() { return fills == null ? List.of() : fills; }
        public List<WithdrawalInput> withdrawals() { return withdrawals == null ? List.of() : withdrawals; }
        /** Deposit records (beyond-spec shapes §10; unified accounts only), as the admin batch call takes them. */
        public List<io.tas.spot.RecordInputs.DepositInput> deposits() { return deposits == null ? List.of() : deposits; }
        public List<SeedKey> apiKeys() { return apiKeys == null ? List.of() : apiKeys; }
        public List<SeedBalance> balances() { return balances == null ? List.of() : balances; }
        public List<SeedPosition> positions() { return positions == null ? List.of() : positions; }
        /** Closed positions (history) as a matching engine reports them; uid is the account's. */
        public List<io.tas.position.PositionHistory.HistoryRecord> historyPositions() { return historyPositions == null ? List.of() : historyPositions; }
        /** Generated closed positions, timed relative to the seed's time (PositionHistory.Series). */
        public List<io.tas.position.PositionHistory.Series> historyPositionSeries() { return historyPositionSeries == null ? List.of() : historyPositionSeries; }
        public List<io.tas.strategy.StrategyInput> strategyOrders() { return strategyOrders == null ? List.of() : strategyOrders; }
    }

    /**
     * A spot/margin pair or a contract; contracts need marginCoin, maxLeverage and mmrTiers. bookLevels, bookStepBps,
     * bookLevelSize: its synthetic book (D155), the engine's default where absent; makerFeeRate, takerFeeRate: its own
     * fee rates (D222), its kind's default where absent.
     */
    public record SeedInstrument(String category, String symbol, String baseCoin, String quoteCoin, String marginCoin,
                                 BigDecimal maxLeverage, Boolean reality, List<SeedTier> mmrTiers, Integer bookLevels,
                                 BigDecimal bookStepBps, BigDecimal bookLevelSize, BigDecimal makerFeeRate,
                                 BigDecimal takerFeeRate) {}

    public record SeedTier(BigDecimal maxNotional, BigDecimal mmr) {}

    /** Borrowing terms of a coin. */
    public record SeedLoanTerms(String coin, BigDecimal interestFreeAmount, BigDecimal hourlyRate) {}

    /** A starting balance: deposited into account (spot, unified, otc); debt is borrowed on top (unified). */
    public record SeedBalance(String account, String coin, BigDecimal available, BigDecimal debt) {}

    /** An open position as a matching engine would report its opening fill. uid and ref (optional, D120) only for the admin API. */
    public record SeedPosition(Long uid, String category, String symbol, String holdSide, MarginMode marginMode,
                               BigDecimal leverage, BigDecimal size, BigDecimal price, BigDecimal fee, String ref) {}

    /** An admin ledger operation: deposit (amount > 0), adjustment (signed), borrow/repay (signed); ref makes it idempotent. */
    public record LedgerOp(Long uid, String account, String coin, BigDecimal amount, String ref) {}

    /** A fill on an open position: size > 0 adds, size < 0 reduces; ref (optional) makes it idempotent (D120). */
    public record FillSpec(BigDecimal size, BigDecimal price, BigDecimal fee, String ref) {}

    /** §2.3 */
    public record SeedSettings(AccountMode accountMode, AccountLevel accountLevel, AssetMode assetMode,
                               HoldMode holdMode, StpMode stpMode, DeltaSwitch deltaSwitch, RepayMode repayMode,
                               Deduct deduct, List<SeedSymbolConfig> symbolConfigList, List<SeedCoinConfig> coinConfigList) {}

    /** leverage sets both sides; longLeverage / shortLeverage (isolated hedge, §4.1.2) win over it. */
    public record SeedSymbolConfig(String category, String symbol, MarginMode marginMode, BigDecimal leverage,
                                   BigDecimal longLeverage, BigDecimal shortLeverage) {}

    public record SeedCoinConfig(String coin, BigDecimal leverage) {}

    /** An API key. accessKey/secret may be fixed (demo credentials); passphrase is required. */
    public record SeedKey(Long uid, String accessKey, String secret, String passphrase, String label, String permType,
                          List<String> permissions, List<String> ips) {}

    /** §2.20; omitted numbers are 0, omitted futures-only fields stay empty. */
    public record SeedTicker(String category, String symbol, BigDecimal lastPrice, BigDecimal openPrice24h,
                             BigDecimal highPrice24h, BigDecimal lowPrice24h, BigDecimal ask1Price, BigDecimal bid1Price,
                             BigDecimal ask1Size, BigDecimal bid1Size, BigDecimal price24hPcnt, BigDecimal volume24h,
                             BigDecimal turnover24h, BigDecimal indexPrice, BigDecimal markPrice, BigDecimal fundingRate,
                             BigDecimal openInterest, Long deliveryStartTime, Long deliveryTime, String deliveryStatus,
                             BigDecimal platformTurnover24h, Long ts) {}
}
