'use strict';
// Smoke test of the integration harness itself: if this fails, every other
// integration result is meaningless.

const { spawnSync } = require('child_process');
const {
  CreateMultipartUploadCommand, ListMultipartUploadsCommand, AbortMultipartUploadCommand,
  HeadObjectCommand, PutObjectCommand,
} = require('@aws-sdk/client-s3');
const {
  s3client, createBucket, uniqueBucket, putObjects, sequentialList, decodeS3Key, testEnv, REPO_ROOT,
} = require('../helpers/s3env');
const { adversarialKeys, minioSafe, minioRejectReason, utf8len } = require('../helpers/keysets');

const byUtf8 = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

test('bucket names are valid and unique', () => {
  const names = [uniqueBucket(), uniqueBucket('Some_Long.Prefix'.repeat(10)), uniqueBucket('x')];
  for (const n of names) expect(n).toMatch(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/);
  expect(new Set(names).size).toBe(names.length);
});

test('adversarial keys round-trip through MinIO in UTF-8 byte order', async () => {
  const keys = minioSafe(adversarialKeys(60, 42));
  expect(keys.length).toBeGreaterThanOrEqual(45);
  // The generator really produces the hard cases (guards against regressions).
  expect(keys.some((k) => utf8len(k) === 1024)).toBe(true);
  expect(keys.some((k) => /[\u0001-\u001f]/.test(k))).toBe(true);
  expect(keys.some((k) => /[\u{10000}-\u{10FFFF}]/u.test(k))).toBe(true);
  expect(keys.some((k) => /[\uE000-\uFFFF]/.test(k))).toBe(true);

  const bucket = await createBucket(uniqueBucket('harness'));
  await putObjects(bucket, keys);
  const listed = await sequentialList(bucket);
  const names = listed.map((o) => o.Key);
  for (let i = 1; i < names.length; i++) expect(byUtf8(names[i - 1], names[i])).toBeLessThan(0);
  expect(names).toEqual([...keys].sort(byUtf8));
  // Default body is the key's bytes.
  const long = listed.find((o) => utf8len(o.Key) === 1024);
  expect(long.Size).toBe(1024);

  // startAfter/prefix are passed through.
  const mid = names[Math.floor(names.length / 2)];
  expect((await sequentialList(bucket, { startAfter: mid })).map((o) => o.Key))
    .toEqual(names.filter((k) => byUtf8(k, mid) > 0));
  expect((await sequentialList(bucket, { prefix: 'pre/' })).map((o) => o.Key))
    .toEqual(names.filter((k) => k.startsWith('pre/')));
});

test('keys filtered by minioSafe really are refused or mangled by MinIO', async () => {
  // If a MinIO upgrade changes these rules, this test says so.
  const client = s3client();
  const bucket = await createBucket(uniqueBucket('quirks'));
  const refused = adversarialKeys(60, 42).filter((k) => minioRejectReason(k) !== null)
    .concat(['y'.repeat(256), 'a/ .. /b', 'a\\.\\b']);
  expect(refused.length).toBeGreaterThanOrEqual(4);
  expect(refused.filter((k) => minioRejectReason(k) === null)).toEqual([]);
  for (const key of refused) {
    const ok = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x' }))
      .then(() => true, () => false);
    if (ok) { // accepted, but stored under another name (leading '/' is dropped)
      const listed = (await sequentialList(bucket)).map((o) => o.Key);
      expect({ key, listed: listed.includes(key) }).toEqual({ key, listed: false });
    }
  }
  // MinIO's on-disk names: "k" is stored as k/xl.meta, "k/" as k__XLDIR__.
  await putObjects(bucket, ['m/k', 'm/d/']);
  await expect(putObjects(bucket, ['m/k/xl.meta'])).rejects.toThrow();
  await putObjects(bucket, ['m/d__XLDIR__']); // same file on disk as "m/d/": aliased
  expect((await sequentialList(bucket, { prefix: 'm/' })).map((o) => o.Key)).toEqual(['m/d/', 'm/k']);
  // An object "a" hides "a/b" from listings although "a/b" exists; "a/" does not.
  await putObjects(bucket, ['h/a', 'h/a/b', 'h/d/', 'h/d/e']);
  await client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'h/a/b' }));
  expect((await sequentialList(bucket, { prefix: 'h/' })).map((o) => o.Key)).toEqual(['h/a', 'h/d/', 'h/d/e']);
  expect(minioSafe(['h/a', 'h/a/b', 'h/d/', 'h/d/e'])).toEqual(['h/a', 'h/d/', 'h/d/e']);
  // ListObjects query values get the same dot-segment check as keys (real S3
  // accepts them): listers must not send such prefix/start-after values.
  await expect(sequentialList(bucket, { startAfter: '.' })).rejects.toThrow(/bad components/);
  await expect(sequentialList(bucket, { prefix: 'h/..' })).rejects.toThrow(/bad components/);
  await expect(sequentialList(bucket, { startAfter: 'h/.a' })).resolves.toBeDefined();
});

test('ListMultipartUploads without prefix shows an orphan upload', async () => {
  const client = s3client();
  const bucket = await createBucket(uniqueBucket('mpu'));
  const key = 'orphan/\u0001 é😀\uFFFF';
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const list = async () => {
    const r = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, EncodingType: 'url' }));
    return (r.Uploads || []).map((u) => ({ key: decodeS3Key(u.Key), id: u.UploadId }));
  };
  expect(await list()).toEqual([{ key, id: UploadId }]);
  await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }));
  expect(await list()).toEqual([]);
});

test('testEnv() alone lets a child process reach MinIO (no path-style flag needed)', async () => {
  const bucket = await createBucket(uniqueBucket('env'));
  // What the CLI will see: only env vars, an empty ~/.aws, an IP endpoint.
  const script = `
    const { S3Client, ListBucketsCommand } = require('@aws-sdk/client-s3');
    new S3Client({}).send(new ListBucketsCommand({}))
      .then((r) => console.log(JSON.stringify(r.Buckets.map((b) => b.Name))))
      .catch((e) => { console.error(e); process.exit(1); });`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: REPO_ROOT, env: testEnv(), encoding: 'utf8', timeout: 60e3 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout)).toContain(bucket);
});
