'use strict';
// The n objects that rank first by some measure (the largest, the oldest), kept in a heap
// of n: a key is only copied out of its page when it ranks, so most objects cost one
// comparison. `better(a, b)` says a's measure ranks before b's; equal measures rank in S3
// key order, so the result does not depend on the order pages arrive in.
const { precedes, lowKey } = require('../keys/order');

class TopObjects {
  constructor(n, betterValue) {
    this.n = n;
    this.betterValue = betterValue;
    // (an entry remembers whether its key compares natively, worked out the first time it is
    // the one compared with: most objects are compared with the same few kept ones)
    this.better = (a, b) => betterValue(a.v, b.v) || (a.v === b.v && precedes(a.key, b.key, b.low ??= lowKey(b.key)));
    this.heap = []; // the worst kept object at the top
  }

  // Whether an object of this measure could be kept: a cheap test before making the entry.
  wants(value) {
    return this.n > 0 && (this.heap.length < this.n || !this.betterValue(this.heap[0].v, value));
  }

  add(entry) {
    const h = this.heap;
    if (this.n <= 0) return;
    if (h.length < this.n) {
      h.push(entry);
      this._up(h.length - 1);
    } else if (this.better(entry, h[0])) {
      h[0] = entry;
      this._down(0);
    }
  }

  _worse(a, b) { return this.better(b, a); }

  _up(i) {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this._worse(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  _down(i) {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < h.length && this._worse(h[l], h[m])) m = l;
      if (r < h.length && this._worse(h[r], h[m])) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }

  // Best first; equal measures in S3 key order.
  sorted() {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : this.better(b, a) ? 1 : 0));
  }
}

// entry: {v (the measure), key, size, t, storageClass}
const largest = (n) => new TopObjects(n, (a, b) => a > b);
const oldest = (n) => new TopObjects(n, (a, b) => a < b);

module.exports = { TopObjects, largest, oldest };
