package io.tas.conformance;

import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25: the real clients trade on the matching engine. conformance/ccxt-trading.mjs (ccxt 4.5.84) and
 * conformance/sdk-trading.mjs (bitget-api 3.2.3) each create their own instruments, tickers and funded unified accounts
 * through the admin API, then place, amend, cancel and read orders, fill a resting order by a ticker move, open and
 * close futures positions (one-way and hedge mode), and read the book, public trades, candles and funding rate; every
 * parsed figure is compared in the scripts with one computed by hand from the tickers they set. One server (H2, the
 * demo seed, rate limits on, the real clock) of its own: the new instruments would change the market lists that
 * CcxtConformanceTest counts. The lines below are the scripts' output of a passing run (their notes are the same on
 * every run: the run's coin name is printed as BASE).
 */
class TradingConformanceTest {
    private static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        NodeConformance.ensureInstalled();
        server = TestServer.start(Databases.Kind.H2, Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
    }

    private static NodeConformance.Result run(String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("node", script);
        NodeConformance.serverEnv(pb.environment(), server);
        long t0 = System.nanoTime();
        NodeConformance.Result r = NodeConformance.run(pb, 120);
        System.out.printf("%s(%s: %d ms)%n", r.output(), script, (System.nanoTime() - t0) / 1_000_000);
        return r;
    }

    @Test
    void ccxtTradesOnTheEngineWithHandComputedFigures() throws Exception {
        NodeConformance.Result r = run("ccxt-trading.mjs");
        assertThat(r.output()).contains(
                "ok loadMarkets trading (BASE/USDT, PBASE/USDT:USDT, uta=true)",
                "ok createOrder spot limit rests (clientOrderId) (USDT 9800.1/199.9)",
                "ok fetchOrder resting (open buy 2@99.95)",
                "ok fetchOrderBook (best 99.99/100.01, 5+5 levels)",
                "ok editOrder (3@99.9; USDT 9700.3/299.7)",
                "ok createOrder postOnly (crossing -> canceled, 99.5 -> open; USDT 9600.8/399.2)",
                "ok createOrder spot market sell (6 for 599.89, fee 0.59989 USDT; USDT 10200.09011/399.2; BASE 4/0)",
                "ok createMarketBuyOrderWithCost (1.4998 for 149.994998; USDT 10050.095112/399.2; BASE 5.4983002/0)",
                "ok fetchMyTrades (sell 5@99.99 fee -0.49995 USDT, sell 1@99.94 fee -0.09994 USDT, buy 1.4998@100.01 fee -0.0014998 BASE)",
                "ok fetchOpenOrders (",
                "ok cancelOrder (USDT 10349.795112/99.5)",
                "ok cancelOrders (2 cancelled; USDT 10449.295112/0; BASE 5.4983002/0)",
                "ok cancelAllOrders (2 cancelled; USDT 10449.295112/0)",
                "ok resting limit filled by a ticker move (maker) (1@99.95 maker; USDT 10349.345112/0; BASE 6.4973002/0)",
                "ok fetchClosedOrders (3 filled)",
                "ok fetchCanceledOrders (6 canceled)",
                "ok fetchTrades (",
                "ok fetchOHLCV (folded: O 100 H 100.01 L 99.9 C 99.95 V 8.4998)",
                "ok createOrder futures market (one-way) (USDT 9979.877988/20.002)",
                "ok fetchPositions after a futures fill (long 2@100.01 x10 upl -0.04)",
                "ok fetchFundingRate (0.000125 every 8h, next at the 8-hour boundary)",
                "ok createOrder reduceOnly (one-way), filled by a ticker move (2@110 maker, PnL 19.98; USDT 10019.815988/0)",
                "ok createOrder hedged (hedge_mode and back) (one_way_mode -> hedge_mode (long 1@110.6, short 1@110.5, both closed) -> one_way_mode; USDT 10019.350668/0)");
        assertThat(r.output()).containsPattern("(?m)^23 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }

    /** Issue 26: ccxt on a classic account trades spot and futures through the v2 rows; spot money moves on its spot balances. */
    @Test
    void ccxtTradesOnAClassicAccountWithHandComputedFigures() throws Exception {
        NodeConformance.Result r = run("ccxt-classic-trading.mjs");
        assertThat(r.output()).contains(
                "ok loadMarkets classic (BASE/USDT, PBASE/USDT:USDT, uta=false)",
                "ok fetchBalance spot (USDT 10000, BASE 10)",
                "ok createOrder spot limit rests (clientOrderId) (USDT 9800.1/199.9)",
                "ok fetchOrder resting (orderInfo array) (open buy 2@99.95)",
                "ok fetchOpenOrders (limit price from priceAvg) (1 open @99.95)",
                "ok fetchTicker and fetchOrderBook (v2 market rows) (last 100, best 99.99/100.01)",
                "ok editOrder (cancel-replace) (3@99.9; USDT 9700.3/299.7)",
                "ok createOrder spot market sell (6 for 599.89, fee 0.59989 USDT; USDT 10299.59011/299.7; BASE 4/0)",
                "ok createMarketBuyOrderWithCost (1.4998 for 149.994998; USDT 10149.595112/299.7; BASE 5.4983002/0)",
                "ok fetchMyTrades (v2 fills) (sell 1@99.94 fee 0.09994 USDT, sell 5@99.99 fee 0.49995 USDT, buy 1.4998@100.01 fee 0.0014998 BASE)",
                "ok fetchTrades and fetchOHLCV (v2 market rows) (3 trades, V 7.4998 H 100.01 L 99.94)",
                "ok createOrder postOnly crossing is cancelled (BASE 5.4983002/0)",
                "ok cancelOrder (USDT 10449.295112/0)",
                "ok cancelOrders (batch-cancel-order) (2 cancelled; USDT 10449.295112/0; BASE 5.4983002/0)",
                "ok cancelAllOrders (cancel-symbol-order) (all cancelled; USDT 10449.295112/0)",
                "ok resting limit filled by a ticker move (maker) (1@99.95 maker; USDT 10349.345112/0; BASE 6.4973002/0)",
                "ok fetchClosedOrders (history-orders) (3 filled)",
                "ok errors in the classic family (43012, 43001, fetchOrder unknown -> OrderNotFound; USDT 10349.345112/0)",
                "ok setMarginMode and setLeverage (v2) (crossed x20)",
                "ok createOrder futures market (one-way) (USDT 9989.878988/10.001)",
                "ok fetchPositions after a futures fill (long 2@100.01 x20 upl -0.04; swap USDT 9989.878988/9999.839988)",
                "ok createOrder reduceOnly (one-way), filled by a ticker move (2@110 maker, PnL 19.98; USDT 10019.815988/0)",
                "ok editOrder, cancelOrder, cancelOrders and cancelAllOrders (futures) (USDT 10019.815988/0)",
                "ok createOrder hedged (hedge_mode and back) (long 1@110.6 closed at 110.5; USDT 10019.583328/0)",
                "ok fetchClosedOrders (futures) (4 filled)",
                "ok errors in the classic futures family (40762, 40768, 40109; USDT 10019.583328/0)");
        assertThat(r.output()).containsPattern("(?m)^26 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }

    /** Issue 26: bitget-api's RestClientV2 trades spot and futures on classic accounts through the v2 rows. */
    @Test
    void bitgetApiTradesOnAClassicAccountWithHandComputedFigures() throws Exception {
        NodeConformance.Result r = run("sdk-classic-trading.mjs");
        assertThat(r.output()).contains(
                "ok v2 spot market rows (ticker, order book) (best 99.99/100.01, 3 levels a side)",
                "ok v2 spotSubmitOrder limit + getSpotOrder (USDT 9801/199)",
                "ok v2 spot market sell + fee detail (3 for 299.97, fee 0.29997; USDT 10100.67003/199)",
                "ok v2 getSpotOpenOrders, spotCancelOrder, getSpotHistoricOrders (cancelled, again 43001; USDT 10299.67003/0)",
                "ok v2 spotBatchCancelOrders and spotCancelSymbolOrder (1 cancelled, 1 refused (43001), symbol cleared; USDT 10299.67003/0)",
                "ok v2 getSpotAccountAssets (USDT 10299.67003/0, BASE 7/0)",
                "ok v2 futures leverage, margin mode and position mode (crossed x20, one_way_mode)",
                "ok v2 futuresSubmitOrder market + getFuturesOrder (USDT 9989.878988/10.001)",
                "ok v2 getFuturesAccountAssets (equity 9999.839988)",
                "ok v2 futures resting order, pending list, cancel (live -> canceled, again 40768)",
                "ok v2 futuresBatchCancelOrders (symbol-wide) and history (1 cancelled; USDT 9989.878988/10.001)",
                "ok v2 futuresBatchSubmitOrders, futuresModifyOrder, futuresCancelAllOrders (2 placed, 1 modified, 2 cancelled; USDT 9989.878988/10.001)",
                "ok v2 futuresSubmitTPSLOrder, triggered by the mark (closed 2@105.4; USDT 10010.533508/0)",
                "ok v2 futuresFlashClosePositions (closed, again 22002; USDT 10010.206908/0)",
                "ok v2 futures market rows (ticker, merge depth) (last 105.5, best 105.4/105.6)",
                "ok v2 errors: balance, unknown order (43012, 40762, 40109)");
        assertThat(r.output()).containsPattern("(?m)^16 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }

    @Test
    void bitgetApiTradesOnTheEngineWithHandComputedFigures() throws Exception {
        NodeConformance.Result r = run("sdk-trading.mjs");
        assertThat(r.output()).contains(
                "ok v3 getOrderBook (spot 3 levels a side, USDT-FUTURES 2)",
                "ok v3 submitNewOrder limit (clientOid) + getOrderInfo (USDT 9800.1/199.9)",
                "ok v3 modifyOrder (USDT 9700.3/299.7)",
                "ok v3 placeBatchOrders (3 placed, 1 refused (25244); USDT 9801.08002/398.7; BASE 7/1)",
                "ok v3 getUnfilledOrders (3 working)",
                "ok v3 cancelOrder (cancelled, again -> 25204; USDT 10100.78002/99)",
                "ok v3 cancelBatchOrders (1 cancelled, 1 -> 25204; BASE 8/0)",
                "ok v3 cancelAllOrders (USDT 10199.78002/0)",
                "ok v3 getHistoryOrders (4 finished, pages 3 + 1)",
                "ok v3 getFills (public trades) (sell 2@99.99)",
                "ok v3 getCandles (folded: O 100 H 100 L 99.99 C 99.99 V 2)",
                "ok v3 getCurrentFundingRate (-0.0002 every 8 h)",
                "ok v3 futures market order + closeAllPositions (short 3@99.99 closed at 100.01, PnL -0.06, again -> 25227; USDT 10199.36002/0)");
        assertThat(r.output()).containsPattern("(?m)^13 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }

    /**
     * Issue 27: bitget-api's WebsocketClientV3 and WebsocketClientV2 log in, subscribe and receive pushes after commit; a
     * disconnect by the operator is followed by the client's own reconnect, login and resubscribe (D186, D187).
     */
    @Test
    void bitgetApiStreamsWhatRestOrdersAndTickersChange() throws Exception {
        NodeConformance.Result r = run("sdk-streams.mjs");
        assertThat(r.output()).contains(
                "ok v3 ws login + account snapshot (USDT 1000)",
                "ok v3 ws order + account after a REST order (live; USDT 800/200)",
                "ok v3 ws public ticker on the same URL (last 99.4; the buy filled)",
                "ok v2 ws login + spot account snapshot (USDT 1000)",
                "ok v2 ws orders + account after a REST order (live; USDT 901/99)",
                "ok v2 ws a forced disconnect: reconnect, login, resubscribe, fresh snapshot (reconnected; USDT 901/99)");
        assertThat(r.output()).containsPattern("(?m)^6 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }

    /** Issue 27: ccxt.pro's watch methods on the unified streams (D186, D187). */
    @Test
    void ccxtProWatchesTheUnifiedStreams() throws Exception {
        NodeConformance.Result r = run("ccxt-streams.mjs");
        assertThat(r.output()).contains(
                "ok watchBalance (uta) (USDT 1000/1000)",
                "ok watchOrders + createOrder (open 2@100)",
                "ok watchOrderBook (books5) (bid 100x2, ask 100.01x5, 5 levels)",
                "ok watchTicker + watchMyTrades: a fill by a ticker move (last 99.4; the buy closed; maker 2@100, fee 0.002)",
                "ok watchOrderBook (books, incremental) (bid 99.3x5, ask 99.6x5, as REST)",
                "ok watchTrades + watchOHLCV (uta): a market buy (tape buy 1@99.6; candle C 99.6, V as computed)",
                "ok watchPositions (uta): a futures market buy (long 1@100.01 upl -0.02)");
        assertThat(r.output()).containsPattern("(?m)^7 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }

    /** Issue 27: ccxt.pro on a classic account, family auto-detected: the v2 channels (orders-algo too, D206), the incremental book's CRC-32 (D187). */
    @Test
    void ccxtProWatchesTheClassicStreams() throws Exception {
        NodeConformance.Result r = run("ccxt-classic-streams.mjs");
        assertThat(r.output()).contains(
                "ok watchBalance spot (classic) (USDT 1000, BASE 3)",
                "ok watchOrders + createOrder (spot) (open 2@100)",
                "ok watchOrderBook (incremental books, CRC-32 checked) (bid 100x2, 99.97x5; ask 100.03x5; as REST)",
                "ok watchTicker (classic) (bid 99.97 ask 100.03)",
                "ok watchMyTrades + watchTrades + watchOHLCV: a fill by a ticker move (maker 2@100, fee 0.002; tape sell 2@100; candle C 100 V 2)",
                "ok watchBalance spot after the fill (USDT 800; BASE 3.998/1)",
                "ok watchPositions + watchBalance swap: a futures market buy (long 1@100.01 upl -0.02; USDT 9989.938994/10.001/9999.919994)",
                "ok watchOrders trigger (orders-algo): a take-profit on the long (sell 1 at trigger 110, open)",
                "ok watchOrders (futures) after a close (closed 1@99.99)");
        assertThat(r.output()).containsPattern("(?m)^9 passed, 0 failed$");
        assertThat(r.exit()).as(r.output()).isZero();
    }
}
