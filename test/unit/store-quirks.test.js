'use strict';
// What s3blitz does about servers that list in another order, ignore encoding-type=url or
// skip folders on some StartAfter values: right keys, every key, and never a delete of a
// key the source still has. Against an in-memory endpoint with each quirk (the real
// servers are in test/compat).
const fs = require('fs');
const os = require('os');
const path = require('path');
const s3blitz = require('../../src');
const { mergeJoin } = require('../../src/stages/compare');
const { startQuirkyS3 } = require('../helpers/quirky-s3');

const creds = { accessKeyId: 'AKIDQUIRKY', secretAccessKey: 'quirky-secret' };
const conn = (server) => ({ endpointUrl: server.endpoint, region: 'us-east-1', credentials: creds, journal: false, log: () => {} });

function folder(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-quirks-'));
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), body);
  }
  return dir;
}

describe('a server that lists in UTF-16 order (s3proxy)', () => {
  let server;
  beforeAll(async () => { server = await startQuirkyS3({ order: 'utf16' }); });
  afterAll(() => server.close());

  // U+10000 sorts before U+E000 and U+FF21 in UTF-16, after them in UTF-8 (S3's order).
  const files = { '\u{10000}astral': 'a1', '\uE000private': 'b22', '\uFF21fullwidth': 'c333', plain: 'd4444' };

  test.each([['--sequential', true], ['parallel', false]])('sync <folder> s3://b --delete (%s) keeps every source key', async (name, sequential) => {
    const dir = folder(files);
    const bucket = `utf16-${sequential ? 'seq' : 'par'}`;
    server.bucket(bucket);
    for (const [k, v] of Object.entries(files)) server.put(bucket, k, v); // already in step
    server.put(bucket, 'zz-only-in-target', 'x');
    const logs = [];
    const r = await s3blitz.sync({ ...conn(server), source: dir, target: `s3://${bucket}/`, delete: true, sequential, log: (m) => logs.push(m) });
    expect(server.keys(bucket)).toEqual(Object.keys(files).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    expect(r.deleted.objects).toBe(1); // only the target's own key
    expect(r.copied.objects).toBe(0);
    if (!sequential) expect(logs.join('\n')).toMatch(/not in S3's UTF-8 key order: listing it again with one sequential walk, sorted on disk/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('ls lists in S3 order, each key once', async () => {
    server.bucket('utf16-ls');
    const keys = [];
    for (let i = 0; i < 2500; i++) keys.push(`${['\u{10000}', '\uE000', '\uFF21', 'a', '😀'][i % 5]}-${i}`);
    for (const k of keys) server.put('utf16-ls', k);
    const { items } = await s3blitz.ls({ ...conn(server), source: 's3://utf16-ls' });
    expect(items.map((i) => i.Key)).toEqual(server.keys('utf16-ls'));
  });
});

test('a merge stops at a side out of S3 order, naming both keys and the side', async () => {
  const src = (async function* () { for (const k of ['a', 'c', 'b']) yield { targetKey: k, item: { Key: k } }; })();
  const dst = (async function* () { for (const k of ['a', 'b', 'c']) yield { Key: k }; })();
  const seen = [];
  await expect((async () => { for await (const p of mergeJoin(src, dst, ['the source (./x)', 'the target (s3://b/)'])) seen.push(p.targetKey); })())
    .rejects.toMatchObject({ exitCode: 3, message: 'the source (./x) listed "b" after "c", not in S3\'s UTF-8 key order: stopped before acting on the comparison (nothing was deleted)' });
  // Found where the source's 'b' comes: the target's 'b' was taken for only-target by then,
  // which is why sync deletes only after the merge has finished.
  expect(seen).toEqual(['a', 'b', 'c']);
});

describe('a server that ignores encoding-type=url (versitygw, s3s-fs)', () => {
  let server;
  beforeAll(async () => { server = await startQuirkyS3({ rawKeys: true }); });
  afterAll(() => server.close());
  const keys = ['amp&and', "it's", 'a<b>"c"', 'pct%41', '100%', 'plus+sign', 'sp ace', 'café', '😀'];

  test('ls and cp take keys as sent: nothing decoded that was never encoded', async () => {
    server.bucket('raw');
    server.bucket('raw-copy');
    for (const k of keys) server.put('raw', k);
    const { items } = await s3blitz.ls({ ...conn(server), source: 's3://raw' });
    expect(items.map((i) => i.Key)).toEqual(server.keys('raw'));
    const r = await s3blitz.copy({ ...conn(server), source: 's3://raw', target: 's3://raw-copy' });
    expect(r.failed.objects).toBe(0);
    expect(server.keys('raw-copy')).toEqual(server.keys('raw'));
  });
});

describe('a server whose StartAfter skips a folder it names (SeaweedFS)', () => {
  let server;
  beforeAll(async () => { server = await startQuirkyS3({ folderStartAfter: true }); });
  afterAll(() => server.close());

  test.each([true, false])('every key, listed in parallel (unordered %s), with a notice', async (unordered) => {
    const bucket = `folders-${unordered}`;
    server.bucket(bucket);
    for (let i = 0; i < 6000; i++) server.put(bucket, `logs/2024/${String(1 + (i % 6)).padStart(2, '0')}/${String(1 + ((i >> 3) % 20)).padStart(2, '0')}/part-${i}.gz`, 'x');
    const logs = [];
    const { items, stats } = await s3blitz.ls({ ...conn(server), source: `s3://${bucket}`, unordered, log: (m) => logs.push(m) });
    const got = items.map((i) => i.Key);
    expect(unordered ? [...got].sort() : got).toEqual(unordered ? server.keys(bucket).sort() : server.keys(bucket));
    expect(logs.join('\n')).toMatch(/its StartAfter cannot be trusted: listing it again with one sequential walk/);
    expect(stats.fallback).toBe(unordered ? 'sequential' : 'sorted');
  });
});
