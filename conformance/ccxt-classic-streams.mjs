// ccxt.pro WebSocket conformance on a classic account (issue 27): the real, unmodified ccxt 4.5.84 `pro.bitget` client,
// with its REST and WebSocket URLs pointed at the server and the family auto-detected (classic: the v2 channels), watches
// the spot and futures balance, orders, fills, positions, the incremental order book (ccxt checks its CRC-32 on every
// update), public trades, candles and the ticker, while REST orders and ticker moves change them. Figures by hand from the
// ticker this script sets (trading-fixture.mjs rules). Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and
// `N passed, M failed`; exits 0 only if all passed.
import ccxt from 'ccxt';
import {
  checks, classicAccount, lastCandle, near, ownMarkets, proClient, same, setTicker, settle, until,
} from './trading-fixture.mjs';

/** A level of ccxt's counted book: [price, size] (it keeps the pushed strings beside them, for the checksum). */
const level = (l) => [l[0], l[1]];

// ---- set-up: own spot pair and perpetual, two fresh classic accounts (spot; futures margin) ----
const { tag, base, spot, S, P } = await ownMarkets('CS');
const { check, finish } = checks([[tag, 'BASE']]);
const C = await classicAccount(`ccxt-ws-classic-${tag}`, { USDT: '1000', [base]: '3' });
const D = await classicAccount(`ccxt-ws-classic-swap-${tag}`, { USDT: '10000' }, 'unified');
const ex = await proClient(ccxt, C, { uta: false });
const exD = await proClient(ccxt, D, { uta: false });

await check('watchBalance spot (classic)', async () => {
  const b = await ex.watchBalance();
  near(b.USDT.free, '1000', 'USDT free');
  near(b[base].free, '3', 'BASE free');
  return `USDT ${b.USDT.free}, BASE ${b[base].free}`;
});

await check('watchOrders + createOrder (spot)', async () => {
  const watching = ex.watchOrders(S);
  await settle();
  // A limit buy of 2 at 100 rests between the bid 99.99 and the ask 100.01.
  const placed = await ex.createOrder(S, 'limit', 'buy', 2, 100);
  const o = (await watching).find((x) => x.id === placed.id);
  same(o?.status, 'open', 'status');
  same(o.symbol, S, 'symbol');
  near(o.price, '100', 'price');
  near(o.amount, '2', 'amount');
  return 'open 2@100';
});

await check('watchOrderBook (incremental books, CRC-32 checked)', async () => {
  // The snapshot: the resting buy (2 at 100) is the best bid, the ticker's ask (100.01, 5) the best ask.
  const first = await ex.watchOrderBook(S);
  same(JSON.stringify(level(first.bids[0])), JSON.stringify([100, 2]), 'best bid');
  same(JSON.stringify(level(first.asks[0])), JSON.stringify([100.01, 5]), 'best ask');
  // The ask rises to 100.03 and the bid falls to 99.97: an update of changed levels, which ccxt applies and checks.
  const next = ex.watchOrderBook(S);
  await setTicker('SPOT', spot, { last: '100', ask: '100.03', bid: '99.97', size: '5' });
  const ob = await next;
  same(JSON.stringify(level(ob.asks[0])), JSON.stringify([100.03, 5]), 'best ask after');
  same(JSON.stringify(ob.bids.slice(0, 2).map(level)), JSON.stringify([[100, 2], [99.97, 5]]), 'bids after');
  // The book ccxt built from the snapshot and the update equals the REST order book after it, level for level.
  const rest = await ex.fetchOrderBook(S, 50);
  same(JSON.stringify([ob.bids.map(level), ob.asks.map(level)]), JSON.stringify([rest.bids, rest.asks]), 'the REST book');
  return `bid ${level(ob.bids[0]).join('x')}, ${level(ob.bids[1]).join('x')}; ask ${level(ob.asks[0]).join('x')}; as REST`;
});

await check('watchTicker (classic)', async () => {
  const t = await ex.watchTicker(S);
  near(t.ask, '100.03', 'ask');
  near(t.bid, '99.97', 'bid');
  return `bid ${t.bid} ask ${t.ask}`;
});

await check('watchMyTrades + watchTrades + watchOHLCV: a fill by a ticker move', async () => {
  const mine = ex.watchMyTrades(S);
  const tape = ex.watchTrades(S);
  const candles = ex.watchOHLCV(S, '1m');
  await settle(600);
  // The ask falls to 99.5: the resting buy at 100 fills as maker, 2 at 100; fee 0.1% of the 2 bought, in the base coin.
  await setTicker('SPOT', spot, { last: '99.4', ask: '99.5', bid: '99.4', size: '5' });
  const [t] = await mine;
  near(t.price, '100', 'my trade price');
  near(t.amount, '2', 'my trade amount');
  near(t.cost, '200', 'my trade cost');
  same(t.takerOrMaker, 'maker', 'takerOrMaker');
  near(t.fee.cost, '0.002', 'fee');
  same(t.fee.currency, base, 'fee currency');
  // The public trade: 2 at 100, the taker (the ticker's seller) sold.
  const trades = await tape;
  const last = trades[trades.length - 1];
  near(last.price, '100', 'public trade price');
  near(last.amount, '2', 'public trade amount');
  same(last.side, 'sell', 'public trade side');
  // This minute's candle holds the only trade of the pair: volume 2, closing at 100.
  await candles;
  const c = await until(() => lastCandle(ex, S, 2), 'a 1m candle of volume 2');
  near(c[5], '2', 'candle volume');
  near(c[4], '100', 'candle close');
  return `maker 2@100, fee 0.002; tape sell 2@100; candle C ${c[4]} V ${c[5]}`;
});

await check('watchBalance spot after the fill', async () => {
  // 1000 - 200 paid = 800 USDT; 3 + 2 - 0.002 = 4.998 of the base.
  const watching = ex.watchBalance();
  await ex.createOrder(S, 'limit', 'sell', 1, 120); // rests: 1 of the base frozen
  await watching;
  const b = await until(() => Number(ex.balance[base]?.used) === 1 && ex.balance, 'the sell\'s freeze');
  near(b.USDT.free, '800', 'USDT free');
  near(b[base].free, '3.998', 'BASE free');
  near(b[base].used, '1', 'BASE used');
  return `USDT ${b.USDT.free}; BASE ${b[base].free}/${b[base].used}`;
});

await check('watchPositions + watchBalance swap: a futures market buy', async () => {
  const positions = exD.watchPositions([P]);
  const balance = exD.watchBalance({ type: 'swap' });
  await settle(600);
  // Buy 1 at the ask 100.01, leverage 10: margin 10.001, taker fee 0.060006; mark 99.99, so PnL -0.02.
  await exD.createOrder(P, 'market', 'buy', 1);
  await positions; // the snapshot on subscribe (flat), or the position; then ccxt's position cache
  const p = await until(() => (exD.positions?.['USDT-FUTURES'] ?? []).find((x) => x.symbol === P && Number(x.contracts) > 0), 'the long');
  same(p.symbol, P, 'symbol');
  same(p.side, 'long', 'side');
  same(p.hedged, false, 'hedged');
  near(p.contracts, '1', 'contracts');
  near(p.entryPrice, '100.01', 'entryPrice');
  near(p.unrealizedPnl, '-0.02', 'unrealizedPnl');
  // free: 10000 - 10.001 - 0.060006 = 9989.938994; total (equity): + 10.001 - 0.02 = 9999.919994.
  await balance;
  const b = await until(() => Number(exD.balance.USDT?.used) === 10.001 && exD.balance, 'the margin in the swap balance');
  near(b.USDT.free, '9989.938994', 'swap USDT free');
  near(b.USDT.used, '10.001', 'swap USDT used');
  near(b.USDT.total, '9999.919994', 'swap USDT total');
  return `long 1@${p.entryPrice} upl ${p.unrealizedPnl}; USDT ${b.USDT.free}/${b.USDT.used}/${b.USDT.total}`;
});

await check('watchOrders trigger (orders-algo): a take-profit on the long', async () => {
  const watching = exD.watchOrders(P, undefined, undefined, { trigger: true });
  await settle();
  // The v2 TP/SL row through ccxt's own REST method: close the long 1 at mark 110, as a market order (D206).
  const placed = await exD.privateMixPostV2MixOrderPlaceTpslOrder({ symbol: exD.market(P).id, productType: 'USDT-FUTURES',
    marginCoin: 'USDT', planType: 'profit_plan', triggerPrice: '110', triggerType: 'mark_price', holdSide: 'long', size: '1' });
  const id = placed.data.orderId;
  await watching;
  const o = await until(() => (exD.triggerOrders ?? []).find((x) => x.id === id), 'the take-profit');
  same(o.symbol, P, 'symbol');
  near(o.triggerPrice, '110', 'triggerPrice');
  near(o.amount, '1', 'amount');
  same(o.side, 'sell', 'side');
  same(o.type, 'market', 'type');
  same(o.status, 'open', 'status');
  return `${o.side} ${o.amount} at trigger ${o.triggerPrice}, ${o.status}`;
});

await check('watchOrders (futures) after a close', async () => {
  const watching = exD.watchOrders(P);
  await settle();
  // Sell 1 reduce-only at the bid 99.99: the position closes; ccxt reads the order from the futures channel (posMode).
  const closed = await exD.createOrder(P, 'market', 'sell', 1, undefined, { reduceOnly: true });
  await watching;
  const o = await until(() => (exD.orders ?? []).find((x) => x.id === closed.id && x.status === 'closed'), 'the closed order');
  same(o.status, 'closed', 'status');
  same(o.symbol, P, 'symbol');
  near(o.filled, '1', 'filled');
  near(o.average, '99.99', 'average');
  return `closed 1@${o.average}`;
});

await ex.close();
await exD.close();
finish();
