'use strict';
// Estimating how many keys a range holds, and where its quantiles lie, from a few pages of
// it, for ranges whose keys have no folders to go by (or too many to walk). The range is a
// list of intervals in key order, each read (a probe's page: its count is exact) or not yet
// (estimated). Each round probes:
// - past the last key of a page, a scout at the first position where that key and the
//   unread interval's end part ways, just after the key's character there (as the lister's
//   scouts do): what lies between two regions of keys is found, one level of the key at a
//   time, not guessed (a key shape has not seen what no page has shown yet);
// - the unread intervals with the largest estimates, at their start, or near their middle
//   where the key shape can name a key there.
// An unread interval between read ones is estimated at their density over its width, both
// as the key shape measures them within the folder the neighbours share.
// Estimates only: the ranges cut from them are exact whatever the estimates say.
const { KeyShape } = require('../keys/key-shape');
const { compareKeys, keyProblem, commonPrefix } = require('../keys/order');

const SAMPLE_EVERY = 10; // keys of a page kept to place cuts (and the last)
const SCOUTS = 3; // scouts past one page's last key in a round

// The folder a prefix lies in (the key shape's model is one of folders), never above ctx.
const folderOf = (p, ctx) => (p.length <= ctx.length ? ctx : p.slice(0, Math.max(ctx.length, p.lastIndexOf('/') + 1)));
const below = (a, b) => b === null || compareKeys(a, b) < 0;

class Interval {
  constructor(lo, hi, read = false, count = 0, sample = null, first = null) {
    this.lo = lo; // exclusive; '' is the start of the range
    this.hi = hi; // inclusive; null is the end of the range
    this.read = read;
    this.count = count; // exact when read
    this.sample = sample; // read: [rank, key] for every SAMPLE_EVERY-th key and the last
    this.first = first; // read: its first key
    this.estimate = read ? count : Infinity;
  }
}

class FlatSample {
  /**
   * @param list async (prefix, startAfter) => page ({items, truncated}), counted by the caller
   * @param ctx the prefix every key of the range starts with
   * @param lo, hi the range (lo exclusive, '' for the start; hi inclusive, null for the end)
   * @param shape a KeyShape (shared, so what one range learns helps the others)
   */
  constructor(list, ctx, lo = '', hi = null, shape = new KeyShape()) {
    this.list = list;
    this.ctx = ctx;
    this.shape = shape;
    this.intervals = [new Interval(lo, hi)];
  }

  /** Starts from a page already read at the range's start (a folder listing of a flat folder is one). */
  seed(page) {
    for (const item of page.items) this.shape.learn(item.Key);
    this.intervals = [];
    this._apply(this.intervals, { lo: '', hi: null }, [['', page]]);
    this.seeded = true;
    return this;
  }

  get done() { return this.intervals.every((iv) => iv.read); }

  get total() {
    this._estimate();
    const finite = this.intervals.filter((iv) => Number.isFinite(iv.estimate));
    const mean = finite.length ? finite.reduce((s, iv) => s + iv.estimate, 0) / finite.length : 0;
    return this.intervals.reduce((s, iv) => s + (Number.isFinite(iv.estimate) ? iv.estimate : mean), 0);
  }

  // The largest estimate of an unread interval (how much a probe here could still teach).
  // Past a single page nothing is known yet of how far the keys reach: that counts as
  // unknown until scouts have looked.
  get uncertainty() {
    this._estimate();
    if (this.intervals.length <= 2 && !this.done) return Infinity;
    return this.intervals.reduce((m, iv) => (iv.read ? m : Math.max(m, iv.estimate)), 0);
  }

  _estimate() { this.intervals.forEach((iv, i) => { if (!iv.read) iv.estimate = this._estimateOf(i); }); }

  _estimateOf(i) {
    const iv = this.intervals[i];
    const nbs = [this.intervals[i - 1], this.intervals[i + 1]].filter((nb) => nb && nb.read && nb.count > 1);
    if (!nbs.length) return Infinity;
    const last = (nb) => nb.sample[nb.sample.length - 1][1];
    const context = folderOf(nbs.flatMap((nb) => [nb.first, last(nb)]).reduce((c, k) => commonPrefix(c, k)), this.ctx);
    const x = (k) => (k === null ? 1 : this.shape.frac(k || this.ctx, context));
    const densities = nbs.map((nb) => { const w = x(last(nb)) - x(nb.first); return w > 0 ? (nb.count - 1) / w : null; }).filter((d) => d !== null);
    if (!densities.length) return Infinity;
    return (densities.reduce((a, b) => a + b, 0) / densities.length) * Math.max(0, x(iv.hi) - x(iv.lo));
  }

  /** The probe points of one round, at most max: [interval, point]. */
  choose(max) {
    this._estimate();
    const picks = new Map();
    let left = max;
    const add = (iv, p) => {
      if (left <= 0 || (p !== '' && keyProblem(p)) || (iv.lo && compareKeys(p, iv.lo) < 0) || (p !== '' && !below(p, iv.hi))) return;
      const list = picks.get(iv) || [];
      if (list.includes(p)) return;
      list.push(p);
      picks.set(iv, list);
      left--;
    };
    const unread = this.intervals.map((iv, i) => [iv, i]).filter(([iv]) => !iv.read);
    unread.sort((a, b) => (b[0].estimate - a[0].estimate) || (a[1] - b[1]));
    for (const [iv, i] of unread) {
      const prev = this.intervals[i - 1];
      if (!prev || !prev.read || !prev.count) continue;
      // The first position where the interval's ends part ways; scouts there: the next
      // character, then others the key shape takes there, spread over its alphabet.
      const from = this.ctx.length + (iv.hi === null ? 0 : commonPrefix(iv.lo, iv.hi).length - this.ctx.length);
      for (let j = from; j < iv.lo.length; j += iv.lo.codePointAt(j) > 0xffff ? 2 : 1) {
        const scouts = this.shape.siblings(iv.lo, j).map((cp) => iv.lo.slice(0, j) + String.fromCodePoint(cp)).filter((k) => below(k, iv.hi));
        if (!scouts.length) continue;
        for (const k of scouts.slice(0, SCOUTS)) add(iv, k);
        break;
      }
    }
    for (const [iv, i] of unread) {
      if (picks.has(iv)) continue;
      const prev = this.intervals[i - 1];
      let p = iv.lo;
      if (prev && prev.read && iv.estimate >= 2000) {
        const context = folderOf(iv.hi === null ? commonPrefix(prev.first, iv.lo) : commonPrefix(iv.lo, iv.hi), this.ctx);
        const mid = this.shape.keyAt(context, (this.shape.frac(iv.lo, context) + (iv.hi === null ? 1 : this.shape.frac(iv.hi, context))) / 2, iv.lo, iv.hi);
        if (mid) p = mid;
      }
      add(iv, p);
    }
    const out = [];
    for (const [iv, points] of picks) for (const p of points.sort(compareKeys)) out.push([iv, p]);
    return out;
  }

  /** Reads the pages of chosen probes and puts what they showed in place of their intervals. */
  async probe(chosen) {
    const pages = await Promise.all(chosen.map(([, p]) => this.list(this.ctx, p)));
    for (const page of pages) for (const item of page.items) this.shape.learn(item.Key);
    const byInterval = new Map();
    chosen.forEach(([iv, p], j) => { if (!byInterval.has(iv)) byInterval.set(iv, []); byInterval.get(iv).push([p, pages[j]]); });
    const next = [];
    for (const iv of this.intervals) {
      const probes = byInterval.get(iv);
      if (!probes) next.push(iv); else this._apply(next, iv, probes);
    }
    this.intervals = next.filter((iv) => iv.read || iv.hi === null || iv.lo === '' || compareKeys(iv.lo, iv.hi) < 0);
  }

  // What the pages of probes [point, page] inside interval iv showed, appended to next.
  _apply(next, iv, probes) {
    {
      let lo = iv.lo;
      probes.forEach(([p, page], j) => {
        const bound = j + 1 < probes.length ? probes[j + 1][0] : iv.hi;
        if (p !== lo && (lo === '' || compareKeys(p, lo) > 0)) next.push(new Interval(lo, p));
        const keys = [];
        let beyond = false;
        for (const item of page.items) {
          if (p && compareKeys(item.Key, p) <= 0) continue;
          if (!(bound === null || compareKeys(item.Key, bound) <= 0)) { beyond = true; break; }
          keys.push(item.Key);
        }
        const sample = [];
        keys.forEach((k, r) => { if (r % SAMPLE_EVERY === SAMPLE_EVERY - 1 || r === keys.length - 1) sample.push([r + 1, k]); });
        if (beyond || !page.truncated) { next.push(new Interval(p, bound, true, keys.length, sample, keys[0])); lo = bound; }
        else { const lastKey = keys[keys.length - 1]; next.push(new Interval(p, lastKey, true, keys.length, sample, keys[0])); lo = lastKey; }
      });
      if (lo !== iv.hi && (iv.hi === null || compareKeys(lo, iv.hi) < 0)) next.push(new Interval(lo, iv.hi));
    }
  }

  /** The key near rank `need` of the range (by the estimates), or null where none can be named. */
  keyAtRank(need) {
    this._estimate();
    let cum = 0;
    for (const iv of this.intervals) {
      const est = Number.isFinite(iv.estimate) ? iv.estimate : 0;
      if (cum + est < need) { cum += est; continue; }
      const rest = need - cum;
      if (iv.read) {
        const s = iv.sample.find(([rank]) => rank >= rest) || iv.sample[iv.sample.length - 1];
        return s ? s[1] : iv.lo || null;
      }
      const context = folderOf(iv.hi === null ? this.ctx : commonPrefix(iv.lo || this.ctx, iv.hi), this.ctx);
      const a = this.shape.frac(iv.lo || this.ctx, context), b = iv.hi === null ? 1 : this.shape.frac(iv.hi, context);
      const k = this.shape.keyAt(context, a + (est > 0 ? rest / est : 0) * (b - a), iv.lo || this.ctx, iv.hi);
      return k && !keyProblem(k) ? k : iv.lo || null;
    }
    return null;
  }
}

module.exports = { FlatSample, folderOf };
