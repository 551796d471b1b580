'use strict';
// cp and sync through a proxy that answers 5% of requests with 503 SlowDown, 2% with 500
// InternalError and resets 1% of connections: every object still arrives (compare
// straight against MinIO says identical, ETags equal), no multipart upload is left
// open, and a second sync copies nothing. A key refused forever fails alone, named on
// stderr and counted, while everything else is copied and its aborted multipart upload
// is cleaned up. Wall times against a clean run through the same proxy are printed
// (informational, never asserted).
const fs = require('fs');
const os = require('os');
const path = require('path');
const {
  ListMultipartUploadsCommand, CreateMultipartUploadCommand, UploadPartCommand, CompleteMultipartUploadCommand,
  PutObjectCommand, GetObjectCommand, ListObjectsV2Command,
} = require('@aws-sdk/client-s3');
const { createBucket, uniqueBucket, putObjects, sequentialList, runCli, connection, s3client } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');

const MiB = 1024 * 1024;
const N_SMALL = 3000;
const LARGE_KEYS = ['large/a.bin', 'large/b c.bin', 'large/ü.bin'];
const LARGE_SIZE = 12 * MiB;
const PART = 5 * MiB;
const RUN_TIMEOUT_MS = 240000;
const FAULT_RATES = { slowDown: 0.05, internalError: 0.02, reset: 0.01 };
const ZERO = { slowDown: 0, internalError: 0, reset: 0, slow: 0, truncate: 0 };
// The copy options of every run: the large objects go part by part.
const COPY_OPTS = ['--large-copy-threshold', '5MiB', '--part-size', '5MiB'];
// The CLI's SDK makes up to 5 attempts per request: with at most 3 faults per SDK
// invocation every request gets through, so the outcome never depends on the chance of
// five faults in a row (at 8% that is about 3 in 10^6 per request).
const MAX_FAULTS_PER_INVOCATION = 3;

const smallKey = (i) => `small/${String(i % 37).padStart(2, '0')}/obj-${String(i).padStart(5, '0')}${i % 11 === 0 ? ' sp+c%.txt' : '.txt'}`;
const row = (o) => [o.Key, o.Size, o.ETag];

let stateHome;
let src;
let srcRows;
let proxy;
const times = {};

async function putMultipart(bucket, key, size, seed) {
  const c = s3client();
  const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const parts = [];
  for (let off = 0, n = 1; off < size; off += PART, n++) {
    const len = Math.min(PART, size - off);
    const out = await c.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: n, Body: Buffer.alloc(len, (seed + n) % 256) }));
    parts.push({ ETag: out.ETag, PartNumber: n });
  }
  await c.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
}

async function openUploads(bucket) {
  const out = await s3client().send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return (out.Uploads || []).map((u) => u.Key);
}

const diff = (after, before) => ({
  requests: after.requests - before.requests,
  byType: Object.fromEntries(Object.keys(after.byType).map((k) => [k, after.byType[k] - before.byType[k]])),
  injected: Object.fromEntries(Object.keys(after.injected).map((k) => [k, after.injected[k] - before.injected[k]])),
});

/** One CLI run through proxy p; returns the run and what the proxy saw during it. */
async function timedRun(label, p, args) {
  const before = p.stats();
  const t0 = process.hrtime.bigint();
  // Generous: under the proxy's random SlowDowns a copy's time varies from run to run (12-79 s
  // here on 2026-12-02; docs/transfer-benchmark.md); this test checks what arrives, not speed.
  const r = await runCli([...args, '--endpoint-url', p.endpoint], { env: { XDG_STATE_HOME: stateHome }, timeout: RUN_TIMEOUT_MS });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const seen = diff(p.stats(), before);
  times[label] = seconds;
  console.log(`[s3blitz faults] ${label}: exit ${r.code}, ${seconds.toFixed(2)} s wall, ` +
    `${((N_SMALL + LARGE_KEYS.length) / seconds).toFixed(0)} objects/s; proxy saw ${seen.requests} requests ` +
    `${JSON.stringify(seen.byType)}, injected ${JSON.stringify(seen.injected)}`);
  return { ...r, seconds, seen };
}

function relative(label, cleanLabel) {
  if (times[label] && times[cleanLabel]) {
    console.log(`[s3blitz faults] THROUGHPUT ${label} vs ${cleanLabel} through the same proxy: ` +
      `${times[label].toFixed(2)} s vs ${times[cleanLabel].toFixed(2)} s = ${(times[cleanLabel] / times[label] * 100).toFixed(0)}% of clean throughput`);
  }
}

// Straight to MinIO, not through the proxy: the target is the source, object for object.
async function expectIdentical(dst) {
  expect((await sequentialList(dst)).map(row)).toEqual(srcRows);
  const r = await runCli(['compare', `s3://${src}`, `s3://${dst}`], { env: { XDG_STATE_HOME: stateHome } });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect(r.stdout).toMatch(/^identical$/m);
  expect(r.stdout).toMatch(new RegExp(`same\\s+${(N_SMALL + LARGE_KEYS.length).toLocaleString('en-US')}\\b`));
  expect(await openUploads(dst)).toEqual([]);
}

// No object failed: nothing named on stderr (notices such as concurrency changes may show).
const expectNoFailures = (stderr) => expect(stderr.split('\n').filter((l) => /^s3blitz: (failed|changed|vanished|skipped) /.test(l))).toEqual([]);

beforeAll(async () => {
  stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-faults-state-'));
  src = await createBucket(uniqueBucket('faults-src'));
  await putObjects(src, Array.from({ length: N_SMALL }, (_, i) => ({ key: smallKey(i), body: Buffer.alloc(i % 1500, i % 251) })), { concurrency: 64 });
  await Promise.all(LARGE_KEYS.map((k, i) => putMultipart(src, k, LARGE_SIZE, i * 17)));
  srcRows = (await sequentialList(src)).map(row);
  expect(srcRows).toHaveLength(N_SMALL + LARGE_KEYS.length);
  expect(srcRows.filter(([k]) => k.startsWith('large/')).every(([, , etag]) => /-3"$/.test(etag))).toBe(true);
  proxy = await startFaultProxy({ target: connection().endpoint, rates: ZERO, seed: 20240611, maxFaultsPerInvocation: MAX_FAULTS_PER_INVOCATION });
}, 180000);

afterAll(async () => {
  if (proxy) await proxy.close();
  fs.rmSync(stateHome, { recursive: true, force: true });
});

test('SigV4 signatures made for the proxy host pass through it (Host forwarded unchanged)', async () => {
  proxy.setRates(ZERO);
  const c = s3client({ endpoint: proxy.endpoint, maxAttempts: 1 });
  try {
    const bucket = await createBucket(uniqueBucket('faults-sig'));
    const body = Buffer.alloc(100000, 3);
    await c.send(new PutObjectCommand({ Bucket: bucket, Key: 'a b/ü+x', Body: body }));
    const got = await c.send(new GetObjectCommand({ Bucket: bucket, Key: 'a b/ü+x' }));
    expect(Buffer.from(await got.Body.transformToByteArray()).equals(body)).toBe(true);
    const l = await c.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(l.Contents.map((o) => o.Key)).toEqual(['a b/ü+x']);
  } finally {
    c.destroy();
  }
});

describe('cp', () => {
  test('clean run through the proxy (zero rates): the baseline', async () => {
    proxy.setRates(ZERO);
    const dst = await createBucket(uniqueBucket('faults-cp-clean'));
    const r = await timedRun('cp clean', proxy, ['cp', `s3://${src}`, `s3://${dst}`, ...COPY_OPTS]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.seen.injected).toEqual({ slowDown: 0, internalError: 0, reset: 0, slow: 0, truncate: 0, refused: 0, altered: 0 });
    await expectIdentical(dst);
  }, RUN_TIMEOUT_MS + 20000);

  test('5% SlowDown, 2% InternalError, 1% resets: exit 0, every object copied, no upload left open', async () => {
    proxy.setRates({ ...ZERO, ...FAULT_RATES });
    const dst = await createBucket(uniqueBucket('faults-cp'));
    const r = await timedRun('cp with faults', proxy, ['cp', `s3://${src}`, `s3://${dst}`, ...COPY_OPTS]);
    proxy.setRates(ZERO);
    relative('cp with faults', 'cp clean');
    expect(r.code).toBe(0);
    expectNoFailures(r.stderr);
    expect(r.stdout).toMatch(new RegExp(`^copied\\s+${(N_SMALL + LARGE_KEYS.length).toLocaleString('en-US')} objects`, 'm'));
    // The faults really happened, on every kind of request.
    expect(r.seen.injected.slowDown).toBeGreaterThan(50);
    expect(r.seen.injected.internalError).toBeGreaterThan(15);
    expect(r.seen.injected.reset).toBeGreaterThan(5);
    await expectIdentical(dst);
  }, RUN_TIMEOUT_MS + 20000);

  test('a key refused forever fails alone: exit 1, named and counted; everything else copied; its upload aborted', async () => {
    const refusedSmall = smallKey(1234);
    const refusedLarge = LARGE_KEYS[1];
    // The small key is refused on every request; the large one only on UploadPartCopy,
    // after its multipart upload was created, so the copier has to abort that upload.
    // No transient faults here: the run above covers them, and this one stays fast.
    const p = await startFaultProxy({
      target: connection().endpoint,
      seed: 99,
      refuseKey: (key, req) => key === refusedSmall || (key === refusedLarge && req.method === 'PUT' && /[?&]uploadId=/.test(req.url)),
    });
    try {
      const dst = await createBucket(uniqueBucket('faults-refused'));
      const r = await timedRun('cp with 2 keys refused forever', p, ['cp', `s3://${src}`, `s3://${dst}`, ...COPY_OPTS]);
      expect(r.code).toBe(1);
      const failedLines = r.stderr.split('\n').filter((l) => /^s3blitz: failed /.test(l));
      expect(failedLines).toHaveLength(2);
      expect(failedLines.find((l) => l.startsWith(`s3blitz: failed ${JSON.stringify(refusedSmall)}: `))).toMatch(/access denied|AccessDenied/i);
      expect(failedLines.find((l) => l.startsWith(`s3blitz: failed ${JSON.stringify(refusedLarge)}: `))).toMatch(/access denied|AccessDenied/i);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toMatch(/^failed\s+2 objects/m);
      expect(r.stdout).toMatch(new RegExp(`^copied\\s+${(N_SMALL + LARGE_KEYS.length - 2).toLocaleString('en-US')} objects`, 'm'));
      expect(r.seen.injected.refused).toBeGreaterThan(0);
      expect((await sequentialList(dst)).map(row)).toEqual(srcRows.filter(([k]) => k !== refusedSmall && k !== refusedLarge));
      expect(await openUploads(dst)).toEqual([]);
    } finally {
      await p.close();
    }
  }, RUN_TIMEOUT_MS + 20000);
});

describe('sync', () => {
  let dst;
  test('clean run through the proxy (zero rates): the baseline', async () => {
    proxy.setRates(ZERO);
    const clean = await createBucket(uniqueBucket('faults-sync-clean'));
    const r = await timedRun('sync clean', proxy, ['sync', `s3://${src}`, `s3://${clean}`, ...COPY_OPTS]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    await expectIdentical(clean);
  }, RUN_TIMEOUT_MS + 20000);

  test('under the same faults: exit 0, identical, extra target object deleted, no upload left open', async () => {
    dst = await createBucket(uniqueBucket('faults-sync'));
    // Something to overwrite and something to delete, too.
    await putObjects(dst, [{ key: smallKey(5), body: Buffer.from('stale and of another size') }, 'zz-only-in-target']);
    proxy.setRates({ ...ZERO, ...FAULT_RATES });
    try {
      const r = await timedRun('sync with faults', proxy, ['sync', `s3://${src}`, `s3://${dst}`, '--delete', ...COPY_OPTS]);
      relative('sync with faults', 'sync clean');
      expect(r.code).toBe(0);
      expectNoFailures(r.stderr);
      expect(r.stdout).toMatch(/^deleted\s+1 object /m);
      expect(r.seen.injected.slowDown + r.seen.injected.internalError + r.seen.injected.reset).toBeGreaterThan(50);
      await expectIdentical(dst);
    } finally {
      proxy.setRates(ZERO);
    }
  }, RUN_TIMEOUT_MS + 20000);

  test('a second sync under the same faults copies and deletes nothing', async () => {
    expect(dst).toBeDefined();
    proxy.setRates({ ...ZERO, ...FAULT_RATES });
    try {
      const again = await timedRun('second sync with faults', proxy, ['sync', `s3://${src}`, `s3://${dst}`, '--delete', ...COPY_OPTS]);
      expect(again.code).toBe(0);
      expectNoFailures(again.stderr);
      expect(again.stdout).toMatch(/^copied\s+0 objects/m);
      expect(again.stdout).toMatch(/^deleted\s+0 objects/m);
      expect(again.seen.byType).toMatchObject({ COPY: 0, PUT: 0, POST: 0, DELETE: 0 });
    } finally {
      proxy.setRates(ZERO);
    }
  }, RUN_TIMEOUT_MS + 20000);
});
