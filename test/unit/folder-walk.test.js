'use strict';
// The folder walk yields exactly what a sequential walk returns, each key once, for trees
// of folders with awkward names (characters that sort below and above '/', folder
// markers, keys beside folders), any range, short pages and random completion order.
const { FolderWalk } = require('../../src/list/folder-walk');
const { FakeListStore, expectListing } = require('../helpers/fake-list-store');
const { prng } = require('../helpers/keysets');
const { randomRange } = require('../helpers/key-generators');

// Folders two to four deep, many of the leaves big enough for the walk to be taken.
function tree(seed, { firstLeaf = 1200 } = {}) {
  const r = prng(seed);
  const names = ['a', 'b', 'b0', 'b!', 'é', '中', '😀', '\uFFFF', '\u{10000}', 'x y', '-', '.a', '~'];
  const keys = [];
  const depth = 2 + r.int(3);
  const walk = (path, level) => {
    const fan = 1 + r.int(4);
    for (let f = 0; f < fan; f++) {
      const dir = `${path}${r.pick(names)}${r.int(3) || ''}/`;
      if (level + 1 < depth) walk(dir, level + 1);
      else {
        const n = keys.length === 0 ? firstLeaf : r.int(2) ? 600 + r.int(1500) : r.int(300);
        for (let i = 0; i < n; i++) keys.push(`${dir}${String(i).padStart(5, '0')}${r.int(9) ? '' : '/deeper'}`);
      }
      if (r.int(4) === 0) keys.push(dir); // a folder marker object
      if (r.int(4) === 0) keys.push(`${dir.slice(0, -1)}`); // a key named like the folder
      if (r.int(4) === 0) keys.push(`${dir.slice(0, -1)}0`); // sorts after the whole folder
    }
  };
  walk('top/', 0);
  keys.push('top0', 'top0/x');
  return keys;
}

async function check(keys, range, storeOpts = {}, walkOpts = {}) {
  const store = new FakeListStore(keys, storeOpts);
  const expected = store.expected(range);
  const walk = new FolderWalk(store, { ...range, listConcurrency: 16, ...walkOpts });
  const got = [];
  for await (const page of walk.pages()) for (const it of page) got.push(it.Key);
  expectListing(got, expected, walkOpts.ordered);
  expect(walk.complete).toBe(true);
  expect(walk.stats.keysUnique).toBe(expected.length);
  expect(walk.gate.inflight).toBe(0);
  expect(walk.gate.demand).toBe(0);
  return walk;
}

describe('FolderWalk exactly-once', () => {
  test('property: trees of folders, random ranges, short pages, random completion order', async () => {
    let walked = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const r = prng(seed * 104729);
      const keys = tree(seed);
      const range = seed % 3 === 0 ? {} : seed % 3 === 1 ? { prefix: 'top/' } : randomRange(keys, r);
      const walk = await check(keys, range,
        { seed, shortPageRate: seed % 5 === 0 ? 0.3 : 0, maxKeys: [1000, 100, 37][seed % 3] },
        { ordered: seed % 2 === 0, listConcurrency: 1 + r.int(40) });
      if (walk.lister === null) walked++;
    }
    // Not a vacuous pass: many of these runs really walked the folders.
    expect(walked).toBeGreaterThan(10);
  });

  test('an empty listing, and one past --stop-at', async () => {
    const empty = await check([], {});
    expect(empty.stats.listRequests).toBe(1);
    await check(['b/1', 'b/2'], { stopAt: 'a' });
    await check(['b/1', 'b/2'], { prefix: 'c/' });
  });

  test('--stop-at on the last key of the first page, or of a folder page', async () => {
    const keys = tree(11, { firstLeaf: 2500 });
    const sorted = new FakeListStore(keys).keys;
    for (const stopAt of [sorted[999], sorted[1999], sorted[sorted.length - 1]]) {
      for (const ordered of [true, false]) await check(keys, { stopAt }, {}, { ordered });
    }
  });

  test('a delimiter listing longer than one page is read to its end', async () => {
    const keys = [];
    for (let i = 0; i < 1500; i++) keys.push(`logs/a/big/${String(i).padStart(5, '0')}`);
    for (let d = 0; d < 300; d++) for (let i = 0; i < 3; i++) keys.push(`logs/b/d${String(d).padStart(3, '0')}/${i}`);
    for (const ordered of [true, false]) {
      const walk = await check(keys, {}, { maxKeys: 100 }, { ordered });
      expect(walk.lister).toBe(null);
    }
  });

  test('one request per folder page on a bench-like tree: no page overlaps another', async () => {
    // logs/MM/DD/host-N/: 4 x 5 x 4 leaf folders of exactly 1000 keys.
    const keys = [];
    for (let m = 1; m <= 4; m++) for (let d = 1; d <= 5; d++) for (let h = 0; h < 4; h++) {
      for (let p = 0; p < 1000; p++) keys.push(`logs/0${m}/0${d}/host-${h}/part-${String(p).padStart(4, '0')}.gz`);
    }
    for (const ordered of [true, false]) {
      const walk = await check(keys, {}, {}, { ordered, listConcurrency: 100 });
      expect(walk.stats.overlap).toBe(0);
      // 80 leaf pages, plus the delimiter listings: at most one per folder above the leaves
      // (1 + 4 + 20) and one per ancestor of the first page (3), plus the first leaf's rest.
      expect(walk.stats.listRequests).toBeLessThanOrEqual(80 + 25 + 3 + 1);
    }
  });

  test('leaf parents after the first are read with its page ends as split points, not opened', async () => {
    // logs/dNN/host-N/: 40 day folders of 6 host folders of exactly one page.
    const keys = [];
    for (let d = 0; d < 40; d++) for (let h = 0; h < 6; h++) {
      for (let p = 0; p < 1000; p++) keys.push(`logs/d${String(d).padStart(2, '0')}/host-${h}/${String(p).padStart(4, '0')}`);
    }
    for (const ordered of [true, false]) {
      const walk = await check(keys, {}, {}, { ordered, listConcurrency: 16 });
      expect(walk.stats.overlap).toBe(0);
      // 240 leaf pages; few day folders are opened before the first one read whole teaches
      // the rest where their pages end.
      // (Ordered, every one of the 40 would be opened without it.)
      expect(walk.stats.folderListings).toBeLessThanOrEqual(20);
      expect(walk.stats.listRequests).toBeLessThanOrEqual(240 + 20 + 1);
      // Finished parts let go of their listers, whose segment cursors are keys sliced from
      // whole pages (keeping them was 565 MB instead of 207 MB in a 10M-key summarize).
      expect(walk.parts.filter((p) => p.kind === 'lister' && p.lister !== null)).toEqual([]);
    }
  });

  test('a template that fits the later folders badly still lists each key exactly once', async () => {
    // The first day teaches host-0..host-3 of 1000 keys; later days have other hosts,
    // other sizes, keys between the folders and folders named just past the guessed ones.
    const r = prng(99);
    const keys = [];
    for (let h = 0; h < 4; h++) for (let p = 0; p < 1000; p++) keys.push(`logs/d00/host-${h}/${String(p).padStart(4, '0')}`);
    for (let d = 1; d < 25; d++) {
      const day = `logs/d${String(d).padStart(2, '0')}/`;
      for (const host of ['host-0', 'host-0a', 'host-1', 'host-15', 'host-3', 'host-9', 'é'].filter(() => r.int(3))) {
        const n = [0, 1, 999, 1000, 1001, 2500][r.int(6)];
        for (let p = 0; p < n; p++) keys.push(`${day}${host}/${String(p).padStart(4, '0')}`);
        if (r.int(2)) keys.push(`${day}${host}.txt`, `${day}${host}`);
      }
    }
    for (const [i, range] of [{}, { startAfter: 'logs/d07/host-1/0500' }, { stopAt: 'logs/d19/host-15/0999' }, randomRange(keys, r)].entries()) {
      for (const ordered of [true, false]) {
        await check(keys, range, { seed: i + 1, shortPageRate: i === 3 ? 0.2 : 0 }, { ordered, listConcurrency: 1 + r.int(60) });
      }
    }
  });

  test('unordered, the last leaf parents are opened, so none is read host after host at the end', async () => {
    // logs/dNNN/host-N/: 125 day folders of 8 one-page host folders, 100 requests at once,
    // as in the benchmark. A day folder read without opening it takes 8 round trips; started
    // last, such folders ran nearly alone at the end (summarize of 1M keys: 270,000 keys/s
    // with that tail, 300,000 without it).
    const keys = [];
    for (let d = 0; d < 125; d++) for (let h = 0; h < 8; h++) {
      for (let p = 0; p < 200; p++) keys.push(`logs/d${String(d).padStart(3, '0')}/host-${h}/${String(p).padStart(4, '0')}`);
    }
    const store = new FakeListStore(keys, { rounds: true, maxKeys: 200 });
    const opened = new Set();
    const list = store.listPage.bind(store);
    store.listPage = (a) => { if (a.delimiter && /^logs\/d\d+\/$/.test(a.prefix)) opened.add(a.prefix); return list(a); };
    const walk = new FolderWalk(store, { listConcurrency: 100, ordered: false });
    const got = [];
    for await (const page of walk.pages()) for (const it of page) got.push(it.Key);
    expectListing(got, store.expected({}), false);
    // The last 100 / 8 = 12 day folders are opened; the rest, while slots were busy, were not.
    for (let d = 113; d < 125; d++) expect(opened.has(`logs/d${d}/`)).toBe(true);
    expect(opened.size).toBeLessThanOrEqual(20);
    expect(walk.stats.listRequests).toBeLessThanOrEqual(1000 + 20 + 3);
    expect(store.round).toBeLessThanOrEqual(16);
  });

  test('flat keys and small listings go to the ParallelLister', async () => {
    const flat = Array.from({ length: 3000 }, (_, i) => `k${String(i).padStart(5, '0')}`);
    const walk = await check(flat, {});
    expect(walk.lister).not.toBe(null);
    const small = await check(tree(3, { firstLeaf: 10 }).slice(0, 900), {});
    expect(small.stats.listRequests).toBe(1);
  });

  test('a store without folder listings is never asked for one', async () => {
    const store = new FakeListStore(tree(5));
    store.delimiters = false;
    const seen = [];
    const orig = store.listPage.bind(store);
    store.listPage = (a) => { seen.push(a.delimiter); return orig(a); };
    const walk = new FolderWalk(store, { listConcurrency: 8 });
    let n = 0;
    for await (const page of walk.pages()) n += page.length;
    expect(n).toBe(store.keys.length);
    expect(seen.every((d) => d === undefined)).toBe(true);
  });

  test('--max-list-requests stops the walk cleanly, incomplete', async () => {
    const keys = tree(7, { firstLeaf: 3000 });
    const store = new FakeListStore(keys, { maxKeys: 100 });
    const logs = [];
    const walk = new FolderWalk(store, { maxListRequests: 12, listConcurrency: 8, log: (m) => logs.push(m) });
    const got = [];
    for await (const page of walk.pages()) for (const it of page) got.push(it.Key);
    expect(walk.complete).toBe(false);
    expect(walk.stats.listRequests).toBeLessThanOrEqual(12);
    expect(new Set(got).size).toBe(got.length);
    // In order, each key once, none made up (an incomplete listing may skip ranges).
    const all = new Set(store.keys);
    expect(got.every((k, i) => all.has(k) && (i === 0 || Buffer.compare(Buffer.from(got[i - 1]), Buffer.from(k)) < 0))).toBe(true);
    expect(got.length).toBeGreaterThan(0);
    expect(logs.join('\n')).toMatch(/max-list-requests/);
  });

  test('an aborted signal stops the walk', async () => {
    const ac = new AbortController();
    const store = new FakeListStore(tree(9, { firstLeaf: 3000 }), { maxKeys: 50 });
    const walk = new FolderWalk(store, { listConcurrency: 8, signal: ac.signal });
    let pages = 0;
    await expect((async () => {
      for await (const page of walk.pages()) { if (page.length && ++pages === 3) ac.abort(new Error('stop')); }
    })()).rejects.toThrow('stop');
  });
});
