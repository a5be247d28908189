// ccxt trading conformance (issue 25): the real, unmodified `ccxt` (pinned 4.5.84, class `bitget`) places, amends,
// cancels and reads orders on the matching engine of a unified account, and reads the engine's public market data.
// Only ccxt's `urls.api` hosts are changed; the unified family is auto-detected. Every figure is computed by hand
// below from the tickers this script sets and the engine's rules (trading-fixture.mjs): fill prices, amounts, costs,
// fees, the book levels, the positions, and the balance changes read back from the admin API.
// Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and `N passed, M failed`; exits 0 only if all passed.
import ccxt from 'ccxt';
import {
  expectParsed as expectOrder, expectParsed as expectTrade, adminGet, assert, baseUrl, checks, createInstruments, expectBalance, fundedAccount, near, nextFunding, runTag, same,
  sameSet, setTicker,
} from './trading-fixture.mjs';


/** A ccxt bitget client whose every API section points at the server (ccxt's sign() joins urls.api[section] + '/api/...'). */
function client(creds) {
  const exchange = new ccxt.bitget({ apiKey: creds.apiKey, secret: creds.secret, password: creds.password, timeout: 15000 });
  for (const section of Object.keys(exchange.urls.api)) exchange.urls.api[section] = baseUrl;
  return exchange;
}



// ---- set-up: own instruments and tickers, two fresh unified accounts (before ccxt loads its markets) ----
const tag = runTag('CX');
const { check, finish } = checks([[tag, 'BASE']]);
const { base, spot, perpBase, perp } = await createInstruments(tag);
const S = `${base}/USDT`;
const P = `${perpBase}/USDT:USDT`;
// Spot: ask 100.01 / bid 99.99, 5 a level. Asks 100.01, 100.01 x 1.0005 = 100.060005 -> 100.07, x 1.001 = 100.11001
// -> 100.12, 100.160015 -> 100.17, 100.21002 -> 100.22 (rounded up); bids 99.99, 99.940005 -> 99.94, 99.89001 -> 99.89,
// 99.840015 -> 99.84, 99.79002 -> 99.79 (rounded down). Price precision 2 (the ticker's decimals), quantity 4.
await setTicker('SPOT', spot, { last: '100', ask: '100.01', bid: '99.99', size: '5' });
// Perpetual: ask 100.01 / bid 99.99, 10 a level, mark 99.99, funding rate 0.000125.
await setTicker('USDT-FUTURES', perp, { last: '100', ask: '100.01', bid: '99.99', size: '10', mark: '99.99', fundingRate: '0.000125' });
const A = await fundedAccount(`ccxt-spot-${tag}`, { USDT: '10000', [base]: '10' });
const B = await fundedAccount(`ccxt-perp-${tag}`, { USDT: '10000' });
const exA = client(A);
const exB = client(B);
const ids = {};

await check('loadMarkets trading', async () => {
  await exA.loadMarkets();
  await exB.loadMarkets();
  same(exA.options.uta, true, 'options.uta');
  const m = exA.market(S);
  same(m.spot, true, `${S} spot`);
  near(m.precision.price, 0.01, `${S} precision.price`);
  near(m.precision.amount, 0.0001, `${S} precision.amount`);
  same(exB.market(P).swap, true, `${P} swap`);
  return `${S}, ${P}, uta=true`;
});

// ---- spot, account A: 10000 USDT, 10 base ----

await check('createOrder spot limit rests (clientOrderId)', async () => {
  // Buy 2 at 99.95, below the ask 100.01: rests; freezes 2 x 99.95 = 199.9 USDT.
  const o = await exA.createOrder(S, 'limit', 'buy', 2, 99.95, { clientOrderId: `${tag}-rest` });
  ids.rest = o.id;
  assert(/^\d+$/.test(o.id ?? ''), `id ${o.id}`);
  same(o.clientOrderId, `${tag}-rest`, 'clientOrderId');
  return await expectBalance(A.uid, 'USDT', 9800.1, 199.9);
});

await check('fetchOrder resting', async () => {
  const o = await exA.fetchOrder(ids.rest, S);
  expectOrder(o, { id: ids.rest, clientOrderId: `${tag}-rest`, symbol: S, type: 'limit', side: 'buy', status: 'open', price: 99.95,
    amount: 2, filled: 0, timeInForce: 'GTC', reduceOnly: false }, 'order');
  same(o.info.orderStatus, 'live', 'orderStatus');
  return `${o.status} ${o.side} ${o.amount}@${o.price}`;
});

await check('fetchOrderBook', async () => {
  const ob = await exA.fetchOrderBook(S, 5);
  // The resting bid 2 @ 99.95 sits between the synthetic levels 99.99 and 99.94.
  same(JSON.stringify(ob.asks), JSON.stringify([[100.01, 5], [100.07, 5], [100.12, 5], [100.17, 5], [100.22, 5]]), 'asks');
  same(JSON.stringify(ob.bids), JSON.stringify([[99.99, 5], [99.95, 2], [99.94, 5], [99.89, 5], [99.84, 5]]), 'bids');
  same(ob.symbol, S, 'symbol');
  assert(Math.abs(ob.timestamp - Date.now()) < 60_000, `timestamp ${ob.timestamp}`);
  return `best ${ob.bids[0][0]}/${ob.asks[0][0]}, ${ob.bids.length}+${ob.asks.length} levels`;
});

await check('editOrder', async () => {
  // 3 at 99.9: the freeze becomes 299.7 (available 10000 - 299.7 = 9700.3); the orderId stays.
  const e = await exA.editOrder(ids.rest, S, 'limit', 'buy', 3, 99.9);
  same(e.id, ids.rest, 'id');
  const o = await exA.fetchOrder(ids.rest, S);
  expectOrder(o, { status: 'open', price: 99.9, amount: 3, filled: 0 }, 'edited order');
  return `3@99.9; ${await expectBalance(A.uid, 'USDT', 9700.3, 299.7)}`;
});

await check('createOrder postOnly', async () => {
  // Post-only at 100.01 would take the ask: cancelled at once, nothing frozen. Post-only at 99.5 rests: 99.5 frozen.
  const crossing = await exA.createOrder(S, 'limit', 'buy', 1, 100.01, { postOnly: true });
  ids.postCrossing = crossing.id;
  const c = await exA.fetchOrder(crossing.id, S);
  expectOrder(c, { status: 'canceled', filled: 0, postOnly: true, timeInForce: 'PO' }, 'crossing post-only');
  same(c.info.cancelReason, 'post_only', 'cancelReason');
  const resting = await exA.createOrder(S, 'limit', 'buy', 1, 99.5, { postOnly: true });
  ids.postResting = resting.id;
  const r = await exA.fetchOrder(resting.id, S);
  expectOrder(r, { status: 'open', postOnly: true, timeInForce: 'PO', price: 99.5, amount: 1 }, 'resting post-only');
  return `crossing -> canceled, 99.5 -> open; ${await expectBalance(A.uid, 'USDT', 9600.8, 399.2)}`;
});

await check('createOrder spot market sell', async () => {
  // Sell 6: 5 at 99.99 = 499.95 and 1 at 99.94 (the own bids at 99.9 and 99.5 are further down): 599.89 USDT;
  // taker fee 0.1% in USDT: 0.49995 + 0.09994 = 0.59989. USDT 9600.8 + 599.89 - 0.59989 = 10200.09011; base 10 - 6 = 4.
  const m = await exA.createOrder(S, 'market', 'sell', 6);
  ids.marketSell = m.id;
  const o = await exA.fetchOrder(m.id, S);
  // ccxt negates the unified feeDetail fee (docs: a positive total) and names the market's settle coin (none for spot).
  expectOrder(o, { status: 'closed', type: 'market', side: 'sell', amount: 6, filled: 6, fee: { cost: -0.59989, currency: undefined } }, 'order');
  near(o.info.cumExecValue, 599.89, 'cumExecValue');
  near(o.info.avgPrice, 599.89 / 6, 'avgPrice');
  same(o.info.feeDetail[0].feeCoin, 'USDT', 'feeCoin');
  const usdt = await expectBalance(A.uid, 'USDT', 10200.09011, 399.2);
  return `6 for 599.89, fee 0.59989 USDT; ${usdt}; ${await expectBalance(A.uid, base, 4, 0)}`;
});

await check('createMarketBuyOrderWithCost', async () => {
  // 150 USDT: floor4(150 / 100.01) = 1.4998 at 100.01 = 149.994998; 0.005002 left buys nothing at 100.07.
  // Fee 0.1% of 1.4998 = 0.0014998 base. USDT 10200.09011 - 149.994998 = 10050.095112; base 4 + 1.4998 - 0.0014998 = 5.4983002.
  const m = await exA.createMarketBuyOrderWithCost(S, 150);
  ids.marketBuy = m.id;
  const o = await exA.fetchOrder(m.id, S);
  expectOrder(o, { status: 'closed', type: 'market', side: 'buy', filled: 1.4998, fee: { cost: -0.0014998, currency: undefined } }, 'order');
  near(o.info.qty, 150, 'qty (quote budget)');
  near(o.info.cumExecValue, 149.994998, 'cumExecValue');
  near(o.info.avgPrice, 100.01, 'avgPrice');
  same(o.info.feeDetail[0].feeCoin, base, 'feeCoin');
  const usdt = await expectBalance(A.uid, 'USDT', 10050.095112, 399.2);
  return `1.4998 for 149.994998; ${usdt}; ${await expectBalance(A.uid, base, 5.4983002, 0)}`;
});

await check('fetchMyTrades', async () => {
  const trades = await exA.fetchMyTrades(S);
  const key = (t) => `${t.order} ${t.price} ${t.amount}`;
  // The three taker fills, fee in the coin received. The fill row gives the fee positive (docs: uta Get-Order-Fills,
  // "fee": "0.6417006" for a 1069.501 USDT taker fill) and ccxt negates it (parseTrade: no deduction -> stringNeg).
  const want = [
    { order: ids.marketSell, side: 'sell', price: 99.99, amount: 5, cost: 499.95, fee: { cost: -0.49995, currency: 'USDT' } },
    { order: ids.marketSell, side: 'sell', price: 99.94, amount: 1, cost: 99.94, fee: { cost: -0.09994, currency: 'USDT' } },
    { order: ids.marketBuy, side: 'buy', price: 100.01, amount: 1.4998, cost: 149.994998, fee: { cost: -0.0014998, currency: base } },
  ];
  sameSet(trades.map(key), want.map(key), 'fills (order price amount)');
  for (const w of want) expectTrade(trades.find((t) => key(t) === key(w)), { ...w, symbol: S, takerOrMaker: 'taker', type: 'market' }, `fill ${key(w)}`);
  return trades.map((t) => `${t.side} ${t.amount}@${t.price} fee ${t.fee.cost} ${t.fee.currency}`).join(', ');
});

await check('fetchOpenOrders', async () => {
  const open = await exA.fetchOpenOrders(S);
  sameSet(open.map((o) => `${o.id} ${o.amount}@${o.price}`), [`${ids.rest} 3@99.9`, `${ids.postResting} 1@99.5`], 'open orders');
  for (const o of open) expectOrder(o, { status: 'open', symbol: S, side: 'buy', filled: 0 }, `open ${o.id}`);
  return open.map((o) => `${o.amount}@${o.price}`).join(', ');
});

await check('cancelOrder', async () => {
  // Releases the 299.7 of the edited order.
  const c = await exA.cancelOrder(ids.rest, S);
  same(c.id, ids.rest, 'id');
  same((await exA.fetchOrder(ids.rest, S)).status, 'canceled', 'status');
  return await expectBalance(A.uid, 'USDT', 10050.095112 + 299.7, 99.5);
});

await check('cancelOrders', async () => {
  // A sell 1 @ 101 (freezes 1 base) and the post-only 99.5 buy, cancelled in one batch.
  const sell = await exA.createOrder(S, 'limit', 'sell', 1, 101);
  ids.sell101 = sell.id;
  await expectBalance(A.uid, base, 4.4983002, 1);
  const res = await exA.cancelOrders([ids.postResting, ids.sell101], S);
  sameSet(res.map((o) => o.id), [ids.postResting, ids.sell101], 'cancelled ids');
  for (const id of [ids.postResting, ids.sell101]) same((await exA.fetchOrder(id, S)).status, 'canceled', `${id} status`);
  // USDT: the 99.5 of the post-only buy back: 10349.795112 + 99.5 = 10449.295112; base 1 back.
  const b = await expectBalance(A.uid, base, 5.4983002, 0);
  return `${res.length} cancelled; ${await expectBalance(A.uid, 'USDT', 10449.295112, 0)}; ${b}`;
});

await check('cancelAllOrders', async () => {
  // Buys 1 @ 99 and 1 @ 98 freeze 197; cancel-symbol-order gives it back.
  const a = await exA.createOrder(S, 'limit', 'buy', 1, 99);
  const b = await exA.createOrder(S, 'limit', 'buy', 1, 98);
  ids.buy99 = a.id;
  ids.buy98 = b.id;
  await expectBalance(A.uid, 'USDT', 10449.295112 - 197, 197);
  const res = await exA.cancelAllOrders(S);
  sameSet(res.map((o) => o.id), [a.id, b.id], 'cancelled ids');
  same((await exA.fetchOpenOrders(S)).length, 0, 'open orders left');
  return `${res.length} cancelled; ${await expectBalance(A.uid, 'USDT', 10449.295112, 0)}`;
});

await check('resting limit filled by a ticker move (maker)', async () => {
  // Buy 1 @ 99.95 rests (99.95 frozen); the ask falls to 99.91: it fills as the maker at its own price, 99.95 USDT,
  // maker fee 0.1% of 1 = 0.001 base. USDT 10449.295112 - 99.95 = 10349.345112; base 5.4983002 + 0.999 = 6.4973002.
  const o = await exA.createOrder(S, 'limit', 'buy', 1, 99.95);
  ids.maker = o.id;
  await setTicker('SPOT', spot, { last: '99.9', ask: '99.91', bid: '99.89', size: '5' });
  const f = await exA.fetchOrder(o.id, S);
  expectOrder(f, { status: 'closed', filled: 1, price: 99.95, fee: { cost: -0.001, currency: undefined } }, 'order');
  near(f.info.avgPrice, 99.95, 'avgPrice');
  const fill = (await exA.fetchMyTrades(S)).find((t) => t.order === o.id);
  expectTrade(fill, { price: 99.95, amount: 1, cost: 99.95, side: 'buy', takerOrMaker: 'maker', fee: { cost: -0.001, currency: base } }, 'maker fill');
  const usdt = await expectBalance(A.uid, 'USDT', 10349.345112, 0);
  return `1@99.95 maker; ${usdt}; ${await expectBalance(A.uid, base, 6.4973002, 0)}`;
});

await check('fetchClosedOrders', async () => {
  const closed = await exA.fetchClosedOrders(S);
  sameSet(closed.map((o) => o.id), [ids.marketSell, ids.marketBuy, ids.maker], 'closed (filled) orders');
  const sell = closed.find((o) => o.id === ids.marketSell);
  expectOrder(sell, { filled: 6, side: 'sell', type: 'market', fee: { cost: -0.59989, currency: undefined } }, 'market sell');
  return `${closed.length} filled`;
});

await check('fetchCanceledOrders', async () => {
  const cancelled = await exA.fetchCanceledOrders(S);
  sameSet(cancelled.map((o) => o.id), [ids.rest, ids.postCrossing, ids.postResting, ids.sell101, ids.buy99, ids.buy98], 'canceled orders');
  expectOrder(cancelled.find((o) => o.id === ids.rest), { amount: 3, price: 99.9, filled: 0, clientOrderId: `${tag}-rest` }, 'edited order');
  return `${cancelled.length} canceled`;
});

await check('fetchTrades', async () => {
  // The public tape of the pair: the taker fills (taker's side) and the maker fill at 99.95 (its taker side: sell).
  const trades = await exA.fetchTrades(S);
  const key = (t) => `${t.side} ${t.amount}@${t.price}`;
  sameSet(trades.map(key), ['sell 5@99.99', 'sell 1@99.94', 'buy 1.4998@100.01', 'sell 1@99.95'], 'public trades');
  for (const t of trades) {
    same(t.symbol, S, 'symbol');
    near(t.cost, { 99.99: 499.95, 99.94: 99.94, 100.01: 149.994998, 99.95: 99.95 }[t.price], `${key(t)} cost`);
  }
  return trades.map(key).join(', ');
});

await check('fetchOHLCV', async () => {
  // 1-minute candles of the pair: the tickers move the close (100 first, 99.9 later) and the trades add volume:
  // open 100, high 100.01, low 99.9, close 99.95 (the maker fill after the ticker at 99.9);
  // volume 5 + 1 + 1.4998 + 1 = 8.4998, turnover 499.95 + 99.94 + 149.994998 + 99.95 = 849.834998.
  // The run may cross a minute: the candles are folded.
  const candles = await exA.fetchOHLCV(S, '1m');
  assert(candles.length >= 1 && candles.length <= 3, `${candles.length} candles`);
  const [ts, open] = candles[0];
  const close = candles.at(-1)[4];
  const high = Math.max(...candles.map((c) => c[2]));
  const low = Math.min(...candles.map((c) => c[3]));
  const volume = candles.reduce((s, c) => s + c[5], 0);
  near(open, 100, 'open');
  near(high, 100.01, 'high');
  near(low, 99.9, 'low');
  near(close, 99.95, 'close');
  near(volume, 8.4998, 'volume');
  same(ts % 60_000, 0, 'minute start');
  const raw = await fetch(`${baseUrl}/api/v3/market/candles?category=SPOT&symbol=${spot}&interval=1m`).then((r) => r.json());
  near(raw.data.reduce((s, c) => s + Number(c[6]), 0), 849.834998, 'turnover (raw row)');
  return `folded: O ${open} H ${high} L ${low} C ${close} V ${+volume.toFixed(8)}`;
});

// ---- futures, account B: 10000 USDT, one-way mode, leverage 10 (default), crossed ----

await check('createOrder futures market (one-way)', async () => {
  // Buy 2 at the ask 100.01: margin 200.02 / 10 = 20.002, taker fee 200.02 x 0.0006 = 0.120012.
  const m = await exB.createOrder(P, 'market', 'buy', 2);
  ids.perpOpen = m.id;
  const o = await exB.fetchOrder(m.id, P);
  expectOrder(o, { status: 'closed', filled: 2, amount: 2, reduceOnly: false, fee: { cost: -0.120012, currency: 'USDT' } }, 'order');
  near(o.info.avgPrice, 100.01, 'avgPrice');
  same(o.info.posSide, 'net', 'posSide');
  return await expectBalance(B.uid, 'USDT', 10000 - 20.002 - 0.120012, 20.002);
});

await check('fetchPositions after a futures fill', async () => {
  const positions = await exB.fetchPositions([P]);
  same(positions.length, 1, 'positions');
  const p = positions[0];
  // Mark 99.99: unrealised PnL 2 x (99.99 - 100.01) = -0.04.
  expectOrder(p, { symbol: P, side: 'long', contracts: 2, entryPrice: 100.01, markPrice: 99.99, unrealizedPnl: -0.04, leverage: 10,
    marginMode: 'cross', hedged: false }, 'position');
  // Crossed, with 9979.877988 USDT behind 2 contracts: no price above 0 liquidates it; the row says 0 and ccxt
  // leaves a zero liquidation price out (omitZero).
  const admin = (await adminGet(`/admin/v1/accounts/${B.uid}/positions`)).find((r) => r.symbol === perp);
  near(admin.liquidationPrice, 0, 'liquidationPrice (admin API)');
  same(p.liquidationPrice, undefined, 'liquidationPrice');
  return `${p.side} ${p.contracts}@${p.entryPrice} x${p.leverage} upl ${p.unrealizedPnl}`;
});

await check('fetchFundingRate', async () => {
  const before = Date.now();
  const f = await exB.fetchFundingRate(P);
  near(f.fundingRate, 0.000125, 'fundingRate');
  same(f.symbol, P, 'symbol');
  same(f.interval, '8h', 'interval');
  assert([nextFunding(before), nextFunding(Date.now())].includes(f.fundingTimestamp), `fundingTimestamp ${f.fundingTimestamp}, want ${nextFunding(before)}`);
  return `${f.fundingRate} every ${f.interval}, next at the 8-hour boundary`;
});

await check('createOrder reduceOnly (one-way), filled by a ticker move', async () => {
  // Reduce-only sell 2 @ 110 rests and freezes nothing; the bid rises to 110.5 (mark 110.5): it fills as the maker at 110.
  // PnL 2 x (110 - 100.01) = 19.98, maker fee 220 x 0.0002 = 0.044, margin 20.002 back:
  // 10000 - 0.120012 + 19.98 - 0.044 = 10019.815988.
  const r = await exB.createOrder(P, 'limit', 'sell', 2, 110, { reduceOnly: true });
  ids.reduce = r.id;
  expectOrder(await exB.fetchOrder(r.id, P), { status: 'open', reduceOnly: true, price: 110, amount: 2 }, 'resting reduce-only');
  await expectBalance(B.uid, 'USDT', 10000 - 20.002 - 0.120012, 20.002);
  await setTicker('USDT-FUTURES', perp, { last: '110.5', ask: '110.6', bid: '110.5', size: '10', mark: '110.5', fundingRate: '0.000125' });
  const o = await exB.fetchOrder(r.id, P);
  expectOrder(o, { status: 'closed', filled: 2, reduceOnly: true, fee: { cost: -0.044, currency: 'USDT' } }, 'filled reduce-only');
  same((await exB.fetchPositions([P])).length, 0, 'positions left');
  const fill = (await exB.fetchMyTrades(P)).find((t) => t.order === r.id);
  expectTrade(fill, { price: 110, amount: 2, cost: 220, side: 'sell', takerOrMaker: 'maker', fee: { cost: -0.044, currency: 'USDT' } }, 'fill');
  return `2@110 maker, PnL 19.98; ${await expectBalance(B.uid, 'USDT', 10019.815988, 0)}`;
});

await check('createOrder hedged (hedge_mode and back)', async () => {
  // Account B holds no position now: hedge mode, then a long and a short opened and both closed with reduceOnly.
  await exB.setPositionMode(true, P);
  const mode = async () => (await exB.privateUtaGetV3AccountSettings()).data.holdMode;
  same(await mode(), 'hedge_mode', 'holdMode');
  // Long 1 at the ask 110.6: fee 0.06636, margin 11.06. Short 1 at the bid 110.5: fee 0.0663, margin 11.05.
  const long = await exB.createOrder(P, 'market', 'buy', 1, undefined, { hedged: true });
  const short = await exB.createOrder(P, 'market', 'sell', 1, undefined, { hedged: true });
  same((await exB.fetchOrder(long.id, P)).info.posSide, 'long', 'long posSide');
  same((await exB.fetchOrder(short.id, P)).info.posSide, 'short', 'short posSide');
  await expectBalance(B.uid, 'USDT', 10019.815988 - 0.06636 - 0.0663 - 11.06 - 11.05, 22.11);
  const positions = await exB.fetchPositions([P]);
  sameSet(positions.map((p) => `${p.side} ${p.contracts}@${p.entryPrice} ${p.hedged}`), ['long 1@110.6 true', 'short 1@110.5 true'], 'positions');
  // Mark 110.5: the long has -0.1 unrealised, the short 0.
  near(positions.find((p) => p.side === 'long').unrealizedPnl, -0.1, 'long unrealizedPnl');
  near(positions.find((p) => p.side === 'short').unrealizedPnl, 0, 'short unrealizedPnl');
  // Close long: sell 1 at 110.5 (PnL -0.1, fee 0.0663); close short: buy 1 at 110.6 (PnL -0.1, fee 0.06636).
  const closeLong = await exB.createOrder(P, 'market', 'sell', 1, undefined, { hedged: true, reduceOnly: true });
  const closeShort = await exB.createOrder(P, 'market', 'buy', 1, undefined, { hedged: true, reduceOnly: true });
  const cl = await exB.fetchOrder(closeLong.id, P);
  same(cl.info.posSide, 'long', 'close long posSide');
  same(cl.info.tradeSide, 'close', 'close long tradeSide');
  expectOrder(cl, { status: 'closed', filled: 1 }, 'close long');
  expectOrder(await exB.fetchOrder(closeShort.id, P), { status: 'closed', filled: 1 }, 'close short');
  same((await exB.fetchPositions([P])).length, 0, 'positions left');
  // 10019.815988 - 2 x 0.06636 - 2 x 0.0663 - 0.1 - 0.1 = 10019.350668.
  const bal = await expectBalance(B.uid, 'USDT', 10019.350668, 0);
  await exB.setPositionMode(false, P);
  same(await mode(), 'one_way_mode', 'holdMode restored');
  return `one_way_mode -> hedge_mode (long 1@110.6, short 1@110.5, both closed) -> one_way_mode; ${bal}`;
});

finish();
