'use strict';
// Listing a tree of folders. When the first page lies inside one folder, keys
// are probably grouped in big folders (logs/2024/01/02/host-3/...). Then a few
// delimiter listings name the folders ahead, and each folder is read with Prefix set to
// it: S3 ends such a listing exactly at the folder's last key, so no request reads into
// keys another range already read, and a hundred folders fill a hundred request slots
// at once instead of being found by guesses. Any other listing goes to the
// ParallelLister unchanged; big folders are bisected by their own ParallelLister.
//
// The parts of the key range, in key order: keys already known (the direct entries of a
// delimiter listing), folders, delimiter listings still to read (their entries go in
// before them as pages arrive), and listers reading one folder. Every key belongs to
// exactly one part: a delimiter listing rolls each folder up into one entry.

const { ParallelLister, PAGE, checkPage, budgetNotice } = require('./parallel-lister');
const { compareKeys } = require('../keys/order');
const { normalizeRange } = require('./range');
const { RequestStats } = require('../stats');
const { FatalError } = require('../errors');
const { ItemChunk, chunkOf } = require('./chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');

const DELIMITER = '/';

// Request slots shared by every lister of the walk; `demand` counts ranges that want one.
class Gate {
  constructor(limit, onRelease) {
    this.limit = limit;
    this.inflight = 0;
    this.demand = 0;
    this.released = onRelease;
  }
}

function slashes(s, from) {
  let n = 0;
  for (let i = s.indexOf(DELIMITER, from); i >= 0; i = s.indexOf(DELIMITER, i + 1)) n++;
  return n;
}

// A copy of a key that does not keep alive the page string it was sliced from.
function own(key) {
  return Buffer.from(key, 'utf8').toString('utf8');
}

class FolderWalk {
  /** Options as for ParallelLister, plus folders: false to never walk folders. */
  constructor(store, options = {}) {
    this.store = store;
    this.options = options;
    this.range = normalizeRange(options);
    this.concurrency = options.listConcurrency || 100;
    this.ordered = options.ordered !== false;
    this.window = options.reorderWindow || 100 * PAGE;
    this.maxQueued = options.maxQueuedPages || 32;
    this.maxRequests = options.maxListRequests || Infinity;
    this.signal = options.signal;
    this.stats = options.stats || new RequestStats();
    this.log = options.log || (() => {});
    this.gate = new Gate(this.concurrency, () => this._drive());
    this.parts = [];
    this.head = 0; // first part not yet fully emitted
    this.out = [];
    this.buffered = 0; // keys held in parts, not yet handed to the output
    this.fanout = []; // entries per delimiter page, by folder depth
    this.leafParentsLeft = 0; // leaf parents found and not yet started
    // Where pages ended inside the first leaf parent read whole, relative to it: the other
    // leaf parents are read with these as split points instead of being opened.
    this.template = null;
    this.sample = null; // {prefix, left: child folders not yet read, ends}
    this.error = null;
    this.stopped = false;
    this.finished = false;
    this.complete = false;
    this.wake = null;
    this.lister = null; // the ParallelLister, when the listing is not a tree of folders
  }

  get inflight() { return this.lister ? this.lister.inflight : this.gate.inflight; }

  async *items() {
    for await (const chunk of this.chunks()) yield* chunk.toItems();
  }

  async *pages() {
    for await (const chunk of this.chunks()) yield chunk.toItems();
  }

  // Chunks of entries (see chunks.js), in key order unless unordered.
  async *chunks() {
    const r = this.range;
    const o = this.options;
    if (r.empty || o.folders === false || this.store.delimiters !== true) {
      yield* this._delegate({});
      return;
    }
    if (this.maxRequests < 2) { yield* this._delegate({}); return; }
    // The first page, plain: a small listing ends here, and its keys show the layout.
    const first = await this._request({ prefix: r.prefix, startAfter: r.after || undefined });
    const chunk = chunkOf(first);
    checkPage(first, r.after, r.prefix);
    let n = chunk.length;
    while (n > 0 && r.stop !== null && compareKeys(chunk.key(n - 1), r.stop) > 0) n--;
    this.stats.keysUnique += n;
    this.stats.overlap += chunk.length - n;
    if (n) yield n === chunk.length ? chunk : chunk.slice(0, n);
    if (first.truncated && chunk.length === 0) { yield* this._delegate({}); return; } // let it judge
    const last = n ? chunk.key(n - 1) : null;
    if (!first.truncated || n < chunk.length || last === r.stop) { this.complete = true; return; }
    // The page (past any folder markers, 'logs/', 'logs/2024/') inside its middle key's own
    // folder: leaf folders hold a page or more, so reading each with its own Prefix wastes
    // little (each ends with one short page).
    let k0 = 0;
    while (k0 < Math.min(n - 1, 16) && chunk.key(k0).endsWith(DELIMITER)) k0++;
    const mid = chunk.key(n >> 1);
    const cut = mid.lastIndexOf(DELIMITER);
    const own = cut >= r.prefix.length ? mid.slice(0, cut + 1) : null;
    const leaf = own && chunk.key(k0).startsWith(own) && last.startsWith(own) ? own : null;
    // Ordered output waits on its first unfinished part: a walk helps it only where
    // folders split into one-folder parts (two levels or more), not into multi-page leaves.
    if (!leaf || (this.ordered && slashes(leaf, r.prefix.length) < 2)) {
      yield* this._delegate({ startAfter: last });
      return;
    }
    yield* this._walk(last, slashes(leaf, r.prefix.length));
  }

  async *_delegate(range) {
    const r = this.range;
    this.lister = new ParallelLister(this.store, {
      ...this.options, prefix: r.prefix, startAfter: r.after, stopAt: r.stop, ...range, stats: this.stats,
    });
    yield* this.lister.chunks();
    this.complete = this.lister.complete;
  }

  async *_walk(last, leafDepth) {
    const r = this.range;
    this.leafDepth = leafDepth;
    // What follows `last`: the rest of its folder, then the rest of each enclosing folder,
    // deepest first (a folder's later entries sort after everything inside the folder).
    const cut = last.lastIndexOf(DELIMITER);
    const own = cut >= r.prefix.length ? last.slice(0, cut + 1) : null;
    if (own) this.parts.push(this._listerPart(own, last));
    else this.parts.push({ kind: 'level', prefix: r.prefix, startAfter: last, token: undefined, busy: false, done: false });
    for (let f = own || r.prefix; f.length > r.prefix.length;) {
      const cut = f.lastIndexOf(DELIMITER, f.length - 2);
      const parent = cut >= r.prefix.length ? f.slice(0, cut + 1) : r.prefix;
      this.parts.push({ kind: 'level', prefix: parent, startAfter: last, token: undefined, busy: false, done: false });
      f = parent;
    }
    const onAbort = () => this._fail(this.signal.reason || new Error('aborted'));
    if (this.signal) this.signal.addEventListener('abort', onAbort, { once: true });
    try {
      this._drive();
      for (;;) {
        if (this.error) throw this.error;
        if (this.out.length) {
          const chunk = this.out.shift();
          this._drive();
          yield chunk;
          continue;
        }
        if (this.finished) break;
        await new Promise((resolve) => { this.wake = resolve; });
        this.wake = null;
      }
    } finally {
      if (this.signal) this.signal.removeEventListener('abort', onAbort);
      this.stopped = true;
      for (const p of this.parts) {
        if (p.kind === 'lister' && p.lister) p.lister.stopped = true; // the consumer left: start nothing more
        if (p.resume) p.resume();
      }
    }
  }

  _listerPart(prefix, after, splitPoints) {
    const r = this.range;
    return {
      kind: 'lister',
      prefix,
      ends: [], // the last key of each page, while a sample's child
      lister: new ParallelLister(this.store, {
        ...this.options,
        prefix,
        startAfter: after,
        stopAt: r.stop,
        splitPoints,
        gate: this.gate,
        stats: this.stats,
        maxQueuedPages: 1,
        gallopAfterPages: 16, // most folders are small: probing past their end wastes requests
      }),
      started: false,
      buf: [],
      held: 0,
      done: false,
      resume: null,
    };
  }

  _fail(err) {
    if (!this.error) this.error = err;
    this.stopped = true;
    if (this.wake) this.wake();
  }

  _request(args) {
    this.stats.listRequests++;
    if (args.delimiter) this.stats.folderListings++;
    return this.store.listPage({ ...args, signal: this.signal }).then((page) => {
      this.stats.pages++;
      this.stats.keysReturned += chunkOf(page).length;
      return page;
    });
  }

  // Everything happens here, after every event: start the parts that can run, in key
  // order, and move finished pages to the output.
  _drive() {
    if (this.error || this.finished) return;
    const parts = this.parts;
    const gate = this.gate;
    // Parts that still have work: finished ones stay in the list until the head (in key
    // order) passes them, and counting those would keep leaf parents closed to the end.
    let pending = 0;
    for (let i = this.head; i < parts.length; i++) if (!parts[i].done) pending++;
    let held = 0;
    // A consumer that has not taken the pages already here (a copy queue that is full)
    // slows the walk: nothing new starts until it catches up.
    const room = this.out.length < this.maxQueued;
    for (let i = this.head; i < parts.length && room; i++) {
      const p = parts[i];
      if (this.stopped) break;
      if (p.kind === 'folder') {
        if (gate.inflight >= gate.limit) break;
        // Folders two or more levels above the leaves are always opened (one request each
        // shows where their big subfolders are). Leaf parents are opened while slots would
        // idle, and once the leaf parents left, each read one page after another, would
        // not fill the slots: read so, the last of them would run alone for many round
        // trips. Ordered output waits for the first unfinished part, so there every folder
        // above the leaves is opened: one-page parts keep the head moving.
        const depth = slashes(p.prefix, this.range.prefix.length);
        const fan = this.fanout[depth] || 2;
        if (depth === this.leafDepth - 1) {
          this.leafParentsLeft--;
          if (this.template) { // read like its sibling, all pages at once, no folder listing
            parts[i] = this._listerPart(p.prefix, undefined, this.template.map((k) => p.prefix + k));
            i--;
            continue;
          }
        }
        const open = depth < this.leafDepth - 1 || (depth < this.leafDepth && (this.ordered ||
          pending + fan - 1 <= this.concurrency || (this.leafParentsLeft + 1) * fan <= this.concurrency));
        if (open) {
          parts[i] = { kind: 'level', prefix: p.prefix, startAfter: undefined, token: undefined, busy: false, done: false };
          pending += fan - 1;
        } else parts[i] = this._listerPart(p.prefix, undefined);
        i--; // start it below
        continue;
      }
      if (p.kind === 'level' && !p.busy && !p.done) {
        if (gate.inflight >= gate.limit) break;
        if (this.stats.listRequests >= this.maxRequests) { this._budgetSpent(); break; }
        this._readLevel(p);
      } else if (p.kind === 'lister' && !p.done) {
        if (!p.started) {
          if (gate.inflight >= gate.limit) break;
          p.started = true;
          this._pull(p);
        } else p.lister._pump();
        held += p.held;
      }
      if (this.ordered && held > this.window) break;
    }
    this._emit();
    if (this.head >= parts.length && gate.inflight === 0 && !this.finished) {
      this.finished = true;
      this.complete = !this.stopped && parts.every((p) => p.kind !== 'lister' || p.complete);
    }
    if (this.stopped && gate.inflight === 0 && !this.finished) {
      // Stopped early (--max-list-requests): hand out what arrived, then end incomplete.
      for (let i = this.head; i < parts.length; i++) this._take(parts[i]);
      this.finished = true;
    }
    if (this.wake) this.wake();
  }

  _budgetSpent() {
    if (!this.stopped) this.log(budgetNotice(this.stats.listRequests));
    this.stopped = true;
  }

  _take(p) {
    if (p.kind === 'keys') { this.out.push(new ItemChunk(p.items)); p.items = []; return; }
    if (p.kind !== 'lister') return;
    for (const page of p.buf) this.out.push(page);
    this.buffered -= p.held;
    p.buf = [];
    p.held = 0;
  }

  _emit() {
    const parts = this.parts;
    if (!this.ordered) for (let i = this.head; i < parts.length; i++) if (parts[i].kind === 'lister' && parts[i].buf.length) this._take(parts[i]);
    while (this.head < parts.length) {
      const p = parts[this.head];
      if (p.kind === 'keys') { this._take(p); this.head++; continue; }
      if (p.kind !== 'lister') break;
      if (p.buf.length) this._take(p);
      if (!p.done) break;
      this.head++;
    }
    if (this.head > 1024) { parts.splice(0, this.head); this.head = 0; }
    for (let i = this.head; i < parts.length; i++) {
      const p = parts[i];
      if (p.resume && !this._mustWait(p)) { const go = p.resume; p.resume = null; go(); }
    }
  }

  _mustWait(p) {
    if (this.stopped || this.error) return false;
    if (this.out.length >= this.maxQueued) return true;
    return this.ordered && p !== this.parts[this.head] && this.buffered > this.window;
  }

  async _pull(p) {
    try {
      for await (const chunk of p.lister.chunks()) {
        if (chunk.length && this.sample && this.sample.left.has(p.prefix)) p.ends.push(own(chunk.key(chunk.length - 1)));
        p.buf.push(chunk);
        p.held += chunk.length;
        this.buffered += chunk.length;
        this._drive();
        while (this._mustWait(p)) await new Promise((resolve) => { p.resume = resolve; });
      }
      p.done = true;
      p.complete = p.lister.complete;
      if (!p.complete) this.stopped = true; // its request budget ran out; it said so
      // Its segments' cursors are keys sliced from its pages: a finished part that kept its
      // lister until the head passes would keep a page of keys alive per segment.
      p.lister = null;
      this._learn(p);
    } catch (err) {
      this._fail(err);
    }
    this._drive();
  }

  // A finished child of the sample leaf parent; the last one makes the template.
  _learn(p) {
    const t = this.sample;
    if (!t || !t.left.delete(p.prefix)) return;
    t.ends.push(...p.ends);
    if (t.left.size) return;
    this.sample = null;
    const ends = t.ends.sort(compareKeys);
    ends.pop(); // the folder's own end
    if (ends.length) this.template = ends.map((k) => k.slice(t.prefix.length));
  }

  _readLevel(p) {
    p.busy = true;
    this.gate.inflight++;
    this._request({ prefix: p.prefix, delimiter: DELIMITER, startAfter: p.token ? undefined : p.startAfter, continuationToken: p.token })
      .then((page) => this._onLevel(p, page), (err) => this._fail(err))
      .catch((err) => this._fail(err))
      .finally(() => { this.gate.inflight--; this._drive(); });
  }

  // A delimiter page: its keys and folders go in before the level, in key order.
  _onLevel(p, page) {
    const r = this.range;
    const skip = p.startAfter; // the key the walk started after: its folders are read already
    const entries = [];
    for (const item of chunkOf(page).toItems()) entries.push({ key: item.Key, item });
    for (const f of page.prefixes || []) entries.push({ key: f, folder: true });
    entries.sort((a, b) => compareKeys(a.key, b.key));
    const added = [];
    const depth = slashes(p.prefix, r.prefix.length);
    let keys = null;
    let end = !page.truncated;
    for (const e of entries) {
      if (!e.key.startsWith(p.prefix) || (skip && !e.folder && compareKeys(e.key, skip) <= 0)) {
        throw new UntrustedStore(`the store answered a folder listing of ${showKey(p.prefix)} with ${showKey(e.key)}, which is not after ${showKey(skip || p.prefix)} inside it`);
      }
      if (!e.folder && e.key.indexOf(DELIMITER, p.prefix.length) >= 0) {
        throw new UntrustedStore(`the store ignores the delimiter of folder listings (${showKey(e.key)} in a listing of ${showKey(p.prefix)})`);
      }
      if (r.stop !== null && compareKeys(e.key, r.stop) > 0) { end = true; this.stats.overlap += e.folder ? 0 : 1; break; }
      if (e.folder) {
        if (skip && skip.startsWith(e.key)) continue; // the folder the walk began in
        if (skip && compareKeys(e.key, skip) <= 0) throw new UntrustedStore(`the store answered a folder listing of ${showKey(p.prefix)} after ${showKey(skip)} with the folder ${showKey(e.key)}`);
        keys = null;
        added.push({ kind: 'folder', prefix: e.key });
        if (slashes(e.key, r.prefix.length) === this.leafDepth - 1) this.leafParentsLeft++;
      } else {
        if (!keys) { keys = { kind: 'keys', items: [] }; added.push(keys); }
        keys.items.push(e.item);
        this.stats.keysUnique++;
      }
    }
    if (this.fanout[depth] === undefined && entries.length) this.fanout[depth] = entries.length;
    const at = this.parts.indexOf(p);
    p.busy = false;
    // A sample is a leaf parent read whole: all of its children are ahead.
    if (end && depth === this.leafDepth - 1 && p.startAfter === undefined && !p.token && !this.template && !this.sample) {
      const left = new Set(added.filter((a) => a.kind === 'folder').map((a) => a.prefix));
      if (left.size) this.sample = { prefix: p.prefix, left, ends: [] };
    }
    if (end) { p.done = true; this.parts.splice(at, 1, ...added); } else {
      p.token = page.nextToken;
      if (!p.token) throw new FatalError('the store said the folder listing is truncated but gave no continuation token');
      this.parts.splice(at, 0, ...added);
    }
  }
}

module.exports = { FolderWalk };
