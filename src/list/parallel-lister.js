'use strict';
// The parallel lister. The requested range is cut into disjoint segments, each read
// with ListObjectsV2 StartAfter from its cursor. A page can run past its segment's end:
// those keys are handed to the following segments (advancing their cursors) instead of
// being thrown away. Exactly-once never depends on where segments begin, only on cursors.
//
// Planning: every request slot is kept busy from the first round trip. Each page tells
// the planner two things. Inside the subtree its keys share, keys are about as dense as on
// the page, so the rest of that subtree is cut into pieces of about a page where a model of
// the key space (plan/key-shape.js) puts them. Past it, density says nothing, so the rest
// is scouted: a folder listing (Delimiter) names the next subtrees exactly where folders
// are many; otherwise scouts go where the key shape says a sibling may begin, one level of
// the key at a time. Guesses spend requests (a scout that finds nothing, a cut that lands
// where two segments meet), and the planner spends them freely up to EFFICIENCY overall:
// a listing at full concurrency is worth far more than the last requests it costs.
// Ordered output plans only within a window ahead of what it has handed out.
// A request that takes far longer than its peers is sent again (hedge.js).
//
// Trust but verify: every page must increase in S3's UTF-8 order from its StartAfter, and
// where a page runs into the next segment, its keys there must be the ones that segment's
// own first page returned (a server that mishandles some StartAfter values skips keys
// otherwise). A store that fails either is an UntrustedStore; see guarded-lister.js.

const { compareKeys, commonPrefix, prefixEnd, lastKeyWith, keyBefore, minKey } = require('../keys/order');
const { KeyShape } = require('../plan/key-shape');
const { normalizeRange, inRange } = require('../keys/range');
const { RequestStats } = require('../stats');
const { FatalError } = require('../errors');
const { DEFAULTS } = require('../options');
const { chunkOf } = require('../stores/chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');
const { checkPage, pageInOrder, acceptableStartAfter, compareAscii } = require('./page-check');
const { Record, keysWithin, firstDifference, minKeyOrNull, overlapOf } = require('./page-agreement');
const { LatencyWatch } = require('./hedge');
const { RequestGate } = require('./request-gate');
const { OutputQueue } = require('./output-queue');

const PAGE = 1000;
const EFFICIENCY = 0.7;
const DELIMITER = '/';

// A copy of a key that does not keep alive the page string it was sliced from.
function own(key) {
  return Buffer.from(key, 'utf8').toString('utf8');
}

class Segment {
  constructor(start, end) {
    this.start = start; // exclusive
    this.end = end; // inclusive; null = up to the end of the listing
    this.cursor = start; // last key handed out from this segment
    // A segment that begins a subtree (every key from `sub` on) reads it with Prefix=sub
    // first: the store then says exactly where the subtree ends, where a StartAfter listing
    // would read on into keys the next segment reads. Its start, the greatest key before
    // sub, is never sent; `wire` is what a request sends when the cursor is such a key.
    this.sub = null;
    this.wire = null;
    // Past this key the segment holds nothing (a folder listing showed nothing between its
    // folder and the next): reading its folder to the end reads it all.
    this.known = null;
    this.busy = false;
    this.done = false;
    this.buf = [];
    this.held = 0; // keys in buf
    // The newest run of keys read inside the segment ({first, last, n}): how dense keys
    // are where it reads, for estimating what is left.
    this.sample = null;
    // What pages said about this segment's first keys, kept while another page may still
    // say something about them (see page-agreement.js). own: its first own page; foreign:
    // a page that began before it.
    this.own = null;
    this.foreign = null;
    this.ownSeen = false;
  }
}

function depthOf(f) {
  let n = 0;
  for (let i = f.indexOf(DELIMITER); i >= 0; i = f.indexOf(DELIMITER, i + 1)) n++;
  return n;
}

// A request as an error message names it.
function asked({ prefix, startAfter }) {
  return startAfter ? `after ${showKey(startAfter)}` : `with the prefix ${showKey(prefix)}`;
}

class ParallelLister {
  /**
   * @param store object with listPage({prefix, startAfter, continuationToken, signal})
   * @param options {prefix, startAfter, stopAt, listConcurrency, maxListRequests,
   *   ordered, reorderWindow, maxQueuedPages, signal, stats, log, splitPoints, folders
   *   (false: never list folders), hedge (default true), hedgeAfter (ms: never hedge sooner,
   *   default 50), clock (ms, for tests: a virtual clock)}
   */
  constructor(store, options = {}) {
    this.store = store;
    this.range = normalizeRange(options);
    this.concurrency = options.listConcurrency || DEFAULTS.listConcurrency;
    this.ordered = options.ordered !== false;
    // Ordered output holds back what segments ahead of the first unfinished one return:
    // room for a few pages per request slot keeps every slot at work.
    this.baseWindow = options.reorderWindow || Math.max(100, 4 * this.concurrency) * PAGE;
    this.minPiece = (options.minPiecePages || 0.5) * PAGE;
    this.signal = options.signal;
    this.stats = options.stats || new RequestStats();
    this.log = options.log || (() => {});
    this.gate = new RequestGate({ concurrency: this.concurrency, maxRequests: options.maxListRequests, stats: this.stats, log: this.log });
    this.out = new OutputQueue(options.maxQueuedPages || 32);
    this.clock = options.clock || (() => performance.now());
    this.latency = options.hedge === false ? null : new LatencyWatch(options.hedgeAfter !== undefined ? { floorMs: options.hedgeAfter } : {});
    this.pending = new Set(); // requests in flight (each maybe sent twice)
    this.hedgeTimer = null;
    this.hedgeDue = null; // when the oldest request becomes a straggler (checked as pages come, too)
    this.shape = new KeyShape(); // which characters each position of a key takes
    // Folder listings name the folders ahead (stores that take a delimiter).
    this.folders = options.folders !== false && store.delimiters === true;
    this.fanout = []; // by folder depth: {listings, found}
    this.listed = new Map(); // folder -> {after, reach}: the last listing of it
    this.guesses = 0; // segments added whose first request is not sent yet (see _credit)
    this.shape.learn(this.range.prefix);
    this.segs = [new Segment(this.range.after, this.range.stop)];
    this.head = 0; // ordered output: first segment not yet fully emitted
    this.buffered = 0; // keys held back for order
    this.active = 1; // segments not done
    // Split points known in advance (hints from an earlier listing, or where a sibling
    // folder's pages ended): guesses like any other.
    const seeds = [...new Set(options.splitPoints || [])].filter((k) => inRange(this.range, k) && k !== this.range.stop).sort(compareKeys);
    if (seeds.length) this._split(0, seeds);
    this.complete = false;
  }

  get inflight() { return this.gate.inflight; }

  // The reorder window in rows. A store whose rows weigh more than one entry (keys with their
  // versions) gets a window of as many entries, not rows.
  get window() {
    const w = this.store.rowWeight ? this.store.rowWeight() : 1;
    return w > 1 ? this.baseWindow / w : this.baseWindow;
  }

  get error() { return this.out.error; }

  // Pages of items, as every listing hands them out.
  async *pages() {
    for await (const chunk of this.chunks()) yield chunk.toItems();
  }

  // The same as chunks (see chunks.js): items not made yet.
  async *chunks() {
    if (this.range.empty) { this.complete = true; return; }
    const onAbort = () => this._fail(this.signal.reason || new Error('aborted'));
    if (this.signal) {
      if (this.signal.aborted) throw this.signal.reason || new Error('aborted');
      this.signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      this._pump();
      yield* this.out.drain(() => this._pump());
    } finally {
      if (this.signal) this.signal.removeEventListener('abort', onAbort);
      this._abortAll();
    }
  }

  async *items() {
    for await (const chunk of this.chunks()) yield* chunk.toItems();
  }

  _fail(err) {
    this.out.fail(err);
    this._abortAll();
  }

  // Stops the gate: no more requests, those in flight aborted.
  _abortAll() {
    clearTimeout(this.hedgeTimer);
    this.gate.stop(this.error || new Error('stopped'));
  }

  // Request slots this lister may fill now.
  _room() {
    return this.gate.room(this.out.full);
  }

  _pump() {
    if (this.hedgeDue !== null && this.clock() >= this.hedgeDue) this._hedge();
    // Plan before sending: a segment whose page just came is cut first, so that its next
    // request asks only for its own piece, not for keys a new piece will ask for too.
    if (this._room() > 0) this._fill();
    this._launchIdle();
    if (this.gate.inflight === 0 && (this.active === 0 || this.gate.stopped) && !this.out.finished) {
      this.complete = this.active === 0 && !this.error;
      if (this.ordered) this._flushAll();
      this.out.finish();
      clearTimeout(this.hedgeTimer);
    }
    this.out.notify();
  }

  _launchIdle() {
    while (this._room() > 0) {
      if (this.gate.spent()) break;
      const seg = this._nextIdle();
      if (!seg) break;
      this._launch(seg);
    }
  }

  _nextIdle() {
    const segs = this.segs;
    if (!this.ordered) {
      for (let i = 0; i < segs.length; i++) if (!segs[i].done && !segs[i].busy) return segs[i];
      return null;
    }
    // Ordered output holds keys back until the segments before them finish: work left
    // to right and stop where the keys held back so far, and those the segments before
    // still have to read, fill the reorder window. The slots left go to cutting those.
    let ahead = 0;
    for (let i = this.head; i < segs.length; i++) {
      const s = segs[i];
      if (!s.done && !s.busy) return s;
      ahead += this._ahead(s);
      if (ahead > this.window) return null;
    }
    return null;
  }

  // Keys a segment holds back for order, or will have to: what it holds, and what it
  // still has to read by its last plan (a page, when it has none).
  _ahead(s) {
    if (s.done) return s.held;
    const plan = s.planned && s.planned.plan;
    return s.held + (plan && plan.near ? plan.near.keys : PAGE);
  }

  _launch(seg) {
    seg.busy = true;
    if (!seg.launched) { seg.launched = true; if (this.guesses > 0) this.guesses--; }
    // Every key of a segment shares the prefix of its lowest and highest possible keys:
    // asked with it as Prefix, the store stops where that prefix ends rather than read on
    // into keys the next segments read. A segment that begins a subtree asks for the
    // subtree, with no StartAfter: the greatest key before "d2/" ("d2." and U+10FFFF...)
    // is one SeaweedFS takes to mean "after the folder d2", and would skip all of it.
    const fresh = seg.sub !== null && seg.cursor === seg.start;
    const highest = seg.known ?? seg.end;
    let prefix = this.range.prefix;
    if (fresh) prefix = seg.sub;
    else if (highest !== null) { const p = commonPrefix(seg.cursor, highest); if (p.length > prefix.length) prefix = p; }
    const startAfter = fresh ? undefined : seg.wire ?? (seg.cursor || undefined);
    const args = { prefix, startAfter, after: seg.cursor };
    this._request(args, (page) => {
      seg.busy = false;
      if (!this.error) this._onPage(seg, args, page);
    }, () => { seg.busy = false; });
  }

  // One list request ({prefix, startAfter as sent, after: the cursor it reads from}),
  // counted, in flight until onPage has run. A straggler is sent once more; the first
  // answer is taken and the other aborted.
  _request(args, onPage, onError = () => {}) {
    const req = { args, after: args.after, onPage, onError, started: this.clock(), live: 0, settled: false, hedged: false };
    this.pending.add(req);
    this._send(req);
    this._armHedge();
  }

  _send(req) {
    req.live++;
    this.gate.sent(this.clock());
    const sent = this.clock();
    // One signal for all requests: a store may cancel everything it has in flight when a
    // signal fires, so a twin that lost is left to finish, unread, not aborted.
    this.store.listPage({ prefix: req.args.prefix, startAfter: req.args.startAfter, delimiter: req.args.delimiter, signal: this.gate.signal })
      .then((page) => {
        if (req.settled) return;
        req.settled = true;
        if (this.latency) this.latency.record(this.clock() - sent);
        req.onPage(page);
      }, (err) => {
        // Answered by its twin, or the twin may still answer, or cancelled because the listing stopped.
        if (req.settled || req.live > 1 || this.gate.signal.aborted) return;
        req.settled = true;
        req.onError();
        this._fail(err);
      })
      .catch((err) => this._fail(err))
      .finally(() => {
        if (--req.live === 0) this.pending.delete(req);
        this.gate.settled(this.clock());
        this._pump();
      });
  }

  // Wakes when the oldest request not yet sent twice becomes a straggler.
  _armHedge() {
    if (!this.latency || this.hedgeTimer || this.gate.stopped) return;
    const limit = this.latency.threshold();
    if (limit === null) return;
    let oldest = Infinity;
    for (const req of this.pending) if (!req.hedged && !req.settled && req.started < oldest) oldest = req.started;
    if (oldest === Infinity) return;
    this.hedgeDue = oldest + limit;
    const wait = Math.max(1, this.hedgeDue - this.clock());
    this.hedgeTimer = setTimeout(() => { this.hedgeTimer = null; this._hedge(); }, wait);
    if (this.hedgeTimer.unref) this.hedgeTimer.unref();
  }

  _hedge() {
    clearTimeout(this.hedgeTimer);
    this.hedgeTimer = null;
    this.hedgeDue = null;
    const limit = this.latency.threshold();
    if (this.gate.stopped || limit === null) return;
    const now = this.clock();
    let room = Math.max(1, Math.floor(this.concurrency / 10));
    for (const req of this.pending) if (req.hedged && !req.settled) room--;
    for (const req of this.pending) {
      if (room <= 0) break;
      if (req.hedged || req.settled || now - req.started < limit) continue;
      if (this.gate.left <= 0) break;
      req.hedged = true;
      this.stats.hedges++;
      room--;
      this._send(req);
    }
    this._armHedge();
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

  _onPage(seg, args, page) {
    const chunk = chunkOf(page);
    const n = chunk.length;
    const st = this.stats;
    const { after } = args;
    st.pages++;
    st.keysReturned += n;
    checkPage(page, args.startAfter || '', args.prefix);
    if (n > 1) st.checkedPages++;
    const cmp = page.ascii ? compareAscii : compareKeys;
    if (n === 0 && page.truncated) {
      if (++st.emptyTruncated > 100) throw new FatalError(`the store keeps answering with empty pages it says are truncated (the last after ${showKey(args.startAfter)})`);
    }
    // A few keys of every page teach the key-space models where keys lie.
    for (let k = 0; k < n; k += 97) this.shape.learn(chunk.key(k));
    const last = n > 0 ? chunk.key(n - 1) : after;
    // A page of a subtree (Prefix=sub) that is not truncated says nothing past the subtree.
    const whole = args.prefix === this.range.prefix;
    const reach = whole ? null : lastKeyWith(args.prefix);
    const upTo = (end) => (reach === null ? end : end === null ? reach : minKey(end, reach));

    // A subtree is asked for once: whatever its page held, the segment goes on from its cursor.
    if (args.prefix === seg.sub) seg.sub = null;
    const segs = this.segs;
    const i0 = this._indexFor(after);
    // An empty first page is a word on the segment too: nothing there (or nothing at all).
    if (n === 0 && segs[i0] === seg && !seg.ownSeen && !page.truncated) this._record(seg, 'own', new Record(chunk, 0, 0, after, upTo(seg.end), args));
    let i = i0;
    let k = 0;
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
        s.wire = null;
        s.sub = null;
        if (s.probe) this._probed(s, chunk.key(chunkStart).startsWith(s.probe.key));
        if (chunkEnd - chunkStart >= 2) {
          s.sample = { first: own(chunk.key(chunkStart)), last: own(chunk.key(chunkEnd - 1)), n: chunkEnd - chunkStart };
          this.shape.learn(s.sample.first);
          this.shape.learn(s.sample.last);
        }
        this._emit(i, chunkStart === 0 && chunkEnd === n ? chunk : chunk.slice(chunkStart, chunkEnd));
      }
      // What this page says about the segment's keys: all of them up to its end when the
      // page goes on past it or says nothing follows, else up to its last key.
      const hi = k < n ? s.end : !page.truncated ? upTo(s.end) : last;
      if (i > i0) this._record(s, 'foreign', new Record(chunk, from, k, s.start, hi, args));
      else if (s === seg && !s.ownSeen) this._record(s, 'own', new Record(chunk, from, k, after, hi, args));
      if (k < n || (s.end !== null && s.cursor === s.end)) { this._finish(s); i++; } // covered to its end
      if (k >= n) break;
    }
    if (k < n) { // past the last segment: past --stop-at
      for (; i < segs.length; i++) this._finish(segs[i]);
      st.overlap += n - k;
    }
    if (!page.truncated && whole) {
      // Nothing exists after this page's last key: segments wholly after it have no keys.
      const j0 = last === '' ? 0 : this._indexFor(last);
      for (let j = j0; j < segs.length; j++) {
        if (j > j0) this._record(segs[j], 'foreign', new Record(chunk, n, n, segs[j].start, segs[j].end, args));
        this._finish(segs[j]);
      }
    } else if (!page.truncated && !seg.done) {
      // The prefix is read to its end; the segment goes on after it, if it reaches further.
      if (compareKeys(seg.cursor, reach) < 0) {
        seg.wire = n ? last : args.startAfter ?? args.prefix;
        seg.cursor = reach;
      }
      if ((seg.end !== null && compareKeys(seg.end, reach) <= 0) || (seg.known !== null && compareKeys(seg.known, reach) <= 0)) this._finish(seg);
    }
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
    const both = overlapOf(a, b);
    if (!both) return;
    const { lo, hi } = both;
    if (!firstDifference(keysWithin(a.keys, lo, hi), keysWithin(b.keys, lo, hi))) return;
    this.stats.listRechecks++;
    const again = {};
    const decide = () => {
      if (!again.a || !again.b || this.error) return;
      // The new pages speak up to where both still reach.
      const reach = (p, h) => (p.truncated && p.chunk.length ? minKeyOrNull(h, p.chunk.key(p.chunk.length - 1)) : h);
      const h = reach(again.b, reach(again.a, hi));
      const d = firstDifference(keysWithin(again.a.chunk, lo, h), keysWithin(again.b.chunk, lo, h));
      if (!d) { this.stats.listChanges++; return; }
      // The smaller of the two keys where they part is the one the other listing skipped.
      const aSkips = d.a === null || (d.b !== null && compareKeys(d.b, d.a) < 0);
      const [skipper, lister, key] = aSkips ? [a, b, d.b] : [b, a, d.a];
      this._fail(new UntrustedStore(`the store's listings disagree, twice: asked for the keys ${asked(skipper.args)} it skips ${showKey(key)},` +
        ` which it lists ${asked(lister.args)}: its StartAfter cannot be trusted`));
    };
    for (const [name, rec] of [['a', a], ['b', b]]) {
      this._request(rec.args, (page) => {
        if (this.error) return;
        this.stats.pages++;
        this.stats.keysReturned += chunkOf(page).length;
        checkPage(page, rec.args.startAfter || '', rec.args.prefix);
        again[name] = { chunk: chunkOf(page), truncated: page.truncated };
        decide();
      });
    }
  }

  // Records nobody can contradict any more: the segment before it is done, and every request
  // in flight began after the segment's start (none from before it can run into it, and
  // its own first page, asked from its start, has come).
  _forget() {
    const segs = this.segs;
    let lowest = null;
    for (const req of this.pending) if (!req.settled && (lowest === null || compareKeys(req.after, lowest) < 0)) lowest = req.after;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if (!s.own && !s.foreign) continue;
      if ((i === 0 || segs[i - 1].done) && (lowest === null || compareKeys(lowest, s.start) > 0)) { s.own = null; s.foreign = null; }
    }
  }

  _finish(s) {
    if (s.done) return;
    if (s.probe) this._probed(s, false);
    s.done = true;
    this.active--;
  }

  // Whether a scout found a sibling where it looked, for the key shape to learn from.
  _probed(s, hit) {
    if (s.probe.at < s.probe.from.length) this.shape.probed(s.probe.from, s.probe.at, s.probe.key.codePointAt(s.probe.at), hit);
    s.probe = null;
  }

  // A segment's plan, made again only when the segment has changed (folder listings asked
  // for are not asked again for the same page).
  _planOf(s) {
    const c = s.planned;
    if (c && c.sample === s.sample && c.cursor === s.cursor && c.end === s.end && c.busy === s.busy) return c.plan;
    const plan = this._planFor(s);
    if (plan && c && c.sample === s.sample) plan.folders = c.plan ? c.plan.folders : [];
    s.planned = { sample: s.sample, cursor: s.cursor, end: s.end, busy: s.busy, plan };
    return plan;
  }

  // What a segment's last page says about the rest of it. Its keys share a prefix (`sub`):
  // inside that subtree they are about as dense as on the page, so what is left of it
  // (`near`) can be cut by estimate. Past it (`far`), density says nothing: the rest is
  // scouted where the keys' structure says a new subtree begins (siblingStarts), and, in
  // the tail, also at doubling distances. Null when the segment has nothing to say.
  _planFor(s) {
    const sm = s.sample;
    if (!sm) return null;
    const prefix = this.range.prefix;
    const sub = commonPrefix(sm.first, sm.last);
    const ctx = sub.length > prefix.length ? sub : prefix;
    const next = ctx.length > prefix.length ? prefixEnd(ctx) : null;
    const nearEnd = s.end !== null && (next === null || compareKeys(s.end, next) <= 0) ? s.end : next;
    const plan = { s, near: this._estimate(s, ctx, nearEnd), far: [] };
    plan.folders = [];
    if (nearEnd !== s.end) {
      const last = sm.last;
      const floor = s.end === null ? prefix.length : commonPrefix(s.cursor, s.end).length;
      // Folder levels past the floor whose folders hold a page or more (this page lies in one
      // of them): one folder listing each names their next folders exactly. Characters are
      // guessed only inside the last name.
      const whole = ctx.lastIndexOf(DELIMITER) + 1;
      let charsFrom = floor;
      if (this.folders && whole > floor) {
        let f = last.slice(0, Math.max(prefix.length, last.lastIndexOf(DELIMITER, floor - 1) + 1));
        while (f.length < whole) {
          const child = last.indexOf(DELIMITER, f.length) + 1;
          if (this._worthListing(f)) {
            if (!this._listedAlready(f, last, s.end)) plan.folders.push(f);
            charsFrom = Math.max(charsFrom, child);
          }
          f = last.slice(0, child);
        }
      }
      for (const m of this._scouts(last, ctx.length - 1, charsFrom, s.end)) plan.far.push(m);
    }
    // Keys beyond the page's subtree: judge the whole rest of the segment by the page's
    // density too, and cut it where that says more than scouts alone will cover.
    if (nearEnd !== s.end && !plan.folders.length) {
      const broad = this._estimate(s, s.end === null ? prefix : commonPrefix(s.cursor, s.end), s.end);
      if (broad && broad.keys > (plan.near ? plan.near.keys : 0) + (plan.far.length + 1) * PAGE) plan.near = broad;
    }
    return plan.near || plan.far.length || plan.folders.length ? plan : null;
  }

  // Keys a segment has left up to `end` (beyond what its request in flight reads), judged by
  // its last page's density in the key shape's measure of ctx's subtree; null: unknown.
  _estimate(s, ctx, end) {
    const sm = s.sample;
    const sp = this.shape;
    const f1 = sp.frac(sm.first, ctx), fl = sp.frac(sm.last, ctx);
    const perKey = (fl - f1) / (sm.n - 1);
    if (!(perKey > 0)) return null;
    let from = sp.frac(s.cursor, ctx);
    if (s.busy) from += perKey * PAGE; // the page asked for
    const to = end === null ? 1 : sp.frac(end, ctx);
    const keys = (to - from) / perKey;
    return keys > 0 ? { keys, ctx, from, to, end } : null;
  }

  // Requests the listing may still spend on guesses (new segments, folder listings) and stay
  // at EFFICIENCY overall: each page of new keys earns 1/EFFICIENCY requests, and a round's
  // worth is given at the start. Where guesses pay off, they earn more guesses; where the
  // layout defeats them, listing goes on with the segments there are.
  _credit() {
    const st = this.stats;
    return Math.floor(st.keysUnique / PAGE / EFFICIENCY + this.concurrency - st.listRequests - this.guesses);
  }

  // Whether folders at f's depth have proved to be many: a listing that names one or two
  // costs a request for little (a deep tree of a few folders per level).
  _worthListing(f) {
    const d = this.fanout[depthOf(f)];
    return !d || d.listings < 3 || d.found >= 4 * d.listings;
  }

  // Whether f has been listed (or is being listed) from at or before `after` as far as
  // `end`: a second listing would name the same folders.
  _listedAlready(f, after, end) {
    const l = this.listed.get(f);
    if (!l || compareKeys(l.after, after) > 0) return false;
    const need = end === null ? lastKeyWith(f) : minKey(end, lastKeyWith(f));
    return l.reach === null || compareKeys(l.reach, need) >= 0;
  }

  // A folder listing of f after `after`: its folders are where subtrees begin, exactly.
  _listFolders(f, after, seg) {
    const from = seg.cursor, to = seg.end;
    this.stats.folderListings++;
    const record = { after, reach: null };
    this.listed.set(f, record);
    const args = { prefix: f, startAfter: after, delimiter: DELIMITER, after };
    this._request(args, (page) => {
      this.stats.pages++;
      if (this.error) return;
      // Its keys are checked as any page's; a store that ignores the delimiter is not
      // asked for folders again (they are only hints).
      checkPage(page, after, f);
      const chunk = chunkOf(page);
      for (let k = 0; k < chunk.length; k++) if (chunk.key(k).indexOf(DELIMITER, f.length) >= 0) { this.folders = false; return; }
      const found = [];
      let prev = null;
      const folders = page.prefixes || [];
      for (const g of folders) {
        // In order, inside f, one level down; the folder that holds `after` may come first.
        if (!g.startsWith(f) || g.indexOf(DELIMITER, f.length) !== g.length - 1 ||
          (prev !== null && compareKeys(g, prev) <= 0) || (!after.startsWith(g) && compareKeys(g, after) <= 0)) {
          throw new UntrustedStore(`the store answered a folder listing of ${showKey(f)} after ${showKey(after)} with the folder ${showKey(g)}, out of place`);
        }
        prev = g;
        if (!after.startsWith(g)) found.push({ key: g, folder: true, gapEnd: null });
      }
      record.reach = page.truncated ? (folders.length ? folders[folders.length - 1] : chunk.length ? chunk.key(chunk.length - 1) : after) : lastKeyWith(f);
      // What lies between a folder and the next entry of the listing: nothing. So a folder
      // followed by another folder, with no key between, ends where its subtree ends.
      let k = 0;
      for (let j = 0; j < found.length; j++) {
        const g = found[j].key;
        while (k < chunk.length && compareKeys(chunk.key(k), g) < 0) k++;
        const nextFolder = j + 1 < found.length ? found[j + 1].key : null;
        const nextKey = k < chunk.length ? chunk.key(k) : null;
        const next = nextFolder === null ? nextKey : nextKey === null ? nextFolder : minKey(nextFolder, nextKey);
        found[j].gapEnd = next !== null ? keyBefore(next) : page.truncated ? null : lastKeyWith(f);
      }
      const d = this.fanout[depthOf(f)] ||= { listings: 0, found: 0 };
      d.listings++;
      d.found += found.length;
      this._placeFolders(found, from, to);
    });
  }

  // New segments at folders that begin subtrees, inside the range the asking segment had
  // when it asked (what lies elsewhere is other segments' to plan; pieces cut from the asker
  // meanwhile take theirs), as many as a round of requests can use (every k-th when there
  // are more).
  _placeFolders(found, from, to) {
    const inside = found.filter((g) => compareKeys(g.key, from) > 0 && (to === null || compareKeys(g.key, to) <= 0));
    if (!inside.length) return;
    const step = Math.max(1, Math.ceil(inside.length / this.concurrency));
    const bySeg = new Map();
    for (let j = 0; j < inside.length; j += step) {
      const s = this.segs[this._indexFor(keyBefore(inside[j].key) || '')];
      if (s.done || compareKeys(inside[j].key, s.cursor) <= 0) continue;
      if (!bySeg.has(s)) bySeg.set(s, []);
      bySeg.get(s).push(inside[j]);
    }
    for (const [s, points] of bySeg) this._split(this.segs.indexOf(s), points);
    this._pump();
  }

  // Free request slots and nothing waiting for one: scout past what segments know, then cut
  // the known remainders with the most keys into more pieces (for ordered output, only
  // near its head). Returns whether any segment was added.
  _fill() {
    const segs = this.segs;
    // Segments waiting for a slot take the free ones first (ordered: those within the window).
    let idle = 0, ahead = 0;
    for (let i = this.ordered ? this.head : 0; i < segs.length; i++) {
      if (!segs[i].done && !segs[i].busy) idle++;
      if (!this.ordered) continue;
      ahead += this._ahead(segs[i]);
      if (ahead > this.window) break;
    }
    let free = Math.min(this._room() - idle, this.gate.left - idle);
    if (free <= 0) return false;
    const plans = [];
    ahead = 0;
    for (let i = this.ordered ? this.head : 0; i < segs.length; i++) {
      const s = segs[i];
      if (this.ordered && ahead > this.window) break;
      if (s.done) { ahead += s.held; continue; }
      const p = this._planOf(s);
      ahead += this._ahead(s);
      if (p) plans.push(p);
    }
    if (!plans.length) return false;
    // Folder listings first: they name subtrees exactly.
    let listed = false;
    for (const p of plans) {
      while (p.folders.length && free > 0) {
        this._listFolders(p.folders.shift(), p.s.sample.last, p.s);
        free--;
        listed = true;
      }
    }
    // Then scouts and cuts. Ordered output waits on its head: the segments nearest it take
    // what they can use, in order. Otherwise scouts one from each segment in turn, then
    // pieces in proportion to what each segment has left near; none under minPiece keys.
    for (const p of plans) { p.points = []; p.k = 0; }
    const cuts = plans.filter((p) => p.near && p.near.keys >= 2 * this.minPiece);
    for (const p of cuts) p.max = Math.floor(p.near.keys / this.minPiece) - 1;
    if (this.ordered) {
      for (const p of plans) {
        if (free <= 0) break;
        const take = Math.min(free, p.far.length);
        p.points.push(...p.far.slice(0, take));
        free -= take;
        if (p.max) { p.k = Math.min(free, p.max); free -= p.k; }
      }
    } else {
      for (let round = 0, taken = true; taken && free > 0; round++) {
        taken = false;
        for (const p of plans) if (round < p.far.length && free > 0) { p.points.push(p.far[round]); free--; taken = true; }
      }
      const total = cuts.reduce((t, p) => t + p.near.keys, 0);
      for (const p of cuts) p.k = Math.min(p.max, Math.floor((free * p.near.keys) / total));
      free -= cuts.reduce((t, p) => t + p.k, 0);
      cuts.sort((a, b) => b.near.keys / (b.k + 1) - a.near.keys / (a.k + 1));
      for (let j = 0; free > 0 && j < cuts.length; j++) if (cuts[j].k < cuts[j].max) { cuts[j].k++; free--; }
    }
    let added = false;
    for (const p of plans) {
      if (p.k) {
        // A cut is a guess at one character too: where it parts from the keys before it.
        let prev = p.s.cursor;
        for (const key of this._cutPoints(p.s, p.near, p.k)) {
          p.points.push({ key, guess: { from: prev, at: commonPrefix(prev, key).length } });
          prev = key;
        }
      }
      if (p.points.length && this._split(this.segs.indexOf(p.s), p.points)) added = true;
    }
    return added || listed;
  }

  // Where sibling subtrees of `last` may begin, from level `deepest` up to `floor`, at most
  // one list request's worth each round: one from each level in turn, nearest level first,
  // and at each level the next sibling first, then spread over the characters the key
  // shape allows there (key-shape.js). Each is {key, from, at}: a probe of position `at` of
  // key `from`, so its outcome teaches the shape.
  _scouts(last, deepest, floor, end) {
    const levels = [];
    for (let i = Math.min(deepest, last.length - 1); i >= floor; i--) {
      const c = last.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff) continue; // the second half of a pair: its first half speaks
      const base = last.slice(0, i);
      const list = [];
      for (const cp of this.shape.siblings(last, i, i === floor, end === null && i === floor)) {
        const key = base + String.fromCodePoint(cp);
        if (end === null || compareKeys(key, end) < 0) list.push({ key, from: last, at: i });
      }
      if (list.length) levels.push(list);
    }
    const out = [];
    for (let r = 0, any = true; any && out.length < this.concurrency; r++) {
      any = false;
      for (const l of levels) if (r < l.length && out.length < this.concurrency) { out.push(l[r]); any = true; }
    }
    return out;
  }

  // k keys that cut a segment's near remainder into k more pieces of about equal keys.
  _cutPoints(s, near, k) {
    const { ctx, from, to, end } = near;
    const points = [];
    let lo = s.cursor;
    const step = (to - from) / (s.busy ? k : k + 1);
    for (let j = 0; j < k; j++) {
      const m = this.shape.keyAt(ctx, from + step * (s.busy ? j : j + 1), lo, end);
      if (m) { points.push(m); lo = m; }
    }
    return points;
  }

  // New segments starting at points ({key, from, at}: a scout of position `at` of key
  // `from`; or keys), inside segment idx after its cursor.
  _split(idx, points) {
    const seg = this.segs[idx];
    const byKey = new Map();
    for (const p of points) {
      const pt = typeof p === 'string' ? { key: p } : p;
      if (byKey.has(pt.key) || !acceptableStartAfter(pt.key)) continue;
      // A scout or a folder begins the subtree of its key: the segment starts just before it.
      pt.start = pt.from !== undefined || pt.folder ? keyBefore(pt.key) : pt.key;
      if (pt.start === null || compareKeys(pt.start, seg.cursor) <= 0 || (seg.end !== null && compareKeys(pt.key, seg.end) > 0)) continue;
      byKey.set(pt.key, pt);
    }
    if (!byKey.size) return false;
    const sorted = [...byKey.values()].sort((a, b) => compareKeys(a.start, b.start));
    const added = [];
    for (let p = 0; p < sorted.length; p++) {
      const t = new Segment(sorted[p].start, p + 1 < sorted.length ? sorted[p + 1].start : seg.end);
      if (p + 1 === sorted.length) t.known = seg.known; // the same end, the same empty stretch before it
      if (sorted[p].gapEnd && t.end !== null && compareKeys(sorted[p].gapEnd, t.end) >= 0) t.known = lastKeyWith(sorted[p].key);
      if (sorted[p].from !== undefined) t.probe = sorted[p];
      else if (sorted[p].guess && sorted[p].guess.at < sorted[p].key.length) t.probe = { key: sorted[p].key.slice(0, sorted[p].guess.at + 1), ...sorted[p].guess };
      if (sorted[p].from !== undefined || sorted[p].folder) t.sub = sorted[p].key;
      added.push(t);
    }
    seg.end = sorted[0].start;
    seg.known = null;
    this.segs.splice(idx + 1, 0, ...added);
    this.active += added.length;
    this.stats.splits += added.length;
    this.guesses += added.length;
    return true;
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

module.exports = { ParallelLister, Segment, PAGE, pageInOrder, checkPage, acceptableStartAfter };
