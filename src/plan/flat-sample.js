'use strict';
// Estimating how many keys a range holds, and where its quantiles lie, from a few pages of
// it. The range is a list of intervals in key order, each read (a probe's page: what it
// holds is known exactly) or not yet (estimated). With a delimiter, a page lists folders as
// single entries: the caller weighs them (folders are planned on their own) and a folder's
// keys all lie inside its entry.
//
// An unread interval is estimated from the read intervals on either side: their entries
// per unit of width, times its width, times what an entry of theirs weighs (one for a key),
// widths as the key shape measures them within the prefix all of them share. Two shapes
// measure: the one fitted to the keys read (frac), and the broad one that lets every
// position take whatever its kind of character allows (a digit seen: all ten). Where the
// broad one finds much more room than the fitted one, the interval has not been explored:
// the fitted shape has not seen what lies there, so its estimate may be far too low.
//
// Each round probes the intervals that could hold the most, at most SAMPLE_SCOUTS each:
// - an unexplored one with scouts: past its first key, at the first position where it has
//   room, the next character and others spread over the room (as the lister's scouts do):
//   what lies between two regions of keys is found, one level of the key at a time;
// - an explored one near its quantiles by the fitted shape, or at its start when one page
//   probably reads all of it.
// Estimates only: the ranges cut from them are exact whatever the estimates say.
const { KeyShape } = require('./key-shape');
const { compareKeys, keyProblem, commonPrefix, lastKeyWith, prefixEnd } = require('../keys/order');
const { spread } = require('./spread');
const T = require('./tuning').values;

// Tuning (tuning.js): SAMPLE_EVERY-th keys of a page kept to place cuts (and the last);
// SAMPLE_SCOUTS scouts, SAMPLE_PROBES probes in one interval in a round.
const PAGE = 1000;
const RUNS = true; // fitted estimates count the digits of a varied number in full (KeyShape.frac runs)

const below = (a, b) => b === null || compareKeys(a, b) < 0;

class Interval {
  constructor(lo, hi) {
    this.lo = lo; // exclusive; '' is the start of the range
    this.hi = hi; // inclusive; null is the end of the range
    this.read = false;
    this.est = Infinity; // estimate (unread)
    this.room = Infinity; // what it could hold at most (unread)
    this.parts = []; // {c, lo, hi, a, b, est}: stretches estimated apart, a and b their ends in c's subtree
    this.middle = null; // the part between the neighbours' subtrees
  }
}

// A read interval: its keys (counted; every SAMPLE_EVERY-th kept with its rank, and the
// last) and its folders (each with the number of keys before it).
function readInterval(lo, hi, entries) {
  const iv = new Interval(lo, hi);
  iv.read = true;
  iv.keys = 0;
  iv.marks = []; // {rank, key} or {rank, folder}: rank counts keys up to it
  entries.forEach((e, j) => {
    if (e.folder !== undefined) { iv.marks.push({ rank: iv.keys, folder: e.folder }); return; }
    iv.keys++;
    if (iv.keys % T.SAMPLE_EVERY === 0 || j === entries.length - 1) iv.marks.push({ rank: iv.keys, key: e.key });
  });
  iv.folders = iv.marks.filter((m) => m.folder !== undefined).map((m) => m.folder);
  iv.entries = entries.length;
  iv.first = entries.length ? entries[0].key ?? entries[0].folder : null;
  iv.last = entries.length ? entries[entries.length - 1].key ?? entries[entries.length - 1].folder : null;
  return iv;
}

class FlatSample {
  /**
   * @param list async (prefix, startAfter, delimiter) => page ({items, prefixes, truncated}), counted by the caller
   * @param ctx the prefix every key of the range starts with
   * @param lo, hi the range (lo exclusive, '' for the start; hi inclusive, null for the end)
   * @param shape a KeyShape (shared, so what one range learns helps the others)
   * @param o {delimiter: list folders as entries, weigh(prefix): a folder's estimate}
   */
  constructor(list, ctx, lo = '', hi = null, shape = new KeyShape(), { delimiter, weigh } = {}) {
    this.list = list;
    this.ctx = ctx;
    this.shape = shape;
    this.delimiter = delimiter;
    this.weigh = weigh || (() => 0);
    this.intervals = [new Interval(lo, hi)];
    this.stale = true;
  }

  /** Starts from a page already read at the range's start (a folder's listing is one). */
  // What a page (probed at point p) teaches the shape: its keys, and what is missing
  // between each two of them (and after p, and after its last when nothing follows).
  _learn(page, p = '') {
    for (const item of page.items) this.shape.learn(item.Key);
    for (const f of page.prefixes || []) this.shape.learn(f, true);
    const names = this._entries(page).map((e) => e.key ?? e.folder);
    const from = this.ctx.length;
    let prev = p && p.startsWith(this.ctx) ? p : null;
    let probe = prev !== null;
    for (const k of names) { if (prev !== null && compareKeys(prev, k) < 0) this.shape.learnGap(prev, k, from, probe); prev = k; probe = false; }
    if (!page.truncated && prev !== null) this.shape.learnGap(prev, null, from, probe);
  }

  seed(page) {
    this._learn(page, this.intervals[0].lo);
    const [range] = this.intervals;
    this.intervals = [];
    this._apply(this.intervals, range, [[range.lo, page]]);
    this.stale = true;
    return this;
  }

  get done() { return this.intervals.every((iv) => iv.read); }
  get started() { return this.intervals.some((iv) => iv.read); }

  /** The folders its pages listed (delimiter). */
  get folders() { return this.intervals.flatMap((iv) => (iv.read ? iv.folders : [])); }

  /** Estimates are to be made again (what the folders weigh changed). */
  invalidate() { this.stale = true; }

  // Every interval's count (read) or estimate (unread), unread ones nothing can estimate
  // counting as the mean of those that can.
  _counts() {
    this._estimate();
    const finite = this.intervals.filter((iv) => !iv.read && Number.isFinite(iv.est));
    const mean = finite.length ? finite.reduce((s, iv) => s + iv.est, 0) / finite.length : 0;
    return this.intervals.map((iv) => (iv.read ? iv.keys + iv.folders.reduce((s, f) => s + this.weigh(f), 0) : Number.isFinite(iv.est) ? iv.est : mean));
  }

  get total() { return this._counts().reduce((a, b) => a + b, 0); }

  /** Whether every unread interval has an estimate. */
  get estimable() { this._estimate(); return this.intervals.every((iv) => iv.read || Number.isFinite(iv.est)); }

  /** Unread intervals with what a probe there could still teach (at most what they may hold). */
  open() {
    this._estimate();
    return this.intervals.filter((iv) => !iv.read).map((iv) => [iv, Math.max(iv.est, iv.room)]);
  }

  /** The largest of open() (how much probing here could still teach). */
  get uncertainty() { return this.open().reduce((m, [, u]) => Math.max(m, u), 0); }

  _estimate() {
    if (!this.stale) return;
    this.stale = false;
    this.intervals.forEach((iv, i) => { if (!iv.read) this._estimateOf(i); });
  }

  // What an entry of a read interval typically weighs: keys one, folders their estimate;
  // the mean of those within SAMPLE_OUTLIER times the median (one large folder among keys says
  // nothing about the keys next to it).
  _entryWeight(nb) {
    if (!nb.folders.length) return 1;
    const w = nb.folders.map((f) => this.weigh(f)).filter(Number.isFinite);
    const all = w.concat(new Array(nb.keys).fill(1)).sort((a, b) => a - b);
    if (!all.length) return 1;
    const median = all[all.length >> 1];
    const kept = all.filter((v) => v <= T.SAMPLE_OUTLIER * Math.max(1, median));
    return kept.reduce((a, b) => a + b, 0) / kept.length;
  }

  // Where a key lies in context c's subtree; '' is the range's start, null its end.
  _x(k, c, broad = false) {
    if (k === '') k = this.ctx;
    if (k === null) return c === this.ctx ? 1 : this.shape.frac(lastKeyWith(this.ctx), c, broad, RUNS);
    return this.shape.frac(k, c, broad, RUNS);
  }

  // Entries per unit of width of read interval nb in context c: between its first and last
  // entry, or over its bounds when it holds fewer than two (none: an empty stretch).
  _density(nb, c, broad = false) {
    if (nb.entries >= 2) {
      const w = this._x(nb.last, c, broad) - this._x(nb.first, c, broad);
      return w > 0 ? (nb.entries - 1) / w : null;
    }
    if (nb.hi === null) return nb.entries ? null : 0;
    const w = this._x(nb.hi, c, broad) - this._x(nb.lo, c, broad);
    return w > 0 ? nb.entries / w : nb.entries ? null : 0;
  }

  // Keys per unit of width of context c's subtree that read interval nb says its level of
  // c holds. Where nb's entries spread over c's folders or names, its density. Where they all
  // lie in one subtree P, deeper than the sibling slot Q of c that holds it (c plus one
  // character), they say how many keys P holds, and the key shape says how many subtrees
  // like P fit in Q. Its count is believed for numbers (it counts a varied number's digits in
  // full, and values lie between those read) but not for names: letters seen in other names
  // open every letter at each position, and a page of `assets_*` keys made `ass*` hold
  // billions (a separator's position, shared with other names' letters, is opened to every
  // letter too). So where a letter lies between Q and P, Q counts as holding what P holds,
  // its last digits still counted in full (L: P without them): what a name holds is what
  // was seen in one. The cost: names drawn at random are underestimated where a page lies
  // two characters or more below c (a million keys in one folder; docs/scale-out.md).
  _rate(nb, c) {
    const d = this._density(nb, c);
    if (d === null || nb.entries < 2) return d;
    const P = commonPrefix(nb.first, nb.last);
    if (P.length <= c.length + 1 || !P.startsWith(c)) return d;
    const q = c + String.fromCodePoint(P.codePointAt(c.length));
    const ext = P.slice(c.length);
    if (!/\p{L}/u.test(ext)) return d;
    const L = P.slice(0, c.length + ext.search(/[0-9]*$/));
    const slot = this._x(lastKeyWith(q), c) - this._x(q, c);
    const sub = this._x(lastKeyWith(L), c) - this._x(L, c);
    return slot > 0 && sub > 0 ? Math.min(d, (d * sub) / slot) : d;
  }

  // An unread interval's estimate, in parts: the stretch inside the subtree its left
  // neighbour's keys share (after them), the one inside its right neighbour's (before
  // them), each at that neighbour's density within that subtree; and the middle between,
  // where neither says much: at the mean of their densities, and what it could hold at
  // most (the larger density over its broad width) kept as its room.
  _estimateOf(i) {
    const iv = this.intervals[i];
    const L = i > 0 && this.intervals[i - 1].read ? this.intervals[i - 1] : null;
    const R = i + 1 < this.intervals.length && this.intervals[i + 1].read ? this.intervals[i + 1] : null;
    iv.parts = [];
    iv.middle = null;
    const run = (nb) => (nb && nb.entries >= 2 ? { nb, P: commonPrefix(nb.first, nb.last), w: this._entryWeight(nb) } : null);
    const rl = run(L), rr = run(R);
    let from = iv.lo, to = iv.hi; // the middle, once the neighbours' subtrees are taken off
    const inside = (r, a, b) => {
      // The other neighbour's density counts too where the stretch lies within its subtree as well.
      const within = (o, k) => o.P.length <= this.ctx.length || (k !== '' && k !== null && k.startsWith(o.P));
      const others = [rl, rr].filter((o) => o && o !== r && o.nb.first.startsWith(r.P) && o.nb.last.startsWith(r.P) && within(o, a) && within(o, b));
      const measure = (broad) => {
        const ds = [r, ...others].map((o) => this._density(o.nb, r.P, broad)).filter((d) => d !== null);
        if (!ds.length) return null;
        const d = ds.reduce((x, y) => x + y, 0) / ds.length;
        return Math.max(0, this._x(b, r.P, broad) - this._x(a, r.P, broad)) * d * r.w;
      };
      const est = measure(false);
      if (est === null) return;
      const room = measure(true);
      iv.parts.push({ c: r.P, lo: a, hi: b, a: this._x(a, r.P), b: this._x(b, r.P), est, room: room === null ? est : Math.max(est, room), ab: this._x(a, r.P, true), bb: this._x(b, r.P, true) });
    };
    if (rl && iv.lo !== '' && iv.lo.startsWith(rl.P) && rl.P.length > this.ctx.length) {
      const end = lastKeyWith(rl.P);
      const b = iv.hi === null || compareKeys(end, iv.hi) < 0 ? end : iv.hi;
      inside(rl, iv.lo, b);
      from = b;
    } else if (rl && rl.P.length <= this.ctx.length) {
      inside(rl, iv.lo, iv.hi);
      from = iv.hi;
    }
    if (rr && from !== iv.hi && iv.hi !== null && iv.hi.startsWith(rr.P) && rr.P.length > this.ctx.length) {
      const a = from === '' || compareKeys(rr.P, from) > 0 ? rr.P : from;
      inside(rr, a, iv.hi);
      to = a;
    } else if (rr && from !== iv.hi && rr.P.length <= this.ctx.length) {
      inside(rr, from, iv.hi);
      to = from;
    }
    if (from !== to && (to === null || from === '' || compareKeys(from, to) < 0)) {
      const nbs = [L, R].filter(Boolean);
      const ends = [from === '' ? this.ctx : from, to === null ? this.ctx : to];
      for (const nb of nbs) if (nb.entries) ends.push(nb.first, nb.last);
      const c = ends.reduce((a, b) => commonPrefix(a, b));
      const weight = nbs.length ? nbs.reduce((s, nb) => s + this._entryWeight(nb), 0) / nbs.length : 1;
      // An empty neighbour says where keys are not, not how dense they are next to it.
      const full = nbs.filter((nb) => nb.entries > 0);
      const measure = (broad) => {
        const ds = full.map((nb) => (broad ? this._density(nb, c, true) : this._rate(nb, c))).filter((d) => d !== null);
        const w = Math.max(0, this._x(to, c, broad) - this._x(from, c, broad));
        if (!ds.length) return { est: nbs.length ? 0 : Infinity, room: Infinity, w };
        const mean = ds.reduce((a, b) => a + b, 0) / ds.length;
        const split = ds.length < 2 || Math.max(...ds) > T.SAMPLE_DENSITY_SPLIT * Math.min(...ds);
        return { est: w * mean * weight, room: w * Math.max(...ds) * weight, w, split };
      };
      const fit = measure(false), broad = measure(true);
      iv.middle = { c, lo: from, hi: to, a: this._x(from, c), b: this._x(to, c), est: fit.est, room: Math.max(fit.room, broad.room), run: rl, split: fit.split, ab: this._x(from, c, true), bb: this._x(to, c, true) };
      iv.parts.push(iv.middle);
      iv.parts.sort((p, q) => (p.lo === '' ? -1 : q.lo === '' ? 1 : compareKeys(p.lo, q.lo)));
    }
    iv.est = iv.parts.reduce((s, p) => s + p.est, 0);
    iv.room = iv.parts.reduce((s, p) => s + p.room, 0);
  }

  // Whether the interval could hold much more than its estimate says.
  _unexplored(iv) { return !Number.isFinite(iv.est) || iv.room > T.SAMPLE_UNEXPLORED * iv.est + T.SAMPLE_UNEXPLORED_PAGES * PAGE; }

  /** Up to k probe points inside unread interval iv, sorted. */
  points(iv, k) {
    this._estimate();
    if (iv.lo === '' || !this.started) return [iv.lo];
    const worth = Math.max(iv.est, iv.room);
    if (Number.isFinite(worth) && worth <= T.SAMPLE_ONE_PAGE * PAGE) return [iv.lo];
    k = Math.min(k, this._unexplored(iv) ? T.SAMPLE_SCOUTS : T.SAMPLE_PROBES);
    const out = new Set();
    const add = (p) => {
      if (p === null || out.size >= k) return;
      // With a delimiter, a probe inside a folder would list the folder before it: probe
      // just before the folder instead (its entry comes first in the page).
      const d = this.delimiter ? p.indexOf(this.delimiter, this.ctx.length) : -1;
      if (d >= 0) p = p.slice(0, d);
      if (keyProblem(p) || compareKeys(p, iv.lo) <= 0 || !below(p, iv.hi)) return;
      out.add(p);
    };
    // First, where the keys end somewhere in it, what follows the left neighbour's last
    // key: a gap smaller than its estimate (a folder a little over a page; the shape may
    // have learnt its positions elsewhere) is read to its end at once.
    const m = iv.middle;
    const left = this.intervals[this.intervals.indexOf(iv) - 1];
    const right = this.intervals[this.intervals.indexOf(iv) + 1];
    const ends = !right || (right.read && right.entries === 0);
    if (ends && left && left.read && left.keys > 0) out.add(iv.lo);
    // Where the neighbours disagree, what follows the left one's subtree: the end of a
    // region is found at once where the key shape would take many halvings (between two
    // names its positions are shared with others).
    if (m && m.run && (m.split || this._unexplored(iv))) add(prefixEnd(m.run.P));
    if (this._unexplored(iv)) for (const p of this._scouts(iv, T.SAMPLE_SCOUTS)) add(p);
    // The rest near the quantiles of the estimate; of what it could hold where that is
    // much more (spread over the room the fitted shape has not seen).
    const broad = this._unexplored(iv);
    const finite = iv.parts.filter((p) => Number.isFinite(broad ? p.room : p.est));
    const total = finite.reduce((s, p) => s + (broad ? p.room : p.est), 0);
    const more = k - out.size;
    for (let j = 1; j <= more && total > 0; j++) add(this._place(finite, (total * j) / (more + 1), iv, broad));
    if (!out.size) out.add(iv.lo);
    return [...out].sort(compareKeys);
  }

  // The key at `need` keys into an unread interval's parts.
  // broad: by what the parts could hold, over their broad widths.
  _place(parts, need, iv, broad = false) {
    let cum = 0;
    for (const p of parts) {
      const est = broad ? p.room : p.est;
      if (cum + est < need && p !== parts[parts.length - 1]) { cum += est; continue; }
      const t = est > 0 ? Math.min(1, Math.max(0, (need - cum) / est)) : 0;
      const k = broad ? this.shape.keyAt(p.c, p.ab + t * (p.bb - p.ab), iv.lo || this.ctx, iv.hi, true)
        : this.shape.keyAt(p.c, p.a + t * (p.b - p.a), iv.lo || this.ctx, iv.hi, false, RUNS);
      return k && !keyProblem(k) ? k : null;
    }
    return null;
  }

  // Scouts past an unexplored interval's first key: at the first position (from where its
  // bounds part) where the broad shape allows characters the fitted one does not, the next
  // character, then the others spread over the room.
  _scouts(iv, k) {
    const lo = iv.lo;
    const from = iv.hi === null ? this.ctx.length : Math.max(this.ctx.length, commonPrefix(lo, iv.hi).length);
    const levels = []; // [head, next, room] of each position with room, shallowest first
    for (let j = from; j < lo.length; j += lo.codePointAt(j) > 0xffff ? 2 : 1) {
      const cp = lo.codePointAt(j);
      const broad = this.shape.charsAt(lo, j, true, this.ctx.length) || [];
      const fitted = new Set(this.shape.charsAt(lo, j, false) || []);
      const head = lo.slice(0, j);
      const room = broad.filter((c) => c > cp && !fitted.has(c)).map((c) => head + String.fromCodePoint(c)).filter((p) => below(p, iv.hi));
      if (!room.length) continue;
      const next = head + String.fromCodePoint(cp + 1 === 0xd800 ? 0xe000 : cp + 1);
      levels.push([next, room]);
    }
    if (!levels.length) return [];
    // The next sibling at each level, from both ends: the shallowest holds the most room,
    // the deepest is likeliest to vary (it lies just above where the keys read vary, while
    // a name's first letters are often fixed); then the room of those two spread.
    const out = [];
    const push = (p) => { if (out.length < k && below(p, iv.hi) && !out.includes(p)) out.push(p); };
    for (let a = levels.length - 1, b = 0; a >= b; a--, b++) { push(levels[a][0]); push(levels[b][0]); }
    const deep = spread(levels[levels.length - 1][1]), top = spread(levels[0][1]);
    for (let j = 0; j < Math.max(deep.length, top.length); j++) { if (j < deep.length) push(deep[j]); if (j < top.length) push(top[j]); }
    return out;
  }


  /** Reads the pages of probes [interval, point] and puts what they showed in place of their intervals. */
  async probe(chosen) {
    if (!chosen.length) return;
    const pages = await Promise.all(chosen.map(([, p]) => this.list(this.ctx, p, this.delimiter)));
    pages.forEach((page, j) => this._learn(page, chosen[j][1]));
    const byInterval = new Map();
    chosen.forEach(([iv, p], j) => { if (!byInterval.has(iv)) byInterval.set(iv, []); byInterval.get(iv).push([p, pages[j]]); });
    const next = [];
    for (const iv of this.intervals) {
      const probes = byInterval.get(iv);
      if (!probes) next.push(iv); else this._apply(next, iv, probes.sort((a, b) => compareKeys(a[0], b[0])));
    }
    this.intervals = next.filter((iv) => iv.read || iv.hi === null || iv.lo === '' || compareKeys(iv.lo, iv.hi) < 0);
    this.stale = true;
  }

  // A page's entries in key order: its keys, and its folders (delimiter).
  _entries(page) {
    const keys = page.items.map((it) => ({ key: it.Key })).filter((e) => e.key.startsWith(this.ctx));
    const folders = (page.prefixes || []).map((p) => ({ folder: p }));
    if (!folders.length) return keys;
    return keys.concat(folders).sort((a, b) => compareKeys(a.key ?? a.folder, b.key ?? b.folder));
  }

  // What the pages of probes [point, page] inside interval iv showed, appended to next.
  _apply(next, iv, probes) {
    let lo = iv.lo;
    probes.forEach(([p, page], j) => {
      const bound = j + 1 < probes.length ? probes[j + 1][0] : iv.hi;
      if (p !== lo && (lo === '' || compareKeys(p, lo) > 0)) next.push(new Interval(lo, p));
      const entries = [];
      let beyond = false;
      for (const e of this._entries(page)) {
        const k = e.key ?? e.folder;
        if (p && compareKeys(k, p) <= 0) continue;
        if (!(bound === null || compareKeys(k, bound) <= 0)) { beyond = true; break; }
        entries.push(e);
      }
      if (beyond || !page.truncated || !entries.length) { next.push(readInterval(p, bound, entries)); lo = bound; return; }
      // A page that ends on a folder has read all of it.
      const last = entries[entries.length - 1];
      const end = last.folder !== undefined ? lastKeyWith(last.folder) : last.key;
      const stop = bound === null || compareKeys(end, bound) < 0 ? end : bound;
      next.push(readInterval(p, stop, entries));
      lo = stop;
    });
    if (lo !== iv.hi && (iv.hi === null || compareKeys(lo, iv.hi) < 0)) next.push(new Interval(lo, iv.hi));
  }

  /**
   * The key near rank `need` of the range (by the estimates), or null where none can be
   * named. A rank inside a folder's entry is placed by inside(prefix, rank) (a key, or null
   * for the folder's nearer edge).
   */
  keyAtRank(need, inside = () => null) {
    const counts = this._counts();
    let cum = 0;
    for (let i = 0; i < this.intervals.length; i++) {
      const iv = this.intervals[i], est = counts[i];
      if (cum + est < need) { cum += est; continue; }
      const rest = need - cum;
      if (iv.read) return this._inRead(iv, rest, inside);
      const parts = iv.parts.filter((p) => Number.isFinite(p.est));
      const total = parts.reduce((s, p) => s + p.est, 0);
      const k = parts.length ? this._place(parts, total > 0 ? (rest / est) * total : 0, iv) : null;
      return k || iv.lo || null;
    }
    return null;
  }

  // The key near rank `rest` of a read interval: a kept key, or in or at the edge of a folder.
  _inRead(iv, rest, inside) {
    let cum = 0, keysBefore = 0;
    for (const m of iv.marks) {
      if (m.key !== undefined) {
        cum += m.rank - keysBefore;
        keysBefore = m.rank;
        if (cum >= rest) return m.key;
        continue;
      }
      cum += m.rank - keysBefore;
      keysBefore = m.rank;
      const w = this.weigh(m.folder);
      const size = Number.isFinite(w) ? w : 0;
      if (cum + size < rest) { cum += size; continue; }
      const k = inside(m.folder, rest - cum);
      if (k) return k;
      return rest - cum < size / 2 ? m.folder : lastKeyWith(m.folder);
    }
    return iv.last === null ? iv.lo || null : iv.marks.length ? (iv.marks[iv.marks.length - 1].key ?? lastKeyWith(iv.marks[iv.marks.length - 1].folder)) : iv.lo || null;
  }
}

module.exports = { FlatSample, PAGE };
