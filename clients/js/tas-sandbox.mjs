// The sandbox controls of a Trading Account Service from a JavaScript test suite (issue 28 item 5): the clock, reset
// and seed, snapshots, fault rules and the request journal, over the admin API. The Java twin is
// io.tas.client.SandboxClient. No dependencies: Node 20+'s global fetch.

/** An admin call the service refused: `.code` is the envelope's code ("40017", ...) or the HTTP status. */
export class SandboxRefused extends Error {
  /** @param {string} code @param {string} msg @param {number} [status] */
  constructor(code, msg, status) {
    super(`${code} ${msg}`);
    this.name = 'SandboxRefused';
    this.code = code;
    this.status = status;
  }
}

export class Sandbox {
  /**
   * @param {{adminUrl?: string, token?: string}} [options] defaults: TAS_ADMIN_URL / TAS_ADMIN_TOKEN, else the demo's
   *   http://127.0.0.1:8081 and tas-demo-admin-token
   */
  constructor({ adminUrl, token } = {}) {
    this.adminUrl = (adminUrl ?? process.env.TAS_ADMIN_URL ?? 'http://127.0.0.1:8081').replace(/\/+$/, '');
    this.token = token ?? process.env.TAS_ADMIN_TOKEN ?? 'tas-demo-admin-token';
  }

  // ---- the clock
  /** @returns {Promise<{now: string, adjustable: boolean, frozen: boolean}>} */
  clock() { return this.get('/admin/v1/sandbox/clock'); }
  /** Freezes the clock at `at` (epoch ms), or where it stands when omitted. */
  freeze(at) { return this.post('/admin/v1/sandbox/clock/freeze', at == null ? undefined : { at }); }
  setClock(at) { return this.post('/admin/v1/sandbox/clock/set', { at }); }
  advance(ms) { return this.post('/admin/v1/sandbox/clock/advance', { ms }); }
  resume() { return this.post('/admin/v1/sandbox/clock/resume'); }
  /** Runs the jobs due now (an account switch past its minute, ...) and waits for them. */
  runDue() { return this.post('/admin/v1/jobs/run-due'); }
  /** The sandbox time, epoch ms. */
  async now() { return Number((await this.clock()).now); }

  // ---- the world
  reset() { return this.post('/admin/v1/reset'); }
  /** Applies a seed document: an object, or its JSON text (the format of the seed files of `tas demo`). */
  seed(doc) { return this.send('POST', '/admin/v1/seed', typeof doc === 'string' ? doc : JSON.stringify(doc)); }
  stateHash() { return this.get('/admin/v1/state-hash'); }

  // ---- snapshots
  saveSnapshot(name) { return this.post('/admin/v1/sandbox/snapshots', { name }); }
  restoreSnapshot(name) { return this.post('/admin/v1/sandbox/snapshots/restore', { name }); }
  deleteSnapshot(name) { return this.post('/admin/v1/sandbox/snapshots/delete', { name }); }
  snapshots() { return this.get('/admin/v1/sandbox/snapshots'); }

  // ---- faults
  /** Adds a rule, e.g. {path, action: 'error', code: '429', count: 1}; answers it with its id. */
  addFault(rule) { return this.post('/admin/v1/sandbox/faults', rule); }
  faults() { return this.get('/admin/v1/sandbox/faults'); }
  removeFault(id) { return this.post('/admin/v1/sandbox/faults/remove', { id: String(id) }); }
  clearFaults() { return this.post('/admin/v1/sandbox/faults/clear'); }

  // ---- the journal
  /** Entries, oldest first; filter keys: apiKey, kind, method, path ('*' allowed), since, until, afterSeq, limit. */
  journal(filter = {}) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v != null) q.append(k, String(v));
    const s = q.toString();
    return this.get('/admin/v1/sandbox/journal' + (s ? `?${s}` : ''));
  }
  clearJournal() { return this.post('/admin/v1/sandbox/journal/clear'); }

  // ---- plumbing
  get(path) { return this.send('GET', path); }
  post(path, body) { return this.send('POST', path, body === undefined ? undefined : JSON.stringify(body)); }

  /** One admin call: the envelope's data, or SandboxRefused. */
  async send(method, path, body) {
    let res;
    try {
      res = await fetch(this.adminUrl + path, {
        method, body,
        headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/json' },
      });
    } catch (e) {
      throw new Error(`admin API unreachable at ${this.adminUrl}: ${e.cause?.message ?? e.message}`, { cause: e });
    }
    const text = await res.text();
    let env;
    try {
      env = JSON.parse(text);
    } catch {
      throw new SandboxRefused(String(res.status), text.slice(0, 200), res.status);
    }
    if (env?.code !== '00000') throw new SandboxRefused(String(env?.code ?? res.status), env?.msg ?? text.slice(0, 200), res.status);
    return env.data;
  }
}
