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
      this.waiting.push(() => {
        this.active++;
        Promise.resolve().then(fn).then(resolve, reject).finally(() => { this.active--; this._next(); });
      });
      this._next(); // a subclass may hold even a free slot (prefix-limit.js paces by rate)
    });
  }

  _next() {
    while (this.active < this.limit && this.waiting.length) this.waiting.shift()();
  }

  // Moves the limit within [min, max]; false where that leaves it where it was.
  _set(limit, reason) {
    limit = Math.max(this.min, Math.min(this.max, limit));
    if (limit === this.limit) return false;
    this.limit = limit;
    this._trace(reason);
    this._next();
    return true;
  }

  // What a change is traced as; a subclass adds what else moved.
  _event(reason) {
    return { t: Date.now(), limit: this.limit, reason };
  }

  _trace(reason) {
    const ev = this._event(reason);
    if (this.trace.length < this.traceCap) this.trace.push(ev);
    if (this.onChange) this.onChange({ name: this.name, ...ev });
  }
}

module.exports = { ConcurrencyLimit };
