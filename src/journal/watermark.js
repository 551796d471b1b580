'use strict';
// Keys enter in order and finish in any order. The watermark is the last key before which
// everything has finished; keys finished beyond it are reported once each, so a journal can
// record them and a resumed run skip them.
class Watermark {
  constructor() {
    this.queue = [];
    this.head = 0;
    this.seq = 0;
    this.markSeq = 0; // seq of the watermark token
    this.upTo = null;
    this.upToSource = null;
    this.newly = [];
  }

  add(key, sourceKey = key) {
    const token = { key, sourceKey, seq: ++this.seq, done: false };
    this.queue.push(token);
    return token;
  }

  finish(token) {
    token.done = true;
    this.newly.push(token);
    const q = this.queue;
    while (this.head < q.length && q[this.head].done) {
      const t = q[this.head++];
      this.upTo = t.key;
      this.upToSource = t.sourceKey;
      this.markSeq = t.seq;
    }
    if (this.head > 4096) { this.queue = q.slice(this.head); this.head = 0; }
  }

  // Keys finished beyond the watermark since the last call.
  takeNewly() {
    const out = [];
    for (const t of this.newly) if (t.seq > this.markSeq) out.push(t.key);
    this.newly = [];
    return out;
  }

  get pending() { return this.queue.length - this.head; }
}

module.exports = { Watermark };
