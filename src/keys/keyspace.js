'use strict';
// A learned model of where keys lie, used only to guess where to split a key range.
// For each character offset it counts the characters seen there in sampled keys and
// treats a key as an arithmetic code: frac(key) is roughly the share of keys below it.
// Split points then land among characters real keys use at that position (month
// digits 01..12, hex digits, host names), not in empty stretches of the Unicode range.
// Guesses may be wrong; correctness never depends on them.

const { compareKeys, keyBytes, MAX_KEY_BYTES } = require('./order');

const MAX_OFFSET = 1100; // UTF-16 offsets: a 1024-byte key has at most 1024 units
const MAX_CHARS_PER_OFFSET = 512;
const ENDS = -1; // "the key ends here": sorts before every character
const PSEUDO_COUNT = 0.5;
const MAX_ALPHABET = 4096;

class Position {
  constructor() {
    this.counts = new Map(); // code point (or ENDS) -> count
    this.table = null; // sorted [cp, lower, width] rows, built on demand
  }

  add(cp) {
    const c = this.counts.get(cp);
    if (c !== undefined) this.counts.set(cp, c + 1);
    else if (this.counts.size < MAX_CHARS_PER_OFFSET) this.counts.set(cp, 1);
    else return;
    this.table = null;
  }

  // Every character seen anywhere keeps a little mass here (a pseudo-count), so ranges
  // never sampled at this position are not taken for empty.
  build(space) {
    if (this.table && this.version === space.version) return this.table;
    this.version = space.version;
    const CAP = Number(process.env.CAP || Infinity);
    const merged = new Map();
    for (const [cp, n] of this.counts) merged.set(cp, Math.min(n, CAP));
    for (const cp of space.alphabet) merged.set(cp, (merged.get(cp) || 0) + PSEUDO_COUNT);
    const rows = [...merged.entries()].sort((a, b) => a[0] - b[0]);
    let total = 0;
    for (const [, n] of rows) total += n;
    let acc = 0;
    const cps = new Float64Array(rows.length), lower = new Float64Array(rows.length), width = new Float64Array(rows.length);
    rows.forEach(([cp, n], i) => { cps[i] = cp; lower[i] = acc / total; width[i] = n / total; acc += n; });
    this.table = { cps, lower, width };
    return this.table;
  }

  // [lower, width] of cp's interval; unknown characters get a zero-width interval.
  locate(cp, space) {
    const { cps, lower, width } = this.build(space);
    let lo = 0, hi = cps.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (cps[m] < cp) lo = m + 1; else hi = m; }
    if (lo < cps.length && cps[lo] === cp) return [lower[lo], width[lo]];
    return [lo < cps.length ? lower[lo] : 1, 0];
  }

  // The character whose interval holds f.
  pick(f, space) {
    const { cps, lower, width } = this.build(space);
    let lo = 0, hi = cps.length - 1;
    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (lower[m] <= f) lo = m; else hi = m - 1; }
    return { cp: cps[lo], lower: lower[lo], width: width[lo] };
  }
}

class KeySpace {
  constructor() {
    this.positions = [];
    this.alphabet = new Set();
    this.version = 0;
  }

  learn(key) {
    let i = 0;
    while (i < key.length && i < MAX_OFFSET) {
      const cp = key.codePointAt(i);
      if (!this.alphabet.has(cp) && this.alphabet.size < MAX_ALPHABET) { this.alphabet.add(cp); this.version++; }
      this._at(i).add(cp);
      i += cp > 0xffff ? 2 : 1;
    }
    if (i < MAX_OFFSET) this._at(i).add(ENDS);
  }

  _at(i) {
    let p = this.positions[i];
    if (!p) { p = new Position(); this.positions[i] = p; }
    return p;
  }

  // Share of context's subtree that sorts below key; 0 before it, 1 after it.
  frac(key, context) {
    if (key === null) return 1;
    if (!key.startsWith(context)) return compareKeys(key, context) < 0 ? 0 : 1;
    let f = 0, scale = 1;
    let i = context.length;
    while (scale > 1e-15) {
      const p = this.positions[i];
      if (!p || p.counts.size === 0) break; // nothing learned this deep: stop refining
      const cp = i < key.length ? key.codePointAt(i) : ENDS;
      const [lower, width] = p.locate(cp, this);
      f += lower * scale;
      scale *= width;
      if (cp === ENDS || width === 0) break;
      i += cp > 0xffff ? 2 : 1;
    }
    return f;
  }

  // A key near fraction f of context's subtree, strictly between lo and hi (hi null
  // means unbounded), or null when the model cannot name one.
  keyAt(context, f, lo, hi) {
    if (!(f > 0 && f < 1)) return null;
    let s = context;
    let i = context.length;
    for (let steps = 0; steps < 64; steps++) {
      const p = this.positions[i];
      if (!p || p.counts.size === 0) break;
      const { cp, lower, width } = p.pick(f, this);
      if (cp === ENDS) break;
      s += String.fromCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
      if (compareKeys(s, lo) > 0 && (hi === null || compareKeys(s, hi) < 0) && width > 0) {
        f = (f - lower) / width;
        if (f < 1e-6) break; // close enough to this character's start
      } else if (width > 0) f = (f - lower) / width;
      else break;
    }
    if (compareKeys(s, lo) <= 0) return null;
    if (hi !== null && compareKeys(s, hi) >= 0) return null;
    if (keyBytes(s) > MAX_KEY_BYTES) return null;
    return s;
  }
}

module.exports = { KeySpace };
