'use strict';
// Exactly-once: whatever the key set, range and store behaviour, the lister yields what a
// sequential ListObjectsV2 walk returns, each key once, in S3 order unless unordered.
const { ParallelLister, pageInOrder } = require('../../src/list/parallel-lister');
const { UntrustedStore } = require('../../src/list/untrusted-store');
const { parseListObjectsV2 } = require('../../src/stores/list-parser');
const { chunkOf } = require('../../src/stores/chunks');
const { compareKeys } = require('../../src/keys/order');
const { FakeListStore, expectListing } = require('../helpers/fake-list-store');
const { adversarialKeys, prng } = require('../helpers/keysets');
const { generators, randomRange } = require('../helpers/key-generators');
const { generateLayout } = require('../generators/layouts');

async function collect(lister) {
  const out = [];
  for await (const page of lister.pages()) for (const it of page) out.push(it.Key);
  return out;
}

async function check(keys, range, storeOpts = {}, listerOpts = {}) {
  const store = new FakeListStore(keys, storeOpts);
  const expected = store.expected(range);
  const lister = new ParallelLister(store, { ...range, listConcurrency: 16, ...listerOpts });
  const got = await collect(lister);
  expectListing(got, expected, listerOpts.ordered);
  expect(lister.complete).toBe(true);
  expect(lister.stats.keysUnique).toBe(expected.length);
  return { lister, store };
}

describe('ParallelLister exactly-once', () => {
  test('empty bucket', async () => {
    const { lister } = await check([], {});
    expect(lister.stats.listRequests).toBe(1);
  });

  test.each([1, 999, 1000, 1001, 2000, 2001])('%i keys', async (n) => {
    const keys = Array.from({ length: n }, (_, i) => `k${String(i).padStart(6, '0')}`);
    await check(keys, {});
  });

  test('U+FFFF against U+10000 and friends, across page boundaries', async () => {
    const keys = [];
    for (let i = 0; i < 3000; i++) keys.push(`${['\uFFFF', '\u{10000}', '\uE000', '😀', 'a', '\uFFFD'][i % 6]}${i}`);
    await check(keys, {}, { maxKeys: 7 });
  });

  test('keys of exactly 1024 bytes, keys that prefix others, runs of the highest characters', async () => {
    const keys = ['a', 'a/', 'a/b', 'ab', 'a'.repeat(1024), '\u{10FFFF}'.repeat(256), '\u{10FFFF}'.repeat(255), '\uFFFF'.repeat(341)];
    for (let i = 0; i < 2500; i++) keys.push('\u{10FFFF}'.repeat(1 + (i % 200)) + i);
    await check(keys, {}, { maxKeys: 50 });
  });

  const gens = Object.keys(generators);
  for (const name of gens) {
    test(`property: ${name} keys, random ranges, short pages, random completion order`, async () => {
      for (let seed = 1; seed <= 12; seed++) {
        const r = prng(seed * 7919);
        const keys = generators[name](1500 + r.int(4000), seed);
        const range = randomRange(keys, r);
        await check(keys, range,
          { seed, shortPageRate: seed % 3 === 0 ? 0.3 : 0, maxKeys: [1000, 100, 37][seed % 3] },
          { ordered: seed % 4 !== 0, listConcurrency: 1 + r.int(40), minPagesPerRange: 1 + r.int(8) });
      }
    });
  }

  test('adversarial unicode keys with every range option', async () => {
    const keys = adversarialKeys(4000, 5);
    const sorted = new FakeListStore(keys).keys;
    const r = prng(3);
    for (let t = 0; t < 10; t++) {
      const a = sorted[r.int(sorted.length)], b = sorted[r.int(sorted.length)];
      const [lo, hi] = Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0 ? [a, b] : [b, a];
      if (lo === hi) continue;
      await check(keys, { startAfter: lo, stopAt: hi }, { maxKeys: 60 });
      await check(keys, { prefix: lo.slice(0, 1) }, { maxKeys: 60 });
    }
  });
});

describe('ParallelLister behaviour', () => {
  test('a short page with IsTruncated does not end a range', async () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `x${i}`);
    await check(keys, {}, { shortPageRate: 0.9, seed: 3 });
  });

  // Falling back is the guarded lister's (guarded-lister.test.js); the lister says why.
  test('a store that lists out of order or ignores StartAfter is an UntrustedStore, naming the keys', async () => {
    const keys = Array.from({ length: 2500 }, (_, i) => `x${String(i).padStart(5, '0')}`);
    await expect(collect(new ParallelLister(new FakeListStore(keys, { unordered: true }), {})))
      .rejects.toThrow(new UntrustedStore('the store listed "x00998" after "x00999", not in S3\'s UTF-8 key order'));
    await expect(collect(new ParallelLister(new FakeListStore(keys, { ignoreStartAfter: true }), { startAfter: 'x00010' })))
      .rejects.toThrow(new UntrustedStore('the store answered StartAfter "x00010" with "x00000", which does not come after it in S3\'s UTF-8 key order'));
  });

  test('--max-list-requests stops cleanly and marks the listing incomplete', async () => {
    const keys = Array.from({ length: 20000 }, (_, i) => `k${String(i).padStart(6, '0')}`);
    const store = new FakeListStore(keys);
    const logs = [];
    const lister = new ParallelLister(store, { maxListRequests: 3, log: (m) => logs.push(m) });
    const got = await collect(lister);
    expect(lister.stats.listRequests).toBe(3);
    expect(lister.complete).toBe(false);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(keys.length);
    expect(new Set(got).size).toBe(got.length);
    expect(logs.join('')).toMatch(/incomplete/);
  });

  // A bucket of 100 pages with 100 request slots: the planner spends requests for speed
  // (about four per page here; at a million keys under two, see lister-layouts).
  test('runs requests in parallel on 100,000 keys, at a bounded cost', async () => {
    const keys = generators.hierarchical(100000, 9);
    const store = new FakeListStore(keys, { seed: 9 });
    let inflight = 0, peak = 0;
    const list = store.listPage.bind(store);
    store.listPage = async (a) => { peak = Math.max(peak, ++inflight); try { return await list(a); } finally { inflight--; } };
    const lister = new ParallelLister(store, { ordered: false });
    const got = await collect(lister);
    expect(got.length).toBe(100000);
    expect(peak).toBeGreaterThan(50);
    expect(lister.stats.efficiency).toBeGreaterThan(0.2);
  });

  // A scout begins a segment at a guessed subtree ("kq" after a page of "kp..."). Its first
  // request asks from just before the subtree ("kp" + U+10FFFF), bounded only by what the
  // segment holds, so a small subtree does not cost a request of its own; a subtree whose
  // name ends in a character below "1" is read alone (Prefix): one lower would be "/" or
  // below it ("d2." + U+10FFFF names the folder d2 to a store that lists folder by folder).
  test.each([true, false])('a scout\'s first request reads on past a small subtree (ordered: %s)', async (ordered) => {
    const base = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
    console.log(`scout-request seeds from ${base} (S3BLITZ_TEST_SEED=${base} replays them)`);
    let asked = 0, past = 0;
    // Layouts are drawn until a scout has read past a small subtree: at least 5, at most 40.
    for (let seed = base; seed < base + 40 && (seed < base + 5 || past === 0); seed++) {
      const store = new FakeListStore(generateLayout(seed, 20000, { family: 'flat' }).keys, { seed });
      const sent = [];
      const list = store.listPage.bind(store);
      store.listPage = async (a) => { const page = await list(a); sent.push({ a, page }); return page; };
      const lister = new ParallelLister(store, { listConcurrency: 16, ordered, log: () => {} });
      expectListing(await collect(lister), store.expected(), ordered);
      for (const { a, page } of sent) {
        if (!a.startAfter || !a.startAfter.endsWith('\u{10FFFF}')) continue;
        asked++;
        const head = a.startAfter.slice(0, -2);
        const c = head.charCodeAt(head.length - 1);
        expect(c).toBeGreaterThan(0x2f); // never "/" or below it before U+10FFFF
        expect(a.startAfter.startsWith(a.prefix)).toBe(true);
        // The subtree the scout guessed, and how many of the page's keys lie past it.
        const sub = head.slice(0, -1) + String.fromCharCode(c + 1);
        const keys = chunkOf(page);
        for (let k = 0; k < keys.length; k++) if (!keys.key(k).startsWith(sub) && compareKeys(keys.key(k), sub) > 0) { past++; break; }
      }
    }
    expect(asked).toBeGreaterThan(0);
    expect(past).toBeGreaterThan(0);
  });

  // A segment placed at a folder a folder listing named ("d2/") asks from just before the
  // folder's name ("d1" + U+10FFFF: never "d2" or "d2." + U+10FFFF, which a store that lists
  // folder by folder takes as "after the folder d2"), so a page reads a small folder whole
  // and goes on past it. Fresh seeds of a family of many folders, both orders: layouts are
  // drawn until one has a small folder a segment was placed at (some draws have none), at
  // least 5 and at most 40.
  test.each([true, false])('a folder segment\'s first request reads on past a small folder (ordered: %s)', async (ordered) => {
    const base = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
    console.log(`folder-request seeds from ${base} (S3BLITZ_TEST_SEED=${base} replays them)`);
    let past = 0;
    for (let seed = base; seed < base + 40 && (seed < base + 5 || past === 0); seed++) {
      const store = new FakeListStore(generateLayout(seed, 20000, { family: 'tenants' }).keys, { seed });
      const lister = new ParallelLister(store, { listConcurrency: 16, ordered, log: () => {} });
      // The first request of each segment placed at a folder (kind "folder"), and its page.
      const request = lister._request.bind(lister);
      lister._request = (args, onPage, onError) => request(args, (page) => {
        if (args.kind === 'folder' && args.fresh && args.startAfter !== undefined) {
          const { sub: folder, startAfter } = args;
          expect(folder.endsWith('/')).toBe(true);
          const c = folder.charCodeAt(folder.length - 2);
          expect(startAfter).toBe(`${folder.slice(0, -2)}${String.fromCharCode(c - 1)}\u{10FFFF}`);
          const keys = chunkOf(page);
          let inside = 0;
          for (let k = 0; k < keys.length; k++) {
            if (keys.key(k).startsWith(folder)) inside++;
            else if (inside && compareKeys(keys.key(k), folder) > 0) { past++; break; }
          }
        }
        onPage(page);
      }, onError);
      expectListing(await collect(lister), store.expected(), ordered);
    }
    expect(past).toBeGreaterThan(0);
  });

  // Keys can lie between a folder segment's StartAfter and its folder: "f2-old/…" sorts
  // after "f1" + U+10FFFF and before "f2/". When they fill its first page, the segment asks
  // for its folder alone next, never from its start (1,024 bytes of U+10FFFF), and every
  // key is still listed once.
  test.each([true, false])('a folder segment whose first page never reaches its folder asks for the folder alone (ordered: %s)', async (ordered) => {
    const keys = [];
    for (const f of ['f1', 'f2-old', 'f2', 'f3']) for (let i = 0; i < (f === 'f2-old' ? 2500 : 300); i++) keys.push(`${f}/${String(i).padStart(5, '0')}`);
    const store = new FakeListStore(keys, { seed: 7 });
    const sent = [];
    const list = store.listPage.bind(store);
    store.listPage = (a) => { sent.push(a); return list(a); };
    const lister = new ParallelLister(store, { listConcurrency: 4, ordered, folders: false, log: () => {} });
    lister._split(0, [{ key: 'f2/', folder: true, gapEnd: null }]);
    expectListing(await collect(lister), store.expected(), ordered);
    expect(sent.some((a) => a.startAfter === 'f1\u{10FFFF}')).toBe(true);
    expect(sent.some((a) => a.prefix === 'f2/' && a.startAfter === undefined)).toBe(true);
    for (const a of sent) expect((a.startAfter || '').includes('\u{10FFFF}\u{10FFFF}')).toBe(false);
  });

  test('ordered output holds a bounded number of keys back', async () => {
    const keys = generators.random(60000, 4);
    const store = new FakeListStore(keys, { seed: 4 });
    const lister = new ParallelLister(store, { reorderWindow: 5000, listConcurrency: 50 });
    let maxHeld = 0;
    for await (const page of lister.pages()) { void page; maxHeld = Math.max(maxHeld, lister.buffered); }
    // The window bounds what new requests may add; requests in flight can add one page each.
    expect(maxHeld).toBeLessThan(5000 + 50 * 1000);
  });

  test('ordered output holds back keys by their bytes where keys are long', async () => {
    const keys = generators.random(40000, 5).map((k) => `${'\u00e9'.repeat(400)}/${k}`); // 800+ bytes each, held
    const held = async (options) => {
      const lister = new ParallelLister(new FakeListStore(keys, { seed: 5 }), { listConcurrency: 10, ...options });
      let maxHeld = 0;
      for await (const page of lister.pages()) { void page; maxHeld = Math.max(maxHeld, lister.buffered); }
      return { maxHeld, window: lister.window };
    };
    const capped = await held({ windowBytes: 2 * 1024 * 1024 });
    expect(capped.window).toBeLessThan(2 * 1024 * 1024 / 800);
    expect(capped.maxHeld).toBeLessThan(capped.window + 10 * 1000); // and a page for each request in flight
    // The same listing with the window in keys alone holds far more: the cap is what bound it.
    const uncapped = await held({ windowBytes: 1e12 });
    expect(uncapped.maxHeld).toBeGreaterThan(capped.window + 10 * 1000);
  });

  test('an aborted signal stops the listing', async () => {
    const keys = Array.from({ length: 50000 }, (_, i) => `k${i}`);
    const store = new FakeListStore(keys);
    const ac = new AbortController();
    const lister = new ParallelLister(store, { signal: ac.signal });
    let n = 0;
    await expect((async () => { for await (const p of lister.pages()) { n += p.length; if (n > 2000) ac.abort(new Error('stop')); } })()).rejects.toThrow('stop');
  });
});

test('pageInOrder: a page the parser saw increasing is still checked against StartAfter and the prefix', () => {
  const lean = (...keys) => parseListObjectsV2(`<ListBucketResult>${keys.map((k) => `<Contents><Key>${k}</Key><Size>1</Size></Contents>`).join('')}</ListBucketResult>`);
  const plain = (...keys) => ({ items: keys.map((Key) => ({ Key })) });
  for (const page of [lean, plain]) {
    expect(pageInOrder(page('p/a', 'p/b', 'p/c'), '', 'p/')).toBe(true);
    expect(pageInOrder(page('p/a', 'p/b', 'p/c'), 'p/', 'p/')).toBe(true);
    expect(pageInOrder(page('p/a', 'p/b'), 'p/a', 'p/')).toBe(false); // not after StartAfter
    expect(pageInOrder(page('p/b', 'p/c'), 'p/c', 'p/')).toBe(false);
    expect(pageInOrder(page('o/z', 'p/a'), '', 'p/')).toBe(false); // first outside the prefix
    expect(pageInOrder(page('p/z', 'q/a'), '', 'p/')).toBe(false); // last outside the prefix
    expect(pageInOrder(page('p/b', 'p/a'), '', 'p/')).toBe(false); // decreasing
    expect(pageInOrder(page(), 'x', 'p/')).toBe(true);
  }
  expect(lean('p/a', 'p/b').sorted).toBe(true);
  expect(lean('p/b', 'p/a').sorted).toBeUndefined();
});
