'use strict';
// A store whose keys are computed, not stored: logs/000000000 .. logs/<n-1>, so a listing
// of ten million keys costs the test no memory of its own. Answers ListObjectsV2 pages
// (with a prefix; a delimiter it ignores, as some stores do).
class SyntheticStore {
  constructor(n, { width = 9 } = {}) {
    this.type = 's3';
    this.n = n;
    this.width = width;
    this.requests = 0;
  }

  key(i) { return `logs/${String(i).padStart(this.width, '0')}`; }

  // Index of the first key after startAfter (keys are ASCII, so JavaScript order is byte order).
  _after(s) {
    if (!s) return 0;
    let lo = 0, hi = this.n;
    while (lo < hi) { const m = Math.floor((lo + hi) / 2); if (this.key(m) <= s) lo = m + 1; else hi = m; }
    return lo;
  }

  async open() {}

  // Keys with a prefix are one run: from the first after the prefix's own start.
  async listPage({ prefix = '', startAfter, continuationToken }) {
    this.requests++;
    let i = continuationToken !== undefined ? Number(continuationToken) : this._after(startAfter);
    if (prefix && continuationToken === undefined) i = Math.max(i, this._after(prefix) - (this.key(this._after(prefix) - 1) === prefix ? 1 : 0));
    const items = [];
    const when = new Date(0);
    for (; i < this.n && items.length < 1000; i++) {
      const key = this.key(i);
      if (!key.startsWith(prefix)) break;
      items.push({ Key: key, Size: i % 4096, LastModified: when, ETag: '"e"', StorageClass: 'STANDARD' });
    }
    return { items, truncated: i < this.n && this.key(i).startsWith(prefix), nextToken: String(i) };
  }

  destroy() {}
}

module.exports = { SyntheticStore };
