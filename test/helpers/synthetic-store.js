'use strict';
// A store whose keys are computed, not stored: logs/000000000 .. logs/<n-1>, so a listing
// of ten million keys costs the test no memory of its own. Answers ListObjectsV2 pages
// (with a prefix; a delimiter it ignores, as some stores do). shape 'tree' makes keys a
// bucket report has work with: three folder levels (1,000 x 100 x 100 folders), sizes
// from 0 to 10 MB, three years of LastModified, two storage classes, multipart ETags.
class SyntheticStore {
  constructor(n, { width = 9, shape = 'flat' } = {}) {
    this.type = 's3';
    this.n = n;
    this.width = width;
    this.shape = shape;
    this.requests = 0;
  }

  key(i) {
    const p = String(i).padStart(this.width, '0');
    if (this.shape !== 'tree') return `logs/${p}`;
    const w = this.width;
    return `${p.slice(0, w - 6)}/${p.slice(w - 6, w - 4)}/${p.slice(w - 4, w - 2)}/${p}.${['dat', 'gz', 'json'][i % 3]}`;
  }

  item(i, key) {
    if (this.shape !== 'tree') return { Key: key, Size: i % 4096, LastModified: new Date(0), ETag: '"e"', StorageClass: 'STANDARD' };
    return {
      Key: key,
      Size: (i * 7919) % 10_000_000,
      LastModified: new Date(Date.UTC(2022, 0, 1) + (i % 1096) * 86400000),
      ETag: i % 7 === 0 ? '"0123456789abcdef0123456789abcdef-3"' : '"0123456789abcdef0123456789abcdef"',
      StorageClass: i % 10 === 0 ? 'STANDARD_IA' : 'STANDARD',
    };
  }

  // Index of the first key after startAfter (keys are ASCII, so JavaScript order is byte order).
  _after(s) {
    if (!s) return 0;
    let lo = 0, hi = this.n;
    while (lo < hi) { const m = Math.floor((lo + hi) / 2); if (this.key(m) <= s) lo = m + 1; else hi = m; }
    return lo;
  }

  /** How many keys sort at or below s (any string: a plan's cut need not be a key). */
  keysUpTo(s) { return this._after(s); }

  async open() {}

  // Keys with a prefix are one run: from the first after the prefix's own start.
  async listPage({ prefix = '', startAfter, continuationToken }) {
    this.requests++;
    let i = continuationToken !== undefined ? Number(continuationToken) : this._after(startAfter);
    if (prefix && continuationToken === undefined) i = Math.max(i, this._after(prefix) - (this.key(this._after(prefix) - 1) === prefix ? 1 : 0));
    const items = [];
    for (; i < this.n && items.length < 1000; i++) {
      const key = this.key(i);
      if (!key.startsWith(prefix)) break;
      items.push(this.item(i, key));
    }
    return { items, truncated: i < this.n && this.key(i).startsWith(prefix), nextToken: String(i) };
  }

  destroy() {}
}

module.exports = { SyntheticStore };
