'use strict';
// A concurrency limit that follows the store's throttling. Twice a second it looks at the
// share of finished requests the store throttled (SlowDown, 503, 429): over 20% halves the
// limit, over 8% trims it by 15%, under 2% lets it climb back by a quarter. A sporadic
// SlowDown does not collapse throughput; a store that keeps pushing back gets its way.
// Every change is traced.
const { ConcurrencyLimit } = require('./concurrency-limit');

const WINDOW_MS = 500;

class AdaptiveLimit extends ConcurrencyLimit {
  constructor(max, { min, name = 'copy', onChange } = {}) {
    super(max, { min: min || Math.max(2, Math.ceil(max / 32)), name, onChange, traceCap: 10000 });
    this.ok = 0;
    this.throttles = 0;
    this.timer = null;
    this.trace.push({ t: Date.now(), limit: max, reason: 'start' });
  }

  run(fn) {
    this._arm();
    return super.run(fn);
  }

  _next() {
    super._next();
    if (!this.active && !this.waiting.length && this.timer) { clearInterval(this.timer); this.timer = null; }
  }

  _arm() {
    if (this.timer) return;
    this.timer = setInterval(() => this._evaluate(), WINDOW_MS);
    this.timer.unref();
  }

  _evaluate() {
    const total = this.ok + this.throttles;
    const share = total ? this.throttles / total : 0;
    const busy = this.active + this.waiting.length > 0;
    this.ok = 0;
    this.throttles = 0;
    if (share > 0.2) this._set(Math.floor(this.limit / 2), 'throttled');
    else if (share > 0.08) this._set(Math.floor(this.limit * 0.85), 'throttled');
    else if (share < 0.02 && busy && this.limit < this.max) this._set(Math.ceil(this.limit * 1.25) + 1, 'recovering');
  }

  throttled() { this.throttles++; }

  succeeded() { this.ok++; }
}

module.exports = { AdaptiveLimit };
