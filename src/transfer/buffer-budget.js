'use strict';
// Bytes of part buffers a run may hold at once (uploads and copies through this machine
// buffer each part in flight): a part waits for room instead of growing memory with the
// size or number of objects. A part larger than the whole budget still runs, alone.
class BufferBudget {
  constructor(max) {
    this.max = max;
    this.used = 0;
    this.waiting = [];
  }

  /** Resolves once n bytes are held; rejects if signal aborts first. */
  acquire(n, signal) {
    if (this._fits(n) && !this.waiting.length) { this.used += n; return Promise.resolve(); }
    if (signal && signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const w = { n, resolve, reject, signal, onAbort: null };
      if (signal) {
        w.onAbort = () => { this.waiting.splice(this.waiting.indexOf(w), 1); reject(signal.reason); };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.waiting.push(w);
    });
  }

  release(n) {
    this.used -= n;
    while (this.waiting.length && this._fits(this.waiting[0].n)) {
      const w = this.waiting.shift();
      if (w.signal) w.signal.removeEventListener('abort', w.onAbort);
      this.used += w.n;
      w.resolve();
    }
  }

  _fits(n) { return this.used === 0 || this.used + n <= this.max; }
}

module.exports = { BufferBudget };
