'use strict';
// Directory buckets (S3 Express One Zone): ListObjectsV2 there answers in no key order and
// takes no StartAfter, so the keyspace cannot be cut into ranges. Such a bucket is listed
// directory by directory instead: each directory with Prefix "dir/", Delimiter "/" and
// continuation tokens, as many requests at once as the list concurrency allows, fanning out
// as subdirectories appear; a subtree small enough is swept in one listing without the
// delimiter instead (see _sweep).
// - Unordered, each page's keys go out as they arrive, a key named twice in a directory's
//   listing once (keys-once.js: remembered in memory up to DIR_ONCE_KEYS, past it checked
//   on disk once the directory is listed).
// - In key order, a directory's keys are sorted (on disk past DIR_SORT_KEYS: directory-keys.js),
//   a key listed twice there goes out once, and each subdirectory's keys go out at its
//   name's place: every key of "d/s/" sorts after "d/s" and before any other key of "d/"
//   that sorts after "d/s/", since none of those starts with "d/s/". Directories are listed
//   ahead of the output, first in key order first (the order output needs them), while
//   fewer than DIR_AHEAD_KEYS keys wait.
// A range (--start-after, --stop-at, a single key) is kept by filtering keys and leaving out
// the directories that hold none of it, never by a StartAfter.
const pLimit = require('p-limit');
const { chunkOf, ColumnChunk, ColumnSink } = require('../stores/chunks');
const { compareKeys } = require('../keys/order');
const { inRange, dirMayHold } = require('../keys/range');
const { DirectoryKeys } = require('./directory-keys');
const { KeysOnce, KeysHeld } = require('./keys-once');
const { MinHeap } = require('../util/min-heap');
const { FatalError } = require('../errors');
const { RequestStats } = require('../stats');
const { depthOf } = require('../keys/depth');
const { option } = require('../options');
const { RequestGate } = require('./request-gate');
const { LatencyWatch } = require('./hedge');
const T = require('../plan/tuning').values;

const PAGE = 1000; // S3's page: keys per chunk handed out in key order

/**
 * One page of a directory of a directory bucket (walk: with the delimiter, its keys and
 * subdirectories; else its whole subtree's keys), checked to lie in it (directly, when
 * walked): {chunk (every key of the page), prefixes, next (the continuation token, or null)}.
 * maxKeys: at most so many keys (a check that a directory holds any).
 * A page that does not is a store whose listing cannot be trusted: FatalError.
 */
async function directoryPage(store, dir, token, { walk = true, maxKeys, signal, stats, listPage = (args) => store.listPage(args) }) {
  stats.listRequests++;
  stats.listInflight(1, performance.now());
  let page;
  try {
    page = await listPage({ prefix: dir, continuationToken: token, delimiter: walk ? '/' : undefined, maxKeys, signal });
  } finally {
    stats.listInflight(-1, performance.now());
  }
  stats.pages++;
  if (walk) stats.folderListings++;
  const chunk = chunkOf(page);
  stats.keysReturned += chunk.length;
  const out = chunk.outside(dir, walk);
  if (out >= 0) throw new FatalError(`the store answered key ${JSON.stringify(chunk.key(out))} to a listing of directory ${JSON.stringify(dir)}: not inside it, so its listing cannot be trusted`);
  const prefixes = page.prefixes || [];
  if (!walk && prefixes.length) throw new FatalError(`the store answered folders to a listing of directory ${JSON.stringify(dir)} without a delimiter, so its listing cannot be trusted`);
  for (const p of prefixes) {
    if (!p.startsWith(dir) || p.length === dir.length || p.indexOf('/', dir.length) !== p.length - 1) throw new FatalError(`the store answered folder ${JSON.stringify(p)} to a listing of directory ${JSON.stringify(dir)}: not a directory in it, so its listing cannot be trusted`);
  }
  if (page.truncated && !page.nextToken) throw new FatalError(`the store said the listing of directory ${JSON.stringify(dir)} is truncated but gave no continuation token`);
  return { chunk, prefixes, next: page.truncated ? page.nextToken : null };
}

class DirectoryLister {
  /** o: {range (normalizeRange), listConcurrency, maxListRequests, hedge (false: never send a
   * page again), hedgeAfter (ms: never sooner), ordered, signal, stats, log, onceKeys (keys
   * remembered to output each once, unordered; DIR_ONCE_KEYS), sortKeys (keys
   * of a directory sorted in memory; DIR_SORT_KEYS), sweepPages (DIR_SWEEP_PAGES; 0: walk
   * every directory)} */
  constructor(store, o) {
    this.store = store;
    this.range = o.range;
    this.ordered = o.ordered !== false;
    this.concurrency = option(o, 'listConcurrency');
    // A page that takes far longer than its peers is asked for again (hedge.js), with its
    // token (pages of a token are the same whoever asks): at most HEDGE_SLOT_DIVISOR-th of
    // the concurrency (at least one) in twins at once, beyond it.
    this.latency = o.hedge === false ? null : new LatencyWatch(o.hedgeAfter !== undefined ? { floorMs: o.hedgeAfter } : {});
    this.twins = 0;
    this.maxTwins = Math.max(1, Math.floor(this.concurrency / T.HEDGE_SLOT_DIVISOR));
    this.signal = o.signal;
    this.stats = o.stats || new RequestStats();
    this.log = o.log || (() => {});
    // --max-list-requests: its gate says once when the budget is spent; the listing then stops, incomplete.
    this.budget = new RequestGate({ concurrency: this.concurrency, maxRequests: o.maxListRequests, stats: this.stats, log: this.log });
    this.complete = false;
    this.inflight = 0;
    this.duplicates = 0; // keys a directory's pages named twice (output once)
    this.limit = pLimit(this.concurrency);
    this.stopped = false; // the output failed or its consumer stopped: no more pages
    this.sortKeys = o.sortKeys || T.DIR_SORT_KEYS;
    this.onceKeys = o.onceKeys || T.DIR_ONCE_KEYS;
    this.sweeps = new Map(); // depth -> {ok, failed}: sweeps tried there (see _sweep)
    this.sweepPages = o.sweepPages ?? T.DIR_SWEEP_PAGES;
    this.sweepMaxPages = o.sweepMaxPages ?? T.DIR_SWEEP_MAX_PAGES;
  }

  async *chunks() {
    const { prefix, empty } = this.range;
    if (empty) { this.complete = true; return; }
    const root = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    if (this.ordered) yield* this._ordered(root);
    else yield* this._unordered(root);
    if (this.duplicates) this.log(`the store named ${this.duplicates} keys twice within a directory's listing: each output once`);
    this.complete = !this.budget.stopped;
  }

  // Whether a subdirectory may hold keys of the range.
  _wanted(dir) { return dirMayHold(this.range, dir); }

  // One page of a directory (directoryPage): its keys in the range (a chunk) and its
  // subdirectories worth listing.
  async _page(dir, token, walk = true) {
    // The budget spent: no more requests; what was listed is output, marked incomplete.
    if (this.budget.spent()) {
      this.stopped = true;
      return { chunk: chunkOf({ items: [] }), subs: [], next: null };
    }
    this.inflight++;
    let page;
    try {
      page = await directoryPage(this.store, dir, token, { walk, signal: this.signal, stats: this.stats, listPage: (args) => this._hedged(args) });
    } finally {
      this.inflight--;
    }
    // A directory wholly in the range (no bounds, under the prefix) keeps every key.
    const { prefix, after, stop } = this.range;
    const whole = !after && stop === null && dir.startsWith(prefix);
    return { chunk: whole ? page.chunk : page.chunk.filterKeys((key) => inRange(this.range, key)), subs: whole ? page.prefixes : page.prefixes.filter((p) => this._wanted(p)), next: page.next };
  }

  // One request, sent again if it becomes a straggler; the first answer wins, the other is
  // left to finish unread (the listing's one signal ends both when it stops).
  _hedged(args) {
    const watch = this.latency;
    if (!watch) return this.store.listPage(args);
    const send = () => { const t0 = performance.now(); return this.store.listPage(args).then((page) => { watch.record(performance.now() - t0); return page; }); };
    const limit = watch.threshold();
    if (limit === null) return send();
    return new Promise((resolve, reject) => {
      let done = false, live = 1, timer = null;
      const race = (p, twin) => p.then((page) => {
        if (twin) this.twins--;
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(page);
      }, (err) => {
        if (twin) this.twins--;
        if (done || --live > 0) return;
        done = true;
        clearTimeout(timer);
        reject(err);
      });
      race(send(), false);
      const arm = () => {
        timer = setTimeout(() => {
          if (done || this.stopped || this.budget.left <= 0) return;
          if (this.twins >= this.maxTwins) { arm(); return; } // every twin slot taken: later
          live++;
          this.twins++;
          this.stats.listRequests++;
          this.stats.hedges++;
          race(send(), true);
        }, limit);
        if (timer.unref) timer.unref();
      };
      arm();
    });
  }

  // A directory's whole subtree in one listing without the delimiter, tried for at most
  // DIR_SWEEP_PAGES pages and held meanwhile: its chunks, or null where it ran longer (they
  // are dropped, and the directory is walked instead). Where subtrees are small, a sweep
  // costs a request per thousand keys where a walk costs one per directory; where they are
  // large, a walk runs their directories at once where a sweep would read them one page
  // after another. Sweeps are tried until, at a depth, DIR_SWEEP_GIVE_UP of them failed and
  // more failed than worked.
  async _sweep(dir) {
    const depth = depthOf(dir);
    const tally = this.sweeps.get(depth) || { ok: 0, failed: 0 }; // (tests read this.sweeps)
    this.sweeps.set(depth, tally);
    if (!this.sweepPages || (tally.failed >= T.DIR_SWEEP_GIVE_UP && tally.failed > tally.ok)) return null;
    const chunks = [];
    const children = new Set(); // subdirectories of dir the sweep's keys lie in
    let token, limit = this.sweepPages;
    for (let n = 0; n < limit && !this.stopped; n++) {
      const page = await this.limit(() => this._page(dir, token, false));
      chunks.push(page.chunk);
      if (!page.next) { tally.ok++; return chunks; }
      token = page.next;
      // A walk costs a request per subdirectory at least, and about (subdirectories ÷
      // concurrency) + 1 round trips: the sweep goes on while it has seen
      // DIR_SWEEP_CHILDREN_PER_PAGE times as many subdirectories as it read pages and has
      // taken fewer round trips than that walk would (at most DIR_SWEEP_MAX_PAGES pages).
      for (let k = 0; k < page.chunk.length; k++) {
        const key = page.chunk.key(k);
        const s = key.indexOf('/', dir.length);
        if (s >= 0) children.add(key.slice(dir.length, s));
      }
      const pages = n + 1;
      const walkRounds = Math.ceil(children.size / this.concurrency) + 1;
      if (pages >= this.sweepPages && children.size >= T.DIR_SWEEP_CHILDREN_PER_PAGE * pages && pages < walkRounds && pages < this.sweepMaxPages) limit = pages + 1;
    }
    tally.failed++;
    return null;
  }

  // A directory's keys and subdirectories to onPage (see _listDir): swept where that works,
  // else walked.
  async _list(dir, onPage) {
    const swept = await this._sweep(dir);
    if (swept) { for (const chunk of swept) await onPage(chunk, []); return; }
    if (!this.stopped) await this._listDir(dir, onPage);
  }

  // Every page of a directory, one after another; onPage(chunk, subs) as each arrives (the
  // next page waits for the promise it may return). A subdirectory named on two pages is
  // reported once.
  async _listDir(dir, onPage) {
    const seen = new Set();
    let token;
    do {
      const page = await this.limit(() => this._page(dir, token));
      const subs = page.subs.filter((s) => !seen.has(s));
      for (const s of subs) seen.add(s);
      await onPage(page.chunk, subs);
      token = page.next;
    } while (token && !this.stopped);
  }

  // Keys as pages arrive, directories listed newest first (the queue stays short). At most
  // as many chunks wait for the consumer as requests may be in flight: past that, listings
  // wait before their next page and no directory starts.
  async *_unordered(root) {
    const queue = [root];
    const ready = [];
    const held = new KeysHeld(this.onceKeys); // keys remembered to output each once
    const room = []; // listings waiting for the consumer
    let running = 0, failure = null, wake = null;
    const cap = this.concurrency;
    const notify = () => { if (wake) { const w = wake; wake = null; w(); } };
    const freeRoom = () => { while (room.length && (ready.length < cap || this.stopped)) room.shift()(); };
    const onPage = (once, chunk, subs) => {
      chunk = once.filter(chunk);
      if (chunk.length) ready.push(chunk);
      for (let i = subs.length - 1; i >= 0; i--) queue.push(subs[i]);
      pump();
      notify();
      return ready.length < cap || this.stopped ? undefined : new Promise((resolve) => room.push(resolve));
    };
    const pump = () => {
      while (!failure && !this.stopped && queue.length && running < this.concurrency && ready.length < cap) {
        running++;
        const dir = queue.pop();
        const once = new KeysOnce(dir, held);
        this._list(dir, (chunk, subs) => onPage(once, chunk, subs))
          .then(() => once.finish(), (err) => { once.remove(); throw err; })
          .then(() => { this.duplicates += once.dropped; running--; pump(); notify(); }, (err) => { failure = failure || err; running--; notify(); });
      }
    };
    try {
      pump();
      for (;;) {
        if (failure) throw failure;
        if (ready.length) {
          const chunk = ready.shift();
          freeRoom();
          this.stats.keysUnique += chunk.length;
          yield chunk;
          pump();
          continue;
        }
        if (running === 0 && (!queue.length || this.budget.stopped)) return; // (directories left unlisted once the budget is spent)
        await new Promise((resolve) => { wake = resolve; });
      }
    } finally {
      this.stopped = true;
      freeRoom();
    }
  }

  // Keys in key order: a walk of the directories in order, listing ahead.
  async *_ordered(root) {
    const listings = new Map(); // dir -> promise of {sorter, subs}, started
    const ahead = new MinHeap(compareKeys); // dirs found and not started: the first in key order is output first
    let held = 0; // keys of started listings not yet output
    let failure = null;
    const start = (dir) => {
      if (listings.has(dir)) return listings.get(dir);
      const keys = new DirectoryKeys(this.sortKeys);
      const subs = [];
      const p = this._list(dir, (chunk, found) => {
        keys.add(chunk);
        held += chunk.length;
        subs.push(...found);
        for (const f of found) ahead.push(f);
        fill();
      }).then(() => ({ keys, subs: subs.sort(compareKeys) }), (err) => { failure = failure || err; keys.remove(); throw err; });
      // Marked when done either way (a failure is awaited where output needs it).
      p.then(() => { p.settled = true; }, () => { p.settled = true; });
      listings.set(dir, p);
      return p;
    };
    // Output starts directories in increasing order of their names (a walk in key order
    // visits a directory before its subdirectories, and those before its later siblings):
    // one at or before the last it started was output already, or is being output.
    let reached = null;
    const fill = () => {
      while (!failure && ahead.size && held < T.DIR_AHEAD_KEYS && this.inflight + this.limit.pendingCount < this.concurrency) {
        const dir = ahead.pop();
        if (!listings.has(dir) && (reached === null || compareKeys(dir, reached) > 0)) start(dir);
      }
    };
    const self = this;
    // Keys go out in chunks of PAGE whatever directories they come from (a tree of small
    // directories would otherwise make a chunk of each); what is held goes out before output
    // waits on a listing. Keys are gathered from the pages' chunks in their new order.
    let batch = new ColumnSink();
    const flush = function* () {
      if (!batch.length) return;
      self.stats.keysUnique += batch.length;
      const chunk = new ColumnChunk(batch.columns());
      batch = new ColumnSink();
      yield chunk;
    };
    async function* emit(dir) {
      if (failure) throw failure;
      reached = dir;
      const listing = start(dir);
      if (!listing.settled) yield* flush();
      const { keys, subs } = await listing;
      fill();
      try {
        let prev = null, s = 0;
        // A directory sorted in memory is read without an await per key.
        const mem = keys.inMemory();
        const rows = mem ? null : keys.sortedRows()[Symbol.asyncIterator]();
        for (let r = 0; ; r++) {
          let key, row;
          if (mem) { if (r === mem.length) break; key = mem.key(r); } else { const n = await rows.next(); if (n.done) break; row = n.value; key = row[0]; }
          held--;
          if (key === prev) { self.duplicates++; continue; } // listed twice: out once
          prev = key;
          while (s < subs.length && compareKeys(subs[s], key) < 0) yield* emit(subs[s++]);
          batch.knows(keys.utf16, keys.plain);
          if (mem) mem.addTo(batch, r);
          else batch.addKnown(row[0], row[1], row[2] === null ? NaN : row[2], row[3] ?? undefined, row[4]);
          if (batch.length === PAGE) yield* flush();
        }
        while (s < subs.length) yield* emit(subs[s++]);
      } finally {
        keys.remove();
        listings.delete(dir);
      }
    }
    try {
      yield* emit(root);
      yield* flush();
    } finally {
      // Listings started ahead and never output (a failure, or the consumer stopped): ended and removed.
      this.stopped = true;
      for (const p of listings.values()) p.then((l) => l.keys.remove(), () => {});
    }
  }
}

module.exports = { DirectoryLister, directoryPage };
