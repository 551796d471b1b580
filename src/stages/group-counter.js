'use strict';
// Objects and bytes per group (folder, extension) in bounded memory: past `cap` groups
// the smallest by bytes are folded into "other", so random keys cannot grow it without
// end. Exact whenever the number of distinct groups stays under the cap.
class GroupCounter {
  constructor(cap = 10000) {
    this.cap = cap;
    this.groups = new Map(); // name -> [objects, bytes]
    this.other = [0, 0];
    this.folded = false;
  }

  add(name, bytes) {
    const g = this.groups.get(name);
    if (g) { g[0]++; g[1] += bytes; return; }
    this.groups.set(name, [1, bytes]);
    if (this.groups.size > 2 * this.cap) this._fold(this.cap);
  }

  _fold(keep) {
    const rows = [...this.groups.entries()].sort((a, b) => b[1][1] - a[1][1] || b[1][0] - a[1][0]);
    this.groups = new Map(rows.slice(0, keep));
    for (const [, [n, b]] of rows.slice(keep)) { this.other[0] += n; this.other[1] += b; }
    this.folded = true;
  }

  // Every group's counts, so shards' tables merge exactly (stages/summary-merge.js).
  state() { return { groups: [...this.groups].map(([name, [n, b]]) => [name, n, b]), other: [...this.other], folded: this.folded }; }

  /** Adds another's state to this one (folding as add would, past twice the cap). */
  merge(st) {
    for (const [name, n, b] of st.groups) {
      const g = this.groups.get(name);
      if (g) { g[0] += n; g[1] += b; } else this.groups.set(name, [n, b]);
    }
    this.other[0] += st.other[0];
    this.other[1] += st.other[1];
    this.folded = this.folded || st.folded;
    if (this.groups.size > 2 * this.cap) this._fold(this.cap);
    return this;
  }

  // Top n groups by bytes, then one "other" row for the rest.
  top(n) {
    const rows = [...this.groups.entries()].sort((a, b) => b[1][1] - a[1][1] || b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1));
    const out = rows.slice(0, n).map(([name, [objects, bytes]]) => ({ name, objects, bytes }));
    let o = this.other[0], b = this.other[1];
    for (const [, [objects, bytes]] of rows.slice(n)) { o += objects; b += bytes; }
    if (o) out.push({ name: '(other)', objects: o, bytes: b, other: true });
    return out;
  }
}

module.exports = { GroupCounter };
