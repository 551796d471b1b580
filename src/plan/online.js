'use strict';
// The online planner: where the parallel lister (list/parallel-lister.js, the engine) cuts
// its range next. It sees what has been read (the engine's segments, read-only, and the
// pages it is told of) and answers with actions; it never sends a request and never
// changes a segment: the engine does both.
//
// Each page tells it two things. Inside the subtree its keys share, keys are about as dense
// as on the page, so the rest of that subtree is cut into pieces of about a page where a
// model of the key space (key-shape.js) puts them. Past it, density says nothing, so the
// rest is scouted: a folder listing (Delimiter) names the next subtrees exactly where
// folders are many; otherwise scouts go where the key shape says a sibling may begin, one
// level of the key at a time. Ordered output plans only within a window ahead of what it
// has handed out.
//
// Actions: {folders: [{prefix, after, seg}]} folder listings to send, {splits: [{seg,
// points}]} new segments to start at points (keys, or {key, from, at} scouts of position
// `at` of key `from`, or {key, folder, gapEnd} folders a listing named).
const { compareKeys, commonPrefix, prefixEnd, lastKeyWith, keyBefore, minKey } = require('../keys/order');
const { KeyShape } = require('./key-shape');
const T = require('./tuning').values;
const { depthOf } = require('../keys/depth');

const PAGE = 1000;
const DELIMITER = '/';

class OnlinePlanner {
  /**
   * @param o {prefix (the range's), concurrency, ordered, folders (whether folder listings
   *   may be asked for), minPiece (keys: no piece smaller)}
   */
  constructor({ prefix, concurrency, ordered, folders, minPiece }) {
    this.prefix = prefix;
    this.concurrency = concurrency;
    this.ordered = ordered;
    this.folders = folders;
    this.minPiece = minPiece;
    this.shape = new KeyShape(); // which characters each position of a key takes
    this.fanout = []; // by folder depth: {listings, found}
    this.sizes = []; // by folder depth: {folders, keys} of folders read whole
    this.listed = new Map(); // folder -> {after, reach}: the last listing of it
    this.plans = new WeakMap(); // segment -> {sample, cursor, end, busy, plan}: made again when it changed
    this.reads = new WeakMap(); // segment -> {sample, ctx, keys}: keys read in the subtree its last pages share (_readIn)
    this.guessed = new Map(); // place -> {sent, hits}: scouts of a position under a prefix, cuts of a subtree (_guesses)
    this.shape.learn(prefix);
  }

  // The store answered a folder listing with keys past the folder: it ignores the
  // delimiter, so no folder listing is asked for again (folders are only hints).
  foldersIgnored() {
    this.folders = false;
  }

  // A page's keys, a few of each, teach the key shape where keys lie, and each of those with
  // the key after it where keys are not: no key lies between two neighbours, so characters
  // the shape would allow there are missing (learnGap). Without that, a position seen with
  // a few letters takes every letter, and hex names look three times as wide as they are.
  learnPage(chunk) {
    for (let k = 0; k < chunk.length; k += T.LEARN_EVERY) {
      this.shape.learn(chunk.key(k));
      if (k + 1 < chunk.length) this.shape.learnGap(chunk.key(k), chunk.key(k + 1), this.prefix.length);
    }
  }

  // A segment's newest run of keys ({first, last, n}).
  learnSample(sample) {
    this.shape.learn(sample.first);
    this.shape.learn(sample.last);
  }

  // Whether a scout found a sibling where it looked (hit), for the key shape to learn from,
  // and whether its segment found keys at all (found: the guess was worth its request).
  probed(probe, hit, found = hit) {
    if (probe.at < probe.from.length) this.shape.probed(probe.from, probe.at, probe.key.codePointAt(probe.at), hit);
    if (probe.guesses && found) probe.guesses.hits++;
  }

  // Guesses in one place grow with what they find. Scouts of one position under one prefix
  // (or the pieces cut from one subtree) lie one after another in key order, and are
  // answered together: where the subtree is smaller than the key shape says, the first
  // that finds nothing shows every later one empty too, each a request spent. The shape's
  // alphabet for a position comes from every folder as deep, so it can offer scores of
  // characters where this folder's names take a few. So a place gets SCOUT_FIRST guesses,
  // and SCOUT_GROWTH more for each whose segment found keys: many only where they keep
  // finding. The record of a place, {sent, hits}; the oldest are forgotten past
  // SCOUT_PLACES.
  _guesses(place) {
    let r = this.guessed.get(place);
    if (!r) {
      if (this.guessed.size >= T.SCOUT_PLACES) this.guessed.delete(this.guessed.keys().next().value);
      r = { sent: 0, hits: 0 };
      this.guessed.set(place, r);
    }
    return r;
  }

  // A point the engine did not start a segment at (outside the range by now, or named
  // twice): not a guess spent.
  unused(pt) {
    const r = pt.guesses || (pt.guess && pt.guess.guesses);
    if (r) r.sent--;
  }

  _allowance(r) { return T.SCOUT_FIRST + T.SCOUT_GROWTH * r.hits - r.sent; }

  // Scout pt of a plan's far list to send now (counted as sent), or null: its place has
  // had the guesses its finds allow.
  _scout(pt) {
    const r = this._guesses(`${pt.at} ${pt.from.slice(0, pt.at)}`);
    if (this._allowance(r) <= 0) return null;
    r.sent++;
    return { ...pt, guesses: r };
  }

  // A folder read whole from its start (a subtree page, Prefix=folder): how many keys
  // folders as deep hold. A truncated page says a page at least, and counts as one.
  folderRead(folder, n) {
    const d = this.sizes[depthOf(folder)] ||= { folders: 0, keys: 0 };
    d.folders++;
    d.keys += n;
  }

  // Keys a segment holds back for order, or may soon: what it holds, and a page for the
  // request it has in flight or will send. Memory, not a forecast: a segment whose estimate
  // of what it has left is large (often wrongly) would otherwise hold back every segment
  // after it, and ordered output would run on a few slots.
  ahead(s) {
    return s.done ? s.held : s.held + PAGE;
  }

  /**
   * What to do with `free` request slots. view: {segs, head, window}. Returns {folders,
   * splits}; empty when there is nothing worth a request.
   */
  plan({ segs, head, window }, free) {
    const none = { folders: [], splits: [] };
    if (free <= 0) return none;
    const plans = [];
    let ahead = 0;
    for (let i = this.ordered ? head : 0; i < segs.length; i++) {
      const s = segs[i];
      if (this.ordered && ahead > window) break;
      if (s.done) { ahead += s.held; continue; }
      const p = this._planOf(s);
      ahead += this.ahead(s);
      if (p) plans.push(p);
    }
    if (!plans.length) return none;
    const out = { folders: [], splits: [] };
    // Folder listings first: they name subtrees exactly.
    for (const p of plans) {
      while (p.folders.length && free > 0) {
        const prefix = p.folders.shift();
        const after = p.s.sample.last;
        this.listed.set(prefix, { after, reach: null });
        out.folders.push({ prefix, after, seg: p.s });
        free--;
      }
    }
    // Then scouts and cuts. Ordered output waits on its head: the segments nearest it take
    // what they can use, in order. Otherwise scouts one from each segment in turn, then
    // pieces in proportion to what each segment has left near; none under minPiece keys.
    // A segment is cut for what it has shown: at most CUT_EVIDENCE times the keys it has read
    // in the subtree (a page, at least), and no more pieces than the subtree's earlier
    // pieces allow (_guesses). Where the key shape misjudges a key space (numbers of varying
    // length, names it has not seen), an estimate can be a hundred times what is there;
    // pieces cut for it come back with a few keys each, and each cost a request.
    for (const p of plans) { p.points = []; p.k = 0; p.max = 0; p.held = 0; p.guesses = null; p.keys = p.near ? Math.min(p.near.keys, T.CUT_EVIDENCE * Math.max(p.near.read, PAGE)) : 0; }
    const cuts = plans.filter((p) => p.keys >= T.CUT_MIN_PIECES * this.minPiece);
    for (const p of cuts) {
      p.guesses = this._guesses(`cut ${p.near.ctx}`);
      p.max = Math.max(0, Math.min(Math.floor(p.keys / this.minPiece) - 1, this._allowance(p.guesses)));
      // Held while the slots are shared out (segments may share a subtree); what is not cut is given back.
      p.held = p.max;
      p.guesses.sent += p.held;
    }
    if (this.ordered) {
      for (const p of plans) {
        if (free <= 0) break;
        for (let j = 0; j < p.far.length && free > 0; j++) {
          const pt = this._scout(p.far[j]);
          if (pt) { p.points.push(pt); free--; }
        }
        if (p.max) { p.k = Math.min(free, p.max); free -= p.k; }
      }
    } else {
      for (let round = 0, taken = true; taken && free > 0; round++) {
        taken = false;
        for (const p of plans) {
          if (round >= p.far.length || free <= 0) continue;
          taken = true;
          const pt = this._scout(p.far[round]);
          if (pt) { p.points.push(pt); free--; }
        }
      }
      const total = cuts.reduce((t, p) => t + p.keys, 0);
      for (const p of cuts) p.k = Math.min(p.max, Math.floor((free * p.keys) / total));
      free -= cuts.reduce((t, p) => t + p.k, 0);
      cuts.sort((a, b) => b.keys / (b.k + 1) - a.keys / (a.k + 1));
      for (let j = 0; free > 0 && j < cuts.length; j++) if (cuts[j].k < cuts[j].max) { cuts[j].k++; free--; }
    }
    for (const p of plans) {
      if (p.k) {
        // A cut is a guess at one character too: where it parts from the keys before it.
        let prev = p.s.cursor;
        for (const key of this._cutPoints(p.s, p.near, p.k)) {
          const at = commonPrefix(prev, key).length;
          const guesses = at < key.length ? p.guesses : undefined; // else no probe to tell what it found
          if (guesses) p.held--;
          p.points.push({ key, guess: { from: prev, at, guesses } });
          prev = key;
        }
      }
      if (p.guesses) p.guesses.sent -= p.held;
      if (p.points.length) out.splits.push({ seg: p.s, points: p.points });
    }
    return out;
  }

  /**
   * A folder listing of `prefix` after `after` came back ({chunk, folders, truncated}; its
   * order already checked): the folders where subtrees begin, each with the last key
   * before the next entry (nothing lies between), to be placed inside (from, to].
   */
  foldersListed(prefix, after, { chunk, folders, truncated }) {
    const found = [];
    for (const g of folders) if (!after.startsWith(g)) found.push({ key: g, folder: true, gapEnd: null });
    const record = this.listed.get(prefix);
    if (record) record.reach = truncated ? (folders.length ? folders[folders.length - 1] : chunk.length ? chunk.key(chunk.length - 1) : after) : lastKeyWith(prefix);
    // What lies between a folder and the next entry of the listing: nothing. So a folder
    // followed by another folder, with no key between, ends where its subtree ends.
    let k = 0;
    for (let j = 0; j < found.length; j++) {
      const g = found[j].key;
      while (k < chunk.length && compareKeys(chunk.key(k), g) < 0) k++;
      const nextFolder = j + 1 < found.length ? found[j + 1].key : null;
      const nextKey = k < chunk.length ? chunk.key(k) : null;
      const next = nextFolder === null ? nextKey : nextKey === null ? nextFolder : minKey(nextFolder, nextKey);
      found[j].gapEnd = next !== null ? keyBefore(next) : truncated ? null : lastKeyWith(prefix);
    }
    const d = this.fanout[depthOf(prefix)] ||= { listings: 0, found: 0 };
    d.listings++;
    d.found += found.length;
    return found;
  }

  /**
   * Where new segments begin at folders a listing found inside (from, to], the range the
   * asking segment had when it asked (what lies elsewhere is other segments' to plan;
   * pieces cut from the asker meanwhile take theirs): as many as a round of requests can
   * use (every k-th when there are more). indexFor(key): the segment that holds key.
   * [{seg, points}], or null when no folder lies inside.
   */
  placeFolders(found, from, to, segs, indexFor) {
    const inside = found.filter((g) => compareKeys(g.key, from) > 0 && (to === null || compareKeys(g.key, to) <= 0));
    if (!inside.length) return null;
    // Once folders as deep have shown their size, a segment takes enough of them to fill
    // about FOLDER_PIECE_KEYS: a segment per folder of a few keys spends a request on each.
    const sized = this.sizes[depthOf(inside[0].key)];
    const perPiece = sized && sized.folders >= T.FOLDER_SIZE_TRIALS ? Math.floor(T.FOLDER_PIECE_KEYS / Math.max(1, sized.keys / sized.folders)) : 1;
    const step = Math.max(1, Math.ceil(inside.length / this.concurrency), perPiece);
    const bySeg = new Map();
    for (let j = 0; j < inside.length; j += step) {
      const s = segs[indexFor(keyBefore(inside[j].key) || '')];
      if (s.done || compareKeys(inside[j].key, s.cursor) <= 0) continue;
      if (!bySeg.has(s)) bySeg.set(s, []);
      bySeg.get(s).push(inside[j]);
    }
    return [...bySeg].map(([seg, points]) => ({ seg, points }));
  }

  // A segment's plan, made again only when the segment has changed (folder listings asked
  // for are not asked again for the same page).
  _planOf(s) {
    const c = this.plans.get(s);
    if (c && c.sample === s.sample && c.cursor === s.cursor && c.end === s.end && c.busy === s.busy) return c.plan;
    const plan = this._planFor(s);
    if (plan && c && c.sample === s.sample) plan.folders = c.plan ? c.plan.folders : [];
    this.plans.set(s, { sample: s.sample, cursor: s.cursor, end: s.end, busy: s.busy, plan });
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
    const prefix = this.prefix;
    const sub = commonPrefix(sm.first, sm.last);
    const ctx = sub.length > prefix.length ? sub : prefix;
    const next = ctx.length > prefix.length ? prefixEnd(ctx) : null;
    const nearEnd = s.end !== null && (next === null || compareKeys(s.end, next) <= 0) ? s.end : next;
    const plan = { s, near: this._estimate(s, ctx, nearEnd), far: [] };
    if (plan.near) plan.near.read = this._readIn(s, ctx);
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
    return plan.near || plan.far.length || plan.folders.length ? plan : null;
  }

  // Keys segment s has read in subtree ctx, over its pages since it entered it: what it has
  // shown of that subtree (keys read elsewhere before say nothing of it).
  _readIn(s, ctx) {
    const r = this.reads.get(s);
    if (r && r.sample === s.sample) return r.ctx === ctx ? r.keys : s.sample.n;
    const keys = r && r.ctx.startsWith(ctx) ? r.keys + s.sample.n : s.sample.n;
    this.reads.set(s, { sample: s.sample, ctx, keys });
    return keys;
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

  // Whether folders at f's depth have proved to be many: a listing that names one or two
  // costs a request for little (a deep tree of a few folders per level).
  _worthListing(f) {
    const d = this.fanout[depthOf(f)];
    return !d || d.listings < T.FOLDER_TRIAL_LISTINGS || d.found >= T.FOLDER_MIN_FANOUT * d.listings;
  }

  // Whether f has been listed (or is being listed) from at or before `after` as far as
  // `end`: a second listing would name the same folders.
  _listedAlready(f, after, end) {
    const l = this.listed.get(f);
    if (!l || compareKeys(l.after, after) > 0) return false;
    const need = end === null ? lastKeyWith(f) : minKey(end, lastKeyWith(f));
    return l.reach === null || compareKeys(l.reach, need) >= 0;
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
}

module.exports = { OnlinePlanner, PAGE, DELIMITER };
