'use strict';
// Metadata and tags of every object on MinIO: ls --metadata --tags --json says for each
// object what HeadObject and GetObjectTagging say; --filter sees the fields; summarize --by
// groups by them; cp and sync select by them; --dryrun estimates the scan; an object deleted
// between the listing and its HEAD is named, not lost silently.
const { PutObjectCommand, HeadObjectCommand, GetObjectTaggingCommand } = require('@aws-sdk/client-s3');
const s3blitz = require('../../src/index');
const { runCli, createBucket, s3client, libOptions, uniqueBucket } = require('../helpers/s3env');

const jsonLines = (s) => s.split('\n').filter(Boolean).map((l) => JSON.parse(l));

let bucket;
const objects = [
  { Key: 'site/index.html', Body: '<h1>hi</h1>', ContentType: 'text/html', CacheControl: 'max-age=300', Metadata: { owner: 'ann', build: '42' }, Tagging: 'env=prod&team=web' },
  { Key: 'site/app.js.gz', Body: 'js', ContentType: 'application/javascript', ContentEncoding: 'gzip', Metadata: { owner: 'bob' }, Tagging: 'env=dev' },
  { Key: 'data/ünïcode report.json', Body: '{"a":1}', ContentType: 'application/json', ContentDisposition: 'attachment', ContentLanguage: 'de', Metadata: { owner: 'ann' } },
  { Key: 'data/plain', Body: 'plain' },
  { Key: 'data/sha', Body: 'checksummed', ChecksumAlgorithm: 'SHA256', Tagging: 'env=prod' },
  { Key: 'img/a.png', Body: Buffer.alloc(300, 1), ContentType: 'image/png', Tagging: 'team=design&env=prod&x=y' },
];
for (let i = 0; i < 40; i++) objects.push({ Key: `bulk/${String(i).padStart(3, '0')}.txt`, Body: 'b'.repeat(i), ContentType: i % 2 ? 'text/plain' : 'text/csv', Metadata: { n: String(i) } });

beforeAll(async () => {
  bucket = await createBucket(uniqueBucket('meta'));
  await Promise.all(objects.map((o) => s3client().send(new PutObjectCommand({ Bucket: bucket, ...o }))));
});

// What the server says about one object, from the SDK.
async function truth(key) {
  const head = await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }));
  const tags = await s3client().send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
  return { head, tags: Object.fromEntries((tags.TagSet || []).map((t) => [t.Key, t.Value])) };
}

test('ls --metadata --tags --json says what HeadObject and GetObjectTagging say, for each object', async () => {
  const { code, stdout, stderr } = await runCli(['ls', `s3://${bucket}`, '--metadata', '--tags', '--json', '--head-concurrency', '7']);
  expect(code).toBe(0);
  expect(stderr).toMatch(/^s3blitz: metadata: 46 HeadObject and 4 GetObjectTagging requests/);
  const got = jsonLines(stdout);
  expect(got.map((it) => it.Key).sort()).toEqual(objects.map((o) => o.Key).sort());
  for (const it of got) {
    const { head, tags } = await truth(it.Key);
    expect(it.ContentType).toBe(head.ContentType ?? null);
    expect(it.ContentEncoding).toBe(head.ContentEncoding ?? null);
    expect(it.ContentDisposition).toBe(head.ContentDisposition ?? null);
    expect(it.ContentLanguage).toBe(head.ContentLanguage ?? null);
    expect(it.CacheControl).toBe(head.CacheControl ?? null);
    expect(it.Metadata).toEqual(head.Metadata || {});
    expect(it.ServerSideEncryption).toBe(head.ServerSideEncryption ?? null);
    expect(it.ChecksumAlgorithm).toBe(head.ChecksumSHA256 ? 'SHA256' : head.ChecksumCRC32 ? 'CRC32' : head.ChecksumCRC32C ? 'CRC32C' : head.ChecksumCRC64NVME ? 'CRC64NVME' : null);
    expect(it.Checksum).toBe(head.ChecksumSHA256 || head.ChecksumCRC32 || head.ChecksumCRC32C || head.ChecksumCRC64NVME || null);
    expect(it.ObjectLockMode).toBe(head.ObjectLockMode ?? null);
    expect(it.TagCount).toBe(head.TagCount || 0);
    expect(it.Tags).toEqual(tags);
    expect(it.Size).toBe(head.ContentLength);
    expect(it.ETag).toBe(head.ETag);
  }
  // The objects as they were written.
  const byKey = new Map(got.map((it) => [it.Key, it]));
  expect(byKey.get('site/index.html')).toMatchObject({ ContentType: 'text/html', CacheControl: 'max-age=300', Metadata: { owner: 'ann', build: '42' }, Tags: { env: 'prod', team: 'web' }, TagCount: 2 });
  expect(byKey.get('data/sha').ChecksumAlgorithm).toBe('SHA256');
  expect(byKey.get('data/plain').Tags).toEqual({});
});

test('--filter sees the metadata and tags; --pattern spares HEADs', async () => {
  const html = await runCli(['ls', `s3://${bucket}`, '--metadata', '--filter', 'js:({ContentType}) => ContentType === "text/html"']);
  expect(html.stdout).toBe('site/index.html\n');
  const ann = await runCli(['ls', `s3://${bucket}`, '--metadata', '--json', '--filter', 'js:({Metadata}) => Metadata.owner === "ann"']);
  expect(jsonLines(ann.stdout).map((it) => it.Key)).toEqual(['data/ünïcode report.json', 'site/index.html']);
  const prod = await runCli(['ls', `s3://${bucket}`, '--tags', '--filter', 'js:({Tags}) => Tags.env === "prod"']);
  expect(prod.stdout).toBe('data/sha\nimg/a.png\nsite/index.html\n');
  const few = await runCli(['ls', `s3://${bucket}`, '--metadata', '--pattern', 'site/', '--json']);
  expect(jsonLines(few.stdout)).toHaveLength(2);
  expect(few.stderr).toMatch(/metadata: 2 HeadObject/);
});

test('summarize --by content-type, metadata:NAME and tag:NAME', async () => {
  const ct = JSON.parse((await runCli(['summarize', `s3://${bucket}`, '--by', 'content-type', '--json'])).stdout);
  const groups = Object.fromEntries(ct.by.groups.map((g) => [g.name, g.objects]));
  expect(groups).toMatchObject({ 'text/plain': 20, 'text/csv': 20, 'text/html': 1, 'image/png': 1, 'application/json': 1 });
  expect(ct.metadataScan.headRequests).toBe(46);
  const owner = JSON.parse((await runCli(['summarize', `s3://${bucket}`, '--by', 'metadata:owner', '--json'])).stdout);
  expect(Object.fromEntries(owner.by.groups.map((g) => [g.name, g.objects]))).toEqual({ ann: 2, bob: 1, '(none)': 43 });
  const env = JSON.parse((await runCli(['summarize', `s3://${bucket}`, '--by', 'tag:env', '--json', '--top', '10'])).stdout);
  expect(Object.fromEntries(env.by.groups.map((g) => [g.name, [g.objects, g.bytes]]))).toEqual({ prod: [3, 11 + 11 + 300], dev: [1, 2], '(none)': [42, 7 + 5 + objects.filter((o) => o.Key.startsWith('bulk/')).reduce((n, o) => n + o.Body.length, 0)] });
  const text = await runCli(['summarize', `s3://${bucket}`, '--by', 'tag:env']);
  expect(text.stdout).toMatch(/tag env\s+objects/);
  expect((await runCli(['summarize', `s3://${bucket}`, '--by', 'colour'])).code).toBe(2);
});

test('--dryrun estimates the scan from the listing alone', async () => {
  const { code, stdout } = await runCli(['ls', `s3://${bucket}`, '--metadata', '--tags', '--dryrun', '--json']);
  expect(code).toBe(0);
  const e = JSON.parse(stdout);
  expect(e).toMatchObject({ objects: 46, headRequests: 46, taggingRequestsAtMost: 46 });
  expect(e.estimatedCostUSD).toBeCloseTo((92 * 0.0004) / 1000, 6);
  const text = await runCli(['summarize', `s3://${bucket}`, '--by', 'content-type', '--dryrun']);
  expect(text.stdout).toMatch(/would send 46 HeadObject requests/);
  expect((await runCli(['ls', `s3://${bucket}`, '--dryrun'])).code).toBe(2);
});

test('cp and sync select by metadata (--filter-metadata, --filter-tags)', async () => {
  const dst = await createBucket(uniqueBucket('meta-dst'));
  const cp = await runCli(['cp', `s3://${bucket}`, `s3://${dst}`, '--filter-metadata', '--filter', 'js:({ContentType}) => ContentType && ContentType.startsWith("text/")']);
  expect(cp.code).toBe(0);
  const copied = (await s3blitz.ls({ source: `s3://${dst}`, ...libOptions() })).items.map((it) => it.Key);
  expect(copied).toEqual(objects.filter((o) => o.ContentType && o.ContentType.startsWith('text/')).map((o) => o.Key).sort());
  const sy = await runCli(['sync', `s3://${bucket}`, `s3://${dst}`, '--filter-tags', '--filter', 'js:({Tags}) => Tags.env === "prod"']);
  expect(sy.code).toBe(0);
  const after = (await s3blitz.ls({ source: `s3://${dst}`, ...libOptions() })).items.map((it) => it.Key);
  expect(after).toEqual(expect.arrayContaining(['data/sha', 'img/a.png', 'site/index.html']));
  expect(after).not.toContain('site/app.js.gz');
});

test('an object deleted between its listing and its HEAD is named and left out; the rest is listed', async () => {
  const b = await createBucket(uniqueBucket('meta-gone'));
  await Promise.all(['a', 'b', 'c'].map((Key) => s3client().send(new PutObjectCommand({ Bucket: b, Key, Body: Key }))));
  const problems = [];
  const listing = new s3blitz.Listing({ source: `s3://${b}`, withMetadata: true, ...libOptions(), onProblem: (p) => problems.push(p) });
  // A store that forgets "b" once listed: HeadObject answers 404 as after a delete.
  const s3 = listing.store;
  const head = s3.headObject.bind(s3);
  s3.headObject = (p, signal) => (p.Key === 'b' ? Promise.reject(Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } })) : head(p, signal));
  const keys = [];
  for await (const page of listing.pages()) for (const it of page) keys.push(it.Key);
  listing.close();
  expect(keys).toEqual(['a', 'c']);
  expect(problems).toEqual([{ key: 'b', versionId: undefined, status: 'vanished', reason: 'deleted since it was listed' }]);
  expect(listing.scanReport()).toMatchObject({ headRequests: 3, vanished: 1, failed: 0 });
});
