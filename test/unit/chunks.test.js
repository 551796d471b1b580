'use strict';
const { ItemChunk, ColumnChunk, chunkOf } = require('../../src/stores/chunks');
const { parseListColumns } = require('../../src/stores/list-parser');

const entry = (k, extra = '') => `<Contents><Key>${k}</Key>${extra}<Size>${k.length}</Size></Contents>`;
const xml = (body) => `<?xml version="1.0"?><ListBucketResult><EncodingType>url</EncodingType>${body}<IsTruncated>false</IsTruncated></ListBucketResult>`;

// One page of every kind of entry: unicode, a 1024-byte key, no ETag, no date, other classes.
const KEYS = ['a', 'caf%C3%A9', '%F0%9F%98%80'.repeat(256), 'no-etag', 'z'];
const page = xml(KEYS.map((k, i) => entry(k, [
  '<LastModified>2024-06-01T00:00:00.000Z</LastModified><ETag>&quot;e0&quot;</ETag>',
  '<LastModified>2024-06-02T00:00:00.000Z</LastModified><ETag>&quot;e1&quot;</ETag><StorageClass>GLACIER</StorageClass>',
  '<ETag>&quot;e2-3&quot;</ETag>',
  '<LastModified>2024-06-03T00:00:00.000Z</LastModified>',
  '<LastModified>2024-06-04T00:00:00.000Z</LastModified><ETag>&quot;e4&quot;</ETag>',
][i])).join(''));
const DECODED = ['a', 'café', '😀'.repeat(256), 'no-etag', 'z'];

test('a column chunk and an item chunk of the same entries agree on keys, slices and items', () => {
  const cols = new ColumnChunk(structuredClone(parseListColumns(page).columns));
  const items = cols.toItems();
  expect(items.map((i) => i.Key)).toEqual(DECODED);
  expect(items[1]).toEqual({ Key: 'café', Size: 9, LastModified: new Date('2024-06-02T00:00:00.000Z'), ETag: '"e1"', StorageClass: 'GLACIER' });
  expect(items[2].LastModified).toBeUndefined();
  expect(items[3].ETag).toBeUndefined();
  const plain = new ItemChunk(items);
  for (const c of [cols, plain]) {
    expect(c.length).toBe(5);
    expect(Array.from({ length: c.length }, (_, i) => c.key(i))).toEqual(DECODED);
    // Every sub-range, including empty ones and slices of slices.
    for (let a = 0; a <= 5; a++) {
      for (let b = a; b <= 5; b++) {
        const s = c.slice(a, b);
        expect(s.length).toBe(b - a);
        expect(s.toItems()).toEqual(items.slice(a, b));
        if (b - a >= 2) {
          expect(s.slice(1).toItems()).toEqual(items.slice(a + 1, b));
          expect(s.key(1)).toBe(DECODED[a + 1]);
        }
      }
    }
  }
  // Fields without items: the same values.
  for (const c of [cols, plain, cols.slice(1, 4), plain.slice(1, 4)]) {
    const its = c.toItems();
    for (let i = 0; i < c.length; i++) {
      expect(c.size(i)).toBe(its[i].Size);
      expect(c.storageClass(i)).toBe(its[i].StorageClass);
      expect(Number.isNaN(c.time(i)) ? undefined : c.time(i)).toBe(its[i].LastModified ? its[i].LastModified.getTime() : undefined);
    }
    expect(c.bytes()).toBe(its.reduce((n, it) => n + it.Size, 0));
  }
  // Items are new objects every time: a consumer that changes one changes no other page.
  expect(cols.toItems()[0]).not.toBe(items[0]);
});

test('text: a run of plain keys, one per line, straight from the columns; null when a key needs escaping', () => {
  const page = (keys) => new ColumnChunk(parseListColumns(xml(keys.map((k) => entry(k)).join(''))).columns);
  const c = page(['a', 'b/c', 'd', 'e']);
  expect(c.text()).toBe('a\nb/c\nd\ne\n');
  expect(c.slice(1, 3).text()).toBe('b/c\nd\n');
  expect(c.slice(3).text()).toBe('e\n');
  expect(c.slice(2, 2).text()).toBe('');
  expect(page(['a', 'b%0Ac']).text()).toBeNull();
  expect(new ItemChunk([{ Key: 'a' }]).text()).toBeNull();
});

test('chunkOf wraps a plain page once and keeps a page\'s own chunk', () => {
  const p = { items: [{ Key: 'k' }], truncated: false };
  const c = chunkOf(p);
  expect(c).toBeInstanceOf(ItemChunk);
  expect(chunkOf(p)).toBe(c);
  const own = new ColumnChunk(parseListColumns(xml(entry('x'))).columns);
  expect(chunkOf({ chunk: own })).toBe(own);
});

test('rows of a column chunk are those of its items, and rows back into columns are the same entries (a sort hands on columns)', () => {
  const cols = new ColumnChunk(structuredClone(parseListColumns(page).columns));
  const items = new ItemChunk(cols.toItems());
  for (const [from, to] of [[0, 5], [1, 4], [2, 2]]) expect(cols.slice(from, to).rows()).toEqual(items.slice(from, to).rows());
  // Rows of every shape: no date, no ETag, another class or none, keys that do not print as they are.
  const rows = [['a', 1, 5, '"e"', 'STANDARD'], ['b\nc', 0, null, null, 'STANDARD'], ['d', 3, 7, '"f-2"', 'GLACIER'], ['e\x01', 4, 8, '"g"', undefined]];
  for (let n = 0; n <= rows.length; n++) {
    const back = ColumnChunk.fromRows(rows.slice(0, n));
    expect(back.rows()).toEqual(rows.slice(0, n));
    expect(back.toItems()).toEqual(ItemChunk.fromRows(rows.slice(0, n)).toItems());
    // Printed as they are only while no key holds a newline or a control character.
    expect(back.text()).toBe(n === 0 ? '' : n === 1 ? 'a\n' : null);
  }
});

test('utf16Ordered: whether no key holds a code unit at or above U+D800 (the native order is then S3\'s)', () => {
  for (const [keys, want] of [[['a', 'café', 'z'], true], [['a', '\ud7ff'], true], [['a', '\ue000'], false], [['😀'], false], [['\uffff'], false]]) {
    const rows = keys.map((k) => [k, 1, 0, '"e"', 'STANDARD']);
    expect([keys, ColumnChunk.fromRows(rows).utf16Ordered()]).toEqual([keys, want]);
    expect([keys, ItemChunk.fromRows(rows).utf16Ordered()]).toEqual([keys, want]);
  }
});

test('outside: the first key not in a directory (directly, when asked), read in the joined keys as from items', () => {
  const { prng } = require('../generators/prng');
  const { ColumnSink } = require('../../src/stores/chunks');
  const seed = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
  const r = prng(seed);
  const parts = ['d', 'd/', 'e/', '/', 'é/', '😀', 'x\ny', 'a', ''];
  for (let t = 0; t < 300; t++) {
    const dir = ['', 'd/', 'd/e/', '😀/'][r.int(4)];
    const keys = Array.from({ length: r.int(6) }, () => {
      const inside = r.next() < 0.8;
      let tail = '';
      for (let n = r.int(4); n > 0; n--) tail += r.pick(parts);
      return (inside ? dir : r.pick(['', 'd', 'x/'])) + tail;
    });
    const sink = new ColumnSink();
    for (const k of keys) sink.add(k, 1, NaN, undefined, 'STANDARD');
    const cols = new ColumnChunk(sink.columns());
    const items = new ItemChunk(keys.map((Key) => ({ Key, Size: 1 })));
    const from = r.int(keys.length + 1);
    for (const direct of [true, false]) {
      const want = (ks) => ks.findIndex((k) => !k.startsWith(dir) || (direct && k.slice(dir.length).includes('/')));
      const where = `seed ${seed}: ${JSON.stringify(keys)} in ${JSON.stringify(dir)}${direct ? ' directly' : ''}`;
      expect([where, cols.outside(dir, direct), items.outside(dir, direct)]).toEqual([where, want(keys), want(keys)]);
      expect([where, cols.slice(from).outside(dir, direct)]).toEqual([where, want(keys.slice(from))]);
    }
  }
});
