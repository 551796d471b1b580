'use strict';
// Every key of one directory's listing once, for output as pages arrive (a directory
// bucket, unordered): pages come in no key order, so a key a store names twice could be on
// any two pages. The keys seen are remembered while the listing's directories together
// hold fewer than `budget.limit` of them in memory (a key named again is dropped there and
// counted); past that, a directory's keys go to disk (an ExternalSorter), and once its
// listing ends they are sorted and a key found twice stops the listing: it went out twice
// already, and a store that does that cannot be trusted. Memory stays bounded however large
// a directory is; only a directory of more keys than fit pays for the disk.
const { ExternalSorter } = require('../util/spool');
const { FatalError } = require('../errors');
const { ItemChunk } = require('../stores/chunks');

/** A budget of keys held in memory, shared by the directories listed at once. */
class KeysHeld {
  constructor(limit) { this.limit = limit; this.held = 0; }
}

class KeysOnce {
  constructor(dir, budget) {
    this.dir = dir;
    this.budget = budget;
    this.seen = null; // keys so far, built when a second page comes (one page is checked alone)
    this.first = null; // the first page, until then
    this.sorter = null; // past the budget: every key, to be sorted when the listing ends
    this.dropped = 0; // keys named again and left out
  }

  /** The chunk's keys not seen before in this directory, as a chunk (the same one when all are new). */
  filter(chunk) {
    if (!this.sorter && !this.seen) {
      if (!this.first) { this.first = chunk; return this._alone(chunk); }
      this.seen = new Set();
      this._remember(this.first); // (which may go past the budget: to disk)
      this.first = null;
    }
    if (this.sorter) { pushKeys(this.sorter, chunk); return chunk; }
    let fresh = null; // indexes kept, once one is dropped
    for (let i = 0; i < chunk.length; i++) {
      const key = chunk.key(i);
      if (this.seen.has(key)) {
        if (!fresh) fresh = Array.from({ length: i }, (_, j) => j);
        this.dropped++;
        continue;
      }
      this.seen.add(key);
      if (fresh) fresh.push(i);
    }
    this._hold(fresh ? fresh.length : chunk.length);
    if (!fresh) return chunk;
    const items = chunk.toItems();
    return new ItemChunk(fresh.map((i) => items[i]));
  }

  // A first page on its own: keys it names twice are dropped (most directories are one page).
  _alone(chunk) {
    if (chunk.length < 2) return chunk;
    const keys = new Set();
    let twice = false;
    for (let i = 0; i < chunk.length; i++) {
      const key = chunk.key(i);
      if (keys.has(key)) twice = true;
      keys.add(key);
    }
    if (!twice) return chunk;
    const out = new Set();
    const kept = chunk.filterKeys((key) => !out.has(key) && out.add(key));
    this.dropped += chunk.length - kept.length;
    this.first = kept;
    return kept;
  }

  _remember(chunk) {
    for (let i = 0; i < chunk.length; i++) this.seen.add(chunk.key(i));
    this._hold(chunk.length);
  }

  // Keys newly held; past the budget they go to disk instead.
  _hold(n) {
    this.budget.held += n;
    if (this.budget.held <= this.budget.limit) return;
    this.sorter = new ExternalSorter((r) => r[0]);
    for (const key of this.seen) this.sorter.push([key]);
    this.budget.held -= this.seen.size;
    this.seen = null;
  }

  /** The listing ended: keys that went to disk are checked (a FatalError names one listed twice). */
  async finish() {
    try {
      if (!this.sorter) return;
      let prev = null;
      for await (const [key] of this.sorter.sorted()) {
        if (key === prev) throw new FatalError(`the store named key ${JSON.stringify(key)} twice in the listing of directory ${JSON.stringify(this.dir)} (found once its keys were checked on disk, after both went out): its listing cannot be trusted`);
        prev = key;
      }
    } finally {
      this.remove();
    }
  }

  remove() {
    if (this.seen) this.budget.held -= this.seen.size;
    this.seen = null;
    this.first = null;
    if (this.sorter) this.sorter.remove();
    this.sorter = null;
  }
}

function pushKeys(sorter, chunk) {
  for (let i = 0; i < chunk.length; i++) sorter.push([chunk.key(i)]);
}

module.exports = { KeysOnce, KeysHeld };
