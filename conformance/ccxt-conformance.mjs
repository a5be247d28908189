// ccxt conformance: drives the real, unmodified `ccxt` npm package (pinned 4.5.84, class `bitget`)
// against a Trading Account Service instance. Only ccxt's public `urls.api` hosts are changed (every
// API section to the server's base URL); nothing is preloaded: `loadMarkets()` reads the server's
// public metadata and ccxt auto-detects the account family (UTA or classic) itself.
// Parsed results are checked against figures read from the server's admin API (ledger balances,
// positions with their mark-to-market figures) and from raw, independently signed calls to the
// same server, so a wrong field name, type or figure fails the check, not only a crash.
// Prints `ok <method> <family> <summary>` / `FAIL <method> <family>: <details>` per check and a
// final `N passed, M failed` line; exits 0 only if every check passed.
import crypto from 'node:crypto';
import ccxt from 'ccxt';

const env = (name, fallback) => process.env[name] || fallback;
const baseUrl = env('TAS_BASE_URL', 'http://127.0.0.1:8080').replace(/\/+$/, '');
const adminUrl = env('TAS_ADMIN_URL', 'http://127.0.0.1:8081').replace(/\/+$/, '');
const adminToken = env('TAS_ADMIN_TOKEN', 'tas-demo-admin-token');

// The demo's credentials (README "Demo data"): unified main 1000000001, unified sub 1000000002, classic sub 1000000005.
const main = {
  uid: env('TAS_UID', '1000000001'),
  apiKey: env('TAS_API_KEY', 'bg_demo00000000000000000000000001'),
  secret: env('TAS_API_SECRET', 'demo-secret-main-rw-0000000000000001'),
  password: env('TAS_API_PASSPHRASE', 'DemoPass1'),
};
const sub = {
  uid: env('TAS_SUB_UID', '1000000002'),
  apiKey: env('TAS_SUB_API_KEY', 'bg_demo00000000000000000000000004'),
  secret: env('TAS_SUB_API_SECRET', 'demo-secret-sub1-0000000000000004'),
  password: env('TAS_SUB_API_PASSPHRASE', 'DemoPass4'),
};
const classic = {
  uid: env('TAS_CLASSIC_UID', '1000000005'),
  apiKey: env('TAS_CLASSIC_API_KEY', 'bg_demo00000000000000000000000005'),
  secret: env('TAS_CLASSIC_API_SECRET', 'demo-secret-classic-0000000000000005'),
  password: env('TAS_CLASSIC_API_PASSPHRASE', 'DemoPass5'),
};

/** A ccxt bitget client whose every API section points at the server (ccxt's sign() joins urls.api[section] + '/api/...'). */
function client(creds) {
  const exchange = new ccxt.bitget({ apiKey: creds.apiKey, secret: creds.secret, password: creds.password, timeout: 15000 });
  for (const section of Object.keys(exchange.urls.api)) exchange.urls.api[section] = baseUrl;
  return exchange;
}

let passed = 0;
let failed = 0;

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

async function check(name, fn) {
  try {
    const note = await fn();
    passed++;
    console.log(`ok ${name}${note ? ` ${note}` : ''}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e instanceof Error ? `${e.constructor.name} ${e.message}` : JSON.stringify(e)}`);
  }
}

// ---- expected figures: the admin API and raw, independently signed calls ----

async function envelope(res, what) {
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${what}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  assert(body.code === '00000', `${what}: HTTP ${res.status} code=${JSON.stringify(body.code)} msg=${JSON.stringify(body.msg)}`);
  return body.data;
}

async function admin(path) {
  const res = await fetch(adminUrl + path, { headers: { Authorization: `Bearer ${adminToken}` } });
  return envelope(res, `admin GET ${path}`);
}

async function publicGet(path, query = {}) {
  const qs = new URLSearchParams(query).toString();
  return envelope(await fetch(baseUrl + path + (qs ? `?${qs}` : '')), `GET ${path}`);
}

/** A signed GET built here (not by ccxt): ACCESS-SIGN = base64(HMAC-SHA256(secret, ts + 'GET' + path + '?' + query)). */
async function signedGet(creds, path, query = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const target = path + (qs ? `?${qs}` : '');
  const ts = String(Date.now());
  const sign = crypto.createHmac('sha256', creds.secret).update(`${ts}GET${target}`).digest('base64');
  const res = await fetch(baseUrl + target, {
    headers: { 'ACCESS-KEY': creds.apiKey, 'ACCESS-SIGN': sign, 'ACCESS-TIMESTAMP': ts, 'ACCESS-PASSPHRASE': creds.password },
  });
  return envelope(res, `GET ${target}`);
}

const num = (v) => (v === undefined || v === null || v === '' ? undefined : Number(v));
function near(actual, expected, what) {
  const a = Number(actual);
  const e = Number(expected);
  assert(Number.isFinite(a) && Math.abs(a - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${what}=${JSON.stringify(actual)}, want ${expected}`);
}
function same(actual, expected, what) {
  assert(actual === expected, `${what}=${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
}
const sorted = (xs) => [...xs].sort();
function sameSet(actual, expected, what) {
  same(JSON.stringify(sorted(actual)), JSON.stringify(sorted(expected)), what);
}

/** ccxt's unified symbol for a raw row: spot `BASE/QUOTE`, contract `BASE/QUOTE:SETTLE`. */
function expectedSymbol(base, quote, settle) {
  return settle ? `${base}/${quote}:${settle}` : `${base}/${quote}`;
}

// ---- loadMarkets, both families ----

const mainEx = client(main);
const classicEx = client(classic);

await check('loadMarkets unified', async () => {
  const markets = await mainEx.loadMarkets();
  same(mainEx.options.uta, true, 'options.uta (auto-detected via GET /api/v3/account/settings)');
  // The v3 instruments ccxt reads for a unified account (beyond-spec shapes §1, §6).
  const want = [];
  for (const [category, settle] of [['SPOT', undefined], ['USDT-FUTURES', 'USDT'], ['COIN-FUTURES', 'base'], ['USDC-FUTURES', 'USDC']]) {
    for (const i of await publicGet('/api/v3/market/instruments', { category })) {
      want.push(expectedSymbol(i.baseCoin, i.quoteCoin, settle === 'base' ? i.baseCoin : settle));
      if (category === 'SPOT') {
        const m = markets[expectedSymbol(i.baseCoin, i.quoteCoin)];
        assert(m && m.spot && m.id === i.symbol, `${i.symbol}: no spot market`);
        near(m.precision.price, 10 ** -Number(i.pricePrecision), `${m.symbol} precision.price`);
        near(m.precision.amount, 10 ** -Number(i.quantityPrecision), `${m.symbol} precision.amount`);
        same(m.active, i.status === 'online', `${m.symbol} active`);
      }
    }
  }
  sameSet(Object.keys(markets), want, 'market symbols');
  const swaps = Object.values(markets).filter((m) => m.swap).length;
  // /api/v2/spot/public/coins (always read first): a chain open for withdrawals or deposits, whatever JSON kind the
  // flag has, must reach ccxt as open (ccxt only counts the string "true").
  const coins = await publicGet('/api/v2/spot/public/coins');
  const open = (v) => v === 'true' || v === true;
  for (const c of coins) {
    const cur = mainEx.currencies[c.coin];
    assert(cur, `no currency ${c.coin}`);
    same(cur.withdraw, c.chains.some((ch) => open(ch.withdrawable)), `${c.coin} withdraw`);
    same(cur.deposit, c.chains.some((ch) => open(ch.rechargeable)), `${c.coin} deposit`);
    sameSet(Object.values(cur.networks).map((n) => n.id), c.chains.map((ch) => ch.chain), `${c.coin} networks`);
  }
  sameSet(Object.keys(mainEx.currencies), coins.map((c) => c.coin), 'currencies');
  const active = Object.values(mainEx.currencies).filter((c) => c.active).length;
  return `(${want.length} markets, ${swaps} perpetual, ${coins.length} currencies, ${active} active, uta=true)`;
});

await check('loadMarkets classic', async () => {
  const markets = await classicEx.loadMarkets();
  same(classicEx.options.uta, false, 'options.uta (auto-detected: 40084 from GET /api/v3/account/settings)');
  const want = [];
  const spot = await publicGet('/api/v2/spot/public/symbols');
  for (const s of spot) want.push(expectedSymbol(s.baseCoin, s.quoteCoin));
  for (const productType of ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES', 'SUSDT-FUTURES', 'SCOIN-FUTURES', 'SUSDC-FUTURES']) {
    for (const c of await publicGet('/api/v2/mix/market/contracts', { productType })) {
      const settle = c.supportMarginCoins.includes(c.baseCoin) ? c.baseCoin : c.supportMarginCoins.includes(c.quoteCoin) ? c.quoteCoin : c.supportMarginCoins[0];
      const symbol = expectedSymbol(c.baseCoin, c.quoteCoin, settle);
      want.push(symbol);
      const m = markets[symbol];
      assert(m && m.swap === (c.symbolType === 'perpetual'), `${symbol}: no ${c.symbolType} market`);
      same(m.active, c.symbolStatus === 'normal', `${symbol} active`);
      near(m.limits.leverage.max, c.maxLever, `${symbol} limits.leverage.max`);
    }
  }
  sameSet(Object.keys(markets), want, 'market symbols');
  // /api/v2/margin/currencies: a borrowable pair marks its spot market margin-capable (isBorrowable is a JSON bool).
  const margin = (await publicGet('/api/v2/margin/currencies')).filter((r) => r.isBorrowable === true).map((r) => r.symbol);
  for (const s of spot) {
    const m = markets[expectedSymbol(s.baseCoin, s.quoteCoin)];
    same(m.margin, margin.includes(s.symbol), `${m.symbol} margin`);
  }
  return `(${want.length} markets, margin: ${margin.join(',')}, uta=false)`;
});

// ---- unified main key ----

/** Expected position figures: the admin API's open positions with their mark-to-market figures. */
function checkPositions(positions, rows, markets) {
  sameSet(positions.map((p) => `${p.symbol} ${p.side}`),
    rows.map((r) => `${markets.find((m) => m.id === r.symbol && m.contract && m.settleId === r.marginCoin).symbol} ${r.holdSide}`), 'positions');
  for (const r of rows) {
    const p = positions.find((x) => x.info.symbol === r.symbol && x.side === r.holdSide);
    const what = `${p.symbol} ${p.side}`;
    near(p.contracts, r.size, `${what} contracts`);
    near(p.entryPrice, r.openPriceAvg, `${what} entryPrice`);
    near(p.leverage, r.leverage, `${what} leverage`);
    same(p.marginMode, r.marginMode === 'crossed' ? 'cross' : 'isolated', `${what} marginMode`);
    near(p.markPrice, r.markPrice, `${what} markPrice`);
    near(p.unrealizedPnl, r.unrealizedPL, `${what} unrealizedPnl`);
    near(p.liquidationPrice, r.liquidationPrice, `${what} liquidationPrice`);
    same(p.hedged, r.posMode === 'hedge_mode', `${what} hedged`);
  }
  return positions.map((p) => `${p.symbol} ${p.side} ${p.contracts}@${p.entryPrice} x${p.leverage}`).join(', ');
}

await check('fetchBalance unified', async () => {
  const balance = await mainEx.fetchBalance();
  const ledger = (await admin(`/admin/v1/accounts/${main.uid}/balances`)).filter((b) => b.account === 'unified');
  const positions = await admin(`/admin/v1/accounts/${main.uid}/positions`);
  // ccxt (UTA): free = available, used = locked, total = equity, debt = debt; the server's equity is
  // available + frozen - debt + the unrealised PnL of the open positions margined in the coin.
  for (const b of ledger) {
    const upl = positions.filter((p) => p.marginCoin === b.coin).reduce((s, p) => s + Number(p.unrealizedPL), 0);
    const c = balance[b.coin];
    assert(c, `no ${b.coin} in the balance`);
    near(c.free, b.available, `${b.coin} free`);
    near(c.used, b.frozen, `${b.coin} used`);
    near(c.debt, b.debt, `${b.coin} debt`);
    near(c.total, Number(b.available) + Number(b.frozen) - Number(b.debt) + upl, `${b.coin} total`);
  }
  sameSet(Object.keys(balance.total), ledger.map((b) => b.coin), 'coins');
  return `(${ledger.length} coins; USDT free ${balance.USDT.free} used ${balance.USDT.used} debt ${balance.USDT.debt} total ${balance.USDT.total}; BTC total ${balance.BTC.total})`;
});

await check('fetchPositions unified', async () => {
  const positions = await mainEx.fetchPositions();
  const rows = (await admin(`/admin/v1/accounts/${main.uid}/positions`)).filter((r) => r.category === 'USDT-FUTURES');
  assert(rows.length > 0, 'the admin API lists no USDT-FUTURES position');
  return `(${checkPositions(positions, rows, Object.values(mainEx.markets))})`;
});

await check('fetchTickers unified', async () => {
  const spot = await mainEx.fetchTickers(['BTC/USDT', 'ETH/USDT']);
  const perps = await mainEx.fetchTickers();
  const raw = [...await publicGet('/api/v3/market/tickers', { category: 'SPOT' }), ...await publicGet('/api/v3/market/tickers', { category: 'USDT-FUTURES' })];
  let n = 0;
  for (const [symbol, category, t] of [...Object.entries(spot).map(([s, t]) => [s, 'SPOT', t]), ...Object.entries(perps).map(([s, t]) => [s, 'USDT-FUTURES', t])]) {
    const r = raw.find((x) => x.category === category && x.symbol === t.info.symbol);
    assert(r, `${symbol}: no raw ${category} ticker`);
    near(t.last, r.lastPrice, `${symbol} last`);
    near(t.bid, r.bid1Price, `${symbol} bid`);
    near(t.ask, r.ask1Price, `${symbol} ask`);
    near(t.baseVolume, r.volume24h, `${symbol} baseVolume`);
    near(t.open, r.openPrice24h, `${symbol} open`);
    n++;
  }
  sameSet(Object.keys(spot), ['BTC/USDT', 'ETH/USDT'], 'spot tickers');
  const perpIds = raw.filter((x) => x.category === 'USDT-FUTURES').map((x) => x.symbol);
  sameSet(Object.values(perps).map((t) => t.info.symbol), perpIds, 'USDT-FUTURES tickers');
  return `(${n} tickers; BTC/USDT last ${spot['BTC/USDT'].last}, BTC/USDT:USDT mark ${perps['BTC/USDT:USDT']?.markPrice})`;
});

async function leverageOf(creds, symbol) {
  const settings = await signedGet(creds, '/api/v3/account/settings');
  return settings.symbolConfigList.find((c) => c.category === 'USDT-FUTURES' && c.symbol === symbol);
}

await check('setLeverage unified', async () => {
  // ETHUSDT: crossed, with an open short; ccxt sends {symbol, leverage, coin, category} (no marginMode: crossed, §4.1.2).
  const before = await leverageOf(main, 'ETHUSDT');
  assert(before && before.marginMode === 'crossed', `ETHUSDT config ${JSON.stringify(before)}`);
  const target = Number(before.leverage) === 25 ? 15 : 25;
  const res = await mainEx.setLeverage(target, 'ETH/USDT:USDT');
  same(res?.code, '00000', 'code');
  const after = await leverageOf(main, 'ETHUSDT');
  near(after.leverage, target, 'settings ETHUSDT leverage');
  const pos = (await mainEx.fetchPositions(['ETH/USDT:USDT'])).find((p) => p.symbol === 'ETH/USDT:USDT');
  near(pos.leverage, target, 'ETH/USDT:USDT position leverage');
  // BTCUSDT: isolated long; an isolated line needs marginMode and posSide, passed through ccxt's params.
  const btc = await leverageOf(main, 'BTCUSDT');
  const btcTarget = Number(btc.leverage) === 12 ? 10 : 12;
  await mainEx.setLeverage(btcTarget, 'BTC/USDT:USDT', { marginMode: 'isolated', posSide: 'long' });
  near((await leverageOf(main, 'BTCUSDT')).leverage, btcTarget, 'settings BTCUSDT leverage');
  // Put both back, so that a run against `./tas demo` leaves the demo as it was.
  await mainEx.setLeverage(Number(before.leverage), 'ETH/USDT:USDT');
  await mainEx.setLeverage(Number(btc.leverage), 'BTC/USDT:USDT', { marginMode: 'isolated', posSide: 'long' });
  near((await leverageOf(main, 'ETHUSDT')).leverage, before.leverage, 'restored ETHUSDT leverage');
  return `(ETH/USDT:USDT ${before.leverage} -> ${target} -> ${before.leverage}, BTC/USDT:USDT isolated ${btc.leverage} -> ${btcTarget} -> ${btc.leverage})`;
});

await check('setPositionMode unified', async () => {
  // The main account holds open positions: the platform refuses the switch with 25010 and ccxt raises it.
  let refused;
  try {
    await mainEx.setPositionMode(true);
  } catch (e) {
    refused = e;
  }
  assert(refused instanceof ccxt.ExchangeError && refused.message.includes('"code":"25010"'), `main account with positions: ${refused ? refused.message : 'accepted'}, want 25010`);
  same((await signedGet(main, '/api/v3/account/settings')).holdMode, 'one_way_mode', 'main holdMode after the refusal');
  // The unified sub-account 1000000002 has no positions: hedge, read back, and one-way again.
  const subEx = client(sub);
  const res = await subEx.setPositionMode(true);
  same(res?.code, '00000', 'code');
  same((await signedGet(sub, '/api/v3/account/settings')).holdMode, 'hedge_mode', 'sub holdMode');
  await subEx.setPositionMode(false);
  same((await signedGet(sub, '/api/v3/account/settings')).holdMode, 'one_way_mode', 'sub holdMode restored');
  same(subEx.options.uta, true, 'sub options.uta');
  return '(main with open positions -> 25010; unified sub one_way_mode -> hedge_mode -> one_way_mode)';
});

// ---- unified records (GET /api/v3/trade/fills, /api/v3/account/withdrawal-records) ----

/** ccxt's fee of a fill row: the first feeDetail line; the cost is negated unless deduction is 'yes'. */
function expectedFee(detail) {
  const line = Array.isArray(detail) ? detail[0] : detail;
  if (line === undefined) return undefined;
  const cost = Number(line.totalFee ?? line.fee);
  return { currency: line.feeCoin, cost: line.deduction === 'yes' ? cost : -cost };
}

function checkTrade(t, r, symbol) {
  const what = `trade ${t.id}`;
  same(t.order, r.orderId, `${what} order`);
  same(t.symbol, symbol, `${what} symbol`);
  same(t.side, r.side.toLowerCase(), `${what} side`);
  near(t.price, r.priceAvg ?? r.execPrice, `${what} price`);
  near(t.amount, r.size ?? r.execQty, `${what} amount`);
  near(t.cost, r.amount ?? r.execValue, `${what} cost`);
  near(t.timestamp, r.cTime ?? r.createdTime, `${what} timestamp`);
  const fee = expectedFee(r.feeDetail);
  if (fee === undefined) {
    same(t.fee, undefined, `${what} fee (no feeDetail line)`);
  } else {
    same(t.fee?.currency, fee.currency, `${what} fee currency`);
    near(t.fee?.cost, fee.cost, `${what} fee cost`);
  }
}

function checkWithdrawal(w, r) {
  const what = `withdrawal ${w.id}`;
  same(w.currency, r.coin, `${what} currency`);
  // ccxt: amount = size - |fee|, fee = |fee| in the coin (no fee field: amount = size, no fee).
  const fee = r.fee === undefined || r.fee === null || r.fee === '' ? 0 : Math.abs(Number(r.fee));
  near(w.amount, Number(r.size) - fee, `${what} amount`);
  if (r.fee !== undefined && r.fee !== null && r.fee !== '') near(w.fee?.cost, fee, `${what} fee`);
  same(w.status, { success: 'ok', pending: 'pending', fail: 'failed' }[r.status] ?? r.status, `${what} status`);
  same(w.txid, r.tradeId ?? (r.dest === 'on_chain' ? r.recordId : undefined), `${what} txid`);
  same(w.type, 'withdrawal', `${what} type`);
  near(w.timestamp, r.cTime ?? r.createdTime, `${what} timestamp`);
}

await check('fetchMyTrades unified', async () => {
  const raw = await signedGet(main, '/api/v3/trade/fills', { limit: 100 });
  assert(Array.isArray(raw?.list), `data.list of /api/v3/trade/fills is ${JSON.stringify(raw).slice(0, 100)}`);
  assert(raw.list.length > 0, 'the unified main account has no fills to compare');
  const first = raw.list[0];
  const category = String(first.category).toUpperCase();
  const settle = (m) => ({ 'USDT-FUTURES': 'USDT', 'USDC-FUTURES': 'USDC' })[category] || m.baseId;
  const market = Object.values(mainEx.markets).find((m) => m.id === first.symbol
    && (category === 'SPOT' || category === 'MARGIN' ? m.spot : m.contract && m.settleId === settle(m)));
  assert(market, `no ccxt market for ${first.category} ${first.symbol}`);
  const trades = await mainEx.fetchMyTrades(market.symbol, undefined, 100);
  // ccxt never sends category or symbol to /api/v3/trade/fills and keeps the rows whose symbol id is the market's.
  const want = raw.list.filter((r) => r.symbol === market.id);
  sameSet(trades.map((t) => t.id), want.map((r) => r.execId), `${market.symbol} trade ids`);
  for (const t of trades) checkTrade(t, want.find((r) => r.execId === t.id), market.symbol);
  return `(${trades.length} ${market.symbol} fills of ${raw.list.length}; first ${trades[0].side} ${trades[0].amount}@${trades[0].price} fee ${trades[0].fee?.cost} ${trades[0].fee?.currency})`;
});

await check('fetchWithdrawals unified', async () => {
  const now = Date.now();
  const raw = await signedGet(main, '/api/v3/account/withdrawal-records', { startTime: now - 29 * 86400000, endTime: now, limit: 100 });
  assert(Array.isArray(raw), `data of /api/v3/account/withdrawal-records is ${JSON.stringify(raw).slice(0, 100)}, want an array`);
  assert(raw.length > 0, 'the unified main account has no withdrawal records in the last 29 days');
  const list = await mainEx.fetchWithdrawals(undefined, now - 29 * 86400000, 100);
  sameSet(list.map((w) => w.id), raw.map((r) => r.orderId), 'withdrawal ids');
  for (const w of list) checkWithdrawal(w, raw.find((r) => r.orderId === w.id));
  return `(${list.length} records; first ${list[0].amount} ${list[0].currency} ${list[0].status} txid ${list[0].txid})`;
});

// ---- classic demo key ----

await check('fetchPositions classic', async () => {
  const rows = await admin(`/admin/v1/accounts/${classic.uid}/positions`);
  const markets = Object.values(classicEx.markets);
  const usdt = await classicEx.fetchPositions();
  const coin = await classicEx.fetchPositions(['BTC/USD:BTC']);
  const a = checkPositions(usdt, rows.filter((r) => r.category === 'USDT-FUTURES'), markets);
  const b = checkPositions(coin, rows.filter((r) => r.category === 'COIN-FUTURES'), markets);
  assert(usdt.length + coin.length === rows.length && rows.length > 0, `${usdt.length + coin.length} positions, the admin API lists ${rows.length}`);
  return `(${a}, ${b})`;
});

await check('fetchMyTrades classic', async () => {
  let total = 0;
  const notes = [];
  for (const symbol of ['BTC/USDT', 'ETH/USDT']) {
    const market = classicEx.market(symbol);
    const raw = await signedGet(classic, '/api/v2/spot/trade/fills', { symbol: market.id, limit: 100 });
    const trades = await classicEx.fetchMyTrades(symbol, undefined, 100);
    assert(raw.length > 0, `no raw ${market.id} fills`);
    sameSet(trades.map((t) => t.id), raw.map((r) => r.tradeId), `${symbol} trade ids`);
    for (const t of trades) checkTrade(t, raw.find((r) => r.tradeId === t.id), symbol);
    total += trades.length;
    const t = trades[trades.length - 1];
    notes.push(`${symbol}: ${trades.length}, newest ${t.side} ${t.amount}@${t.price} fee ${t.fee.cost} ${t.fee.currency}`);
  }
  return `(${total} fills; ${notes.join('; ')})`;
});

await check('fetchWithdrawals classic', async () => {
  const since = Date.now() - 89 * 86400000;
  const list = await classicEx.fetchWithdrawals(undefined, since, 100);
  const raw = await signedGet(classic, '/api/v2/spot/wallet/withdrawal-records', { startTime: since, endTime: Date.now(), limit: 100 });
  assert(raw.length > 0, 'no raw withdrawal records');
  sameSet(list.map((w) => w.id), raw.map((r) => r.orderId), 'withdrawal ids');
  for (const w of list) checkWithdrawal(w, raw.find((r) => r.orderId === w.id));
  const usdt = await classicEx.fetchWithdrawals('USDT', since, 100);
  sameSet(usdt.map((w) => w.id), raw.filter((r) => r.coin === 'USDT').map((r) => r.orderId), 'USDT withdrawal ids');
  const w = list[list.length - 1];
  return `(${list.length} records, ${usdt.length} USDT; newest ${w.amount} ${w.currency} fee ${w.fee.cost} ${w.status} on ${w.network})`;
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
