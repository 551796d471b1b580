'use strict';
// A plain ListObjectsV2 walk with continuation tokens: one request at a time, in the
// store's own order. For --sequential, and for stores whose listings cannot be trusted;
// those are walked from the prefix's start (their StartAfter is not asked) and every key
// is filtered into the range here, never cut off early on the store's word.
const { compareKeys } = require('../keys/order');
const { inRange } = require('../keys/range');
const { RequestStats } = require('../stats');
const { FatalError } = require('../errors');
const { chunkOf } = require('../stores/chunks');
const { budgetNotice } = require('./request-gate');

function isIncreasing(chunk) {
  for (let k = 1; k < chunk.length; k++) if (compareKeys(chunk.key(k - 1), chunk.key(k)) >= 0) return false;
  return true;
}

class SequentialWalk {
  /** @param o {range (normalizeRange), trusted, maxListRequests, stats, signal, log, onPage(chunk): every page read} */
  constructor(store, o) {
    this.store = store;
    this.onPage = o.onPage || null;
    this.range = o.range;
    this.trusted = o.trusted !== false;
    this.maxRequests = o.maxListRequests || Infinity;
    this.stats = o.stats || new RequestStats();
    this.signal = o.signal;
    this.log = o.log || (() => {});
    this.complete = false;
    this.inflight = 0;
  }

  async *chunks() {
    const { prefix, after, stop, empty } = this.range;
    if (empty) { this.complete = true; return; }
    let token;
    let first = true;
    for (;;) {
      if (this.stats.listRequests >= this.maxRequests) {
        this.log(budgetNotice(this.stats.listRequests));
        return;
      }
      this.stats.listRequests++;
      this.inflight = 1;
      const page = await this.store.listPage({
        prefix, startAfter: first && this.trusted ? after || undefined : undefined, continuationToken: token, signal: this.signal,
      });
      this.inflight = 0;
      first = false;
      this.stats.pages++;
      const all = chunkOf(page);
      this.stats.keysReturned += all.length;
      if (this.onPage) this.onPage(all);
      // Rows of the page's own kind (objects, or keys with their versions).
      const rows = all.filterKeys((key) => inRange(this.range, key));
      // Past --stop-at, a store that lists in order has nothing more to say.
      if (this.trusted && stop !== null && all.length > 0 && isIncreasing(all) && compareKeys(all.key(all.length - 1), stop) > 0) page.truncated = false;
      this.stats.keysUnique += rows.length;
      if (rows.length) yield rows;
      if (!page.truncated) break;
      token = page.nextToken;
      if (!token) throw new FatalError('the store said the listing is truncated but gave no continuation token');
    }
    this.complete = true;
  }
}

module.exports = { SequentialWalk };
