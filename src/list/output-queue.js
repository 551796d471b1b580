'use strict';
// The chunks a lister has ready and its consumer has not taken yet. The lister pushes and
// says when it has finished or failed; the consumer drains, waiting while the queue is
// empty. `full` is the lister's cue to stop sending requests until the consumer catches up.
class OutputQueue {
  constructor(maxQueued) {
    this.chunks = [];
    this.maxQueued = maxQueued;
    this.finished = false;
    this.error = null;
    this.wake = null;
  }

  get length() { return this.chunks.length; }

  get full() { return this.chunks.length >= this.maxQueued; }

  push(chunk) { this.chunks.push(chunk); }

  // Wakes the consumer to look again (new chunks, the end, an error).
  notify() { if (this.wake) this.wake(); }

  finish() { this.finished = true; }

  // The first error wins: later ones are its consequences.
  fail(err) {
    if (!this.error) this.error = err;
    this.notify();
  }

  /** Yields chunks in order until finished; onTake() runs after each is taken, before it is yielded. */
  async *drain(onTake) {
    for (;;) {
      if (this.error) throw this.error;
      if (this.chunks.length) {
        const chunk = this.chunks.shift();
        onTake();
        yield chunk;
        continue;
      }
      if (this.finished) return;
      await new Promise((resolve) => { this.wake = resolve; });
      this.wake = null;
    }
  }
}

module.exports = { OutputQueue };
