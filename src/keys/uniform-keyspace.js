'use strict';
// A key-space model that spreads keys evenly over every character seen anywhere, used
// to extrapolate past the keys seen so far (the tail of a listing), where a model of
// seen positions alone would think nothing lies beyond them.

const { compareKeys, keyBytes, MAX_KEY_BYTES } = require('./order');

const MAX_ALPHABET = 4096;

class UniformKeySpace {
  constructor() {
    this.alpha = []; // sorted distinct code points
  }

  learn(key) {
    if (this.alpha.length >= MAX_ALPHABET) return;
    for (const ch of key) {
      const cp = ch.codePointAt(0);
      const i = this._index(cp);
      if (this.alpha[i] !== cp) this.alpha.splice(i, 0, cp);
    }
  }

  _index(cp) {
    const a = this.alpha;
    let lo = 0, hi = a.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < cp) lo = m + 1; else hi = m; }
    return lo;
  }

  // Digits 1..N for known characters, halfway between for unknown ones; 0 = key ends.
  _digit(cp) {
    const i = this._index(cp);
    return this.alpha[i] === cp ? i + 1 : i + 0.5;
  }

  get base() { return this.alpha.length + 2; }

  get depth() { return Math.max(2, Math.floor(48 / Math.log2(this.base))); }

  frac(key, context) {
    if (key === null) return 1;
    if (!key.startsWith(context)) return compareKeys(key, context) < 0 ? 0 : 1;
    const B = this.base;
    let f = 0, scale = 1, i = context.length;
    for (let d = 0; d < this.depth && i < key.length; d++) {
      const cp = key.codePointAt(i);
      i += cp > 0xffff ? 2 : 1;
      scale /= B;
      f += this._digit(cp) * scale;
    }
    return f;
  }

  keyAt(context, f, lo, hi) {
    const B = this.base, N = this.alpha.length;
    if (N === 0 || !(f > 0 && f < 1)) return null;
    let s = context;
    for (let d = 0; d < this.depth; d++) {
      f *= B;
      const digit = Math.floor(f);
      f -= digit;
      if (digit === 0) break;
      let cp;
      if (digit <= N) cp = this.alpha[digit - 1];
      else {
        cp = Math.min(this.alpha[N - 1] + 1, 0x10ffff);
        if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xe000;
      }
      s += String.fromCodePoint(cp);
      if (compareKeys(s, lo) > 0 && (hi === null || compareKeys(s, hi) < 0) && f < 1e-6) break;
    }
    if (compareKeys(s, lo) <= 0) return null;
    if (hi !== null && compareKeys(s, hi) >= 0) return null;
    if (keyBytes(s) > MAX_KEY_BYTES) return null;
    return s;
  }
}

module.exports = { UniformKeySpace };
