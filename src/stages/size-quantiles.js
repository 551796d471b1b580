'use strict';
// Size quantiles from a fixed log-scale histogram: 16 bins per power of two, so a bin's
// upper bound is 2^(1/16) (4.4%) above its lower bound, and the bin's geometric middle is
// within 2^(1/32) - 1 (2.2%) of every size in it. 1,100 counters cover 0 bytes to 2^68:
// memory is the same for ten objects and ten billion. Bins narrower than one byte (sizes
// below 23) hold one size each, so small sizes come out exact; min and max are exact.

const STEPS = 16;
const BINS = 68 * STEPS;
// The bound on |reported - true| / true, rounding to whole bytes aside (at most half a byte).
const RELATIVE_ERROR = 2 ** (1 / (2 * STEPS)) - 1;

const binOf = (size) => Math.min(BINS - 1, Math.floor(Math.log2(size) * STEPS));

class SizeQuantiles {
  constructor() {
    this.zero = 0; // objects of 0 bytes (log2 has no bin for them)
    this.bins = new Float64Array(BINS);
    this.count = 0;
    this.min = null;
    this.max = null;
  }

  add(size) {
    this.count++;
    if (this.min === null || size < this.min) this.min = size;
    if (this.max === null || size > this.max) this.max = size;
    if (size > 0) this.bins[binOf(size)]++;
    else this.zero++;
  }

  // The size at nearest rank ceil(q * count): the smallest size with at least that many
  // objects at or below it; from its bin's geometric middle, kept inside the bin's whole
  // bytes and inside [min, max].
  quantile(q) {
    if (!this.count) return null;
    const rank = Math.max(1, Math.ceil(q * this.count));
    if (rank <= this.zero) return 0;
    let seen = this.zero;
    for (let b = 0; b < BINS; b++) {
      seen += this.bins[b];
      if (seen < rank) continue;
      const lo = Math.ceil(2 ** (b / STEPS));
      const hi = Math.max(lo, Math.ceil(2 ** ((b + 1) / STEPS)) - 1);
      const mid = Math.round(2 ** ((b + 0.5) / STEPS));
      return Math.min(this.max, Math.max(this.min, Math.min(hi, Math.max(lo, mid))));
    }
    return this.max;
  }

  // The counts themselves (non-empty bins only), so shards' quantiles merge exactly (merge.js).
  state() {
    const bins = [];
    for (let b = 0; b < BINS; b++) if (this.bins[b]) bins.push([b, this.bins[b]]);
    return { zero: this.zero, count: this.count, min: this.min, max: this.max, bins };
  }

  /** Adds another's state (its counts) to this one. */
  merge(st) {
    if (!st || !st.count) return this;
    this.zero += st.zero;
    this.count += st.count;
    if (this.min === null || st.min < this.min) this.min = st.min;
    if (this.max === null || st.max > this.max) this.max = st.max;
    for (const [b, n] of st.bins) this.bins[b] += n;
    return this;
  }

  toJSON() {
    if (!this.count) return null;
    return {
      min: this.min,
      median: this.quantile(0.5),
      p90: this.quantile(0.9),
      p99: this.quantile(0.99),
      max: this.max,
      relativeError: Number(RELATIVE_ERROR.toFixed(4)),
    };
  }
}

module.exports = { SizeQuantiles, RELATIVE_ERROR };
