'use strict';
// The lean list path against a local HTTP server playing S3: it signs for the client's
// region, and a redirect (301 PermanentRedirect) or any other non-200 answer is handed to
// the SDK, whose request then gets the page; nothing is lost and the retry is counted.
const http = require('http');
const { S3Store } = require('../../src/stores/s3-store');
const { RequestStats } = require('../../src/stats');

const PAGE = '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
  '<Name>bkt</Name><Prefix></Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><EncodingType>url</EncodingType><IsTruncated>false</IsTruncated>' +
  '<Contents><Key>caf%C3%A9+1</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified><ETag>&quot;e&quot;</ETag><Size>5</Size><StorageClass>STANDARD</StorageClass></Contents>' +
  '</ListBucketResult>';
const REDIRECT = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PermanentRedirect</Code>' +
  '<Message>The bucket you are attempting to access must be addressed using the specified endpoint.</Message>' +
  '<Bucket>bkt</Bucket><Endpoint>bkt.s3.eu-west-1.amazonaws.com</Endpoint><RequestId>r</RequestId></Error>';

let server, seen, redirects;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url, sdk: Boolean(req.headers['amz-sdk-invocation-id']), auth: req.headers.authorization || '' });
    if (redirects > 0) {
      redirects--;
      res.writeHead(301, { 'content-type': 'application/xml', 'x-amz-bucket-region': 'eu-west-1' });
      res.end(REDIRECT);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => { seen = []; redirects = 0; });

function store(stats) {
  return new S3Store({
    bucket: 'bkt', region: 'eu-west-1', endpointUrl: `http://127.0.0.1:${server.address().port}`, fastPaths: true, stats,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 2,
  });
}

const saved = process.env.S3BLITZ_FAST_PATHS;
beforeAll(() => { delete process.env.S3BLITZ_FAST_PATHS; });
afterAll(() => { if (saved !== undefined) process.env.S3BLITZ_FAST_PATHS = saved; });

test('the lean path answers a plain page itself, signed for the client region', async () => {
  const stats = new RequestStats();
  const s = store(stats);
  const page = await s.listPage({ prefix: '', delimiter: '/' });
  s.destroy();
  expect(page.items.map((i) => i.Key)).toEqual(['café 1']);
  expect(seen).toHaveLength(1);
  expect(seen[0].sdk).toBe(false);
  expect(seen[0].url).toMatch(/list-type=2/);
  expect(seen[0].url).toMatch(/delimiter=%2F/);
  expect(seen[0].auth).toMatch(/Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request/);
  expect(stats.retries).toBe(0);
});

test('a 301 PermanentRedirect on the lean path goes to the SDK, which gets the page', async () => {
  redirects = 1;
  const stats = new RequestStats();
  const s = store(stats);
  const page = await s.listPage({ prefix: '', startAfter: 'a' });
  s.destroy();
  expect(page.items.map((i) => i.Key)).toEqual(['café 1']);
  expect(seen.map((r) => r.sdk)).toEqual([false, true]); // lean first, then the SDK
  expect(stats.retries).toBe(1);
});

test('a redirect the SDK also gets is one clear error, not a page', async () => {
  redirects = 10;
  const s = store(new RequestStats());
  await expect(s.listPage({ prefix: '' })).rejects.toThrow(/PermanentRedirect|redirect|region|301/i);
  s.destroy();
});

// Aborting one signal ends that signal's requests only: the lister gives every request of a
// listing one signal, and a canary of its own runs beside it with another.
test.each([['main thread', false], ['request thread', true]])('an abort ends only the requests of its own signal (%s)', async (name, requestThread) => {
  const held = [];
  const hold = server.listeners('request')[0];
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    if (req.url.includes('held')) held.push(() => hold(req, res)); else hold(req, res);
  });
  try {
    const s = new S3Store({
      bucket: 'bkt', region: 'eu-west-1', endpointUrl: `http://127.0.0.1:${server.address().port}`, fastPaths: true, requestThread,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1,
    });
    await s.listPage({ prefix: '' }); // the first request of a store goes from the main thread
    const a = new AbortController(), b = new AbortController();
    const pa = s.listPage({ prefix: 'held-a', signal: a.signal });
    const pb = s.listPage({ prefix: 'held-b', signal: b.signal });
    while (held.length < 2) await new Promise((resolve) => setImmediate(resolve));
    a.abort(new Error('this one only'));
    await expect(pa).rejects.toThrow('this one only');
    for (const release of held) release();
    expect((await pb).items.map((i) => i.Key)).toEqual(['café 1']);
    s.destroy();
  } finally {
    server.removeAllListeners('request');
    server.on('request', hold);
  }
});
