'use strict';
// A binary heap: the least item (by compare) first, in O(log n) per push and pop.
class MinHeap {
  constructor(compare) {
    this.compare = compare;
    this.items = [];
  }

  get size() { return this.items.length; }

  push(x) {
    const a = this.items;
    let i = a.push(x) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.compare(a[p], x) <= 0) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }

  pop() {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = l < a.length && this.compare(a[l], last) < 0 ? l : -1;
        if (r < a.length && this.compare(a[r], m < 0 ? last : a[l]) < 0) m = r;
        if (m < 0) break;
        a[i] = a[m];
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
}

module.exports = { MinHeap };
