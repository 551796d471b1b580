'use strict';
// A range's own start (--start-after, a shard's or lane's bound, a resume watermark) on
// stores that order keys their own way: the keys of the range exactly, whatever the store
// (checked against the keys filtered by their UTF-8 bytes), or the store found out first.
// Generated: key sets with folders beside names that go on with characters below "/" and
// characters whose UTF-16 and UTF-8 order differ, ranges that start and end at folder names,
// real keys, and made-up keys between them. A fresh seed each run (printed); replay one with
// S3BLITZ_TEST_SEED=n.
const { GuardedLister } = require('../../src/list/guarded-lister');
const { SequentialWalk } = require('../../src/list/sequential-walk');
const { wireRange, walkPrefix, startProbes } = require('../../src/list/start-check');
const { normalizeRange } = require('../../src/keys/range');
const { FakeListStore, expectListing } = require('../helpers/fake-list-store');
const { prng } = require('../helpers/keysets');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 1e6);
// eslint-disable-next-line no-console
console.log(`start-check: seed ${SEED} (replay with S3BLITZ_TEST_SEED=${SEED})`);

const byUtf8 = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

// Names that go on past a folder's name with characters below "/" ("d-2", "d.x", "d 1"), with
// characters whose place UTF-16 and UTF-8 disagree on, and plain ones.
const TAILS = ['', '-2', '.x', ' 1', '!', '-', 'a', 'Z', '\uFF21', '\uE000', '\u{1F600}', '\u{10000}', 'é', '0'];
function keySet(r, n) {
  const keys = new Set();
  const name = () => ['d', 'data', 'ord', 'x'][r.int(4)] + TAILS[r.int(TAILS.length)];
  while (keys.size < n) {
    const depth = 1 + r.int(3);
    const parts = [];
    for (let i = 0; i < depth; i++) parts.push(name());
    let k = parts.join('/');
    if (r.next() < 0.15) k += '/'; // a folder object
    keys.add(k);
  }
  return [...keys];
}

// A bound: a key of the set, a folder's name, or a key made up between others.
function bound(r, keys) {
  const k = keys[r.int(keys.length)];
  const x = r.next();
  if (x < 0.35) return k;
  const slashes = [...k.matchAll(/\//g)].map((m) => m.index);
  if (x < 0.7 && slashes.length) return k.slice(0, slashes[r.int(slashes.length)]); // a folder's name
  const cps = Array.from(k); // never half of a surrogate pair
  return cps.slice(0, 1 + r.int(cps.length)).join('') + TAILS[r.int(TAILS.length)];
}

function rangeOf(r, keys) {
  const a = bound(r, keys), b = bound(r, keys);
  const [lo, hi] = byUtf8(a, b) < 0 ? [a, b] : [b, a];
  if (lo === hi) return { startAfter: lo };
  const x = r.next();
  const prefix = x < 0.2 ? lo.slice(0, lo.indexOf('/') + 1) : '';
  return { prefix: hi.startsWith(prefix) ? prefix : '', startAfter: x < 0.9 ? lo : undefined, stopAt: x > 0.1 ? hi : undefined };
}

const STORES = {
  's3 (UTF-8)': {},
  's3proxy (UTF-16)': { utf16: true },
  'SeaweedFS (folder by folder, skips a folder StartAfter names)': { treeOrder: true, folderStartAfterBug: true },
  'folder by folder': { treeOrder: true },
  'skips a folder StartAfter names': { folderStartAfterBug: true },
};

async function collect(lister) {
  const out = [];
  for await (const chunk of lister.chunks()) for (const it of chunk.toItems()) out.push(it.Key);
  return out;
}

describe('a range on every kind of store: exactly its keys', () => {
  test.each(Object.entries(STORES))('%s', async (name, quirks) => {
    const r = prng(SEED + name.length);
    let fallbacks = 0, ranges = 0, stopped = 0;
    for (let round = 0; round < 6; round++) {
      const keys = keySet(r, 150 + r.int(400));
      // Short pages, so ranges cross page ends.
      const store = new FakeListStore(keys, { ...quirks, maxKeys: 7 + r.int(40), seed: SEED + round });
      for (let i = 0; i < 12; i++) {
        const range = rangeOf(r, keys);
        const ordered = r.next() < 0.7;
        const sequential = r.next() < 0.25;
        const want = store.expected(range);
        const lister = new GuardedLister(store, { range: normalizeRange(range), ordered, sequential, listConcurrency: 1 + r.int(12), log: () => {} });
        let got;
        try {
          got = await collect(lister);
        } catch (err) {
          // A store found out only after output began (pages of a few keys pass the hold
          // quickly): a fatal error that says so is right too; a wrong listing never is.
          if (!/found after output began/.test(err.message)) throw err;
          stopped++;
          continue;
        }
        try {
          expectListing(got, want, ordered);
        } catch (err) {
          err.message = `seed ${SEED}, ${name}, range ${JSON.stringify(range)}, ordered ${ordered}, sequential ${sequential}:\n${err.message}`;
          throw err;
        }
        expect(lister.complete).toBe(true);
        ranges++;
        if (lister.stats.fallback) fallbacks++;
      }
    }
    // eslint-disable-next-line no-console
    console.log(`start-check ${name}: ${ranges} ranges right, ${fallbacks} of them walked again; ${stopped} stopped after output began`);
    expect(stopped).toBeLessThanOrEqual(ranges / 4);
  });
});

test('negative control: a walk that trusts the start loses keys on the same stores', async () => {
  // The same generator, walked with the StartAfter sent as given: the quirky stores must lose
  // keys on some range, or the test above proves nothing about them.
  for (const quirks of [{ utf16: true }, { treeOrder: true, folderStartAfterBug: true }]) {
    const r = prng(SEED + 7);
    let lost = 0;
    for (let round = 0; round < 20 && !lost; round++) {
      const keys = keySet(r, 300);
      const store = new FakeListStore(keys, { ...quirks, maxKeys: 1000 });
      for (let i = 0; i < 20; i++) {
        const range = normalizeRange(rangeOf(r, keys));
        const walk = new SequentialWalk(store, { range, trusted: true });
        const got = [];
        for await (const c of walk.chunks()) for (const it of c.toItems()) got.push(it.Key);
        if (got.length < store.expected({ prefix: range.prefix, startAfter: range.after, stopAt: range.stop ?? undefined }).length) lost++;
      }
    }
    expect(lost).toBeGreaterThan(0);
  }
});

describe('the range as it is asked of the store', () => {
  test('a StartAfter is cut before its first character at or above U+E000; an end with one is raised', () => {
    expect(wireRange(normalizeRange({ startAfter: 'ord/\uFF21/x', stopAt: 'ord/\u{1F600}/child' })))
      .toEqual({ prefix: '', after: 'ord/', stop: `ord/${'\u{10FFFF}'.repeat(255)}`, empty: false });
    expect(wireRange(normalizeRange({ startAfter: 'plain/é', stopAt: 'z' }))).toEqual({ prefix: '', after: 'plain/é', stop: 'z', empty: false });
  });

  test('a StartAfter outside the prefix: none before it, an empty range after it', () => {
    expect(wireRange(normalizeRange({ prefix: 'b/', startAfter: 'a/zz' })).after).toBe('');
    expect(wireRange(normalizeRange({ prefix: 'b/', startAfter: 'b' })).after).toBe('');
    expect(wireRange(normalizeRange({ prefix: 'b/', startAfter: 'c' })).empty).toBe(true);
    // Cut down to the prefix itself: no StartAfter at all.
    expect(wireRange(normalizeRange({ prefix: 'b/', startAfter: 'b/\uE000x' })).after).toBe('');
  });

  test('a walk without StartAfter reads from the prefix both bounds share', () => {
    expect(walkPrefix(normalizeRange({ startAfter: 'logs/2024/03/x', stopAt: 'logs/2024/05' }))).toBe('logs/2024/0');
    expect(walkPrefix(normalizeRange({ prefix: 'logs/', startAfter: 'logs/a' }))).toBe('logs/');
    // Never half of a surrogate pair.
    expect(walkPrefix(normalizeRange({ startAfter: 'a\u{1F600}b', stopAt: 'a\u{1F601}' }))).toBe('a');
  });

  test('probes: the keys past the StartAfter, and "/" wherever it holds a character below "/"', () => {
    expect(startProbes('logs/', 'logs/2024-01-01/a.gz')).toEqual([
      { prefix: 'logs/2024-01-01/a.gz', maxKeys: 2 },
      { prefix: 'logs/2024/', maxKeys: 1, before: 'logs/2024.\u{10FFFF}' },
      { prefix: 'logs/2024-01/', maxKeys: 1, before: 'logs/2024-01.\u{10FFFF}' },
      { prefix: 'logs/2024-01-01/a/', maxKeys: 1, before: 'logs/2024-01-01/a.\u{10FFFF}' },
    ]);
  });
});

test('a probe the store refuses as a bad name (MinIO: "//", a "." segment) asks about keys it cannot hold', async () => {
  const keys = ['x-2/a\u{1F600}', 'x-2/ord 1/xa', 'x-2/b', 'x/y', 'x/z/w'];
  const store = new FakeListStore(keys);
  const list = store.listPage.bind(store);
  store.listPage = async (a) => {
    if ((a.prefix || '').includes('//') || /(^|\/)\.[^/]*$/.test(a.startAfter || '') && a.startAfter !== 'x-2/.x') {
      throw Object.assign(new Error('Object name contains unsupported characters.'), { $metadata: { httpStatusCode: 400 } });
    }
    return list(a);
  };
  for (const sequential of [false, true]) {
    const lister = new GuardedLister(store, { range: normalizeRange({ startAfter: 'x-2/.x', stopAt: 'x-2/ord 1/xa' }), sequential, log: () => {} });
    expect(await collect(lister)).toEqual(['x-2/a\u{1F600}', 'x-2/b', 'x-2/ord 1/xa']);
  }
  // The range's own StartAfter refused: that is the user's to hear about, not a probe's.
  store.listPage = async () => { throw Object.assign(new Error('refused'), { $metadata: { httpStatusCode: 400 } }); };
  await expect(collect(new GuardedLister(store, { range: normalizeRange({ startAfter: 'x-2/.x' }), log: () => {} }))).rejects.toThrow(/refused/);
});
