'use strict';
// The parallel lister: the engine. The requested range is cut into disjoint segments, each
// read with ListObjectsV2 StartAfter from its cursor. A page can run past its segment's end:
// those keys are handed to the following segments (advancing their cursors) instead of
// being thrown away. Exactly-once never depends on where segments begin, only on cursors.
//
// Where to cut next is the planner's (plan/online.js): every request slot is kept busy from
// the first round trip, with the segments and the folder listings the planner asks for.
// The engine sends every request, keeps the segments, checks every page, and hands out
// keys (in key order, or as they come). A request that takes far longer than its peers is
// sent again (hedge.js).
//
// Trust but verify: every page must increase in S3's UTF-8 order from its StartAfter, and
// where a page runs into the next segment, its keys there must be the ones that segment's
// own first page returned (a server that mishandles some StartAfter values skips keys
// otherwise). A store that fails either is an UntrustedStore; see guarded-lister.js.

const { compareKeys, commonPrefix, lastKeyWith, keyBefore, minKey, keyBytes, MAX_KEY_BYTES } = require('../keys/order');
const { OnlinePlanner } = require('../plan/online');
const T = require('../plan/tuning').values;
const { normalizeRange, inRange } = require('../keys/range');
const { RequestStats } = require('../stats');
const { FatalError } = require('../errors');
const { option } = require('../options');
const { chunkOf } = require('../stores/chunks');
const { UntrustedStore, showKey } = require('./untrusted-store');
const { checkPage, pageInOrder, acceptableStartAfter, comparerFor } = require('./page-check');
const { Record, keysWithin, firstDifference, minKeyOrNull, overlapOf } = require('./page-agreement');
const { LatencyWatch } = require('./hedge');
const { RequestGate } = require('./request-gate');
const { OutputQueue } = require('./output-queue');

const PAGE = 1000;
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
    // A segment that begins a subtree (every key from `sub` on: a scout's or a folder's)
    // starts at the greatest key before sub, which is never sent: its first request asks
    // from just before sub (sendableBefore), or for the subtree alone (Prefix=sub). `wire`
    // is what a request sends when the cursor is a key no request should carry.
    this.sub = null;
    this.wire = null;
    this.alone = false; // its first page read on and never reached sub: sub is asked for alone
    // Past this key the segment holds nothing (a folder listing showed nothing between its
    // folder and the next): reading its folder to the end reads it all.
    this.known = null;
    this.busy = false;
    this.done = false;
    this.buf = [];
    this.held = 0; // keys in buf
    this.kind = 'root'; // what began it (stats.listKinds): root, cut, scout, folder or hint
    this.got = 0; // keys read inside it: what the planner may cut it for (plan/online.js)
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


// A StartAfter for the first request of a segment that begins at the subtree `sub`, sent
// in place of its start (the greatest key before sub, which no request should carry:
// 1,024 bytes of U+10FFFF): the last character of sub's name one lower, then U+10FFFF
// ("kp\u{10FFFF}" for "kq", "d1\u{10FFFF}" for the folder "d2/"). The keys between the two
// ("d2", "d2.txt") are the segment before's, and count as overlap. A folder's StartAfter
// never names the folder or anything inside its name's order: a store that lists folder by
// folder takes "d2" or "d2.\u{10FFFF}" as "after the folder d2" and skips it (SeaweedFS).
// Null where that character is at or above U+D800 (stores that compare by UTF-16 code
// units could place sub's keys before it: start-check.js) or at or below "0" (one lower
// would be "/" or below it): the subtree is then read alone, as a Prefix.
function sendableBefore(sub) {
  const name = sub.endsWith(DELIMITER) ? sub.slice(0, -1) : sub;
  const c = name.charCodeAt(name.length - 1);
  if (!(c > 0x30 && c < 0xd800)) return null;
  const key = `${name.slice(0, -1)}${String.fromCharCode(c - 1)}\u{10FFFF}`;
  return acceptableStartAfter(key) && keyBytes(key) <= MAX_KEY_BYTES ? key : null;
}

// A request as an error message names it.
function asked({ prefix, startAfter }) {
  return startAfter ? `after ${showKey(startAfter)}` : `with the prefix ${showKey(prefix)}`;
}

// The first index in [lo, hi) of a chunk whose key passes test (hi: none), where the keys
// that fail it all come first (a page in increasing key order, tested against a bound).
function firstWhere(chunk, lo, hi, test) {
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (test(chunk.key(m))) hi = m; else lo = m + 1;
  }
  return lo;
}

class ParallelLister {
  /**
   * @param store object with listPage({prefix, startAfter, continuationToken, signal})
   * @param options {prefix, startAfter, stopAt, listConcurrency, maxListRequests,
   *   ordered, reorderWindow, maxQueuedPages, signal, stats, log, splitPoints, folders
   *   (false: never list folders), hedge (default true), hedgeAfter (ms: never hedge sooner,
   *   default 50), clock (ms, for tests: a virtual clock), onPage(chunk): every page of keys
   *   read, before its keys are handed out (those past the range's end too)}
   */
  constructor(store, options = {}) {
    this.store = store;
    this.onPage = options.onPage || null;
    this.range = normalizeRange(options);
    this.concurrency = option(options, 'listConcurrency');
    this.ordered = options.ordered !== false;
    // Ordered output holds back what segments ahead of the first unfinished one return:
    // room for a few pages per request slot keeps every slot at work.
    this.baseWindow = options.reorderWindow || Math.max(T.WINDOW_MIN_PAGES, T.WINDOW_PAGES_PER_SLOT * this.concurrency) * PAGE;
    this.minPiece = (options.minPiecePages || T.MIN_PIECE_PAGES) * PAGE;
    this.windowBytes = options.windowBytes || T.WINDOW_BYTES;
    this.keyBytes = { bytes: 0, rows: 0 }; // of the keys read, for the window
    this.signal = options.signal;
    this.stats = options.stats || new RequestStats();
    this.log = options.log || (() => {});
    this.gate = new RequestGate({ concurrency: this.concurrency, maxRequests: options.maxListRequests, stats: this.stats, log: this.log });
    this.out = new OutputQueue(options.maxQueuedPages || T.QUEUED_PAGES);
    this.clock = options.clock || (() => performance.now());
    this.latency = options.hedge === false ? null : new LatencyWatch(options.hedgeAfter !== undefined ? { floorMs: options.hedgeAfter } : {});
    this.pending = new Set(); // requests in flight (each maybe sent twice)
    this.hedgeTimer = null;
    this.hedgeDue = null; // when the oldest request becomes a straggler (checked as pages come, too)
    // Folder listings name the folders ahead (stores that take a delimiter); whether the
    // planner may still ask for them is the planner's to keep.
    const folders = options.folders !== false && store.delimiters === true;
    this.planner = new OnlinePlanner({ prefix: this.range.prefix, concurrency: this.concurrency, ordered: this.ordered, folders, minPiece: this.minPiece });
    this.guesses = 0; // segments added whose first request is not sent yet
    this.sent = 0; // list requests sent (twins too): what the request budget charges
    this.unique = 0; // keys handed on: what it credits
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
  // versions) gets a window of as many entries, not rows; and entries whose keys are long get
  // a window of WINDOW_BYTES at most, by the mean size of the keys read so far (two bytes a
  // code unit unless the page was ASCII, as V8 holds them).
  get window() {
    const w = this.store.rowWeight ? this.store.rowWeight() : 1;
    const rows = w > 1 ? this.baseWindow / w : this.baseWindow;
    const held = this.keyBytes.rows ? w * (T.HELD_ENTRY_BYTES + this.keyBytes.bytes / this.keyBytes.rows) : 0;
    return held > 0 ? Math.min(rows, this.windowBytes / held) : rows;
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

  // Keys a segment holds back for order, or soon may (planner.ahead: memory, not a forecast).
  _ahead(s) {
    return this.planner.ahead(s);
  }

  _launch(seg) {
    seg.busy = true;
    const kind = seg.launched ? 'next' : seg.kind;
    if (!seg.launched) { seg.launched = true; if (this.guesses > 0) this.guesses--; }
    // Every key of a segment shares the prefix of its lowest and highest possible keys:
    // asked with it as Prefix, the store stops where that prefix ends rather than read on
    // into keys the next segments read. A segment that begins a subtree never sends its
    // start (see sendableBefore).
    const fresh = seg.sub !== null && seg.cursor === seg.start;
    const highest = seg.known ?? seg.end;
    let prefix = this.range.prefix;
    // Nothing lies between a fresh segment's start and its subtree's first key: its keys
    // share what the subtree and its end share. Bounded only by that, its first page goes on
    // past a small subtree into the rest of the segment instead of coming back short.
    const low = fresh ? seg.sub : seg.cursor;
    if (highest !== null) { const p = commonPrefix(low, highest); if (p.length > prefix.length) prefix = p; }
    const before = fresh && !seg.alone && prefix.length < seg.sub.length ? sendableBefore(seg.sub) : null;
    if (fresh && before === null) prefix = seg.sub;
    const startAfter = fresh ? before ?? undefined : seg.wire ?? (seg.cursor || undefined);
    const args = { prefix, startAfter, after: seg.cursor, kind, fresh, sub: fresh ? seg.sub : null };
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
    this.sent++;
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
    let room = Math.max(1, Math.floor(this.concurrency / T.HEDGE_SLOT_DIVISOR));
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
    if (this.ordered && n > 0) {
      this.keyBytes.bytes += chunk.keyUnits() * (page.ascii ? 1 : 2);
      this.keyBytes.rows += n;
    }
    if (this.onPage) this.onPage(chunk);
    if (n > 1) st.checkedPages++;
    const cmp = comparerFor(page);
    if (n === 0 && page.truncated) {
      if (++st.emptyTruncated > T.EMPTY_TRUNCATED_MAX) throw new FatalError(`the store keeps answering with empty pages it says are truncated (the last after ${showKey(args.startAfter)})`);
    }
    // A few keys of every page teach the planner where keys lie.
    this.planner.learnPage(chunk);
    const last = n > 0 ? chunk.key(n - 1) : after;
    // A page of a subtree (Prefix=sub) that is not truncated says nothing past the subtree.
    const whole = args.prefix === this.range.prefix;
    const reach = whole ? null : lastKeyWith(args.prefix);
    const upTo = (end) => (reach === null ? end : end === null ? reach : minKey(end, reach));

    // A subtree's first page: the segment goes on from its cursor, unless the keys between
    // the StartAfter sent and the subtree filled the page ("d2-old/…" lies between "d1" +
    // U+10FFFF and "d2/"): then the subtree is asked for again, alone (its start, which the
    // cursor still is, is never sent).
    if (args.fresh) {
      const { sub } = args;
      // (the page is verified increasing: its keys before sub, and then those in it, are
      // runs found by bisection)
      let m = firstWhere(chunk, 0, n, (key) => cmp(key, sub) >= 0);
      if (m === n && page.truncated && args.startAfter !== undefined) seg.alone = true;
      else {
        // A folder's keys (a page at least, if the page ended inside it), whether its page
        // was asked for it alone or read on past it: how many keys folders as deep hold.
        if (sub.endsWith(DELIMITER)) {
          const from = m;
          m = firstWhere(chunk, m, n, (key) => !key.startsWith(sub)); // (keys with a prefix are one run)
          this.planner.folderRead(sub, m - from);
        }
        seg.sub = null;
      }
    }
    const segs = this.segs;
    const i0 = this._indexFor(after);
    // An empty first page is a word on the segment too: nothing there (or nothing at all).
    if (n === 0 && segs[i0] === seg && !seg.ownSeen && !page.truncated) this._record(seg, 'own', new Record(chunk, 0, 0, after, upTo(seg.end), args));
    let i = i0;
    let k = 0;
    let unique = 0; // keys of this page handed out (not read before)
    while (k < n && i < segs.length) {
      const s = segs[i];
      let chunkStart = -1, chunkEnd = -1;
      const from = k;
      // The page is verified increasing: its keys up to the segment's end, and of those the
      // ones past its cursor, are each a run found by bisection.
      k = s.end === null || cmp(last, s.end) <= 0 ? n : firstWhere(chunk, k, n, (key) => cmp(key, s.end) > 0);
      const fresh = s.done ? k : firstWhere(chunk, from, k, (key) => cmp(key, s.cursor) > 0);
      st.overlap += fresh - from;
      if (fresh < k) {
        chunkStart = fresh;
        chunkEnd = k;
        s.cursor = chunk.key(k - 1);
      }
      if (chunkStart >= 0) {
        s.wire = null;
        s.sub = null;
        if (s.probe) this._probed(s, chunk.key(chunkStart).startsWith(s.probe.key), true);
        if (chunkEnd - chunkStart >= 2) {
          s.sample = { first: own(chunk.key(chunkStart)), last: own(chunk.key(chunkEnd - 1)), n: chunkEnd - chunkStart };
          this.planner.learnSample(s.sample);
        }
        this._emit(i, chunkStart === 0 && chunkEnd === n ? chunk : chunk.slice(chunkStart, chunkEnd));
        unique += chunkEnd - chunkStart;
        s.got += chunkEnd - chunkStart;
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
    st.listKind(args.kind || 'next', n, unique);
    if (this.ordered) this._flush();
    this._forget();
    if (segs.length > T.COMPACT_PER_SLOT * this.concurrency + T.COMPACT_SLACK) this._compact();
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
        this.stats.listKind('recheck', chunkOf(page).length, 0);
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
    let lowest; // the least StartAfter of the requests in flight, found once a segment asks
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if ((!s.own && !s.foreign) || !(i === 0 || segs[i - 1].done)) continue;
      if (lowest === undefined) {
        lowest = null;
        for (const req of this.pending) if (!req.settled && (lowest === null || compareKeys(req.after, lowest) < 0)) lowest = req.after;
      }
      if (lowest !== null && compareKeys(lowest, s.start) <= 0) break; // and so for every later segment
      s.own = null;
      s.foreign = null;
    }
  }

  _finish(s) {
    if (s.done) return;
    if (s.probe) this._probed(s, false, false);
    s.done = true;
    this.active--;
  }

  // Whether a scout found a sibling where it looked (hit), and whether its segment found
  // keys at all (found), for the planner to learn from.
  _probed(s, hit, found) {
    this.planner.probed(s.probe, hit, found);
    s.probe = null;
  }

  // A folder listing of f after `after` (the planner asked for it): its folders are where
  // subtrees begin, exactly. The segments the planner places there start inside the range
  // the asking segment had when it asked.
  _listFolders(f, after, seg) {
    const from = seg.cursor, to = seg.end;
    this.stats.folderListings++;
    this.stats.listKind('folders');
    const args = { prefix: f, startAfter: after, delimiter: DELIMITER, after, kind: 'folders' };
    this._request(args, (page) => {
      this.stats.pages++;
      if (this.error) return;
      // Its keys are checked as any page's; a store that ignores the delimiter is not
      // asked for folders again (they are only hints).
      checkPage(page, after, f);
      const chunk = chunkOf(page);
      for (let k = 0; k < chunk.length; k++) if (chunk.key(k).indexOf(DELIMITER, f.length) >= 0) { this.planner.foldersIgnored(); return; }
      let prev = null;
      const folders = page.prefixes || [];
      for (const g of folders) {
        // In order, inside f, one level down; the folder that holds `after` may come first.
        if (!g.startsWith(f) || g.indexOf(DELIMITER, f.length) !== g.length - 1 ||
          (prev !== null && compareKeys(g, prev) <= 0) || (!after.startsWith(g) && compareKeys(g, after) <= 0)) {
          throw new UntrustedStore(`the store answered a folder listing of ${showKey(f)} after ${showKey(after)} with the folder ${showKey(g)}, out of place`);
        }
        prev = g;
      }
      const found = this.planner.foldersListed(f, after, { chunk, folders, truncated: page.truncated });
      const placed = this.planner.placeFolders(found, from, to, this.segs, (k) => this._indexFor(k));
      if (!placed) return;
      for (const { seg: s, points } of placed) this._split(this.segs.indexOf(s), points);
      this._pump();
    });
  }

  // Free request slots and nothing waiting for one: the planner says where to cut (for
  // ordered output, only near its head). Returns whether anything was asked for.
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
    const slots = Math.min(this._room() - idle, this.gate.left - idle);
    const free = Math.min(slots, this._budgetLeft());
    if (slots > 0 && free < slots) this.stats.budgetHeld++;
    if (free <= 0) return false;
    const { folders, splits } = this.planner.plan({ segs, head: this.head, window: this.window }, free);
    for (const { prefix, after, seg } of folders) this._listFolders(prefix, after, seg);
    let added = false;
    for (const { seg, points } of splits) if (this._split(segs.indexOf(seg), points)) added = true;
    return added || folders.length > 0;
  }

  // The request budget: new segments and folder listings are started only while the requests
  // sent, and the first requests of segments not started yet, stay within
  // BUDGET_START_REQUESTS plus BUDGET_REQUESTS_PER_PAGE for each page of keys handed on.
  // What a listing may spend grows as fast as its pages come back, so a bucket of a few
  // pages costs a few requests, a large one fans out within a few round trips, and a
  // listing whose guesses keep finding little slows its guessing rather than its reading:
  // segments already started always go on.
  _budgetLeft() {
    return Math.floor(T.BUDGET_START_REQUESTS + (T.BUDGET_REQUESTS_PER_PAGE * this.unique) / PAGE) - this.sent - this.guesses;
  }

  // New segments starting at points ({key, from, at}: a scout of position `at` of key
  // `from`; or keys), inside segment idx after its cursor.
  _split(idx, points) {
    const seg = this.segs[idx];
    const byKey = new Map();
    for (const p of points) {
      const pt = typeof p === 'string' ? { key: p } : p;
      if (byKey.has(pt.key) || !acceptableStartAfter(pt.key)) { this.planner.unused(pt); continue; }
      // A scout or a folder begins the subtree of its key: the segment starts just before it.
      pt.start = pt.from !== undefined || pt.folder ? keyBefore(pt.key) : pt.key;
      if (pt.start === null || compareKeys(pt.start, seg.cursor) <= 0 || (seg.end !== null && compareKeys(pt.key, seg.end) > 0)) { this.planner.unused(pt); continue; }
      byKey.set(pt.key, pt);
    }
    if (!byKey.size) return false;
    const sorted = [...byKey.values()].sort((a, b) => compareKeys(a.start, b.start));
    const added = [];
    for (let p = 0; p < sorted.length; p++) {
      const t = new Segment(sorted[p].start, p + 1 < sorted.length ? sorted[p + 1].start : seg.end);
      if (p + 1 === sorted.length) t.known = seg.known; // the same end, the same empty stretch before it
      if (sorted[p].gapEnd && t.end !== null && compareKeys(sorted[p].gapEnd, t.end) >= 0) t.known = lastKeyWith(sorted[p].key);
      t.kind = sorted[p].from !== undefined ? 'scout' : sorted[p].folder ? 'folder' : sorted[p].guess ? 'cut' : 'hint';
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
    this.unique += chunk.length;
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
