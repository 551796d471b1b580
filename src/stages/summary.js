'use strict';
// A bucket summary built one item at a time, in memory that does not grow with the bucket.
const { GroupCounter } = require('./group-counter');
const { SizeQuantiles } = require('./size-quantiles');
const { AgeHistogram } = require('./age-histogram');
const { PrefixTree } = require('./prefix-tree');
const { KeyTrouble } = require('./key-trouble');
const { largest: largestOf, oldest: oldestOf } = require('./top-objects');
const { storageCost, loadPrices, SMALL_OBJECT } = require('./storage-cost');
const { VersionSummary } = require('./version-summary');
const { UsageError } = require('../errors');
const { compareKeys, precedes, lowKey } = require('../keys/order');

const EMPTY_EXAMPLES = 5;
// --summarize-folders' flat table groups at depth 1 unless --depth is given (the folder
// tree's default depth is the options table's).
const FOLDERS_DEPTH = 1;

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

// The first EMPTY_EXAMPLES keys in S3 order (the same whatever order pages arrive in).
function addExample(examples, key) {
  if (examples.length >= EMPTY_EXAMPLES && compareKeys(key, examples[examples.length - 1]) >= 0) return;
  let i = examples.length;
  while (i > 0 && compareKeys(key, examples[i - 1]) < 0) i--;
  if (examples[i - 1] === key) return;
  examples.splice(i, 0, key);
  if (examples.length > EMPTY_EXAMPLES) examples.pop();
}

class Summary {
  /**
   * summarizeFolders, depth: the flat folder table at one depth; treeDepth, maxTreeNodes,
   * prefix: the folder tree below the listing's prefix; top: rows per group table;
   * largest: how many of the largest and of the oldest objects to name; prices: a price
   * table or a file of one (storage-cost.js); by: --by's grouping; versions: --all-versions.
   */
  constructor({ summarizeFolders = false, depth = 1, top = 20, treeDepth = 3, maxTreeNodes = 5000, largest = 20, prefix = '', prices, by, versions = false } = {}) {
    this.objects = 0;
    this.bytes = 0;
    this.minSize = null;
    this.maxSize = null;
    this.histogram = new Array(BOUNDS.length + 1).fill(0);
    this.histogramBytes = new Array(BOUNDS.length + 1).fill(0);
    this.classes = new Map(); // name -> [objects, bytes, objects below 128 KiB, their bytes]
    this.extensions = new GroupCounter();
    this.folders = summarizeFolders ? new GroupCounter() : null;
    this.depth = depth;
    this.top = top;
    this.oldest = null;
    this.newest = null;
    this.quantiles = new SizeQuantiles();
    this.ages = new AgeHistogram();
    this.tree = new PrefixTree({ prefix, depth: treeDepth, maxNodes: maxTreeNodes });
    this.trouble = new KeyTrouble();
    this.largest = largestOf(largest);
    this.oldestN = oldestOf(largest);
    this.multipart = [0, 0];
    this.empty = { objects: 0, folderMarkers: 0, examples: [] };
    this.prices = loadPrices(prices);
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
    this.addEntry(item.Key, item.Size, item.LastModified ? +item.LastModified : NaN, item.StorageClass, item.ETag);
  }

  // One object's fields: key, size, time (ms, NaN for none), storage class, ETag.
  addEntry(key, size, t, storageClass, etag) {
    size = size || 0;
    this.objects++;
    this.bytes += size;
    if (this.minSize === null || size < this.minSize) this.minSize = size;
    if (this.maxSize === null || size > this.maxSize) this.maxSize = size;
    let b = 0;
    while (b < BOUNDS.length && size >= BOUNDS[b]) b++;
    this.histogram[b]++;
    this.histogramBytes[b] += size;
    this.quantiles.add(size);
    const cls = storageClass || '(none)';
    const c = this.classes.get(cls);
    const small = size < SMALL_OBJECT;
    if (c) { c[0]++; c[1] += size; if (small) { c[2]++; c[3] += size; } } else this.classes.set(cls, [1, size, small ? 1 : 0, small ? size : 0]);
    this.extensions.add(extensionOf(key), size);
    if (this.folders) this.folders.add(folderOf(key, this.depth), size);
    if (!Number.isNaN(t)) {
      // Equal times go to the key first in S3 order, whatever order the pages came in.
      // (each remembers whether its key compares natively: most keys tie where times are equal)
      if (!this.oldest || t < this.oldest.t || (t === this.oldest.t && precedes(key, this.oldest.Key, this.oldest.low))) this.oldest = { t, Key: key, low: lowKey(key) };
      if (!this.newest || t > this.newest.t || (t === this.newest.t && precedes(key, this.newest.Key, this.newest.low))) this.newest = { t, Key: key, low: lowKey(key) };
      if (this.oldestN.wants(t)) this.oldestN.add({ v: t, key, size, t, storageClass: cls });
    }
    this.ages.add(t, size);
    this.tree.add(key, size, t);
    this.trouble.add(key);
    if (this.largest.wants(size)) this.largest.add({ v: size, key, size, t, storageClass: cls });
    if (etag && etag.indexOf('-') >= 0) { this.multipart[0]++; this.multipart[1] += size; }
    if (size === 0) {
      this.empty.objects++;
      if (key.endsWith('/')) this.empty.folderMarkers++;
      else addExample(this.empty.examples, key);
    }
  }

  /** chunk: a run of listed entries (stores/chunks.js), read without making items. */
  addChunk(chunk) {
    if (this.versions || this.byGroups) { for (const it of chunk.toItems()) this.add(it); return; }
    for (let i = 0; i < chunk.length; i++) this.addEntry(chunk.key(i), chunk.size(i), chunk.time(i), chunk.storageClass(i), chunk.etag(i));
  }

  toJSON() {
    const histogram = [];
    for (let b = 0; b <= BOUNDS.length; b++) {
      if (!this.histogram[b]) continue;
      histogram.push({ min: b === 0 ? 0 : BOUNDS[b - 1], max: b < BOUNDS.length ? BOUNDS[b] : null, objects: this.histogram[b], bytes: this.histogramBytes[b] });
    }
    const at = (x) => (x ? { key: x.Key, lastModified: new Date(x.t).toISOString() } : null);
    const classRows = [...this.classes.entries()].sort((a, b) => b[1][1] - a[1][1]);
    const object = (e) => ({ key: e.key, size: e.size, lastModified: e.t === e.t ? new Date(e.t).toISOString() : null, storageClass: e.storageClass });
    return {
      objects: this.objects,
      bytes: this.bytes,
      minSize: this.minSize,
      meanSize: this.objects ? this.bytes / this.objects : null,
      maxSize: this.maxSize,
      histogram,
      storageClasses: classRows.map(([name, [objects, bytes]]) => ({ name, objects, bytes })),
      extensions: this.extensions.top(this.top),
      folders: this.folders ? this.folders.top(this.top) : undefined,
      depth: this.folders ? this.depth : undefined,
      by: this.byGroups ? { label: this.by.label, groups: this.byGroups.top(this.top) } : undefined,
      versions: this.versions ? this.versions.toJSON() : undefined,
      approximate: this.extensions.folded || Boolean(this.folders && this.folders.folded) || Boolean(this.byGroups && this.byGroups.folded),
      oldest: at(this.oldest),
      newest: at(this.newest),
      // Added by the report of issue 17: every field above keeps its meaning.
      sizeQuantiles: this.quantiles.toJSON(),
      ageHistogram: this.ages.toJSON(),
      storageCost: storageCost(classRows.map(([name, [objects, bytes, smallObjects, smallBytes]]) => ({ name, objects, bytes, smallObjects, smallBytes })), this.prices),
      multipart: { objects: this.multipart[0], bytes: this.multipart[1] },
      empty: this.empty,
      tree: this.tree.toJSON(),
      largest: this.largest.sorted().map(object),
      oldestObjects: this.oldestN.sorted().map(object),
      troubleKeys: this.trouble.toJSON(),
    };
  }

  // What a shard's summary carries beyond its report, so merge.js can combine shards into the
  // summary one process would have made: counters the report shows only as results.
  mergeState() {
    const classes = [...this.classes].map(([name, [objects, bytes, smallObjects, smallBytes]]) => ({ name, objects, bytes, smallObjects, smallBytes }));
    return {
      quantiles: this.quantiles.state(), ages: this.ages.state(), classes, prices: this.prices, top: this.top, largest: this.largest.n ?? null,
      extensions: this.extensions.state(), folders: this.folders ? this.folders.state() : null,
    };
  }
}

module.exports = { Summary, extensionOf, folderOf, groupingOf, BOUNDS, FOLDERS_DEPTH };
