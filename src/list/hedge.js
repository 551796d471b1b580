'use strict';
// When to send a list request again: one that has taken far longer than its peers (a slow
// node, a lost packet) holds ordered output back, and a second copy usually answers in
// one round trip. The first answer wins; the other is left to finish, unread (aborting it
// alone is not something every store can do; see parallel-lister.js).
const T = require('../plan/tuning').values;

class LatencyWatch {
  /** factor × the running p95 (HEDGE_PERCENTILE) of the last HEDGE_SAMPLES latencies
   * (never under floorMs: a store that answers in a millisecond needs no second request for
   * a pause of a few), once minSamples have been seen. */
  constructor({ factor = T.HEDGE_FACTOR, minSamples = T.HEDGE_MIN_SAMPLES, floorMs = T.HEDGE_FLOOR_MS } = {}) {
    this.factor = factor;
    this.minSamples = minSamples;
    this.floorMs = floorMs;
    this.ring = new Float64Array(T.HEDGE_SAMPLES);
    this.n = 0;
    this.cached = null;
  }

  record(ms) {
    this.ring[this.n % T.HEDGE_SAMPLES] = ms;
    this.n++;
    if (this.n % T.HEDGE_REFRESH === 0) this.cached = null;
  }

  // The age past which a request is a straggler; null while too little is known.
  threshold() {
    if (this.n < this.minSamples) return null;
    if (this.cached === null) {
      const m = Math.min(this.n, T.HEDGE_SAMPLES);
      const sorted = Array.from(this.ring.subarray(0, m)).sort((a, b) => a - b);
      const p95 = sorted[Math.min(m - 1, Math.floor(m * T.HEDGE_PERCENTILE))];
      this.cached = Math.max(this.floorMs, this.factor * p95);
    }
    return this.cached;
  }
}

module.exports = { LatencyWatch };
