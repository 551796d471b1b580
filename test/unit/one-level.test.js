'use strict';
// ls --delimiter / (stages/one-level.js): one level of a folder, on generated levels, against
// a reference made from the keys alone (each key's first name below the prefix, folders
// rolled up, in UTF-8 byte order by Buffer.compare): every entry exactly once, in order,
// whatever the names' alphabet, the level's width, the store's page sizes and the number of
// ranges listed at once. Levels wider than a page are cut into ranges; on the virtual clock
// they take fewer round trips than a sequential walk.
const { FakeListStore } = require('../helpers/fake-list-store');
const { levelEntries } = require('../../src/stages/one-level');
const { RequestStats } = require('../../src/stats');
const { prng } = require('../generators/prng');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`one-level seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const byBytes = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

// Name makers: numbered (padded or not), hex, words with separators below "/", mixed scripts.
const WORDS = ['data', 'log', 'img', 'a', 'b', 'x', 'report', 'café', '中文', 'Ωμέγα', '😀', 'z-1', 'z.2', 'z_3', 'Z'];
const MAKERS = {
  padded: (r, i) => `part-${String(i).padStart(7, '0')}.gz`,
  numbers: (r, i) => `${i}`,
  hex: (r) => r.bytes(6).toString('hex'),
  words: (r) => Array.from({ length: 1 + r.int(3) }, () => r.pick(WORDS)).join(r.pick(['-', '.', '_', ' ', ''])) + r.int(1000),
  mixed: (r, i) => (r.next() < 0.5 ? r.bytes(4).toString('hex') : `${r.pick(WORDS)}${i}`),
};

// A level under "lvl/": n objects and f folders (each holding one to three keys), a sibling
// that shares the level's name ("lvl-old") and keys elsewhere.
function level(r, kind, n, f) {
  const make = MAKERS[kind];
  const names = new Set();
  for (let i = 0; names.size < n + f && i < 10 * (n + f); i++) names.add(make(r, i));
  const list = [...names];
  const keys = [];
  list.slice(0, n).forEach((name) => keys.push(`lvl/${name}`));
  list.slice(n).forEach((name) => { for (let j = 0, m = 1 + r.int(3); j < m; j++) keys.push(`lvl/${name}/${j}/k`); });
  keys.push('lvl-old', 'other/x', 'lvl/');
  // A name both an object and a folder is fine in S3: both entries show.
  return keys;
}

function reference(keys, prefix) {
  const out = new Set();
  for (const k of keys) {
    if (!k.startsWith(prefix)) continue;
    const i = k.indexOf('/', prefix.length);
    out.add(i < 0 ? k : k.slice(0, i + 1));
  }
  return [...out].sort(byBytes);
}

async function list(store, prefix, listConcurrency, extra = {}) {
  const stats = new RequestStats();
  const got = [];
  for await (const e of levelEntries({ store, prefix, delimiter: '/', listConcurrency, stats, ...extra })) got.push(e.Prefix !== undefined ? e.Prefix : e.Key);
  return { got, stats };
}

describe(`generated levels (seed ${SEED})`, () => {
  const r = prng(SEED);
  const cases = Array.from({ length: 12 }, (_, i) => {
    const kind = Object.keys(MAKERS)[i % 5];
    const width = [0, 5, 999, 1001, 2500, 12000][r.int(6)];
    return { kind, n: width, f: r.int(Math.max(1, width / 10)), concurrency: [1, 4, 20, 100][r.int(4)], shortPages: r.next() < 0.3 ? 0.3 : 0, seed: r.int(1e9) };
  });
  test.each(cases.map((c) => [`${c.kind}: ${c.n} objects, ${c.f} folders, concurrency ${c.concurrency}${c.shortPages ? ', short pages' : ''}`, c]))('%s', async (_, c) => {
    const keys = level(prng(c.seed), c.kind, c.n, c.f);
    const store = new FakeListStore(keys, { seed: c.seed, shortPageRate: c.shortPages });
    const { got } = await list(store, 'lvl/', c.concurrency);
    expect(got).toEqual(reference(keys, 'lvl/'));
  });
});

test('a level of one page costs one request; a wide one is cut into ranges and takes far fewer round trips than pages', async () => {
  const r = prng(SEED + 1);
  const small = new FakeListStore(level(r, 'hex', 900, 50), { rounds: true });
  expect((await list(small, 'lvl/', 100)).stats.listRequests).toBe(1);
  for (const kind of ['padded', 'hex', 'words']) {
    const keys = level(prng(SEED + 2), kind, 60000, 500);
    const store = new FakeListStore(keys, { rounds: true });
    const { got, stats } = await list(store, 'lvl/', 100);
    expect(got).toEqual(reference(keys, 'lvl/'));
    const pages = Math.ceil(got.length / 1000);
    console.log(`one-level ${kind}: ${got.length} entries (${pages} pages) in ${store.round} round trips and ${stats.listRequests} requests`);
    expect(store.round).toBeLessThan(pages / 2);
    expect(stats.listRequests).toBeLessThan(4 * pages);
  }
});

test('fixed cases: bounds beside names with characters below "/", a folder named by StartAfter, a store that goes back', async () => {
  const keys = ['d/a', 'd/a-x', 'd/a.y', 'd/a/', 'd/a/b', 'd/a0', 'd/ab/c', 'd/\uFF21', 'd/\u{1F600}/x', 'd/\uE000', 'e'];
  for (const c of [1, 3, 100]) {
    const store = new FakeListStore(keys, { maxKeys: 2 });
    expect((await list(store, 'd/', c)).got).toEqual(reference(keys, 'd/'));
  }
  const after = new FakeListStore(keys, { maxKeys: 2 });
  expect((await list(after, 'd/', 4, { startAfter: 'd/a/' })).got).toEqual(reference(keys, 'd/').filter((k) => byBytes(k, 'd/a/') > 0));
  const back = new FakeListStore(keys, { maxKeys: 3, unordered: true });
  await expect(list(back, 'd/', 4)).rejects.toThrow(/went back from/);
});
