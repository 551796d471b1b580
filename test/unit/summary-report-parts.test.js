'use strict';
// The parts of the bucket report's summary, each against the exact answer: size quantiles
// within their documented error, ages by month and by year (LastModified cannot be set on
// MinIO, so here on synthetic items), the bounded folder tree, the largest and oldest
// objects, troublesome keys, the storage cost estimate, incomplete uploads, and compare's
// differences per folder.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { SizeQuantiles, RELATIVE_ERROR } = require('../../src/stages/size-quantiles');
const { AgeHistogram } = require('../../src/stages/age-histogram');
const { PrefixTree } = require('../../src/stages/prefix-tree');
const { largest, oldest } = require('../../src/stages/top-objects');
const { KeyTrouble } = require('../../src/stages/key-trouble');
const { storageCost, loadPrices, BUILT_IN } = require('../../src/stages/storage-cost');
const { incompleteUploads } = require('../../src/stages/incomplete-uploads');
const { DifferenceFolders } = require('../../src/stages/difference-folders');
const { Summary } = require('../../src/stages/summary');
const { summarize } = require('../../src/stages/read-only');
const { compareKeys } = require('../../src/keys/order');
const { UsageError } = require('../../src/errors');

// A seeded generator, so a failure can be replayed.
function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return s / 2 ** 32; };
}

const exactQuantile = (sorted, q) => sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];

describe('size quantiles', () => {
  test('within the documented error of the exact nearest-rank quantiles, on sizes of every scale', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = rng(seed);
      const q = new SizeQuantiles();
      const sizes = [];
      const n = 1 + Math.floor(r() * 20000);
      for (let i = 0; i < n; i++) {
        const size = r() < 0.05 ? 0 : Math.floor(2 ** (r() * 42)); // 0 bytes to 4 TiB
        sizes.push(size);
        q.add(size);
      }
      sizes.sort((a, b) => a - b);
      for (const p of [0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1]) {
        const exact = exactQuantile(sizes, p);
        const got = q.quantile(p);
        expect(Math.abs(got - exact)).toBeLessThanOrEqual(RELATIVE_ERROR * exact + 0.5);
      }
      const j = q.toJSON();
      expect([j.min, j.max]).toEqual([sizes[0], sizes[sizes.length - 1]]);
    }
  });

  test('exact for small sizes, for one object, and nothing for none', () => {
    const q = new SizeQuantiles();
    for (const s of [1, 2, 3, 5, 8, 13, 21]) q.add(s);
    expect(q.quantile(0.5)).toBe(5);
    expect(q.quantile(1)).toBe(21);
    const one = new SizeQuantiles();
    one.add(123456789);
    expect(one.toJSON()).toMatchObject({ min: 123456789, median: 123456789, p99: 123456789, max: 123456789 });
    expect(new SizeQuantiles().toJSON()).toBeNull();
    expect(RELATIVE_ERROR).toBeLessThan(0.022);
  });
});

describe('age histogram (synthetic LastModified: MinIO cannot set it)', () => {
  const t = (y, m, d = 15) => Date.UTC(y, m - 1, d, 12);

  test('by month from the oldest to the newest, empty months included', () => {
    const a = new AgeHistogram();
    a.add(t(2024, 1), 10);
    a.add(t(2024, 1, 31), 5);
    a.add(t(2024, 4, 1), 7);
    a.add(Date.UTC(2024, 3, 30, 23, 59, 59, 999), 1); // the last millisecond of April
    a.add(NaN, 3);
    const j = a.toJSON();
    expect(j.unit).toBe('month');
    expect(j.rows.map((r) => [r.period, r.objects, r.bytes])).toEqual([['2024-01', 2, 15], ['2024-02', 0, 0], ['2024-03', 0, 0], ['2024-04', 2, 8]]);
    expect(j.rows[0].from).toBe('2024-01-01T00:00:00.000Z');
    expect(j.unknown).toEqual({ objects: 1, bytes: 3 });
  });

  test('by year when the months span more than three years, in any order of arrival', () => {
    const a = new AgeHistogram();
    const items = [[t(2024, 6), 1], [t(2015, 2), 2], [t(2019, 12, 31), 4], [t(2015, 11), 8], [t(2024, 1), 16]];
    for (const [when, size] of items.reverse()) a.add(when, size);
    const j = a.toJSON();
    expect(j.unit).toBe('year');
    expect(j.rows.map((r) => r.period)).toEqual(['2015', '2016', '2017', '2018', '2019', '2020', '2021', '2022', '2023', '2024']);
    expect(j.rows.map((r) => r.bytes)).toEqual([10, 0, 0, 0, 4, 0, 0, 0, 0, 17]);
    expect(j.rows.reduce((n, r) => n + r.objects, 0)).toBe(5);
  });

  test('exactly 36 months stay months; 37 become years', () => {
    const a = new AgeHistogram();
    a.add(t(2021, 1), 1);
    a.add(t(2023, 12), 1);
    expect(a.toJSON()).toMatchObject({ unit: 'month' });
    expect(a.toJSON().rows.length).toBe(36);
    a.add(t(2024, 1), 1);
    expect(a.toJSON()).toMatchObject({ unit: 'year' });
  });

  test('a summary of synthetic items carries it, next to the oldest objects', () => {
    const s = new Summary({ largest: 2 });
    s.add({ Key: 'a', Size: 1, LastModified: new Date(t(2020, 5)), StorageClass: 'STANDARD' });
    s.add({ Key: 'b', Size: 2, LastModified: new Date(t(2020, 7)), StorageClass: 'STANDARD' });
    s.add({ Key: 'c', Size: 3, LastModified: new Date(t(2020, 6)), StorageClass: 'STANDARD' });
    const j = s.toJSON();
    expect(j.ageHistogram.rows.map((r) => r.period)).toEqual(['2020-05', '2020-06', '2020-07']);
    expect(j.oldestObjects.map((o) => o.key)).toEqual(['a', 'c']);
    expect(j.largest.map((o) => o.key)).toEqual(['c', 'b']);
  });
});

describe('the folder tree', () => {
  const sumUp = (n) => {
    // Every folder: its files, its subfolders and its (other) add up to it.
    if (!n.children) return;
    const kids = n.children.reduce((a, c) => [a[0] + c.objects, a[1] + c.bytes], [0, 0]);
    expect(kids[0] + n.files.objects + (n.other ? n.other.objects : 0)).toBe(n.objects);
    expect(kids[1] + n.files.bytes + (n.other ? n.other.bytes : 0)).toBe(n.bytes);
    n.children.forEach(sumUp);
  };

  test('counts, bytes, oldest and newest per folder, below the prefix, to the depth', () => {
    const t = new PrefixTree({ prefix: 'p/', depth: 2 });
    const add = (k, size, when) => t.add(k, size, when);
    add('p/a/x/1', 10, 5);
    add('p/a/x/y/2', 20, 3);
    add('p/a/3', 1, 9);
    add('p/b/4', 2, NaN);
    add('p/5', 4, 1);
    add('p/a/', 0, 2); // a folder marker is a file of its folder
    const j = t.toJSON();
    expect(j.root).toMatchObject({ name: 'p/', objects: 6, bytes: 37, files: { objects: 1, bytes: 4 } });
    const a = j.root.children[0];
    expect(a).toMatchObject({ name: 'a/', objects: 4, bytes: 31, oldest: new Date(2).toISOString(), newest: new Date(9).toISOString(), files: { objects: 2, bytes: 1 } });
    expect(a.children).toEqual([{ name: 'x/', objects: 2, bytes: 30, oldest: new Date(3).toISOString(), newest: new Date(5).toISOString() }]);
    expect(j.root.children[1]).toMatchObject({ name: 'b/', objects: 1, oldest: null });
    sumUp(j.root);
  });

  test('keys in any order give the same tree as keys in order', () => {
    const keys = [];
    const r = rng(7);
    for (let i = 0; i < 3000; i++) keys.push(`${Math.floor(r() * 5)}/${Math.floor(r() * 7)}/${Math.floor(r() * 3)}/${i}`);
    const a = new PrefixTree({ depth: 3 });
    const b = new PrefixTree({ depth: 3 });
    keys.forEach((k, i) => a.add(k, i, i));
    [...keys].sort(compareKeys).forEach((k) => b.add(k, Number(k.split('/')[3]), Number(k.split('/')[3])));
    expect(a.toJSON()).toEqual(b.toJSON());
    sumUp(a.toJSON().root);
  });

  test('bounded: past the node cap the smallest folders fold into (other), and every level still adds up', () => {
    const t = new PrefixTree({ depth: 3, maxNodes: 50 });
    const r = rng(11);
    let objects = 0, bytes = 0, most = 0;
    for (let i = 0; i < 20000; i++) {
      const size = Math.floor(r() * 1000) + (i % 97 === 0 ? 1e6 : 0);
      t.add(`${i % 40}/${Math.floor(r() * 30)}/${Math.floor(r() * 30)}/k${i}`, size, i);
      objects++; bytes += size;
      most = Math.max(most, t.nodes);
    }
    expect(most).toBeLessThanOrEqual(101);
    const j = t.toJSON();
    expect(j.approximate).toBe(true);
    expect(j.nodes).toBeLessThanOrEqual(50);
    expect(j.root).toMatchObject({ objects, bytes });
    sumUp(j.root);
    let count = 0;
    const walk = (n) => { for (const c of n.children || []) { count++; walk(c); } };
    walk(j.root);
    expect(count).toBeLessThanOrEqual(50);
  });
});

test('largest and oldest: the n first by the measure, ties in key order, whatever the arrival order', () => {
  const items = [];
  const r = rng(3);
  for (let i = 0; i < 5000; i++) items.push({ key: `k${Math.floor(r() * 1e6)}-${i}`, v: Math.floor(r() * 50) });
  const expectTop = (make, cmp) => {
    const top = make(7);
    for (const it of items) if (top.wants(it.v)) top.add(it);
    const want = [...items].sort((a, b) => cmp(a.v, b.v) || compareKeys(a.key, b.key)).slice(0, 7);
    expect(top.sorted().map((e) => e.key)).toEqual(want.map((e) => e.key));
  };
  expectTop(largest, (a, b) => b - a);
  expectTop(oldest, (a, b) => a - b);
  const none = largest(0);
  expect(none.wants(5)).toBe(false);
  none.add({ key: 'x', v: 5 });
  expect(none.sorted()).toEqual([]);
});

describe('troublesome keys', () => {
  test('each kind is found, counted and named; ordinary keys are not', () => {
    const t = new KeyTrouble();
    const ok = ['a/b/c.txt', 'a b/c d.txt', 'x.y/z', '.hidden', 'a/.b', 'a/..b', 'naïve/ok.txt', 'x'.repeat(899)];
    for (const k of ok) t.add(k);
    expect(t.toJSON()).toEqual({ keys: 0, kinds: [] });
    const bad = { space: [' a', 'a ', 'a/ b', 'a /b'], control: ['a\u0000b', 'tab\there', 'del\u007f'], 'double-slash': ['a//b', '//x'],
      'dot-segment': ['./a', 'a/./b', 'a/..', '..'], long: ['é'.repeat(451)] };
    for (const list of Object.values(bad)) for (const k of list) t.add(k);
    const kinds = Object.fromEntries(t.toJSON().kinds.map((k) => [k.kind, k]));
    for (const [kind, list] of Object.entries(bad)) {
      expect(kinds[kind].objects).toBe(list.length);
      expect(kinds[kind].examples).toEqual(list.slice(0, 5));
    }
    expect(t.toJSON().keys).toBe(Object.values(bad).flat().length);
  });

  test('names that differ only by normalization: found in either order of arrival', () => {
    const nfc = 'docs/caf\u00e9.txt', nfd = 'docs/cafe\u0301.txt';
    for (const order of [[nfc, nfd], [nfd, nfc]]) {
      const t = new KeyTrouble();
      for (const k of order) t.add(k);
      if (order[0] === nfc) {
        // The NFC name came first: only the store can tell whether it was this twin.
        expect(t.unconfirmed()).toEqual([{ key: nfd, nfc }]);
        t.confirmTwin(nfd, nfc);
      }
      expect(t.unconfirmed()).toEqual([]);
      const kinds = Object.fromEntries(t.toJSON().kinds.map((k) => [k.kind, k]));
      expect(kinds.normalization).toMatchObject({ objects: 2, examples: [expect.arrayContaining([nfc, nfd])] });
      expect(kinds['not-nfc']).toMatchObject({ objects: 1, examples: [nfd] });
      expect(t.toJSON().keys).toBe(2);
    }
    // A lone non-NFC name is not a twin.
    const lone = new KeyTrouble();
    lone.add('x/e\u0301');
    expect(lone.toJSON().kinds.map((k) => k.kind)).toEqual(['not-nfc']);
  });
});

describe('storage cost', () => {
  const GiB = 2 ** 30;
  const row = (name, objects, bytes, smallObjects = 0, smallBytes = 0) => ({ name, objects, bytes, smallObjects, smallBytes });

  test('tiers, minimum billable sizes, archive overheads, and classes without a price', () => {
    const c = storageCost([
      row('STANDARD', 1, 60 * 1024 * GiB), // 60 TiB: 50 TiB at 0.023, 10 TiB at 0.022
      row('STANDARD_IA', 10, 10 * 1024, 10, 10 * 1024), // ten 1 KiB objects billed as 128 KiB each
      row('DEEP_ARCHIVE', 1000, 0),
      row('WEIRD', 1, GiB),
    ], BUILT_IN);
    const by = Object.fromEntries(c.classes.map((r) => [r.name, r]));
    const archiveStd = (1000 * 8192) / GiB * 0.022; // archive metadata at STANDARD's price, past its first tier here
    expect(by.STANDARD.usdPerMonth).toBeCloseTo(51200 * 0.023 + 10240 * 0.022 + archiveStd, 5);
    expect(by.STANDARD_IA.billableBytes).toBe(10 * 128 * 1024);
    expect(by.DEEP_ARCHIVE.billableBytes).toBe(1000 * 32768);
    expect(by.WEIRD.usdPerMonth).toBeNull();
    expect(c.usdPerMonth).toBeCloseTo(by.STANDARD.usdPerMonth + by.STANDARD_IA.usdPerMonth + by.DEEP_ARCHIVE.usdPerMonth, 5);
    expect(c).toMatchObject({ region: 'us-east-1', currency: 'USD', date: BUILT_IN.date });
  });

  test('--prices FILE: a table of the same shape; a bad one is one clear usage error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-prices-'));
    const good = path.join(dir, 'p.json');
    fs.writeFileSync(good, JSON.stringify({ region: 'eu-central-1', date: '2025-01', classes: { STANDARD: { perGBMonth: 0.0245 } } }));
    const t = loadPrices(good);
    expect(storageCost([row('STANDARD', 1, 2 ** 31)], t)).toMatchObject({ region: 'eu-central-1', usdPerMonth: 0.049 });
    const bad = (text) => { fs.writeFileSync(path.join(dir, 'b.json'), text); return () => loadPrices(path.join(dir, 'b.json')); };
    expect(bad('{nope')).toThrow(UsageError);
    expect(bad('{"classes": {"STANDARD": {"perGBMonth": -1}}}')).toThrow(/perGBMonth/);
    expect(bad('{"classes": {"STANDARD": {"perGBMonth": [[100, 0.02]]}}}')).toThrow(/last tier/);
    expect(bad('[]')).toThrow(/classes/);
    expect(() => loadPrices(path.join(dir, 'missing.json'))).toThrow(/no such file/);
    fs.rmSync(dir, { recursive: true });
  });
});

describe('incomplete uploads', () => {
  // A store that lists uploads two a page and parts one a page.
  function uploadsStore(uploads, { parts = {}, fail } = {}) {
    return {
      calls: { uploads: 0, parts: 0 },
      async listUploads({ prefix, keyMarker }) {
        this.calls.uploads++;
        if (fail) throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied' });
        const all = uploads.filter((u) => u.Key.startsWith(prefix || '')).sort((a, b) => compareKeys(a.Key, b.Key));
        const from = keyMarker === undefined ? 0 : all.findIndex((u) => u.Key === keyMarker) + 1;
        const page = all.slice(from, from + 2);
        return { uploads: page, truncated: from + 2 < all.length, keyMarker: page.length ? page[page.length - 1].Key : undefined, uploadIdMarker: 'x' };
      },
      async listParts({ uploadId, partNumberMarker }) {
        this.calls.parts++;
        const list = parts[uploadId] || [];
        const i = partNumberMarker === undefined ? 0 : partNumberMarker;
        return { parts: list.slice(i, i + 1).map((Size, k) => ({ PartNumber: i + k + 1, Size })), truncated: i + 1 < list.length, partNumberMarker: i + 1 };
      },
    };
  }
  const u = (Key, day, UploadId = Key) => ({ Key, UploadId, Initiated: new Date(Date.UTC(2024, 0, day)) });

  test('counted in the range, across pages, with the oldest and the parts\' bytes', async () => {
    const store = uploadsStore([u('a/1', 5), u('a/2', 3), u('a/3', 9), u('b/4', 1), u('a/5', 7)], { parts: { 'a/1': [10, 20, 30], 'a/3': [5] } });
    const r = await incompleteUploads(store, { prefix: 'a/', after: 'a/1', stop: 'a/3' });
    expect(r).toMatchObject({ uploads: 2, oldestInitiated: '2024-01-03T00:00:00.000Z', parts: 1, partsBytes: 5, partsKnownFor: 2 });
    expect(r.examples.map((e) => e.key)).toEqual(['a/2', 'a/3']);
    const all = await incompleteUploads(store, { prefix: 'a/', after: '', stop: null });
    expect(all).toMatchObject({ uploads: 4, parts: 4, partsBytes: 65 });
  });

  test('parts are summed for the first ones only; a refusal is reported, not thrown; no method, no section', async () => {
    const many = Array.from({ length: 7 }, (_, i) => u(`k${i}`, i + 1));
    const r = await incompleteUploads(uploadsStore(many, { parts: Object.fromEntries(many.map((x) => [x.UploadId, [1]])) }), { prefix: '', after: '', stop: null }, { partsFor: 3 });
    expect(r).toMatchObject({ uploads: 7, partsKnownFor: 3, partsBytes: 3 });
    expect(await incompleteUploads(uploadsStore([], { fail: true }), { prefix: '', after: '', stop: null })).toEqual({ error: 'AccessDenied: Access Denied' });
    expect(await incompleteUploads({ listPage() {} }, { prefix: '' })).toBeNull();
  });

  test('summarize lists them beside the objects, and --no-incomplete-uploads does not', async () => {
    const store = uploadsStore([u('x', 2)], { parts: { x: [7] } });
    store.type = 's3';
    store.open = async () => {};
    store.destroy = () => {};
    store.listPage = async () => ({ items: [{ Key: 'x', Size: 1, LastModified: new Date(0), ETag: '"e"', StorageClass: 'STANDARD' }], truncated: false });
    const r = await summarize({ store, source: 'mem', log: () => {} });
    expect(r.summary.incompleteUploads).toMatchObject({ uploads: 1, partsBytes: 7 });
    expect(r.summary.objects).toBe(1);
    store.calls.uploads = 0;
    const off = await summarize({ store, source: 'mem', incompleteUploads: false, log: () => {} });
    expect(off.summary.incompleteUploads).toBeNull();
    expect(store.calls.uploads).toBe(0);
  });
});

test('compare\'s differences per top-level folder: counts, bytes, a few examples, bounded', () => {
  const classes = ['only-source', 'only-target', 'size-differs', 'same'];
  const d = new DifferenceFolders(classes, { source: 'src/', target: 'dst/', different: new Set(classes.slice(0, 3)), maxFolders: 3 });
  d.add('only-source', 'src/a/1', 'source', 10);
  d.add('only-source', 'src/a/2', 'source', 20);
  d.add('only-source', 'src/a/3', 'source', 30);
  d.add('only-source', 'src/a/4', 'source', 40);
  d.add('only-target', 'dst/b/9', 'target', 5);
  d.add('same', 'src/c/1', 'source', 1);
  d.add('same', 'src/top', 'source', 1);
  const j = d.toJSON();
  expect(j[0]).toEqual({ name: 'a/', objects: 4, differ: 4, classes: { 'only-source': { objects: 4, bytes: 100, examples: ['src/a/1', 'src/a/2', 'src/a/3'] } } });
  expect(j[1]).toMatchObject({ name: 'b/', classes: { 'only-target': { objects: 1, examples: ['dst/b/9'] } } });
  expect(j.find((f) => f.name === '(top)').classes.same).toEqual({ objects: 1, bytes: 1, examples: [] });
  for (let i = 0; i < 50; i++) d.add('same', `src/f${i}/x`, 'source', 1);
  const folded = d.toJSON();
  expect(folded.length).toBeLessThanOrEqual(2 * 3 + 1);
  expect(folded[0].name).toBe('a/');
  expect(folded.reduce((n, f) => n + f.objects, 0)).toBe(57);
});

test('the storage-cost note says an amount below a cent as the table does, never 0.00', () => {
  const { costNote } = require('../../src/report/summary-model');
  expect(costNote({ region: 'us-east-1', currency: 'USD', usdPerMonth: 0.0005 })).toMatch(/: USD 0\.0005 a month/);
  expect(costNote({ currency: 'USD', usdPerMonth: 0.00001 })).toMatch(/: USD <0\.0001 a month/);
  expect(costNote({ currency: 'USD', usdPerMonth: 1234.5 })).toMatch(/: USD 1,234\.50 a month/);
});

test('the headline says versions where --all-versions counted them, and multipart\'s share of the bytes beside its share of objects', () => {
  const { headline } = require('../../src/report/summary-model');
  const base = { objects: 40, bytes: 1000, maxSize: 500, multipart: { objects: 1, bytes: 890 } };
  const plain = Object.fromEntries(headline({ summary: base }).map((f) => [f.id, f]));
  expect(plain.objects.label).toBe('objects');
  expect(plain.multipart.v).toBeCloseTo(1 / 40);
  expect(plain['multipart-bytes']).toMatchObject({ label: 'bytes in multipart objects', v: 0.89 });
  const versioned = Object.fromEntries(headline({ summary: { ...base, versions: { keys: 12 } } }).map((f) => [f.id, f]));
  expect(versioned.objects).toMatchObject({ label: 'versions (every version with bytes)', v: 40 });
  expect(versioned.keys).toMatchObject({ label: 'keys', v: 12 });
});
