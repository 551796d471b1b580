'use strict';
// An in-memory versioned bucket answering ListObjectVersions for unit tests, ordered
// independently of the code under test (keys by their UTF-8 bytes, through fake-list-store's
// remapping; each key's versions newest first), with S3's paging: at most maxKeys entries
// (versions, delete markers and folders) per page, cut anywhere, also inside one key's
// versions; KeyMarker alone lists the keys after it, with VersionIdMarker the versions after
// that one of that key. Requests finish in random order, or in rounds (a virtual clock).
const { utf8Sort, makeRng } = require('./fake-list-store');

function aborted(signal) {
  return new Promise((resolve, reject) => {
    const fail = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    if (signal.aborted) fail(); else signal.addEventListener('abort', fail, { once: true });
  });
}

const T0 = Date.parse('2024-01-01T00:00:00Z');

// Versions of keys: layout is [[key, n, markers]] (n entries, newest first; `markers`: the
// indexes among them that are delete markers). Returns the entries in S3's order.
function versionsOf(layout, { utf16 = false } = {}) {
  const byKey = new Map(layout.map(([key, n, markers = []]) => [key, { n, markers: new Set(markers) }]));
  const out = [];
  const order = utf16 ? [...byKey.keys()].sort().map((k) => [k, k]) : utf8Sort([...byKey.keys()]);
  for (const [, key] of order) {
    const { n, markers } = byKey.get(key);
    for (let j = 0; j < n; j++) {
      const marker = markers.has(j);
      out.push({
        Key: key, VersionId: `v${j}-${key.length}-${n}`, IsLatest: j === 0, DeleteMarker: marker,
        Size: marker ? 0 : (key.length * 7 + j) % 1000, LastModified: new Date(T0 + (n - j) * 1000),
        ETag: marker ? undefined : `"e${j}x${key.length}"`, StorageClass: marker ? undefined : 'STANDARD',
      });
    }
  }
  return out;
}

class FakeVersionStore {
  // utf16: lists (and reads markers) in JavaScript's UTF-16 order, as s3proxy does.
  constructor(layout, { maxKeys = 1000, seed = 1, jitter = true, rounds = false, utf16 = false } = {}) {
    this.entries = versionsOf(layout, { utf16 });
    this.reference = utf16 ? versionsOf(layout) : this.entries;
    // Sort forms of each entry's key, for binary searches in the store's order.
    const forms = new Map(utf16 ? this.entries.map((e) => [e.Key, e.Key]) : utf8Sort(this.entries.map((e) => e.Key)).map(([form, key]) => [key, form]));
    this.formOf = (k) => forms.get(k) ?? (utf16 ? k : utf8Sort([k])[0][0]);
    this.forms = this.entries.map((e) => forms.get(e.Key));
    this.maxKeys = maxKeys;
    this.rng = makeRng(seed);
    this.jitter = jitter;
    this.rounds = rounds;
    this.round = 0;
    this.waiting = [];
    this.requests = 0;
    this.type = 's3';
    this.delimiters = true;
    this.bucket = 'fake-versions';
    this.endpoint = 'memory';
  }

  open() { return Promise.resolve(); }

  destroy() {}

  _nextRound() {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length > 1) return;
      setImmediate(() => { this.round++; const go = this.waiting; this.waiting = []; for (const f of go) f(); });
    });
  }

  // First entry index whose key is > k (after) or >= k.
  _bound(k, after) {
    const t = this.formOf(k);
    let lo = 0, hi = this.forms.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (after ? this.forms[m] <= t : this.forms[m] < t) lo = m + 1; else hi = m; }
    return lo;
  }

  async listVersionsPage({ prefix = '', keyMarker, versionIdMarker, maxKeys, delimiter, signal }) {
    this.requests++;
    const wait = this.rounds ? this._nextRound() : this.jitter ? new Promise((r) => (this.rng() < 0.5 ? setImmediate(r) : setTimeout(r, Math.floor(this.rng() * 3)))) : null;
    if (wait) await (signal ? Promise.race([wait, aborted(signal)]) : wait);
    let i = 0;
    if (keyMarker) {
      i = this._bound(keyMarker, true);
      if (versionIdMarker) {
        const at = this._bound(keyMarker, false);
        for (let j = at; j < i; j++) if (this.entries[j].VersionId === versionIdMarker) { i = j + 1; break; }
      }
    }
    if (prefix) i = Math.max(i, this._bound(prefix, false));
    const want = Math.min(maxKeys || this.maxKeys, this.maxKeys);
    const entries = [];
    const prefixes = delimiter ? [] : undefined;
    const all = this.entries;
    while (i < all.length && entries.length + (prefixes ? prefixes.length : 0) < want) {
      const k = all[i].Key;
      if (prefix && !k.startsWith(prefix)) break;
      const d = delimiter ? k.indexOf(delimiter, prefix.length) : -1;
      if (d >= 0) {
        const folder = k.slice(0, d + delimiter.length);
        if (!keyMarker || this.formOf(folder) > this.formOf(keyMarker)) prefixes.push(folder);
        while (i < all.length && all[i].Key.startsWith(folder)) i++;
        continue;
      }
      entries.push({ ...all[i] });
      i++;
    }
    const truncated = i < all.length && (!prefix || all[i].Key.startsWith(prefix));
    const last = entries[entries.length - 1];
    return { entries, prefixes, truncated, nextKeyMarker: truncated && last ? last.Key : undefined, nextVersionIdMarker: truncated && last ? last.VersionId : undefined };
  }

  // The reference: every entry in S3's order, as [Key, VersionId] (within a prefix).
  expected(prefix = '') {
    return this.reference.filter((e) => e.Key.startsWith(prefix)).map((e) => [e.Key, e.VersionId]);
  }
}

module.exports = { FakeVersionStore, versionsOf };
