// bitget-api WebSocket conformance (issue 27, first streams): the real, unmodified `bitget-api` SDK (pinned 3.2.3,
// WebsocketClientV3 with only `wsUrl` set, so its public and private connections share one URL, as its docs say) logs
// in, subscribes the unified account and order topics and a public ticker, and receives what a REST order and a ticker
// move change, after their commit. Figures by hand from the ticker this script sets (trading-fixture.mjs rules).
// Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and `N passed, M failed`; exits 0 only if all passed.
import { RestClientV2, RestClientV3, WebsocketClientV2, WebsocketClientV3 } from 'bitget-api';
import {
  sdkData as data, adminPost, assert, baseUrl, checks, createInstruments, fundedAccount, near, runTag, same, setTicker,
} from './trading-fixture.mjs';

const tag = runTag('WS');
const { check, finish } = checks([[tag, 'BASE']]);
const wsUrl = baseUrl.replace(/^http/, 'ws') + '/v3/ws/private';

// ---- set-up: an own spot pair (ask 100.01 / bid 99.99, 5 a level) and a fresh unified account with 1000 USDT ----
const { spot } = await createInstruments(tag);
await setTicker('SPOT', spot, { last: '100', ask: '100.01', bid: '99.99', size: '5' });
const C = await fundedAccount(`ws-${tag}`, { USDT: '1000' });
const rest = new RestClientV3({ apiKey: C.apiKey, apiSecret: C.secret, apiPass: C.password, baseUrl }, { timeout: 15000 });
const silent = { trace: () => {}, info: () => {}, error: () => {} };
const ws = new WebsocketClientV3({ apiKey: C.apiKey, apiSecret: C.secret, apiPass: C.password, wsUrl }, silent);
const updates = [];
let authenticated = false;
ws.on('update', (e) => updates.push(e));
ws.on('authenticated', () => { authenticated = true; });

/** The first update that matches (looked for from `from` on), within 10 s. */
async function next(which, from = 0) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const found = updates.slice(from).find(which);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no such update within 10 s');
}

const usdt = (e) => (e.data?.[0]?.coin ?? []).find((c) => c.coin === 'USDT');

await check('v3 ws login + account snapshot', async () => {
  ws.subscribe([{ topic: 'account', payload: { instType: 'UTA' } }, { topic: 'order', payload: { instType: 'UTA' } }], 'v3Private');
  const snap = await next((e) => e.arg?.topic === 'account' && e.action === 'snapshot');
  await new Promise((r) => setTimeout(r, 300)); // the order topic's ack follows the account snapshot
  assert(authenticated, 'authenticated event');
  near(usdt(snap).available, '1000', 'USDT available');
  near(usdt(snap).balance, '1000', 'USDT balance');
  return `USDT ${usdt(snap).available}`;
});

await check('v3 ws order + account after a REST order', async () => {
  const from = updates.length;
  // A limit buy of 2 at 100 rests below the ask 100.01: 2 x 100 = 200 USDT frozen.
  const placed = await data(rest.submitNewOrder({ category: 'SPOT', symbol: spot, side: 'buy', orderType: 'limit', qty: '2', price: '100' }));
  const order = await next((e) => e.arg?.topic === 'order' && e.data?.[0]?.orderId === placed.orderId, from);
  same(order.data[0].orderStatus, 'live', 'orderStatus');
  same(order.data[0].category, 'spot', 'category');
  const account = await next((e) => e.arg?.topic === 'account' && e.action === 'update', from);
  near(usdt(account).available, '800', 'USDT available');
  near(usdt(account).locked, '200', 'USDT locked');
  return `live; USDT ${usdt(account).available}/${usdt(account).locked}`;
});

await check('v3 ws public ticker on the same URL', async () => {
  ws.subscribe([{ topic: 'ticker', payload: { instType: 'spot', symbol: spot } }], 'v3Public');
  await new Promise((r) => setTimeout(r, 300)); // the subscribe ack first
  const from = updates.length;
  // The ask falls to 99.5: the resting buy at 100 fills as maker (its push is the next check's).
  await setTicker('SPOT', spot, { last: '99.4', ask: '99.5', bid: '99.4', size: '5' });
  // The ticker as it was on subscribe may come first: the push after the move is the one with the new price.
  const t = await next((e) => e.arg?.topic === 'ticker' && e.arg?.symbol === spot && e.data?.[0]?.lastPrice === '99.4', from);
  same(t.data[0].lastPrice, '99.4', 'lastPrice');
  const filled = await next((e) => e.arg?.topic === 'order' && e.data?.[0]?.orderStatus === 'filled', from);
  near(filled.data[0].cumExecQty, '2', 'cumExecQty');
  return `last ${t.data[0].lastPrice}; the buy filled`;
});

ws.closeAll(true);

// ---- v2: a classic account's channels through WebsocketClientV2, also with only wsUrl set ----
const { uid: classicUid } = await adminPost('/admin/v1/accounts', { username: `ws-classic-${tag}`, accountMode: 'CLASSIC' });
const classicKey = await adminPost('/admin/v1/keys', { uid: classicUid, passphrase: 'Trading1', permType: 'read-and-write', permissions: [] });
await adminPost('/admin/v1/ledger/deposit', { uid: classicUid, account: 'spot', coin: 'USDT', amount: '1000', ref: `fund-ws-classic-${tag}` });
const K = { apiKey: classicKey.accessKey, apiSecret: classicKey.secret, apiPass: 'Trading1' };
const restV2 = new RestClientV2({ ...K, baseUrl }, { timeout: 15000 });
const wsV2 = new WebsocketClientV2({ ...K, wsUrl: baseUrl.replace(/^http/, 'ws') + '/v2/ws/private' }, silent);
let reconnected = false;
wsV2.on('update', (e) => updates.push(e));
wsV2.on('reconnected', () => { reconnected = true; });
const spotUsdt = (e) => (e.data ?? []).find((c) => c.coin === 'USDT');

await check('v2 ws login + spot account snapshot', async () => {
  const from = updates.length;
  wsV2.subscribeTopic('SPOT', 'account');
  wsV2.subscribeTopic('SPOT', 'orders');
  const snap = await next((e) => e.arg?.channel === 'account' && e.arg?.instType === 'SPOT', from);
  near(spotUsdt(snap).available, '1000', 'USDT available');
  await new Promise((r) => setTimeout(r, 300)); // the orders channel's ack follows
  return `USDT ${spotUsdt(snap).available}`;
});

await check('v2 ws orders + account after a REST order', async () => {
  const from = updates.length;
  // The ask is 99.5 after the fill above: a limit buy of 1 at 99 rests, 99 USDT frozen.
  const placed = await data(restV2.spotSubmitOrder({ symbol: spot, side: 'buy', orderType: 'limit', force: 'gtc', size: '1', price: '99' }));
  const order = await next((e) => e.arg?.channel === 'orders' && e.data?.[0]?.orderId === placed.orderId, from);
  same(order.data[0].status, 'live', 'status');
  same(order.data[0].instId, spot, 'instId');
  const account = await next((e) => e.arg?.channel === 'account' && spotUsdt(e)?.frozen === '99', from);
  near(spotUsdt(account).available, '901', 'USDT available');
  return `live; USDT ${spotUsdt(account).available}/${spotUsdt(account).frozen}`;
});

await check('v2 ws a forced disconnect: reconnect, login, resubscribe, fresh snapshot', async () => {
  const from = updates.length;
  const { closed } = await adminPost('/admin/v1/streams/disconnect', { uid: classicUid });
  same(closed, 1, 'connections closed');
  const snap = await next((e) => e.arg?.channel === 'account' && e.action === 'snapshot', from);
  assert(reconnected, 'reconnected event');
  near(spotUsdt(snap).available, '901', 'USDT available');
  near(spotUsdt(snap).frozen, '99', 'USDT frozen');
  return `reconnected; USDT ${spotUsdt(snap).available}/${spotUsdt(snap).frozen}`;
});

wsV2.closeAll(true);
finish();
