'use strict';
// Stores whose listings cannot be taken as they come: the guarded lister finds them before
// anything is output and lists them again with one sequential walk (sorted on disk when
// the output must be in key order); the parallel lister never hands out a wrong or missing
// key without saying so.
const { GuardedLister, canaryProbes } = require('../../src/list/guarded-lister');
const { ParallelLister } = require('../../src/list/parallel-lister');
const { UntrustedStore } = require('../../src/list/untrusted-store');
const { normalizeRange } = require('../../src/keys/range');
const { ItemChunk } = require('../../src/stores/chunks');
const { FakeListStore, expectListing } = require('../helpers/fake-list-store');
const { generators } = require('../helpers/key-generators');
const { prng } = require('../helpers/keysets');

async function collect(lister) {
  const out = [];
  for await (const chunk of lister.chunks()) for (const it of chunk.toItems()) out.push(it.Key);
  return out;
}

function guarded(store, { ordered = true, ...range } = {}, opts = {}) {
  const logs = [];
  const lister = new GuardedLister(store, { range: normalizeRange(range), ordered, listConcurrency: 16, log: (m) => logs.push(m), ...opts });
  return { lister, logs };
}

// Keys where UTF-16 and UTF-8 order disagree: astral characters against U+E000..U+FFFF.
function utf16Trap(n, seed) {
  const r = prng(seed);
  const marks = ['\uE000', '\uFF21', '😀', '\u{10000}', 'a', 'é'];
  return Array.from({ length: n }, (_, i) => `d${r.int(5)}/${marks[r.int(marks.length)]}${marks[r.int(marks.length)]}-${i}`);
}

// A tree whose folder names are also what the lister probes with (logs/2024/02 ...).
function tree(n) {
  const keys = [];
  for (let i = 0; keys.length < n; i++) keys.push(`logs/2024/${String(1 + (i % 12)).padStart(2, '0')}/${String(1 + ((i >> 4) % 28)).padStart(2, '0')}/part-${i}.gz`);
  return keys;
}

describe('stores found untrustworthy before output', () => {
  test.each([true, false])('a store that lists pages backwards (ordered %s): listed again, every key once', async (ordered) => {
    const keys = Array.from({ length: 2500 }, (_, i) => `x${String(i).padStart(5, '0')}`);
    const store = new FakeListStore(keys, { unordered: true });
    const { lister, logs } = guarded(store, { ordered });
    expectListing(await collect(lister), store.expected(), ordered);
    expect(lister.complete).toBe(true);
    expect(lister.stats.fallback).toBe(ordered ? 'sorted' : 'sequential');
    expect(logs.join('\n')).toMatch(ordered ? /not in S3's UTF-8 key order: listing it again with one sequential walk, sorted on disk/ : /sequential walk$/);
  });

  test('a store that ignores StartAfter, with a range', async () => {
    const keys = Array.from({ length: 2500 }, (_, i) => `x${String(i).padStart(5, '0')}`);
    const store = new FakeListStore(keys, { ignoreStartAfter: true });
    const { lister } = guarded(store, { startAfter: 'x00010', stopAt: 'x02000' });
    expect(await collect(lister)).toEqual(keys.slice(11, 2001));
    expect(lister.stats.fallback).toBe('sorted');
  });

  test.each([true, false])('a store that lists in UTF-16 order (s3proxy), ordered %s: keys in S3 order, each once', async (ordered) => {
    const keys = utf16Trap(3000, 5);
    const store = new FakeListStore(keys, { utf16: true, maxKeys: 1000 });
    expect(store.served).not.toEqual(store.keys); // the trap is set
    const { lister, logs } = guarded(store, { ordered });
    expectListing(await collect(lister), store.expected(), ordered);
    expect(logs).toHaveLength(1);
  });

  test('a store that skips a folder when StartAfter names it (SeaweedFS): the canary finds it first', async () => {
    const keys = tree(20000);
    const store = new FakeListStore(keys, { folderStartAfterBug: true });
    for (const ordered of [true, false]) {
      const { lister, logs } = guarded(store, { ordered });
      expectListing(await collect(lister), store.expected(), ordered);
      // The canary (a folder's name, or the greatest key before a folder: "logs." and
      // U+10FFFF) or the agreement of overlapping pages, whichever comes first.
      expect(logs.join('\n')).toMatch(/^the store( answered StartAfter "(logs\/2024\/\d\d(\/\d\d)?|[^"]*\.\u{10FFFF})" with ("[^"]+"|nothing), where "[^"]+" comes first|'s listings disagree, twice: .*): its StartAfter cannot be trusted: listing it again/u);
    }
  });

  test('the first keys are held back: a store found out in its fifth page has output nothing', async () => {
    const keys = Array.from({ length: 20000 }, (_, i) => `k${String(i).padStart(6, '0')}`);
    const store = new FakeListStore(keys, { jitter: false });
    const list = store.listPage.bind(store);
    let n = 0;
    store.listPage = async (a) => { const p = await list(a); if (p.items.length > 1 && ++n === 5) p.items.reverse(); return p; };
    const { lister } = guarded(store);
    const chunks = [];
    for await (const c of lister.chunks()) chunks.push(c.length);
    expect(chunks.reduce((a, b) => a + b, 0)).toBe(20000); // nothing twice, nothing lost
    expect(lister.stats.fallback).toBe('sorted');
  });

  test('found after output began: a fatal error that says so, never a wrong listing', async () => {
    const keys = Array.from({ length: 120000 }, (_, i) => `k${String(i).padStart(6, '0')}`);
    const store = new FakeListStore(keys, { jitter: false });
    const list = store.listPage.bind(store);
    let n = 0;
    store.listPage = async (a) => { const p = await list(a); if (++n > 100) p.items.reverse(); return p; };
    const { lister } = guarded(store, {}, { listConcurrency: 4 });
    const got = [];
    await expect((async () => { for await (const c of lister.chunks()) for (const it of c.toItems()) got.push(it.Key); })())
      .rejects.toThrow(/not in S3's UTF-8 key order; found after output began: what was output is right, but the listing stopped \(rerun with --sequential\)/);
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(keys.slice(0, got.length));
  });
});

test('--sequential in key order sorts on disk, so even a UTF-16 store comes out right', async () => {
  const keys = utf16Trap(2500, 9);
  const store = new FakeListStore(keys, { utf16: true, maxKeys: 300 });
  const { lister } = guarded(store, {}, { sequential: true });
  expect(await collect(lister)).toEqual(store.expected());
  expect(lister.stats.fallback).toBeNull();
  const unordered = guarded(store, { ordered: false }, { sequential: true }).lister;
  expect(await collect(unordered)).toEqual(store.served); // as the store lists them
});

describe('the parallel lister never loses a key silently to a StartAfter bug', () => {
  // Stores that skip keys after some StartAfter values: SeaweedFS skips a folder named by
  // it; worse, one that skips every key the StartAfter begins. The lister reads subtrees
  // with Prefix and goes on from keys it has seen, so SeaweedFS's bug never bites its own
  // requests; the worse one can (where it cuts a folder of random names), and is caught.
  const flat = (n, seed) => generators.random(n, seed).map((k, i) => `uploads/${'abcd'[i % 4]}${k}`);
  test.each([['folderStartAfterBug', false], ['prefixStartAfterBug', true]])('%s: trees and flat folders, many seeds: every key once, or caught', async (bug, mayCatch) => {
    let caught = 0;
    for (let seed = 1; seed <= 6; seed++) {
      for (const keys of [tree(20000 + seed * 1000), flat(20000 + seed * 1000, seed)]) {
        const store = new FakeListStore(keys, { [bug]: true, seed });
        const ordered = seed % 2 === 0;
        try {
          expectListing(await collect(new ParallelLister(store, { listConcurrency: 4 + ((seed * 7) % 40), ordered, log: () => {} })), store.expected(), ordered);
        } catch (err) {
          if (!(err instanceof UntrustedStore) || !mayCatch) throw err;
          expect(err.message).toMatch(/^the store's listings disagree, twice: .*: its StartAfter cannot be trusted$/);
          caught++;
        }
      }
    }
    if (!mayCatch) expect(caught).toBe(0);
  });

  // ... but split points given from outside (hints) are StartAfter values like any, and
  // where a page runs past its segment into the next, the two must agree. Every run lists
  // exactly, or fails naming the disagreement.
  const hinted = (seed) => ({ store: new FakeListStore(flat(20000 + seed * 1000, seed), { prefixStartAfterBug: true, seed }), splitPoints: ['uploads/b', 'uploads/c', 'uploads/d'] });
  const options = (seed) => ({ listConcurrency: 4 + ((seed * 7) % 40), ordered: seed % 2 === 0, log: () => {} });

  test('split points that the store mishandles: caught, never lost', async () => {
    const seen = { exact: 0, caught: 0 };
    for (let seed = 1; seed <= 8; seed++) {
      const { store, splitPoints } = hinted(seed);
      const lister = new ParallelLister(store, { ...options(seed), splitPoints });
      try {
        expectListing(await collect(lister), store.expected(), seed % 2 === 0);
        seen.exact++;
      } catch (err) {
        if (!(err instanceof UntrustedStore)) throw err;
        expect(err.message).toMatch(/^the store's listings disagree, twice: asked for the keys after "uploads\/[bcd]" it skips "uploads\/[bcd][0-9a-z]+", which it lists (after|with the prefix) "[^"]*": its StartAfter cannot be trusted$/);
        seen.caught++;
      }
    }
    expect(seen.caught).toBeGreaterThanOrEqual(1); // the bug bites here
  });

  test('negative control: without the agreement check the same runs lose keys', async () => {
    const original = ParallelLister.prototype._record;
    ParallelLister.prototype._record = () => {};
    try {
      let lost = 0;
      for (let seed = 1; seed <= 8; seed++) {
        const { store, splitPoints } = hinted(seed);
        if ((await collect(new ParallelLister(store, { ...options(seed), splitPoints }))).length < store.keys.length) lost++;
      }
      expect(lost).toBeGreaterThan(0);
    } finally {
      ParallelLister.prototype._record = original;
    }
  });

  test('keys written while the bucket is listed: pages asked again agree, nothing fails', async () => {
    const keys = generators.random(30000, 3);
    const store = new FakeListStore(keys, { seed: 3 });
    const list = store.listPage.bind(store);
    let n = 0;
    const added = [];
    // Every 20th request, a new key lands just after the StartAfter of the next one.
    store.listPage = async (a) => {
      if (a.startAfter && ++n % 20 === 0) {
        const k = `${a.startAfter}~new`;
        added.push(k);
        store.setKeys([...store.keys, k]);
      }
      return list(a);
    };
    const lister = new ParallelLister(store, { listConcurrency: 32, ordered: false, log: () => {} });
    const got = await collect(lister);
    expect(new Set(got).size).toBe(got.length);
    const seen = new Set(got);
    expect(keys.every((k) => seen.has(k))).toBe(true); // every key there from start to end
    expect(added.length).toBeGreaterThan(0);
  });
});

test('canary probes: folders that begin between two neighbours, with the key that must follow', () => {
  const chunk = (...keys) => new ItemChunk(keys.map((Key) => ({ Key })));
  expect(canaryProbes(chunk('logs/2024/02/28/x', 'logs/2024/03/01/a'), '', '')).toEqual([
    { folder: 'logs/2024/03', expect: 'logs/2024/03/01/a' },
    { folder: 'logs/2024/03/01', expect: 'logs/2024/03/01/a' },
  ]);
  expect(canaryProbes(chunk('a/x', 'a/y', 'b'), '', '')).toEqual([]); // no folder begins here
  expect(canaryProbes(chunk('p/a/1', 'p/b/1'), 'p/', '')).toEqual([{ folder: 'p/b', expect: 'p/b/1' }]);
  expect(canaryProbes(chunk('a/x', 'b/../c'), '', '')).toEqual([{ folder: 'b', expect: 'b/../c' }]); // not b/..: MinIO refuses it
});
