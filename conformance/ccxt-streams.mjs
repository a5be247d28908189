// ccxt.pro WebSocket conformance (issue 27): the real, unmodified ccxt 4.5.84 `pro.bitget` client, its REST and
// WebSocket URLs pointed at the server (the unified-account streams, `uta: true`), watches the balance, orders, fills,
// the whole and the incremental book, the ticker, public trades, candles and positions while REST orders and ticker
// moves change them. Figures by hand from the ticker this script sets (trading-fixture.mjs rules). Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and `N passed, M failed`.
import ccxt from 'ccxt';
import {
  checks, fundedAccount, lastCandle, near, ownMarkets, proClient, same, setTicker, settle, until,
} from './trading-fixture.mjs';

const { tag, base, spot, S, P } = await ownMarkets('CW');
const { check, finish } = checks([[tag, 'BASE']]);
const A = await fundedAccount(`ccxt-ws-${tag}`, { USDT: '1000' });

const ex = await proClient(ccxt, A, { uta: true });

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

let fillTime;
await check('watchTicker + watchMyTrades: a fill by a ticker move', async () => {
  const watching = ex.watchTicker(S, { uta: true });
  const filled = ex.watchOrders(S, undefined, undefined, { uta: true });
  const trades = ex.watchMyTrades(S, undefined, undefined, { uta: true });
  await new Promise((r) => setTimeout(r, 500)); // the ticker and fill subscriptions are in before the move
  // The ask falls to 99.5: the resting buy at 100 fills as maker.
  await setTicker('SPOT', spot, { last: '99.4', ask: '99.5', bid: '99.4', size: '5' });
  await watching; // the ticker as it was on subscribe, or the move; then ccxt's ticker cache until the move is in
  const t = await until(() => Number(ex.tickers[S]?.last) === 99.4 && ex.tickers[S], 'the ticker after the move');
  near(t.last, '99.4', 'last');
  const orders = await filled;
  same(orders[orders.length - 1].status, 'closed', 'status');
  near(orders[orders.length - 1].filled, '2', 'filled');
  // The fill: 2 at the order's own price 100, as maker; fee 0.1% of the 2 bought, in the base coin.
  const [trade] = await trades;
  fillTime = trade.timestamp;
  near(trade.price, '100', 'trade price');
  near(trade.amount, '2', 'trade amount');
  same(trade.takerOrMaker, 'maker', 'takerOrMaker');
  near(trade.fee.cost, '0.002', 'fee');
  same(trade.fee.currency, base, 'fee currency');
  return `last ${t.last}; the buy closed; maker 2@100, fee 0.002`;
});

/** A level of ccxt's counted book: [price, size] (it keeps the pushed strings beside them, for the checksum). */
const level = (l) => [l[0], l[1]];

// ccxt keeps one book per symbol whatever the channel: the incremental one is watched by a client of its own.
const books = await proClient(ccxt, {}, { uta: true });

await check('watchOrderBook (books, incremental)', async () => {
  // After the fill the book is the ticker's alone: bid 99.4, ask 99.5, 5 a level.
  const first = await books.watchOrderBook(S, undefined, { uta: true });
  same(JSON.stringify([level(first.bids[0]), level(first.asks[0])]), JSON.stringify([[99.4, 5], [99.5, 5]]), 'best bid and ask');
  // The ask rises to 99.6, the bid falls to 99.3: an update of the changed levels only.
  const next = books.watchOrderBook(S, undefined, { uta: true });
  await setTicker('SPOT', spot, { last: '99.4', ask: '99.6', bid: '99.3', size: '5' });
  const ob = await next;
  same(JSON.stringify([level(ob.bids[0]), level(ob.asks[0])]), JSON.stringify([[99.3, 5], [99.6, 5]]), 'after the move');
  // The book ccxt built from the snapshot and the update equals the REST order book after it, level for level.
  const rest = await ex.fetchOrderBook(S, 50, { uta: true });
  same(JSON.stringify([ob.bids.map(level), ob.asks.map(level)]), JSON.stringify([rest.bids, rest.asks]), 'the REST book');
  return `bid ${level(ob.bids[0]).join('x')}, ask ${level(ob.asks[0]).join('x')}, as REST`;
});

await check('watchTrades + watchOHLCV (uta): a market buy', async () => {
  const tape = ex.watchTrades(S, undefined, undefined, { uta: true });
  await settle();
  // The snapshot: the earlier fill, 2 at 100, the taker sold.
  const before = await tape;
  same(JSON.stringify(before.map((t) => [t.side, t.amount, t.price])), JSON.stringify([['sell', 2, 100]]), 'snapshot');
  const next = ex.watchTrades(S, undefined, undefined, { uta: true });
  // A market buy of 1 takes the ask 99.6.
  await ex.createOrder(S, 'market', 'buy', 99.6, undefined, { uta: true, createMarketBuyOrderRequiresPrice: false });
  const after = (await next).at(-1);
  same(`${after.side} ${after.amount} ${after.price}`, 'buy 1 99.6', 'new trade');
  // Its minute's candle closes at 99.6; its volume is 1, plus the earlier fill's 2 when both fell in one minute.
  const minute = (ms) => Math.floor(ms / 60000);
  const volume = minute(after.timestamp) === minute(fillTime) ? 3 : 1;
  await ex.watchOHLCV(S, '1m', undefined, undefined, { uta: true });
  const c = await until(() => lastCandle(ex, S, volume), `a 1m candle of volume ${volume}`);
  near(c[4], '99.6', 'candle close');
  near(c[5], String(volume), 'candle volume');
  return `tape buy 1@99.6; candle C ${c[4]}, V as computed`;
});

await check('watchPositions (uta): a futures market buy', async () => {
  const watching = ex.watchPositions([P], undefined, undefined, { uta: true });
  await settle();
  // Buy 1 at the ask 100.01, leverage 10; mark 99.99, so the PnL is -0.02.
  await ex.createOrder(P, 'market', 'buy', 1, undefined, { uta: true });
  await watching; // the snapshot on subscribe (flat), or the position; then ccxt's position cache
  const p = await until(() => (ex.positions?.UTA ?? []).find((x) => x.symbol === P && Number(x.contracts) > 0), 'the long');
  same(`${p.symbol} ${p.side}`, `${P} long`, 'position');
  near(p.contracts, '1', 'contracts');
  near(p.entryPrice, '100.01', 'entryPrice');
  near(p.unrealizedPnl, '-0.02', 'unrealizedPnl');
  return `long 1@${p.entryPrice} upl ${p.unrealizedPnl}`;
});

await ex.close();
await books.close();
finish();
