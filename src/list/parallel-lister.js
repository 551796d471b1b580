'use strict';
// The parallel lister. The requested range is cut into disjoint segments, each read
// with ListObjectsV2 StartAfter from its cursor. A page can run past its segment's end:
// those keys are handed to the following segments (advancing their cursors) instead
// of being thrown away. Segments split where pages show the range is dense: the tail
// gallops ahead at doubling distances, bounded segments split where the learned key
// space says the remaining keys are, and trust grows only where guesses proved right.
// Split points are guesses; exactly-once never depends on them, only on cursors.
// Trust but verify: every page must increase in S3's UTF-8 order from its StartAfter, and
// where a page runs into the next segment, its keys there must be the ones that segment's
// own first page returned (a server that mishandles some StartAfter values skips keys
// otherwise). A store that fails either is an UntrustedStore; see guarded-lister.js.

const { compareKeys, commonPrefix } = require('../keys/order');
const { KeySpace } = require('../keys/keyspace');
const { UniformKeySpace } = require('../keys/uniform-keyspace');
const { normalizeRange, inRange } = require('./range');
const { RequestStats } = require('../stats');
const { FatalError } = require('../errors');
const { chunkOf } = require('./chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');

const PAGE = 1000;
const MAX_TRUST = 64;

class Segment {
  constructor(start, end, parent = null, { initialTrust = 2, firstGallop = 16 } = {}) {
    this.start = start; // exclusive
    this.end = end; // inclusive; null = up to the end of the listing
    this.cursor = start; // last key handed out from this segment
    this.busy = false;
    this.done = false;
    this.fresh = true; // no page of its own yet
    this.trust = parent ? parent.trust : initialTrust;
    this.gallop = parent ? parent.gallop * 2 : firstGallop;
    this.cooldown = 0;
    this.parent = parent;
    this.buf = [];
    this.held = 0; // keys in buf
    // What pages said about this segment's first keys, kept while another page may still
    // say something about them (see Record). own: its first own page; foreign: a page that
    // began before it.
    this.own = null;
    this.foreign = null;
    this.ownSeen = false;
  }
}

function compareAscii(a, b) { return a === b ? 0 : a < b ? -1 : 1; }

// Trust but verify: a page is strictly increasing, after StartAfter, inside the prefix.
// Keys of ASCII only (the lean parser marks such pages) compare correctly with the native
// operator. A page the parser saw increasing (sorted) needs only its ends checked: keys
// between two keys with the prefix have it too. Returns null, or what is wrong.
function pageDisorder(page, after, prefix) {
  const cmp = page.ascii ? compareAscii : compareKeys;
  const chunk = chunkOf(page);
  const outside = (key) => `returned ${showKey(key)}, outside the prefix ${showKey(prefix)}`;
  const early = (key, prev, k) => (k === 0
    ? `answered StartAfter ${showKey(prev)} with ${showKey(key)}, which does not come after it in S3's UTF-8 key order`
    : `listed ${showKey(key)} after ${showKey(prev)}, not in S3's UTF-8 key order`);
  if (page.sorted && page.ascii) {
    const n = chunk.length;
    if (n === 0) return null;
    const first = chunk.key(0);
    if (after !== '' && cmp(first, after) <= 0) return early(first, after, 0);
    if (prefix && !first.startsWith(prefix)) return outside(first);
    if (prefix && !chunk.key(n - 1).startsWith(prefix)) return outside(chunk.key(n - 1));
    return null;
  }
  let prev = after;
  for (let k = 0; k < chunk.length; k++) {
    const key = chunk.key(k);
    if ((prev !== '' || k > 0) && cmp(key, prev) <= 0) return early(key, prev, k);
    if (prefix && !key.startsWith(prefix)) return outside(key);
    prev = key;
  }
  return null;
}

function pageInOrder(page, after, prefix) {
  return pageDisorder(page, after, prefix) === null;
}

// The same, as an UntrustedStore thrown.
function checkPage(page, after, prefix) {
  const wrong = pageDisorder(page, after, prefix);
  if (wrong) throw new UntrustedStore(`the store ${wrong}`);
}

// What one page says about a segment's first keys: they are `keys` and nothing else in
// (lo, hi] (hi null: to the end of the listing). A disagreement shows in the first keys
// (a skipped folder is skipped from its start), so a record keeps at most RECORD_KEYS of
// them, copied: a record may live as long as its segment, and must not keep a page alive.
const RECORD_KEYS = 16;

class Record {
  constructor(chunk, from, to, lo, hi, after) {
    const n = Math.min(to - from, RECORD_KEYS);
    this.keys = new Array(n);
    for (let k = 0; k < n; k++) this.keys[k] = Buffer.from(chunk.key(from + k), 'utf8').toString('utf8');
    this.lo = lo;
    this.hi = to - from > n ? this.keys[n - 1] : hi;
    this.after = after; // the StartAfter of the request, to ask it again
  }
}

// The keys of a chunk (or a record's keys) inside (lo, hi].
function keysWithin(keys, lo, hi) {
  const out = [];
  for (let k = 0; k < keys.length; k++) {
    const key = Array.isArray(keys) ? keys[k] : keys.key(k);
    if (lo !== '' && compareKeys(key, lo) <= 0) continue;
    if (hi !== null && compareKeys(key, hi) > 0) break;
    out.push(key);
  }
  return out;
}

// Where two lists of keys first differ, as the key each has there (null: it has none).
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i === a.length && i === b.length ? null : { a: i < a.length ? a[i] : null, b: i < b.length ? b[i] : null };
}

function minKeyOrNull(a, b) {
  return a === null ? b : b === null ? a : compareKeys(a, b) <= 0 ? a : b;
}

function budgetNotice(requests) {
  return `stopped after ${requests} list requests (--max-list-requests): the listing is incomplete`;
}

// Some stores (MinIO) refuse a StartAfter with a '.' or '..' path segment, which no real
// key there has; a made-up split point must not have one either.
function acceptableStartAfter(key) {
  return !/(^|[/\\])\s*\.{1,2}\s*([/\\]|$)/.test(key) && !key.includes('//');
}

// For a key a/b/c/name: the keys just past folders a/b and a (their last character
// incremented), deepest first.
function folderSuccessors(key, prefix) {
  const out = [];
  // Not the key's own folder: a leaf folder is often about a page, so its successor would
  // mostly duplicate what the current range reads next.
  const leaf = key.lastIndexOf('/');
  for (let i = key.lastIndexOf('/', leaf - 1); i > prefix.length; i = key.lastIndexOf('/', i - 1)) {
    const folder = key.slice(0, i);
    const cp = folder.codePointAt(folder.length - 1);
    if (cp >= 0xdc00 && cp <= 0xdfff) continue; // keep it simple: skip astral endings
    let next = cp + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next > 0xffff) continue;
    out.push(folder.slice(0, -1) + String.fromCharCode(next));
  }
  return out;
}

function dropLastCodePoint(s) {
  const c = s.charCodeAt(s.length - 1);
  return s.slice(0, c >= 0xdc00 && c <= 0xdfff && s.length > 1 ? -2 : -1);
}

class ParallelLister {
  /**
   * @param store object with listPage({prefix, startAfter, continuationToken, signal})
   * @param options {prefix, startAfter, stopAt, listConcurrency, maxListRequests,
   *   ordered, reorderWindow, minPagesPerRange, signal, stats, log, gate, splitPoints}
   *   gate: request slots shared with other listers ({limit, inflight, demand, released()})
   */
  constructor(store, options = {}) {
    this.store = store;
    this.range = normalizeRange(options);
    this.concurrency = options.listConcurrency || 100;
    this.maxRequests = options.maxListRequests || Infinity;
    this.ordered = options.ordered !== false;
    this.window = options.reorderWindow || 100 * PAGE;
    this.maxQueued = options.maxQueuedPages || 32;
    this.minPages = options.minPagesPerRange || 8;
    this.signal = options.signal;
    this.stats = options.stats || new RequestStats();
    this.log = options.log || (() => {});
    this.afters = new Map(); // StartAfter of each request in flight, by a number of its own
    this.requestSeq = 0;
    this.space = new KeySpace(); // interpolates inside known ranges
    this.wide = new UniformKeySpace(); // extrapolates past the last known key
    this.wide.learn(this.range.prefix);
    this.gallopProbes = options.gallopProbes || 4;
    this.splitAllowance = options.splitAllowance === undefined ? 16 : options.splitAllowance;
    this.folderProbes = options.folderProbes !== false;
    this.firstGallop = options.firstGallop || 16;
    this.gallopAfter = options.gallopAfterPages || 0; // tail pages read before the first gallop
    this.ownPages = 0;
    this.segs = [new Segment(this.range.after, this.range.stop, null, { initialTrust: options.initialTrust || 2, firstGallop: this.firstGallop })];
    this.head = 0; // ordered output: first segment not yet fully emitted
    this.buffered = 0; // keys held back for order
    this.inflight = 0;
    this.active = 1; // segments not done
    this.gate = options.gate || null;
    if (this.gate) this.gate.demand++;
    // Split points known in advance (where a sibling folder's pages ended): guesses like
    // any other, not counted against the split budget.
    const seeds = (options.splitPoints || []).filter((k) => inRange(this.range, k) && k !== this.range.stop);
    if (seeds.length) this._split(0, seeds, undefined, false);
    this.out = [];
    this.error = null;
    this.stopped = false; // request budget spent or aborted
    this.complete = false;
    this.finished = false;
    this.wake = null;
  }

  // Pages of items, as every listing hands them out.
  async *pages() {
    for await (const chunk of this.chunks()) yield chunk.toItems();
  }

  // The same as chunks (see chunks.js): items not made yet.
  async *chunks() {
    if (this.range.empty) { this._leaveGate(); this.complete = true; return; }
    const onAbort = () => this._fail(this.signal.reason || new Error('aborted'));
    if (this.signal) {
      if (this.signal.aborted) throw this.signal.reason || new Error('aborted');
      this.signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      this._pump();
      for (;;) {
        if (this.error) throw this.error;
        if (this.out.length) {
          const page = this.out.shift();
          this._pump();
          yield page;
          continue;
        }
        if (this.finished) break;
        await new Promise((resolve) => { this.wake = resolve; });
        this.wake = null;
      }
    } finally {
      if (this.signal) this.signal.removeEventListener('abort', onAbort);
      this.stopped = true;
      this._leaveGate();
    }
  }

  // Segments left unfinished (an error, a stop) no longer ask the shared gate for slots.
  _leaveGate() {
    if (this.gate && !this.leftGate) { this.leftGate = true; this.gate.demand -= this.active; }
  }

  async *items() {
    for await (const chunk of this.chunks()) yield* chunk.toItems();
  }

  _notify() {
    if (this.wake) this.wake();
  }

  _fail(err) {
    if (!this.error) this.error = err;
    this.stopped = true;
    this._notify();
  }

  _pump() {
    const gate = this.gate;
    while (!this.stopped && !this.error && this.inflight < this.concurrency && this.out.length < this.maxQueued &&
      (!gate || gate.inflight < gate.limit)) {
      if (this.stats.listRequests >= this.maxRequests) {
        this.stopped = true;
        this.log(budgetNotice(this.stats.listRequests));
        break;
      }
      const seg = this._nextIdle();
      if (!seg) break;
      this._launch(seg);
    }
    if (this.inflight === 0 && (this.active === 0 || this.stopped) && !this.finished) {
      this.complete = this.active === 0 && !this.error;
      if (this.ordered) this._flushAll();
      this.finished = true;
    }
    this._notify();
  }

  _nextIdle() {
    const segs = this.segs;
    if (!this.ordered) {
      for (let i = 0; i < segs.length; i++) if (!segs[i].done && !segs[i].busy) return segs[i];
      return null;
    }
    // Ordered output holds keys back until the segments before them finish: work left
    // to right and stop where the keys held back so far fill the reorder window.
    let held = 0;
    for (let i = this.head; i < segs.length; i++) {
      const s = segs[i];
      if (!s.done && !s.busy) return s;
      held += s.held;
      if (held > this.window) return null;
    }
    return null;
  }

  _launch(seg) {
    seg.busy = true;
    const after = seg.cursor;
    this._request(after, (page) => {
      seg.busy = false;
      if (!this.error) this._onPage(seg, after, page);
    }, () => { seg.busy = false; });
  }

  // One list request from `after`, counted, in flight until onPage has run.
  _request(after, onPage, onError = () => {}) {
    this.inflight++;
    if (this.gate) this.gate.inflight++;
    this.stats.listRequests++;
    const id = ++this.requestSeq;
    this.afters.set(id, after);
    this.store.listPage({ prefix: this.range.prefix, startAfter: after || undefined, signal: this.signal })
      .then(onPage, (err) => {
        onError();
        this._fail(err);
      })
      .catch((err) => this._fail(err))
      .finally(() => {
        this.afters.delete(id);
        this.inflight--;
        this._pump();
        if (this.gate) { this.gate.inflight--; this.gate.released(); }
      });
  }

  _indexFor(key) {
    // Last segment whose start is <= key.
    const segs = this.segs;
    let lo = 0, hi = segs.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (compareKeys(segs[m].start, key) <= 0) lo = m; else hi = m - 1;
    }
    return lo;
  }

  _onPage(seg, after, page) {
    const chunk = chunkOf(page);
    const n = chunk.length;
    const st = this.stats;
    st.pages++;
    st.keysReturned += n;
    checkPage(page, after, this.range.prefix);
    const cmp = page.ascii ? compareAscii : compareKeys;
    if (n === 0 && page.truncated) {
      if (++st.emptyTruncated > 100) throw new FatalError(`the store keeps answering with empty pages it says are truncated (the last after ${showKey(after)})`);
    }
    // A few keys of every page teach the key-space model where keys lie.
    for (let k = 0; k < n; k += 97) this.space.learn(chunk.key(k));
    const last = n > 0 ? chunk.key(n - 1) : after;
    if (n > 0 && (st.pages & 7) === 1) this.wide.learn(last);

    const segs = this.segs;
    const i0 = this._indexFor(after);
    // An empty first page is a word on the segment too: nothing there (or nothing at all).
    if (n === 0 && segs[i0] === seg && !seg.ownSeen && !page.truncated) this._record(seg, 'own', new Record(chunk, 0, 0, after, seg.end, after));
    let i = i0;
    let k = 0;
    let ownFirst = null, ownLast = null, ownCount = 0;
    while (k < n && i < segs.length) {
      const s = segs[i];
      let chunkStart = -1, chunkEnd = -1;
      const from = k;
      if (!s.done && cmp(chunk.key(k), s.cursor) > 0 && (s.end === null || cmp(last, s.end) <= 0)) {
        // The rest of the page, verified increasing, lies inside this segment past its cursor.
        chunkStart = k;
        chunkEnd = k = n;
        s.cursor = last;
      }
      for (; k < n; k++) {
        const key = chunk.key(k);
        if (s.end !== null && cmp(key, s.end) > 0) break;
        if (s.done || cmp(key, s.cursor) <= 0) { st.overlap++; continue; }
        if (chunkStart < 0) chunkStart = k;
        chunkEnd = k + 1;
        s.cursor = key;
      }
      if (chunkStart >= 0) {
        if (s === seg) { ownFirst = chunk.key(chunkStart); ownLast = chunk.key(chunkEnd - 1); ownCount = chunkEnd - chunkStart; }
        this._emit(i, chunkStart === 0 && chunkEnd === n ? chunk : chunk.slice(chunkStart, chunkEnd));
      }
      // What this page says about the segment's keys: all of them up to its end when the
      // page goes on past it or says nothing follows, else up to its last key.
      const hi = k < n || !page.truncated ? s.end : last;
      if (i > i0) this._record(s, 'foreign', new Record(chunk, from, k, s.start, hi, after));
      else if (s === seg && !s.ownSeen) this._record(s, 'own', new Record(chunk, from, k, after, hi, after));
      if (k < n || (s.end !== null && s.cursor === s.end)) { this._finish(s); i++; } // covered to its end
      if (k >= n) break;
    }
    if (k < n) { // past the last segment: past --stop-at
      for (; i < segs.length; i++) this._finish(segs[i]);
      st.overlap += n - k;
    }
    if (!page.truncated) {
      // Nothing exists after this page's last key: segments wholly after it have no keys.
      const j0 = last === '' ? 0 : this._indexFor(last);
      for (let j = j0; j < segs.length; j++) {
        if (j > j0) this._record(segs[j], 'foreign', new Record(chunk, n, n, segs[j].start, segs[j].end, after));
        this._finish(segs[j]);
      }
    }
    if (seg.fresh && !seg.done) this._judgeLanding(seg, after, chunk);
    seg.fresh = false;
    if (!seg.done && page.truncated && ownCount >= PAGE / 2 && segs.includes(seg)) this._plan(seg, ownFirst, ownLast, ownCount);
    if (this.ordered) this._flush();
    this._forget();
    if (segs.length > 2 * this.concurrency + 64) this._compact();
  }

  // A page's word on a segment's first keys, checked against what another page said.
  _record(s, kind, rec) {
    if (kind === 'own') {
      s.ownSeen = true;
      if (s.foreign) this._agree(rec, s.foreign);
      s.own = rec;
    } else if (s.own) this._agree(s.own, rec);
    else if (!s.foreign) s.foreign = rec;
  }

  // Two pages must list the same keys where both speak. When they do not, both requests
  // are made again: keys written or deleted meanwhile explain a difference once; a server
  // that mishandles StartAfter gives the same difference again.
  _agree(a, b) {
    const lo = compareKeys(a.lo, b.lo) >= 0 ? a.lo : b.lo;
    const hi = minKeyOrNull(a.hi, b.hi);
    if (hi !== null && lo !== '' && compareKeys(hi, lo) <= 0) return;
    if (!firstDifference(keysWithin(a.keys, lo, hi), keysWithin(b.keys, lo, hi))) return;
    this.stats.listRechecks++;
    const again = {};
    const both = () => {
      if (!again.a || !again.b || this.error) return;
      // The new pages speak up to where both still reach.
      const reach = (p, h) => (p.truncated && p.chunk.length ? minKeyOrNull(h, p.chunk.key(p.chunk.length - 1)) : h);
      const h = reach(again.b, reach(again.a, hi));
      const ka = keysWithin(again.a.chunk, lo, h), kb = keysWithin(again.b.chunk, lo, h);
      const d = firstDifference(ka, kb);
      if (!d) { this.stats.listChanges++; return; }
      // The smaller of the two keys where they part is the one the other listing skipped.
      const aSkips = d.a === null || (d.b !== null && compareKeys(d.b, d.a) < 0);
      const [skipper, lister, key] = aSkips ? [a, b, d.b] : [b, a, d.a];
      this._fail(new UntrustedStore(`the store's listings disagree, twice: asked for the keys after ${showKey(skipper.after)} it skips ${showKey(key)},` +
        ` which it lists after ${showKey(lister.after)}: its StartAfter cannot be trusted`));
    };
    for (const [name, rec] of [['a', a], ['b', b]]) {
      this._request(rec.after, (page) => {
        if (this.error) return;
        this.stats.pages++;
        this.stats.keysReturned += chunkOf(page).length;
        checkPage(page, rec.after, this.range.prefix);
        again[name] = { chunk: chunkOf(page), truncated: page.truncated };
        both();
      });
    }
  }

  // Records nobody can contradict any more: the segment before it is done, and every request
  // in flight began after the segment's start (none from before it can run into it, and
  // its own first page, asked from its start, has come).
  _forget() {
    const segs = this.segs;
    let lowest = null;
    for (const a of this.afters.values()) if (lowest === null || compareKeys(a, lowest) < 0) lowest = a;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if (!s.own && !s.foreign) continue;
      if ((i === 0 || segs[i - 1].done) && (lowest === null || compareKeys(lowest, s.start) > 0)) { s.own = null; s.foreign = null; }
    }
  }

  _finish(s) {
    if (s.done) return;
    s.done = true;
    this.active--;
    if (this.gate && !this.leftGate) this.gate.demand--;
  }

  // A split's first page tells whether the guess behind it was good: a first key close
  // to the split point means the range really is dense there.
  _judgeLanding(seg, after, chunk) {
    const parent = seg.parent;
    seg.parent = null;
    if (!parent || chunk.length < 2) return;
    const first = chunk.key(0), last = chunk.key(chunk.length - 1);
    const ctx = commonPrefix(after, last);
    const sp = this.space;
    const fa = sp.frac(after, ctx), f1 = sp.frac(first, ctx), fl = sp.frac(last, ctx);
    const perKey = (fl - f1) / (chunk.length - 1);
    const gapKeys = perKey > 0 ? (f1 - fa) / perKey : (f1 > fa ? Infinity : 0);
    if (gapKeys <= 2 * PAGE) {
      seg.trust = Math.min(MAX_TRUST, Math.max(1, seg.trust) * 2);
      parent.trust = Math.min(MAX_TRUST, Math.max(1, parent.trust) * 2);
    } else {
      // The guess landed in an empty stretch: read on sequentially for a while.
      this.stats.missedSplits++;
      seg.trust = 1;
      parent.trust = 0;
      parent.cooldown = 4;
    }
  }

  _plan(seg, first, last, n) {
    if (seg.trust === 0) {
      if (--seg.cooldown <= 0) seg.trust = 1;
      return;
    }
    // Every split costs about half a page where ranges meet: keep splits in proportion to
    // the pages read so far (a few free ones to get going).
    const budget = this.splitAllowance + this.stats.pages / this.minPages - this.stats.splits;
    const gate = this.gate;
    const free = Math.min(this.concurrency - this.active, Math.floor(budget), gate ? gate.limit - gate.demand : Infinity);
    if (free <= 0 || n < 2) return;
    const idx = this.segs.indexOf(seg);
    if (seg.end === null) {
      if (++this.ownPages <= this.gallopAfter) return;
      // Several probes at doubling distances per round: the tail's extent is found in a
      // few round trips, and only probes past the end of the listing are wasted.
      const points = [];
      let lo = last;
      for (let g = 0, d = seg.gallop; g < Math.min(this.gallopProbes, free); g++, d *= 2) {
        const m = this._gallopPoint(first, last, n, d);
        if (!m || compareKeys(m, lo) <= 0) break;
        points.push(m);
        lo = m;
      }
      // Hierarchical keys: the next folder at each level is a point where keys surely
      // continue (logs/2024/01/02, logs/2024/02, ...), whatever the numbers say.
      if (this.folderProbes) {
        for (const m of folderSuccessors(last, this.range.prefix)) if (!points.includes(m)) points.push(m);
        points.sort(compareKeys);
        points.splice(Math.max(1, Math.min(free, this.gallopProbes + 4)));
      }
      if (points.length) this._split(idx, points, seg.gallop * 2 ** (points.length + 1));
      return;
    }
    const sp = (process.env.WIDE ? this.wide : this.space);
    const ctx = commonPrefix(first, seg.end);
    const f1 = sp.frac(first, ctx), fl = sp.frac(last, ctx), fe = sp.frac(seg.end, ctx);
    const perKey = (fl - f1) / (n - 1);
    const pagesLeft = perKey > 0 ? (fe - fl) / perKey / PAGE : Infinity;
    const pieces = Math.min(free, Math.floor(pagesLeft / this.minPages) - 1, seg.trust);
    if (!(pieces >= 1)) return;
    const points = [];
    let lo = last;
    for (let p = 1; p <= pieces; p++) {
      const m = sp.keyAt(ctx, fl + ((fe - fl) * p) / (pieces + 1), lo, seg.end);
      if (m) { points.push(m); lo = m; }
    }
    if (points.length) this._split(idx, points);
  }

  // A key `pages` pages beyond last, judged by this page's density, going up a level
  // of the key hierarchy when the distance does not fit below the current one.
  _gallopPoint(first, last, n, pages) {
    const sp = this.wide;
    const prefix = this.range.prefix;
    let ctx = commonPrefix(first, last);
    for (;;) {
      const f1 = sp.frac(first, ctx), fl = sp.frac(last, ctx);
      const t = fl + ((fl - f1) * pages * PAGE) / (n - 1);
      if (t < 1 && t > fl) return sp.keyAt(ctx, t, last, null);
      if (ctx.length <= prefix.length) return null;
      ctx = dropLastCodePoint(ctx);
    }
  }

  _split(idx, points, tailGallop, counted = true) {
    points = points.filter(acceptableStartAfter);
    if (!points.length) return;
    const seg = this.segs[idx];
    const added = [];
    for (let p = 0; p < points.length; p++) {
      const t = new Segment(points[p], p + 1 < points.length ? points[p + 1] : seg.end, seg);
      added.push(t);
    }
    if (tailGallop && added[added.length - 1].end === null) added[added.length - 1].gallop = tailGallop;
    seg.end = points[0];
    seg.gallop = this.firstGallop;
    this.segs.splice(idx + 1, 0, ...added);
    this.active += added.length;
    if (this.gate && !this.leftGate) this.gate.demand += added.length;
    if (counted) this.stats.splits += added.length;
  }

  _emit(i, chunk) {
    this.stats.keysUnique += chunk.length;
    if (!this.ordered) { this.out.push(chunk); return; }
    if (i === this.head) this.out.push(chunk);
    else { const s = this.segs[i]; s.buf.push(chunk); s.held += chunk.length; this.buffered += chunk.length; }
  }

  _flush() {
    const segs = this.segs;
    while (this.head < segs.length) {
      const s = segs[this.head];
      if (s.buf.length) {
        for (const c of s.buf) this.out.push(c);
        this.buffered -= s.held;
        s.buf = [];
        s.held = 0;
      }
      if (!s.done) break;
      this.head++;
    }
  }

  _flushAll() {
    for (let i = this.head; i < this.segs.length; i++) {
      for (const c of this.segs[i].buf) this.out.push(c);
      this.segs[i].buf = [];
      this.segs[i].held = 0;
    }
    this.buffered = 0;
  }

  // Merge runs of finished segments so bookkeeping stays proportional to concurrency.
  _compact() {
    const out = [];
    let head = 0;
    for (let i = 0; i < this.segs.length; i++) {
      const s = this.segs[i];
      const prev = out[out.length - 1];
      if (i === this.head) head = out.length;
      if (prev && prev.done && s.done && !s.own && !s.foreign && !(this.ordered && i === this.head)) {
        prev.end = s.end;
        prev.cursor = s.end === null ? prev.cursor : s.end;
        if (s.buf.length) { prev.buf.push(...s.buf); prev.held += s.held; }
        if (i === this.head) head = out.length - 1;
        continue;
      }
      out.push(s);
    }
    this.segs = out;
    this.head = head;
  }
}

module.exports = { ParallelLister, Segment, PAGE, pageInOrder, checkPage, budgetNotice, acceptableStartAfter };
