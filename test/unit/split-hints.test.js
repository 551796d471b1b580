'use strict';
// Split hints: a listing starts where the last listing of the same bucket and prefix found
// its keys, so every request slot has work on the first round trip; hints from anywhere
// else (another bucket, a file) are guesses that cost requests at most, never keys.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Listing } = require('../../src/list/listing');
const { HintCollector, readHintsFile, TARGET } = require('../../src/list/split-hints');
const { LAYOUTS } = require('../generators/layouts');
const { FakeListStore, expectListing } = require('../helpers/fake-list-store');

let cache;
beforeEach(() => { cache = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-hints-')); process.env.XDG_CACHE_HOME = cache; });
afterEach(() => fs.rmSync(cache, { recursive: true, force: true }));

// A fake store that looks like a bucket of an endpoint, as S3Store does.
function bucket(keys, name) {
  const store = new FakeListStore(keys, { rounds: true });
  Object.assign(store, { type: 's3', bucket: name, endpoint: 'http://fake', open: async () => {}, destroy: () => {} });
  return store;
}

// Requests sent in the first round trip.
function firstRound(store) {
  const list = store.listPage.bind(store);
  let first = 0;
  store.listPage = (a) => { if (store.round === 0) first++; return list(a); };
  return () => first;
}

async function run(store, options = {}) {
  const listing = new Listing({ store, listConcurrency: 100, log: () => {}, ...options });
  const keys = [];
  for await (const chunk of listing.chunks()) for (let k = 0; k < chunk.length; k++) keys.push(chunk.key(k));
  listing.close();
  return { keys, stats: listing.stats };
}

test('a second listing of the same bucket starts from the first one\'s split points, at full concurrency', async () => {
  const keys = LAYOUTS.random(300000, 4);
  const once = bucket(keys, 'b1');
  const before = firstRound(once);
  const a = await run(once);
  expectListing(a.keys, once.keys, true);
  expect(a.stats.hints).toBe(0);
  expect(before()).toBe(1); // nothing known: one request to begin with

  const again = bucket(keys, 'b1');
  const after = firstRound(again);
  const b = await run(again);
  expectListing(b.keys, again.keys, true);
  expect(b.stats.hints).toBeGreaterThan(100);
  expect(after()).toBe(100); // every slot busy on the first round trip
  expect(again.round).toBeLessThan(once.round);
});

test('hints of another bucket, or none that fit, still list every key exactly once', async () => {
  await run(bucket(LAYOUTS.logs(200000, 1), 'other'));
  const file = path.join(cache, 'hints.txt');
  fs.writeFileSync(file, LAYOUTS.logs(5000, 1).join('\n'));
  for (const layout of ['unicode', 'mixed', 'deep']) {
    const store = bucket(LAYOUTS[layout](50000, 2), 'other'); // the cache holds the logs bucket's hints
    const r = await run(store);
    expect(r.stats.hints).toBeGreaterThan(0);
    expectListing(r.keys, store.keys, true);
    const f = await run(bucket(LAYOUTS[layout](50000, 2), 'x'), { splitHints: file, unordered: true });
    expectListing(f.keys, store.keys, false);
  }
});

test('--no-split-hints: no cache read or written', async () => {
  const keys = LAYOUTS.random(30000, 4);
  await run(bucket(keys, 'b2'), { splitHints: false });
  expect(fs.existsSync(path.join(cache, 's3blitz'))).toBe(false);
  const r = await run(bucket(keys, 'b2'));
  expect(r.stats.hints).toBe(0);
});

test('a collector keeps a few hundred keys spread evenly over many', () => {
  const c = new HintCollector();
  for (let i = 0; i < 100000; i++) c.add(`k${String(i).padStart(6, '0')}`);
  const keys = c.result();
  expect(keys.length).toBeGreaterThanOrEqual(TARGET);
  expect(keys.length).toBeLessThan(2 * TARGET);
  const gaps = keys.slice(1).map((k, i) => Number(k.slice(1)) - Number(keys[i].slice(1)));
  expect(Math.max(...gaps)).toBeLessThanOrEqual(2 * Math.min(...gaps));
});

test('hint files: JSON, one key per line, and S3 Inventory CSV with awkward keys', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-hintfile-'));
  const awkward = ['a,b', 'quote"d', 'sp ace', 'plus+sign', 'pct%41', 'café/😀', 'z'];
  fs.writeFileSync(path.join(dir, 'h.json'), JSON.stringify({ keys: awkward }));
  fs.writeFileSync(path.join(dir, 'h.txt'), awkward.join('\n') + '\n');
  // Inventory: "bucket","key",... with the key URL-encoded (a space as +... or %20).
  const enc = (k) => encodeURIComponent(k).replace(/%20/g, '+');
  fs.writeFileSync(path.join(dir, 'inv.csv'), awkward.map((k) => `"my-bucket","${enc(k).replace(/"/g, '""')}","12","2024-01-01T00:00:00.000Z"`).join('\n') + '\n');
  const sorted = [...awkward].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  for (const f of ['h.json', 'h.txt', 'inv.csv']) expect(readHintsFile(path.join(dir, f))).toEqual(sorted);
  expect(() => readHintsFile(path.join(dir, 'missing'))).toThrow(/--split-hints: cannot read/);
  fs.rmSync(dir, { recursive: true, force: true });
});
