'use strict';
// mv against MinIO, side by side with aws-cli's `aws s3 mv --recursive` on the same generated
// data: the same target keys and bytes, the sources gone (and nothing outside them touched),
// the same per-object lines. Then what aws-cli does not check: a target inside the source,
// target keys ahead in the listing, a dry run, and a source that is kept when its delete is
// refused.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { GetObjectCommand } = require('@aws-sdk/client-s3');
const { createBucket, putObjects, putMultipart, sequentialList, runCli, s3client } = require('../helpers/s3env');
const { filesUnder } = require('../helpers/local-tree');
const { runAws } = require('../helpers/awscli');
const { prng } = require('../generators/prng');

jest.setTimeout(600e3);

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`mv seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const MiB = 1024 * 1024;
const md5 = (b) => crypto.createHash('md5').update(b).digest('hex');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-mv-'));

// Names people give files, in several scripts, with the characters below "/" that part key
// order from folder order; every one a safe file name, so the same set serves downloads.
const PARTS = ['data', 'logs', 'café', '中文', 'Ελληνικά', 'a b', 'x+y', '100%', 'd-1', 'd.2', 'd_3', 'e😀', 'Z', '0'];

// A seeded tree: n keys under p/ (depth 1 to 3), sizes from empty to a few KiB, one or two
// multipart objects, and keys outside p/ that no move may touch.
function generate(seed, n) {
  const r = prng(seed);
  const keys = new Set();
  while (keys.size < n) {
    const depth = 1 + r.int(3);
    const segs = Array.from({ length: depth }, () => r.pick(PARTS) + (r.next() < 0.5 ? String(r.int(20)) : ''));
    keys.add(`p/${segs.join('/')}${r.next() < 0.3 ? '.txt' : ''}`);
  }
  // A key that is also a folder's name (p/data beside p/data/...) cannot be a file and a
  // folder at once: leave such keys out, so the same set serves downloads.
  const multipart = [{ key: `p/${r.pick(PARTS)}/multi-${r.int(1000)}.bin`, parts: [5 * MiB, 1 * MiB + r.int(1000)] }];
  const all = [...keys, ...multipart.map((m) => m.key)];
  const list = [...keys].filter((k) => !all.some((o) => o.startsWith(`${k}/`)));
  const items = list.map((key) => ({ key, body: r.bytes(r.next() < 0.1 ? 0 : r.int(4096)) }));
  const outside = [{ key: 'other/keep.txt', body: Buffer.from('stay') }, { key: 'p-old', body: Buffer.from('not under p/') }];
  return { items, multipart, outside };
}

async function fill(bucket, data) {
  await putObjects(bucket, [...data.items, ...data.outside]);
  const bodies = new Map(data.items.map((i) => [i.key, i.body]));
  for (const m of data.multipart) {
    const parts = m.parts.map((size, i) => Buffer.alloc(size, 97 + i));
    await putMultipart(bucket, m.key, parts);
    bodies.set(m.key, Buffer.concat(parts));
  }
  return bodies;
}

async function bodyOf(bucket, key) {
  const out = await s3client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await out.Body.transformToByteArray());
}

const walk = (root) => filesUnder(root).sort();

// The per-object lines of a run, with the run's own bucket names and folders made neutral.
const lines = (text, names) => text.split(/[\r\n]/).filter((l) => /^(move|delete|copy|upload|download): /.test(l))
  .map((l) => names.reduce((s, [from, to]) => s.split(from).join(to), l.trimEnd())).sort();

test(`bucket to bucket: the same keys, bytes and lines as aws s3 mv, sources gone, the rest kept (seed ${SEED})`, async () => {
  const data = generate(SEED, 40);
  const [a, b, ta, tb] = [await createBucket(), await createBucket(), await createBucket(), await createBucket()];
  const bodies = await fill(a, data);
  await fill(b, data);
  const aws = await runAws(['s3', 'mv', `s3://${a}/p/`, `s3://${ta}/q/`, '--recursive']);
  expect(aws.code).toBe(0);
  const ours = await runCli(['mv', `s3://${b}/p/`, `s3://${tb}/q/`, '-v', '--large-copy-threshold', '5MiB']);
  expect(ours.code).toBe(0);
  // The reference: aws-cli's result and the data as generated.
  const want = [...bodies.keys()].map((k) => `q/${k.slice(2)}`);
  const got = (await sequentialList(tb)).map((o) => o.Key);
  expect(got).toEqual((await sequentialList(ta)).map((o) => o.Key));
  expect([...got].sort()).toEqual([...want].sort());
  for (const [key, body] of bodies) expect({ key, md5: md5(await bodyOf(tb, `q/${key.slice(2)}`)) }).toEqual({ key, md5: md5(body) });
  // Sources under p/ gone, on both sides; the keys outside kept.
  expect((await sequentialList(b)).map((o) => o.Key)).toEqual(data.outside.map((o) => o.key).sort());
  expect((await sequentialList(a)).map((o) => o.Key)).toEqual(data.outside.map((o) => o.key).sort());
  // A line per object, as aws-cli prints them.
  expect(lines(ours.stdout, [[b, 'SRC'], [tb, 'DST']])).toEqual(lines(aws.stdout, [[a, 'SRC'], [ta, 'DST']]));
  expect(ours.stderr).toMatch(/moved\s+\d+ objects/);
  expect(ours.stderr).toMatch(/copies proven: \d+ by ETag/);
});

test(`download and upload: the same files and objects as aws s3 mv, sources gone (seed ${SEED})`, async () => {
  const data = generate(SEED + 1, 25);
  const [a, b] = [await createBucket(), await createBucket()];
  const bodies = await fill(a, data);
  await fill(b, data);
  const [da, db] = [tmp(), tmp()];
  const aws = await runAws(['s3', 'mv', `s3://${a}/p/`, da, '--recursive']);
  expect(aws.code).toBe(0);
  const ours = await runCli(['mv', `s3://${b}/p/`, db, '-v']);
  expect({ code: ours.code, problems: ours.stderr.split('\n').filter((l) => /^s3blitz: (failed|changed)/.test(l)) }).toEqual({ code: 0, problems: [] });
  expect(walk(db)).toEqual(walk(da));
  for (const [key, body] of bodies) expect({ key, md5: md5(fs.readFileSync(path.join(db, key.slice(2)))) }).toEqual({ key, md5: md5(body) });
  expect((await sequentialList(b)).map((o) => o.Key)).toEqual(data.outside.map((o) => o.key).sort());
  // aws-cli names files relative to its working folder, s3blitz by the path as given.
  expect(lines(ours.stdout, [[b, 'SRC'], [db, 'DIR']])).toEqual(lines(aws.stdout, [[a, 'SRC'], [path.relative(process.cwd(), da), 'DIR']]));

  // Back up: the files move, the folders stay (as aws-cli leaves them).
  const [ua, ub] = [await createBucket(), await createBucket()];
  const awsUp = await runAws(['s3', 'mv', da, `s3://${ua}/up/`, '--recursive']);
  expect(awsUp.code).toBe(0);
  const up = await runCli(['mv', db, `s3://${ub}/up/`, '--json']);
  expect(up.code).toBe(0);
  const r = JSON.parse(up.stdout);
  expect(r.moved.objects).toBe(bodies.size);
  expect(r.provenBy.received).toBe(bodies.size);
  expect(walk(db)).toEqual([]);
  expect(walk(da)).toEqual([]);
  expect((await sequentialList(ub)).map((o) => o.Key)).toEqual((await sequentialList(ua)).map((o) => o.Key));
  for (const [key, body] of bodies) expect(md5(await bodyOf(ub, `up/${key.slice(2)}`))).toBe(md5(body));
  fs.rmSync(da, { recursive: true, force: true });
  fs.rmSync(db, { recursive: true, force: true });
});

test('a target inside the source is refused before anything is copied; target keys ahead in the listing are not moved; keys behind are', async () => {
  const bucket = await createBucket();
  const keys = ['d/a.txt', 'd/b.txt', 'd/c/x.txt'];
  await putObjects(bucket, keys);
  const inside = await runCli(['mv', `s3://${bucket}/d/`, `s3://${bucket}/d/sub/`]);
  expect(inside.code).toBe(2);
  expect(inside.stderr).toMatch(/lies inside the source/);
  expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(keys);

  // key + '.bak' sorts after its source in the same folder: it would be listed and moved again.
  const ahead = await runCli(['mv', `s3://${bucket}/d/`, `s3://${bucket}`, '--to-key', "js:(k) => k + '.bak'"]);
  expect(ahead.code).toBe(1);
  expect(ahead.stderr).toMatch(/lies ahead in the listing/);
  expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(keys);

  // .txt -> .log sorts before its source: a rename in place.
  const behind = await runCli(['mv', `s3://${bucket}/d/`, `s3://${bucket}`, '--to-key', "js:(k) => k.replace(/\\.txt$/, '.log')"]);
  expect(behind.code).toBe(0);
  expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(['d/a.log', 'd/b.log', 'd/c/x.log']);
  for (const k of keys) expect((await bodyOf(bucket, k.replace(/\.txt$/, '.log'))).toString()).toBe(k);
});

test('one object renamed; a dry run changes nothing and prints what it would move', async () => {
  const bucket = await createBucket();
  await putObjects(bucket, ['report.csv', 'report.csv.old', 'x/1', 'x/2']);
  const one = await runCli(['mv', `s3://${bucket}/report.csv`, `s3://${bucket}/report.csv.new`]);
  expect(one.code).toBe(0);
  expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(['report.csv.new', 'report.csv.old', 'x/1', 'x/2']);
  expect((await bodyOf(bucket, 'report.csv.new')).toString()).toBe('report.csv');

  const dry = await runCli(['mv', `s3://${bucket}/x/`, `s3://${bucket}/y/`, '--dryrun', '-v']);
  expect(dry.code).toBe(0);
  expect(dry.stdout.split('\n').filter(Boolean).sort()).toEqual([`(dryrun) move: s3://${bucket}/x/1 to s3://${bucket}/y/1`, `(dryrun) move: s3://${bucket}/x/2 to s3://${bucket}/y/2`]);
  expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(['report.csv.new', 'report.csv.old', 'x/1', 'x/2']);
});

test('mv refuses version options and two local folders in one line', async () => {
  const bucket = await createBucket();
  const v = await runCli(['mv', `s3://${bucket}/a/`, `s3://${bucket}/b/`, '--as-of', '2024-01-01T00:00:00Z']);
  expect(v.code).toBe(2);
  expect(v.stderr.trim().split('\n')).toHaveLength(1);
  const [d1, d2] = [tmp(), tmp()];
  fs.writeFileSync(path.join(d1, 'f'), 'x');
  const local = await runCli(['mv', d1, d2]);
  expect(local.code).toBe(2);
  expect(local.stderr).toMatch(/two local folders/);
  expect(fs.existsSync(path.join(d1, 'f'))).toBe(true);
});

test('--require-conditional on a server that does not honour conditional deletes (MinIO) refuses before anything is copied', async () => {
  const [from, to] = [await createBucket(), await createBucket()];
  await putObjects(from, ['a/1', 'a/2']);
  const r = await runCli(['mv', `s3://${from}/a/`, `s3://${to}/a/`, '--require-conditional']);
  expect(r.code).toBe(4);
  expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/does not honour conditional deletes .*: nothing was deleted \(--require-conditional\)/)]);
  expect((await sequentialList(from)).map((o) => o.Key)).toEqual(['a/1', 'a/2']);
  expect(await sequentialList(to)).toEqual([]);
});
