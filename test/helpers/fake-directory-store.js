'use strict';
// An in-memory directory bucket (S3 Express One Zone) as ListObjectsV2 sees it, for unit
// tests, after AWS's documentation of how directory buckets differ:
// - pages come in no key order: each listing (a chain of continuation tokens) walks its
//   entries in a fresh seeded shuffle, different on every call;
// - StartAfter is refused (InvalidArgument), a delimiter other than "/" too, and with a
//   delimiter the prefix must end in "/";
// - CommonPrefixes include directories that exist only for an in-progress multipart upload
//   (uploads: keys of such uploads): listed, they hold nothing;
// - repeatPrefixes: a subdirectory may be named again on a later page of the same listing.
// A page holds at most maxKeys entries, keys and CommonPrefixes together. With rounds,
// requests are answered a round at a time, as FakeListStore's (its virtual clock: `round`).
const { FakeListStore } = require('./fake-list-store');

function makeRng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

const MAX_CHAINS = 10000;

class DirectoryBucketError extends Error {
  constructor(code, message) { super(message); this.name = code; this.Code = code; this.$metadata = { httpStatusCode: 400 }; }
}

class FakeDirectoryStore {
  // describe(key): the listing's item of a key, {Key, Size, LastModified, ETag, StorageClass}
  // (an HTTP fake's objects), or null for a key deleted since. Asked once per key while
  // nothing changes (kept beside the directory model: a lookup per key listed was most of
  // the fake's CPU in a benchmark).
  constructor(keys, { seed = 1, uploads = [], maxKeys = 1000, repeatPrefixes = false, latencyMs = 0, rounds = false, bucket = 'data--use1-az4--x-s3', describe = null, measureCpu = true, stall = null } = {}) {
    this.stall = stall; // stall(n): the n-th request is never answered (only its abort ends it)
    this.describe = describe;
    this.measureCpu = measureCpu; // serveMicros kept (a virtual-clock benchmark leaves it out of the client's CPU)
    this.rounds = rounds;
    this.round = 0;
    this.waiting = [];
    this.inflightRounds = 0;
    this.serveMicros = 0; // CPU of the fake's own page making
    this.latencyMs = latencyMs; // each request's wait (else a random tick or two)
    this.keys = [...new Set(keys)];
    this.uploads = uploads;
    this.rng = makeRng(seed);
    this.maxKeys = maxKeys;
    this.repeatPrefixes = repeatPrefixes;
    this.bucket = bucket;
    this.type = 's3';
    this.directoryBucket = true;
    this.delimiters = true;
    this.requests = [];
    this.chains = new Map(); // token id -> the listing's entries, shuffled
    this.nextChain = 1;
    this.generation = 0; // changes seen: entries (and the items kept with them) of an older one are stale
    this.maxInflight = 0;
    this.inflight = 0;
  }

  async open() {}
  destroy() {}

  // After keys or uploads change: the directory tree is built again when next listed.
  changed() { this.dirs = null; this.sorted = null; this.generation++; }

  // The entries a listing of prefix holds, as {n, at(i)}: a key (a string) or {Prefix}, none
  // copied, so that a listing that reads a page or two of a large subtree costs what it
  // reads. With the delimiter, its keys and the CommonPrefixes (of keys and of open uploads)
  // one level down.
  _entries(prefix, delimiter) {
    if (!delimiter) { // the keys under prefix: a run of the keys sorted (by code units, where prefixes stay together)
      if (!this.sorted) { this.sorted = [...this.keys].sort(); this.sortedItems = []; }
      const a = this.sorted, items = this.sortedItems;
      const first = (past) => {
        let lo = 0, hi = a.length;
        while (lo < hi) { const m = (lo + hi) >> 1; if (past(a[m])) lo = m + 1; else hi = m; }
        return lo;
      };
      const lo = first((k) => k < prefix);
      const hi = first((k) => k < prefix || k.startsWith(prefix));
      return { n: hi - lo, at: (i) => a[lo + i], items, base: lo, generation: this.generation };
    }
    if (!this.dirs) { // directory -> {keys, subs}, built once
      this.dirs = new Map();
      const at = (d) => { if (!this.dirs.has(d)) this.dirs.set(d, { keys: [], subs: new Set(), items: [] }); return this.dirs.get(d); };
      const place = (k, isKey) => {
        for (let from = 0, d = k.indexOf('/'); ; d = k.indexOf('/', d + 1)) {
          const dir = k.slice(0, from);
          if (d < 0) { if (isKey) at(dir).keys.push(k); return; }
          at(dir).subs.add(k.slice(0, d + 1));
          from = d + 1;
        }
      };
      for (const k of this.keys) place(k, true);
      for (const k of this.uploads) place(k, false);
      for (const d of this.dirs.values()) d.subs = [...d.subs];
    }
    const d = this.dirs.get(prefix);
    if (!d) return { n: 0, at: null };
    return { n: d.keys.length + d.subs.length, at: (i) => (i < d.keys.length ? d.keys[i] : { Prefix: d.subs[i - d.keys.length] }), items: d.items, base: 0, generation: this.generation };
  }

  // Every key's item described ahead (a benchmark primes the fake so that no run pays it).
  describeAll() {
    if (!this.describe) return;
    this._entries('', '/');
    this._entries('', undefined);
    for (const d of this.dirs.values()) for (let i = 0; i < d.keys.length; i++) if (d.items[i] === undefined) d.items[i] = this.describe(d.keys[i]);
    for (let i = 0; i < this.sorted.length; i++) if (this.sortedItems[i] === undefined) this.sortedItems[i] = this.describe(this.sorted[i]);
  }

  // The entries of a listing from `from` on, in the listing's own shuffle: a Fisher-Yates
  // drawn as far as pages are read (swapped positions in a Map), and what was drawn kept,
  // so that a continuation token sent again gets the same page.
  _draw(chain, from, count) {
    const { entries, drawn, swaps } = chain;
    while (drawn.length < Math.min(entries.n, from + count)) {
      const i = drawn.length;
      const j = i + Math.floor(this.rng() * (entries.n - i));
      const vi = swaps.has(i) ? swaps.get(i) : i;
      const vj = swaps.has(j) ? swaps.get(j) : j;
      swaps.set(j, vi);
      swaps.delete(i);
      drawn.push(vj);
    }
    return drawn.slice(from, from + count); // (positions in entries)
  }

  // DeleteObjects: a batch naming a key with a control character other than TAB, LF and CR is
  // refused whole (400); a key goes alone with eachAlone (DeleteObject). A directory left
  // empty disappears with its last key (directories are only what keys make them).
  async deleteKeys(keys, signal, { eachAlone = false } = {}) {
    const names = keys.map((k) => (typeof k === 'string' ? k : k.key));
    this.deletes = (this.deletes || 0) + (eachAlone ? names.length : 1);
    if (!eachAlone && names.some((k) => /[\x00-\x08\x0b\x0c\x0e-\x1f]/.test(k))) {
      throw new DirectoryBucketError('InvalidRequest', 'DeleteObjects keys in a directory bucket may hold no control character but TAB, LF and CR');
    }
    const gone = new Set(names);
    this.keys = this.keys.filter((k) => !gone.has(k));
    this.changed();
    return [];
  }

  async listPage({ prefix = '', startAfter, continuationToken, delimiter, maxKeys, signal } = {}) {
    this.requests.push({ prefix, startAfter, continuationToken, delimiter });
    if (startAfter) throw new DirectoryBucketError('InvalidArgument', 'StartAfter is not supported for directory buckets');
    if (delimiter !== undefined && delimiter !== '/') throw new DirectoryBucketError('InvalidArgument', 'Delimiter must be "/" in a directory bucket');
    // (AWS: "For directory buckets, only prefixes that end in a delimiter (/) are supported", with the delimiter or without)
    if (prefix && !prefix.endsWith('/')) throw new DirectoryBucketError('InvalidArgument', 'Prefix must end in the delimiter in a directory bucket');
    this.inflight++;
    this.maxInflight = Math.max(this.maxInflight, this.inflight);
    try {
      if (this.stall && this.stall(this.requests.length)) {
        await new Promise((resolve, reject) => { if (signal) signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true }); });
      }
      if (this.rounds) await FakeListStore.prototype._nextRound.call(this);
      else await new Promise((r) => (this.latencyMs ? setTimeout(r, this.latencyMs) : this.rng() < 0.5 ? setImmediate(r) : setTimeout(r, Math.floor(this.rng() * 3))));
      if (signal && signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    } finally { this.inflight--; }
    const cpu = this.measureCpu ? process.cpuUsage() : null; // the fake's own work, for a benchmark to leave out
    let chain, at;
    if (continuationToken !== undefined) {
      const [id, pos] = continuationToken.split(':').map(Number);
      chain = this.chains.get(id);
      if (!chain) throw new DirectoryBucketError('InvalidArgument', 'The continuation token provided is incorrect');
      at = pos;
    } else {
      chain = { id: this.nextChain++, entries: this._entries(prefix, delimiter), drawn: [], swaps: new Map() };
      this.chains.set(chain.id, chain);
      // Listings given up part way (a sweep that ran long) are never finished: the oldest
      // goes past MAX_CHAINS, its token then refused as S3 refuses one that expired.
      if (this.chains.size > MAX_CHAINS) this.chains.delete(this.chains.keys().next().value);
      at = 0;
    }
    const want = Math.min(maxKeys || this.maxKeys, this.maxKeys);
    const page = this._draw(chain, at, want);
    at += page.length;
    const truncated = at < chain.entries.n;
    if (!truncated) this.chains.delete(chain.id);
    const { entries } = chain;
    const kept = entries.generation === this.generation ? entries.items : null; // items described since the last change
    const items = [];
    const prefixes = delimiter ? [] : undefined;
    for (const v of page) {
      const e = entries.at(v);
      if (typeof e !== 'string') { prefixes.push(e.Prefix); continue; }
      if (!this.describe) { items.push({ Key: e, Size: e.length, LastModified: new Date(0), ETag: '"random-etag"', StorageClass: 'EXPRESS_ONEZONE' }); continue; }
      let it = kept ? kept[entries.base + v] : undefined;
      if (it === undefined) { it = this.describe(e); if (kept) kept[entries.base + v] = it; }
      if (it) items.push(it); // null: deleted since the listing began
    }
    // Named again on a later page: the first subdirectory of every page but the first.
    if (this.repeatPrefixes && prefixes && at > page.length && chain.firstPrefix) prefixes.push(chain.firstPrefix);
    if (prefixes && prefixes.length && !chain.firstPrefix) chain.firstPrefix = prefixes[0];
    if (cpu) { const used = process.cpuUsage(cpu); this.serveMicros += used.user + used.system; }
    return { items, prefixes, truncated, nextToken: truncated ? `${chain.id}:${at}` : undefined };
  }
}

module.exports = { FakeDirectoryStore, DirectoryBucketError };
