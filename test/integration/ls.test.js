'use strict';
// ls against a real MinIO: exactly the keys of MinIO's own sequential listing, for
// adversarial unicode keys and every range option, through the library and the CLI.
const s3blitz = require('../../src');
const { createBucket, putObjects, sequentialList, runCli, libOptions } = require('../helpers/s3env');
const { adversarialKeys, minioSafe, prng } = require('../helpers/keysets');

const conn = libOptions;
let bucket, truth;

beforeAll(async () => {
  bucket = await createBucket();
  const keys = minioSafe(adversarialKeys(3500, 11));
  // Keys that prefix others, and exactly 1000 / 1001 keys under one prefix.
  for (let i = 0; i < 1001; i++) keys.push(`p1001/${String(i).padStart(4, '0')}`);
  for (let i = 0; i < 1000; i++) keys.push(`p1000/${String(i).padStart(4, '0')}`);
  keys.push('pre', 'pre-x', 'pre/', 'pre/a', 'pre0');
  await putObjects(bucket, minioSafe(keys), { concurrency: 48 });
  truth = (await sequentialList(bucket)).map((o) => o.Key);
}, 300000);

async function libKeys(options) {
  const { items, complete, stats } = await s3blitz.ls({ source: `s3://${bucket}`, ...conn(), ...options });
  expect(complete).toBe(true);
  return { keys: items.map((i) => i.Key), stats };
}

const utf8 = (k) => Buffer.from(k, 'utf8');

test('seeded set is large and adversarial', () => {
  expect(truth.length).toBeGreaterThan(5000);
  expect(truth.some((k) => Buffer.byteLength(k) === 1024)).toBe(true);
  expect(truth.some((k) => /[\u0001-\u001f]/.test(k))).toBe(true);
  expect(truth.some((k) => /[\uE000-\uFFFF]/.test(k))).toBe(true);
  expect(truth.some((k) => /[\u{10000}-\u{10FFFF}]/u.test(k))).toBe(true);
});

// Both request paths: the lean signed requests with their own parser, and the SDK's.
// The lean path parses pages after the first on the request thread unless requestThread is false.
const PATHS = [['lean, request thread', { fastPaths: true, requestThreads: 1 }], ['lean, 3 request threads', { fastPaths: true, requestThreads: 3 }],
  ['lean, main thread only', { fastPaths: true, requestThread: false }], ['SDK', { fastPaths: false }]];
function expectPath(stats, { fastPaths, requestThread }) {
  if (fastPaths) expect(stats.retries).toBe(0); // no page needed the SDK
  if (fastPaths && requestThread !== false) expect(stats.threadRequests).toBe(stats.listRequests - 1); // all but a store's first
  else expect(stats.threadRequests).toBe(0);
  return stats.requestThreads;
}

test.each(PATHS)('the library lists exactly the sequential listing, in order (%s)', async (name, paths) => {
  const { fastPaths } = paths;
  const threads = [];
  for (const listConcurrency of [1, 7, 100]) {
    const { keys, stats } = await libKeys({ listConcurrency, ...paths });
    expect(keys).toEqual(truth);
    expect(stats.keysUnique).toBe(truth.length);
    threads.push(expectPath(stats, paths));
    // eslint-disable-next-line no-console
    if (fastPaths) console.log(`[s3blitz efficiency] ${truth.length} keys on MinIO, concurrency ${listConcurrency}: ${stats.listRequests} list requests, efficiency ${stats.efficiency}`);
  }
  // Requests that overlap (a hundred at once, or the order check's three) start more threads, up to requestThreads.
  if (paths.requestThreads) expect([Math.max(...threads) <= paths.requestThreads, threads[2] >= Math.min(2, paths.requestThreads)]).toEqual([true, true]);
});

test('unordered listing yields the same set, each key once', async () => {
  const { keys } = await libKeys({ unordered: true });
  expect(keys.length).toBe(truth.length);
  expect(new Set(keys)).toEqual(new Set(truth));
});

test('--prefix, --start-after, --stop-at and their combinations', async () => {
  const r = prng(5);
  const cmp = (a, b) => Buffer.compare(utf8(a), utf8(b));
  const cases = [{ prefix: 'p1001/' }, { prefix: 'p1000/' }, { prefix: 'pre' }, { prefix: 'pre/' }];
  for (let i = 0; i < 6; i++) {
    let a = truth[r.int(truth.length)], b = truth[r.int(truth.length)];
    if (cmp(a, b) > 0) [a, b] = [b, a];
    if (a === b) continue;
    cases.push({ startAfter: a }, { stopAt: b }, { startAfter: a, stopAt: b });
    const p = truth[r.int(truth.length)].slice(0, 2);
    if (!/[\uD800-\uDBFF]$/.test(p) && !/(^|\/)\.\.?$/.test(p)) cases.push({ prefix: p, startAfter: a });
  }
  for (const c of cases) {
    const want = truth.filter((k) => (!c.prefix || k.startsWith(c.prefix)) && (!c.startAfter || cmp(k, c.startAfter) > 0) && (!c.stopAt || cmp(k, c.stopAt) <= 0));
    const { keys } = await libKeys(c);
    expect({ c, keys }).toEqual({ c, keys: want });
  }
});

test.each([['lean', '1', '1'], ['lean, main thread only', '1', '0'], ['SDK', '0', '1']])('CLI ls --json round-trips every key exactly (%s path)', async (name, fast, thread) => {
  const { code, stdout, stderr } = await runCli(['ls', `s3://${bucket}`, '--json'], { env: { S3BLITZ_FAST_PATHS: fast, S3BLITZ_REQUEST_THREAD: thread } });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const rows = stdout.trim().split('\n').map((l) => JSON.parse(l));
  expect(rows.map((r) => r.Key)).toEqual(truth);
  expect(rows[0]).toEqual(expect.objectContaining({ Size: expect.any(Number), ETag: expect.stringMatching(/^".+"$/), StorageClass: 'STANDARD' }));
  expect(rows[0].LastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('CLI plain ls escapes control characters, one key per line', async () => {
  const { code, stdout } = await runCli(['ls', `s3://${bucket}`, '--bucket-less-check-not-an-option'].slice(0, 2));
  expect(code).toBe(0);
  const lines = stdout.split('\n').slice(0, -1);
  expect(lines.length).toBe(truth.length);
  expect(lines.every((l) => !/[\x00-\x1f\x7f]/.test(l))).toBe(true);
  const esc = (k) => k.replace(/[\x00-\x1f\x7f]/g, (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
  expect(lines).toEqual(truth.map(esc));
});

test('S3P-style --bucket/--prefix, and a URL path plus --prefix is a usage error', async () => {
  const a = await runCli(['ls', '--bucket', bucket, '--prefix', 'p1000/']);
  expect(a.code).toBe(0);
  expect(a.stdout.trim().split('\n').length).toBe(1000);
  const b = await runCli(['ls', `s3://${bucket}/p1000/`, '--prefix', 'x']);
  expect(b.code).toBe(2);
  expect(b.stderr.trim().split('\n')).toHaveLength(1);
});

test('--max-list-requests stops early, says so, exits 0', async () => {
  const { code, stdout, stderr } = await runCli(['summarize', `s3://${bucket}`, '--max-list-requests', '2', '--json']);
  expect(code).toBe(0);
  const s = JSON.parse(stdout);
  expect(s.complete).toBe(false);
  expect(s.stats.listRequests).toBe(2);
  expect(s.objects).toBeLessThan(truth.length);
  expect(stderr).toMatch(/--max-list-requests/);
});

describe('a tree of big folders, with folders at every level, lists exactly', () => {
  let tree, treeKeys;
  beforeAll(async () => {
    tree = await createBucket();
    const keys = ['t/', 't/a/', 't/a/1/', 't/b0', 't/é/x', 't/😀/a/', 't/a!/'];
    // t/{a,é,😀}/{1,2}/ leaves of 1100 keys: most of the first page lies in one folder.
    for (const top of ['a', 'é', '😀']) for (const mid of ['1', '2']) {
      for (let i = 0; i < 1100; i++) keys.push(`t/${top}/${mid}/k${String(i).padStart(4, '0')}${i % 97 ? '' : '/deeper'}`);
    }
    await putObjects(tree, keys, { concurrency: 48 });
    treeKeys = (await sequentialList(tree)).map((o) => o.Key);
  }, 300000);

  test.each(PATHS)('exactly the sequential listing, ordered and not, with ranges (%s)', async (name, paths) => {
    for (const options of [{}, { unordered: true }, { startAfter: 't/a/2/k0050' }, { stopAt: 't/é/2/k0300', unordered: true }]) {
      const { items, complete, stats } = await s3blitz.ls({ source: `s3://${tree}/t/`, ...conn(), ...paths, ...options });
      expectPath(stats, paths); // the lean parser read every folder listing
      expect(complete).toBe(true);
      const want = treeKeys.filter((k) => (!options.startAfter || Buffer.compare(utf8(k), utf8(options.startAfter)) > 0) &&
        (!options.stopAt || Buffer.compare(utf8(k), utf8(options.stopAt)) <= 0));
      const got = items.map((i) => i.Key);
      if (options.unordered) got.sort((a, b) => Buffer.compare(utf8(a), utf8(b)));
      expect(got).toEqual(want);
      expect(stats.keysUnique).toBe(want.length);
    }
  });

  test('cp of the tree, then compare and sync of both walked sides: identical, nothing more to do', async () => {
    const dst = await createBucket();
    const cp = await runCli(['cp', `s3://${tree}/t/`, `s3://${dst}/copy/`]);
    expect(cp.code).toBe(0);
    expect((await sequentialList(dst)).map((o) => o.Key)).toEqual(treeKeys.map((k) => `copy/${k.slice(2)}`));
    const cmp = await runCli(['compare', `s3://${tree}/t/`, `s3://${dst}/copy/`, '--json']);
    expect(cmp.code).toBe(0);
    const report = JSON.parse(cmp.stdout);
    expect(report.identical).toBe(true);
    expect(report.stats.folderListings).toBeGreaterThan(0);
    const sync = await runCli(['sync', `s3://${tree}/t/`, `s3://${dst}/copy/`, '--json']);
    expect(sync.code).toBe(0);
    expect(JSON.parse(sync.stdout).copied.objects).toBe(0);
  });
});
