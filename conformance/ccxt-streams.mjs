// ccxt.pro WebSocket conformance (issue 27, first streams): the real, unmodified ccxt 4.5.84 `pro.bitget` client, its
// REST and WebSocket URLs pointed at the server (the unified-account streams, `uta: true`), watches the balance, an
// order and a ticker while REST orders and a ticker move change them. Figures by hand from the ticker this script sets
// (trading-fixture.mjs rules). Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and `N passed, M failed`.
import ccxt from 'ccxt';
import { baseUrl, checks, createInstruments, fundedAccount, near, runTag, same, setTicker } from './trading-fixture.mjs';

const tag = runTag('CW');
const { check, finish } = checks([[tag, 'BASE']]);
const { base, spot } = await createInstruments(tag);
const S = `${base}/USDT`;
await setTicker('SPOT', spot, { last: '100', ask: '100.01', bid: '99.99', size: '5' });
const A = await fundedAccount(`ccxt-ws-${tag}`, { USDT: '1000' });

const ex = new ccxt.pro.bitget({ apiKey: A.apiKey, secret: A.secret, password: A.password, timeout: 15000, options: { uta: true } });
for (const section of Object.keys(ex.urls.api)) if (typeof ex.urls.api[section] === 'string') ex.urls.api[section] = baseUrl;
const wsBase = baseUrl.replace(/^http/, 'ws');
Object.assign(ex.urls.api.ws, { utaPublic: `${wsBase}/v3/ws/public`, utaPrivate: `${wsBase}/v3/ws/private` });
await ex.loadHttpProxyAgent(); // ccxt's own rule before a plain ws:// URL (websocket-wire.md)
await ex.loadMarkets();

await check('watchBalance (uta)', async () => {
  const b = await ex.watchBalance({ uta: true });
  near(b.USDT.free, '1000', 'USDT free');
  near(b.USDT.total, '1000', 'USDT total');
  return `USDT ${b.USDT.free}/${b.USDT.total}`;
});

await check('watchOrders + createOrder', async () => {
  const watching = ex.watchOrders(S, undefined, undefined, { uta: true });
  await new Promise((r) => setTimeout(r, 300)); // subscribed before the order
  // A limit buy of 2 at 100 rests below the ask 100.01.
  const placed = await ex.createOrder(S, 'limit', 'buy', 2, 100);
  const orders = await watching;
  const o = orders.find((x) => x.id === placed.id);
  same(o?.status, 'open', 'status');
  same(o.symbol, S, 'symbol');
  near(o.price, '100', 'price');
  near(o.amount, '2', 'amount');
  return `open 2@100`;
});

await check('watchOrderBook (books5)', async () => {
  // The resting buy (2 at 100) is the best bid; the ask is the ticker's level 1 (100.01, 5).
  const ob = await ex.watchOrderBook(S, 5, { uta: true });
  same(JSON.stringify(ob.bids[0]), JSON.stringify([100, 2]), 'best bid');
  same(JSON.stringify(ob.asks[0]), JSON.stringify([100.01, 5]), 'best ask');
  same(ob.asks.length, 5, 'ask levels');
  return `bid ${ob.bids[0].join('x')}, ask ${ob.asks[0].join('x')}, 5 levels`;
});

await check('watchTicker + watchMyTrades: a fill by a ticker move', async () => {
  const watching = ex.watchTicker(S, { uta: true });
  const filled = ex.watchOrders(S, undefined, undefined, { uta: true });
  const trades = ex.watchMyTrades(S, undefined, undefined, { uta: true });
  await new Promise((r) => setTimeout(r, 500)); // the ticker and fill subscriptions are in before the move
  // The ask falls to 99.5: the resting buy at 100 fills as maker.
  await setTicker('SPOT', spot, { last: '99.4', ask: '99.5', bid: '99.4', size: '5' });
  const t = await watching;
  near(t.last, '99.4', 'last');
  const orders = await filled;
  same(orders[orders.length - 1].status, 'closed', 'status');
  near(orders[orders.length - 1].filled, '2', 'filled');
  // The fill: 2 at the order's own price 100, as maker; fee 0.1% of the 2 bought, in the base coin.
  const [trade] = await trades;
  near(trade.price, '100', 'trade price');
  near(trade.amount, '2', 'trade amount');
  same(trade.takerOrMaker, 'maker', 'takerOrMaker');
  near(trade.fee.cost, '0.002', 'fee');
  same(trade.fee.currency, base, 'fee currency');
  return `last ${t.last}; the buy closed; maker 2@100, fee 0.002`;
});

await ex.close();
finish();
