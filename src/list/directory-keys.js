'use strict';
// The keys of one directory of a directory bucket as its pages arrive (in no key order),
// handed out in S3's order once the directory is listed. Up to `limit` keys stay as the
// pages' chunks (a few typed arrays and strings each, cheap to hold for the collector) and
// are sorted by their keys alone; past it every key goes to an ExternalSorter as a row,
// sorted in runs on disk, so a directory of any size is sorted in bounded memory.
const { ExternalSorter } = require('../util/spool');
const { compareCodeUnits } = require('../keys/order');
const { sortOrder } = require('../keys/sort');

class DirectoryKeys {
  constructor(limit) {
    this.limit = limit;
    this.chunks = [];
    this.count = 0;
    this.sorter = null;
    this.utf16 = true; // no key holds a code unit >= U+D800 (so far): native comparisons are S3's order
    this.plain = true; // every chunk knows its keys hold no control character
  }

  add(chunk) {
    if (!chunk.length) return;
    if (this.utf16 && !chunk.utf16Ordered()) this.utf16 = false;
    if (this.plain && !chunk.keysPlain()) this.plain = false;
    this.count += chunk.length;
    if (this.sorter) { pushRows(this.sorter, chunk); return; }
    this.chunks.push(chunk);
    if (this.count > this.limit) {
      this.sorter = new ExternalSorter((r) => r[0], { chunk: this.limit });
      for (const c of this.chunks) pushRows(this.sorter, c);
      this.chunks = null;
    }
  }

  /**
   * The keys in S3's order when all are in memory: {length, key(j), addTo(sink, j)}
   * (sink: a ColumnSink, told what the keys are with knows()); null when they went to
   * disk (sortedRows()).
   */
  inMemory() {
    if (this.sorter) return null;
    const n = this.count;
    const keys = new Array(n), from = new Uint32Array(n), at = new Uint32Array(n);
    let j = 0;
    this.chunks.forEach((c, ci) => {
      for (let i = 0; i < c.length; i++, j++) { keys[j] = c.key(i); from[j] = ci; at[j] = i; }
    });
    const order = sortOrder(keys, { native: this.utf16 });
    const chunks = this.chunks;
    return {
      length: n,
      key: (r) => keys[order[r]],
      addTo: (sink, r) => {
        const o = order[r], c = chunks[from[o]], i = at[o];
        sink.addKnown(keys[o], c.size(i), c.time(i), c.etag(i), c.storageClass(i));
      },
    };
  }

  // Rows (itemRow's) in S3's order, from the runs on disk (the directory was larger than the limit).
  sortedRows() {
    // Runs were sorted by compareKeys; where no key holds a high code unit the native order
    // is the same, and the runs merge by it.
    if (this.utf16) this.sorter.compare = compareCodeUnits;
    return this.sorter.sorted();
  }

  remove() {
    if (this.sorter) this.sorter.remove();
    this.chunks = [];
  }
}

function pushRows(sorter, chunk) {
  for (const row of chunk.rows()) sorter.push(row);
}

module.exports = { DirectoryKeys };
