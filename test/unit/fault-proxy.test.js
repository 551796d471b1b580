'use strict';
// The fault proxy used by the integration fault tests, against a tiny local HTTP
// server: pass-through is faithful (status, headers, bodies, the Host header the client
// signed), each fault happens at about its rate and looks to a client like what it
// imitates, the draws depend on the seed alone, and non-idempotent requests are never
// faulted after forwarding.
const http = require('http');
const crypto = require('crypto');
const { startFaultProxy, classify, parseRequest, parseCopySource } = require('../helpers/fault-proxy');

const BODY_SIZE = 1000;
const bodyFor = (url) => crypto.createHash('sha256').update(url).digest().toString('hex').repeat(16).slice(0, BODY_SIZE);

// Upstream: GET answers a deterministic 1000-byte body, PUT/POST echo a digest of the
// request body, HEAD answers headers only, DELETE 204. Every request is recorded.
async function startUpstream() {
  const seen = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const common = { 'x-upstream-host': req.headers.host, 'x-custom': 'kept', 'Content-Type': 'text/plain' };
      if (req.method === 'DELETE') { res.writeHead(204, common); res.end(); return; }
      if (req.method === 'HEAD') { res.writeHead(200, { ...common, 'Content-Length': BODY_SIZE }); res.end(); return; }
      if (req.method === 'GET') {
        const b = bodyFor(req.url);
        res.writeHead(200, { ...common, 'Content-Length': Buffer.byteLength(b) });
        res.end(b);
        return;
      }
      const out = `${req.method} ${body.length} ${crypto.createHash('md5').update(body).digest('hex')}`;
      res.writeHead(200, { ...common, 'Content-Length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    seen,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
afterAll(() => agent.destroy());

/**
 * One request through the proxy. Resolves (never rejects) with
 * {kind: 'ok' | 'reset' | 'truncated', status, headers, body, expected (Content-Length), ms}.
 */
function request(endpoint, { method = 'GET', path = '/bucket/key', headers = {}, body } = {}) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const req = http.request(`${endpoint}${path}`, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', () => {});
      res.on('close', () => {
        const b = Buffer.concat(chunks);
        const expected = res.headers['content-length'] !== undefined ? Number(res.headers['content-length']) : null;
        const complete = res.complete && (method === 'HEAD' || expected === null || b.length === expected);
        resolve({ kind: complete ? 'ok' : 'truncated', status: res.statusCode, headers: res.headers, body: b.toString(), expected, ms: Date.now() - t0 });
      });
    });
    req.on('error', (err) => resolve({ kind: 'reset', code: err.code, ms: Date.now() - t0 }));
    req.end(body);
  });
}

async function runMany(endpoint, n, concurrency, make) {
  const out = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await request(endpoint, make(i));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

let upstream;
beforeEach(async () => { upstream = await startUpstream(); });
afterEach(async () => { await upstream.close(); });

describe('request classification', () => {
  const fake = (method, url, headers = {}) => ({ method, url, headers });
  test.each([
    ['GET', '/b?list-type=2&prefix=x', {}, 'LIST'],
    ['GET', '/', {}, 'LIST'], // ListBuckets
    ['GET', '/b', {}, 'LIST'], // ListObjects v1
    ['GET', '/b?uploads', {}, 'LIST'], // ListMultipartUploads
    ['GET', '/b/k?uploadId=1', {}, 'LIST'], // ListParts
    ['GET', '/b?location', {}, 'GET'],
    ['GET', '/b/some/key.txt', {}, 'GET'],
    ['GET', '/b/k?tagging', {}, 'GET'],
    ['HEAD', '/b/k', {}, 'HEAD'],
    ['HEAD', '/b', {}, 'HEAD'],
    ['PUT', '/b/k', {}, 'PUT'],
    ['PUT', '/b/k?partNumber=1&uploadId=u', {}, 'PUT'],
    ['PUT', '/b/k', { 'x-amz-copy-source': '/a/k' }, 'COPY'],
    ['PUT', '/b/k?partNumber=2&uploadId=u', { 'x-amz-copy-source': 'a/k' }, 'COPY'],
    ['POST', '/b/k?uploads', {}, 'POST'],
    ['POST', '/b/k?uploadId=u', {}, 'POST'],
    ['POST', '/b?delete', {}, 'POST'],
    ['DELETE', '/b/k?uploadId=u', {}, 'DELETE'],
    ['OPTIONS', '/b', {}, 'OTHER'],
  ])('%s %s %j is %s', (method, url, headers, type) => {
    expect(classify(fake(method, url, headers))).toBe(type);
  });

  test('keys are decoded from the path and from x-amz-copy-source', () => {
    expect(parseRequest(fake('GET', '/bkt/a%20b/c%2Bd%3F?x=1'))).toMatchObject({ bucket: 'bkt', key: 'a b/c+d?' });
    expect(parseRequest(fake('GET', '/bkt')).key).toBeUndefined();
    expect(parseRequest(fake('GET', '/bkt/')).key).toBeUndefined();
    expect(parseCopySource('/src/%F0%9F%98%80/x%25y?versionId=3')).toEqual({ bucket: 'src', key: '😀/x%y' });
    expect(parseCopySource('src/k')).toEqual({ bucket: 'src', key: 'k' });
  });
});

describe('pass-through', () => {
  test('status, headers and bodies are forwarded; the Host header is the one the client sent', async () => {
    const proxy = await startFaultProxy({ target: upstream.endpoint });
    try {
      expect(proxy.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const g = await request(proxy.endpoint, { path: '/bucket/dir/a%20key.txt?x=1', headers: { 'x-amz-date': '20240101T000000Z', authorization: 'AWS4-HMAC-SHA256 sig' } });
      expect(g).toMatchObject({ kind: 'ok', status: 200, body: bodyFor('/bucket/dir/a%20key.txt?x=1') });
      expect(g.headers['x-custom']).toBe('kept');
      // What SigV4 signed: the proxy's host, unchanged.
      expect(g.headers['x-upstream-host']).toBe(new URL(proxy.endpoint).host);
      const seenGet = upstream.seen[0];
      expect(seenGet.url).toBe('/bucket/dir/a%20key.txt?x=1');
      expect(seenGet.headers['x-amz-date']).toBe('20240101T000000Z');
      expect(seenGet.headers.authorization).toBe('AWS4-HMAC-SHA256 sig');

      const payload = crypto.randomBytes(300000);
      const p = await request(proxy.endpoint, { method: 'PUT', path: '/bucket/big', body: payload, headers: { 'content-length': payload.length } });
      expect(p).toMatchObject({ kind: 'ok', status: 200, body: `PUT ${payload.length} ${crypto.createHash('md5').update(payload).digest('hex')}` });

      const h = await request(proxy.endpoint, { method: 'HEAD', path: '/bucket/big' });
      expect(h).toMatchObject({ kind: 'ok', status: 200, body: '' });
      expect(h.headers['content-length']).toBe(String(BODY_SIZE));
      const d = await request(proxy.endpoint, { method: 'DELETE', path: '/bucket/big' });
      expect(d).toMatchObject({ kind: 'ok', status: 204 });
      const c = await request(proxy.endpoint, { method: 'PUT', path: '/bucket/copy', headers: { 'x-amz-copy-source': '/bucket/big' } });
      expect(c.kind).toBe('ok');
      const l = await request(proxy.endpoint, { path: '/bucket?list-type=2' });
      expect(l.kind).toBe('ok');
      const po = await request(proxy.endpoint, { method: 'POST', path: '/bucket/k?uploads' });
      expect(po.kind).toBe('ok');

      const s = proxy.stats();
      expect(s.requests).toBe(7);
      expect(s.byType).toMatchObject({ GET: 1, PUT: 1, HEAD: 1, DELETE: 1, COPY: 1, LIST: 1, POST: 1 });
      expect(s.injected).toEqual({ slowDown: 0, internalError: 0, reset: 0, slow: 0, truncate: 0, refused: 0, altered: 0 });
      expect(upstream.seen).toHaveLength(7);
    } finally {
      await proxy.close();
    }
  });

  test('an unreachable target answers 502, and close() ends open keep-alive connections', async () => {
    const dead = await startUpstream();
    const deadEndpoint = dead.endpoint;
    await dead.close();
    const proxy = await startFaultProxy({ target: deadEndpoint });
    const r = await request(proxy.endpoint);
    expect(r.status).toBe(502);
    await proxy.close();
    await proxy.close(); // idempotent
    const after = await request(proxy.endpoint);
    expect(after.kind).toBe('reset');
  });

  test('rates are validated', async () => {
    await expect(startFaultProxy({ target: upstream.endpoint, rates: { slowDown: 0.7, reset: 0.5 } })).rejects.toThrow(/add up/);
    await expect(startFaultProxy({ target: upstream.endpoint, rates: { nope: 0.1 } })).rejects.toThrow(/unknown fault/);
    await expect(startFaultProxy({ target: upstream.endpoint, rates: { slow: -1 } })).rejects.toThrow(/\[0, 1\]/);
    await expect(startFaultProxy({})).rejects.toThrow(/target/);
  });
});

describe('fault injection', () => {
  const RATES = { slowDown: 0.1, internalError: 0.05, reset: 0.05, slow: 0.05, truncate: 0.1 };
  const N = 2000;
  const SLOW_MS = 40;

  async function faultyRun(seed) {
    const proxy = await startFaultProxy({ target: upstream.endpoint, rates: RATES, slowMs: SLOW_MS, seed });
    try {
      const results = await runMany(proxy.endpoint, N, 16, (i) => ({ path: `/bucket/k${i}` }));
      return { results, stats: proxy.stats() };
    } finally {
      await proxy.close();
    }
  }

  test('each fault happens at about its rate and looks like what it imitates', async () => {
    const { results, stats } = await faultyRun(42);
    expect(stats.requests).toBe(N);
    expect(stats.byType.GET).toBe(N);
    // Within 4.5 standard deviations of the binomial expectation.
    for (const [fault, p] of Object.entries(RATES)) {
      const sd = Math.sqrt(N * p * (1 - p));
      expect(Math.abs(stats.injected[fault] - N * p)).toBeLessThan(4.5 * sd);
    }
    const by = (pred) => results.filter(pred).length;
    const slowDowns = by((r) => r.kind === 'ok' && r.status === 503);
    const internal = by((r) => r.kind === 'ok' && r.status === 500);
    // The client sees exactly what was injected.
    expect(slowDowns).toBe(stats.injected.slowDown);
    expect(internal).toBe(stats.injected.internalError);
    expect(by((r) => r.kind === 'reset')).toBe(stats.injected.reset);
    expect(by((r) => r.kind === 'truncated')).toBe(stats.injected.truncate);
    const ok = results.filter((r) => r.kind === 'ok' && r.status === 200);
    expect(ok.length).toBe(N - slowDowns - internal - stats.injected.reset - stats.injected.truncate);
    // S3 XML error bodies that SDKs parse.
    const sd = results.find((r) => r.status === 503);
    expect(sd.body).toMatch(/^<\?xml[^>]*>\s*<Error><Code>SlowDown<\/Code><Message>[^<]+<\/Message>/);
    expect(sd.headers['content-type']).toBe('application/xml');
    expect(results.find((r) => r.status === 500).body).toMatch(/<Error><Code>InternalError<\/Code>/);
    // Truncated: the upstream's full Content-Length, half the body, then the connection closed.
    for (const t of results.filter((r) => r.kind === 'truncated')) {
      expect(t.status).toBe(200);
      expect(t.expected).toBe(BODY_SIZE);
      expect(t.body.length).toBe(BODY_SIZE / 2);
    }
    // Slow responses are delayed, and still complete.
    expect(ok.filter((r) => r.ms >= SLOW_MS - 2).length).toBeGreaterThanOrEqual(stats.injected.slow);
    // Successful bodies are intact.
    for (const [i, r] of results.entries()) if (r.kind === 'ok' && r.status === 200) expect(r.body).toBe(bodyFor(`/bucket/k${i}`));
    // Errors and resets never reach the upstream; slow and truncated ones do.
    expect(upstream.seen.length).toBe(N - stats.injected.slowDown - stats.injected.internalError - stats.injected.reset);
  });

  test('the number of each fault depends on the seed only, not on timing', async () => {
    const a = await faultyRun(7);
    const b = await faultyRun(7);
    const c = await faultyRun(8);
    expect(b.stats.injected).toEqual(a.stats.injected);
    expect(c.stats.injected).not.toEqual(a.stats.injected);
  });

  test('non-idempotent POSTs are never truncated (every fault comes before forwarding)', async () => {
    const proxy = await startFaultProxy({ target: upstream.endpoint, rates: { truncate: 1 } });
    try {
      const posts = await runMany(proxy.endpoint, 50, 4, (i) => ({ method: 'POST', path: `/bucket/k${i}?${i % 2 ? 'uploads' : 'uploadId=u'}` }));
      expect(posts.every((r) => r.kind === 'ok' && r.status === 200)).toBe(true);
      const gets = await runMany(proxy.endpoint, 20, 4, (i) => ({ path: `/bucket/k${i}` }));
      expect(gets.every((r) => r.kind === 'truncated')).toBe(true);
      // Nothing to cut in a HEAD answer or a 204.
      expect((await request(proxy.endpoint, { method: 'HEAD' })).kind).toBe('ok');
      expect((await request(proxy.endpoint, { method: 'DELETE' })).kind).toBe('ok');
      expect(proxy.stats().injected.truncate).toBe(20);
    } finally {
      await proxy.close();
    }
  });

  test('setRates changes the rates of a running proxy', async () => {
    const proxy = await startFaultProxy({ target: upstream.endpoint });
    try {
      expect((await request(proxy.endpoint)).status).toBe(200);
      proxy.setRates({ internalError: 1 });
      expect((await request(proxy.endpoint)).status).toBe(500);
      proxy.setRates({ internalError: 0, reset: 1 });
      expect((await request(proxy.endpoint)).kind).toBe('reset');
      proxy.setRates({ reset: 0 });
      expect((await request(proxy.endpoint)).status).toBe(200);
      expect(() => proxy.setRates({ slowDown: 2 })).toThrow();
      expect(proxy.stats().injected).toMatchObject({ internalError: 1, reset: 1 });
    } finally {
      await proxy.close();
    }
  });

  test('maxFaultsPerInvocation lets the retries of one SDK invocation through', async () => {
    const proxy = await startFaultProxy({ target: upstream.endpoint, rates: { slowDown: 1 }, maxFaultsPerInvocation: 2 });
    try {
      const headers = { 'amz-sdk-invocation-id': 'inv-1' };
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await request(proxy.endpoint, { headers })).status);
      expect(statuses).toEqual([503, 503, 200, 200]);
      expect((await request(proxy.endpoint, { headers: { 'amz-sdk-invocation-id': 'inv-2' } })).status).toBe(503);
      expect((await request(proxy.endpoint)).status).toBe(503); // no invocation id: no cap
    } finally {
      await proxy.close();
    }
  });
});

describe('refused keys', () => {
  test('every request naming a refused key gets 403 AccessDenied, forever, and never reaches the target', async () => {
    const proxy = await startFaultProxy({ target: upstream.endpoint, refuse: { keys: ['secret/a b.txt'] } });
    try {
      const paths = [
        { path: '/bucket/secret/a%20b.txt' },
        { method: 'HEAD', path: '/bucket/secret/a%20b.txt' },
        { method: 'PUT', path: '/bucket/secret/a%20b.txt', body: 'x' },
        { method: 'PUT', path: '/other/copy', headers: { 'x-amz-copy-source': '/bucket/secret/a%20b.txt' } },
        { method: 'POST', path: '/bucket/secret/a%20b.txt?uploads' },
      ];
      for (let round = 0; round < 3; round++) {
        for (const p of paths) {
          const r = await request(proxy.endpoint, p);
          expect(r.status).toBe(403);
          if (p.method !== 'HEAD') expect(r.body).toMatch(/<Error><Code>AccessDenied<\/Code>/);
        }
      }
      expect((await request(proxy.endpoint, { path: '/bucket/secret/other' })).status).toBe(200);
      expect(proxy.stats().injected.refused).toBe(15);
      expect(upstream.seen.map((s) => s.url)).toEqual(['/bucket/secret/other']);
    } finally {
      await proxy.close();
    }
  });

  test('refuseKey decides per key; the status and code can be set', async () => {
    const asked = [];
    const proxy = await startFaultProxy({
      target: upstream.endpoint,
      refuseKey: (key, req) => { asked.push([key, req.method]); return key.endsWith('.bad'); },
      refuse: { status: 500, code: 'InternalError' },
      rates: { reset: 1 }, // refusals take precedence over drawn faults
    });
    try {
      const r = await request(proxy.endpoint, { path: '/b/x.bad' });
      expect(r.status).toBe(500);
      expect(r.body).toMatch(/<Code>InternalError<\/Code>/);
      expect((await request(proxy.endpoint, { path: '/b/x.good' })).kind).toBe('reset');
      expect(asked).toEqual([['x.bad', 'GET'], ['x.good', 'GET']]);
      expect(proxy.stats().injected).toMatchObject({ refused: 1, reset: 1 });
    } finally {
      await proxy.close();
    }
  });
});

test('onRequest reports every request with its type and fault, and can be removed', async () => {
  const proxy = await startFaultProxy({ target: upstream.endpoint, refuse: { keys: ['no'] } });
  try {
    const seen = [];
    const off = proxy.onRequest((info) => seen.push([info.seq, info.type, info.key, info.fault]));
    proxy.onRequest(() => { throw new Error('a broken listener does not break the proxy'); });
    await request(proxy.endpoint, { path: '/b?list-type=2' });
    await request(proxy.endpoint, { path: '/b/no' });
    await request(proxy.endpoint, { method: 'PUT', path: '/b/yes', headers: { 'x-amz-copy-source': '/a/yes' } });
    off();
    await request(proxy.endpoint, { path: '/b/after' });
    expect(seen).toEqual([[1, 'LIST', undefined, null], [2, 'GET', 'no', 'refused'], [3, 'COPY', 'yes', null]]);
  } finally {
    await proxy.close();
  }
});

test('a promise an onRequest listener returns holds its request until it settles', async () => {
  const proxy = await startFaultProxy({ target: upstream.endpoint });
  try {
    let release;
    const gate = new Promise((r) => { release = r; });
    const arrived = [];
    let heldArrived;
    const heldSeen = new Promise((r) => { heldArrived = r; });
    proxy.onRequest((info) => {
      arrived.push(info.key);
      if (info.key !== 'held') return undefined;
      heldArrived();
      return gate;
    });
    const before = upstream.seen.length;
    const held = request(proxy.endpoint, { path: '/b/held' });
    await heldSeen;
    // Others pass while it waits; it reaches the upstream only once released.
    const other = await request(proxy.endpoint, { path: '/b/free' });
    expect(other).toMatchObject({ kind: 'ok', status: 200, body: bodyFor('/b/free') });
    expect(upstream.seen.slice(before).map((r) => r.url)).toEqual(['/b/free']);
    release();
    expect(await held).toMatchObject({ kind: 'ok', status: 200, body: bodyFor('/b/held') });
    expect(upstream.seen.slice(before).map((r) => r.url)).toEqual(['/b/free', '/b/held']);
    expect(arrived).toEqual(['held', 'free']);
  } finally {
    await proxy.close();
  }
});
