'use strict';
// cp against MinIO: server-side copies of awkward keys, metadata, multipart layouts,
// key rewriting, failures named and counted, nothing left behind.
const crypto = require('crypto');
const { PutObjectCommand, HeadObjectCommand, GetObjectCommand, GetObjectTaggingCommand, ListMultipartUploadsCommand,
  CreateMultipartUploadCommand, UploadPartCommand, CompleteMultipartUploadCommand } = require('@aws-sdk/client-s3');
const s3blitz = require('../../src');
const { createBucket, putObjects, sequentialList, runCli, connection, s3client, libOptions } = require('../helpers/s3env');
const { prng } = require('../helpers/keysets');

const conn = libOptions;
const MiB = 1024 * 1024;
const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');

async function body(bucket, key) {
  const out = await s3client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await out.Body.transformToByteArray());
}

async function openUploads(bucket) {
  const out = await s3client().send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return out.Uploads || [];
}

// Keys with every character that breaks naive CopySource encoding.
function awkwardKeys(n) {
  const r = prng(77);
  const parts = ['a b', 'plus+sign', '100%', 'what?', 'hash#tag', 'this&that', 'café', 'naïve', '中文', '日本語', '😀', '🚀x', 'é/è', '~tilde', "o'quote", '(paren)', '[br]', 'eq=', 'semi;', 'comma,', '%2F', '%20+%2B'];
  const keys = new Set();
  while (keys.size < n) keys.add(`${r.pick(parts)}/${r.pick(parts)}-${keys.size}${r.pick(['', '.txt', '.json', ' '])}`);
  return [...keys];
}

describe('server-side cp of many awkward keys', () => {
  let src, keys;
  beforeAll(async () => {
    src = await createBucket();
    keys = awkwardKeys(2000);
    await putObjects(src, keys.map((key, i) => ({ key, body: Buffer.alloc(i % 5000, i % 251) })), { concurrency: 48 });
    await s3client().send(new PutObjectCommand({ Bucket: src, Key: 'meta/x.bin', Body: 'hello', ContentType: 'application/x-custom', CacheControl: 'max-age=7', Metadata: { owner: 'data-team', 'a-b': 'ü' } }));
  }, 300000);

  test.each([['lean', '1', '1', 1], ['lean, 3 request threads', '1', '1', 3], ['lean, main thread only', '1', '0', 1], ['SDK', '0', '1', 1]])('every key arrives with its size, ETag, content type and metadata (%s path)', async (name, fast, thread, threads) => {
    const dst = await createBucket();
    const { code, stderr, stdout } = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--json', '--request-threads', String(threads)], { env: { S3BLITZ_FAST_PATHS: fast, S3BLITZ_REQUEST_THREAD: thread } });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r.copied.objects).toBe(2001);
    expect(r.failed.objects).toBe(0);
    const a = await sequentialList(src), b = await sequentialList(dst);
    expect(b.map((o) => [o.Key, o.Size, o.ETag])).toEqual(a.map((o) => [o.Key, o.Size, o.ETag]));
    const [hs, h] = await Promise.all([src, dst].map((bk) => s3client().send(new HeadObjectCommand({ Bucket: bk, Key: 'meta/x.bin' }))));
    expect(h.ContentType).toBe('application/x-custom');
    expect(h.CacheControl).toBe('max-age=7');
    // Non-ASCII metadata comes back RFC 2047-encoded; the copy carries it as the source has it.
    expect(h.Metadata).toEqual(hs.Metadata);
    expect(h.Metadata.owner).toBe('data-team');
    expect(r.stats.requests.COPY).toBe(2001);
    expect(r.stats.retries).toBe(0);
    // All but each store's first request went through the request thread (source: lists, target: copies).
    expect(r.stats.threadRequests).toBe(fast === '1' && thread === '1' ? r.stats.requests.LIST - 1 + 2001 - 1 : 0);
    // Copies overlap: with room for three threads, more than one is started (and never more than three).
    if (threads > 1) expect([r.stats.requestThreads > 1, r.stats.requestThreads <= threads]).toEqual([true, true]);
  });

  test('--metadata implies REPLACE and keeps the other headers', async () => {
    const t = await createBucket();
    const r = await s3blitz.copy({ source: `s3://${src}/meta/`, target: `s3://${t}/m/`, metadata: '{"stage":"copied"}', ...conn() });
    expect(r.copied.objects).toBe(1);
    const [hs, h] = await Promise.all([[src, 'meta/x.bin'], [t, 'm/x.bin']].map(([bk, k]) => s3client().send(new HeadObjectCommand({ Bucket: bk, Key: k }))));
    expect(h.Metadata).toEqual({ ...hs.Metadata, stage: 'copied' });
    expect(h.ContentType).toBe('application/x-custom');
    expect(h.CacheControl).toBe('max-age=7');
  });

  test('--dryrun lists what would be copied and changes nothing', async () => {
    const t = await createBucket();
    const { code, stdout } = await runCli(['cp', `s3://${src}/meta/`, `s3://${t}`, '--dryrun']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/5 B\s+meta\/x\.bin -> x\.bin/);
    expect(await sequentialList(t)).toEqual([]);
  });

  test('key rewriting: target path, --to-prefix, --add-prefix, --to-key', async () => {
    const t = await createBucket();
    const some = keys.filter((k) => k.startsWith('café/')).sort();
    expect(some.length).toBeGreaterThan(10);
    await s3blitz.copy({ source: `s3://${src}/café/`, target: `s3://${t}/x/`, ...conn() });
    await s3blitz.copy({ source: `s3://${src}`, prefix: 'café/', target: `s3://${t}`, toPrefix: 'y/', ...conn() });
    await s3blitz.copy({ source: `s3://${src}/café/`, target: `s3://${t}`, addPrefix: 'z/', ...conn() });
    await s3blitz.copy({ source: `s3://${src}/café/`, target: `s3://${t}`, toKey: "js:(key) => 'w/' + key.toUpperCase() + '.backup'", ...conn() });
    const got = (await sequentialList(t)).map((o) => o.Key);
    const want = [
      ...some.map((k) => 'x/' + k.slice(5)), ...some.map((k) => 'y/' + k.slice(5)),
      ...some.map((k) => 'z/' + k), ...some.map((k) => 'w/' + k.toUpperCase() + '.backup'),
    ];
    expect(new Set(got)).toEqual(new Set(want));
  });

  test('a --to-key function that throws or returns bad keys fails only those keys', async () => {
    const t = await createBucket();
    const fn = "js:(k) => k.includes('🚀') ? (() => { throw new Error('no rockets') })() : k.includes('#') ? 42 : k.includes('?') ? '' : k.includes('%') ? 'x'.repeat(1025) : 'ok/' + k";
    const res = await runCli(['cp', `s3://${src}`, `s3://${t}`, '--to-key', fn]);
    expect(res.code).toBe(1);
    const bad = keys.filter((k) => k.includes('🚀') || k.includes('#') || k.includes('?') || k.includes('%'));
    const lines = res.stderr.split('\n').filter((l) => l.startsWith('s3blitz: failed'));
    expect(lines.length).toBe(bad.length);
    expect(res.stderr).toMatch(/--to-key threw: no rockets/);
    expect(res.stderr).toMatch(/not a string \(number\)/);
    expect(res.stderr).toMatch(/invalid key \(empty\)/);
    expect(res.stderr).toMatch(/1025 bytes/);
    expect(res.stdout).toMatch(new RegExp(`failed\\s+${bad.length.toLocaleString("en-US")} objects`));
    expect((await sequentialList(t)).length).toBe(2001 - bad.length);
  });

  test('two source keys mapped to one target key are reported', async () => {
    const t = await createBucket();
    const r = await s3blitz.copy({ source: `s3://${src}/café/`, target: `s3://${t}`, toKey: 'js:(k) => "same"', ...conn() });
    expect(r.collisions).toBe(r.copied.objects + r.failed.objects - 1);
    expect(r.failures[0].reason).toMatch(/collision/);
    expect(r.ok).toBe(false);
  });

  test('a bucket onto itself with the same keys and no change is refused up front', async () => {
    const res = await runCli(['cp', `s3://${src}`, `s3://${src}`]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/onto itself/);
  });

  test('a missing target bucket is fatal', async () => {
    const res = await runCli(['cp', `s3://${src}`, 's3://s3blitz-missing-target']);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/does not exist/);
  });
});

describe('multipart copies', () => {
  let src, dst;
  const sizes = { 'big/a.bin': 6 * MiB + 1, 'big/b.bin': 17 * MiB, 'big/c with space+plus.bin': 30 * MiB - 3 };
  const content = {};
  beforeAll(async () => {
    [src, dst] = [await createBucket(), await createBucket()];
    const c = s3client();
    for (const [key, size] of Object.entries(sizes)) {
      content[key] = crypto.randomBytes(size);
      await c.send(new PutObjectCommand({ Bucket: src, Key: key, Body: content[key], ContentType: 'application/x-test', ContentDisposition: 'attachment', Metadata: { m: key.length.toString() }, Tagging: 'team=data&kind=big' }));
    }
    // A multipart source with 5 MiB parts: its ETag is "md5-of-md5s-4".
    const key = 'big/multipart.bin';
    content[key] = crypto.randomBytes(18 * MiB);
    const up = await c.send(new CreateMultipartUploadCommand({ Bucket: src, Key: key, ContentType: 'text/x-mp', Metadata: { origin: 'mp' } }));
    const parts = [];
    for (let i = 0, n = 1; i < content[key].length; i += 5 * MiB, n++) {
      const out = await c.send(new UploadPartCommand({ Bucket: src, Key: key, UploadId: up.UploadId, PartNumber: n, Body: content[key].subarray(i, i + 5 * MiB) }));
      parts.push({ ETag: out.ETag, PartNumber: n });
    }
    await c.send(new CompleteMultipartUploadCommand({ Bucket: src, Key: key, UploadId: up.UploadId, MultipartUpload: { Parts: parts } }));
    sizes[key] = content[key].length;
  }, 300000);

  test('content, headers, metadata and tags survive; a multipart source keeps its ETag', async () => {
    const r = await s3blitz.copy({ source: `s3://${src}`, target: `s3://${dst}`, largeCopyThreshold: '5MiB', partSize: undefined, ...conn() });
    expect(r.copied.objects).toBe(4);
    expect(r.stats.requests.COPY).toBeGreaterThan(4); // parts, not single copies
    for (const key of Object.keys(sizes)) {
      expect(sha(await body(dst, key))).toBe(sha(content[key]));
    }
    const h = await s3client().send(new HeadObjectCommand({ Bucket: dst, Key: 'big/b.bin' }));
    expect([h.ContentType, h.ContentDisposition, h.Metadata]).toEqual(['application/x-test', 'attachment', { m: '9' }]);
    const tags = await s3client().send(new GetObjectTaggingCommand({ Bucket: dst, Key: 'big/b.bin' }));
    expect(tags.TagSet.map((t) => `${t.Key}=${t.Value}`).sort()).toEqual(['kind=big', 'team=data']);
    const [a, b] = await Promise.all([src, dst].map((bk) => s3client().send(new HeadObjectCommand({ Bucket: bk, Key: 'big/multipart.bin' }))));
    expect(a.ETag).toMatch(/-4"$/);
    expect(b.ETag).toBe(a.ETag);
    expect(b.ContentType).toBe('text/x-mp');
    expect(await openUploads(dst)).toEqual([]);
  });

  test('an explicit --part-size is honoured over the source\'s own layout', async () => {
    const t = await createBucket();
    const r = await s3blitz.copy({ source: `s3://${src}/big/multipart.bin`, target: `s3://${t}/m.bin`, largeCopyThreshold: '5MiB', partSize: '6MiB', ...conn() });
    expect(r.copied.objects).toBe(1);
    const h = await s3client().send(new HeadObjectCommand({ Bucket: t, Key: 'm.bin' }));
    expect(h.ETag).toMatch(/-3"$/); // 18 MiB in 6 MiB parts, not the source's four of 5 MiB
  });

  test('a copy that fails midway is aborted: no multipart upload left behind', async () => {
    const t = await createBucket();
    const ac = new AbortController();
    const uploads = [];
    await expect(s3blitz.copy({
      source: `s3://${src}/big/`, target: `s3://${t}`, largeCopyThreshold: '5MiB', partConcurrency: 1, ...conn(), signal: ac.signal,
      onUpload: (id) => { uploads.push(id); ac.abort(new Error('injected failure')); },
    })).resolves.toMatchObject({ interrupted: true, complete: false });
    expect(uploads.length).toBeGreaterThan(0);
    expect(await openUploads(t)).toEqual([]);
  });
});

describe('across endpoints and storage classes', () => {
  test('--to-endpoint-url streams objects through this machine', async () => {
    const [src, dst] = [await createBucket(), await createBucket()];
    const big = crypto.randomBytes(7 * MiB);
    await putObjects(src, [{ key: 'small é.txt', body: Buffer.from('hello') }, { key: 'big+1.bin', body: big }]);
    const res = await runCli(['cp', `s3://${src}`, `s3://${dst}/copy/`, '--to-endpoint-url', connection().endpoint, '--large-copy-threshold', '5MiB', '--part-size', '5MiB', '--json']);
    expect(res.code).toBe(0);
    const r = JSON.parse(res.stdout);
    expect(r.copied.objects).toBe(2);
    expect(r.stats.requests.COPY).toBeUndefined(); // no server-side copy across endpoints
    expect(sha(await body(dst, 'copy/big+1.bin'))).toBe(sha(big));
    expect((await body(dst, 'copy/small é.txt')).toString()).toBe('hello');
  });

  test('the storage class is kept, or set with --storage-class', async () => {
    const [src, dst] = [await createBucket(), await createBucket()];
    await s3client().send(new PutObjectCommand({ Bucket: src, Key: 'rrs', Body: 'x', StorageClass: 'REDUCED_REDUNDANCY' }));
    await s3client().send(new PutObjectCommand({ Bucket: src, Key: 'std', Body: 'y' }));
    const srcList = await sequentialList(src);
    await s3blitz.copy({ source: `s3://${src}`, target: `s3://${dst}/kept/`, ...conn() });
    await s3blitz.copy({ source: `s3://${src}/std`, target: `s3://${dst}/set/std`, storageClass: 'REDUCED_REDUNDANCY', ...conn() });
    const got = Object.fromEntries((await sequentialList(dst)).map((o) => [o.Key, o.StorageClass || 'STANDARD']));
    const want = Object.fromEntries(srcList.map((o) => [`kept/${o.Key}`, o.StorageClass || 'STANDARD']));
    expect(got).toEqual({ ...want, 'set/std': 'REDUCED_REDUNDANCY' });
    expect(want['kept/rrs']).toBe('REDUCED_REDUNDANCY');
  });
});
