// Shared set-up of the trading scenarios (ccxt-trading.mjs, sdk-trading.mjs): every run trades on instruments it
// creates itself through the admin API, with tickers it sets, on fresh funded unified accounts, so that each figure
// the scripts expect follows by hand from the ticker and the engine's rules (issue 25, docs/engine.md):
// - synthetic book: level 1 = the ticker's ask1/bid1 with its size; further levels 5 bps of the best price apart
//   (rounded away from the mid to the price precision), same size, 20 levels;
// - spot fees 0.1% maker and taker, in the coin received; futures maker 0.02%, taker 0.06%, default leverage 10;
// - a resting limit order that a ticker move crosses fills in full as a maker at its own price.
// Nothing here touches the demo's accounts, so a run against `./tas demo` leaves it as it was (apart from the new
// instruments and accounts).

const env = (name, fallback) => process.env[name] || fallback;
export const baseUrl = env('TAS_BASE_URL', 'http://127.0.0.1:8080').replace(/\/+$/, '');
export const adminUrl = env('TAS_ADMIN_URL', 'http://127.0.0.1:8081').replace(/\/+$/, '');
const adminToken = env('TAS_ADMIN_TOKEN', 'tas-demo-admin-token');

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/**
 * A check runner printing `ok <name> (<note>)` / `FAIL <name>: <details>` and the final count line. masks: [text,
 * replacement] pairs applied to the notes (the run's own coin name), so that a passing run prints the same lines.
 */
export function checks(masks = []) {
  let passed = 0;
  let failed = 0;
  return {
    async check(name, fn) {
      try {
        let note = await fn();
        for (const [text, replacement] of masks) note = note?.replaceAll(text, replacement);
        passed++;
        console.log(`ok ${name}${note ? ` (${note})` : ''}`);
      } catch (e) {
        failed++;
        const detail = e instanceof Error ? `${e.constructor.name} ${e.message}`
          : e && e.body ? `http=${e.code} body=${JSON.stringify(e.body)}` : JSON.stringify(e);
        console.log(`FAIL ${name}: ${detail}`);
      }
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed === 0 ? 0 : 1);
    },
  };
}

async function envelope(res, what) {
  // UIDs are 64-bit ids beyond JavaScript's exact integers: a bare numeric uid is read as a string.
  const text = (await res.text()).replace(/"uid"\s*:\s*(\d+)/g, '"uid":"$1"');
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${what}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  assert(body.code === '00000', `${what}: HTTP ${res.status} code=${JSON.stringify(body.code)} msg=${JSON.stringify(body.msg)}`);
  return body.data;
}

export async function adminGet(path) {
  const res = await fetch(adminUrl + path, { headers: { Authorization: `Bearer ${adminToken}` } });
  return envelope(res, `admin GET ${path}`);
}

export async function adminPost(path, body) {
  const res = await fetch(adminUrl + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    // The admin API reads uid as a JSON number: written unquoted, digit for digit.
    body: JSON.stringify(body).replace(/"uid":"(\d+)"/g, '"uid":$1'),
  });
  return envelope(res, `admin POST ${path}`);
}

/** A tag unique to this run, so that runs against one server never share a book: letters and digits. */
export function runTag(prefix) {
  return prefix + Date.now().toString(36).toUpperCase().slice(-6) + Math.floor(Math.random() * 36).toString(36).toUpperCase();
}

/** A spot pair `${base}USDT` and a USDT-FUTURES perpetual `P${base}USDT` (max leverage 50, one tier of 0.5%). */
export async function createInstruments(base) {
  const spot = `${base}USDT`;
  const perpBase = `P${base}`;
  const perp = `${perpBase}USDT`;
  await adminPost('/admin/v1/instruments', { category: 'SPOT', symbol: spot, baseCoin: base, quoteCoin: 'USDT' });
  await adminPost('/admin/v1/instruments', {
    category: 'USDT-FUTURES', symbol: perp, baseCoin: perpBase, quoteCoin: 'USDT', marginCoin: 'USDT', maxLeverage: '50',
    mmrTiers: [{ maxNotional: '1000000', mmr: '0.005' }],
  });
  return { base, spot, perpBase, perp };
}

/**
 * A run's own markets, the set-up the streams and classic scripts share: a tag from prefix, the spot pair and the
 * perpetual of createInstruments, and their tickers: spot ask 100.01 / bid 99.99, 5 a level; the perpetual the same
 * prices, 10 a level, mark 99.99, funding 0.0001. Returns { tag, base, spot, perp, S, P } (S and P: ccxt's symbols).
 */
export async function ownMarkets(prefix) {
  const tag = runTag(prefix);
  const { base, spot, perp } = await createInstruments(tag);
  await setTicker('SPOT', spot, { last: '100', ask: '100.01', bid: '99.99', size: '5' });
  await setTicker('USDT-FUTURES', perp, { last: '100', ask: '100.01', bid: '99.99', size: '10', mark: '99.99', fundingRate: '0.0001' });
  return { tag, base, spot, perp, S: `${base}/USDT`, P: `P${base}/USDT:USDT` };
}

/** POST /admin/v1/tickers: level-1 prices and sizes; mark and index price and the funding rate for futures. */
export async function setTicker(category, symbol, { last, ask, bid, size, mark, fundingRate }) {
  const t = { category, symbol, lastPrice: last, ask1Price: ask, bid1Price: bid, ask1Size: size, bid1Size: size };
  if (category !== 'SPOT') Object.assign(t, { markPrice: mark, indexPrice: mark, fundingRate: fundingRate ?? '0' });
  await adminPost('/admin/v1/tickers', t);
}

/** A new unified main account with a read-and-write key and the given unified balances: { uid, apiKey, secret, password }. */
export async function fundedAccount(name, balances) {
  const { uid } = await adminPost('/admin/v1/accounts', { username: name });
  const key = await adminPost('/admin/v1/keys', { uid, passphrase: 'Trading1', permType: 'read-and-write', permissions: ['uta_mgt', 'uta_trade'] });
  for (const [coin, amount] of Object.entries(balances)) {
    await adminPost('/admin/v1/ledger/deposit', { uid, account: 'unified', coin, amount, ref: `fund-${name}-${coin}` });
  }
  return { uid: String(uid), apiKey: key.accessKey, secret: key.secret, password: 'Trading1' };
}

/**
 * A new classic main account with a read-and-write key and the given balances of one wallet (spot, or unified: futures
 * margin): { uid, apiKey, secret, password }.
 */
export async function classicAccount(name, balances, wallet = 'spot') {
  const { uid } = await adminPost('/admin/v1/accounts', { username: name, accountMode: 'CLASSIC' });
  const key = await adminPost('/admin/v1/keys', { uid, passphrase: 'Trading1', permType: 'read-and-write', permissions: [] });
  for (const [coin, amount] of Object.entries(balances)) {
    await adminPost('/admin/v1/ledger/deposit', { uid, account: wallet, coin, amount, ref: `fund-${name}-${coin}` });
  }
  return { uid: String(uid), apiKey: key.accessKey, secret: key.secret, password: 'Trading1' };
}

/**
 * ccxt.pro's bitget (the `ccxt` module passed in) with every REST host and the WebSocket URLs of the family pointed at
 * the server (unified: utaPublic/utaPrivate on /v3; classic: public/private on /v2), markets loaded. creds may be empty
 * for public channels only.
 */
export async function proClient(ccxt, creds, { uta }) {
  const ex = new ccxt.pro.bitget({ apiKey: creds.apiKey, secret: creds.secret, password: creds.password, timeout: 15000,
    options: uta ? { uta: true } : {} });
  for (const section of Object.keys(ex.urls.api)) if (typeof ex.urls.api[section] === 'string') ex.urls.api[section] = baseUrl;
  const ws = baseUrl.replace(/^http/, 'ws');
  Object.assign(ex.urls.api.ws, uta ? { utaPublic: `${ws}/v3/ws/public`, utaPrivate: `${ws}/v3/ws/private` }
    : { public: `${ws}/v2/ws/public`, private: `${ws}/v2/ws/private` });
  await ex.loadHttpProxyAgent(); // ccxt's own rule before a plain ws:// URL (websocket-wire.md)
  await ex.loadMarkets();
  return ex;
}

/** A pause so that subscriptions are in before the change that follows. */
export const settle = (ms = 400) => new Promise((r) => setTimeout(r, ms));

/** The unified ledger of uid as { coin: { available, frozen, debt } } (numbers). */
export async function balances(uid) {
  const out = {};
  for (const b of await adminGet(`/admin/v1/accounts/${uid}/balances`)) {
    if (b.account === 'unified') out[b.coin] = { available: Number(b.available), frozen: Number(b.frozen), debt: Number(b.debt) };
  }
  return out;
}

/** Compares uid's unified balance of coin with hand-computed `available/frozen`. */
export async function expectBalance(uid, coin, available, frozen) {
  const b = (await balances(uid))[coin] ?? { available: 0, frozen: 0 };
  near(b.available, available, `${coin} available`);
  near(b.frozen, frozen, `${coin} frozen`);
  return `${coin} ${b.available}/${b.frozen}`;
}

/** Equal within 1e-9 relative (hand figures are exact decimals; JS numbers carry them to ~15 digits). */
export function near(actual, expected, what) {
  const a = Number(actual);
  const e = Number(expected);
  assert(actual !== undefined && actual !== null && actual !== '' && Number.isFinite(a)
    && Math.abs(a - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${what}=${JSON.stringify(actual)}, want ${expected}`);
}

export function same(actual, expected, what) {
  assert(actual === expected, `${what}=${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
}

export function sameSet(actual, expected, what) {
  same(JSON.stringify([...actual].sort()), JSON.stringify([...expected].sort()), what);
}

/** The start of the next 8-hour funding period after t (ms). */
export function nextFunding(t) {
  const period = 8 * 3600_000;
  return (Math.floor(t / period) + 1) * period;
}

/** Awaits a bitget-api call that must succeed and returns its data (the SDK rejects any other code than 00000). */
export async function sdkData(promise) {
  let res;
  try {
    res = await promise;
  } catch (e) {
    throw new Error(`rejected: ${e?.body ? `http=${e.code} code=${e.body.code} msg=${e.body.msg}` : e?.message ?? e}`);
  }
  same(res.code, '00000', 'code');
  return res.data;
}

/** Awaits a bitget-api call that must fail with the platform code `code`; returns the code. */
export async function sdkRefused(promise, code) {
  try {
    await promise;
  } catch (e) {
    same(e?.body?.code, code, 'error code');
    return code;
  }
  throw new Error(`accepted, want ${code}`);
}

/** The named fields of a raw row, as strings. */
export function expectRow(row, want, what) {
  for (const [k, v] of Object.entries(want)) same(row?.[k], v, `${what} ${k}`);
}

/** The fields of a parsed ccxt order or trade named in want (numbers within 1e-9; fee as {cost, currency}). */
export function expectParsed(o, want, what) {
  for (const [k, v] of Object.entries(want)) {
    if (k === 'fee') {
      near(o.fee?.cost, v.cost, `${what} fee.cost`);
      same(o.fee?.currency, v.currency, `${what} fee.currency`);
    } else if (typeof v === 'number') near(o[k], v, `${what} ${k}`);
    else same(o[k], v, `${what} ${k}`);
  }
}

/**
 * Polls fn every 50 ms until it returns a truthy value, which it returns; throws after ms. For state ccxt.pro keeps
 * up to date as pushes arrive (`tickers`, `ohlcvs`, `balance`, `positions`, `orders`): a second `watch…` call only
 * waits for the next push, so one that arrived in between would be waited for in vain.
 */
export async function until(fn, what, ms = 10000) {
  for (let waited = 0; ; waited += 50) {
    const v = fn();
    if (v) return v;
    if (waited >= ms) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** ccxt.pro's newest 1m candle of a symbol if its volume is the one wanted (ccxt keeps the candles in `ohlcvs`). */
export function lastCandle(ex, symbol, volume) {
  const candles = ex.ohlcvs?.[symbol]?.['1m'];
  const c = candles && candles[candles.length - 1];
  return c && Number(c[5]) === volume ? c : undefined;
}
