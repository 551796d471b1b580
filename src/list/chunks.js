'use strict';
// A run of listed entries in key order: what moves through the listers between a store's
// page and the listing's output. The listers read only keys; items are made when the
// listing hands a chunk out. A page from the lean path stays in its columns until then:
// pages wait (in flight, for order, in queues) long enough to outlive young collections,
// and a waiting page of columns is a few objects where a page of items is four per key.

class ItemChunk {
  constructor(items) {
    this.items = items;
    this.length = items.length;
  }

  key(i) { return this.items[i].Key; }

  slice(from, to) { return new ItemChunk(this.items.slice(from, to)); }

  toItems() { return this.items; }
}

// Columns as list-parser's ColumnSink makes them: one joined key string with the end of
// each key, the same for ETags ('' for none), sizes and times (NaN for none) as typed
// arrays, storage classes (null when all are STANDARD).
class ColumnChunk {
  constructor(columns, from = 0, to = columns.sizes.length) {
    this.c = columns;
    this.from = from;
    this.length = to - from;
  }

  key(i) {
    const c = this.c;
    const j = this.from + i;
    return c.keys.slice(j === 0 ? 0 : c.keyEnds[j - 1], c.keyEnds[j]);
  }

  slice(from, to = this.length) { return new ColumnChunk(this.c, this.from + from, this.from + Math.min(to, this.length)); }

  // Items: {Key, Size, LastModified, ETag, StorageClass}, like every store lists.
  toItems() {
    const c = this.c;
    const n = this.length;
    const items = new Array(n);
    let j = this.from;
    let k0 = j === 0 ? 0 : c.keyEnds[j - 1], e0 = j === 0 ? 0 : c.etagEnds[j - 1];
    for (let i = 0; i < n; i++, j++) {
      const k1 = c.keyEnds[j], e1 = c.etagEnds[j], t = c.times[j];
      items[i] = {
        Key: c.keys.slice(k0, k1),
        Size: c.sizes[j],
        LastModified: t === t ? new Date(t) : undefined,
        ETag: e1 > e0 ? c.etags.slice(e0, e1) : undefined,
        StorageClass: c.classes ? c.classes[j] : 'STANDARD',
      };
      k0 = k1;
      e0 = e1;
    }
    return items;
  }
}

// A store's page as a chunk: pages of the lean path carry one, others a plain items array.
function chunkOf(page) {
  return page.chunk || (page.chunk = new ItemChunk(page.items));
}

module.exports = { ItemChunk, ColumnChunk, chunkOf };
