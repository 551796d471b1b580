'use strict';
// An in-memory ListObjectsV2 for unit tests. It orders keys by their UTF-8 bytes,
// independently of the code under test (as the benchmark's fake does: code units at and
// above U+D800 are remapped so that JavaScript's own order is the byte order), and can
// misbehave on request: short truncated pages, random completion order, unordered pages,
// ignored StartAfter, UTF-16 order (s3proxy), folder-by-folder order ("a/b" before "a-b",
// SeaweedFS), a StartAfter equal to a folder's name skipping that folder (SeaweedFS) or one
// that begins keys skipping them, and requests that stall. With `trace`, it also keeps per
// round trip what the benchmark's virtual clock (bench/sim-list.js) measures: requests in
// flight, keys handed out so far (each counted once), and the CPU its own pages took.

// Per code unit, so prefixes stay prefixes: surrogates move above U+E000..U+FFFF.
const HIGH = /[\uD800-\uFFFF]/g;
const toInt = (s) => s.replace(HIGH, (c) => String.fromCharCode(c.charCodeAt(0) >= 0xe000 ? c.charCodeAt(0) - 0x800 : c.charCodeAt(0) + 0x2000));

function utf8Sort(keys) {
  const rows = [...new Set(keys)].map((k) => [toInt(k), k]);
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return rows;
}

function aborted(signal) {
  return new Promise((resolve, reject) => {
    const fail = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    if (signal.aborted) fail(); else signal.addEventListener('abort', fail, { once: true });
  });
}

function makeRng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

class FakeListStore {
  // rounds: every request waits for the next round, and all requests made meanwhile are
  // answered together, like S3 at a fixed latency; `round` then counts round trips (a
  // virtual clock: pass `clock: () => store.round` to a lister).
  constructor(keys, { seed = 1, shortPageRate = 0, jitter = true, latencyMs = 0, rounds = false, unordered = false, ignoreStartAfter = false, maxKeys = 1000, utf16 = false, treeOrder = false, folderStartAfterBug = false, prefixStartAfterBug = false, stall = null, trace = false } = {}) {
    this.utf16 = utf16;
    this.treeOrder = treeOrder;
    this.trace = trace;
    this.setKeys(keys);
    this.folderStartAfterBug = folderStartAfterBug;
    this.prefixStartAfterBug = prefixStartAfterBug;
    this.rng = makeRng(seed);
    this.shortPageRate = shortPageRate;
    this.jitter = jitter;
    this.latencyMs = latencyMs;
    this.unordered = unordered;
    this.ignoreStartAfter = ignoreStartAfter;
    this.maxKeys = maxKeys;
    this.requests = 0;
    this.delimiters = true;
    this.rounds = rounds;
    this.round = 0;
    this.waiting = [];
    // stall(n): rounds (or ms) the n-th request waits beyond the usual, e.g. a slow node.
    this.stall = stall;
    this.inflight = 0;
    this.inflightRounds = 0; // sum over rounds of requests in flight (a round-weighted mean)
    // trace: per round trip (in rounds mode), the requests it answered and the distinct keys
    // handed out before it; the CPU (µs) spent making pages, which is the store's, not the client's.
    this.roundTrace = trace ? [] : null;
    this.serveMicros = 0;
  }

  // The keys the store holds (it may be given new ones between requests).
  setKeys(keys) {
    const sorted = utf8Sort(keys);
    this.keys = sorted.map((x) => x[1]); // S3's order: the reference
    // What the store lists, in its own order, and the form its StartAfter is compared in.
    if (this.utf16) {
      this.served = [...this.keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.order = this.served;
      this.form = (k) => k;
    } else if (this.treeOrder) {
      // Folder by folder: "/" sorts before every other character, so a folder's keys come
      // right after its name, before the names that go on with "-" or ".".
      const tree = (k) => toInt(k).replace(/\//g, '\u0000');
      const rows = sorted.map(([, k]) => [tree(k), k]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this.served = rows.map((x) => x[1]);
      this.order = rows.map((x) => x[0]);
      this.form = tree;
    } else {
      this.served = this.keys;
      this.order = sorted.map((x) => x[0]);
      this.form = toInt;
    }
    // trace: which keys (by their place in `served`) were handed out at least once.
    this.handedOut = this.trace ? new Uint8Array(this.served.length) : null;
    this.listedUnique = 0;
  }

  _nextRound() {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length > 1) return;
      // The next round begins once everything the last one set off has run (its answers'
      // callbacks, the requests they made): on any machine, at any speed, the same rounds.
      setImmediate(() => {
        this.round++;
        this.inflightRounds += this.inflight;
        if (this.roundTrace) this.roundTrace.push({ inflight: this.inflight, listed: this.listedUnique });
        const go = this.waiting;
        this.waiting = [];
        for (const f of go) f();
      });
    });
  }

  // Index of the first key > startAfter (by bytes; by UTF-16 code units when utf16).
  _after(startAfter) {
    if (!startAfter) return 0;
    const lo = this._lowerBound(startAfter, true);
    let i = lo;
    // SeaweedFS lists the folder that holds StartAfter from the entry after its last part,
    // comparing a subfolder by its bare name: a StartAfter that is a folder's name, or that
    // name and then a character before '/' ("d2." + U+10FFFF for d2/), skips all of it.
    if (this.folderStartAfterBug) {
      const dir = startAfter.slice(0, startAfter.lastIndexOf('/') + 1), name = startAfter.slice(dir.length);
      for (let k = this.served[i]; k !== undefined && k.startsWith(dir); k = this.served[i]) {
        const slash = k.indexOf('/', dir.length);
        if (slash < 0) break;
        const x = k.slice(dir.length, slash);
        if (!name.startsWith(x) || (name.length > x.length && name.charCodeAt(x.length) >= 0x2f)) break;
        const folder = k.slice(0, slash + 1);
        while (i < this.served.length && this.served[i].startsWith(folder)) i++;
      }
    }
    // Worse: a StartAfter that begins other keys skips all of them.
    if (this.prefixStartAfterBug) while (i < this.served.length && this.served[i].startsWith(startAfter)) i++;
    return i;
  }

  // First index whose key is > s (after) or >= s.
  _lowerBound(s, after) {
    const t = this.form(s);
    const o = this.order;
    let lo = 0, hi = o.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (after ? o[m] <= t : o[m] < t) lo = m + 1; else hi = m; }
    return lo;
  }

  // First index past every key that starts with prefix (they are one run in key order).
  _pastPrefix(prefix) {
    const t = this.form(prefix);
    const o = this.order;
    let lo = 0, hi = o.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (o[m] < t || o[m].startsWith(t)) lo = m + 1; else hi = m; }
    return lo;
  }

  _prefixStart(prefix) {
    return this._lowerBound(prefix, false);
  }

  async listPage({ prefix = '', startAfter, continuationToken, delimiter, signal }) {
    const n = ++this.requests;
    this.inflight++;
    try {
      const extra = this.stall ? this.stall(n) || 0 : 0;
      const wait = this.rounds ? (async () => { for (let r = 0; r <= extra; r++) await this._nextRound(); })()
        : this.latencyMs || extra ? new Promise((r) => setTimeout(r, this.latencyMs + extra))
          : this.jitter ? new Promise((r) => (this.rng() < 0.5 ? setImmediate(r) : setTimeout(r, Math.floor(this.rng() * 3)))) : null;
      // An aborted request stops waiting, as a closed connection would.
      if (wait) await (signal ? Promise.race([wait, aborted(signal)]) : wait);
    } finally { this.inflight--; }
    const cpu = this.trace ? process.cpuUsage() : null;
    let i = continuationToken !== undefined ? Number(continuationToken)
      : Math.max(this.ignoreStartAfter ? 0 : this._after(startAfter), prefix ? this._prefixStart(prefix) : 0);
    let want = this.maxKeys;
    if (this.shortPageRate && this.rng() < this.shortPageRate) want = Math.floor(this.rng() * this.maxKeys);
    const items = [];
    const prefixes = delimiter ? [] : undefined;
    const all = this.served;
    while (i < all.length && items.length + (prefixes ? prefixes.length : 0) < want) {
      const k = all[i];
      if (prefix && !k.startsWith(prefix)) break;
      const d = delimiter ? k.indexOf(delimiter, prefix.length) : -1;
      if (d >= 0) { // roll the folder up into one entry, as S3 does
        const folder = k.slice(0, d + delimiter.length);
        prefixes.push(folder);
        i = this._pastPrefix(folder);
        continue;
      }
      items.push({ Key: k, Size: k.length, LastModified: new Date(0), ETag: '"x"', StorageClass: 'STANDARD' });
      if (this.handedOut && !this.handedOut[i]) { this.handedOut[i] = 1; this.listedUnique++; }
      i++;
    }
    const truncated = i < all.length && (!prefix || all[i].startsWith(prefix));
    if (this.unordered) items.reverse();
    if (cpu) { const d = process.cpuUsage(cpu); this.serveMicros += d.user + d.system; }
    return { items, prefixes, truncated, nextToken: truncated ? String(i) : undefined };
  }

  // The reference: the keys of a range in S3's order, by their UTF-8 bytes, whatever order
  // the store lists in.
  expected({ prefix = '', startAfter = '', stopAt = null } = {}) {
    const keys = this.keys;
    // Once per key set: the reference order checked against the bytes themselves, so that a
    // range is the run of keys between two binary searches (tests ask for many ranges of a
    // million keys; a filter of each made shard-plan tests minutes long).
    if (this._checked !== keys) {
      for (let i = 1; i < keys.length; i++) {
        if (Buffer.compare(Buffer.from(keys[i - 1], 'utf8'), Buffer.from(keys[i], 'utf8')) >= 0) throw new Error(`fake store: keys out of byte order at ${i}`);
      }
      this._checked = keys;
    }
    // First index whose key's bytes are > b (or >= b).
    const bound = (b, after) => {
      let lo = 0, hi = keys.length;
      while (lo < hi) { const m = (lo + hi) >> 1; const c = Buffer.compare(Buffer.from(keys[m], 'utf8'), b); if (after ? c <= 0 : c < 0) lo = m + 1; else hi = m; }
      return lo;
    };
    const p = Buffer.from(prefix, 'utf8');
    const lo = Math.max(startAfter ? bound(Buffer.from(startAfter, 'utf8'), true) : 0, bound(p, false));
    const hi = stopAt !== null ? bound(Buffer.from(stopAt, 'utf8'), true) : keys.length;
    const out = [];
    // A prefix's keys are one run in byte order, from its lower bound.
    for (let i = lo; i < hi && keys[i].startsWith(prefix); i++) out.push(keys[i]);
    return out;
  }
}

// A listing matches the reference: the same keys in the same order, or, unordered, each
// expected key exactly once in any order.
function expectListing(got, expected, ordered) {
  if (ordered === false) {
    expect(got.length).toBe(expected.length);
    expect(new Set(got).size).toBe(got.length);
    const want = new Set(expected);
    expect(got.every((k) => want.has(k))).toBe(true);
  } else {
    expect(got).toEqual(expected);
  }
}

module.exports = { FakeListStore, makeRng, utf8Sort, expectListing };
