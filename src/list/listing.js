'use strict';
// One listing of a source: opens the store, lists the range (in parallel and verified for
// S3, by a sorted walk for folders), applies --filter and --pattern, counts, reports progress.
const { GuardedLister } = require('./guarded-lister');
const { DirectoryLister } = require('./directory-lister');
const { normalizeRange } = require('../keys/range');
const { openStore } = require('../stores/open-store');
const { RequestStats } = require('../stats');
const { userFunction, keyMatcher } = require('../js-function');
const { FatalError, UsageError } = require('../errors');
const { option } = require('../options');
const { Progress } = require('../progress');
const { ItemChunk } = require('../stores/chunks');
const { runSignal } = require('../signal');
const { pathFilter } = require('../keys/globs');
const { compareKeys } = require('../keys/order');
const { HintCollector, readHintsFile, loadCachedHints, saveCachedHints } = require('./split-hints');
const { VersionStore } = require('../stores/version-store');
const { parseAsOf, chunkAsOf } = require('./versions');
const { PROBE_MARK, isProbeKey } = require('../stores/conditional-probe');

class Listing {
  constructor(options = {}) {
    this.options = options;
    this.signal = options.signal && options.signal.__s3blitzRun ? options.signal : runSignal(options.signal);
    this.stats = options.stats || new RequestStats();
    this.listConcurrency = option(options, 'listConcurrency');
    this.maxListRequests = option(options, 'maxListRequests');
    this.filter = userFunction(options.filter, '--filter');
    this.match = keyMatcher(options.pattern);
    // options.store: a store the caller opened and closes (a stage's, or a test's); the
    // listing never destroys it. Without one, the listing opens its own (library callers of
    // Listing) and destroys it at close.
    this.ownsStore = !options.store;
    const { store, location } = options.store
      ? { store: options.store, location: options.storeLocation || { prefix: options.prefix || '', text: options.source || 'custom store' } }
      : this.constructor.openStore(options, this.stats);
    // Versions: every one (allVersions), or the objects as they were at a moment (asOf).
    this.asOf = parseAsOf(options.asOf);
    this.allVersions = Boolean(options.allVersions);
    if (this.allVersions && this.asOf !== null) {
      if (this.ownsStore) store.destroy();
      throw new UsageError('--all-versions and --as-of cannot be combined (to see the versions up to a moment, --filter on LastModified)');
    }
    try {
      this.store = this.allVersions || this.asOf !== null ? versionStore(store, this.stats) : store;
    } catch (err) {
      if (this.ownsStore) store.destroy();
      throw err;
    }
    this.location = location;
    // A single object is the range from its key to its key.
    const stopAt = location.single !== undefined && !(options.stopAt && compareKeys(options.stopAt, location.single) < 0) ? location.single : options.stopAt;
    this.range = normalizeRange({ prefix: location.prefix, startAfter: options.startAfter, stopAt });
    if (options.emptyRange) this.range = { ...this.range, empty: true }; // a shard given nothing to list
    this.select = keySelector(location, options.pathFilters, options.selectKey);
    this.listed = 0; // items handed out, after every filter
    this.complete = false;
    // Library callers get onProgress events, never a line drawn on their terminal.
    this.progress = options.progress || new Progress({ onProgress: options.onProgress, showLine: false });
    this.log = options.log || (() => {});
  }

  /**
   * The store a listing with these options reads, and its location, for the stage that runs
   * the listing to open, hand to it (options.store, storeLocation) and destroy when done.
   * Sockets for the list requests and for what else the stage sends through the store
   * (sockets: a copy's GETs), at least maxSockets.
   */
  static openStore(options, stats) {
    const listConcurrency = option(options, 'listConcurrency');
    const wanted = options.sockets ? listConcurrency + options.sockets : listConcurrency;
    const maxSockets = options.maxSockets > wanted ? options.maxSockets : wanted;
    return openStore({ ...options, stats, maxSockets }, 'source');
  }

  // Where the store's keys were found before (see split-hints.js): from --split-hints FILE,
  // else the cache of earlier listings of the same bucket and prefix.
  _hints() {
    const o = this.options.splitHints;
    if (o === false) return { keys: [], where: null };
    const where = this.store.bucket ? { endpoint: this.store.endpoint, bucket: this.store.bucket, prefix: this.range.prefix } : null;
    if (typeof o === 'string') return { keys: readHintsFile(o), where };
    return { keys: where ? loadCachedHints(where) : [], where };
  }

  // The listing as chunks (see chunks.js), for consumers that read only some fields.
  async *chunks() {
    // Counted before the first await: listings started together (a copy's lanes) all count
    // before any of them can finish, so the total is known only when the last one is.
    if (this.progress.listing) this.progress.listing();
    await this.store.open();
    const { signal } = this;
    let source, collect = null, hints = { keys: [], where: null };
    if (this.store.directoryBucket && !this.allVersions && this.asOf === null) {
      // Directory buckets keep no versions: a version listing goes the usual way and is refused there.
      this.log(`${this.store.bucket} is a directory bucket: listed directory by directory (no key order there, no StartAfter)`);
      this.lister = new DirectoryLister(this.store, {
        range: this.range, listConcurrency: this.listConcurrency, maxListRequests: this.maxListRequests, hedge: this.options.hedge, ordered: this.options.unordered !== true, signal, stats: this.stats, log: this.log,
      });
      this.progress.inflight = () => this.lister.inflight;
      source = this.lister.chunks();
    } else if (!this.store.listsInOneWalk) {
      hints = this._hints();
      this.stats.hints = hints.keys.length;
      // A whole prefix listed leaves hints for the next listing of it.
      if (hints.where && !this.range.after && this.range.stop === null && this.options.sequential !== true) collect = new HintCollector();
      this.lister = new GuardedLister(this.store, {
        range: this.range,
        listConcurrency: this.listConcurrency,
        maxListRequests: this.maxListRequests,
        ordered: this.options.unordered !== true,
        reorderWindow: this.options.reorderWindow,
        maxQueuedPages: this.options.maxQueuedPages,
        sequential: this.options.sequential === true,
        folders: this.options.folders,
        hedge: this.options.hedge,
        splitPoints: hints.keys,
        signal,
        stats: this.stats,
        log: this.log,
      });
      this.progress.inflight = () => this.lister.inflight;
      source = this.lister.chunks();
    } else {
      source = this._walkPages(signal);
    }
    const filter = this.filter;
    const match = this.select && this.match ? ((m, sel) => (k) => sel(k) && m(k))(this.match, this.select) : this.select || this.match;
    for await (let chunk of source) {
      if (Array.isArray(chunk)) chunk = new ItemChunk(chunk);
      if (chunk.keysInclude(PROBE_MARK)) chunk = this._withoutProbes(chunk);
      if (collect && chunk.length) collect.add(chunk.key(chunk.length - 1));
      if (this.asOf !== null || this.allVersions) this.stats.versions += chunk.versionCount;
      if (this.asOf !== null) chunk = chunkAsOf(chunk, this.asOf);
      else if (this.allVersions) chunk = chunk.flat();
      if (match || filter) chunk = new ItemChunk(this._filter(chunk.toItems(), match, filter));
      this.progress.tick(chunk);
      this.listed += chunk.length;
      if (chunk.length) yield chunk;
    }
    this.complete = this.lister ? this.lister.complete : true;
    if (this.complete && this.progress.listed) this.progress.listed();
    if (collect && this.complete && !this.stats.fallback) saveCachedHints(hints.where, collect.result());
  }

  // A wildcard path, or a name that is neither an object nor a folder, that matched
  // nothing: the caller says so (noMatchText) and exits 1.
  get noMatch() {
    return Boolean(this.location.glob || this.location.fromName) && this.complete && this.listed === 0;
  }

  get noMatchText() {
    const loc = this.location;
    if (loc.glob) return `${loc.text} matches no object`;
    const name = loc.prefix.slice(0, -1);
    if (this.asOf !== null) return `${loc.text} names no object at ${new Date(this.asOf).toISOString()}, and nothing was under ${JSON.stringify(loc.prefix)} then`;
    return `${loc.text} names no object, and nothing is under ${JSON.stringify(loc.prefix)} (for keys that start with ${JSON.stringify(name)}, use a wildcard: ${JSON.stringify(`${name}*`)})`;
  }

  // The source as the user wrote it, for messages.
  get pattern() {
    return this.location.glob ? this.location.glob.pattern : null;
  }

  // A store that answers all pages with one walk, asked for them in turn.
  async *_walkPages(signal) {
    const { prefix, after, stop, empty } = this.range;
    if (empty) return;
    let page = await this.store.listPage({ prefix, startAfter: after || undefined, stopAt: stop === null ? undefined : stop, signal });
    yield page.items;
    while (page.truncated) {
      page = await this.store.listPage({ continuationToken: page.nextToken, signal });
      yield page.items;
    }
  }

  // Pages of items. Items are made here, as the consumer takes them (see chunks.js).
  async *pages() {
    for await (const chunk of this.chunks()) yield chunk.toItems();
  }

  // Probe objects (stores/conditional-probe.js) are another run's, there for a moment: a
  // listing leaves them out and names them (one left behind is removed by naming it alone).
  _withoutProbes(chunk) {
    const single = this.location.single;
    return chunk.filterKeys((key) => {
      if (key === single || !isProbeKey(key)) return true;
      this.stats.probesSkipped++;
      this.log(`left out ${JSON.stringify(key)}: a probe object of an s3blitz run that tests whether the server honours conditional requests, deleted when that test ends`);
      return false;
    });
  }

  _filter(page, match, filter) {
    const out = [];
    for (const item of page) {
      if (match && !match(item.Key)) continue;
      if (filter) {
        let ok;
        try { ok = filter(item); } catch (err) {
          throw new FatalError(`--filter threw for ${JSON.stringify(item.Key)}: ${err && err.message}`);
        }
        if (!ok) continue;
      }
      out.push(item);
    }
    return out;
  }

  async *items() {
    for await (const page of this.pages()) yield* page;
  }

  close() {
    this.progress.stop();
    if (this.ownsStore) this.store.destroy();
  }
}

// Which keys of the listed range are selected: a wildcard path's (keys/globs.js), then the
// --include / --exclude rules on the key relative to the path's folder, then a stage's own
// test (selectKey: a target side kept to what its source side selects). null: all of them.
function keySelector(location, pathFilters, selectKey) {
  const tests = [];
  if (location.glob) tests.push(location.glob.test);
  const rules = pathFilter(pathFilters);
  if (rules) {
    const n = (location.base || '').length;
    // A path that names a folder without its "/" (ls s3://b/logs): keys in that folder match
    // relative to it, as cp reads them; keys beside it that start with its name (logs-old.txt)
    // relative to their own folder.
    const p = location.prefix || '';
    if (location.type === 's3' && !location.glob && !location.raw && p && !p.endsWith('/') && location.base !== p) {
      const inside = `${p}/`;
      tests.push((key) => rules(key.startsWith(inside) ? key.slice(inside.length) : key.slice(n)));
    } else tests.push((key) => rules(key.slice(n)));
  }
  if (typeof selectKey === 'function') tests.push(selectKey);
  if (!tests.length) return null;
  return tests.length === 1 ? tests[0] : (key) => tests.every((t) => t(key));
}

// The store's versions, listed as its objects are (stores/version-store.js).
function versionStore(store, stats) {
  if (store.versions === true) return store;
  if (typeof store.listVersionsPage !== 'function') {
    throw new UsageError('--all-versions, --as-of and --version-id need an S3 source (a folder has no versions)');
  }
  return new VersionStore(store, { stats });
}

module.exports = { Listing, keySelector };
