// bitget-api classic trading conformance (issue 26): the real, unmodified `bitget-api` SDK (pinned 3.2.3, RestClientV2,
// only `baseUrl` changed) trades spot and futures on classic accounts through the v2 rows, on the same engine as the
// unified rows, and reads the v2 market rows. The SDK hands back the raw rows, so each string is compared with a figure
// computed by hand below from the tickers this script sets and the engine's rules (trading-fixture.mjs); balances are
// read back from the admin API (a classic account's spot coins in `spot`, its futures margin in `unified`, D171).
// Prints `ok <check> (<summary>)` / `FAIL <check>: <details>` and `N passed, M failed`; exits 0 only if all passed.
import { RestClientV2 } from 'bitget-api';
import { adminGet, adminPost, baseUrl, checks, sdkData as data, sdkRefused as refused, expectRow, createInstruments, near, runTag, same, setTicker } from './trading-fixture.mjs';

const tag = runTag('SC');
const { check, finish } = checks([[tag, 'BASE']]);




async function classicAccount(name, wallet, balances) {
  const { uid } = await adminPost('/admin/v1/accounts', { username: name, accountMode: 'CLASSIC' });
  const key = await adminPost('/admin/v1/keys', { uid, passphrase: 'Trading1', permType: 'read-and-write', permissions: [] });
  for (const [coin, amount] of Object.entries(balances)) {
    await adminPost('/admin/v1/ledger/deposit', { uid, account: wallet, coin, amount, ref: `fund-${name}-${coin}` });
  }
  return { uid: String(uid), client: new RestClientV2({ apiKey: key.accessKey, apiSecret: key.secret, apiPass: 'Trading1', baseUrl }, { timeout: 15000 }) };
}

async function expectWallet(wallet, uid, coin, available, frozen) {
  const b = (await adminGet(`/admin/v1/accounts/${uid}/balances`)).find((x) => x.account === wallet && x.coin === coin) ?? { available: '0', frozen: '0' };
  near(b.available, available, `${wallet} ${coin} available`);
  near(b.frozen, frozen, `${wallet} ${coin} frozen`);
  return `${coin} ${Number(b.available)}/${Number(b.frozen)}`;
}

// ---- set-up: own instruments and tickers (ask 100.01 / bid 99.99), a classic spot and a classic futures account ----
const { base, spot, perp } = await createInstruments(tag);
await setTicker('SPOT', spot, { last: '100', ask: '100.01', bid: '99.99', size: '5' });
await setTicker('USDT-FUTURES', perp, { last: '100', ask: '100.01', bid: '99.99', size: '10', mark: '99.99', fundingRate: '0.0001' });
const S = await classicAccount(`sdk-classic-${tag}`, 'spot', { USDT: '10000', [base]: '10' });
const F = await classicAccount(`sdk-classic-swap-${tag}`, 'unified', { USDT: '10000' });
const ids = {};

await check('v2 spot market rows (ticker, order book)', async () => {
  const [t] = await data(S.client.getSpotTicker({ symbol: spot }));
  expectRow(t, { symbol: spot, lastPr: '100', bidPr: '99.99', askPr: '100.01' }, 'ticker');
  const ob = await data(S.client.getSpotOrderBookDepth({ symbol: spot, limit: '3' }));
  same(JSON.stringify(ob.asks), JSON.stringify([['100.01', '5'], ['100.07', '5'], ['100.12', '5']]), 'asks');
  same(JSON.stringify(ob.bids), JSON.stringify([['99.99', '5'], ['99.94', '5'], ['99.89', '5']]), 'bids');
  return 'best 99.99/100.01, 3 levels a side';
});

await check('v2 spotSubmitOrder limit + getSpotOrder', async () => {
  // Buy 2 at 99.5 rests: 199 USDT of spot frozen.
  const r = await data(S.client.spotSubmitOrder({ symbol: spot, side: 'buy', orderType: 'limit', force: 'gtc', price: '99.5', size: '2', clientOid: `${tag}-s1` }));
  ids.rest = r.orderId;
  same(r.clientOid, `${tag}-s1`, 'clientOid');
  const [o] = await data(S.client.getSpotOrder({ orderId: r.orderId }));
  expectRow(o, { orderId: r.orderId, status: 'live', price: '99.5', size: '2', baseVolume: '0', orderType: 'limit', side: 'buy' }, 'order');
  return await expectWallet('spot', S.uid, 'USDT', 9801, 199);
});

await check('v2 spot market sell + fee detail', async () => {
  // Sell 3 into the bids: 3 @ 99.99 = 299.97, fee 0.29997 USDT.
  const r = await data(S.client.spotSubmitOrder({ symbol: spot, side: 'sell', orderType: 'market', force: 'gtc', size: '3' }));
  const [o] = await data(S.client.getSpotOrder({ orderId: r.orderId }));
  expectRow(o, { status: 'filled', baseVolume: '3', quoteVolume: '299.97', priceAvg: '99.99' }, 'market sell');
  const fee = JSON.parse(o.feeDetail);
  near(fee.USDT.totalFee, -0.29997, 'feeDetail USDT totalFee');
  return `3 for 299.97, fee 0.29997; ${await expectWallet('spot', S.uid, 'USDT', 9801 + 299.97 - 0.29997, 199)}`;
});

await check('v2 getSpotOpenOrders, spotCancelOrder, getSpotHistoricOrders', async () => {
  const open = await data(S.client.getSpotOpenOrders({ symbol: spot }));
  same(open.map((o) => `${o.orderId} ${o.priceAvg}`).join(), `${ids.rest} 99.5`, 'open orders (price in priceAvg)');
  await data(S.client.spotCancelOrder({ symbol: spot, orderId: ids.rest }));
  await refused(S.client.spotCancelOrder({ symbol: spot, orderId: ids.rest }), '43001');
  const history = await data(S.client.getSpotHistoricOrders({ symbol: spot }));
  same(history.map((o) => o.status).sort().join(), 'cancelled,filled', 'history statuses');
  // The 199 frozen comes back: 10100.67003 + 199.
  return `cancelled, again 43001; ${await expectWallet('spot', S.uid, 'USDT', 10299.67003, 0)}`;
});

await check('v2 spotBatchCancelOrders and spotCancelSymbolOrder', async () => {
  const a = await data(S.client.spotSubmitOrder({ symbol: spot, side: 'buy', orderType: 'limit', force: 'gtc', price: '99', size: '1' }));
  const res = await data(S.client.spotBatchCancelOrders({ symbol: spot, orderList: [{ orderId: a.orderId }, { orderId: '1' }] }));
  same(res.successList.map((x) => x.orderId).join(), a.orderId, 'successList');
  same(res.failureList.map((x) => x.errorCode).join(), '43001', 'failureList');
  await data(S.client.spotSubmitOrder({ symbol: spot, side: 'buy', orderType: 'limit', force: 'gtc', price: '98', size: '1' }));
  await data(S.client.spotCancelSymbolOrder({ symbol: spot }));
  same((await data(S.client.getSpotOpenOrders({ symbol: spot }))).length, 0, 'open orders left');
  return `1 cancelled, 1 refused (43001), symbol cleared; ${await expectWallet('spot', S.uid, 'USDT', 10299.67003, 0)}`;
});

await check('v2 getSpotAccountAssets', async () => {
  const assets = await data(S.client.getSpotAccountAssets());
  const byCoin = Object.fromEntries(assets.map((a) => [a.coin, `${a.available}/${a.frozen}`]));
  same(byCoin.USDT, '10299.67003/0', 'USDT');
  same(byCoin[base], '7/0', 'BASE');
  return `USDT ${byCoin.USDT}, BASE ${byCoin[base]}`;
});

await check('v2 futures leverage, margin mode and position mode', async () => {
  await data(F.client.setFuturesMarginMode({ symbol: perp, productType: 'USDT-FUTURES', marginCoin: 'USDT', marginMode: 'crossed' }));
  const lev = await data(F.client.setFuturesLeverage({ symbol: perp, productType: 'USDT-FUTURES', marginCoin: 'USDT', leverage: '20' }));
  expectRow(lev, { longLeverage: '20', shortLeverage: '20', marginMode: 'crossed' }, 'leverage');
  const mode = await data(F.client.setFuturesPositionMode({ productType: 'USDT-FUTURES', posMode: 'one_way_mode' }));
  same(mode.posMode, 'one_way_mode', 'posMode');
  return 'crossed x20, one_way_mode';
});

await check('v2 futuresSubmitOrder market + getFuturesOrder', async () => {
  // Buy 2 at the ask 100.01: margin 200.02 / 20 = 10.001, taker fee 0.120012.
  const r = await data(F.client.futuresSubmitOrder({ symbol: perp, productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT',
    size: '2', side: 'buy', orderType: 'market' }));
  const o = await data(F.client.getFuturesOrder({ symbol: perp, productType: 'USDT-FUTURES', orderId: r.orderId }));
  expectRow(o, { state: 'filled', baseVolume: '2', priceAvg: '100.01', fee: '-0.120012', posSide: 'net', reduceOnly: 'NO', leverage: '20' }, 'order');
  return await expectWallet('unified', F.uid, 'USDT', 10000 - 10.001 - 0.120012, 10.001);
});

await check('v2 getFuturesAccountAssets', async () => {
  // Equity: 9989.878988 + 10.001 + the unrealised 2 x (99.99 - 100.01) = -0.04.
  const [a] = await data(F.client.getFuturesAccountAssets({ productType: 'USDT-FUTURES' }));
  expectRow(a, { marginCoin: 'USDT', available: '9989.878988', locked: '10.001', accountEquity: '9999.839988', unrealizedPL: '-0.04' }, 'assets');
  return `equity ${a.accountEquity}`;
});

await check('v2 futures resting order, pending list, cancel', async () => {
  // Reduce-only sell 2 @ 110 rests, freezing nothing; it shows in orders-pending with endId; cancelled.
  const r = await data(F.client.futuresSubmitOrder({ symbol: perp, productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT',
    size: '2', price: '110', side: 'sell', orderType: 'limit', force: 'gtc', reduceOnly: 'YES' }));
  const pending = await data(F.client.getFuturesOpenOrders({ productType: 'USDT-FUTURES', symbol: perp }));
  same(pending.entrustedList.map((o) => `${o.orderId} ${o.status} ${o.reduceOnly}`).join(), `${r.orderId} live YES`, 'pending');
  same(pending.endId, r.orderId, 'endId');
  await data(F.client.futuresCancelOrder({ symbol: perp, productType: 'USDT-FUTURES', orderId: r.orderId }));
  await refused(F.client.futuresCancelOrder({ symbol: perp, productType: 'USDT-FUTURES', orderId: r.orderId }), '40768');
  const after = await data(F.client.getFuturesOpenOrders({ productType: 'USDT-FUTURES', symbol: perp }));
  same(after.entrustedList, null, 'entrustedList when empty');
  return 'live -> canceled, again 40768';
});

await check('v2 futuresBatchCancelOrders (symbol-wide) and history', async () => {
  await data(F.client.futuresSubmitOrder({ symbol: perp, productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT',
    size: '1', price: '90', side: 'buy', orderType: 'limit', force: 'gtc' }));
  // An opening buy of 1 at 90 freezes 90 / 20 = 4.5 and the taker fee 0.054.
  await expectWallet('unified', F.uid, 'USDT', 9989.878988 - 4.554, 10.001 + 4.554);
  const res = await data(F.client.futuresBatchCancelOrders({ symbol: perp, productType: 'USDT-FUTURES' }));
  same(res.successList.length, 1, 'cancelled');
  const history = await data(F.client.getFuturesHistoricOrders({ productType: 'USDT-FUTURES', symbol: perp }));
  same(history.entrustedList.map((o) => o.status).sort().join(), 'canceled,canceled,filled', 'history statuses');
  return `1 cancelled; ${await expectWallet('unified', F.uid, 'USDT', 9989.878988, 10.001)}`;
});

await check('v2 futuresBatchSubmitOrders, futuresModifyOrder, futuresCancelAllOrders', async () => {
  // Two resting buys, 1 @ 90 and 1 @ 91 (freezes 4.554 and 4.6046); the first moved to 92 (4.6552); all cancelled.
  const res = await data(F.client.futuresBatchSubmitOrders({ symbol: perp, productType: 'USDT-FUTURES', marginCoin: 'USDT', marginMode: 'crossed',
    orderList: [{ size: '1', price: '90', side: 'buy', orderType: 'limit', force: 'gtc', clientOid: `${tag}-b1` },
      { size: '1', price: '91', side: 'buy', orderType: 'limit', force: 'gtc' }] }));
  same(res.successList.length, 2, 'placed');
  await expectWallet('unified', F.uid, 'USDT', 9989.878988 - 4.554 - 4.6046, 10.001 + 4.554 + 4.6046);
  await data(F.client.futuresModifyOrder({ symbol: perp, productType: 'USDT-FUTURES', clientOid: `${tag}-b1`, newPrice: '92', newSize: '1',
    newClientOid: `${tag}-b1n` }));
  await expectWallet('unified', F.uid, 'USDT', 9989.878988 - 4.6552 - 4.6046, 10.001 + 4.6552 + 4.6046);
  const all = await data(F.client.futuresCancelAllOrders({ productType: 'USDT-FUTURES', marginCoin: 'USDT' }));
  same(all.successList.length, 2, 'cancelled');
  return `2 placed, 1 modified, 2 cancelled; ${await expectWallet('unified', F.uid, 'USDT', 9989.878988, 10.001)}`;
});

await check('v2 futuresSubmitTPSLOrder, triggered by the mark', async () => {
  // Take profit of the long 2 @ 100.01 at mark 105: the mark rises to 105.5 and the position closes at the bid 105.4:
  // PnL 2 x (105.4 - 100.01) = 10.78, taker fee 210.8 x 0.0006 = 0.12648; margin 10.001 back.
  await data(F.client.futuresSubmitTPSLOrder({ symbol: perp, productType: 'USDT-FUTURES', marginCoin: 'USDT', planType: 'pos_profit',
    triggerPrice: '105', triggerType: 'mark_price', holdSide: 'buy' }));
  await setTicker('USDT-FUTURES', perp, { last: '105.5', ask: '105.6', bid: '105.4', size: '10', mark: '105.5', fundingRate: '0.0001' });
  const fills = await data(F.client.getFuturesFills({ productType: 'USDT-FUTURES', symbol: perp }));
  same(fills.fillList.map((f) => `${f.side} ${f.baseVolume}@${f.price}`).join(', '), 'sell 2@105.4, buy 2@100.01', 'fills (newest first)');
  return `closed 2@105.4; ${await expectWallet('unified', F.uid, 'USDT', 10000 - 0.120012 + 10.78 - 0.12648, 0)}`;
});

await check('v2 futuresFlashClosePositions', async () => {
  // Long 1 at the ask 105.6 (margin 5.28, fee 0.06336), closed at once at the bid 105.4 (PnL -0.2, fee 0.06324).
  await data(F.client.futuresSubmitOrder({ symbol: perp, productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT',
    size: '1', side: 'buy', orderType: 'market' }));
  const res = await data(F.client.futuresFlashClosePositions({ productType: 'USDT-FUTURES', symbol: perp }));
  same(res.successList.map((x) => x.symbol).join(), perp, 'closed');
  await new Promise((resolve) => setTimeout(resolve, 1100)); // close-positions allows one call a second
  await refused(F.client.futuresFlashClosePositions({ productType: 'USDT-FUTURES', symbol: perp }), '22002');
  return `closed, again 22002; ${await expectWallet('unified', F.uid, 'USDT', 10010.533508 - 0.06336 - 0.2 - 0.06324, 0)}`;
});

await check('v2 futures market rows (ticker, merge depth)', async () => {
  const [t] = await data(F.client.getFuturesTicker({ symbol: perp, productType: 'USDT-FUTURES' }));
  expectRow(t, { symbol: perp, askPr: '105.6', bidPr: '105.4', markPrice: '105.5' }, 'ticker');
  const d = await data(F.client.getFuturesMergeDepth({ symbol: perp, productType: 'USDT-FUTURES', limit: '5' }));
  // The ticker now quotes one decimal: asks 105.6, 105.6 x 1.0005 = 105.6528 -> 105.7 (rounded up).
  same(JSON.stringify(d.asks.slice(0, 2)), JSON.stringify([['105.6', '10'], ['105.7', '10']]), 'asks');
  return `last ${t.lastPr}, best ${d.bids[0][0]}/${d.asks[0][0]}`;
});

await check('v2 errors: balance, unknown order', async () => {
  const codes = [
    await refused(S.client.spotSubmitOrder({ symbol: spot, side: 'buy', orderType: 'limit', force: 'gtc', price: '99', size: '1000' }), '43012'),
    await refused(F.client.futuresSubmitOrder({ symbol: perp, productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT',
      size: '10000', price: '110', side: 'buy', orderType: 'limit', force: 'gtc' }), '40762'),
    await refused(F.client.getFuturesOrder({ symbol: perp, productType: 'USDT-FUTURES', orderId: '1' }), '40109'),
  ];
  same((await data(S.client.getSpotOrder({ orderId: '1' }))).length, 0, 'unknown spot order: empty list');
  return codes.join(', ');
});

finish();
