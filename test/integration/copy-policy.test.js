'use strict';
// The copy policy on MinIO (docs/commands.md, "Copy policy"): the cheapest request that keeps the ETag.
// Single-part sources take one CopyObject whatever their size; multipart sources at or above
// --large-copy-threshold keep their part layout; those below take one CopyObject unless
// --keep-part-layout; compare then says what the default copy did to each.
const crypto = require('crypto');
const { HeadObjectCommand, ListMultipartUploadsCommand } = require('@aws-sdk/client-s3');
const s3blitz = require('../../src');
const { createBucket, putObjects, putMultipart, s3client, libOptions, runCli } = require('../helpers/s3env');

const MiB = 1024 * 1024;
const conn = libOptions;
const etagOf = async (bucket, key) => (await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ETag;
// The requests of a copy beyond its listing.
const copyRequests = (r) => { const { LIST, ...rest } = r.stats.requests; return rest; };
const copyOf = (src, dst, key, extra = {}) => s3blitz.copy({ source: `s3://${src}/${key}`, target: `s3://${dst}/${key}`, largeCopyThreshold: '8MiB', journal: false, ...conn(), ...extra });

let src;
const etags = {};
beforeAll(async () => {
  src = await createBucket();
  await putObjects(src, [{ key: 'single-11MiB.bin', body: crypto.randomBytes(11 * MiB) }, { key: 'tiny.txt', body: Buffer.from('tiny') }]);
  etags['multi-12MiB.bin'] = await putMultipart(src, 'multi-12MiB.bin', [crypto.randomBytes(5 * MiB), crypto.randomBytes(5 * MiB), crypto.randomBytes(2 * MiB)]);
  etags['multi-6MiB.bin'] = await putMultipart(src, 'multi-6MiB.bin', [crypto.randomBytes(5 * MiB), crypto.randomBytes(1 * MiB)]);
  etags['multi-1part.bin'] = await putMultipart(src, 'multi-1part.bin', [crypto.randomBytes(64 * 1024)]);
  etags['single-11MiB.bin'] = await etagOf(src, 'single-11MiB.bin');
}, 300000);

test('a single-part source above the threshold takes one CopyObject and keeps its MD5 ETag', async () => {
  const dst = await createBucket();
  const r = await copyOf(src, dst, 'single-11MiB.bin');
  expect(r.copied.objects).toBe(1);
  expect(copyRequests(r)).toEqual({ COPY: 1 });
  expect(etags['single-11MiB.bin']).not.toMatch(/-\d+"$/);
  expect(await etagOf(dst, 'single-11MiB.bin')).toBe(etags['single-11MiB.bin']);
});

test('a multipart source at or above the threshold keeps its part layout and its "-N" ETag', async () => {
  const dst = await createBucket();
  const r = await copyOf(src, dst, 'multi-12MiB.bin');
  expect(r.copied.objects).toBe(1);
  // HEAD partNumber=1, CreateMultipartUpload, three UploadPartCopy, CompleteMultipartUpload, a
  // HEAD of the copy for its stored checksum (MinIO keeps none on a multipart copy: counted
  // unconfirmed, and not asked again in the run); no tagging request for an untagged source.
  expect(copyRequests(r)).toEqual({ HEAD: 2, POST: 2, COPY: 3 });
  expect(r.stats).toMatchObject({ checksumsConfirmed: 0, checksumsUnconfirmed: 1 });
  expect(etags['multi-12MiB.bin']).toMatch(/-3"$/);
  expect(await etagOf(dst, 'multi-12MiB.bin')).toBe(etags['multi-12MiB.bin']);
  expect((await s3client().send(new ListMultipartUploadsCommand({ Bucket: dst }))).Uploads || []).toEqual([]);
});

test('a multipart source below the threshold takes one request; --keep-part-layout keeps its layout', async () => {
  for (const key of ['multi-6MiB.bin', 'multi-1part.bin']) {
    const plain = await createBucket();
    const r = await copyOf(src, plain, key);
    expect(copyRequests(r)).toEqual({ COPY: 1 });
    const got = await etagOf(plain, key);
    expect(got).not.toMatch(/-\d+"$/); // an MD5 now

    const kept = await createBucket();
    const k = await copyOf(src, kept, key, { keepPartLayout: true });
    expect(k.copied.objects).toBe(1);
    expect(await etagOf(kept, key)).toBe(etags[key]);
  }
  expect(etags['multi-1part.bin']).toMatch(/-1"$/);
});

test('compare after a default copy: single-part and layout-kept pairs are the same, re-laid ones unknown, and --checksum=download settles them', async () => {
  const dst = await createBucket();
  const res = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--large-copy-threshold', '8MiB', '--no-journal', '--json']);
  expect(res.code).toBe(0);
  const r = JSON.parse(res.stdout);
  expect(r.copied.objects).toBe(5);
  const cmp = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, show: ['same', 'unknown'], ...conn() });
  const byClass = {};
  for (const kind of ['same', 'unknown']) for await (const rec of cmp.keys(kind)) (byClass[kind] ||= []).push(rec.key);
  cmp.dispose();
  expect(cmp.identical).toBe(true);
  expect(byClass.same.sort()).toEqual(['multi-12MiB.bin', 'single-11MiB.bin', 'tiny.txt']);
  expect(byClass.unknown.sort()).toEqual(['multi-1part.bin', 'multi-6MiB.bin']);
  const checked = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, checksum: 'download', ...conn() });
  expect([checked.classes.same.objects, checked.classes.unknown.objects]).toEqual([5, 0]);
});
