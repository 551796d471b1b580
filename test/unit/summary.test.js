'use strict';
const { Summary, extensionOf, folderOf } = require('../../src/stages/summary');
const { GroupCounter } = require('../../src/stages/group-counter');
const { ItemChunk, ColumnChunk } = require('../../src/stores/chunks');
const { parseListColumns } = require('../../src/stores/list-parser');

const item = (Key, Size, t = 0, StorageClass = 'STANDARD') => ({ Key, Size, LastModified: new Date(t), ETag: '"e"', StorageClass });

test('extensions and folders', () => {
  expect(extensionOf('a/b.TXT')).toBe('txt');
  expect(extensionOf('a.b/c')).toBe('(none)');
  expect(extensionOf('.hidden')).toBe('(none)');
  expect(extensionOf('x.')).toBe('(none)');
  expect(folderOf('a/b/c.txt', 1)).toBe('a/');
  expect(folderOf('a/b/c.txt', 2)).toBe('a/b/');
  expect(folderOf('a/b/c.txt', 5)).toBe('a/b/');
  expect(folderOf('top.txt', 1)).toBe('(root)');
});

test('counts, sizes, histogram, classes, ages', () => {
  const s = new Summary({ summarizeFolders: true });
  s.addChunk(new ItemChunk([item('a/1.gz', 0, 5), item('a/2.gz', 1024, 1), item('b/3', 5000, 9, 'GLACIER'), item('c', 1e12, 3)]));
  const j = s.toJSON();
  expect(j).toMatchObject({ objects: 4, bytes: 1e12 + 6024, minSize: 0, maxSize: 1e12 });
  expect(j.meanSize).toBeCloseTo((1e12 + 6024) / 4);
  expect(j.histogram.map((h) => [h.min, h.objects])).toEqual([[0, 1], [1024, 1], [4096, 1], [4 ** 10 * 1024, 1]]);
  expect(j.storageClasses).toEqual([{ name: 'STANDARD', objects: 3, bytes: 1e12 + 1024 }, { name: 'GLACIER', objects: 1, bytes: 5000 }]);
  expect(j.oldest).toEqual({ key: 'a/2.gz', lastModified: new Date(1).toISOString() });
  expect(j.newest.key).toBe('b/3');
  expect(j.folders.map((f) => f.name)).toEqual(['(root)', 'b/', 'a/']);
});

test('a chunk of columns summarizes like its items, one by one', () => {
  const entry = (k, size, day, cls) => `<Contents><Key>${k}</Key><LastModified>2024-06-0${day}T00:00:00.000Z</LastModified>` +
    `<ETag>&quot;e&quot;</ETag><Size>${size}</Size>${cls ? `<StorageClass>${cls}</StorageClass>` : ''}</Contents>`;
  const xml = `<ListBucketResult>${entry('a/x.gz', 10, 3) + entry('a/y.TXT', 0, 1, 'GLACIER') + entry('b/caf%C3%A9.gz', 5000, 2) + entry('c', 1e10, 4)}</ListBucketResult>`;
  const chunk = new ColumnChunk(parseListColumns(xml).columns);
  const fromChunk = new Summary({ summarizeFolders: true });
  fromChunk.addChunk(chunk.slice(0, 2));
  fromChunk.addChunk(chunk.slice(2));
  const fromItems = new Summary({ summarizeFolders: true });
  for (const it of chunk.toItems()) fromItems.add(it);
  expect(fromChunk.toJSON()).toEqual(fromItems.toJSON());
  expect(fromChunk.toJSON()).toMatchObject({ objects: 4, bytes: 1e10 + 5010, oldest: { key: 'a/y.TXT' }, newest: { key: 'c' } });
});

test('empty summary', () => {
  expect(new Summary().toJSON()).toMatchObject({ objects: 0, bytes: 0, minSize: null, meanSize: null, maxSize: null, histogram: [], oldest: null });
});

test('group counts stay bounded on random names and fold into other', () => {
  const g = new GroupCounter(100);
  for (let i = 0; i < 100000; i++) g.add(`name-${i}`, i % 7);
  g.add('big', 1e9);
  expect(g.groups.size).toBeLessThanOrEqual(201);
  const top = g.top(5);
  expect(top[0]).toEqual({ name: 'big', objects: 1, bytes: 1e9 });
  expect(top[top.length - 1].name).toBe('(other)');
  expect(top.reduce((n, r) => n + r.objects, 0)).toBe(100001);
  expect(g.folded).toBe(true);
});

test('the same objects in any order give the same summary (equal times, empty objects)', () => {
  // Pages of an unordered listing arrive in any order: ties must not go to whichever came first.
  const items = [item('pre/', 0, 5000), item('pre0', 0, 5000), item('é', 0, 5000), item('a', 3, 1000), item('b', 3, 1000),
    item('z/0', 0, 2000), item('y', 0, 2000), item('x', 0, 2000), item('w', 0, 2000), item('v', 0, 2000), item('u', 0, 2000)];
  const summaryOf = (list) => { const s = new Summary({ largest: 2 }); for (const it of list) s.add(it); return s.toJSON(); };
  const forward = summaryOf(items), backward = summaryOf([...items].reverse());
  expect(backward).toEqual(forward);
  expect(forward.newest.key).toBe('pre/');
  expect(forward.oldest.key).toBe('a');
  expect(forward.empty.examples).toEqual(['pre0', 'u', 'v', 'w', 'x']);
});

test('ties go to the key first in S3 order where UTF-16 orders them otherwise (drawn orders of drawn keys)', () => {
  const { prng } = require('../generators/prng');
  const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
  console.log(`summary ties seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);
  const r = prng(SEED);
  const units = ['a', 'z', 'é', '\uE000', '\uFFFD', '\uFFFF', '\u{10000}', '😀', '/'];
  const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  for (let round = 0; round < 50; round++) {
    const keys = new Set();
    const stem = Array.from({ length: r.int(4) }, () => r.pick(units)).join('');
    while (keys.size < 2 + r.int(12)) keys.add(stem + Array.from({ length: 1 + r.int(3) }, () => r.pick(units)).join(''));
    const items = [...keys].map((k) => item(k, 1 + r.int(2), r.int(2) * 1000)); // sizes and times tie often
    for (let i = items.length - 1; i > 0; i--) { const j = r.int(i + 1); [items[i], items[j]] = [items[j], items[i]]; }
    const s = new Summary({ largest: 3 });
    for (const it of items) s.add(it);
    const j = s.toJSON();
    const t0 = Math.min(...items.map((it) => +it.LastModified)), t1 = Math.max(...items.map((it) => +it.LastModified));
    const first = (list) => list.map((it) => it.Key).sort(byBytes)[0];
    expect([round, j.oldest.key]).toEqual([round, first(items.filter((it) => +it.LastModified === t0))]);
    expect([round, j.newest.key]).toEqual([round, first(items.filter((it) => +it.LastModified === t1))]);
    const want = items.slice().sort((a, b) => b.Size - a.Size || byBytes(a.Key, b.Key)).slice(0, 3).map((it) => it.Key);
    expect([round, j.largest.map((o) => o.key)]).toEqual([round, want]);
  }
});
