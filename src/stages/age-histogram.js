'use strict';
// Objects and bytes by the month of their LastModified, in memory that grows with the
// bucket's span of time (a counter per month), never with its objects. Reported by month,
// or by year when the months from the oldest to the newest are more than MAX_MONTHS.

const MAX_MONTHS = 36;

const monthIndex = (d) => d.getUTCFullYear() * 12 + d.getUTCMonth();
const monthStart = (m) => Date.UTC(Math.floor(m / 12), m % 12, 1);
const pad2 = (n) => String(n).padStart(2, '0');

class AgeHistogram {
  constructor() {
    this.months = new Map(); // month index -> [objects, bytes]
    this.unknown = [0, 0]; // objects without a LastModified
    // The month of the last time seen: keys of one page mostly share it, so most adds
    // compare two numbers instead of making a Date.
    this.from = 0;
    this.to = -1;
    this.cell = null;
  }

  add(t, size) {
    if (t !== t) { this.unknown[0]++; this.unknown[1] += size; return; } // NaN: no time
    if (t < this.from || t >= this.to) {
      const m = monthIndex(new Date(t));
      this.from = monthStart(m);
      this.to = monthStart(m + 1);
      this.cell = this.months.get(m);
      if (!this.cell) { this.cell = [0, 0]; this.months.set(m, this.cell); }
    }
    this.cell[0]++;
    this.cell[1] += size;
  }

  // The counts by month, so shards' histograms merge exactly (merge.js).
  state() { return { months: [...this.months].map(([m, c]) => [m, c[0], c[1]]), unknown: [...this.unknown] }; }

  /** Adds another's state to this one. */
  merge(st) {
    for (const [m, objects, bytes] of st.months) {
      const c = this.months.get(m);
      if (c) { c[0] += objects; c[1] += bytes; } else this.months.set(m, [objects, bytes]);
    }
    this.unknown[0] += st.unknown[0];
    this.unknown[1] += st.unknown[1];
    this.cell = null; this.from = 0; this.to = -1;
    return this;
  }

  // Rows from the oldest period to the newest, empty ones included, so a chart of them
  // has a true time axis.
  toJSON() {
    if (!this.months.size) return { unit: 'month', rows: [], unknown: this.unknown[0] ? { objects: this.unknown[0], bytes: this.unknown[1] } : undefined };
    const keys = [...this.months.keys()];
    const first = Math.min(...keys), last = Math.max(...keys);
    const byYear = last - first + 1 > MAX_MONTHS;
    const rows = [];
    if (byYear) {
      for (let y = Math.floor(first / 12); y <= Math.floor(last / 12); y++) {
        let objects = 0, bytes = 0;
        for (let m = y * 12; m < y * 12 + 12; m++) { const c = this.months.get(m); if (c) { objects += c[0]; bytes += c[1]; } }
        rows.push({ period: String(y), from: new Date(Date.UTC(y, 0, 1)).toISOString(), objects, bytes });
      }
    } else {
      for (let m = first; m <= last; m++) {
        const c = this.months.get(m) || [0, 0];
        rows.push({ period: `${Math.floor(m / 12)}-${pad2((m % 12) + 1)}`, from: new Date(monthStart(m)).toISOString(), objects: c[0], bytes: c[1] });
      }
    }
    const out = { unit: byYear ? 'year' : 'month', rows };
    if (this.unknown[0]) out.unknown = { objects: this.unknown[0], bytes: this.unknown[1] };
    return out;
  }
}

module.exports = { AgeHistogram, MAX_MONTHS };
