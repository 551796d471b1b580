'use strict';
// A listing that is verified before it is used. The parallel listers check every page
// (order, StartAfter, pages that overlap must agree) and throw UntrustedStore when a store
// fails; this holds the first keys back until 16 pages have passed those checks
// and a canary request has shown that StartAfter works on a folder's name (some servers
// skip the whole folder), so a store that cannot be trusted is found before anything is
// output. Then the listing starts over as one sequential walk, sorted on disk when it must
// come out in key order, and says so. Found after output began, it is a fatal error.
const { ParallelLister } = require('./parallel-lister');
const { SequentialWalk } = require('./sequential-walk');
const { acceptableStartAfter } = require('./page-check');
const { ItemChunk, chunkOf } = require('../stores/chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');
const { compareKeys } = require('../keys/order');
const { ExternalSorter } = require('../util/spool');
const { RequestStats } = require('../stats');
const { FatalError } = require('../errors');

// Output waits until this many pages of keys have passed the listers' checks (or the listing ends),
// holding at most HOLD_KEYS keys meanwhile.
const HOLD_PAGES = 16;
const HOLD_KEYS = 32000;

// Folders that begin inside a run of listed keys, with the key that must follow each:
// for keys ... "logs/02/x", "logs/03/a" ..., StartAfter "logs/03" must answer "logs/03/a"
// (no key lies between two neighbours of one page). Up to two: the shallowest and deepest.
function canaryProbes(chunk, prefix, after) {
  for (let k = 1; k < chunk.length; k++) {
    const prev = chunk.key(k - 1), key = chunk.key(k);
    let c = 0;
    while (c < prev.length && prev.charCodeAt(c) === key.charCodeAt(c)) c++;
    const found = [];
    for (let p = key.indexOf('/', Math.max(c, prefix.length) + 1); p > 0; p = key.indexOf('/', p + 1)) {
      const folder = key.slice(0, p);
      if (acceptableStartAfter(folder) && (after === '' || compareKeys(folder, after) > 0)) found.push(folder);
    }
    if (found.length) return [...new Set([found[0], found[found.length - 1]])].map((folder) => ({ folder, expect: key }));
  }
  return [];
}

class GuardedLister {
  /** Options as ParallelLister's, plus range (normalizeRange), ordered, sequential. */
  constructor(store, options) {
    this.store = store;
    this.options = options;
    this.range = options.range;
    this.ordered = options.ordered !== false;
    this.stats = options.stats || new RequestStats();
    this.log = options.log || (() => {});
    this.lister = null;
    this.complete = false;
  }

  get inflight() { return this.lister ? this.lister.inflight : 0; }

  async *chunks() {
    if (this.options.sequential) { yield* this._walk(true); return; }
    const r = this.range;
    this.lister = new ParallelLister(this.store, { ...this.options, prefix: r.prefix, startAfter: r.after, stopAt: r.stop, stats: this.stats });
    let held = [], heldKeys = 0, canary = null;
    try {
      for await (const chunk of this.lister.chunks()) {
        if (!held) { yield chunk; continue; }
        held.push(chunk);
        heldKeys += chunk.length;
        canary ??= this._canary(chunk);
        if (heldKeys < HOLD_KEYS && this.stats.checkedPages < HOLD_PAGES) continue;
        if (canary) await canary.verdict();
        const go = held;
        held = null;
        yield* go;
      }
      if (held) {
        if (canary) await canary.verdict();
        const go = held;
        held = null;
        yield* go;
      }
      this.complete = this.lister.complete;
    } catch (err) {
      if (!(err instanceof UntrustedStore)) throw err;
      if (!held) throw new FatalError(`${err.message}; found after output began: what was output is right, but the listing stopped (rerun with --sequential)`);
      this.stats.keysUnique -= heldKeys; // never handed out: the walk hands them out
      held = null;
      this.log(`${err.message}: listing it again with one sequential walk${this.ordered ? ', sorted on disk' : ''}`);
      yield* this._walk(false);
    }
  }

  // A canary for StartAfter on folder names, once per listing, on the first keys that allow
  // one. Its requests run beside the listing; verdict() waits for them and throws if they failed.
  _canary(chunk) {
    // Within --max-list-requests: what the budget leaves of it.
    const left = (this.options.maxListRequests || Infinity) - this.stats.listRequests;
    const probes = canaryProbes(chunk, this.range.prefix, this.range.after).slice(0, Math.max(0, left));
    if (!probes.length) return null;
    const done = Promise.all(probes.map(async ({ folder, expect }) => {
      this.stats.listRequests++;
      const page = await this.store.listPage({ prefix: this.range.prefix, startAfter: folder, maxKeys: 1, signal: this.options.signal });
      const c = chunkOf(page);
      this.stats.pages++;
      this.stats.keysReturned += c.length;
      const got = c.length ? c.key(0) : null;
      if (got !== expect) {
        throw new UntrustedStore(`the store answered StartAfter ${showKey(folder)} with ${showKey(got)}, where ${showKey(expect)} comes first: its StartAfter cannot be trusted`);
      }
    })).then(() => null, (err) => err);
    return { verdict: async () => { const err = await done; if (err) throw err; } };
  }

  // One sequential walk; in key order, its keys go through a sort on disk first.
  async *_walk(trusted) {
    const walk = new SequentialWalk(this.store, { ...this.options, range: this.range, trusted, stats: this.stats });
    this.lister = walk;
    if (!trusted) this.stats.fallback = this.ordered ? 'sorted' : 'sequential';
    if (!this.ordered) {
      yield* walk.chunks();
      this.complete = walk.complete;
      return;
    }
    // Rows as plain data (chunk.rows), turned back into chunks of their kind on the way out.
    const sorter = new ExternalSorter((r) => r[0], compareKeys);
    let kind = ItemChunk;
    try {
      for await (const chunk of walk.chunks()) {
        kind = chunk.constructor.fromRows ? chunk.constructor : ItemChunk;
        for (const row of chunk.rows()) sorter.push(row);
      }
      let batch = [], prev = null;
      for await (const row of sorter.sorted()) {
        const Key = row[0];
        if (prev === Key) throw new UntrustedStore(`the store listed ${showKey(Key)} twice in one sequential walk`);
        prev = Key;
        batch.push(row);
        if (batch.length === 1000) { yield kind.fromRows(batch); batch = []; }
      }
      if (batch.length) yield kind.fromRows(batch);
      this.complete = walk.complete;
    } finally {
      sorter.remove();
    }
  }
}

module.exports = { GuardedLister, canaryProbes, HOLD_KEYS, HOLD_PAGES };
