'use strict';
// A bucket summary built one item at a time, in memory that does not grow with the bucket.
const { GroupCounter } = require('./group-counter');

const KiB = 1024;
// Histogram bucket upper bounds (exclusive): 1 KiB, 4 KiB, ... 4^k KiB, then 1 TiB+.
const BOUNDS = [1];
for (let b = KiB; b <= 4 ** 10 * KiB; b *= 4) BOUNDS.push(b);

function extensionOf(key) {
  const base = key.slice(key.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return '(none)';
  const ext = base.slice(dot + 1).toLowerCase();
  return ext.length > 16 ? '(none)' : ext;
}

function folderOf(key, depth) {
  let i = -1;
  for (let d = 0; d < depth; d++) {
    const j = key.indexOf('/', i + 1);
    if (j < 0) break;
    i = j;
  }
  return i < 0 ? '(root)' : key.slice(0, i + 1);
}

class Summary {
  constructor({ summarizeFolders = false, depth = 1, top = 20 } = {}) {
    this.objects = 0;
    this.bytes = 0;
    this.minSize = null;
    this.maxSize = null;
    this.histogram = new Array(BOUNDS.length + 1).fill(0);
    this.histogramBytes = new Array(BOUNDS.length + 1).fill(0);
    this.classes = new Map();
    this.extensions = new GroupCounter();
    this.folders = summarizeFolders ? new GroupCounter() : null;
    this.depth = depth;
    this.top = top;
    this.oldest = null;
    this.newest = null;
  }

  add(item) {
    this.addEntry(item.Key, item.Size, item.LastModified ? +item.LastModified : NaN, item.StorageClass);
  }

  // One object's fields: key, size, time (ms, NaN for none), storage class.
  addEntry(key, size, t, storageClass) {
    size = size || 0;
    this.objects++;
    this.bytes += size;
    if (this.minSize === null || size < this.minSize) this.minSize = size;
    if (this.maxSize === null || size > this.maxSize) this.maxSize = size;
    let b = 0;
    while (b < BOUNDS.length && size >= BOUNDS[b]) b++;
    this.histogram[b]++;
    this.histogramBytes[b] += size;
    const cls = storageClass || '(none)';
    const c = this.classes.get(cls);
    if (c) { c[0]++; c[1] += size; } else this.classes.set(cls, [1, size]);
    this.extensions.add(extensionOf(key), size);
    if (this.folders) this.folders.add(folderOf(key, this.depth), size);
    if (!Number.isNaN(t)) {
      if (!this.oldest || t < this.oldest.t) this.oldest = { t, Key: key };
      if (!this.newest || t > this.newest.t) this.newest = { t, Key: key };
    }
  }

  /** chunk: a run of listed entries (stores/chunks.js), read without making items. */
  addChunk(chunk) {
    for (let i = 0; i < chunk.length; i++) this.addEntry(chunk.key(i), chunk.size(i), chunk.time(i), chunk.storageClass(i));
  }

  toJSON() {
    const histogram = [];
    for (let b = 0; b <= BOUNDS.length; b++) {
      if (!this.histogram[b]) continue;
      histogram.push({ min: b === 0 ? 0 : BOUNDS[b - 1], max: b < BOUNDS.length ? BOUNDS[b] : null, objects: this.histogram[b], bytes: this.histogramBytes[b] });
    }
    const at = (x) => (x ? { key: x.Key, lastModified: new Date(x.t).toISOString() } : null);
    return {
      objects: this.objects,
      bytes: this.bytes,
      minSize: this.minSize,
      meanSize: this.objects ? this.bytes / this.objects : null,
      maxSize: this.maxSize,
      histogram,
      storageClasses: [...this.classes.entries()].sort((a, b) => b[1][1] - a[1][1]).map(([name, [objects, bytes]]) => ({ name, objects, bytes })),
      extensions: this.extensions.top(this.top),
      folders: this.folders ? this.folders.top(this.top) : undefined,
      depth: this.folders ? this.depth : undefined,
      approximate: this.extensions.folded || Boolean(this.folders && this.folders.folded),
      oldest: at(this.oldest),
      newest: at(this.newest),
    };
  }
}

module.exports = { Summary, extensionOf, folderOf, BOUNDS };
