'use strict';
// A directory bucket's directory, its pages in no order, handed out in S3's order
// (src/list/directory-keys.js): checked against the entries sorted by their keys' UTF-8
// bytes here, every field of every entry kept, in memory and through runs on disk.
const { DirectoryKeys } = require('../../src/list/directory-keys');
const { ColumnSink, ColumnChunk, ItemChunk } = require('../../src/stores/chunks');
const { prng } = require('../generators/prng');
const { drawKeys } = require('../generators/key-sets');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`directory-keys seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const CLASSES = ['STANDARD', 'EXPRESS_ONEZONE', 'GLACIER'];
const HIGH = /[\ud800-\uffff]/;
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f]/;
const byBytes = (entries) => entries.map((e) => [Buffer.from(e.Key, 'utf8'), e]).sort((a, b) => Buffer.compare(a[0], b[0])).map((x) => x[1]);

// A drawn directory: entries (a key listed twice is the same entry twice) in pages of drawn
// sizes, shuffled, each page as columns (the lean path) or items (the SDK's).
function drawDirectory(r) {
  const keys = drawKeys(r);
  const entries = keys.map((Key) => ({
    Key, Size: r.int(1e6), LastModified: r.next() < 0.1 ? undefined : new Date(1.7e12 + r.int(1e9)),
    ETag: r.next() < 0.1 ? undefined : `"${r.int(1e9).toString(16)}"`, StorageClass: r.pick(CLASSES),
  }));
  const byKey = new Map(entries.map((e) => [e.Key, e]));
  const listed = keys.map((k) => byKey.get(k));
  for (let i = listed.length - 1; i > 0; i--) { const j = r.int(i + 1); [listed[i], listed[j]] = [listed[j], listed[i]]; }
  const pages = [];
  for (let i = 0; i < listed.length;) {
    const n = 1 + r.int(300);
    const part = listed.slice(i, i + n);
    i += n;
    if (r.next() < 0.5) { pages.push(new ItemChunk(part.map((e) => ({ ...e })))); continue; }
    const sink = new ColumnSink();
    for (const e of part) sink.add(e.Key, e.Size, e.LastModified ? +e.LastModified : NaN, e.ETag, e.StorageClass);
    pages.push(new ColumnChunk(structuredClone(sink.columns()))); // as it comes from a request thread
  }
  return { listed, pages };
}

// The entries a DirectoryKeys hands out, as output gathers them: in chunks of a sink.
async function readOut(dk) {
  const sink = new ColumnSink();
  sink.knows(dk.utf16, dk.plain);
  const mem = dk.inMemory();
  if (mem) for (let r = 0; r < mem.length; r++) mem.addTo(sink, r);
  else for await (const row of dk.sortedRows()) sink.addKnown(row[0], row[1], row[2] === null ? NaN : row[2], row[3] ?? undefined, row[4]);
  return { chunk: new ColumnChunk(sink.columns()), inMemory: !!mem };
}

describe('DirectoryKeys: a directory listed in no order comes out in S3 UTF-8 order', () => {
  test.each(Array.from({ length: 30 }, (_, i) => SEED + i))('drawn directory, seed %i: every entry, every field, in UTF-8 order', async (seed) => {
    const r = prng(seed);
    const { listed, pages } = drawDirectory(r);
    const limit = r.pick([3, 50, 1000, 100000]); // small limits go to runs on disk
    const dk = new DirectoryKeys(limit);
    for (const p of pages) dk.add(p);
    const { chunk, inMemory } = await readOut(dk);
    try {
      expect(inMemory).toBe(listed.length <= limit);
      const want = byBytes(listed).map((e) => ({ ...e, StorageClass: e.StorageClass }));
      expect(chunk.toItems()).toEqual(want);
      expect(chunk.utf16Ordered()).toBe(!listed.some((e) => HIGH.test(e.Key)));
      expect(chunk.text() !== null).toBe(listed.length === 0 || !listed.some((e) => CONTROL.test(e.Key) || e.Key.includes('\n')));
    } finally {
      dk.remove();
    }
  });

  test('classes survive as columns: one name per distinct class, an index per key', () => {
    const sink = new ColumnSink();
    const cls = ['STANDARD', 'EXPRESS_ONEZONE', 'EXPRESS_ONEZONE', 'GLACIER', 'STANDARD'];
    cls.forEach((c, i) => sink.add(`k${i}`, i, NaN, undefined, c));
    const cols = structuredClone(sink.columns());
    expect(cols.classes.names).toEqual(['STANDARD', 'EXPRESS_ONEZONE', 'GLACIER']);
    expect(cols.classes.of).toBeInstanceOf(Uint8Array);
    expect(new ColumnChunk(cols).toItems().map((it) => it.StorageClass)).toEqual(cls);
    const std = new ColumnSink();
    std.add('a', 1, NaN, undefined, 'STANDARD');
    expect(std.columns().classes).toBeNull();
  });
});
