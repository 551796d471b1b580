'use strict';
// The request thread against a local HTTP server playing S3: pages after the first are fetched
// and parsed on the worker and arrive as the same items; a non-200 there still goes to the
// SDK; an abort ends its requests at once; a dead thread leaves the main thread's path; and
// an idle thread never keeps the process alive.
const http = require('http');
const fs = require('fs');
const os = require('os');
const crypto = require('crypto');
const path = require('path');
const { spawn } = require('child_process');
const { once } = require('events');
const { S3Store } = require('../../src/stores/s3-store');
const { RequestStats } = require('../../src/stats');
const fileIo = require('../../src/stores/file-io');

const KEYS = Array.from({ length: 2500 }, (_, i) => `dir/é${String(i).padStart(5, '0')}${i % 7 ? '' : '/x'}`);
const enc = (k) => encodeURIComponent(k).replace(/%2F/g, '/');

function pageXml(startAfter, maxKeys) {
  const from = startAfter ? KEYS.findIndex((k) => Buffer.compare(Buffer.from(k), Buffer.from(startAfter)) > 0) : 0;
  const slice = from < 0 ? [] : KEYS.slice(from, from + maxKeys);
  const truncated = from >= 0 && from + maxKeys < KEYS.length;
  return '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>bkt</Name><EncodingType>url</EncodingType>' +
    `<IsTruncated>${truncated}</IsTruncated>` +
    slice.map((k, i) => `<Contents><Key>${enc(k)}</Key><LastModified>2024-06-0${1 + (i % 3)}T00:00:00.000Z</LastModified>` +
      `<ETag>&quot;${k.length}&quot;</ETag><Size>${k.length}</Size><StorageClass>${i % 5 ? 'STANDARD' : 'GLACIER'}</StorageClass></Contents>`).join('') +
    '</ListBucketResult>';
}

let server, seen, parts, failNext, holdMs, closed, gate, gated;
// The server's news, to wait on rather than poll: 'held' (a request it will not answer
// arrived), 'dropped' (a connection closed before its answer).
const events = new (require('events').EventEmitter)();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    seen.push({ sdk: Boolean(req.headers['amz-sdk-invocation-id']), method: req.method, url: req.url, source: req.headers['x-amz-copy-source'] });
    if (req.method === 'PUT' && u.searchParams.has('uploadId')) { // UploadPart: its MD5 as the ETag
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        parts.push({ sdk: seen[seen.length - 1].sdk, md5: crypto.createHash('md5').update(body).digest('base64'), sent: req.headers['content-md5'] });
        if (failNext > 0 && !req.headers['amz-sdk-invocation-id']) {
          failNext--;
          res.writeHead(500, { 'content-type': 'application/xml' });
          res.end('<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>');
          return;
        }
        res.writeHead(200, { etag: `"${crypto.createHash('md5').update(body).digest('hex')}"`, 'content-length': '0' });
        res.end();
      });
      return;
    }
    if (req.method === 'PUT') { // CopyObject: a result, or an error inside a 200
      const body = u.pathname.endsWith('/bad') ? '<Error><Code>InternalError</Code></Error>'
        : `<CopyObjectResult><LastModified>2024-06-01T00:00:00.000Z</LastModified><ETag>&quot;${decodeURIComponent(u.pathname).length}&quot;</ETag></CopyObjectResult>`;
      res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    req.on('close', () => { if (!res.writableEnded) { closed++; events.emit('dropped'); } });
    if (failNext > 0 && !req.headers['amz-sdk-invocation-id']) {
      failNext--;
      res.writeHead(503, { 'content-type': 'application/xml' });
      res.end('<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      return;
    }
    const body = u.searchParams.get('prefix') === 'bad/' // claims url encoding, holds a lone %
      ? '<ListBucketResult><EncodingType>url</EncodingType><IsTruncated>false</IsTruncated><Contents><Key>bad/100%</Key><Size>1</Size></Contents></ListBucketResult>'
      : pageXml(u.searchParams.get('start-after'), Number(u.searchParams.get('max-keys') || 1000));
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (holdMs === Infinity) { events.emit('held'); return; } // answered never: only an abort ends it
    if (gate) { gated.push(answer); if (gated.length === gate) gated.splice(0).forEach((f) => f()); return; } // answered together
    const timer = setTimeout(answer, holdMs);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => { seen = []; parts = []; failNext = 0; holdMs = 0; closed = 0; gate = 0; gated = []; });

const saved = process.env.S3BLITZ_FAST_PATHS;
beforeAll(() => { delete process.env.S3BLITZ_FAST_PATHS; });
afterAll(() => { if (saved !== undefined) process.env.S3BLITZ_FAST_PATHS = saved; });

const endpoint = () => `http://127.0.0.1:${server.address().port}`;
function store(o = {}) {
  return new S3Store({
    bucket: 'bkt', region: 'us-east-1', endpointUrl: endpoint(), fastPaths: true, stats: new RequestStats(),
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 2, ...o,
  });
}

async function listAll(s, startAfter) {
  const items = [];
  for (;;) {
    const page = await s.listPage({ prefix: '', startAfter });
    items.push(...page.items);
    if (!page.truncated) return items;
    startAfter = page.items[page.items.length - 1].Key;
  }
}

test('pages after the first come from the thread, identical to the main thread\'s', async () => {
  const threaded = store();
  const plain = store({ requestThread: false });
  try {
    const a = await listAll(threaded);
    const b = await listAll(plain);
    expect(a.map((i) => i.Key)).toEqual(KEYS);
    expect(a).toEqual(b);
    expect(a[5]).toEqual({ Key: KEYS[5], Size: KEYS[5].length, LastModified: new Date('2024-06-03T00:00:00.000Z'), ETag: `"${KEYS[5].length}"`, StorageClass: 'GLACIER' });
    expect(threaded.lean.threads.map((t) => t.pages)).toEqual([2]); // pages 2 and 3 of 3
    expect(plain.lean.threads).toEqual([]);
    expect(seen.every((r) => !r.sdk)).toBe(true);
  } finally { threaded.destroy(); plain.destroy(); }
});

test('overlapping requests spread over up to requestThreads threads, a new one only while the others are busy; a dead one is passed over', async () => {
  const s = store({ requestThreads: 3 });
  try {
    await s.listPage({ prefix: '', maxKeys: 10 }); // the first: main thread
    await s.listPage({ prefix: '', startAfter: KEYS[9], maxKeys: 10 }); // alone: one thread is enough
    expect(s.lean.threads).toHaveLength(1);
    // Nine at once, answered only when all nine have arrived: every thread has some out.
    gate = 9;
    const starts = Array.from({ length: 9 }, (_, j) => 20 + 100 * j);
    const pages = await Promise.all(starts.map((from) => s.listPage({ prefix: '', startAfter: KEYS[from - 1], maxKeys: 10 })));
    pages.forEach((p, j) => expect(p.items.map((i) => i.Key)).toEqual(KEYS.slice(starts[j], starts[j] + 10)));
    expect(s.lean.threads).toHaveLength(3);
    expect(s.lean.threads.map((t) => t.pages)).toEqual([4, 3, 3]);
    expect(s.stats.threadRequests).toBe(10);
    // One dies: the next requests go to the others.
    await s.lean.threads[1].worker.terminate();
    gate = 4;
    const more = await Promise.all([3, 5, 7, 9].map((d) => s.listPage({ prefix: '', startAfter: KEYS[d * 100 + 49], maxKeys: 10 })));
    more.forEach((p, j) => expect(p.items.map((i) => i.Key)).toEqual(KEYS.slice([3, 5, 7, 9][j] * 100 + 50, [3, 5, 7, 9][j] * 100 + 60)));
    expect(s.lean.threads.map((t) => [t.usable, t.pages])).toEqual([[true, 6], [false, 3], [true, 5]]);
    expect(seen.every((r) => !r.sdk)).toBe(true);
  } finally { s.destroy(); }
});

test('copies after the first go through the thread too; a 200 with an error body is a FallBack there as well', async () => {
  const s = store();
  try {
    const copy = (key) => s.lean.copyObject({ Key: key, CopySource: `/src/${encodeURIComponent(key)}` });
    expect(await copy('a/é 1')).toBe(`"${'/bkt/a/é 1'.length}"`);
    expect(s.lean.threads).toEqual([]); // the first request never starts a thread
    expect(await copy('a/b')).toBe('"8"');
    await expect(copy('bad')).rejects.toThrow(/without a result/);
    expect(s.stats.threadRequests).toBe(2);
    expect(seen.map((r) => [r.method, r.source])).toEqual([['PUT', '/src/a%2F%C3%A9%201'], ['PUT', '/src/a%2Fb'], ['PUT', '/src/bad']]);
  } finally { s.destroy(); }
});

test('parts read on the thread go into buffers lent by the main thread\'s pool and come back, whichever path sends them', async () => {
  const MiB = 1 << 20;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-lend-'));
  const file = path.join(dir, 'f');
  fs.writeFileSync(file, crypto.randomBytes(6 * MiB));
  const s = store();
  try {
    const held = fileIo.spareBytes();
    const allocs = jest.spyOn(Buffer, 'allocUnsafeSlow');
    const part = (n) => s.putObjectFromFile({ Key: 'big', UploadId: 'u1', PartNumber: n }, { path: file, position: (n - 1) * 2 * MiB, length: 2 * MiB });
    const peek = () => { const b = fileIo.takeBody(2 * MiB); fileIo.giveBack(b); return b; }; // the pool's next buffer
    await part(1); // the first request never starts a thread: the lean path on this thread, a buffer of the pool
    const first = peek();
    await part(2); // on the thread, in the first part's buffer: moved there (detached here) and back
    expect(first.buffer.byteLength).toBe(0);
    const second = peek();
    failNext = 1;
    await part(3); // the thread's answer is a 500: its buffer comes back, and the SDK sends the part from it
    expect(second.buffer.byteLength).toBe(0);
    expect(allocs.mock.calls.filter(([n]) => n === 2 * MiB).length).toBe(held ? 0 : 1);
    allocs.mockRestore();
    expect(parts.map((p) => p.sdk)).toEqual([false, false, false, true]);
    const want = [1, 2, 3, 3].map((n) => crypto.createHash('md5').update(fs.readFileSync(file).subarray((n - 1) * 2 * MiB, n * 2 * MiB)).digest('base64'));
    expect(parts.map((p) => [p.md5, p.sent])).toEqual(want.map((m) => [m, m]));
    expect(s.stats.threadRequests).toBe(1);
    // One buffer served all four sends: none held by the thread, none left as garbage.
    expect(fileIo.spareBytes() - held).toBe(2 * MiB);
  } finally {
    s.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a 503 answered to the thread goes to the SDK, which gets the page; counted as a retry and a throttle', async () => {
  const s = store();
  try {
    await s.listPage({ prefix: '', maxKeys: 10 }); // the first page: main thread
    failNext = 1;
    const page = await s.listPage({ prefix: '', startAfter: KEYS[9], maxKeys: 10 });
    expect(page.items.map((i) => i.Key)).toEqual(KEYS.slice(10, 20));
    expect(seen.map((r) => r.sdk)).toEqual([false, false, true]);
    expect(s.stats.retries).toBe(1);
    expect(s.stats.throttles).toBe(1);
  } finally { s.destroy(); }
});

test('an abort ends the thread\'s requests at once, with the abort\'s reason', async () => {
  const s = store();
  try {
    await s.listPage({ prefix: '' });
    // The server never answers this page: the request can end only by the abort, so
    // nothing here depends on how fast the machine is.
    holdMs = Infinity;
    const ac = new AbortController();
    const held = once(events, 'held');
    const dropped = once(events, 'dropped');
    const pending = s.listPage({ prefix: '', startAfter: KEYS[999], signal: ac.signal });
    await held;
    ac.abort(new Error('stop now'));
    await expect(pending).rejects.toThrow('stop now');
    await dropped; // the thread dropped the connection
    expect(closed).toBe(1);
  } finally { s.destroy(); }
});

test('a thread that died leaves later pages to the main thread\'s path', async () => {
  const s = store();
  try {
    await s.listPage({ prefix: '' });
    await s.listPage({ prefix: '', startAfter: KEYS[999] });
    expect(s.lean.threads[0].pages).toBe(1);
    await s.lean.threads[0].worker.terminate();
    const page = await s.listPage({ prefix: '', startAfter: KEYS[1999] });
    expect(page.items.map((i) => i.Key)).toEqual(KEYS.slice(2000));
    expect(s.lean.threads[0].usable).toBe(false);
    expect(seen.every((r) => !r.sdk)).toBe(true);
  } finally { s.destroy(); }
});

test('a process whose thread is idle exits by itself; one with a page in flight waits for it', async () => {
  // The child lists all pages and never calls destroy(); it must still end, having printed.
  const script = `
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
    const { S3Store } = require(${JSON.stringify(path.resolve(__dirname, '../../src/stores/s3-store'))});
    const s = new S3Store({ bucket: 'bkt', region: 'us-east-1', endpointUrl: ${JSON.stringify(endpoint())}, fastPaths: true,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    (async () => {
      let n = 0, after;
      for (;;) { const p = await s.listPage({ prefix: '', startAfter: after }); n += p.items.length; if (!p.truncated) break; after = p.items[p.items.length - 1].Key; }
      console.log('listed', n, 'thread pages', s.lean.threads[0].pages);
    })();`;
  holdMs = 300; // the child's event loop has nothing but the thread's request to wait on
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, S3BLITZ_FAST_PATHS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const killer = setTimeout(() => child.kill('SIGKILL'), 20000);
  const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(killer);
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(out.trim()).toBe(`listed ${KEYS.length} thread pages 2`);
});

test('a request crosses to the thread as a flat array and comes back whole', () => {
  const { flatRequest, unflatRequest } = require('../../src/stores/request-thread');
  const request = { secure: true, options: { hostname: 'b.s3.eu-west-1.amazonaws.com', port: 443, method: 'PUT', path: '/k%C3%A9y',
    headers: { 'x-amz-copy-source': '/src/k%C3%A9y', authorization: 'AWS4-HMAC-SHA256 Credential=a', host: 'b.s3.eu-west-1.amazonaws.com' } } };
  const flat = flatRequest(7, 'send', request);
  expect(flat.every((x) => typeof x === 'string' || typeof x === 'number' || x === null)).toBe(true); // null: no body
  expect(unflatRequest(structuredClone(flat))).toEqual({ id: 7, op: 'send', request });
  const plain = { ...request, secure: false, options: { ...request.options, port: '9000', headers: {} } };
  expect(unflatRequest(flatRequest(8, 'list', plain))).toEqual({ id: 8, op: 'list', request: plain });
});

test('a page that cannot be read is one fatal line on both paths, never an internal error', async () => {
  const s = store();
  try {
    for (let i = 0; i < 2; i++) { // the first request on the main thread, the second on the thread
      await expect(s.listPage({ prefix: 'bad/', startAfter: `bad/${i}` })).rejects.toMatchObject({
        exitCode: 3, message: `a list page of bucket "bkt" cannot be read (prefix "bad/", after "bad/${i}"): a key that is not valid url-encoding: "bad/100%"`,
      });
    }
    expect(s.lean.threads[0] && s.lean.threads[0].usable).toBe(true); // the second went through the thread
    expect(seen.filter((r) => r.sdk)).toHaveLength(0); // not retried through the SDK
  } finally { s.destroy(); }
});
