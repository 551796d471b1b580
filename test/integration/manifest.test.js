'use strict';
// S3 Batch Operations manifests on a real MinIO: `s3blitz manifest` writes the CSV to a
// bucket and prints the ETag S3 gave it (checked against HeadObject), its rows are the
// source's listing, and `ls --format s3-batch-csv` prints the same rows.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { HeadObjectCommand, GetObjectCommand, PutBucketVersioningCommand, DeleteObjectCommand, ListObjectVersionsCommand } = require('@aws-sdk/client-s3');
const { createBucket, putObjects, sequentialList, runCli, s3client, decodeS3Key } = require('../helpers/s3env');
const { adversarialKeys, minioSafe } = require('../helpers/keysets');

// Keys that break naive CSV or URL encoding, and 1024-byte keys (MinIO takes at most 255
// bytes per segment, so they have four).
function awkwardKeys() {
  const keys = [
    'with space.txt', 'a+b.txt', 'plus+and space', '100%.csv', '%2F', 'a%20b', 'comma,separated,key', 'say "hello"',
    '"quoted"', "it's", 'semi;colon', 'tab\there', 'new\nline', '(parens)[brackets]', '!*~._-', 'hash#q?amp&eq=',
    'é/日本語/한국어.txt', 'emoji😀/🎉.bin', 'NFC é vs NFD e\u0301', 'folder/', 'folder/inside', 'pre', 'pre-x', 'pre0',
  ];
  const seg = '漢'.repeat(85); // 255 bytes
  // 'long/' + three segments and their slashes is 773 bytes: the last segment takes 251.
  for (let i = 0; i < 30; i++) keys.push(`long/${seg}/${seg}/${seg}/${String(i).padStart(3, '0')}${'z'.repeat(248)}`);
  return keys;
}

const utf8 = (s) => Buffer.byteLength(s, 'utf8');
const formDecode = (f) => decodeURIComponent(f.replace(/\+/g, ' '));
const rowsOf = (text) => text.split('\n').filter(Boolean).map((line) => line.split(','));

async function getText(bucket, key) {
  const r = await s3client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await r.Body.transformToByteArray());
}

async function headETag(bucket, key) {
  const h = await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  return h.ETag.replace(/^"|"$/g, '');
}

let src, out, truth;

beforeAll(async () => {
  src = await createBucket('manifest-src');
  out = await createBucket('manifest-out');
  const keys = minioSafe([...awkwardKeys(), ...adversarialKeys(1500, 19)]);
  // Keys of 1024 bytes, checked: the padding above lands each on exactly 1024.
  expect(keys.filter((k) => utf8(k) === 1024).length).toBeGreaterThanOrEqual(30);
  await putObjects(src, keys, { concurrency: 32 });
  truth = (await sequentialList(src)).map((o) => o.Key);
}, 300000);

test('the seeded bucket holds the awkward keys', () => {
  for (const k of ['with space.txt', 'a+b.txt', '100%.csv', 'comma,separated,key', 'say "hello"', 'é/日本語/한국어.txt', 'emoji😀/🎉.bin']) expect(truth).toContain(k);
  expect(truth.filter((k) => utf8(k) === 1024 && k.startsWith('long/')).length).toBe(30);
});

test('manifest to s3:// prints the ETag HeadObject gives, and its rows are the listing', async () => {
  const r = await runCli(['manifest', `s3://${src}`, '--output', `s3://${out}/manifests/all.csv`, '--json', '--quiet']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const res = JSON.parse(r.stdout);
  expect(res.etagSource).toBe('s3');
  expect(res.etag).toBe(await headETag(out, 'manifests/all.csv'));
  expect(res.objects).toBe(truth.length);
  expect(res.location).toEqual({ ObjectArn: `arn:aws:s3:::${out}/manifests/all.csv`, ETag: res.etag });
  expect(res.spec).toEqual({ Format: 'S3BatchOperations_CSV_20180820', Fields: ['Bucket', 'Key'] });
  const body = await getText(out, 'manifests/all.csv');
  expect(res.bytes).toBe(body.length);
  const rows = rowsOf(body.toString('utf8'));
  expect(rows.every((row) => row.length === 2 && row[0] === src)).toBe(true);
  expect(rows.map((row) => formDecode(row[1]))).toEqual(truth);
  expect(body.toString('utf8')).toMatch(/^[A-Za-z0-9\-_.~/%,\n]*$/);
  // ls --format s3-batch-csv prints the same bytes.
  const ls = await runCli(['ls', `s3://${src}`, '--format', 's3-batch-csv', '--quiet']);
  expect(ls.code).toBe(0);
  expect(Buffer.from(ls.stdout, 'utf8').equals(body)).toBe(true);
});

test('shards: ls --format s3-batch-csv --shard I/3 and manifest --shard I/3 give the whole manifest between them', async () => {
  const whole = (await runCli(['ls', `s3://${src}`, '--format', 's3-batch-csv', '--quiet'])).stdout;
  let fromLs = '', fromManifest = '';
  for (let i = 0; i < 3; i++) {
    const part = await runCli(['ls', `s3://${src}`, '--format', 's3-batch-csv', '--shard', `${i}/3`, '--quiet']);
    expect(part.code).toBe(0);
    expect(part.stdout.length).toBeGreaterThan(0);
    fromLs += part.stdout;
    const m = await runCli(['manifest', `s3://${src}`, '--shard', `${i}/3`, '--output', `s3://${out}/parts/part-%i.csv`, '--json', '--quiet']);
    expect(m.code).toBe(0);
    const res = JSON.parse(m.stdout);
    expect(res.output).toBe(`s3://${out}/parts/part-${i}.csv`);
    expect(res.etag).toBe(await headETag(out, `parts/part-${i}.csv`));
    fromManifest += (await getText(out, `parts/part-${i}.csv`)).toString('utf8');
  }
  expect(fromLs).toBe(whole);
  expect(fromManifest).toBe(whole);
});

test('a manifest longer than a part goes up in parts: the printed ETag is the multipart one S3 gave', async () => {
  // 1024-byte keys of mostly CJK encode to about 2.6 KB a row: 2200 of them make a
  // manifest past 5 MiB, the smallest part S3 and MinIO take.
  const seg = '漢'.repeat(85);
  const many = [];
  for (let i = 0; i < 2200; i++) many.push(`big/${seg}/${seg}/${seg}/${String(i).padStart(5, '0')}${'z'.repeat(247)}`);
  expect(many.every((k) => utf8(k) === 1024)).toBe(true);
  const bigSrc = await createBucket('manifest-big');
  await putObjects(bigSrc, many, { concurrency: 32 });
  const r = await runCli(['manifest', `s3://${bigSrc}/big/`, '--output', `s3://${out}/manifests/big.csv`, '--part-size', '5MiB']);
  expect(r.code).toBe(0);
  const etag = await headETag(out, 'manifests/big.csv');
  expect(etag).toMatch(/-2$/);
  expect(r.stdout).toContain(`ETag: ${etag} (as S3 answered the upload)`);
  expect(r.stdout).toContain(`"ETag":"${etag}"`);
  const body = await getText(out, 'manifests/big.csv');
  expect(body.length).toBeGreaterThan(5 * 1024 * 1024);
  expect(rowsOf(body.toString('utf8')).map((row) => formDecode(row[1]))).toEqual([...many].sort());
}, 300000);

test('a filtered, range-limited manifest to a local file: rows as ls selects them, the MD5 as ETag', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-manifest-'));
  try {
    const file = path.join(dir, 'sel.csv');
    const sel = ['--start-after', truth[10], '--stop-at', truth[truth.length - 10], '--filter', 'js:({Key}) => /[ +%,"]/.test(Key) || Key.length % 2 === 0'];
    const r = await runCli(['manifest', `s3://${src}`, '--output', file, ...sel]);
    expect(r.code).toBe(0);
    const body = fs.readFileSync(file);
    const md5 = crypto.createHash('md5').update(body).digest('hex');
    expect(r.stdout).toContain(`ETag: ${md5} (the file's MD5`);
    const ls = await runCli(['ls', `s3://${src}`, '--json', ...sel]);
    const want = ls.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).Key);
    expect(want.length).toBeGreaterThan(100);
    expect(want.length).toBeLessThan(truth.length);
    expect(rowsOf(body.toString('utf8')).map((row) => formDecode(row[1]))).toEqual(want);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Every version and delete marker, as MinIO lists them (the truth for --all-versions).
async function allVersions(bucket) {
  const versions = [], markers = [];
  let KeyMarker, VersionIdMarker;
  for (;;) {
    const r = await s3client().send(new ListObjectVersionsCommand({ Bucket: bucket, KeyMarker, VersionIdMarker, EncodingType: 'url', MaxKeys: 100 }));
    for (const v of r.Versions || []) versions.push({ key: decodeS3Key(v.Key), id: v.VersionId, latest: v.IsLatest });
    for (const d of r.DeleteMarkers || []) markers.push({ key: decodeS3Key(d.Key), id: d.VersionId });
    if (!r.IsTruncated) break;
    KeyMarker = decodeS3Key(r.NextKeyMarker);
    VersionIdMarker = r.NextVersionIdMarker;
  }
  return { versions, markers };
}

test('--all-versions: a row per version with its id (a third column), delete markers left out', async () => {
  const ver = await createBucket('manifest-ver');
  await s3client().send(new PutBucketVersioningCommand({ Bucket: ver, VersioningConfiguration: { Status: 'Enabled' } }));
  // Past 1,000 versions: the walk goes on from a page's last key and version.
  const keys = minioSafe(awkwardKeys().slice(0, 24).concat(Array.from({ length: 700 }, (_, i) => `v/${String(i).padStart(3, '0')}`)));
  for (let round = 0; round < 3; round++) {
    // Keys get 1, 2 or 3 versions; every seventh is deleted at the end (a delete marker on top).
    await putObjects(ver, keys.filter((k, i) => i % 3 >= round).map((key) => ({ key, body: `${key}#${round}` })));
  }
  for (const key of keys.filter((k, i) => i % 7 === 0)) await s3client().send(new DeleteObjectCommand({ Bucket: ver, Key: key }));
  const truth = await allVersions(ver);
  expect(truth.versions.length).toBeGreaterThan(1000);
  expect(truth.markers.length).toBe(keys.filter((k, i) => i % 7 === 0).length);

  const r = await runCli(['manifest', `s3://${ver}`, '--all-versions', '--output', `s3://${out}/manifests/versions.csv`, '--json', '--quiet']);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  const res = JSON.parse(r.stdout);
  expect(res.spec.Fields).toEqual(['Bucket', 'Key', 'VersionId']);
  expect(res.deleteMarkers).toBe(truth.markers.length);
  expect(res.etag).toBe(await headETag(out, 'manifests/versions.csv'));
  const body = await getText(out, 'manifests/versions.csv');
  const rows = rowsOf(body.toString('utf8'));
  expect(rows.every((row) => row.length === 3 && row[0] === ver)).toBe(true);
  expect(rows.map((row) => [formDecode(row[1]), formDecode(row[2])])).toEqual(truth.versions.map((v) => [v.key, v.id]));
  const ls = await runCli(['ls', `s3://${ver}`, '--format', 's3-batch-csv', '--all-versions', '--quiet']);
  expect(Buffer.from(ls.stdout, 'utf8').equals(body)).toBe(true);

  // A range that starts after a key with several versions, and only the noncurrent versions.
  const after = 'v/100', stop = 'v/300';
  const sel = await runCli(['ls', `s3://${ver}`, '--format', 's3-batch-csv', '--all-versions', '--start-after', after, '--stop-at', stop, '--filter', 'js:({IsLatest}) => !IsLatest']);
  expect(sel.code).toBe(0);
  const want = truth.versions.filter((v) => v.key > after && v.key <= stop && !v.latest).map((v) => v.id);
  expect(want.length).toBeGreaterThan(50);
  expect(rowsOf(sel.stdout).map((row) => formDecode(row[2]))).toEqual(want);
  // Plain --all-versions output lists the delete markers the manifest leaves out.
  const plain = await runCli(['ls', `s3://${ver}`, '--all-versions', '--json', '--quiet']);
  expect(plain.code).toBe(0);
  const listed = plain.stdout.trim().split('\n').map((l) => JSON.parse(l));
  expect(listed.length).toBe(truth.versions.length + truth.markers.length);
  expect(listed.filter((o) => o.DeleteMarker).length).toBe(truth.markers.length);
}, 300000);

test('bad input: one line, the usage or fatal exit code', async () => {
  const noOut = await runCli(['manifest', `s3://${src}`]);
  expect(noOut.code).toBe(2);
  expect(noOut.stderr).toMatch(/^s3blitz: manifest needs --output/);
  const folder = await runCli(['ls', os.tmpdir(), '--format', 's3-batch-csv']);
  expect(folder.code).toBe(2);
  expect(folder.stderr).toMatch(/needs an s3:\/\/ source/);
  const both = await runCli(['ls', `s3://${src}`, '--format', 's3-batch-csv', '--json']);
  expect(both.code).toBe(2);
  const missing = await runCli(['manifest', `s3://${src}`, '--output', 's3://no-such-bucket-s3blitz-x/m.csv']);
  expect(missing.code).toBe(3);
  expect(missing.stderr.trim().split('\n')).toHaveLength(1);
});
