'use strict';
// Versions listed in parallel: whatever the layout of keys and versions, and wherever pages
// cut a key's versions, a listing of every version hands out what a sequential walk of
// ListObjectVersions returns, each version exactly once, in S3's order (keys in UTF-8 byte
// order, each newest first); unordered, the same versions with each key's run intact.
const { Listing } = require('../../src/list/listing');
const { VersionStore } = require('../../src/stores/version-store');
const { FakeVersionStore } = require('../helpers/fake-version-store');
const { RequestStats } = require('../../src/stats');
const { adversarialKeys, prng } = require('../helpers/keysets');

async function listVersions(store, options = {}) {
  const listing = new Listing({ store, allVersions: true, splitHints: false, ...options });
  const out = [];
  try {
    for await (const page of listing.pages()) for (const it of page) out.push(it);
  } finally { listing.close(); }
  return { items: out, listing };
}

// A sequential walk of the fake with its own markers: the reference.
async function walk(store, prefix = '') {
  const out = [];
  let keyMarker, versionIdMarker;
  for (;;) {
    const p = await store.listVersionsPage({ prefix, keyMarker, versionIdMarker });
    for (const e of p.entries) out.push([e.Key, e.VersionId]);
    if (!p.truncated) return out;
    ({ nextKeyMarker: keyMarker, nextVersionIdMarker: versionIdMarker } = p);
  }
}

async function check(layout, { storeOpts = {}, options = {}, prefix = '' } = {}) {
  const store = new FakeVersionStore(layout, storeOpts);
  const expected = await walk(store, prefix);
  expect(expected).toEqual(store.expected(prefix)); // the fake itself walks right
  const { items, listing } = await listVersions(store, { prefix, ...options });
  const got = items.map((it) => [it.Key, it.VersionId]);
  if (options.unordered) {
    // Each version once; each key's versions together and newest first.
    expect(got.length).toBe(expected.length);
    expect(new Set(got.map((g) => g.join('\0'))).size).toBe(got.length);
    expect(new Set(got.map((g) => g.join('\0')))).toEqual(new Set(expected.map((g) => g.join('\0'))));
    const runs = new Map();
    for (const [k, v] of got) { if (!runs.has(k)) runs.set(k, []); runs.get(k).push(v); }
    const want = new Map();
    for (const [k, v] of expected) { if (!want.has(k)) want.set(k, []); want.get(k).push(v); }
    expect(runs).toEqual(want);
  } else {
    expect(got).toEqual(expected);
  }
  expect(listing.complete).toBe(true);
  return { store, items, listing };
}

const many = (n, versions = () => 3) => Array.from({ length: n }, (_, i) => [`k${String(i).padStart(6, '0')}`, versions(i)]);

describe('parallel version listing: each version exactly once, in order', () => {
  test('an empty bucket', async () => {
    const { items } = await check([]);
    expect(items).toEqual([]);
  });

  test.each([
    ['one key, 1000 versions', [['only', 1000]]],
    ['one key, 1001 versions', [['only', 1001]]],
    ['one key, 2500 versions (three pages)', [['only', 2500]]],
    ['keys around a key of 1000 versions', [['a', 2], ['b', 1000], ['c', 2]]],
    ['keys around a key of 1001 versions', [['a', 999], ['b', 1001], ['c', 1]]],
    ['a page that ends exactly where a key ends', [['a', 500], ['b', 500], ['c', 3]]],
    ['1000 keys of one version each', many(1000, () => 1)],
    ['1001 keys of one version each', many(1001, () => 1)],
    ['334 keys of 3 versions (1002 versions)', many(334)],
  ])('%s', async (_, layout) => {
    for (const listConcurrency of [1, 4, 100]) {
      await check(layout, { options: { listConcurrency } });
      await check(layout, { options: { listConcurrency, unordered: true } });
    }
  });

  test('a key whose versions span many small pages, between many small keys', async () => {
    const layout = [...many(200, (i) => 1 + (i % 5)), ['m-big', 137], ...many(200, (i) => 1 + (i % 3)).map(([k, n]) => [`z${k}`, n])];
    for (const maxKeys of [1, 2, 7, 50]) {
      await check(layout, { storeOpts: { maxKeys }, options: { listConcurrency: 8 } });
      await check(layout, { storeOpts: { maxKeys, seed: maxKeys }, options: { listConcurrency: 8, unordered: true } });
    }
  });

  test('delete markers anywhere, keys that prefix others, unicode, 1024-byte keys', async () => {
    const keys = ['a', 'a/', 'a/b', 'ab', 'a'.repeat(1024), '\u{10FFFF}'.repeat(256), '\uFFFF', '\u{10000}', '\uE000', '😀x', ...adversarialKeys(400, 3)];
    const r = prng(5);
    const layout = [...new Set(keys)].map((k) => {
      const n = 1 + r.int(6);
      const markers = [];
      for (let j = 0; j < n; j++) if (r.next() < 0.3) markers.push(j);
      return [k, n, markers];
    });
    for (const maxKeys of [3, 1000]) {
      for (const listConcurrency of [1, 16, 100]) {
        await check(layout, { storeOpts: { maxKeys, seed: listConcurrency }, options: { listConcurrency } });
      }
      await check(layout, { storeOpts: { maxKeys }, options: { listConcurrency: 16, unordered: true } });
    }
  });

  test('random layouts of 5,000 to 20,000 versions, within prefixes and ranges', async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const r = prng(seed);
      const layout = [];
      for (let i = 0; i < 1500 + r.int(2000); i++) {
        const key = `${['logs/', 'img/', 'data/x/', ''][r.int(4)]}${r.int(1e6).toString(36)}${r.next() < 0.1 ? '/' : ''}`;
        layout.push([key, r.next() < 0.01 ? 1000 + r.int(1500) : 1 + r.int(6), r.next() < 0.2 ? [0] : []]);
      }
      const uniq = [...new Map(layout.map((l) => [l[0], l])).values()];
      await check(uniq, { storeOpts: { seed, maxKeys: [1000, 100, 9][seed % 3] }, options: { listConcurrency: [4, 32, 100, 8][seed - 1] } });
      await check(uniq, { storeOpts: { seed }, prefix: 'logs/', options: { listConcurrency: 16 } });
    }
  });

  test('--sequential and a start-after / stop-at range', async () => {
    const layout = many(1500, (i) => 1 + (i % 4));
    const store = new FakeVersionStore(layout, { maxKeys: 100 });
    const all = store.expected();
    const { items } = await listVersions(store, { sequential: true });
    expect(items.map((it) => [it.Key, it.VersionId])).toEqual(all);
    const ranged = await listVersions(new FakeVersionStore(layout, { maxKeys: 100 }), { startAfter: 'k000100', stopAt: 'k001200', listConcurrency: 16 });
    expect(ranged.items.map((it) => [it.Key, it.VersionId])).toEqual(all.filter(([k]) => k > 'k000100' && k <= 'k001200'));
  });

  test('IsLatest, delete markers and NoncurrentSince come through as the store listed them', async () => {
    const { items } = await check([['a', 3, [1]], ['b', 2, [0]]]);
    expect(items.map((it) => [it.Key, it.IsLatest, it.DeleteMarker])).toEqual([
      ['a', true, false], ['a', false, true], ['a', false, false], ['b', true, true], ['b', false, false],
    ]);
    expect(items[0].NoncurrentSince).toBeNull();
    expect(items[1].NoncurrentSince).toEqual(items[0].LastModified);
    expect(items[2].NoncurrentSince).toEqual(items[1].LastModified);
    expect(items[4].NoncurrentSince).toEqual(items[3].LastModified);
  });
});

describe('VersionStore pages', () => {
  test('a truncated page keeps whole keys only; a page of one key is followed to its end', async () => {
    const base = new FakeVersionStore([['a', 3], ['b', 5], ['c', 1]], { maxKeys: 4, jitter: false });
    const vs = new VersionStore(base, { stats: new RequestStats() });
    const p1 = await vs.listPage({});
    expect(p1.chunk.length).toBe(1);
    expect(p1.chunk.key(0)).toBe('a');
    expect(p1.chunk.toItems().length).toBe(3);
    expect(p1.truncated).toBe(true);
    const p2 = await vs.listPage({ startAfter: 'a' });
    expect(p2.chunk.key(0)).toBe('b');
    expect(p2.chunk.versionsOf(0).length).toBe(5); // followed past the first page of b
    expect(vs.stats.versionFollowUps).toBe(1);
    const walk2 = await vs.listPage({ continuationToken: p1.nextToken });
    expect(walk2.chunk.key(0)).toBe('b');
  });
});

describe('as of a moment', () => {
  test('the newest version at or before it; nothing where a delete marker was newest or no version yet', async () => {
    // Versions of each key are one second apart, the newest at T0 + n s (see the fake).
    const store = new FakeVersionStore([['a', 3], ['b', 3, [0]], ['c', 3, [1]], ['d', 1]]);
    const T0 = Date.parse('2024-01-01T00:00:00Z');
    const at = async (t) => {
      const listing = new Listing({ store: new FakeVersionStore([['a', 3], ['b', 3, [0]], ['c', 3, [1]], ['d', 1]]), asOf: new Date(t), splitHints: false });
      const out = [];
      for await (const page of listing.pages()) for (const it of page) out.push([it.Key, it.VersionId]);
      listing.close();
      return out;
    };
    expect(store.entries.length).toBe(10);
    expect(await at(T0)).toEqual([]);
    expect(await at(T0 + 1000)).toEqual([['a', 'v2-1-3'], ['b', 'v2-1-3'], ['c', 'v2-1-3'], ['d', 'v0-1-1']]);
    expect(await at(T0 + 2000)).toEqual([['a', 'v1-1-3'], ['b', 'v1-1-3'], ['d', 'v0-1-1']]);
    expect(await at(T0 + 2500)).toEqual([['a', 'v1-1-3'], ['b', 'v1-1-3'], ['d', 'v0-1-1']]);
    expect(await at(T0 + 3000)).toEqual([['a', 'v0-1-3'], ['c', 'v0-1-3'], ['d', 'v0-1-1']]);
  });
});

describe('a store that lists versions in UTF-16 order (s3proxy)', () => {
  test('found before output, listed again with one walk and sorted on disk: the same versions, in S3 order', async () => {
    // Within every folder, astral characters against U+E000..U+FFFF at the same position.
    const r = prng(5);
    const marks = ['\uE000', '\uFF21', '😀', '\u{10000}', 'a', 'é'];
    const keys = Array.from({ length: 1500 }, (_, i) => `d${r.int(5)}/${marks[r.int(marks.length)]}${marks[r.int(marks.length)]}-${i}`);
    const layout = keys.map((k, i) => [k, 1 + (i % 3), i % 7 === 0 ? [0] : []]);
    const store = new FakeVersionStore(layout, { utf16: true, maxKeys: 1000 });
    expect(store.entries.map((e) => e.Key)).not.toEqual(store.reference.map((e) => e.Key)); // the trap is set
    const logs = [];
    const { items, listing } = await listVersions(store, { listConcurrency: 16, log: (m) => logs.push(m) });
    expect(items.map((it) => [it.Key, it.VersionId])).toEqual(store.expected());
    expect(listing.stats.fallback).toBe('sorted');
    expect(logs.join('\n')).toMatch(/sequential walk/);
    expect(items.filter((it) => it.DeleteMarker).length).toBe(layout.filter((l) => l[2].length).length);
  });
});
