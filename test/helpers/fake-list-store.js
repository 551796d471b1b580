'use strict';
// An in-memory ListObjectsV2 for unit tests. It sorts with Buffer.compare on UTF-8
// bytes, independently of the code under test, and can misbehave on request: short
// truncated pages, random completion order, unordered pages, ignored StartAfter, UTF-16
// order (s3proxy), and a StartAfter equal to a folder's name skipping that folder (SeaweedFS).

function utf8Sort(keys) {
  return [...new Set(keys)]
    .map((k) => [Buffer.from(k, 'utf8'), k])
    .sort((a, b) => Buffer.compare(a[0], b[0]));
}

function makeRng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

class FakeListStore {
  // rounds: every request waits for the next round, and all requests made meanwhile are
  // answered together, like S3 at a fixed latency; `round` then counts round trips.
  constructor(keys, { seed = 1, shortPageRate = 0, jitter = true, latencyMs = 0, rounds = false, unordered = false, ignoreStartAfter = false, maxKeys = 1000, utf16 = false, folderStartAfterBug = false } = {}) {
    const sorted = utf8Sort(keys);
    this.keys = sorted.map((x) => x[1]); // S3's order: the reference
    // What the store lists, in its own order, and how it compares a StartAfter.
    this.utf16 = utf16;
    this.served = utf16 ? [...this.keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : this.keys;
    this.bufs = this.served.map((k) => Buffer.from(k, 'utf8'));
    this.folderStartAfterBug = folderStartAfterBug;
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
  }

  _nextRound() {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length > 1) return;
      setTimeout(() => {
        this.round++;
        const go = this.waiting;
        this.waiting = [];
        for (const f of go) f();
      }, 2);
    });
  }

  // Index of the first key > startAfter (by bytes; by UTF-16 code units when utf16).
  _after(startAfter) {
    if (!startAfter) return 0;
    const b = Buffer.from(startAfter, 'utf8');
    const le = this.utf16 ? (m) => this.served[m] <= startAfter : (m) => Buffer.compare(this.bufs[m], b) <= 0;
    let lo = 0, hi = this.bufs.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (le(m)) lo = m + 1; else hi = m; }
    // SeaweedFS: a StartAfter naming a folder skips everything in it.
    if (this.folderStartAfterBug) while (lo < this.served.length && this.served[lo].startsWith(`${startAfter}/`)) lo++;
    return lo;
  }

  _prefixStart(prefix) {
    return this._after(prefix) - (this.served.includes(prefix) ? 1 : 0);
  }

  async listPage({ prefix = '', startAfter, continuationToken, delimiter }) {
    this.requests++;
    if (this.rounds) await this._nextRound();
    else if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
    else if (this.jitter) await new Promise((r) => (this.rng() < 0.5 ? setImmediate(r) : setTimeout(r, Math.floor(this.rng() * 3))));
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
        while (i < all.length && all[i].startsWith(folder)) i++;
        continue;
      }
      items.push({ Key: k, Size: k.length, LastModified: new Date(0), ETag: '"x"', StorageClass: 'STANDARD' });
      i++;
    }
    const truncated = i < all.length && (!prefix || all[i].startsWith(prefix));
    if (this.unordered) items.reverse();
    return { items, prefixes, truncated, nextToken: truncated ? String(i) : undefined };
  }

  // The reference: what a sequential walk returns for a range.
  expected({ prefix = '', startAfter = '', stopAt = null } = {}) {
    const sa = startAfter ? Buffer.from(startAfter) : null;
    const so = stopAt !== null ? Buffer.from(stopAt) : null;
    return this.keys.filter((k) => k.startsWith(prefix) &&
      (!sa || Buffer.compare(Buffer.from(k), sa) > 0) && (!so || Buffer.compare(Buffer.from(k), so) <= 0));
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
