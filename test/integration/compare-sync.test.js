'use strict';
// compare and sync against MinIO: known differences in several scripts and a prefix
// mapping are classified exactly; sync converges; a second sync only lists.
const { PutObjectCommand } = require('@aws-sdk/client-s3');
const s3blitz = require('../../src');
const { createBucket, putObjects, sequentialList, runCli, s3client, libOptions } = require('../helpers/s3env');

const conn = libOptions;
const names = ['alpha', 'café', '中文', 'Ελληνικά', 'русский', 'עברית', '😀 emoji', 'a+b%c', '\uE000private'];

// Source keys under src/, target keys under dst/ (a prefix mapping), with known differences.
async function seed() {
  const [src, dst] = [await createBucket(), await createBucket()];
  const expected = { 'only-source': [], 'only-target': [], 'size-differs': [], 'content-differs': [], same: [] };
  const s = [], t = [];
  names.forEach((n, i) => {
    const k = (kind) => `${kind}/${n}-${i}`;
    s.push({ key: `src/${k('same')}`, body: `same ${n}` }); t.push({ key: `dst/${k('same')}`, body: `same ${n}` }); expected.same.push(`src/${k('same')}`);
    s.push({ key: `src/${k('missing')}`, body: 'm' }); expected['only-source'].push(`src/${k('missing')}`);
    t.push({ key: `dst/${k('extra')}`, body: 'x' }); expected['only-target'].push(`dst/${k('extra')}`);
    s.push({ key: `src/${k('size')}`, body: 'long body' }); t.push({ key: `dst/${k('size')}`, body: 'short' }); expected['size-differs'].push(`src/${k('size')}`);
    s.push({ key: `src/${k('content')}`, body: 'AAAA' }); t.push({ key: `dst/${k('content')}`, body: 'BBBB' }); expected['content-differs'].push(`src/${k('content')}`);
  });
  // Outside the mapped prefixes: must not show up at all.
  s.push({ key: 'elsewhere/x', body: '1' }); t.push({ key: 'elsewhere/y', body: '2' });
  await putObjects(src, s.map((x) => ({ key: x.key, body: Buffer.from(x.body) })));
  await putObjects(dst, t.map((x) => ({ key: x.key, body: Buffer.from(x.body) })));
  return { src, dst, expected };
}

test('compare classifies every key exactly, and lists them with --show', async () => {
  const { src, dst, expected } = await seed();
  const r = await s3blitz.compare({ source: `s3://${src}/src/`, target: `s3://${dst}/dst/`, show: 'all', ...conn() });
  expect(r.method).toBe('merge');
  for (const [cls, keys] of Object.entries(expected)) {
    expect({ cls, n: r.classes[cls].objects }).toEqual({ cls, n: keys.length });
    const got = [];
    for await (const rec of r.keys(cls)) got.push(rec.key === null ? rec.targetKey : rec.key);
    expect(got.sort()).toEqual([...keys].sort());
  }
  expect(r.classes.unknown.objects).toBe(0);
  expect(r.identical).toBe(false);
  r.dispose();

  const cli = await runCli(['compare', `s3://${src}/src/`, `s3://${dst}/dst/`, '--show', 'only-target', '--json']);
  expect(cli.code).toBe(1);
  expect(cli.stdout.trim().split('\n').map((l) => JSON.parse(l).targetKey).sort()).toEqual([...expected['only-target']].sort());
});

test('sync converges; a second sync only lists; --delete removes exactly the extras', async () => {
  const { src, dst, expected } = await seed();
  const dry = await runCli(['sync', `s3://${src}/src/`, `s3://${dst}/dst/`, '--delete', '--dryrun']);
  expect(dry.code).toBe(0);
  expect(dry.stdout.split('\n').filter((l) => l.startsWith('copy ')).length).toBe(expected['only-source'].length + expected['size-differs'].length + expected['content-differs'].length);
  expect(dry.stdout.split('\n').filter((l) => l.startsWith('delete ')).length).toBe(expected['only-target'].length);
  const before = await sequentialList(dst);
  expect((await sequentialList(dst)).map((o) => [o.Key, o.ETag])).toEqual(before.map((o) => [o.Key, o.ETag]));

  const refused = await runCli(['sync', `s3://${src}/src/`, `s3://${dst}/dst/`, '--delete', '--max-delete', '3']);
  expect(refused.code).toBe(4);
  expect(refused.stderr).toMatch(/more than --max-delete 3/);
  // Copies happen before the refusal; nothing is deleted.
  expect((await sequentialList(dst, { prefix: 'dst/extra' })).length).toBeGreaterThan(0);

  const r = await s3blitz.sync({ source: `s3://${src}/src/`, target: `s3://${dst}/dst/`, delete: true, ...conn() });
  expect(r.ok).toBe(true);
  expect(r.deleted.objects).toBe(expected['only-target'].length);
  const after = await s3blitz.compare({ source: `s3://${src}/src/`, target: `s3://${dst}/dst/`, ...conn() });
  expect(after.identical).toBe(true);
  expect(after.classes.same.objects).toBe(names.length * 4);
  expect((await sequentialList(dst, { prefix: 'elsewhere/' })).map((o) => o.Key)).toEqual(['elsewhere/y']);

  const again = await s3blitz.sync({ source: `s3://${src}/src/`, target: `s3://${dst}/dst/`, delete: true, ...conn() });
  expect(again.copied.objects).toBe(0);
  expect(again.deleted.objects).toBe(0);
  expect(Object.keys(again.stats.requests).filter((t) => t !== 'LIST')).toEqual([]);
});

test('an empty source never empties the target without --force', async () => {
  const [src, dst] = [await createBucket(), await createBucket()];
  await putObjects(dst, ['keep/1', 'keep/2']);
  const res = await runCli(['sync', `s3://${src}`, `s3://${dst}`, '--delete']);
  expect(res.code).toBe(4);
  expect(res.stderr).toMatch(/source listing is empty/);
  expect((await sequentialList(dst)).length).toBe(2);
  const forced = await runCli(['sync', `s3://${src}`, `s3://${dst}`, '--delete', '--force']);
  expect(forced.code).toBe(0);
  expect((await sequentialList(dst)).length).toBe(0);
});

test('--compare-time finds targets older than their source', async () => {
  const [src, dst] = [await createBucket(), await createBucket()];
  await putObjects(dst, [{ key: 'k', body: Buffer.from('same') }]);
  await new Promise((r) => setTimeout(r, 1100));
  await putObjects(src, [{ key: 'k', body: Buffer.from('same') }]);
  const plain = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, ...conn() });
  expect(plain.classes.same.objects).toBe(1);
  const timed = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, compareTime: true, ...conn() });
  expect(timed.classes.older.objects).toBe(1);
  const s = await s3blitz.sync({ source: `s3://${src}`, target: `s3://${dst}`, compareTime: true, ...conn() });
  expect(s.copied.objects).toBe(1);
});

test('folder to bucket and bucket to folder', async () => {
  const fs = require('fs'); const os = require('os'); const path = require('path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-sync-'));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'sub', 'a.txt'), 'aaa');
  fs.writeFileSync(path.join(dir, 'b é.txt'), 'bbb');
  const bucket = await createBucket();
  await s3client().send(new PutObjectCommand({ Bucket: bucket, Key: 'stale.txt', Body: 'old' }));
  const up = await runCli(['sync', dir, `s3://${bucket}`, '--delete']);
  expect(up.code).toBe(0);
  expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(['b é.txt', 'sub/a.txt']);
  const cmp = await runCli(['compare', dir, `s3://${bucket}`, '--checksum']);
  expect(cmp.code).toBe(0);
  const back = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-sync-back-'));
  const down = await runCli(['sync', `s3://${bucket}`, back]);
  expect(down.code).toBe(0);
  expect(fs.readFileSync(path.join(back, 'sub', 'a.txt'), 'utf8')).toBe('aaa');
  const again = await runCli(['sync', `s3://${bucket}`, back, '--json']);
  expect(JSON.parse(again.stdout).copied.objects).toBe(0);
});

test('a --to-key mapping that does not preserve order still compares correctly', async () => {
  const [src, dst] = [await createBucket(), await createBucket()];
  await putObjects(src, ['a1', 'b2', 'c3', 'd4']);
  await putObjects(dst, ['4-d', '3-c', '1-a', 'extra'].map((key) => ({ key, body: Buffer.from(key.split('-').reverse().join('')) })));
  const r = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, toKey: "js:(k) => k[1] + '-' + k[0]", ...conn() });
  expect(r.method).toBe('sorted-spool');
  expect(r.classes.same.objects).toBe(3);
  expect(r.classes['only-source'].objects).toBe(1);
  expect(r.classes['only-target'].objects).toBe(1);
});
