'use strict';
// The four transfer functions against a real MinIO: bytes identical (sha256), headers,
// metadata and tags carried, no temporary file or multipart upload left behind when
// something fails, and adversarial keys (spaces, + % ? # &, emoji, CJK) everywhere.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const {
  PutObjectCommand, HeadObjectCommand, GetObjectCommand, GetObjectTaggingCommand, ListMultipartUploadsCommand,
} = require('@aws-sdk/client-s3');
const { createBucket, s3client, connection } = require('../helpers/s3env');
const { filesUnder } = require('../helpers/local-tree');
const { S3Store } = require('../../src/stores/s3-store');
const { LocalStore } = require('../../src/stores/local-store');
const { RequestStats } = require('../../src/stats');
const { normalizeWriteOptions } = require('../../src/transfer/write-options');
const { ObjectError, classifyError } = require('../../src/transfer/outcome');
const { TEMP_PREFIX } = require('../../src/stores/local-paths');
const { download } = require('../../src/transfer/download');
const { upload } = require('../../src/transfer/upload');
const { streamCopy } = require('../../src/transfer/stream-copy');
const { localCopy } = require('../../src/transfer/local-copy');
const { streamChecksum } = require('../../src/stores/content-checksum');

const MiB = 1024 * 1024;
const SPECIAL_KEY = 'odd dir/a+b %20c?d=1#frag&x=y ~!$\'()*,;@[] 😀🚀 中文 テスト 한국어.txt';
const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const md5hex = (buf) => crypto.createHash('md5').update(buf).digest('hex');

const stores = [];
function s3store(bucket) {
  const c = connection();
  const s = new S3Store({
    bucket, endpointUrl: c.endpoint, region: 'us-east-1',
    credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
  });
  stores.push(s);
  return s;
}

function job(over) {
  return {
    w: normalizeWriteOptions({}),
    partSize: 5 * MiB,
    partConcurrency: 3,
    largeCopyThreshold: 5 * MiB,
    stats: new RequestStats(),
    ...over,
  };
}

// The item as a listing would report it.
async function s3item(bucket, key) {
  const h = await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  return { Key: key, Size: h.ContentLength, LastModified: h.LastModified, ETag: h.ETag, StorageClass: 'STANDARD' };
}

async function localItem(root, key) {
  const st = await fs.promises.stat(path.join(root, ...key.split('/')));
  return { Key: key, Size: st.size, LastModified: st.mtime, ETag: null, StorageClass: null };
}

async function getObject(bucket, key) {
  const out = await s3client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return { ...out, body: Buffer.from(await out.Body.transformToByteArray()) };
}

async function tagsOf(bucket, key) {
  const out = await s3client().send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
  return Object.fromEntries(out.TagSet.map((t) => [t.Key, t.Value]));
}

async function pendingUploads(bucket) {
  // No Prefix: MinIO's prefix filter only matches whole keys.
  const out = await s3client().send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return out.Uploads || [];
}

const walk = filesUnder;
const tempFiles = (dir) => walk(dir).filter((f) => path.basename(f).startsWith(TEMP_PREFIX));

// A RequestStats that aborts `ac` once `limit` bytes have been counted.
function abortingStats(ac, limit) {
  const stats = new RequestStats();
  let bytes = 0;
  Object.defineProperty(stats, 'bytes', {
    get: () => bytes,
    set: (v) => { bytes = v; if (v >= limit) ac.abort(new Error('injected failure')); },
  });
  return stats;
}

async function rejection(promise) {
  try { await promise; } catch (err) { return err; }
  throw new Error('expected a rejection');
}

let srcBucket, dstBucket, tmp;
const small = crypto.randomBytes(100 * 1024 + 7);
const large = crypto.randomBytes(12 * MiB + 12345);

beforeAll(async () => {
  [srcBucket, dstBucket] = await Promise.all([createBucket(), createBucket()]);
  tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 's3blitz-transfers-'));
  const put = (Key, Body, extra) => s3client().send(new PutObjectCommand({ Bucket: srcBucket, Key, Body, ...extra }));
  const headers = {
    ContentType: 'text/csv', CacheControl: 'max-age=60', ContentDisposition: 'attachment; filename="x.csv"',
    ContentLanguage: 'fr', Metadata: { owner: 'data-team', note: 'kept' },
    Tagging: 'k%201=v%2B1&p=a%2Fb%3Dc%3A%40',
  };
  await Promise.all([
    put('small.bin', small),
    put('deep/large.bin', large),
    put(SPECIAL_KEY, small),
    put('meta/small.csv', small, headers),
    put('meta/large.csv', large, headers),
    put('empty', Buffer.alloc(0)),
  ]);
});

afterAll(async () => {
  for (const s of stores) s.destroy();
  if (tmp) await fs.promises.rm(tmp, { recursive: true, force: true });
});

describe('download', () => {
  test('a small object: one GET, identical bytes, mtime from LastModified, no temp file', async () => {
    const dir = path.join(tmp, 'dl-small');
    const item = await s3item(srcBucket, 'small.bin');
    const j = job({ item, src: s3store(srcBucket), dst: new LocalStore({ root: dir }), key: 'a/b/small.bin' });
    // Stored without a checksum: nothing to check the bytes against (checked: false).
    await expect(download(j)).resolves.toEqual({ status: 'copied', bytes: small.length, checked: false });
    const file = path.join(dir, 'a', 'b', 'small.bin');
    expect(sha256(fs.readFileSync(file))).toBe(sha256(small));
    expect(fs.statSync(file).mtimeMs).toBe(item.LastModified.getTime());
    expect(j.stats.requests).toEqual({ GET: 1 });
    expect(j.stats.bytes).toBe(small.length);
    expect(walk(dir)).toEqual(['a/b/small.bin']);
  });

  test('a large object: parallel ranged GETs written at their offsets', async () => {
    const dir = path.join(tmp, 'dl-large');
    const item = await s3item(srcBucket, 'deep/large.bin');
    const j = job({ item, src: s3store(srcBucket), dst: new LocalStore({ root: dir }), key: item.Key });
    await expect(download(j)).resolves.toEqual({ status: 'copied', bytes: large.length, checked: false });
    const file = path.join(dir, 'deep', 'large.bin');
    expect(sha256(fs.readFileSync(file))).toBe(sha256(large));
    expect(fs.statSync(file).mtimeMs).toBe(item.LastModified.getTime());
    // The stored checksum to check the ranges against (a HEAD), then 5 + 5 + 2.x MiB.
    expect(j.stats.requests).toEqual({ HEAD: 1, GET: 3 });
    expect(walk(dir)).toEqual(['deep/large.bin']);
  });

  test('an empty object, and an existing file replaced whole', async () => {
    const dir = path.join(tmp, 'dl-replace');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'empty'), 'old content');
    fs.writeFileSync(path.join(dir, 'small.bin'), 'old content');
    const src = s3store(srcBucket);
    const dst = new LocalStore({ root: dir });
    for (const key of ['empty', 'small.bin']) {
      await download(job({ item: await s3item(srcBucket, key), src, dst, key }));
    }
    expect(fs.statSync(path.join(dir, 'empty')).size).toBe(0);
    expect(sha256(fs.readFileSync(path.join(dir, 'small.bin')))).toBe(sha256(small));
    expect(walk(dir).sort()).toEqual(['empty', 'small.bin']);
  });

  test('a wrong ETag fails as "changed" (If-Match), small or ranged, leaving nothing', async () => {
    const dir = path.join(tmp, 'dl-changed');
    const src = s3store(srcBucket);
    for (const key of ['small.bin', 'deep/large.bin']) {
      const item = { ...(await s3item(srcBucket, key)), ETag: '"0123456789abcdef0123456789abcdef"' };
      const err = await rejection(download(job({ item, src, dst: new LocalStore({ root: dir }), key })));
      expect(classifyError(err).status).toBe('changed');
    }
    expect(walk(dir)).toEqual([]);
  });

  test('a failure half way through a ranged download removes the temp file', async () => {
    const dir = path.join(tmp, 'dl-abort');
    const ac = new AbortController();
    const item = await s3item(srcBucket, 'deep/large.bin');
    const j = job({ item, src: s3store(srcBucket), dst: new LocalStore({ root: dir }), key: 'x/large.bin',
      signal: ac.signal, stats: abortingStats(ac, MiB), partConcurrency: 2 });
    const err = await rejection(download(j));
    expect(classifyError(err).status).toBe('failed');
    expect(walk(dir)).toEqual([]);
  });

  test('unsafe target keys are refused before any request; folder markers skipped', async () => {
    const dir = path.join(tmp, 'dl-unsafe');
    const item = await s3item(srcBucket, 'small.bin');
    for (const [key, status] of [['a/../../escape', 'failed'], ['/abs', 'failed'], ['a//b', 'failed'], ['folder/', 'skipped']]) {
      const j = job({ item, src: s3store(srcBucket), dst: new LocalStore({ root: dir }), key });
      const err = await rejection(download(j));
      expect(err).toBeInstanceOf(ObjectError);
      expect(err.status).toBe(status);
      expect(j.stats.requests).toEqual({});
    }
    expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(path.join(tmp, '..', 'escape'))).toBe(false);
  });
});

describe('upload', () => {
  let root;
  beforeAll(() => {
    root = path.join(tmp, 'up-src');
    fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(root, 'docs', 'report.json'), small);
    fs.writeFileSync(path.join(root, 'video.MP4'), large.subarray(0, 11 * MiB));
    fs.writeFileSync(path.join(root, 'noext'), small);
  });

  test('a small file: one PutObject, ETag = MD5, type guessed, metadata and tags applied', async () => {
    const w = normalizeWriteOptions({ metadata: { owner: 'me' }, tagging: { team: 'data eng', 'a+b': 'x=y' }, cacheControl: 'no-cache' });
    const j = job({ item: await localItem(root, 'docs/report.json'), src: new LocalStore({ root }), dst: s3store(dstBucket), key: 'up/report.json', w });
    await expect(upload(j)).resolves.toEqual({ status: 'copied', bytes: small.length });
    const got = await getObject(dstBucket, 'up/report.json');
    expect(got.ETag).toBe(`"${md5hex(small)}"`);
    expect(sha256(got.body)).toBe(sha256(small));
    expect(got.ContentType).toBe('application/json');
    expect(got.CacheControl).toBe('no-cache');
    expect(got.Metadata).toEqual({ owner: 'me' });
    expect(await tagsOf(dstBucket, 'up/report.json')).toEqual({ team: 'data eng', 'a+b': 'x=y' });
    expect(j.stats.requests).toEqual({ PUT: 1 });
  });

  test('a large file: multipart in MD5-checked parts, journal hook called', async () => {
    const uploads = [];
    const w = normalizeWriteOptions({ metadata: { kind: 'video' }, tagging: 'k=v' });
    const j = job({ item: await localItem(root, 'video.MP4'), src: new LocalStore({ root }), dst: s3store(dstBucket), key: 'up/video.mp4', w, onUpload: (key, id) => uploads.push(id) });
    await expect(upload(j)).resolves.toEqual({ status: 'copied', bytes: 11 * MiB });
    const got = await getObject(dstBucket, 'up/video.mp4');
    expect(sha256(got.body)).toBe(sha256(large.subarray(0, 11 * MiB)));
    expect(got.ETag).toMatch(/-3"$/);
    expect(got.ContentType).toBe('video/mp4');
    expect(got.Metadata).toEqual({ kind: 'video' });
    expect(await tagsOf(dstBucket, 'up/video.mp4')).toEqual({ k: 'v' });
    expect(uploads).toHaveLength(1);
    expect(j.stats.requests).toEqual({ POST: 2, PUT: 3 });
    expect(j.stats.bytes).toBe(11 * MiB);
  });

  test('unknown extensions are octet-stream; --content-type wins over the guess', async () => {
    const dst = s3store(dstBucket);
    const src = new LocalStore({ root });
    await upload(job({ item: await localItem(root, 'noext'), src, dst, key: 'up/noext' }));
    expect((await getObject(dstBucket, 'up/noext')).ContentType).toBe('application/octet-stream');
    const w = normalizeWriteOptions({ contentType: 'text/x-custom' });
    await upload(job({ item: await localItem(root, 'docs/report.json'), src, dst, key: 'up/typed.json', w }));
    expect((await getObject(dstBucket, 'up/typed.json')).ContentType).toBe('text/x-custom');
  });

  test('a failure after the first part aborts the multipart upload', async () => {
    const bucket = await createBucket();
    const ac = new AbortController();
    const uploads = [];
    const j = job({ item: await localItem(root, 'video.MP4'), src: new LocalStore({ root }), dst: s3store(bucket), key: 'fail/video.mp4',
      partConcurrency: 1, signal: ac.signal, stats: abortingStats(ac, 1), onUpload: (key, id) => uploads.push(id) });
    const err = await rejection(upload(j));
    expect(classifyError(err).status).toBe('failed');
    expect(uploads).toHaveLength(1);
    expect(j.stats.requests).toEqual({ POST: 1, PUT: 1, DELETE: 1 });
    expect(await pendingUploads(bucket)).toEqual([]);
    await expect(s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: 'fail/video.mp4' }))).rejects.toMatchObject({ name: 'NotFound' });
  });

  test('a file that grows while it is uploaded fails as "changed", upload aborted', async () => {
    const bucket = await createBucket();
    const dir = path.join(tmp, 'up-grow');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'growing.bin');
    fs.writeFileSync(file, large.subarray(0, 6 * MiB));
    const j = job({ item: await localItem(dir, 'growing.bin'), src: new LocalStore({ root: dir }), dst: s3store(bucket), key: 'growing.bin',
      onUpload: () => fs.appendFileSync(file, 'more') });
    const err = await rejection(upload(j));
    expect(err).toBeInstanceOf(ObjectError);
    expect(err.status).toBe('changed');
    expect(await pendingUploads(bucket)).toEqual([]);
  });

  test('a file deleted since it was listed is "vanished"', async () => {
    const item = { Key: 'gone.txt', Size: 3, LastModified: new Date(), ETag: null, StorageClass: null };
    const err = await rejection(upload(job({ item, src: new LocalStore({ root }), dst: s3store(dstBucket), key: 'gone.txt' })));
    expect(err).toBeInstanceOf(ObjectError);
    expect(err.status).toBe('vanished');
  });
});

describe('streamCopy', () => {
  const carried = (got) => ({
    ContentType: got.ContentType, CacheControl: got.CacheControl, ContentDisposition: got.ContentDisposition,
    ContentLanguage: got.ContentLanguage, Metadata: got.Metadata,
  });
  const sourceHeaders = {
    ContentType: 'text/csv', CacheControl: 'max-age=60', ContentDisposition: 'attachment; filename="x.csv"',
    ContentLanguage: 'fr', Metadata: { owner: 'data-team', note: 'kept' },
  };

  test('a small object: GET streamed into PUT, headers, metadata and tags carried', async () => {
    const j = job({ item: await s3item(srcBucket, 'meta/small.csv'), src: s3store(srcBucket), dst: s3store(dstBucket), key: 'sc/small.csv' });
    await expect(streamCopy(j)).resolves.toEqual({ status: 'copied', bytes: small.length });
    const got = await getObject(dstBucket, 'sc/small.csv');
    expect(sha256(got.body)).toBe(sha256(small));
    expect(got.ETag).toBe(`"${md5hex(small)}"`);
    expect(carried(got)).toEqual(sourceHeaders);
    expect(await tagsOf(dstBucket, 'sc/small.csv')).toEqual({ 'k 1': 'v+1', p: 'a/b=c:@' });
    expect(j.stats.requests).toEqual({ GET: 2, PUT: 1 }); // object + tagging
  });

  test('a large object: multipart from ranged GETs, headers, metadata and tags carried', async () => {
    const j = job({ item: await s3item(srcBucket, 'meta/large.csv'), src: s3store(srcBucket), dst: s3store(dstBucket), key: 'sc/large.csv' });
    await expect(streamCopy(j)).resolves.toEqual({ status: 'copied', bytes: large.length });
    const got = await getObject(dstBucket, 'sc/large.csv');
    expect(sha256(got.body)).toBe(sha256(large));
    expect(got.ETag).toMatch(/-3"$/);
    expect(carried(got)).toEqual(sourceHeaders);
    expect(await tagsOf(dstBucket, 'sc/large.csv')).toEqual({ 'k 1': 'v+1', p: 'a/b=c:@' });
    expect(j.stats.requests).toEqual({ GET: 4, POST: 2, PUT: 3 });
    expect(j.stats.bytes).toBe(large.length);
  });

  test('checksums: a small copy carries its source\'s stored checksum, a large one its parts\' CRC64NVME; both confirmed', async () => {
    const body = crypto.randomBytes(3000);
    await s3client().send(new PutObjectCommand({ Bucket: srcBucket, Key: 'ck/small.bin', Body: body, ChecksumAlgorithm: 'CRC32C' }));
    const src = await s3client().send(new HeadObjectCommand({ Bucket: srcBucket, Key: 'ck/small.bin', ChecksumMode: 'ENABLED' }));
    expect(src.ChecksumCRC32C).toBe(await streamChecksum([body], 'CRC32C'));
    const stats = new RequestStats();
    await streamCopy(job({ item: await s3item(srcBucket, 'ck/small.bin'), src: s3store(srcBucket), dst: s3store(dstBucket), key: 'ck/small.bin', stats }));
    await streamCopy(job({ item: await s3item(srcBucket, 'meta/large.csv'), src: s3store(srcBucket), dst: s3store(dstBucket), key: 'ck/large.csv', stats }));
    expect(stats.toJSON()).toMatchObject({ checksumsConfirmed: 2, checksumsUnconfirmed: 0 });
    const head = (Key) => s3client().send(new HeadObjectCommand({ Bucket: dstBucket, Key, ChecksumMode: 'ENABLED' }));
    expect((await head('ck/small.bin')).ChecksumCRC32C).toBe(src.ChecksumCRC32C);
    expect((await head('ck/large.csv')).ChecksumCRC64NVME).toBe(await streamChecksum([large], 'CRC64NVME'));
    // --checksum-algorithm none: no checksum header at all, the source's neither.
    const none = new RequestStats();
    await streamCopy(job({ item: await s3item(srcBucket, 'ck/small.bin'), src: s3store(srcBucket), dst: s3store(dstBucket), key: 'ck/none.bin', stats: none, w: normalizeWriteOptions({ checksumAlgorithm: 'none' }) }));
    expect(none.toJSON().checksumsConfirmed).toBeUndefined();
    expect((await head('ck/none.bin')).ChecksumCRC32C).toBeUndefined();
  });

  test('write options override and merge with what the source had', async () => {
    const w = normalizeWriteOptions({ contentType: 'application/x-new', metadata: { owner: 'me' }, tagging: 'only=this' });
    for (const key of ['meta/small.csv', 'meta/large.csv']) {
      const j = job({ item: await s3item(srcBucket, key), src: s3store(srcBucket), dst: s3store(dstBucket), key: `sc/w/${key}`, w });
      await streamCopy(j);
      const got = await getObject(dstBucket, `sc/w/${key}`);
      expect(carried(got)).toEqual({ ...sourceHeaders, ContentType: 'application/x-new', Metadata: { owner: 'me', note: 'kept' } });
      expect(await tagsOf(dstBucket, `sc/w/${key}`)).toEqual({ only: 'this' });
      expect(j.stats.requests.GET).toBe(key.includes('large') ? 3 : 1); // no GetObjectTagging
    }
  });

  test('an untagged object costs no tagging request; empty objects copy', async () => {
    for (const key of ['small.bin', 'empty']) {
      const j = job({ item: await s3item(srcBucket, key), src: s3store(srcBucket), dst: s3store(dstBucket), key: `sc/${key}` });
      await streamCopy(j);
      expect(j.stats.requests).toEqual({ GET: 1, PUT: 1 });
      expect(sha256((await getObject(dstBucket, `sc/${key}`)).body)).toBe(sha256(key === 'empty' ? Buffer.alloc(0) : small));
    }
  });

  test('a wrong ETag fails as "changed", small or large, and leaves no upload', async () => {
    const bucket = await createBucket();
    for (const key of ['meta/small.csv', 'meta/large.csv']) {
      const item = { ...(await s3item(srcBucket, key)), ETag: '"0123456789abcdef0123456789abcdef"' };
      const err = await rejection(streamCopy(job({ item, src: s3store(srcBucket), dst: s3store(bucket), key })));
      expect(classifyError(err).status).toBe('changed');
    }
    expect(await pendingUploads(bucket)).toEqual([]);
    expect((await s3store(bucket).listPage({})).items).toEqual([]);
  });

  test('a failure after the first part aborts the multipart upload', async () => {
    const bucket = await createBucket();
    const ac = new AbortController();
    const j = job({ item: await s3item(srcBucket, 'deep/large.bin'), src: s3store(srcBucket), dst: s3store(bucket), key: 'large.bin',
      partConcurrency: 1, signal: ac.signal, stats: abortingStats(ac, 1) });
    await rejection(streamCopy(j));
    expect(j.stats.requests.DELETE).toBe(1);
    expect(await pendingUploads(bucket)).toEqual([]);
    expect((await s3store(bucket).listPage({})).items).toEqual([]);
  });
});

describe('localCopy', () => {
  test('copies with the mtime kept, through a temp file', async () => {
    const from = path.join(tmp, 'lc-src');
    const to = path.join(tmp, 'lc-dst');
    fs.mkdirSync(path.join(from, 'x'), { recursive: true });
    fs.writeFileSync(path.join(from, 'x', 'f.bin'), large.subarray(0, 3 * MiB));
    const mtime = new Date('2020-02-02T02:02:02.123Z');
    fs.utimesSync(path.join(from, 'x', 'f.bin'), mtime, mtime);
    const j = job({ item: await localItem(from, 'x/f.bin'), src: new LocalStore({ root: from }), dst: new LocalStore({ root: to }), key: 'y/z/f.bin' });
    await expect(localCopy(j)).resolves.toEqual({ status: 'copied', bytes: 3 * MiB });
    const copied = path.join(to, 'y', 'z', 'f.bin');
    expect(sha256(fs.readFileSync(copied))).toBe(sha256(large.subarray(0, 3 * MiB)));
    // utimes takes float seconds: sub-millisecond digits do not survive, on either file.
    expect(Math.abs(fs.statSync(copied).mtimeMs - mtime.getTime())).toBeLessThan(1);
    expect(walk(to)).toEqual(['y/z/f.bin']);
  });

  test('a source deleted since it was listed is "vanished"', async () => {
    const item = { Key: 'nope', Size: 1, LastModified: new Date(), ETag: null, StorageClass: null };
    const err = await rejection(localCopy(job({ item, src: new LocalStore({ root: tmp }), dst: new LocalStore({ root: path.join(tmp, 'lc-none') }), key: 'nope' })));
    expect(err.status).toBe('vanished');
  });
});

test('a key full of special characters survives every transfer', async () => {
  const local = path.join(tmp, 'special');
  const back = path.join(tmp, 'special-back');
  const src = s3store(srcBucket);
  const dst = s3store(dstBucket);
  // S3 -> local -> S3 -> S3 -> local -> local, all under the same key.
  await download(job({ item: await s3item(srcBucket, SPECIAL_KEY), src, dst: new LocalStore({ root: local }), key: SPECIAL_KEY }));
  await upload(job({ item: await localItem(local, SPECIAL_KEY), src: new LocalStore({ root: local }), dst, key: SPECIAL_KEY }));
  await streamCopy(job({ item: await s3item(dstBucket, SPECIAL_KEY), src: dst, dst, key: `copy/${SPECIAL_KEY}` }));
  await download(job({ item: await s3item(dstBucket, `copy/${SPECIAL_KEY}`), src: dst, dst: new LocalStore({ root: back }), key: SPECIAL_KEY }));
  await localCopy(job({ item: await localItem(back, SPECIAL_KEY), src: new LocalStore({ root: back }), dst: new LocalStore({ root: back }), key: `again/${SPECIAL_KEY}` }));
  expect((await getObject(dstBucket, `copy/${SPECIAL_KEY}`)).ContentType).toBe('text/plain'); // guessed at upload, carried by the copy
  for (const f of [path.join(local, ...SPECIAL_KEY.split('/')), path.join(back, ...SPECIAL_KEY.split('/')), path.join(back, 'again', ...SPECIAL_KEY.split('/'))]) {
    expect(sha256(fs.readFileSync(f))).toBe(sha256(small));
  }
  expect(walk(back).sort()).toEqual([`again/${SPECIAL_KEY}`, SPECIAL_KEY].sort());
  expect(tempFiles(local)).toEqual([]);
});
