// Issue 29 item 4: the admin console (docs/console.md) in a real headless Chromium (Debian's, driven by playwright-core).
// Logs in (a wrong token refused), creates a key and reads its secret once, signs REST calls with it (ccxt), deposits
// through the console, places an order through the API and finds it in the console's open orders and book, saves a
// snapshot, changes the balance, restores it, and visits every page, saving a full-page screenshot of each.
// Env: TAS_ADMIN_URL, TAS_ADMIN_TOKEN, TAS_BASE_URL, TAS_CONSOLE_UID, TAS_CONSOLE_DEPOSIT, TAS_CONSOLE_DEPOSIT2,
// TAS_CONSOLE_PRICE, TAS_CONSOLE_QTY, TAS_SHOTS (the screenshot folder), TAS_CHROMIUM (default /usr/bin/chromium).
// Prints `ok <check> (<note>)` / `FAIL <check>: <details>` and `N passed, M failed`; exits 0 only if all passed.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ccxt from 'ccxt';
import { chromium } from 'playwright-core';
import { assert, baseUrl, adminUrl, checks } from './trading-fixture.mjs';

const token = process.env.TAS_ADMIN_TOKEN;
const uid = process.env.TAS_CONSOLE_UID;
const deposit = process.env.TAS_CONSOLE_DEPOSIT;
const deposit2 = process.env.TAS_CONSOLE_DEPOSIT2;
const price = process.env.TAS_CONSOLE_PRICE;
const qty = process.env.TAS_CONSOLE_QTY;
const shots = process.env.TAS_SHOTS || 'console-screenshots';
const passphrase = 'Browser-Pass-1';
mkdirSync(shots, { recursive: true });

const { check, finish } = checks();
const profile = mkdtempSync(join(tmpdir(), 'tas-console-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.TAS_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const page = browser.pages()[0] ?? await browser.newPage();
page.setDefaultTimeout(10_000);

const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const text = async (sel) => (await page.textContent(sel))?.trim();
/** Submits a form by its button and waits for the page it leads to (a redirect after a change, or a refusal). */
async function submit(button) {
  await Promise.all([page.waitForNavigation(), page.click(button)]);
}
const usdtCell = 'tr[data-account="unified"][data-coin="USDT"] td[data-field="available"]';
async function usdt() {
  await page.goto(`${adminUrl}/console/accounts/${uid}`);
  return (await page.locator(usdtCell).count()) ? text(usdtCell) : '0';
}
let key;
let secret;
let order;

try {
  await check('a wrong token is refused', async () => {
    await page.goto(`${adminUrl}/console/accounts`);
    assert(page.url().endsWith('/console/login'), `not sent to the login page: ${page.url()}`);
    await shot('login');
    await page.fill('#f-token', `${token}-wrong`);
    const [res] = await Promise.all([page.waitForNavigation(), page.click('#login-submit')]);
    assert(res.status() === 401, `HTTP ${res.status()}`);
    assert((await text('#error')) === 'wrong admin token', await text('#error'));
    const cookies = await browser.cookies();
    assert(cookies.length === 0, `cookies after a wrong token: ${cookies.map((c) => c.name)}`);
    return 'HTTP 401, no cookie';
  });

  await check('log in with the admin token', async () => {
    await page.fill('#f-token', token);
    await submit('#login-submit');
    assert(page.url().endsWith('/console/accounts'), page.url());
    const [c] = await browser.cookies();
    assert(c && c.httpOnly && c.sameSite === 'Strict' && c.path === '/console', JSON.stringify(c));
    const kinds = [];
    for (const row of await page.locator('#accounts tr[data-uid]').all()) kinds.push(`${await row.getAttribute('data-uid')} ${await row.getAttribute('data-kind')}`);
    await shot('accounts');
    return `${kinds.length} accounts: ${kinds.join(', ')}`;
  });

  await check('create a key: its secret is shown once', async () => {
    await page.goto(`${adminUrl}/console/accounts/${uid}`);
    await page.fill('#create-key input[name=label]', 'browser test');
    await page.fill('#create-key input[name=passphrase]', passphrase);
    await submit('#create-key-submit');
    key = await text('#access-key');
    secret = await text('#secret');
    assert(/^bg_[0-9a-f]{32}$/.test(key) && /^[0-9a-f]{64}$/.test(secret), `key ${key} secret ${secret}`);
    await shot('key-created');
    await page.reload();
    assert(await page.locator('#secret').count() === 0, 'the secret is shown again after a reload');
    assert(!(await page.content()).includes(secret), 'the secret is in the page after a reload');
    await page.goto(`${adminUrl}/console/accounts/${uid}`);
    assert(await page.locator(`#keys tr[data-access-key="${key}"][data-revoked="false"]`).count() === 1, 'key not listed');
    assert(!(await page.content()).includes(secret), 'the secret is on the account page');
    return 'a 64-digit secret, gone after a reload';
  });

  const exchange = () => {
    const ex = new ccxt.bitget({ apiKey: key, secret, password: passphrase, timeout: 15000 });
    for (const section of Object.keys(ex.urls.api)) if (typeof ex.urls.api[section] === 'string') ex.urls.api[section] = baseUrl;
    return ex;
  };
  let ex;
  let before;
  await check('the new key signs REST calls', async () => {
    ex = exchange();
    await ex.loadMarkets();
    const balance = await ex.fetchBalance();
    before = await usdt();
    assert(String(balance.USDT?.free) === String(Number(before)), `ccxt USDT free ${balance.USDT?.free}, console ${before}`);
    return `ccxt fetchBalance USDT free = console's ${before}`;
  });

  let afterDeposit;
  await check('deposit through the console', async () => {
    await page.goto(`${adminUrl}/console/accounts/${uid}`);
    await page.selectOption('#deposit select[name=account]', 'unified');
    await page.fill('#deposit input[name=coin]', 'USDT');
    await page.fill('#deposit input[name=amount]', deposit);
    await submit('#deposit-submit');
    assert((await text('#notice'))?.startsWith(`Deposited ${deposit} USDT to unified`), await text('#notice'));
    afterDeposit = await text(usdtCell);
    assert(await page.locator('#journal tr', { hasText: 'deposit' }).count() > 0, 'no deposit in the ledger journal');
    return `USDT available ${before} -> ${afterDeposit}`;
  });

  await check('a bad amount is refused on the page and changes nothing', async () => {
    await page.fill('#deposit input[name=amount]', 'ten');
    const [res] = await Promise.all([page.waitForNavigation(), page.click('#deposit-submit')]);
    assert(res.status() === 400, `HTTP ${res.status()}`);
    const error = await text('#error');
    assert(error.includes('amount'), error);
    assert((await usdt()) === afterDeposit, 'the balance moved');
    return `HTTP 400: ${error}`;
  });

  let saved;
  await check('an order placed through the API is in the open orders and the book', async () => {
    order = await ex.createOrder('BTC/USDT', 'limit', 'buy', Number(qty), Number(price));
    saved = await usdt();
    const row = page.locator(`#orders tr[data-order-id="${order.id}"]`);
    assert(await row.count() === 1, `order ${order.id} not in the open orders`);
    const cells = (await row.locator('td').allTextContents()).map((s) => s.trim());
    await page.goto(`${adminUrl}/console/book/SPOT/BTCUSDT`);
    const resting = await text(`#resting-bids tr[data-price="${price}"] td[data-field="size"]`);
    const merged = await text(`#book-bids tr[data-price="${price}"] td[data-field="size"]`);
    await shot('book');
    return `${cells[3]} ${cells[2]} ${cells[6]} @ ${cells[5]} ${cells[10]}; USDT available ${afterDeposit} -> ${saved}; `
      + `book ${price}: resting ${resting}, merged ${merged}`;
  });

  await check('save a snapshot, deposit, restore: the balance is back', async () => {
    await page.goto(`${adminUrl}/console/sandbox/snapshots`);
    await page.fill('#save-snapshot input[name=name]', 'console-browser');
    await submit('#save-snapshot-submit');
    assert(await page.locator('#snapshots tr[data-snapshot="console-browser"]').count() === 1, 'snapshot not listed');
    await shot('snapshots');
    await page.goto(`${adminUrl}/console/accounts/${uid}`);
    await page.fill('#deposit input[name=amount]', deposit2);
    await submit('#deposit-submit');
    const changed = await text(usdtCell);
    await page.goto(`${adminUrl}/console/sandbox/snapshots`);
    await submit('#restore-console-browser button');
    assert((await text('#notice'))?.startsWith('Restored snapshot console-browser'), await text('#notice'));
    const back = await usdt();
    assert(back === saved, `restored ${back}, saved ${saved}`);
    assert(await page.locator(`#orders tr[data-order-id="${order.id}"]`).count() === 1, 'the order is gone after the restore');
    return `USDT available ${saved} -> ${changed} -> ${back}, order still open`;
  });

  await check('the account page: live positions', async () => {
    await page.goto(`${adminUrl}/console/accounts/1000000001`);
    const first = await text('#positions-at');
    const positions = await page.locator('#positions tr[data-symbol]').count();
    await page.waitForFunction((t) => document.getElementById('positions-at')?.textContent.trim() !== t, first, { timeout: 8000 });
    await shot('account');
    if (process.env.TAS_DOC_SHOT) await page.screenshot({ path: process.env.TAS_DOC_SHOT });
    return `${positions} positions, refreshed in place`;
  });

  await check('the journal shows the key\'s calls', async () => {
    await page.goto(`${adminUrl}/console/sandbox/journal`);
    await page.fill('#journal-filter input[name=apiKey]', key);
    await submit('#journal-filter-submit');
    const paths = (await page.locator('#journal tr[data-seq] td:nth-child(6)').allTextContents()).map((s) => s.trim());
    assert(paths.some((p) => p.includes('place-order')), paths.join(' '));
    await shot('journal');
    return `${paths.length} entries, place-order among them`;
  });

  await check('clock: freeze and resume', async () => {
    await page.goto(`${adminUrl}/console/sandbox/clock`);
    await submit('#freeze-submit');
    assert(await page.getAttribute('#clock', 'data-frozen') === 'true', 'not frozen');
    await submit('#resume-submit');
    assert(await page.getAttribute('#clock', 'data-frozen') === 'false', 'still frozen');
    await shot('clock');
    return 'frozen, then running';
  });

  await check('faults: add and remove a rule', async () => {
    await page.goto(`${adminUrl}/console/sandbox/faults`);
    await submit('#add-fault-submit');
    const id = await page.getAttribute('#faults tr[data-fault-id]', 'data-fault-id');
    await shot('faults');
    await submit(`#remove-${id} button`);
    assert(await page.locator('#faults tr[data-fault-id]').count() === 0, 'rule still listed');
    return `rule ${id} added and removed`;
  });

  await check('every other page answers', async () => {
    const seen = [];
    for (const [name, path] of [['books', '/console/book'], ['classic-account', '/console/accounts/1000000005'],
      ['futures-book', '/console/book/USDT-FUTURES/BTCUSDT']]) {
      const res = await page.goto(`${adminUrl}${path}`);
      assert(res.status() === 200 && (await page.locator('#error').count()) === 0, `${path}: HTTP ${res.status()}`);
      await shot(name);
      seen.push(name);
    }
    return seen.join(', ');
  });

  // Issue 29 item 1: the OpenAPI viewers (Swagger UI from the jar) render every operation of both documents offline.
  await check('the OpenAPI viewers render every operation', async () => {
    const counts = [];
    for (const [name, url] of [['openapi', `${baseUrl}/openapi`], ['admin-openapi', `${adminUrl}/admin/openapi`]]) {
      const res = await page.goto(url);
      assert(res.status() === 200, `${url}: HTTP ${res.status()}`);
      await page.waitForSelector('.opblock');
      counts.push(`${name} ${await page.locator('.opblock').count()}`);
      await shot(name);
    }
    return counts.join(', ');
  });

  await check('log out', async () => {
    await page.goto(`${adminUrl}/console/accounts`);
    await submit('#logout');
    await page.goto(`${adminUrl}/console/accounts/${uid}`);
    assert(page.url().endsWith('/console/login'), page.url());
    return 'back to the login page';
  });
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
finish();
