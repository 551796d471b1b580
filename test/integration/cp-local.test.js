'use strict';
// cp between buckets and local folders: round trips keep keys, sizes and content.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { GetObjectCommand, HeadObjectCommand } = require('@aws-sdk/client-s3');
const { filesUnder } = require('../helpers/local-tree');
const { createBucket, putObjects, sequentialList, runCli, s3client } = require('../helpers/s3env');

const MiB = 1024 * 1024;
const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-cp-'));

const walk = filesUnder;

test('bucket -> folder -> bucket round trip keeps keys, sizes and content', async () => {
  const src = await createBucket();
  const keys = ['a b/c+d.txt', 'x/100%/y?.json', 'café/中文/😀.bin', 'hash#/amp&.txt', 'top.txt', 'sub-dash', 'sub/inner'];
  const items = keys.map((key, i) => ({ key, body: crypto.randomBytes(100 + i * 1000) }));
  items.push({ key: 'big/large.bin', body: crypto.randomBytes(12 * MiB + 7) });
  await putObjects(src, items);
  const dir = tmp();
  const down = await runCli(['cp', `s3://${src}`, dir, '--large-copy-threshold', '5MiB', '--part-size', '5MiB']);
  expect(down.stderr).toBe('');
  expect(down.code).toBe(0);
  expect(walk(dir).sort()).toEqual(items.map((i) => i.key).sort());
  for (const it of items) expect(sha(fs.readFileSync(path.join(dir, it.key)))).toBe(sha(it.body));
  const head = await s3client().send(new HeadObjectCommand({ Bucket: src, Key: 'top.txt' }));
  expect(Math.abs(fs.statSync(path.join(dir, 'top.txt')).mtimeMs - head.LastModified.getTime())).toBeLessThan(1000);

  const back = await createBucket();
  const up = await runCli(['cp', dir, `s3://${back}/restored/`, '--large-copy-threshold', '5MiB', '--part-size', '5MiB']);
  expect(up.stderr).toBe('');
  expect(up.code).toBe(0);
  const listed = await sequentialList(back);
  expect(listed.map((o) => [o.Key, o.Size])).toEqual((await sequentialList(src)).map((o) => [`restored/${o.Key}`, o.Size]));
  for (const it of items) {
    const out = await s3client().send(new GetObjectCommand({ Bucket: back, Key: `restored/${it.key}` }));
    expect(sha(Buffer.from(await out.Body.transformToByteArray()))).toBe(sha(it.body));
  }
  const small = listed.find((o) => o.Key === 'restored/top.txt');
  expect(small.ETag).toBe(`"${crypto.createHash('md5').update(items.find((i) => i.key === 'top.txt').body).digest('hex')}"`);
  const ct = await s3client().send(new HeadObjectCommand({ Bucket: back, Key: 'restored/x/100%/y?.json' }));
  expect(ct.ContentType).toBe('application/json');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('keys that are not safe paths are reported, the rest downloaded', async () => {
  const src = await createBucket();
  await putObjects(src, ['ok/1.txt', 'ok/2.txt', 'marker/']);
  const dir = tmp();
  const res = await runCli(['cp', `s3://${src}`, dir]);
  expect(res.code).toBe(0); // a folder marker is skipped, not a failure
  expect(res.stderr).toMatch(/skipped "marker\/": folder marker/);
  expect(walk(dir).sort()).toEqual(['ok/1.txt', 'ok/2.txt']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a target folder that cannot be created is one fatal error', async () => {
  const src = await createBucket();
  await putObjects(src, ['a', 'b']);
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'file'), 'x');
  const res = await runCli(['cp', `s3://${src}`, path.join(dir, 'file', 'sub')]);
  expect(res.code).toBe(3);
  expect(res.stderr).toMatch(/cannot create folder .*ENOTDIR/);
  expect(res.stderr.trim().split('\n')).toHaveLength(1);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('folder to folder', async () => {
  const a = tmp(), b = tmp();
  fs.mkdirSync(path.join(a, 'd'));
  fs.writeFileSync(path.join(a, 'd', 'f.txt'), 'hello');
  const res = await runCli(['cp', a, b]);
  expect(res.code).toBe(0);
  expect(fs.readFileSync(path.join(b, 'd', 'f.txt'), 'utf8')).toBe('hello');
});
