package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public market metadata ccxt's loadMarkets reads (beyond-spec shapes §2-6): served unauthenticated from the
 * demo registry, every field with the platform's JSON type, limited per IP.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class MetadataApiTest {
    @Parameter Databases.Kind kind;
    TestServer server;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
    }

    private Reply get(String target) {
        return ApiClient.raw(server.baseUrl() + target, "GET", "");
    }

    private JsonNode ok(String target) {
        Reply r = get(target);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(r.code()).as(r.raw()).isEqualTo("00000");
        assertThat(r.msg()).isEqualTo("success");
        assertThat(r.data().isArray()).as(target + " data is an array").isTrue();
        return r.data();
    }


    private static List<String> symbols(JsonNode data) {
        List<String> out = new ArrayList<>();
        data.forEach(n -> out.add(n.get("symbol").asText()));
        return out;
    }

    /** Every field is a string except the named ones. */
    private static void allStringsExcept(JsonNode obj, String... except) {
        List<String> skip = List.of(except);
        obj.properties().forEach(e -> {
            if (!skip.contains(e.getKey())) assertThat(e.getValue().isTextual()).as(e.getKey() + " is a string: " + e.getValue()).isTrue();
        });
    }

    @Test
    void spotSymbolsAreTheRegistrySpotPairs() {
        JsonNode d = ok("/api/v2/spot/public/symbols");
        assertThat(symbols(d)).containsExactly("AAPLXUSDT", "BGBUSDT", "BTCUSDT", "DOGEUSDT", "ETHUSDT", "PEPEUSDT", "USDCUSDT", "XRPUSDT"); // AAPLXUSDT: the demo Reality pair (§4.7)
        for (JsonNode n : d) {
            allStringsExcept(n);
            assertThat(Replies.names(n)).contains("symbol", "baseCoin", "quoteCoin", "minTradeAmount", "maxTradeAmount", "takerFeeRate",
                    "makerFeeRate", "pricePrecision", "quantityPrecision", "quotePrecision", "minTradeUSDT", "status")
                    .doesNotContain("symbolType", "isBorrowable");
            assertThat(n.get("status").asText()).isEqualTo("online");
            assertThat(n.get("quoteCoin").asText()).isEqualTo("USDT");
            assertThat(n.get("pricePrecision").asText()).matches("\\d+");
            assertThat(n.get("quantityPrecision").asText()).isEqualTo("4");
        }
        JsonNode btc = d.get(2);
        assertThat(btc.get("baseCoin").asText()).isEqualTo("BTC");
        assertThat(btc.get("pricePrecision").asText()).isEqualTo("1"); // ticker 97250.5 / 97250.6
        assertThat(d.get(5).get("pricePrecision").asText()).isEqualTo("7"); // PEPE 0.0000182
        assertThat(d.get(1).get("pricePrecision").asText()).isEqualTo("4"); // BGB 6.4321
        assertThat(btc.get("takerFeeRate").asText()).isEqualTo("0.001");
        // symbol filter, case-insensitive; an unknown pair is 25100 like the tickers row
        assertThat(symbols(ok("/api/v2/spot/public/symbols?symbol=ethusdt"))).containsExactly("ETHUSDT");
        assertThat(get("/api/v2/spot/public/symbols?symbol=NOPEUSDT").code()).isEqualTo("25100");
    }

    @Test
    void coinsCarryStringFlagsAndOneNetworkEach() {
        JsonNode d = ok("/api/v2/spot/public/coins");
        List<String> coins = new ArrayList<>();
        d.forEach(n -> coins.add(n.get("coin").asText()));
        // base, quote and margin coins of the registry; COIN-FUTURES' USD quote is no coin
        assertThat(coins).containsExactly("AAPLX", "BGB", "BTC", "DOGE", "ETH", "PEPE", "USDC", "USDT", "XRP");
        for (JsonNode n : d) {
            allStringsExcept(n, "chains");
            assertThat(n.get("transfer").asText()).isEqualTo("true");
            assertThat(n.get("chains").isArray()).isTrue();
            assertThat(n.get("chains")).hasSize(1);
            JsonNode chain = n.get("chains").get(0);
            allStringsExcept(chain);
            assertThat(chain.get("chain").asText()).isEqualTo(n.get("coin").asText());
            // ccxt compares with the strings: a JSON true would read as closed
            assertThat(chain.get("withdrawable").isTextual()).isTrue();
            assertThat(chain.get("withdrawable").asText()).isEqualTo("true");
            assertThat(chain.get("rechargeable").asText()).isEqualTo("true");
            assertThat(chain.get("needTag").asText()).isEqualTo("false");
            assertThat(Replies.names(chain)).contains("withdrawFee", "minDepositAmount", "minWithdrawAmount", "withdrawMinScale");
            assertThat(chain.get("withdrawMinScale").asText()).matches("\\d+");
        }
        assertThat(d.get(0).get("coinId").asText()).isEqualTo("1");
        JsonNode one = ok("/api/v2/spot/public/coins?coin=btc");
        assertThat(one).hasSize(1);
        assertThat(one.get(0).get("coin").asText()).isEqualTo("BTC");
        assertThat(get("/api/v2/spot/public/coins?coin=NOPE").code()).isEqualTo("40020");
    }

    @Test
    void contractsArePerProductTypeAndDemoTypesAreEmpty() {
        JsonNode usdt = ok("/api/v2/mix/market/contracts?productType=USDT-FUTURES");
        assertThat(symbols(usdt)).containsExactly("BTCUSDT", "ETHUSDT");
        for (JsonNode n : usdt) {
            allStringsExcept(n, "supportMarginCoins");
            assertThat(n.get("supportMarginCoins").isArray()).isTrue();
            assertThat(n.get("supportMarginCoins")).extracting(JsonNode::asText).containsExactly("USDT");
            assertThat(n.get("symbolType").asText()).isEqualTo("perpetual");
            assertThat(n.get("deliveryTime").asText()).isEmpty();
            assertThat(n.get("symbolStatus").asText()).isEqualTo("normal");
            assertThat(n.get("priceEndStep").asText()).isEqualTo("1");
            assertThat(n.get("sizeMultiplier").asText()).isEqualTo("0.0001");
            assertThat(n.get("volumePlace").asText()).isEqualTo("4");
            assertThat(n.get("pricePlace").asText()).matches("\\d+");
            assertThat(Replies.names(n)).contains("minTradeNum", "minTradeUSDT", "makerFeeRate", "takerFeeRate", "minLever", "maxLever", "launchTime");
        }
        assertThat(usdt.get(0).get("maxLever").asText()).isEqualTo("125");
        assertThat(usdt.get(1).get("maxLever").asText()).isEqualTo("100");
        assertThat(usdt.get(0).get("pricePlace").asText()).isEqualTo("1"); // 97260.1 / 97260.2
        // inverse: margined in the base coin; the productType is compared case-insensitively
        JsonNode coin = ok("/api/v2/mix/market/contracts?productType=coin-futures");
        assertThat(symbols(coin)).containsExactly("BTCUSD");
        assertThat(coin.get(0).get("supportMarginCoins")).extracting(JsonNode::asText).containsExactly("BTC");
        assertThat(coin.get(0).get("quoteCoin").asText()).isEqualTo("USD");
        assertThat(ok("/api/v2/mix/market/contracts?productType=USDC-FUTURES")).isEmpty();
        // ccxt asks for all six types on every classic load: the demo ones answer an empty list, not an error
        for (String demo : List.of("SUSDT-FUTURES", "SCOIN-FUTURES", "SUSDC-FUTURES", "susdt-futures")) {
            assertThat(ok("/api/v2/mix/market/contracts?productType=" + demo)).as(demo).isEmpty();
        }
        assertThat(symbols(ok("/api/v2/mix/market/contracts?productType=USDT-FUTURES&symbol=ETHUSDT"))).containsExactly("ETHUSDT");
        assertThat(get("/api/v2/mix/market/contracts?productType=USDT-FUTURES&symbol=BTCUSD").code()).isEqualTo("25100");
        assertThat(get("/api/v2/mix/market/contracts").code()).isEqualTo("40019");
        assertThat(get("/api/v2/mix/market/contracts?productType=SPOT").code()).isEqualTo("40020");
        assertThat(get("/api/v2/mix/market/contracts?productType=NOPE").code()).isEqualTo("40020");
    }

    @Test
    void instrumentsCarryTheirCategoryAndFuturesType() {
        JsonNode spot = ok("/api/v3/market/instruments?category=SPOT");
        assertThat(symbols(spot)).containsExactly("AAPLXUSDT", "BGBUSDT", "BTCUSDT", "DOGEUSDT", "ETHUSDT", "PEPEUSDT", "USDCUSDT", "XRPUSDT");
        assertThat(spot.get(0).get("isReality").asText()).isEqualTo("yes");
        assertThat(spot.get(1).get("isReality").asText()).isEqualTo("no");
        for (JsonNode n : spot) {
            allStringsExcept(n);
            assertThat(n.get("category").asText()).isEqualTo("SPOT");
            assertThat(n.has("type")).isFalse();
            assertThat(n.get("status").asText()).isEqualTo("online");
            assertThat(n.get("maxOrderQty").asText()).isEmpty(); // "" = no maximum ("0" would be a literal 0 in ccxt)
            assertThat(Replies.names(n)).contains("symbol", "baseCoin", "quoteCoin", "pricePrecision", "quantityPrecision",
                    "minOrderQty", "minOrderAmount", "symbolType", "launchTime");
        }
        assertThat(spot.get(2).get("pricePrecision").asText()).isEqualTo("1");
        for (String category : List.of("USDT-FUTURES", "COIN-FUTURES")) {
            JsonNode fut = ok("/api/v3/market/instruments?category=" + category);
            assertThat(fut).isNotEmpty();
            for (JsonNode n : fut) {
                allStringsExcept(n);
                assertThat(n.get("category").asText()).isEqualTo(category);
                assertThat(n.get("type").asText()).isEqualTo("perpetual");
                assertThat(n.get("symbolType").asText()).isEqualTo("crypto");
                assertThat(n.get("deliveryTime").asText()).isEmpty();
                assertThat(n.get("minLeverage").asText()).isEqualTo("1");
            }
        }
        JsonNode usdt = ok("/api/v3/market/instruments?category=usdt-futures&symbol=BTCUSDT");
        assertThat(symbols(usdt)).containsExactly("BTCUSDT");
        assertThat(usdt.get(0).get("maxLeverage").asText()).isEqualTo("125");
        assertThat(usdt.get(0).get("priceMultiplier").asText()).isEqualTo("0.1");
        assertThat(ok("/api/v3/market/instruments?category=USDC-FUTURES")).isEmpty();
        JsonNode margin = ok("/api/v3/market/instruments?category=MARGIN");
        assertThat(symbols(margin)).containsExactly("BTCUSDT");
        allStringsExcept(margin.get(0));
        assertThat(margin.get(0).get("isIsolatedBaseBorrowable").asText()).isEqualTo("YES");
        assertThat(margin.get(0).get("isIsolatedQuotedBorrowable").asText()).isEqualTo("YES");
        assertThat(get("/api/v3/market/instruments").code()).isEqualTo("40019");
        assertThat(get("/api/v3/market/instruments?category=NOPE").code()).isEqualTo("40020");
        assertThat(get("/api/v3/market/instruments?category=SPOT&symbol=BTCUSD").code()).isEqualTo("25100");
    }

    @Test
    void marginCurrenciesCarryJsonBooleanFlags() {
        JsonNode d = ok("/api/v2/margin/currencies");
        assertThat(symbols(d)).containsExactly("BTCUSDT");
        JsonNode n = d.get(0);
        allStringsExcept(n, "isBorrowable", "isIsolatedBaseBorrowable", "isIsolatedQuoteBorrowable", "isCrossBorrowable");
        // ccxt picks the margin list by a JSON-boolean isBorrowable in its first row
        for (String flag : List.of("isBorrowable", "isIsolatedBaseBorrowable", "isIsolatedQuoteBorrowable", "isCrossBorrowable")) {
            assertThat(n.get(flag).isBoolean()).as(flag).isTrue();
            assertThat(n.get(flag).asBoolean()).as(flag).isTrue();
        }
        assertThat(n.get("baseCoin").asText()).isEqualTo("BTC");
        assertThat(n.get("quoteCoin").asText()).isEqualTo("USDT");
        assertThat(Replies.names(n)).contains("maxCrossedLeverage", "maxIsolatedLeverage", "takerFeeRate", "makerFeeRate", "status");
    }

    @Test
    void signedCallsAreTolerated() {
        // bitget-api sends its auth headers on public rows when it has keys
        ApiClient signed = server.client(Credentials.MAIN_RW);
        assertThat(signed.get("/api/v2/spot/public/coins").code()).isEqualTo("00000");
        assertThat(signed.get("/api/v2/spot/public/symbols").code()).isEqualTo("00000");
    }

    @Test
    void eachRowIsLimitedPerIp() {
        for (String target : List.of("/api/v2/spot/public/symbols", "/api/v2/spot/public/coins",
                "/api/v2/mix/market/contracts?productType=USDT-FUTURES", "/api/v3/market/instruments?category=SPOT",
                "/api/v2/margin/currencies")) {
            int accepted = 0;
            for (int i = 0; i < 24; i++) {
                Reply r = get(target);
                if (r.code().equals("00000")) {
                    accepted++;
                } else {
                    assertThat(r.status()).as(r.raw()).isEqualTo(429);
                    assertThat(r.code()).isEqualTo("429");
                }
            }
            assertThat(accepted).as(target).isEqualTo(20); // 20/s/IP, a bucket per row
        }
        ServerPool.nextSecond(kind);
        assertThat(get("/api/v2/spot/public/coins").code()).isEqualTo("00000");
    }
}
