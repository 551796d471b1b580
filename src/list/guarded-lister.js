'use strict';
// A listing that is verified before it is used. The parallel listers check every page
// (order, StartAfter, pages that overlap must agree) and throw UntrustedStore when a store
// fails; this holds the first keys back until 16 pages have passed those checks, the
// range's own start has been checked (start-check.js), and a canary has shown that StartAfter
// works on a folder's name and places "d/" after "d." as S3 does (file-tree servers skip the
// folder, or list it before "d-1"), so a store that cannot be trusted is found before
// anything is output. A sequential walk that sends a StartAfter (--sequential) waits for the
// same checks. Then the listing starts over as one sequential walk without StartAfter, sorted
// on disk when it must come out in key order, and says so. Found after output began, it is a
// fatal error.
const { ParallelLister } = require('./parallel-lister');
const { SequentialWalk } = require('./sequential-walk');
const { acceptableStartAfter } = require('./page-check');
const { ItemChunk, chunkOf } = require('../stores/chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');
const { compareKeys } = require('../keys/order');
const { ExternalSorter } = require('../util/spool');
const { inRange } = require('../keys/range');
const { wireRange, walkPrefix, checkStart, refusedName, BEFORE_SLASH } = require('./start-check');
const { RequestStats } = require('../stats');
const { FatalError } = require('../errors');
const T = require('../plan/tuning').values;

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

// A key with "/" past the prefix, and the greatest key before its folder that a request can
// carry ("d/x": "d." + U+10FFFF): asked for the keys after that, a store must answer with a
// key no greater than "d/x". A store that orders folder by folder skips the folder there.
function treeProbe(chunk, prefix) {
  for (let k = 0; k < chunk.length; k++) {
    const key = chunk.key(k);
    const p = key.indexOf('/', prefix.length);
    if (p <= 0) continue;
    const before = key.slice(0, p) + BEFORE_SLASH;
    if (acceptableStartAfter(before)) return { before, atMost: key };
  }
  return null;
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
    this.checks = []; // {verdict()}: what must pass before output
    this.canaryAsked = false;
    this.seen = 0; // keys the listers counted as listed, taken back if the store is walked again
  }

  get inflight() { return this.lister ? this.lister.inflight : 0; }

  async *chunks() {
    const r = this.range;
    // What the store is asked for: a range no key order misreads; the keys outside the exact
    // range are dropped on the way out.
    const wire = wireRange(r);
    if (wire.empty) { this.complete = true; return; }
    const trim = wire.after !== r.after || wire.stop !== r.stop ? (chunk) => chunk.filterKeys((k) => inRange(r, k)) : (chunk) => chunk;
    if (wire.after) this.checks.push(this._startCheck(wire));
    const sequential = this.options.sequential === true;
    let out = false;
    try {
      for await (const chunk of sequential ? this._walk(true, wire, trim) : this._parallel(wire, trim)) { out = true; yield chunk; }
    } catch (err) {
      if (!(err instanceof UntrustedStore)) throw err;
      if (out) throw new FatalError(`${err.message}; found after output began: what was output is right, but the listing stopped${sequential ? '' : ' (rerun with --sequential)'}`);
      this.stats.keysUnique -= this.seen; // never handed out: the walk hands them out
      this.log(`${err.message}: listing it again with one sequential walk${this.ordered ? ', sorted on disk' : ''}`);
      yield* this._walk(false);
    }
  }

  // The parallel lister's chunks, the first ones held back until the checks pass.
  async *_parallel(wire, trim) {
    this.lister = new ParallelLister(this.store, { ...this.options, prefix: wire.prefix, startAfter: wire.after, stopAt: wire.stop, stats: this.stats, onPage: (c) => this._canaryOn(c) });
    let held = [], heldKeys = 0;
    const release = async function* () {
      const go = held;
      held = null;
      for (const c of go) if (c.length) yield c;
    };
    for await (const raw of this.lister.chunks()) {
      this.seen += raw.length;
      const chunk = trim(raw);
      if (!held) { if (chunk.length) yield chunk; continue; }
      held.push(chunk);
      heldKeys += raw.length;
      // Output waits until HOLD_PAGES pages of keys have passed the listers' checks (or the
      // listing ends), holding at most HOLD_KEYS keys meanwhile.
      if (heldKeys < T.HOLD_KEYS && this.stats.checkedPages < T.HOLD_PAGES) continue;
      await this._verdicts();
      yield* release();
    }
    await this._verdicts();
    if (held) yield* release();
    this.complete = this.lister.complete;
  }

  // Starts the canary on the first page that allows one: any page the lister reads, those
  // past the range's end too (a store that lists folder by folder may show nothing else).
  _canaryOn(chunk) {
    if (this.canaryAsked) return;
    const canary = this._canary(chunk);
    if (canary) { this.canaryAsked = true; this.checks.push(canary); }
  }

  // Waits for every check so far; throws what the first that failed found.
  async _verdicts() {
    for (const c of this.checks) await c.verdict();
  }

  // The check of the range's own start (start-check.js), once per listing. Its requests run
  // beside the listing; verdict() waits for them and throws if the store failed it.
  _startCheck(wire) {
    return settled(checkStart(this.store, wire, { signal: this.options.signal, stats: this.stats }));
  }

  // A canary for StartAfter on folder names, once per listing, on the first keys that allow
  // one. Its requests run beside the listing; verdict() waits for them and throws if they failed.
  _canary(chunk) {
    const { prefix, after } = this.range;
    const asks = canaryProbes(chunk, prefix, after).map(({ folder, expect }) => ({
      startAfter: folder, ok: (got) => got === expect, expect,
    }));
    const tree = treeProbe(chunk, prefix);
    if (tree) asks.push({ startAfter: tree.before, ok: (got) => got !== null && compareKeys(got, tree.atMost) <= 0, expect: tree.atMost });
    // Within --max-list-requests: what the budget leaves of it.
    const left = (this.options.maxListRequests || Infinity) - this.stats.listRequests;
    const probes = asks.slice(0, Math.max(0, left));
    if (!probes.length) return null;
    return settled(Promise.all(probes.map(async ({ startAfter, ok, expect }) => {
      this.stats.listRequests++;
      let page;
      try {
        page = await this.store.listPage({ prefix, startAfter, maxKeys: 1, signal: this.options.signal });
      } catch (err) {
        if (refusedName(err)) return; // a name the store refuses: it holds no key to skip there
        throw err;
      }
      const c = chunkOf(page);
      this.stats.pages++;
      this.stats.keysReturned += c.length;
      const got = c.length ? c.key(0) : null;
      if (!ok(got)) {
        throw new UntrustedStore(`the store answered StartAfter ${showKey(startAfter)} with ${showKey(got)}, where ${showKey(expect)} comes first: its StartAfter cannot be trusted`);
      }
    })));
  }

  // One sequential walk; in key order, its keys go through a sort on disk first. A trusted
  // walk (--sequential) asks for the wire range and waits for the checks before output; an
  // untrusted one sends no StartAfter at all and reads from the narrowest prefix that holds
  // the range.
  async *_walk(trusted, wire = null, trim = (c) => c) {
    const range = trusted ? wire : { ...this.range, prefix: walkPrefix(this.range) };
    const walk = new SequentialWalk(this.store, { ...this.options, range, trusted, stats: this.stats, onPage: trusted ? (c) => this._canaryOn(c) : undefined });
    this.lister = walk;
    if (!trusted) this.stats.fallback = this.ordered ? 'sorted' : 'sequential';
    const saw = trusted ? (raw) => { this.seen += raw.length; } : () => {};
    if (!this.ordered) {
      for await (const raw of walk.chunks()) {
        saw(raw);
        if (trusted) await this._verdicts();
        const chunk = trim(raw);
        if (chunk.length) yield chunk;
      }
      if (trusted) await this._verdicts();
      this.complete = walk.complete;
      return;
    }
    // Rows as plain data (chunk.rows), turned back into chunks of their kind on the way out.
    const sorter = new ExternalSorter((r) => r[0]);
    let kind = ItemChunk;
    try {
      for await (const raw of walk.chunks()) {
        saw(raw);
        const chunk = trim(raw);
        kind = chunk.constructor.fromRows ? chunk.constructor : ItemChunk;
        for (const row of chunk.rows()) sorter.push(row);
      }
      if (trusted) await this._verdicts();
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

// A check whose requests run now: verdict() waits for them and throws what they found.
function settled(promise) {
  const done = promise.then(() => null, (err) => err);
  return { verdict: async () => { const err = await done; if (err) throw err; } };
}

module.exports = { GuardedLister, canaryProbes, treeProbe, HOLD_KEYS: T.HOLD_KEYS, HOLD_PAGES: T.HOLD_PAGES };
