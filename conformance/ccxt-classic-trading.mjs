// ccxt classic trading conformance (issue 26): the real, unmodified `ccxt` (pinned 4.5.84, class `bitget`) trades spot
// on a classic account through the v2 rows, on the same engine as the unified rows. The family is auto-detected (v3
// account/settings answers 40084). Only ccxt's `urls.api` hosts are changed. Every figure is computed by hand below
// from the ticker this script sets and the engine's rules (trading-fixture.mjs): a classic account's spot orders
// settle on its spot balances, read back from the admin API.
// Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and `N passed, M failed`; exits 0 only if all passed.
import ccxt from 'ccxt';
import { expectParsed as expectOrder, adminGet, adminPost, assert, classicAccount, baseUrl, checks, near, ownMarkets, same, sameSet, setTicker } from './trading-fixture.mjs';

function client(creds) {
  const exchange = new ccxt.bitget({ apiKey: creds.apiKey, secret: creds.secret, password: creds.password, timeout: 15000 });
  for (const section of Object.keys(exchange.urls.api)) exchange.urls.api[section] = baseUrl;
  return exchange;
}

/** uid's balance of coin in one wallet against hand-computed available/frozen; the other wallet must hold nothing. */
async function expectWallet(wallet, uid, coin, available, frozen) {
  const rows = await adminGet(`/admin/v1/accounts/${uid}/balances`);
  const b = rows.find((x) => x.account === wallet && x.coin === coin) ?? { available: '0', frozen: '0' };
  near(b.available, available, `${wallet} ${coin} available`);
  near(b.frozen, frozen, `${wallet} ${coin} frozen`);
  assert(!rows.some((x) => x.account !== wallet), `a balance outside ${wallet}: ${JSON.stringify(rows)}`);
  return `${coin} ${Number(b.available)}/${Number(b.frozen)}`;
}

const expectSpot = (uid, coin, available, frozen) => expectWallet('spot', uid, coin, available, frozen);
const expectMargin = (uid, coin, available, frozen) => expectWallet('unified', uid, coin, available, frozen);


async function rejects(promise, errorClass, code) {
  try {
    await promise;
  } catch (e) {
    assert(e instanceof errorClass, `${e.constructor.name} ${e.message}, want ${errorClass.name}`);
    assert(e.message.includes(`"code":"${code}"`), `message ${e.message}, want code ${code}`);
    return code;
  }
  throw new Error(`accepted, want ${errorClass.name} ${code}`);
}

// ---- set-up: own spot pair and ticker, one fresh classic account (before ccxt loads its markets) ----
// Ask 100.01 / bid 99.99, 5 a level; bids 99.99, 99.94 (99.940005 rounded down), ...; asks 100.01, 100.07, ...
// Perpetual: ask 100.01 / bid 99.99, 10 a level, mark 99.99; fees maker 0.02%, taker 0.06%.
const { tag, base, spot, perp, S, P } = await ownMarkets('CC');
const { check, finish } = checks([[tag, 'BASE']]);
const C = await classicAccount(`ccxt-classic-${tag}`, { USDT: '10000', [base]: '10' });
const D = await classicAccount(`ccxt-classic-swap-${tag}`, { USDT: '10000' }, 'unified');
const ex = client(C);
const exD = client(D);
const ids = {};

await check('loadMarkets classic', async () => {
  await ex.loadMarkets();
  await exD.loadMarkets();
  same(ex.options.uta, false, 'options.uta');
  same(ex.market(S).spot, true, `${S} spot`);
  same(exD.market(P).swap, true, `${P} swap`);
  return `${S}, ${P}, uta=false`;
});

await check('fetchBalance spot', async () => {
  const b = await ex.fetchBalance();
  near(b.USDT.free, 10000, 'USDT free');
  near(b.USDT.used, 0, 'USDT used');
  near(b[base].free, 10, 'BASE free');
  return `USDT ${b.USDT.free}, BASE ${b[base].free}`;
});

await check('createOrder spot limit rests (clientOrderId)', async () => {
  // Buy 2 at 99.95, below the ask: rests; freezes 2 x 99.95 = 199.9 USDT of the spot balance.
  const o = await ex.createOrder(S, 'limit', 'buy', 2, 99.95, { clientOrderId: `${tag}-rest` });
  ids.rest = o.id;
  assert(/^\d+$/.test(o.id ?? ''), `id ${o.id}`);
  return await expectSpot(C.uid, 'USDT', 9800.1, 199.9);
});

await check('fetchOrder resting (orderInfo array)', async () => {
  const o = await ex.fetchOrder(ids.rest, S);
  expectOrder(o, { id: ids.rest, clientOrderId: `${tag}-rest`, symbol: S, type: 'limit', side: 'buy', status: 'open', price: 99.95,
    amount: 2, filled: 0 }, 'order');
  same(o.info.status, 'live', 'status');
  return `${o.status} ${o.side} ${o.amount}@${o.price}`;
});

await check('fetchOpenOrders (limit price from priceAvg)', async () => {
  const open = await ex.fetchOpenOrders(S);
  same(open.length, 1, 'open orders');
  expectOrder(open[0], { id: ids.rest, price: 99.95, amount: 2, filled: 0, status: 'open' }, 'open order');
  return `${open.length} open @${open[0].price}`;
});

await check('fetchTicker and fetchOrderBook (v2 market rows)', async () => {
  const t = await ex.fetchTicker(S);
  near(t.last, 100, 'last');
  near(t.bid, 99.99, 'bid');
  near(t.ask, 100.01, 'ask');
  // The resting bid 2 @ 99.95 sits between the synthetic levels 99.99 and 99.94.
  const ob = await ex.fetchOrderBook(S, 5);
  same(JSON.stringify(ob.asks), JSON.stringify([[100.01, 5], [100.07, 5], [100.12, 5], [100.17, 5], [100.22, 5]]), 'asks');
  same(JSON.stringify(ob.bids), JSON.stringify([[99.99, 5], [99.95, 2], [99.94, 5], [99.89, 5], [99.84, 5]]), 'bids');
  return `last ${t.last}, best ${ob.bids[0][0]}/${ob.asks[0][0]}`;
});

await check('editOrder (cancel-replace)', async () => {
  // The resting buy is cancelled and a new one placed: 3 at 99.9 freezes 299.7.
  const o = await ex.editOrder(ids.rest, S, 'limit', 'buy', 3, 99.9);
  assert(o.id && o.id !== ids.rest, `new id ${o.id}`);
  ids.replaced = o.id;
  const old = await ex.fetchOrder(ids.rest, S);
  same(old.status, 'canceled', 'old order status');
  return `3@99.9; ${await expectSpot(C.uid, 'USDT', 9700.3, 299.7)}`;
});

await check('createOrder spot market sell', async () => {
  // Sell 6 into the bids: 5 @ 99.99 + 1 @ 99.94 = 599.89; taker fee 0.1% of it in USDT = 0.59989.
  const o = await ex.createOrder(S, 'market', 'sell', 6);
  const f = await ex.fetchOrder(o.id, S);
  expectOrder(f, { status: 'closed', filled: 6, cost: 599.89, fee: { cost: 0.59989, currency: 'USDT' } }, 'market sell');
  near(f.average, 599.89 / 6, 'average');
  ids.sell = o.id;
  return `6 for 599.89, fee 0.59989 USDT; ${await expectSpot(C.uid, 'USDT', 9700.3 + 599.89 - 0.59989, 299.7)}; `
    + await expectSpot(C.uid, base, 4, 0);
});

await check('createMarketBuyOrderWithCost', async () => {
  // 150 USDT at the ask 100.01: 150 / 100.01 = 1.49985..., 1.4998 at 4 decimals for 149.994998; fee 0.0014998 BASE.
  const o = await ex.createMarketBuyOrderWithCost(S, 150);
  const f = await ex.fetchOrder(o.id, S);
  expectOrder(f, { status: 'closed', filled: 1.4998, amount: 1.4998, cost: 149.994998, fee: { cost: 0.0014998, currency: base } }, 'market buy');
  return `1.4998 for 149.994998; ${await expectSpot(C.uid, 'USDT', 10299.59011 - 149.994998, 299.7)}; `
    + await expectSpot(C.uid, base, 4 + 1.4998 - 0.0014998, 0);
});

await check('fetchMyTrades (v2 fills)', async () => {
  const trades = (await ex.fetchMyTrades(S)).sort((a, b) => a.price - b.price);
  same(trades.length, 3, 'trades');
  const got = trades.map((t) => `${t.side} ${t.amount}@${t.price} fee ${t.fee?.cost} ${t.fee?.currency}`);
  same(got.join(', '), `sell 1@99.94 fee 0.09994 USDT, sell 5@99.99 fee 0.49995 USDT, buy 1.4998@100.01 fee 0.0014998 ${base}`, 'trades');
  return got.join(', ');
});

await check('fetchTrades and fetchOHLCV (v2 market rows)', async () => {
  // The public tape: the market sell's 5 @ 99.99 and 1 @ 99.94, the market buy's 1.4998 @ 100.01.
  const trades = await ex.fetchTrades(S);
  same(trades.map((t) => `${t.side} ${t.amount}@${t.price}`).sort().join(', '), 'buy 1.4998@100.01, sell 1@99.94, sell 5@99.99', 'trades');
  // Candles of the trades: 7.4998 traded between 99.94 and 100.01 (however many minutes they span).
  const candles = await ex.fetchOHLCV(S, '1m');
  const volume = candles.reduce((v, c) => v + c[5], 0);
  near(volume, 7.4998, 'volume');
  near(Math.max(...candles.map((c) => c[2])), 100.01, 'high');
  near(Math.min(...candles.map((c) => c[3])), 99.94, 'low');
  return `3 trades, V ${volume.toFixed(4)} H 100.01 L 99.94`;
});

await check('createOrder postOnly crossing is cancelled', async () => {
  // A post-only sell at 99.98 would take the bid 99.99: refused by its time in force, nothing frozen.
  const o = await ex.createOrder(S, 'limit', 'sell', 1, 99.98, { postOnly: true });
  same((await ex.fetchOrder(o.id, S)).status, 'canceled', 'status');
  return await expectSpot(C.uid, base, 5.4983002, 0);
});

await check('cancelOrder', async () => {
  await ex.cancelOrder(ids.replaced, S);
  same((await ex.fetchOrder(ids.replaced, S)).status, 'canceled', 'status');
  return await expectSpot(C.uid, 'USDT', 10449.295112, 0);
});

await check('cancelOrders (batch-cancel-order)', async () => {
  const a = await ex.createOrder(S, 'limit', 'buy', 1, 99.5);
  const b = await ex.createOrder(S, 'limit', 'sell', 1, 101);
  await expectSpot(C.uid, 'USDT', 10449.295112 - 99.5, 99.5);
  await ex.cancelOrders([a.id, b.id], S);
  for (const id of [a.id, b.id]) same((await ex.fetchOrder(id, S)).status, 'canceled', `order ${id}`);
  return `2 cancelled; ${await expectSpot(C.uid, 'USDT', 10449.295112, 0)}; ${await expectSpot(C.uid, base, 5.4983002, 0)}`;
});

await check('cancelAllOrders (cancel-symbol-order)', async () => {
  await ex.createOrder(S, 'limit', 'buy', 1, 99.4);
  await ex.createOrder(S, 'limit', 'buy', 1, 99.3);
  await expectSpot(C.uid, 'USDT', 10449.295112 - 198.7, 198.7);
  await ex.cancelAllOrders(S);
  same((await ex.fetchOpenOrders(S)).length, 0, 'open orders');
  return `all cancelled; ${await expectSpot(C.uid, 'USDT', 10449.295112, 0)}`;
});

await check('resting limit filled by a ticker move (maker)', async () => {
  // Buy 1 at 99.95 rests; the ask drops to 99.9: it fills in full at its own price as a maker, fee 0.001 BASE.
  const o = await ex.createOrder(S, 'limit', 'buy', 1, 99.95);
  await setTicker('SPOT', spot, { last: '99.9', ask: '99.9', bid: '99.85', size: '5' });
  const f = await ex.fetchOrder(o.id, S);
  expectOrder(f, { status: 'closed', filled: 1, price: 99.95, average: 99.95, fee: { cost: 0.001, currency: base } }, 'maker');
  return `1@99.95 maker; ${await expectSpot(C.uid, 'USDT', 10449.295112 - 99.95, 0)}; ${await expectSpot(C.uid, base, 6.4973002, 0)}`;
});

await check('fetchClosedOrders (history-orders)', async () => {
  const closed = await ex.fetchClosedOrders(S);
  const filled = closed.filter((o) => o.status === 'closed').map((o) => o.filled).sort((a, b) => a - b);
  same(JSON.stringify(filled), JSON.stringify([1, 1.4998, 6]), 'filled amounts');
  return `${filled.length} filled`;
});

await check('errors in the classic family', async () => {
  const codes = [
    await rejects(ex.createOrder(S, 'limit', 'buy', 1000, 99), ccxt.InsufficientFunds, '43012'),
    await rejects(ex.cancelOrder('123', S), ccxt.OrderNotFound, '43001'),
  ];
  let notFound = false;
  try { await ex.fetchOrder('123', S); } catch (e) { notFound = e instanceof ccxt.OrderNotFound; }
  assert(notFound, 'fetchOrder of an unknown id is OrderNotFound');
  return `${codes.join(', ')}, fetchOrder unknown -> OrderNotFound; ${await expectSpot(C.uid, 'USDT', 10349.345112, 0)}`;
});

// ---- futures, account D: 10000 USDT of futures margin ----

await check('setMarginMode and setLeverage (v2)', async () => {
  await exD.setMarginMode('isolated', P);
  await exD.setMarginMode('cross', P);
  const r = await exD.setLeverage(20, P);
  same(r.data.longLeverage, '20', 'longLeverage');
  same(r.data.marginMode, 'crossed', 'marginMode');
  return `crossed x${r.data.longLeverage}`;
});

await check('createOrder futures market (one-way)', async () => {
  // Buy 2 at the ask 100.01: margin 200.02 / 20 = 10.001, taker fee 200.02 x 0.0006 = 0.120012.
  const m = await exD.createOrder(P, 'market', 'buy', 2);
  const o = await exD.fetchOrder(m.id, P);
  expectOrder(o, { status: 'closed', filled: 2, amount: 2, reduceOnly: false, fee: { cost: 0.120012, currency: 'USDT' } }, 'order');
  near(o.average, 100.01, 'average');
  same(o.info.posSide, 'net', 'posSide');
  same(o.info.state, 'filled', 'state');
  return await expectMargin(D.uid, 'USDT', 10000 - 10.001 - 0.120012, 10.001);
});

await check('fetchPositions after a futures fill', async () => {
  const positions = await exD.fetchPositions([P]);
  same(positions.length, 1, 'positions');
  const p = positions[0];
  // Mark 99.99: unrealised PnL 2 x (99.99 - 100.01) = -0.04.
  expectOrder(p, { symbol: P, side: 'long', contracts: 2, entryPrice: 100.01, unrealizedPnl: -0.04, leverage: 20 }, 'position');
  // fetchBalance for swap (mix/account/accounts): free is what can move out, total the equity with the unrealised PnL:
  // 9989.878988 + 10.001 - 0.04 = 9999.839988.
  const b = await exD.fetchBalance({ type: 'swap' });
  near(b.USDT.free, 9989.878988, 'swap USDT free');
  near(b.USDT.total, 9999.839988, 'swap USDT total');
  return `${p.side} ${p.contracts}@${p.entryPrice} x${p.leverage} upl ${p.unrealizedPnl}; swap USDT ${b.USDT.free}/${b.USDT.total}`;
});

await check('createOrder reduceOnly (one-way), filled by a ticker move', async () => {
  // Reduce-only sell 2 @ 110 rests, freezing nothing; the bid rises to 110.5: it fills as the maker at 110.
  // PnL 2 x (110 - 100.01) = 19.98, maker fee 220 x 0.0002 = 0.044, margin 10.001 back: 10000 - 0.120012 + 19.98 - 0.044.
  const r = await exD.createOrder(P, 'limit', 'sell', 2, 110, { reduceOnly: true });
  const open = await exD.fetchOpenOrders(P);
  same(open.length, 1, 'open orders');
  expectOrder(open[0], { id: r.id, status: 'open', reduceOnly: true, price: 110, amount: 2 }, 'resting reduce-only');
  await setTicker('USDT-FUTURES', perp, { last: '110.5', ask: '110.6', bid: '110.5', size: '10', mark: '110.5', fundingRate: '0.0001' });
  expectOrder(await exD.fetchOrder(r.id, P), { status: 'closed', filled: 2, reduceOnly: true, fee: { cost: 0.044, currency: 'USDT' } }, 'filled');
  same((await exD.fetchPositions([P])).length, 0, 'positions left');
  return `2@110 maker, PnL 19.98; ${await expectMargin(D.uid, 'USDT', 10019.815988, 0)}`;
});

await check('editOrder, cancelOrder, cancelOrders and cancelAllOrders (futures)', async () => {
  // An opening limit buy of 1 at 90 freezes its margin 90 / 20 = 4.5 and the taker fee 90 x 0.0006 = 0.054.
  const a = await exD.createOrder(P, 'limit', 'buy', 1, 90);
  await expectMargin(D.uid, 'USDT', 10019.815988 - 4.554, 4.554);
  // editOrder (modify-order) to 92: the freeze becomes 92 / 20 + 92 x 0.0006 = 4.6552.
  const e = await exD.editOrder(a.id, P, 'limit', 'buy', 1, 92);
  same(e.id, a.id, 'edited id');
  near((await exD.fetchOrder(a.id, P)).price, 92, 'edited price');
  await expectMargin(D.uid, 'USDT', 10019.815988 - 4.6552, 4.6552);
  await exD.cancelOrder(a.id, P);
  same((await exD.fetchOrder(a.id, P)).status, 'canceled', 'cancelled order');
  // cancelOrders: batch-cancel-orders with orderIdList.
  const b1 = await exD.createOrder(P, 'limit', 'buy', 1, 90);
  const b2 = await exD.createOrder(P, 'limit', 'buy', 1, 89);
  await exD.cancelOrders([b1.id, b2.id], P);
  for (const id of [b1.id, b2.id]) same((await exD.fetchOrder(id, P)).status, 'canceled', `order ${id}`);
  await exD.createOrder(P, 'limit', 'buy', 1, 90);
  await exD.createOrder(P, 'limit', 'buy', 1, 91);
  await exD.cancelAllOrders(P);
  same((await exD.fetchOpenOrders(P)).length, 0, 'open orders');
  return await expectMargin(D.uid, 'USDT', 10019.815988, 0);
});

await check('createOrder hedged (hedge_mode and back)', async () => {
  await exD.setPositionMode(true, P);
  // Long 1 at the ask 110.6: margin 5.53, fee 0.06636. Close it (reduceOnly): ccxt sends side buy + tradeSide close;
  // the engine sells 1 at the bid 110.5: PnL -0.1, fee 0.0663.
  const long = await exD.createOrder(P, 'market', 'buy', 1, undefined, { hedged: true });
  same((await exD.fetchOrder(long.id, P)).info.posSide, 'long', 'long posSide');
  await expectMargin(D.uid, 'USDT', 10019.815988 - 0.06636 - 5.53, 5.53);
  const close = await exD.createOrder(P, 'market', 'sell', 1, undefined, { hedged: true, reduceOnly: true });
  const c = await exD.fetchOrder(close.id, P);
  same(`${c.info.side} ${c.info.tradeSide} ${c.info.reduceOnly} ${c.info.posMode}`, 'buy close YES hedge_mode', 'wire side');
  expectOrder(c, { side: 'sell', status: 'closed', filled: 1, average: 110.5, fee: { cost: 0.0663, currency: 'USDT' } }, 'close long');
  await exD.setPositionMode(false, P);
  return `long 1@110.6 closed at 110.5; ${await expectMargin(D.uid, 'USDT', 10019.815988 - 0.06636 - 0.1 - 0.0663, 0)}`;
});

await check('fetchClosedOrders (futures)', async () => {
  const closed = await exD.fetchClosedOrders(P);
  const filled = closed.filter((o) => o.status === 'closed').map((o) => o.filled);
  sameSet(filled.map(String), ['2', '2', '1', '1'], 'filled amounts');
  return `${filled.length} filled`;
});

await check('errors in the classic futures family', async () => {
  const codes = [
    // A limit buy of 10000 at 110 needs 10000 x 110 / 20 = 55000 of margin.
    await rejects(exD.createOrder(P, 'limit', 'buy', 10000, 110), ccxt.InsufficientFunds, '40762'),
    await rejects(exD.cancelOrder('123', P), ccxt.OrderNotFound, '40768'),
    await rejects(exD.fetchOrder('123', P), ccxt.OrderNotFound, '40109'),
  ];
  return `${codes.join(', ')}; ${await expectMargin(D.uid, 'USDT', 10019.583328, 0)}`;
});

finish();
