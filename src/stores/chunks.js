'use strict';
// A run of listed entries in key order: what moves through the listers between a store's
// page and the listing's output. The listers read only keys; items are made when a
// consumer asks for them, and consumers that need only some fields (ls, summarize) read
// those. A page from the lean path stays in its columns until then: pages wait (in flight,
// for order, in queues) long enough to outlive young collections, and a waiting page of
// columns is a few objects where a page of items is four per key.
const { HIGH, compareKeys } = require('../keys/order');

const SURROGATE = /[\ud800-\udfff]/;
const BMP_HIGH = /[\ue000-\uffff]/;

class ItemChunk {
  constructor(items) {
    this.items = items;
    this.length = items.length;
  }

  key(i) { return this.items[i].Key; }

  size(i) { return this.items[i].Size; }

  time(i) { const d = this.items[i].LastModified; return d ? +d : NaN; }

  storageClass(i) { return this.items[i].StorageClass; }

  etag(i) { return this.items[i].ETag; }

  bytes() {
    let n = 0;
    for (let i = 0; i < this.items.length; i++) n += this.items[i].Size || 0;
    return n;
  }

  // The keys, one per line, when they need no escaping; null: ask the items.
  text() { return null; }

  // Whether some key holds `part`: a cheap test before a filter that seldom drops anything.
  keysInclude(part) { return keysInclude(this, part); }

  // Whether no key holds a code unit at or above U+D800, where JavaScript's order of strings
  // is S3's (keys/order.js), so that a sort may use the native comparison.
  utf16Ordered() { return (this.utf16 ??= keysUtf16(this)); }

  // Whether no key is known to hold a control character (a ColumnChunk knows; this does not look).
  keysPlain() { return false; }

  // The index of the first key not in directory dir (not directly in it, when direct), or -1.
  outside(dir, direct) { return outside(this, dir, direct); }

  slice(from, to) { return new ItemChunk(this.items.slice(from, to)); }

  // The UTF-16 code units of its keys together (what holding them costs, with utf16Ordered).
  keyUnits() { return keyUnits(this); }

  toItems() { return this.items; }

  // The rows whose keys pass `keep`, as a chunk of the same kind.
  filterKeys(keep) { return new ItemChunk(this.toItems().filter((it) => keep(it.Key))); }

  // The rows as plain data, for a sort on disk; fromRows turns rows back into a chunk.
  rows() { return this.toItems().map(itemRow); }

  static fromRows(rows) { return new ItemChunk(rows.map(rowItem)); }
}

function outside(chunk, dir, direct) {
  for (let i = 0; i < chunk.length; i++) {
    const key = chunk.key(i);
    if (!key.startsWith(dir) || (direct && key.indexOf('/', dir.length) >= 0)) return i;
  }
  return -1;
}

function keysInclude(chunk, part) {
  for (let i = 0; i < chunk.length; i++) if (chunk.key(i).includes(part)) return true;
  return false;
}

// utf16Ordered and keyUnits of a chunk that holds its keys one by one.
function keysUtf16(chunk) {
  for (let i = 0; i < chunk.length; i++) if (HIGH.test(chunk.key(i))) return false;
  return true;
}

function keyUnits(chunk) {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) n += chunk.key(i).length;
  return n;
}

function itemRow(it) {
  return [it.Key, it.Size, it.LastModified ? +it.LastModified : null, it.ETag ?? null, it.StorageClass];
}

function rowItem([Key, Size, t, ETag, StorageClass]) {
  return { Key, Size, LastModified: t === null ? undefined : new Date(t), ETag: ETag ?? undefined, StorageClass };
}

// Columns as ColumnSink (below) makes them: the keys joined with newlines and where
// each ends, plain when they print as they are; the ETags joined ('' for none) and where
// each ends; sizes and times (NaN for none) as typed arrays; storage classes (null when
// all are STANDARD, else {names: the distinct ones, of: a Uint8Array of indexes in names}:
// a class per key as a string each would cost a clone of a thousand strings a page, and
// a directory bucket's pages name EXPRESS_ONEZONE on every key).
// Where key j starts in the newline-joined keys.
function keyStart(c, j) {
  return j === 0 ? 0 : c.keyEnds[j - 1] + 1;
}

// Key j's storage class.
function classAt(c, j) {
  return c.classes ? c.classes.names[c.classes.of[j]] : 'STANDARD';
}

class ColumnChunk {
  constructor(columns, from = 0, to = columns.sizes.length) {
    this.c = columns;
    this.from = from;
    this.length = to - from;
  }

  key(i) {
    const c = this.c;
    const j = this.from + i;
    return c.keys.slice(keyStart(c, j), c.keyEnds[j]);
  }

  size(i) { return this.c.sizes[this.from + i]; }

  time(i) { return this.c.times[this.from + i]; }

  storageClass(i) { return classAt(this.c, this.from + i); }

  etag(i) {
    const c = this.c, j = this.from + i;
    const e0 = j === 0 ? 0 : c.etagEnds[j - 1], e1 = c.etagEnds[j];
    return e1 > e0 ? c.etags.slice(e0, e1) : undefined;
  }

  bytes() {
    let n = 0;
    for (let j = this.from, end = this.from + this.length; j < end; j++) n += this.c.sizes[j];
    return n;
  }

  text() {
    const c = this.c;
    if (!c.plain || this.length === 0) return this.length === 0 ? '' : null;
    return c.keys.slice(keyStart(c, this.from), c.keyEnds[this.from + this.length - 1]) + '\n';
  }

  // One search of the joined keys (a part without a newline cannot span two of them).
  keysInclude(part) {
    if (this.length === 0) return false;
    const c = this.c;
    const at = c.keys.indexOf(part, keyStart(c, this.from));
    return at >= 0 && at + part.length <= c.keyEnds[this.from + this.length - 1];
  }

  // (read in the joined keys, without a string per key; indexOf, where V8's startsWith and
  // lastIndexOf at a position cost several times more: 0.75 µs a key, profiled)
  outside(dir, direct) {
    const c = this.c, keys = c.keys, n = dir.length;
    for (let i = 0, j = this.from; i < this.length; i++, j++) {
      const k0 = keyStart(c, j), k1 = c.keyEnds[j];
      if (k1 - k0 < n || keys.indexOf(dir, k0) !== k0) return i;
      if (direct) { const slash = keys.indexOf('/', k0 + n); if (slash >= 0 && slash < k1) return i; }
    }
    return -1;
  }

  slice(from, to = this.length) { return new ColumnChunk(this.c, this.from + from, this.from + Math.min(to, this.length)); }

  keyUnits() { return this.length === 0 ? 0 : this.c.keyEnds[this.from + this.length - 1] - keyStart(this.c, this.from) - (this.length - 1); }

  // (of the whole page, as the sink that made the columns saw it)
  utf16Ordered() { return this.c.utf16; }

  keysPlain() { return this.c.plain; }

  filterKeys(keep) { return new ItemChunk(this.toItems().filter((it) => keep(it.Key))); }

  // Rows (itemRow's) straight from the columns, no item made on the way.
  rows() {
    const c = this.c;
    const out = new Array(this.length);
    let j = this.from;
    let k0 = keyStart(c, j), e0 = j === 0 ? 0 : c.etagEnds[j - 1];
    for (let i = 0; i < out.length; i++, j++) {
      const k1 = c.keyEnds[j], e1 = c.etagEnds[j], t = c.times[j];
      out[i] = [c.keys.slice(k0, k1), c.sizes[j], t === t ? t : null, e1 > e0 ? c.etags.slice(e0, e1) : null, classAt(c, j)];
      k0 = k1 + 1;
      e0 = e1;
    }
    return out;
  }

  // Rows back into columns (what a sort on disk or in memory hands on stays columns).
  static fromRows(rows) {
    const sink = new ColumnSink();
    for (const r of rows) sink.add(r[0], r[1], r[2] === null ? NaN : r[2], r[3] ?? undefined, r[4]);
    return new ColumnChunk(sink.columns());
  }

  // Items: {Key, Size, LastModified, ETag, StorageClass}, like every store lists.
  toItems() {
    const c = this.c;
    const n = this.length;
    const items = new Array(n);
    let j = this.from;
    let k0 = keyStart(c, j), e0 = j === 0 ? 0 : c.etagEnds[j - 1];
    for (let i = 0; i < n; i++, j++) {
      const k1 = c.keyEnds[j], e1 = c.etagEnds[j], t = c.times[j];
      items[i] = {
        Key: c.keys.slice(k0, k1),
        Size: c.sizes[j],
        LastModified: t === t ? new Date(t) : undefined,
        ETag: e1 > e0 ? c.etags.slice(e0, e1) : undefined,
        StorageClass: classAt(c, j),
      };
      k0 = k1 + 1;
      e0 = e1;
    }
    return items;
  }
}

// Entries as a few columns (list-parser.js fills them for the request thread, a sort's rows
// for ColumnChunk.fromRows): a structured clone of one joined string and some typed arrays
// costs a fraction of a clone of a thousand objects. Keys are joined with newlines: when
// none holds a control character (plain), a run of them prints as is.
// Whether they increase in S3's order is seen here, where each key is at hand anyway
// (sorted), and whether any holds a code unit at or above U+D800 (utf16: if none, native
// comparisons of them are S3's order). The native comparison of two keys is S3's unless
// one holds a surrogate and the other a unit in U+E000..U+FFFF (keys/order.js): only such
// neighbours are compared by compareKeys.
class ColumnSink {
  constructor() {
    this.keys = []; this.sizes = []; this.times = []; this.etags = [];
    this.classNames = null; this.classOf = null; this.lastClass = 0; // (null: all STANDARD so far)
    this.sorted = true;
    this.utf16 = true;
    this.astral = false; this.bmpHigh = false; // what the last key holds
    this.plain = true;
  }

  get length() { return this.keys.length; }

  // ascii: the parser knows the key is plain ASCII.
  add(key, size, time, etag, storageClass, ascii = false) {
    const n = this.keys.length;
    if (this.sorted || this.utf16) {
      const astral = !ascii && SURROGATE.test(key), bmpHigh = !ascii && BMP_HIGH.test(key);
      if (astral || bmpHigh) this.utf16 = false;
      if (n > 0 && this.sorted) {
        const prev = this.keys[n - 1];
        const mixed = (astral && this.bmpHigh) || (bmpHigh && this.astral);
        if (mixed ? compareKeys(prev, key) >= 0 : !(prev < key)) this.sorted = false;
      }
      this.astral = astral;
      this.bmpHigh = bmpHigh;
    }
    this.addKnown(key, size, time, etag, storageClass);
  }

  // The class of the key just added (the first not STANDARD starts the column).
  _class(storageClass) {
    if (!this.classNames) {
      this.classNames = ['STANDARD'];
      this.classOf = new Array(this.keys.length - 1).fill(0);
    }
    // Neighbours share a class: the last one's index is tried first.
    let at = this.classNames[this.lastClass] === storageClass ? this.lastClass : this.classNames.indexOf(storageClass);
    if (at < 0) {
      if (this.classNames.length === 256) throw new Error('more than 256 storage classes on one page');
      at = this.classNames.push(storageClass) - 1;
    }
    this.lastClass = at;
    this.classOf.push(at);
  }

  // A key whose place the caller knows (a sort's output): its order and code units are
  // not looked at again; the caller says what it knows of its source with knows().
  addKnown(key, size, time, etag, storageClass) {
    if (this.plain && key.indexOf('\n') >= 0) this.plain = false;
    this.keys.push(key);
    this.sizes.push(size);
    this.times.push(time);
    this.etags.push(etag === undefined ? '' : etag); // S3 never sends an empty ETag
    if (storageClass !== 'STANDARD' || this.classNames) this._class(storageClass);
  }

  // What a source of addKnown's keys is known to be: utf16 (its keys are: see add) and
  // plain (none holds a control character). A sink given only keys known plain skips the
  // test of its joined keys.
  knows(utf16, plain) {
    this.sorted = false; // (not looked at)
    if (!utf16) this.utf16 = false;
    this.plainKnown = (this.plainKnown ?? true) && plain;
  }

  columns() {
    const keys = this.keys.join('\n');
    return {
      keys, keyEnds: ends(this.keys, 1), plain: this.plain && (this.plainKnown === true || !CONTROL.test(keys)), utf16: this.utf16,
      etags: this.etags.join(''), etagEnds: ends(this.etags, 0),
      sizes: Float64Array.from(this.sizes), times: Float64Array.from(this.times),
      classes: this.classNames && { names: this.classNames, of: Uint8Array.from(this.classOf) },
    };
  }
}

const CONTROL = /[\x00-\x09\x0b-\x1f\x7f]/;

// Where each string ends in strings.join(sep), sep of length gap.
function ends(strings, gap) {
  const out = new Uint32Array(strings.length);
  let n = 0;
  for (let i = 0; i < strings.length; i++) { out[i] = n += strings[i].length; n += gap; }
  return out;
}

// A store's page as a chunk: pages of the lean path carry one, others a plain items array.
function chunkOf(page) {
  return page.chunk || (page.chunk = new ItemChunk(page.items));
}

module.exports = { keysInclude, keysUtf16, keyUnits, ItemChunk, ColumnChunk, ColumnSink, chunkOf, itemRow, rowItem };
