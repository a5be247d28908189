// SDK conformance: drives the real, unmodified `bitget-api` npm SDK (pinned 3.2.3)
// against a Trading Account Service instance. Only the SDK's public `baseUrl`
// option is changed. Prints `ok <name>` / `FAIL <name>: <details>` per check and
// a final `N passed, M failed` line; exits 0 only if every check passed.
import { RestClientV2, RestClientV3 } from 'bitget-api';

const env = (name, fallback) => process.env[name] || fallback;
const baseUrl = env('TAS_BASE_URL', 'http://127.0.0.1:8080').replace(/\/+$/, '');
const main = {
  apiKey: env('TAS_API_KEY', 'bg_demo00000000000000000000000001'),
  apiSecret: env('TAS_API_SECRET', 'demo-secret-main-rw-0000000000000001'),
  apiPass: env('TAS_API_PASSPHRASE', 'DemoPass1'),
};
const sub = {
  apiKey: env('TAS_SUB_API_KEY', 'bg_demo00000000000000000000000004'),
  apiSecret: env('TAS_SUB_API_SECRET', 'demo-secret-sub1-0000000000000004'),
  apiPass: env('TAS_SUB_API_PASSPHRASE', 'DemoPass4'),
};
// The demo main account's read-only key.
const readOnly = {
  apiKey: env('TAS_RO_API_KEY', 'bg_demo00000000000000000000000002'),
  apiSecret: env('TAS_RO_API_SECRET', 'demo-secret-main-ro-0000000000000002'),
  apiPass: env('TAS_RO_API_PASSPHRASE', 'DemoPass2'),
};
// The demo's classic sub-account 1000000005 (README "Demo data").
const classic = {
  apiKey: env('TAS_CLASSIC_API_KEY', 'bg_demo00000000000000000000000005'),
  apiSecret: env('TAS_CLASSIC_API_SECRET', 'demo-secret-classic-0000000000000005'),
  apiPass: env('TAS_CLASSIC_API_PASSPHRASE', 'DemoPass5'),
};

// `baseUrl` is a documented RestClientOptions field; the 2nd arg is axios config.
const network = { timeout: 15000 };
const v3 = (creds = main) => new RestClientV3({ ...creds, baseUrl }, network);
const v2 = new RestClientV2({ baseUrl }, network);
const v2Signed = (creds = main) => new RestClientV2({ ...creds, baseUrl }, network);

let passed = 0;
let failed = 0;

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

// The SDK (BaseRestClient.parseException) throws a plain object
// { code: <HTTP status>, message: <statusText>, body: <parsed JSON body>, headers, requestOptions }
// for HTTP errors and for HTTP 200 bodies whose code != "00000". The platform
// error lives in err.body = { code, msg, requestTime, data }.
// Network failures surface as the raw axios error (err.code e.g. ECONNREFUSED).
function describeError(e) {
  if (e && e.body && typeof e.body === 'object') {
    return `http=${e.code} code=${JSON.stringify(e.body.code)} msg=${JSON.stringify(e.body.msg)}`;
  }
  if (e instanceof Error) return `${e.code ? e.code + ' ' : ''}${e.message}`;
  return `non-HTTP error: ${typeof e === 'string' ? e : JSON.stringify(e?.code ?? e?.message ?? typeof e)}`;
}

async function check(name, fn) {
  try {
    const note = await fn();
    passed++;
    console.log(`ok ${name}${note ? ` (${note})` : ''}`);
  } catch (e) {
    failed++;
    const detail = e instanceof Error && !e.response && !e.request ? e.message : describeError(e);
    console.log(`FAIL ${name}: ${detail}`);
  }
}

/** Awaits a call that must succeed; validates the common envelope and returns data. */
async function success(promise) {
  let res;
  try {
    res = await promise;
  } catch (e) {
    throw new Error(`expected success, got rejection: ${describeError(e)}`);
  }
  assert(res && res.code === '00000', `code=${JSON.stringify(res?.code)}, want "00000"`);
  assert(res.msg === 'success', `msg=${JSON.stringify(res.msg)}, want "success"`);
  assert(typeof res.requestTime === 'number', `requestTime is ${typeof res.requestTime}, want number`);
  return res.data;
}

/** Awaits a call that must fail; returns the platform error code from the SDK error. */
async function failure(promise) {
  let res;
  try {
    res = await promise;
  } catch (e) {
    const code = e?.body?.code;
    assert(typeof code === 'string', `rejected without a platform code: ${describeError(e)}`);
    return { code, msg: e.body.msg, http: e.code };
  }
  throw new Error(`expected rejection, got resolution with code=${JSON.stringify(res?.code)}`);
}

async function expectCode(promise, want) {
  const err = await failure(promise);
  assert(err.code === want, `code=${JSON.stringify(err.code)} msg=${JSON.stringify(err.msg)}, want "${want}"`);
  return `http=${err.http} msg=${JSON.stringify(err.msg)}`;
}

const isStr = (v) => typeof v === 'string';

// ---- successful calls ----

await check('v2 public time', async () => {
  const data = await success(v2.getServerTime());
  assert(isStr(data?.serverTime) && /^\d+$/.test(data.serverTime), `serverTime=${JSON.stringify(data?.serverTime)}`);
});

await check('v3 account info', async () => {
  const data = await success(v3().getAccountInfo());
  assert(isStr(data?.userId), `userId=${JSON.stringify(data?.userId)}`);
  assert(Array.isArray(data.permissions), 'permissions is not an array');
  assert(isStr(data.permType), `permType=${JSON.stringify(data.permType)}`);
});

await check('v3 account settings', async () => {
  const data = await success(v3().getAccountSettings());
  assert(isStr(data?.uid), `uid=${JSON.stringify(data?.uid)}`);
  assert(isStr(data.holdMode), `holdMode=${JSON.stringify(data.holdMode)}`);
  assert(Array.isArray(data.symbolConfigList), 'symbolConfigList is not an array');
  assert(Array.isArray(data.coinConfigList), 'coinConfigList is not an array');
});

function checkSubPage(data) {
  assert(Array.isArray(data?.list), 'list is not an array');
  assert(typeof data.hasNext === 'boolean', `hasNext=${JSON.stringify(data.hasNext)}`);
  assert(isStr(data.cursor), `cursor=${JSON.stringify(data.cursor)}`);
}

await check('v3 sub-account list', async () => {
  const data = await success(v3().getSubAccountList());
  checkSubPage(data);
  return `${data.list.length} on first page`;
});

await check('v3 sub-account list paging limit=1', async () => {
  const client = v3();
  const uids = [];
  let params = { limit: '1' };
  for (let page = 0; page < 100; page++) {
    const data = await success(client.getSubAccountList(params));
    checkSubPage(data);
    assert(data.list.length <= 1, `page ${page} has ${data.list.length} items with limit=1`);
    for (const s of data.list) {
      assert(isStr(s?.subUid), `subUid=${JSON.stringify(s?.subUid)}`);
      uids.push(s.subUid);
    }
    if (!data.hasNext) break;
    assert(data.cursor !== '' && data.cursor !== params.cursor, `cursor did not advance: ${JSON.stringify(data.cursor)}`);
    params = { limit: '1', cursor: data.cursor };
  }
  assert(uids.length >= 2, `only ${uids.length} sub-account(s) returned, want >= 2`);
  assert(new Set(uids).size === uids.length, `duplicate subUid across pages: ${uids.join(',')}`);
  return `${uids.length} distinct subUids`;
});

for (const category of ['SPOT', 'USDT-FUTURES']) {
  await check(`v3 market tickers ${category}`, async () => {
    const data = await success(v3().getTickers({ category }));
    assert(Array.isArray(data) && data.length > 0, 'data is not a non-empty array');
    for (const t of data) {
      assert(isStr(t?.symbol) && isStr(t?.lastPrice), `bad ticker ${JSON.stringify(t)}`);
    }
    return `${data.length} tickers`;
  });
}

// ---- account configuration (issue 8), on the demo main account: BTCUSDT isolated long 0.05 at 10x is open ----

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const symbolConfig = (settings, symbol) => settings.symbolConfigList.find((c) => c.symbol === symbol);

await check('v3 pre-set-leverage', async () => {
  const data = await success(v3().preSetLeverage({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', marginMode: 'isolated', leverage: '20' }));
  for (const f of ['estMaxOpen', 'estMaxBorrowable', 'requiredMargin', 'marginChange']) {
    assert(isStr(data?.[f]), `${f}=${JSON.stringify(data?.[f])}, want a string`);
  }
  // 0.05 x 95000 / 20 = 237.5 USD at 20x against 475 at 10x (docs/formulas.md).
  assert(data.requiredMargin === '237.5' && data.marginChange === '-237.5', JSON.stringify(data));
  return JSON.stringify(data);
});

await check('v3 set-leverage + settings read back', async () => {
  const client = v3();
  const data = await success(client.setLeverage({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', marginMode: 'isolated', posSide: 'long', leverage: '12' }));
  assert(data === 'success', `data=${JSON.stringify(data)}, want "success"`);
  const btc = symbolConfig(await success(client.getAccountSettings()), 'BTCUSDT');
  assert(btc?.marginMode === 'isolated' && btc.leverage === '12', `BTCUSDT config ${JSON.stringify(btc)}`);
  const margin = await success(client.setLeverage({ category: 'MARGIN', coin: 'BTC', leverage: '3' }));
  assert(margin === 'success', `data=${JSON.stringify(margin)}`);
  const coins = (await success(client.getAccountSettings())).coinConfigList;
  assert(coins.some((c) => c.coin === 'BTC' && c.leverage === '3'), `coinConfigList ${JSON.stringify(coins)}`);
});

await check('v3 set-margin add and remove', async () => {
  const client = v3();
  for (const operation of ['add', 'remove']) {
    const data = await success(client.setMargin({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', posSide: 'long', operation, amount: '10' }));
    assert(data === 'success', `${operation}: data=${JSON.stringify(data)}`);
  }
});

await check('v3 set-margin beyond the removable margin -> 40017', () =>
  expectCode(v3().setMargin({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', posSide: 'long', operation: 'remove', amount: '100000' }), '40017'));

await check('v3 set-hold-mode with open positions -> 25010', () =>
  expectCode(v3().setHoldMode({ holdMode: 'hedge_mode' }), '25010'));

await check('v3 switch-deduct + deduct-info', async () => {
  const client = v3();
  const data = await success(client.switchDeduct({ deduct: 'off' }));
  assert(data === true, `data=${JSON.stringify(data)}, want true`);
  await sleep(1100); // deduct-info: 1/s/UID (§8), and the limiter runs on the real clock here
  const info = await success(client.getDeductInfo());
  assert(info?.deduct === 'off', `deduct=${JSON.stringify(info?.deduct)}`);
  await sleep(1100);
  await success(client.switchDeduct({ deduct: 'on' }));
});

await check('v3 adjust-account-mode + delta-info', async () => {
  const client = v3();
  const data = await success(client.adjustAccountMode({ mode: 'advanced', deltaSwitch: 'yes' }));
  assert(data === null, `data=${JSON.stringify(data)}, want null`);
  const delta = await success(client.getDeltaInfo());
  for (const f of ['deltaEquityRatio', 'deltaThreshold', 'positionThreshold']) assert(isStr(delta?.[f]), `${f}=${JSON.stringify(delta?.[f])}`);
  assert(Array.isArray(delta.list) && delta.list.every((c) => isStr(c.coin) && isStr(c.positionRatio)), `list=${JSON.stringify(delta.list)}`);
  await sleep(1100); // adjust-account-mode: 1/s/UID
  await success(client.adjustAccountMode({ mode: 'advanced', deltaSwitch: 'no' }));
  return `${delta.list.length} coins`;
});

await check('v3 delta-info while deltaSwitch is no -> 40017', () => expectCode(v3().getDeltaInfo(), '40017'));

await check('read-only key set-leverage -> 40014', () =>
  expectCode(v3(readOnly).setLeverage({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', leverage: '5' }), '40014'));

await check('classic key set-leverage -> 40084', () =>
  expectCode(v3(classic).setLeverage({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', leverage: '5' }), '40084'));

// ---- the switch to classic (issue 8, §3.1), on an account of its own created through the admin API ----

const adminUrl = env('TAS_ADMIN_URL', 'http://127.0.0.1:8081').replace(/\/+$/, '');
const adminToken = env('TAS_ADMIN_TOKEN', 'demo-admin-token-change-me');

async function admin(path, body) {
  const res = await fetch(adminUrl + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  const json = JSON.parse(text);
  assert(json.code === '00000', `admin ${path}: ${text}`);
  return { ...json.data, raw: text };
}

await check('v3 switch to classic: process, then success, then 40084', async () => {
  const created = await admin('/admin/v1/accounts', { username: `sdk-switch-${Date.now()}` });
  // The admin API writes the new UID as a JSON number beyond 2^53: read its digits from the text, not through a JS number.
  const account = { uid: created.raw.match(/"uid":"?(\d+)/)[1] };
  // UIDs are 64-bit: written into the JSON text as they came, never through a JS number.
  const key = await admin('/admin/v1/keys', `{"uid":${account.uid},"passphrase":"SdkSwitch1","permType":"read-and-write","permissions":["uta_mgt","uta_trade"]}`);
  await admin('/admin/v1/ledger/deposit', `{"uid":${account.uid},"account":"unified","coin":"USDT","amount":"42","ref":"sdk-switch-${account.uid}"}`);
  const client = v3({ apiKey: key.accessKey, apiSecret: key.secret, apiPass: 'SdkSwitch1' });
  const accepted = await success(client.downgradeAccountToClassic());
  assert(accepted === null, `switch data=${JSON.stringify(accepted)}, want null`);
  const during = await success(client.getUnifiedAccountSwitchStatus());
  assert(during?.status === 'process' && during.reason === '', `status=${JSON.stringify(during)}`);
  const settings = await success(client.getAccountSettings());
  assert(settings.accountMode === 'switching', `accountMode=${JSON.stringify(settings.accountMode)}`);
  // The sandbox does not make a user wait the minute: move its clock and run what is due.
  await admin('/admin/v1/sandbox/clock/advance', { ms: 60000 });
  await admin('/admin/v1/jobs/run-due');
  const done = await success(client.getUnifiedAccountSwitchStatus());
  assert(done?.status === 'success', `status=${JSON.stringify(done)}`);
  const err = await failure(client.getAccountSettings());
  assert(err.code === '40084', `settings after the switch: ${JSON.stringify(err)}`);
  return `${account.uid}: process -> success`;
});

await check('v3 switch of an account with positions and debts fails with a reason', async () => {
  await success(v3().downgradeAccountToClassic());
  await admin('/admin/v1/sandbox/clock/advance', { ms: 60000 });
  await admin('/admin/v1/jobs/run-due');
  const status = await success(v3().getUnifiedAccountSwitchStatus());
  assert(status?.status === 'fail' && isStr(status.reason) && status.reason !== '', `status=${JSON.stringify(status)}`);
  const settings = await success(v3().getAccountSettings());
  assert(settings.accountMode === 'unified', `accountMode=${JSON.stringify(settings.accountMode)}`);
  return JSON.stringify(status.reason);
});

await check('sub-account key switch -> 40068', () => expectCode(v3(sub).downgradeAccountToClassic(), '40068'));

// ---- the demo-trading header (issue 10 item 5): bitget-api's demoTrading option sends `paptrading: 1` on every call ----

await check('demoTrading client (paptrading: 1) v3 settings and v2 classic fills', async () => {
  const settings = await success(new RestClientV3({ ...main, baseUrl, demoTrading: true }, network).getAccountSettings());
  assert(isStr(settings?.uid), `uid=${JSON.stringify(settings?.uid)}`);
  const fills = await success(new RestClientV2({ ...classic, baseUrl, demoTrading: true }, network).getSpotFills({ limit: '1' }));
  assert(Array.isArray(fills) && fills.length === 1, `fills=${JSON.stringify(fills)}`);
  const tickers = await success(new RestClientV3({ baseUrl, demoTrading: true }, network).getTickers({ category: 'SPOT' }));
  assert(Array.isArray(tickers) && tickers.length > 0, 'no tickers');
});

// ---- failures ----

await check('wrong secret -> 40009', () =>
  expectCode(v3({ ...main, apiSecret: main.apiSecret + 'x' }).getAccountInfo(), '40009'));

await check('expired timestamp (-120s) -> 40008', async () => {
  // The SDK stamps ACCESS-TIMESTAMP with Date.now(); skew it for this one call only.
  const realNow = Date.now;
  Date.now = () => realNow() - 120000;
  try {
    return await expectCode(v3().getAccountInfo(), '40008');
  } finally {
    Date.now = realNow;
  }
});

await check('wrong passphrase -> 40012', () =>
  expectCode(v3({ ...main, apiPass: main.apiPass + 'x' }).getAccountInfo(), '40012'));

// The sub key must itself be valid, so the rejection below is about permissions, not auth.
await check('sub-account key account info', async () => {
  const data = await success(v3(sub).getAccountInfo());
  assert(isStr(data?.userId), `userId=${JSON.stringify(data?.userId)}`);
});

await check('sub-account key calling sub-list -> 40068', () =>
  expectCode(v3(sub).getSubAccountList(), '40068'));

// Account families (decisions.md D6): how clients of the real platform tell a classic key from a unified one.
const CLASSIC_ON_V3 = 'You are in Classic Account mode, and the Unified Account API is not supported at this time';
const UNIFIED_ON_V2 = 'You are in Unified Account mode, and the Classic Account API is not supported at this time';

async function expectFamilyCode(promise, want, msg) {
  const err = await failure(promise);
  assert(err.code === want, `code=${JSON.stringify(err.code)} msg=${JSON.stringify(err.msg)}, want "${want}"`);
  assert(err.msg === msg, `msg=${JSON.stringify(err.msg)}, want ${JSON.stringify(msg)}`);
  assert(err.http === 400, `http=${err.http}, want 400`);
  return `http=${err.http} msg=${JSON.stringify(err.msg)}`;
}

await check('classic key account info', async () => {
  const data = await success(v3(classic).getAccountInfo());
  assert(data?.userId === '1000000005', `userId=${JSON.stringify(data?.userId)}, want "1000000005"`);
});

await check('classic key v3 account settings -> 40084', () =>
  expectFamilyCode(v3(classic).getAccountSettings(), '40084', CLASSIC_ON_V3));

await check('unified key v2 futures positions -> 40085', () =>
  expectFamilyCode(v2Signed(main).getFuturesPositions({ productType: 'USDT-FUTURES' }), '40085', UNIFIED_ON_V2));

// ---- positions (issue 9, §2.14-2.16, §4.4); v2 rows with the classic demo key ----

const V3_HISTORY_FIELDS = ['positionId', 'category', 'symbol', 'marginCoin', 'posSide', 'marginMode', 'holdMode', 'openPriceAvg',
  'closePriceAvg', 'openTotalPos', 'closeTotalPos', 'cumRealisedPnl', 'netProfit', 'totalFunding', 'openFeeTotal', 'closeFeeTotal',
  'cashDividend', 'createdTime', 'updatedTime'];
const V2_CURRENT_FIELDS = ['symbol', 'marginCoin', 'holdSide', 'openDelegateSize', 'marginSize', 'available', 'locked', 'total',
  'leverage', 'achievedProfits', 'openPriceAvg', 'marginMode', 'posMode', 'unrealizedPL', 'liquidationPrice', 'keepMarginRate',
  'markPrice', 'marginRatio', 'breakEvenPrice', 'totalFee', 'deductedFee', 'cashDividend', 'grant', 'assetMode', 'autoMargin',
  'takeProfit', 'stopLoss', 'takeProfitId', 'stopLossId', 'cTime', 'uTime'];
const V2_HISTORY_FIELDS = ['positionId', 'symbol', 'marginCoin', 'holdSide', 'posMode', 'openAvgPrice', 'closeAvgPrice', 'marginMode',
  'openTotalPos', 'closeTotalPos', 'pnl', 'netProfit', 'totalFunding', 'openFee', 'closeFee', 'cashDividend', 'ctime', 'utime'];

function assertItem(item, fields, what) {
  const keys = Object.keys(item).sort();
  assert(JSON.stringify(keys) === JSON.stringify([...fields].sort()), `${what} fields ${JSON.stringify(keys)}`);
  for (const f of fields) assert(isStr(item[f]), `${what}.${f} is ${typeof item[f]}, want string`);
}

function assertDescending(ids, below) {
  let last = below;
  for (const id of ids) {
    assert(last === undefined || BigInt(id) < BigInt(last), `id ${id} not below ${last}`);
    last = id;
  }
}

await check('v3 history-position paging', async () => {
  const first = await success(v3().getPositionHistory({ category: 'USDT-FUTURES' }));
  assert(Array.isArray(first?.list) && first.list.length === 100, `first page has ${first?.list?.length} items, want 100`);
  assert(isStr(first.cursor) && first.cursor === first.list[99].positionId, `cursor=${JSON.stringify(first.cursor)}`);
  first.list.forEach((p) => assertItem(p, V3_HISTORY_FIELDS, 'item'));
  assertDescending(first.list.map((p) => p.positionId));
  const next = await success(v3().getPositionHistory({ category: 'USDT-FUTURES', cursor: first.cursor, limit: '100' }));
  assertDescending(next.list.map((p) => p.positionId), first.cursor);
  assert(next.cursor === '', `last page cursor=${JSON.stringify(next.cursor)}, want ""`);
});

await check('v3 history-position range over 30 days -> 40017', () =>
  expectCode(v3().getPositionHistory({ category: 'USDT-FUTURES', startTime: String(Date.now() - 40 * 86400000), endTime: String(Date.now()) }), '40017'));

await check('read-only key v3 history-position -> 40014', () =>
  expectCode(v3(readOnly).getPositionHistory({ category: 'USDT-FUTURES' }), '40014'));

await check('classic key v2 all-position', async () => {
  const data = await success(v2Signed(classic).getFuturesPositions({ productType: 'USDT-FUTURES', marginCoin: 'USDT' }));
  assert(Array.isArray(data) && data.length === 2, `data=${JSON.stringify(data)}`);
  data.forEach((p) => assertItem(p, V2_CURRENT_FIELDS, 'position'));
  assert(BigInt(data[0].cTime) >= BigInt(data[1].cTime), 'not newest cTime first');
});

await check('classic key v2 single-position', async () => {
  const data = await success(v2Signed(classic).getFuturesPosition({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT', marginCoin: 'USDT' }));
  assert(Array.isArray(data) && data.length === 1, `data=${JSON.stringify(data)}`);
  assertItem(data[0], V2_CURRENT_FIELDS, 'position');
  assert(data[0].holdSide === 'long' && data[0].markPrice === '97258.8', `holdSide=${data[0].holdSide} markPrice=${data[0].markPrice}`);
});

await check('classic key v2 history-position paging', async () => {
  const first = await success(v2Signed(classic).getFuturesHistoricPositions({ productType: 'USDT-FUTURES' }));
  assert(Array.isArray(first?.list) && first.list.length === 20, `first page has ${first?.list?.length} items, want 20`);
  first.list.forEach((p) => assertItem(p, V2_HISTORY_FIELDS, 'item'));
  assert(first.endId === first.list[19].positionId, `endId=${JSON.stringify(first.endId)}`);
  assertDescending(first.list.map((p) => p.positionId));
  const next = await success(v2Signed(classic).getFuturesHistoricPositions({ productType: 'USDT-FUTURES', idLessThan: first.endId, limit: '100' }));
  assert(next.list.length > 0, 'second page is empty');
  assertDescending(next.list.map((p) => p.positionId), first.endId);
});
// ---- strategy orders and the copy-trading profit summary (issue 9, §2.19, §2.21, §4.6) ----

await check('v3 history strategy orders paging (Number cursor)', async () => {
  const client = v3();
  const seen = [];
  let cursor;
  for (let page = 0; page < 20; page++) {
    const params = { category: 'USDT-FUTURES', limit: '50' };
    if (cursor !== undefined) params.cursor = String(cursor);
    const data = await success(client.getHistoryStrategyOrders(params));
    assert(Array.isArray(data?.list), `list=${JSON.stringify(data?.list)}`);
    if (data.list.length === 0) {
      assert(data.cursor === null, `end cursor=${JSON.stringify(data.cursor)}, want null`);
      break;
    }
    assert(typeof data.cursor === 'number' && Number.isSafeInteger(data.cursor), `cursor=${JSON.stringify(data.cursor)}, want a Number`);
    for (const o of data.list) {
      assert(typeof o.orderId === 'string' && typeof o.qty === 'string' && typeof o.triggerType === 'string', `item=${JSON.stringify(o)}`);
      seen.push(BigInt(o.orderId));
    }
    cursor = data.cursor;
  }
  for (let i = 1; i < seen.length; i++) assert(seen[i] < seen[i - 1], `orderIds not strictly descending at ${i}`);
  assert(seen.length === 135, `walked ${seen.length} orders, want the demo's 135`);
  return `${seen.length} orders`;
});

await check('v3 unfilled strategy orders', async () => {
  const data = await success(v3().getUnfilledStrategyOrders({ category: 'USDT-FUTURES' }));
  assert(Array.isArray(data) && data.length === 6, `data=${JSON.stringify(data)}`);
  assert(data.every((o) => ['pending', 'submitting'].includes(o.status) && !('triggerType' in o)), 'status or triggerType');
  const twap = data.find((o) => o.twapParams);
  assert(typeof twap?.twapParams?.[0]?.limitOffsetPercentage === 'number', `twapParams=${JSON.stringify(twap?.twapParams)}`);
  assert(typeof twap.twapParams[0].duration === 'string', 'twap duration is a string');
});

await check('v3 copy-trading profit summary', async () => {
  const data = await success(v3().getCopyFuturesProfitSummary());
  for (const f of ['totalProfit', 'totalAllocatedProfit', 'totalPendingProfit']) {
    assert(typeof data?.[f] === 'string', `${f}=${JSON.stringify(data?.[f])}`);
  }
});

await check('classic key history strategy orders -> 40084', () =>
  expectFamilyCode(v3(classic).getHistoryStrategyOrders({ category: 'USDT-FUTURES' }), '40084', CLASSIC_ON_V3));

await check('read-only key profit summary -> 40014', () => expectCode(v3(readOnly).getCopyFuturesProfitSummary(), '40014'));

// ---- issue 10: Reality orders (§4.7, §2.22) on the demo Reality pair AAPLXUSDT; the demo main account is allow-listed ----
await check('v3 place and cancel a Reality order', async () => {
  const client = v3();
  const clientOid = `sdk-reality-${Date.now()}`;
  // A limit buy far below the market rests (2 USDT frozen) until cancelled.
  const placed = await success(client.placeRealityOrder({ symbol: 'AAPLXUSDT', side: 'buy', orderType: 'limit', qty: '2', price: '1', clientOid }));
  assert(isStr(placed?.orderId) && placed.clientOid === clientOid, `place: ${JSON.stringify(placed)}`);
  const again = await success(client.placeRealityOrder({ symbol: 'AAPLXUSDT', side: 'buy', orderType: 'limit', qty: '2', price: '1', clientOid }));
  assert(again.orderId === placed.orderId, `the same clientOid gave ${again.orderId}, want ${placed.orderId}`);
  const cancelled = await success(client.cancelRealityOrder({ symbol: 'AAPLXUSDT', orderId: placed.orderId }));
  assert(cancelled.orderId === placed.orderId && cancelled.clientOid === clientOid, `cancel: ${JSON.stringify(cancelled)}`);
});

await check('v3 Reality order on a pair that is not a Reality pair -> 25100', () =>
  expectCode(v3().placeRealityOrder({ symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', qty: '1', price: '1' }), '25100'));
// ---- issue 9: spot fills (§2.17, §4.5.1) and withdrawal records (§2.18, §4.5.2) with the classic demo key ----
const allStrings = (o, except = []) => Object.entries(o).every(([k, v]) => except.includes(k) || isStr(v));

await check('v2 spot fills paging', async () => {
  const first = await success(v2Signed(classic).getSpotFills({}));
  assert(Array.isArray(first) && first.length === 100, `default page has ${first?.length} fills, want 100`);
  const f = first[0];
  assert(allStrings(f, ['feeDetail']), `a fill field is not a string: ${JSON.stringify(f)}`);
  assert(f.feeDetail && typeof f.feeDetail === 'object' && !Array.isArray(f.feeDetail) && allStrings(f.feeDetail),
    `feeDetail=${JSON.stringify(f.feeDetail)}`);
  let cursor;
  const seen = [];
  for (let i = 0; i < 3; i++) {
    const page = await success(v2Signed(classic).getSpotFills({ limit: '1', ...(cursor ? { idLessThan: cursor } : {}) }));
    assert(page.length === 1, `page ${i} has ${page.length} fills, want 1`);
    cursor = page[0].tradeId;
    seen.push(BigInt(cursor));
  }
  assert(seen[0] > seen[1] && seen[1] > seen[2], `tradeIds not strictly descending: ${seen.join(',')}`);
  assert(String(seen[0]) === first[0].tradeId && String(seen[2]) === first[2].tradeId, 'limit=1 pages differ from the default page');
  return `${seen.length} pages with limit=1`;
});

await check('v2 spot withdrawal records paging', async () => {
  const endTime = String(Date.now() + 60_000);
  const startTime = String(Date.now() - 90 * 86_400_000);
  const first = await success(v2Signed(classic).getSpotWithdrawalHistory({ startTime, endTime }));
  assert(Array.isArray(first) && first.length === 20, `default page has ${first?.length} records, want 20`);
  assert(first.every((w) => allStrings(w)), `a withdrawal field is not a string: ${JSON.stringify(first[0])}`);
  const next = await success(v2Signed(classic).getSpotWithdrawalHistory({ startTime, endTime, idLessThan: first[19].orderId, limit: '100' }));
  assert(next.length === 25, `second page has ${next.length} records, want 25`);
  assert(BigInt(next[0].orderId) < BigInt(first[19].orderId), 'second page is not older than the first');
});

await check('v2 spot withdrawal records without startTime -> 40019', () =>
  expectCode(v2Signed(classic).getSpotWithdrawalHistory({ endTime: String(Date.now()) }), '40019'));

await check('unified key v2 spot fills -> 40085', () =>
  expectFamilyCode(v2Signed(main).getSpotFills({}), '40085', UNIFIED_ON_V2));

await check('unified key v2 withdrawal records -> 40085', () =>
  expectFamilyCode(v2Signed(main).getSpotWithdrawalHistory({ startTime: '1', endTime: String(Date.now()) }), '40085', UNIFIED_ON_V2));

// ---- issue 10: the v3 records of the unified demo main account (beyond-spec shapes §9-11) ----
const V3_FILL_FIELDS = ['execId', 'orderId', 'category', 'symbol', 'orderType', 'side', 'execPrice', 'execQty', 'execValue',
  'tradeScope', 'feeDetail', 'execPnl', 'createdTime', 'updatedTime'];

await check('v3 trade fills paging (cursor)', async () => {
  const first = await success(v3().getTradeFills({}));
  assert(Array.isArray(first?.list) && first.list.length === 100, `default page has ${first?.list?.length} fills, want 100`);
  assert(first.cursor === first.list[99].execId, `cursor=${JSON.stringify(first.cursor)}`);
  for (const f of first.list) {
    assert(JSON.stringify(Object.keys(f).sort()) === JSON.stringify([...V3_FILL_FIELDS].sort()), `fields ${JSON.stringify(Object.keys(f))}`);
    assert(allStrings(f, ['feeDetail']) && Array.isArray(f.feeDetail) && f.feeDetail.every((l) => allStrings(l)), `fill=${JSON.stringify(f)}`);
  }
  assertDescending(first.list.map((f) => f.execId));
  const next = await success(v3().getTradeFills({ cursor: first.cursor, limit: '100' }));
  assert(next.list.length === 50 && next.cursor === '', `second page ${next.list.length} fills, cursor=${JSON.stringify(next.cursor)}`);
  assertDescending(next.list.map((f) => f.execId), first.cursor);
  return '150 fills';
});

for (const [name, call] of [['withdrawal', (p) => v3().getWithdrawRecords(p)], ['deposit', (p) => v3().getDepositRecords(p)]]) {
  await check(`v3 ${name} records paging (cursor = smallest orderId)`, async () => {
    const window = { startTime: String(Date.now() - 30 * 86_400_000), endTime: String(Date.now() + 60_000) };
    const first = await success(call(window));
    assert(Array.isArray(first) && first.length === 20, `default page has ${first?.length} records, want 20`);
    assert(first.every((r) => allStrings(r)), `a field is not a string: ${JSON.stringify(first[0])}`);
    const next = await success(call({ ...window, cursor: first[19].orderId }));
    assert(next.length === 10, `second page has ${next.length} records, want 10`);
    assertDescending([...first, ...next].map((r) => r.orderId));
    const end = await success(call({ ...window, cursor: next[9].orderId }));
    assert(end.length === 0, `third page has ${end.length} records, want 0`);
  });
}

await check('classic key v3 trade fills -> 40084', () => expectFamilyCode(v3(classic).getTradeFills({}), '40084', CLASSIC_ON_V3));

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
