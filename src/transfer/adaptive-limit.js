'use strict';
// A concurrency limit that follows the store's throttling. Twice a second it looks at the
// share of finished requests the store throttled (SlowDown, 503, 429): over 20% halves the
// limit, over 8% trims it by 15%, under 2% lets it climb back by a quarter. A sporadic
// SlowDown does not collapse throughput; a store that keeps pushing back gets its way.
// Every change is traced.
const WINDOW_MS = 500;

class AdaptiveLimit {
  constructor(max, { min, name = 'copy', onChange } = {}) {
    this.max = max;
    this.min = Math.min(max, min || Math.max(2, Math.ceil(max / 32)));
    this.limit = max;
    this.name = name;
    this.active = 0;
    this.waiting = [];
    this.ok = 0;
    this.throttles = 0;
    this.timer = null;
    this.trace = [{ t: Date.now(), limit: max, reason: 'start' }];
    this.onChange = onChange;
  }

  run(fn) {
    this._arm();
    return new Promise((resolve, reject) => {
      const start = () => {
        this.active++;
        Promise.resolve().then(fn).then(resolve, reject).finally(() => { this.active--; this._next(); });
      };
      if (this.active < this.limit) start();
      else this.waiting.push(start);
    });
  }

  get pendingCount() { return this.waiting.length; }

  _next() {
    while (this.active < this.limit && this.waiting.length) this.waiting.shift()();
    if (!this.active && !this.waiting.length && this.timer) { clearInterval(this.timer); this.timer = null; }
  }

  _arm() {
    if (this.timer) return;
    this.timer = setInterval(() => this._evaluate(), WINDOW_MS);
    this.timer.unref();
  }

  _set(limit, reason) {
    limit = Math.max(this.min, Math.min(this.max, limit));
    if (limit === this.limit) return;
    this.limit = limit;
    const ev = { t: Date.now(), limit, reason };
    if (this.trace.length < 10000) this.trace.push(ev);
    if (this.onChange) this.onChange({ name: this.name, ...ev });
    this._next();
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
