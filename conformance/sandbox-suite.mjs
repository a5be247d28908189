// Issue 28 "must show": a test suite written the way a trading team would, with the real, unmodified ccxt 4.5.84 and
// the sandbox module (clients/js/tas-sandbox.mjs). Freeze the clock; seed the bot's account; save a snapshot. Then,
// twice: restore; place an order; fault the next cancel with 429 once; the bot's retry gets it cancelled, and the
// journal shows both sends; switch the account to classic and move the clock past the switch. Every answer the client
// got and every journal entry of its key go into a transcript per round: the rounds must agree byte for byte.
// Prints `ok <check> (<note>)` / `FAIL <check>: <details>` and `N passed, M failed`; exits 0 only if all passed.
// It resets the server: run it against a sandbox of its own (SandboxConformanceTest, or a `./tas demo` you can lose).
import { writeFileSync } from 'node:fs';
import ccxt from 'ccxt';
import { Sandbox, SandboxRefused } from '../clients/js/tas-sandbox.mjs';
import { assert, baseUrl, checks, expectRow, near, same } from './trading-fixture.mjs';

/** 2026-01-05T00:00:00Z: the instant the world stands at. */
const T = 1767571200000;
const SWITCH_WAIT = 120_000; // the switch takes a minute of sandbox time; two are past it
const BOT = { uid: 2000000002, apiKey: 'bg_jsuite000000000000000000000002', secret: 'jsuite-secret-0000000000000000000002', password: 'JsSuite1' };
const SEED = {
  instruments: [{ category: 'SPOT', symbol: 'BTCUSDT', baseCoin: 'BTC', quoteCoin: 'USDT' }],
  tickers: [{ category: 'SPOT', symbol: 'BTCUSDT', lastPrice: '90000', ask1Price: '90000.1', bid1Price: '90000', ask1Size: '1', bid1Size: '1' }],
  accounts: [{
    uid: BOT.uid, username: 'js-suite-bot', accountMode: 'UNIFIED', createdTime: T - 86_400_000,
    balances: [{ account: 'unified', coin: 'USDT', available: '10000' }],
    apiKeys: [{ label: 'bot', accessKey: BOT.apiKey, secret: BOT.secret, passphrase: BOT.password, permType: 'read-and-write', permissions: ['uta_mgt', 'uta_trade'] }],
  }],
};
// The bot rests a buy well below the ask: 0.01 at 80000 freezes 0.01 x 80000 = 800 of its 10000 USDT.
const QTY = 0.01;
const PRICE = 80000;
const FROZEN = 800;
const CANCEL = '/api/v3/trade/cancel-order';

const sandbox = new Sandbox(); // TAS_ADMIN_URL, TAS_ADMIN_TOKEN
const { check, finish } = checks();

/** The bot's ccxt: every API section on the server; the account's family detected by ccxt itself. */
function bot() {
  const ex = new ccxt.bitget({ apiKey: BOT.apiKey, secret: BOT.secret, password: BOT.password, timeout: 15000 });
  for (const section of Object.keys(ex.urls.api)) ex.urls.api[section] = baseUrl;
  return ex;
}

/** The bot's cancel: on a retryable error (ccxt's NetworkError: 429 is DDoSProtection) it waits 100 ms and tries again, at most 3 times. */
async function cancelWithRetry(ex, id, symbol, seen) {
  for (let attempt = 1; ; attempt++) {
    try {
      const o = await ex.cancelOrder(id, symbol);
      seen.push(`cancel #${attempt} ${ex.last_http_response}`);
      return { order: o, attempts: attempt };
    } catch (e) {
      seen.push(`cancel #${attempt} raised ${e.constructor.name}: ${e.message}`);
      if (!(e instanceof ccxt.NetworkError) || attempt === 3) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const usdt = (b) => `USDT ${b.USDT?.free}/${b.USDT?.used}`;

let savedHash;
await check('set-up: reset, freeze, seed, saveSnapshot', async () => {
  await sandbox.reset();
  const clock = await sandbox.freeze(T);
  same(clock.frozen, true, 'frozen');
  same(await sandbox.now(), T, 'now');
  await sandbox.seed(SEED);
  const saved = await sandbox.saveSnapshot('js-suite');
  same(saved.frozen, true, 'snapshot frozen');
  same(saved.createdTime, String(T), 'snapshot createdTime');
  assert((await sandbox.snapshots()).some((s) => s.name === 'js-suite'), 'js-suite listed');
  savedHash = (await sandbox.stateHash()).hash;
  return `frozen at ${new Date(T).toISOString()}, snapshot js-suite`;
});

await check('a refused admin call raises SandboxRefused', async () => {
  try {
    await sandbox.restoreSnapshot('no-such-snapshot');
  } catch (e) {
    assert(e instanceof SandboxRefused, `${e.constructor.name} ${e.message}`);
    same(e.code, '40034', 'code');
    return `restore of an unknown snapshot -> ${e.code}`;
  }
  throw new Error('restore of an unknown snapshot was accepted');
});

/** One round; answers its transcript: what the bot saw and what the journal recorded (no times taken, no headers). */
async function round(n) {
  const seen = [];
  const ex = bot();
  const S = 'BTC/USDT';
  let orderId;

  await check(`round ${n}: restoreSnapshot`, async () => {
    await sandbox.restoreSnapshot('js-suite');
    await sandbox.clearJournal();
    const clock = await sandbox.clock();
    same(clock.frozen, true, 'frozen');
    same(clock.now, String(T), 'now');
    same((await sandbox.stateHash()).hash, savedHash, 'state hash');
    same((await sandbox.faults()).length, 0, 'fault rules');
    same((await sandbox.journal({ apiKey: BOT.apiKey })).length, 0, 'journal entries');
    return 'clock frozen at T, state hash as saved, no rules, empty journal';
  });

  await check(`round ${n}: createOrder limit buy rests`, async () => {
    await ex.loadMarkets();
    same(ex.options.uta, true, 'options.uta');
    const o = await ex.createOrder(S, 'limit', 'buy', QTY, PRICE, { clientOrderId: 'js-suite-1' });
    seen.push(`createOrder ${ex.last_http_response}`);
    orderId = o.id;
    same(o.clientOrderId, 'js-suite-1', 'clientOrderId');
    const b = await ex.fetchBalance();
    seen.push(`fetchBalance ${ex.last_http_response}`);
    near(b.USDT.free, 10000 - FROZEN, 'USDT free');
    near(b.USDT.used, FROZEN, 'USDT used');
    return `${QTY}@${PRICE}; ${usdt(b)}`;
  });

  await check(`round ${n}: cancelOrder retried after one 429`, async () => {
    const rule = await sandbox.addFault({ path: CANCEL, action: 'error', code: '429', count: 1 });
    try {
      const { attempts } = await cancelWithRetry(ex, orderId, S, seen);
      same(attempts, 2, 'attempts');
      same((await sandbox.faults())[0].fired, 1, 'rule fired');
    } finally {
      await sandbox.clearFaults(); // a failed round leaves no rule to the next
    }
    const sent = await sandbox.journal({ apiKey: BOT.apiKey, path: CANCEL });
    same(sent.length, 2, 'cancels in the journal');
    expectRow(sent[0], { method: 'POST', status: 429, code: '429', fault: rule.id }, 'first cancel');
    expectRow(sent[1], { method: 'POST', status: 200, code: '00000', fault: null }, 'second cancel');
    same(sent[1].body, sent[0].body, 'the retry sent the same body');
    assert(JSON.parse(sent[0].body).orderId === orderId, `cancel body ${sent[0].body} names the order`);
    same(sent[0].headers['ACCESS-SIGN'], '***', 'signature redacted');
    same(sent[0].headers['ACCESS-PASSPHRASE'], '***', 'passphrase redacted');
    return `${seen.at(-2).match(/raised (\w+)/)?.[1]}, retried: journal 429 (the rule), then 00000`;
  });

  await check(`round ${n}: fetchOrder canceled, freeze released`, async () => {
    const o = await ex.fetchOrder(orderId, S);
    seen.push(`fetchOrder ${ex.last_http_response}`);
    same(o.status, 'canceled', 'status');
    same(o.clientOrderId, 'js-suite-1', 'clientOrderId');
    near(o.filled, 0, 'filled');
    const b = await ex.fetchBalance();
    seen.push(`fetchBalance ${ex.last_http_response}`);
    near(b.USDT.free, 10000, 'USDT free');
    near(b.USDT.used, 0, 'USDT used');
    return `${o.status}, filled ${o.filled}; ${usdt(b)}`;
  });

  await check(`round ${n}: account switch waits for the clock`, async () => {
    const status = async () => {
      const r = await ex.privateUtaGetV3AccountSwitchStatus();
      seen.push(`switch-status ${ex.last_http_response}`);
      return r.data.status;
    };
    await ex.privateUtaPostV3AccountSwitch();
    seen.push(`switch ${ex.last_http_response}`);
    const before = await status();
    await sandbox.runDue();
    same(await status(), 'process', 'status after run-due at T');
    const c = await sandbox.advance(SWITCH_WAIT);
    same(c.now, String(T + SWITCH_WAIT), 'clock after advance');
    await sandbox.runDue();
    same(await status(), 'success', 'status 2 minutes later');
    return `${before}, still process after run-due, success 2 min later`;
  });

  await check(`round ${n}: a new ccxt sees a classic account`, async () => {
    const ex2 = bot();
    const b = await ex2.fetchBalance();
    seen.push(`classic fetchBalance ${ex2.last_http_response}`);
    same(ex2.options.uta, false, 'options.uta');
    near(b.USDT.free, 10000, 'spot USDT free');
    near(b.USDT.used, 0, 'spot USDT used');
    return `uta=false, spot ${usdt(b)}`;
  });

  await check(`round ${n}: transcript`, async () => {
    // Every answer carries the sandbox time: T, then T + 2 min once the clock moved.
    const times = seen.map((l) => Number(l.match(/"requestTime":(\d+)/)?.[1]));
    for (const [i, t] of times.entries()) assert(t === T || t === T + SWITCH_WAIT, `requestTime ${t} in: ${seen[i]}`);
    const journal = await sandbox.journal({ apiKey: BOT.apiKey, limit: 1000 });
    for (const e of journal) {
      seen.push(`${e.method} ${e.path}?${e.query} ${e.body} -> ${e.status} ${e.code}${e.fault ? ' (fault)' : ''} at ${e.time}`);
    }
    assert(journal.every((e) => Number(e.time) === T || Number(e.time) === T + SWITCH_WAIT), 'journal times at T or T + 2 min');
    return `${times.length} answers, ${journal.length} journal entries`;
  });
  return seen.join('\n');
}

const first = await round(1);
const second = await round(2);
// For a reader of the run: TAS_SUITE_TRANSCRIPT=<file> keeps round 1's transcript.
if (process.env.TAS_SUITE_TRANSCRIPT) writeFileSync(process.env.TAS_SUITE_TRANSCRIPT, first + '\n');
await check('rounds 1 and 2 are byte-identical', async () => {
  if (first !== second) {
    const a = first.split('\n');
    const b = second.split('\n');
    const i = a.findIndex((l, j) => l !== b[j]);
    throw new Error(`line ${i + 1} differs:\n  round 1: ${a[i]}\n  round 2: ${b[i]}`);
  }
  return `${first.split('\n').length} lines, ${Buffer.byteLength(first)} bytes`;
});

// The module's remaining calls, on the world the rounds left: each one's effect read back.
await check('the other sandbox calls', async () => {
  const rule = await sandbox.addFault({ method: 'GET', path: '/api/v3/*', action: 'latency', delayMs: 5, probability: '0.5', seed: 7 });
  same((await sandbox.faults()).map((r) => r.id).join(), rule.id, 'rules after add');
  await sandbox.removeFault(rule.id);
  same((await sandbox.faults()).length, 0, 'rules after remove');
  const gets = await sandbox.journal({ apiKey: BOT.apiKey, method: 'GET', path: '/api/v3/account/switch-*', limit: 2 });
  same(gets.map((e) => e.time).join(), `${T},${T + SWITCH_WAIT}`, 'the last 2 switch-status reads');
  same((await sandbox.journal({ apiKey: BOT.apiKey, since: T + 1 })).length, 3, 'entries after the advance');
  await sandbox.clearJournal();
  same((await sandbox.journal({ apiKey: BOT.apiKey })).length, 0, 'journal after clear');
  same((await sandbox.setClock(T + 3_600_000)).now, String(T + 3_600_000), 'set');
  same((await sandbox.resume()).frozen, false, 'frozen after resume');
  same((await sandbox.freeze()).frozen, true, 'frozen after freeze()');
  await sandbox.deleteSnapshot('js-suite');
  assert(!(await sandbox.snapshots()).some((s) => s.name === 'js-suite'), 'js-suite deleted');
  return 'faults add/remove, journal filters and clear, set, resume, freeze, deleteSnapshot';
});
finish();
