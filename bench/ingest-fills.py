#!/usr/bin/env python3
"""Issue 9 ingest benchmark: N spot fills into one classic account through POST /admin/v1/records/fills.

Runs against a started service (see bench/run-ingest-fills, which starts one on a throw-away PostgreSQL
database). Creates a classic account, pre-builds every batch body (so the client's JSON work is not timed),
then posts the batches over `--clients` keep-alive connections and prints the wall time and the rate.
Stdlib only.
"""
import argparse, http.client, json, threading, time, urllib.parse

p = argparse.ArgumentParser()
p.add_argument("--admin-url", default="http://127.0.0.1:8081")
p.add_argument("--token", default="tas-demo-admin-token")
p.add_argument("--fills", type=int, default=1_000_000)
p.add_argument("--batch", type=int, default=10_000)
p.add_argument("--clients", type=int, default=2)
a = p.parse_args()
u = urllib.parse.urlparse(a.admin_url)
H = {"Authorization": "Bearer " + a.token, "Content-Type": "application/json"}

def post(conn, path, body):
    conn.request("POST", path, body=body, headers=H)
    r = conn.getresponse()
    data = json.loads(r.read())
    if data.get("code") != "00000":
        raise SystemExit(f"{path}: {data}")
    return data["data"]

c = http.client.HTTPConnection(u.hostname, u.port, timeout=600)
uid = int(post(c, "/admin/v1/accounts", json.dumps({"username": f"bench-fills-{int(time.time())}", "accountMode": "CLASSIC"}))["uid"])
now = int(time.time() * 1000)

def body(b):
    recs = []
    for i in range(b * a.batch, min(a.fills, (b + 1) * a.batch)):
        size = f"0.{(i % 9) + 1:03d}"
        price = f"{97000 + i % 100}.5"
        recs.append('{"symbol":"BTCUSDT","side":"%s","priceAvg":"%s","size":"%s","feeDetail":{"feeCoin":"USDT","totalFee":"-0.01"},"cTime":%d}'
                    % ("buy" if i % 2 else "sell", price, size, now - (a.fills - i) * 5))
    return ('{"uid":%d,"records":[%s]}' % (uid, ",".join(recs))).encode()

batches = (a.fills + a.batch - 1) // a.batch
t = time.time()
bodies = [body(b) for b in range(batches)]
print(f"built {batches} bodies ({sum(map(len, bodies)) / 1e6:.0f} MB) in {time.time() - t:.1f} s; uid {uid}", flush=True)

lock = threading.Lock()
todo = list(range(batches))
lat = []

def worker():
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=600)
    while True:
        with lock:
            if not todo: return
            b = todo.pop(0)
        s = time.time()
        post(conn, "/admin/v1/records/fills", bodies[b])
        with lock: lat.append(time.time() - s)

t = time.time()
threads = [threading.Thread(target=worker) for _ in range(a.clients)]
[th.start() for th in threads]
[th.join() for th in threads]
wall = time.time() - t
lat.sort()
print(f"ingested {a.fills} fills in {batches} calls of {a.batch} over {a.clients} connections: {wall:.1f} s, "
      f"{a.fills / wall:,.0f} fills/s; per call p50 {lat[len(lat) // 2] * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms")
print(f"UID={uid}")
