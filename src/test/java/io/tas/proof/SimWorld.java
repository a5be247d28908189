package io.tas.proof;

import io.tas.support.Credentials;

import java.util.List;

/**
 * The small fixed world every simulated seed starts from (after POST /admin/v1/reset): two unified main accounts, one
 * with a unified sub-account, and a classic account; fixed keys (so signatures, and so the transcript, are the same on
 * every run); the Reality pair AAPLXUSDT; dust coins for small-asset conversion; USDT and ETH loan terms; three contracts.
 */
final class SimWorld {
    private SimWorld() {}

    /** One account of the world: its UID, whether it is unified, its parent (0: a main account), its key. */
    record Acct(String name, long uid, boolean unified, long parent, Credentials key) {
        boolean isMain() { return parent == 0; }
    }

    static final Acct A = new Acct("A", 3000000001L, true, 0, key(1));
    static final Acct A1 = new Acct("A1", 3000000002L, true, A.uid, key(2));
    static final Acct B = new Acct("B", 3000000003L, true, 0, key(3));
    static final Acct C = new Acct("C", 3000000004L, false, 0, key(4));
    static final List<Acct> ALL = List.of(A, A1, B, C);
    static final List<Acct> UNIFIED = List.of(A, A1, B);

    /** A UID no account of the world has (adjust-account-mode targetUid, admin calls on a stranger). */
    static final long STRANGER = 3999999999L;

    static final String REALITY = "AAPLXUSDT";
    /** The spot pair the simulation trades through the matching engine (issue 25). */
    static final String ENGINE_SPOT = "ETHUSDT";

    /** Contracts: category, symbol, maximum leverage. */
    record Contract(String category, String symbol, int maxLeverage) {}

    static final List<Contract> CONTRACTS = List.of(new Contract("USDT-FUTURES", "BTCUSDT", 125),
            new Contract("USDT-FUTURES", "ETHUSDT", 100), new Contract("COIN-FUTURES", "BTCUSD", 125));

    private static Credentials key(int n) {
        return new Credentials("bg_sim" + "0".repeat(25) + n, "sim-secret-" + "0".repeat(24) + n, "SimPass" + n);
    }

    /** Every world key may read the copy-trading profit summary (§5 copy_futures_order), which the simulation reads back. */
    private static String keyJson(Credentials c) {
        return "[{\"accessKey\":\"" + c.key() + "\",\"secret\":\"" + c.secret() + "\",\"passphrase\":\"" + c.passphrase()
                + "\",\"label\":\"sim\",\"permType\":\"read-and-write\",\"permissions\":[\"uta_mgt\",\"uta_trade\",\"copy_futures_order\"]}]";
    }

    /** The seed document (POST /admin/v1/seed), JSON. */
    static String seed() {
        return """
                {"instruments": [
                  {"category":"SPOT","symbol":"BTCUSDT","baseCoin":"BTC","quoteCoin":"USDT"},
                  {"category":"SPOT","symbol":"ETHUSDT","baseCoin":"ETH","quoteCoin":"USDT"},
                  {"category":"SPOT","symbol":"BGBUSDT","baseCoin":"BGB","quoteCoin":"USDT"},
                  {"category":"SPOT","symbol":"DOGEUSDT","baseCoin":"DOGE","quoteCoin":"USDT"},
                  {"category":"MARGIN","symbol":"BTCUSDT","baseCoin":"BTC","quoteCoin":"USDT"},
                  {"category":"SPOT","symbol":"AAPLXUSDT","baseCoin":"AAPLX","quoteCoin":"USDT","reality":true},
                  {"category":"USDT-FUTURES","symbol":"BTCUSDT","baseCoin":"BTC","quoteCoin":"USDT","marginCoin":"USDT","maxLeverage":125,
                   "mmrTiers":[{"maxNotional":50000,"mmr":"0.004"},{"maxNotional":5000000,"mmr":"0.01"}]},
                  {"category":"USDT-FUTURES","symbol":"ETHUSDT","baseCoin":"ETH","quoteCoin":"USDT","marginCoin":"USDT","maxLeverage":100,
                   "mmrTiers":[{"maxNotional":50000,"mmr":"0.005"},{"maxNotional":1000000,"mmr":"0.01"}]},
                  {"category":"COIN-FUTURES","symbol":"BTCUSD","baseCoin":"BTC","quoteCoin":"USD","marginCoin":"BTC","maxLeverage":125,
                   "mmrTiers":[{"maxNotional":100000,"mmr":"0.005"},{"maxNotional":1000000,"mmr":"0.01"}]}],
                 "tickers": [
                  {"category":"SPOT","symbol":"BTCUSDT","lastPrice":"95000","ask1Price":"95010","bid1Price":"94990","ask1Size":"5","bid1Size":"5"},
                  {"category":"SPOT","symbol":"ETHUSDT","lastPrice":"3500","ask1Price":"3501","bid1Price":"3499","ask1Size":"50","bid1Size":"50"},
                  {"category":"SPOT","symbol":"BGBUSDT","lastPrice":"6.4","ask1Price":"6.41","bid1Price":"6.39","ask1Size":"1000","bid1Size":"1000"},
                  {"category":"SPOT","symbol":"DOGEUSDT","lastPrice":"0.38","ask1Price":"0.381","bid1Price":"0.379","ask1Size":"10000","bid1Size":"10000"},
                  {"category":"SPOT","symbol":"AAPLXUSDT","lastPrice":"200.25","ask1Price":"200.5","bid1Price":"200.25","ask1Size":"100","bid1Size":"100"},
                  {"category":"USDT-FUTURES","symbol":"BTCUSDT","lastPrice":"95000","markPrice":"95000","indexPrice":"95000"},
                  {"category":"USDT-FUTURES","symbol":"ETHUSDT","lastPrice":"3500","markPrice":"3500","indexPrice":"3500"},
                  {"category":"COIN-FUTURES","symbol":"BTCUSD","lastPrice":"95000","markPrice":"95000","indexPrice":"95000"}],
                 "loanTerms": [
                  {"coin":"USDT","interestFreeAmount":"500","hourlyRate":"0.0000057"},
                  {"coin":"ETH","interestFreeAmount":"0.1","hourlyRate":"0.0000034"}],
                 "accounts": [
                  {"uid":%d,"username":"sim-a","accountMode":"UNIFIED","realityAllowed":true,"createdTime":1735689600000,
                   "settings":{"holdMode":"one_way_mode","symbolConfigList":[{"category":"USDT-FUTURES","symbol":"BTCUSDT","marginMode":"isolated","leverage":10}]},
                   "apiKeys":%s,
                   "balances":[{"account":"unified","coin":"USDT","available":"20000","debt":"1000"},
                     {"account":"unified","coin":"BTC","available":"0.5"},{"account":"unified","coin":"ETH","available":"2"},
                     {"account":"unified","coin":"BGB","available":"100"},{"account":"unified","coin":"DOGE","available":"10"},
                     {"account":"spot","coin":"USDT","available":"300"}],
                   "subAccounts":[{"uid":%d,"username":"sim-a1","accountMode":"UNIFIED","createdTime":1735689600000,"apiKeys":%s,
                     "settings":{"holdMode":"hedge_mode","symbolConfigList":[{"category":"USDT-FUTURES","symbol":"ETHUSDT","marginMode":"isolated","longLeverage":20,"shortLeverage":5}]},
                     "balances":[{"account":"unified","coin":"USDT","available":"5000"},{"account":"unified","coin":"DOGE","available":"12"}]}]},
                  {"uid":%d,"username":"sim-b","accountMode":"UNIFIED","realityAllowed":true,"createdTime":1735689600000,"apiKeys":%s,
                   "settings":{"symbolConfigList":[{"category":"COIN-FUTURES","symbol":"BTCUSD","marginMode":"isolated","leverage":5}]},
                   "balances":[{"account":"unified","coin":"USDT","available":"8000"},{"account":"unified","coin":"AAPLX","available":"20"},
                     {"account":"unified","coin":"BGB","available":"5"},{"account":"unified","coin":"BTC","available":"0.05"}]},
                  {"uid":%d,"username":"sim-c","accountMode":"CLASSIC","createdTime":1735689600000,"apiKeys":%s,
                   "balances":[{"account":"spot","coin":"USDT","available":"20000"},{"account":"spot","coin":"ETH","available":"3"},
                     {"account":"unified","coin":"USDT","available":"3000"},{"account":"unified","coin":"BTC","available":"0.02"}]}]}
                """.formatted(A.uid, keyJson(A.key), A1.uid, keyJson(A1.key), B.uid, keyJson(B.key), C.uid, keyJson(C.key));
    }
}
