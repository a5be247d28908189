// bitget-api trading conformance (issue 25): the real, unmodified `bitget-api` SDK (pinned 3.2.3, RestClientV3, only
// `baseUrl` changed) places, amends, cancels and reads orders on the matching engine of a unified account, closes a
// position, and reads the engine's public market data. The SDK hands back the raw rows, so each string is compared
// with a figure computed by hand below from the tickers this script sets and the engine's rules (trading-fixture.mjs),
// and the balance changes are read back from the admin API.
// Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and `N passed, M failed`; exits 0 only if all passed.
import { RestClientV3 } from 'bitget-api';
import {
  sdkData as data, sdkRefused as refused, expectRow, assert, baseUrl, checks, createInstruments, expectBalance, fundedAccount, near, nextFunding, runTag, same, sameSet,
  setTicker,
} from './trading-fixture.mjs';

const tag = runTag('SX');
const { check, finish } = checks([[tag, 'BASE']]);




// ---- set-up: own instruments and tickers, a fresh unified account with 10000 USDT and 10 base ----
const { base, spot, perp } = await createInstruments(tag);
// Spot: ask 100.01 / bid 99.99, 5 a level; levels 5 bps apart, rounded away from the mid to 2 decimals:
// asks 100.01, 100.060005 -> 100.07, 100.11001 -> 100.12; bids 99.99, 99.940005 -> 99.94, 99.89001 -> 99.89.
await setTicker('SPOT', spot, { last: '100', ask: '100.01', bid: '99.99', size: '5' });
// Perpetual: the same prices, 10 a level, mark 99.99, funding rate -0.0002.
await setTicker('USDT-FUTURES', perp, { last: '100', ask: '100.01', bid: '99.99', size: '10', mark: '99.99', fundingRate: '-0.0002' });
const C = await fundedAccount(`sdk-${tag}`, { USDT: '10000', [base]: '10' });
const client = new RestClientV3({ apiKey: C.apiKey, apiSecret: C.secret, apiPass: C.password, baseUrl }, { timeout: 15000 });
const ids = {};
const spotOrder = (o) => ({ category: 'SPOT', symbol: spot, ...o });

await check('v3 getOrderBook', async () => {
  const s = await data(client.getOrderBook({ category: 'SPOT', symbol: spot, limit: '3' }));
  same(JSON.stringify(s.a), JSON.stringify([['100.01', '5'], ['100.07', '5'], ['100.12', '5']]), 'spot a');
  same(JSON.stringify(s.b), JSON.stringify([['99.99', '5'], ['99.94', '5'], ['99.89', '5']]), 'spot b');
  assert(/^\d+$/.test(s.ts) && Math.abs(Number(s.ts) - Date.now()) < 60_000, `ts ${s.ts}`);
  const f = await data(client.getOrderBook({ category: 'USDT-FUTURES', symbol: perp, limit: '2' }));
  same(JSON.stringify([f.a, f.b]), JSON.stringify([[['100.01', '10'], ['100.07', '10']], [['99.99', '10'], ['99.94', '10']]]), 'futures a, b');
  return 'spot 3 levels a side, USDT-FUTURES 2';
});

await check('v3 submitNewOrder limit (clientOid) + getOrderInfo', async () => {
  // Buy 2 at 99.95 (below the ask 100.01) rests: 199.9 USDT frozen.
  const placed = await data(client.submitNewOrder(spotOrder({ qty: '2', price: '99.95', side: 'buy', orderType: 'limit', timeInForce: 'gtc',
    clientOid: `${tag}-rest` })));
  assert(/^\d+$/.test(placed.orderId), `orderId ${placed.orderId}`);
  same(placed.clientOid, `${tag}-rest`, 'clientOid');
  ids.rest = placed.orderId;
  const row = await data(client.getOrderInfo({ orderId: ids.rest }));
  expectRow(row, { orderId: ids.rest, clientOid: `${tag}-rest`, category: 'SPOT', symbol: spot, orderType: 'limit', side: 'buy',
    price: '99.95', qty: '2', cumExecQty: '0', cumExecValue: '0', avgPrice: '0', timeInForce: 'gtc', orderStatus: 'live',
    reduceOnly: 'NO' }, 'order');
  same((await data(client.getOrderInfo({ clientOid: `${tag}-rest` }))).orderId, ids.rest, 'by clientOid');
  return await expectBalance(C.uid, 'USDT', 9800.1, 199.9);
});

await check('v3 modifyOrder', async () => {
  // 3 at 99.9: frozen 299.7.
  same((await data(client.modifyOrder({ orderId: ids.rest, qty: '3', price: '99.9' }))).orderId, ids.rest, 'orderId');
  expectRow(await data(client.getOrderInfo({ orderId: ids.rest })), { price: '99.9', qty: '3', orderStatus: 'live' }, 'order');
  return await expectBalance(C.uid, 'USDT', 9700.3, 299.7);
});

await check('v3 placeBatchOrders', async () => {
  // Sell 1 @ 101 rests (1 base frozen); buy 1 @ 99 rests (99 frozen); 99.001 breaks the 2-decimal price step (25244,
  // that line alone); market sell 2 takes 2 at the bid 99.99 = 199.98 USDT, fee 0.19998 USDT.
  // USDT 9700.3 - 99 + 199.98 - 0.19998 = 9801.08002 available, 299.7 + 99 = 398.7 frozen; base 10 - 1 - 2 = 7, 1 frozen.
  const lines = await data(client.placeBatchOrders([
    spotOrder({ qty: '1', price: '101', side: 'sell', orderType: 'limit' }),
    spotOrder({ qty: '1', price: '99', side: 'buy', orderType: 'limit', clientOid: `${tag}-b99` }),
    spotOrder({ qty: '1', price: '99.001', side: 'buy', orderType: 'limit', clientOid: `${tag}-bad` }),
    spotOrder({ qty: '2', side: 'sell', orderType: 'market' }),
  ]));
  assert(Array.isArray(lines) && lines.length === 4, `data ${JSON.stringify(lines).slice(0, 200)}, want an array of 4 lines`);
  [ids.sell101, ids.buy99, , ids.marketSell] = lines.map((l) => l.orderId);
  for (const i of [0, 1, 3]) assert(/^\d+$/.test(lines[i].orderId ?? '') && !lines[i].code, `line ${i}: ${JSON.stringify(lines[i])}`);
  same(lines[1].clientOid, `${tag}-b99`, 'line 1 clientOid');
  same(lines[2].code, '25244', 'line 2 code');
  same(lines[2].clientOid, `${tag}-bad`, 'line 2 clientOid');
  expectRow(await data(client.getOrderInfo({ orderId: ids.marketSell })), { orderStatus: 'filled', cumExecQty: '2', cumExecValue: '199.98',
    avgPrice: '99.99' }, 'market sell');
  const usdt = await expectBalance(C.uid, 'USDT', 9801.08002, 398.7);
  return `3 placed, 1 refused (25244); ${usdt}; ${await expectBalance(C.uid, base, 7, 1)}`;
});

await check('v3 getUnfilledOrders', async () => {
  const page = await data(client.getUnfilledOrders({ category: 'SPOT', symbol: spot }));
  sameSet(page.list.map((o) => `${o.orderId} ${o.side} ${o.qty}@${o.price} ${o.orderStatus}`),
    [`${ids.rest} buy 3@99.9 live`, `${ids.sell101} sell 1@101 live`, `${ids.buy99} buy 1@99 live`], 'working orders');
  same(page.cursor, '', 'cursor (one page)');
  return `${page.list.length} working`;
});

await check('v3 cancelOrder', async () => {
  // The 299.7 of the amended buy comes back: 9801.08002 + 299.7 = 10100.78002, 99 still frozen.
  same((await data(client.cancelOrder({ orderId: ids.rest, symbol: spot }))).orderId, ids.rest, 'orderId');
  expectRow(await data(client.getOrderInfo({ orderId: ids.rest })), { orderStatus: 'cancelled', cumExecQty: '0' }, 'order');
  await refused(client.cancelOrder({ orderId: ids.rest }), '25204');
  return `cancelled, again -> 25204; ${await expectBalance(C.uid, 'USDT', 10100.78002, 99)}`;
});

await check('v3 cancelBatchOrders', async () => {
  // The sell @ 101 (1 base back) and an orderId that does not exist (25204 on its line alone).
  const lines = await data(client.cancelBatchOrders([{ orderId: ids.sell101, symbol: spot, category: 'SPOT' },
    { orderId: '1', symbol: spot, category: 'SPOT' }]));
  assert(Array.isArray(lines) && lines.length === 2, `data ${JSON.stringify(lines).slice(0, 200)}`);
  same(lines[0].orderId, ids.sell101, 'line 0 orderId');
  assert(!lines[0].code, `line 0 code ${lines[0].code}`);
  same(lines[1].code, '25204', 'line 1 code');
  return `1 cancelled, 1 -> 25204; ${await expectBalance(C.uid, base, 8, 0)}`;
});

await check('v3 cancelAllOrders', async () => {
  const res = await data(client.cancelAllOrders({ category: 'SPOT', symbol: spot }));
  same(JSON.stringify(res.list.map((l) => l.orderId)), JSON.stringify([ids.buy99]), 'cancelled');
  same(res.list[0].clientOid, `${tag}-b99`, 'clientOid');
  same((await data(client.getUnfilledOrders({ category: 'SPOT' }))).list.length, 0, 'working orders left');
  // 10100.78002 + 99 = 10199.78002.
  return await expectBalance(C.uid, 'USDT', 10199.78002, 0);
});

await check('v3 getHistoryOrders', async () => {
  const all = await data(client.getHistoryOrders({ category: 'SPOT' }));
  sameSet(all.list.map((o) => `${o.orderId} ${o.orderStatus}`), [`${ids.rest} cancelled`, `${ids.sell101} cancelled`,
    `${ids.buy99} cancelled`, `${ids.marketSell} filled`], 'finished orders');
  const sell = all.list.find((o) => o.orderId === ids.marketSell);
  expectRow(sell, { orderType: 'market', side: 'sell', qty: '2', cumExecQty: '2', cumExecValue: '199.98', avgPrice: '99.99' }, 'market sell');
  same(JSON.stringify(sell.feeDetail), JSON.stringify([{ feeCoin: 'USDT', fee: '0.19998' }]), 'market sell feeDetail');
  // Pages of 3 with the cursor: 3 + 1, no order twice.
  const p1 = await data(client.getHistoryOrders({ category: 'SPOT', limit: '3' }));
  const p2 = await data(client.getHistoryOrders({ category: 'SPOT', limit: '3', cursor: p1.cursor }));
  same(p1.list.length + p2.list.length, 4, 'paged rows');
  sameSet([...p1.list, ...p2.list].map((o) => o.orderId), all.list.map((o) => o.orderId), 'paged orderIds');
  return `${all.list.length} finished, pages 3 + ${p2.list.length}`;
});

await check('v3 getFills (public trades)', async () => {
  const rows = await data(client.getFills({ category: 'SPOT', symbol: spot, limit: '10' }));
  same(JSON.stringify(rows.map((r) => [r.price, r.size, r.side])), JSON.stringify([['99.99', '2', 'sell']]), 'trades');
  assert(/^\d+$/.test(rows[0].execId) && /^\d+$/.test(rows[0].ts), `ids ${JSON.stringify(rows[0])}`);
  return 'sell 2@99.99';
});

await check('v3 getCandles', async () => {
  // The ticker's last 100 opens the minute; the trade 2 @ 99.99 closes it: O 100 H 100 L 99.99 C 99.99, V 2, turnover 199.98.
  const rows = await data(client.getCandles({ category: 'SPOT', symbol: spot, interval: '1m' }));
  assert(rows.length >= 1 && rows.length <= 3, `${rows.length} candles`);
  for (const r of rows) assert(r.length === 7 && r.every((v) => typeof v === 'string'), `row ${JSON.stringify(r)}`);
  near(rows[0][1], 100, 'open');
  near(Math.max(...rows.map((r) => Number(r[2]))), 100, 'high');
  near(Math.min(...rows.map((r) => Number(r[3]))), 99.99, 'low');
  near(rows.at(-1)[4], 99.99, 'close');
  near(rows.reduce((s, r) => s + Number(r[5]), 0), 2, 'base volume');
  near(rows.reduce((s, r) => s + Number(r[6]), 0), 199.98, 'quote turnover');
  return 'folded: O 100 H 100 L 99.99 C 99.99 V 2';
});

await check('v3 getCurrentFundingRate', async () => {
  const before = Date.now();
  const rows = await data(client.getCurrentFundingRate({ symbol: perp }));
  same(rows.length, 1, 'rows');
  expectRow(rows[0], { symbol: perp, fundingRate: '-0.0002', fundingRateInterval: '8', minFundingRate: '-0.003', maxFundingRate: '0.003' }, 'row');
  assert([nextFunding(before), nextFunding(Date.now())].map(String).includes(rows[0].nextUpdate), `nextUpdate ${rows[0].nextUpdate}`);
  return '-0.0002 every 8 h';
});

await check('v3 futures market order + closeAllPositions', async () => {
  // Sell 3 at the bid 99.99: a short, margin 299.97 / 10 = 29.997, taker fee 299.97 x 0.0006 = 0.179982.
  const open = await data(client.submitNewOrder({ category: 'USDT-FUTURES', symbol: perp, qty: '3', side: 'sell', orderType: 'market' }));
  expectRow(await data(client.getOrderInfo({ orderId: open.orderId })), { orderStatus: 'filled', cumExecQty: '3', avgPrice: '99.99',
    posSide: 'net', reduceOnly: 'NO' }, 'opening order');
  await expectBalance(C.uid, 'USDT', 10199.78002 - 29.997 - 0.179982, 29.997);
  const pos = (await data(client.getCurrentPosition({ category: 'USDT-FUTURES', symbol: perp }))).list;
  same(JSON.stringify(pos.map((p) => [p.posSide, p.total, p.avgPrice])), JSON.stringify([['short', '3', '99.99']]), 'position');
  // close-positions buys 3 at the ask 100.01: PnL 3 x (99.99 - 100.01) = -0.06, fee 300.03 x 0.0006 = 0.180018;
  // USDT 10199.78002 - 0.179982 - 0.06 - 0.180018 = 10199.36002.
  const closed = await data(client.closeAllPositions({ category: 'USDT-FUTURES', symbol: perp }));
  same(closed.list.length, 1, 'close orders');
  expectRow(await data(client.getOrderInfo({ orderId: closed.list[0].orderId })), { side: 'buy', orderType: 'market', orderStatus: 'filled',
    cumExecQty: '3', cumExecValue: '300.03', avgPrice: '100.01', reduceOnly: 'YES' }, 'closing order');
  same((await data(client.getCurrentPosition({ category: 'USDT-FUTURES', symbol: perp }))).list.length, 0, 'positions left');
  const fill = (await data(client.getTradeFills({ category: 'USDT-FUTURES' }))).list.find((f) => f.orderId === closed.list[0].orderId);
  expectRow(fill, { execPrice: '100.01', execQty: '3', execValue: '300.03', tradeScope: 'taker', execPnl: '-0.06' }, 'closing fill');
  same(JSON.stringify(fill.feeDetail?.map((d) => [d.feeCoin, d.fee])), JSON.stringify([['USDT', '0.180018']]), 'closing fill fee');
  await refused(client.closeAllPositions({ category: 'USDT-FUTURES', symbol: perp }), '25227');
  return `short 3@99.99 closed at 100.01, PnL -0.06, again -> 25227; ${await expectBalance(C.uid, 'USDT', 10199.36002, 0)}`;
});

finish();
