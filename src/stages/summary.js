'use strict';
// A bucket summary built one item at a time, in memory that does not grow with the bucket.
const { GroupCounter } = require('./group-counter');
const { VersionSummary } = require('./version-summary');
const { UsageError } = require('../errors');

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

// summarize --by: what an item is grouped by (content-type, metadata:NAME, tag:NAME), from
// the fields a metadata scan puts on it (object-listing.js).
function groupingOf(by) {
  if (by === undefined || by === null || by === '') return null;
  const b = String(by).trim();
  if (b.toLowerCase() === 'content-type') return { label: 'content type', of: (it) => it.ContentType || '(none)' };
  const m = /^(metadata|tag):(.+)$/i.exec(b);
  if (!m) throw new UsageError(`--by must be content-type, metadata:NAME or tag:NAME, not ${JSON.stringify(b)}`);
  const name = m[2];
  if (m[1].toLowerCase() === 'tag') return { label: `tag ${name}`, of: (it) => (it.Tags && Object.prototype.hasOwnProperty.call(it.Tags, name) ? String(it.Tags[name]) : '(none)') };
  // User metadata names come back in lower case from S3 (HTTP headers).
  const lower = name.toLowerCase();
  return { label: `metadata ${lower}`, of: (it) => { const md = it.Metadata || {}; const v = md[lower] ?? md[name]; return v === undefined ? '(none)' : String(v); } };
}

class Summary {
  constructor({ summarizeFolders = false, depth = 1, top = 20, by, versions = false } = {}) {
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
    this.by = groupingOf(by);
    this.byGroups = this.by ? new GroupCounter() : null;
    // --all-versions: the summary counts every version that holds bytes; this splits them.
    this.versions = versions ? new VersionSummary() : null;
  }

  add(item) {
    if (this.versions) {
      this.versions.add(item);
      if (item.DeleteMarker) return;
    }
    if (this.byGroups) this.byGroups.add(this.by.of(item), item.Size || 0);
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
    if (this.versions || this.byGroups) { for (const it of chunk.toItems()) this.add(it); return; }
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
      by: this.byGroups ? { label: this.by.label, groups: this.byGroups.top(this.top) } : undefined,
      versions: this.versions ? this.versions.toJSON() : undefined,
      approximate: this.extensions.folded || Boolean(this.folders && this.folders.folded) || Boolean(this.byGroups && this.byGroups.folded),
      oldest: at(this.oldest),
      newest: at(this.newest),
    };
  }
}

module.exports = { Summary, extensionOf, folderOf, groupingOf, BOUNDS };
