'use strict';
// A concurrency limit that can move: at most `limit` functions run at once, the rest wait
// in order. What moves the limit is the subclass's (adaptive-limit.js: the run's share of
// throttled answers; prefix-limit.js: what one prefix accepts). Every change is traced.

class ConcurrencyLimit {
  constructor(max, { min, name, onChange, traceCap }) {
    this.max = max;
    this.min = Math.min(max, min);
    this.limit = max;
    this.name = name;
    this.onChange = onChange;
    this.traceCap = traceCap;
    this.active = 0;
    this.waiting = [];
    this.trace = [];
  }

  get pendingCount() { return this.waiting.length; }

  /** Runs fn when a slot is free; fn's promise is returned. */
  run(fn) {
    return new Promise((resolve, reject) => {
      const start = () => {
        this.active++;
        Promise.resolve().then(fn).then(resolve, reject).finally(() => { this.active--; this._next(); });
      };
      if (this.active < this.limit) start();
      else this.waiting.push(start);
    });
  }

  _next() {
    while (this.active < this.limit && this.waiting.length) this.waiting.shift()();
  }

  _set(limit, reason) {
    limit = Math.max(this.min, Math.min(this.max, limit));
    if (limit === this.limit) return;
    this.limit = limit;
    const ev = { t: Date.now(), limit, reason };
    if (this.trace.length < this.traceCap) this.trace.push(ev);
    if (this.onChange) this.onChange({ name: this.name, ...ev });
    this._next();
  }
}

module.exports = { ConcurrencyLimit };
