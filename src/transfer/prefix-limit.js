'use strict';
// Concurrency for one key prefix, set by what that prefix accepts. S3 limits requests per
// prefix (about 3,500 writes a second) and answers SlowDown past it; one prefix's limit says
// nothing about another's, so each prefix a copy writes to gets its own. Five times a second
// it looks at its answers: when more than 5% were throttled, it goes to the concurrency that
// carries the rate the prefix did accept (Little's law: accepted per second x the time a
// request takes), a little under it; under 1% throttled, it climbs by 5%. The first throttled
// window thus lands near the right concurrency instead of halving for seconds.
const { ConcurrencyLimit } = require('./concurrency-limit');

const WINDOW_MS = 200;

class PrefixLimit extends ConcurrencyLimit {
  constructor(max, { min = 1, name = 'prefix', onChange } = {}) {
    super(max, { min, name, onChange, traceCap: 1000 });
    this.ok = 0;
    this.okMs = 0;
    this.throttles = 0;
    this.windowStart = Date.now();
  }

  /** A request of this prefix was answered (ms: how long it took). */
  succeeded(ms) { this.ok++; this.okMs += ms; this._maybeEvaluate(); }

  /** A request of this prefix was throttled. */
  throttled() { this.throttles++; this._maybeEvaluate(); }

  _maybeEvaluate() {
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) this._evaluate(now);
  }

  _evaluate(now) {
    const seconds = (now - this.windowStart) / 1000;
    const total = this.ok + this.throttles;
    const share = total ? this.throttles / total : 0;
    if (share > 0.05) {
      const carried = this.ok ? (this.ok / seconds) * (this.okMs / this.ok / 1000) * 0.95 : this.limit / 2;
      this._set(Math.min(Math.floor(this.limit * 0.9), Math.floor(carried)), 'throttled');
    } else if (share < 0.01 && this.active >= this.limit && this.limit < this.max) {
      this._set(this.limit + Math.max(1, Math.floor(this.limit * 0.05)), 'recovering');
    }
    this.ok = 0;
    this.okMs = 0;
    this.throttles = 0;
    this.windowStart = now;
  }
}

module.exports = { PrefixLimit };
