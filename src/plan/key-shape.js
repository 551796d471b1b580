'use strict';
// What keys look like, position by position: where sibling subtrees may begin, and where a
// given share of a subtree's keys lies. A position is a character's place in its folder
// name (which '/'-separated segment, and where in it), so that
// 'logs/2024/01/02/host-3/part-7.gz' and 'logs/2025/11/30/host-12/…' line up. For each
// position: the characters sampled keys have there, and which characters probes found no
// sibling for. Guesses only: correctness never depends on them.

const { compareKeys, keyBytes, MAX_KEY_BYTES } = require('../keys/order');
const { spread } = require('./spread');
const T = require('./tuning').values;

// Positions are slots: (area x SHAPE_MAX_LEVELS + level) x SHAPE_MAX_OFFSET + offset.
// Past SHAPE_MAX_CHARS characters a position takes any character seen anywhere. A character
// probed SHAPE_MISSES times at a position without finding a sibling is not guessed there
// again. SHAPE_BROAD_RUN: constant positions before a varying one that may vary too
// (broad); SHAPE_GAP_DEPTH: positions past where two keys part that learnGap counts misses at.
const ENDS = -1; // the key ends here: before every character (a sentinel, not a tuning number)

function isDigit(cp) { return cp >= 0x30 && cp <= 0x39; }
function isLower(cp) { return cp >= 0x61 && cp <= 0x7a; }
function isUpper(cp) { return cp >= 0x41 && cp <= 0x5a; }

function insertSorted(arr, v) {
  let lo = 0, hi = arr.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] < v) lo = m + 1; else hi = m; }
  if (arr[lo] !== v) arr.splice(lo, 0, v);
  return lo;
}

// Index of the first element >= v.
function lowerBound(arr, v) {
  let lo = 0, hi = arr.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] < v) lo = m + 1; else hi = m; }
  return lo;
}

class Slot {
  constructor() {
    this.chars = []; // sorted code points seen here (ENDS when a key ended here)
    this.wide = false; // too many to keep: any character seen anywhere
    this.misses = new Map(); // code point -> probes that found no sibling with it here
    this.version = 0; // changes with chars and misses
    this.cache = null; // {version, alphaLength, chars}: what alphabet() made of them
  }
}

// Walks a key's positions: the slot of each character, incrementally. Keys under different
// top-level folders ('images/ab/…' and 'logs/2024/…') are areas of their own: a character's
// place in 'logs/…' says nothing about 'images/…'.
class Cursor {
  constructor(shape, key, from) {
    this.shape = shape;
    this.key = key;
    this.seg = 0;
    this.start = 0;
    this.area = 0;
    for (let j = key.indexOf('/'); j >= 0 && j < from; j = key.indexOf('/', j + 1)) this.step(j, 0x2f);
  }

  slotAt(i) {
    const off = i - this.start;
    return this.seg < T.SHAPE_MAX_LEVELS && off < T.SHAPE_MAX_OFFSET ? (this.area * T.SHAPE_MAX_LEVELS + this.seg) * T.SHAPE_MAX_OFFSET + off : -1;
  }

  step(i, cp) {
    if (cp !== 0x2f) return;
    if (this.seg === 0) this.area = this.shape._area(this.key.slice(0, i));
    this.seg++;
    this.start = i + 1;
  }
}

class KeyShape {
  // prior: a shape of more keys (the whole bucket's, when this one learns one folder's):
  // where this one has seen a position take one character or none, it goes by the prior's.
  constructor(prior = null) {
    this.prior = prior;
    this.areas = prior ? prior.areas : new Map(); // top-level folder name -> its number (1...); 0: flat keys, and past SHAPE_MAX_AREAS
    this.slots = new Map();
    this.alpha = prior ? prior.alpha : []; // every code point seen, sorted
    this.learned = 0; // keys learnt (what caches of the whole shape go by)
    this.views = new Map(); // id -> what this shape and its prior know of a position together
  }

  // The slot a position is judged by: this shape's where it saw the position vary, else
  // the prior's with this shape's characters added.
  _view(id) {
    const own = this.slots.get(id);
    if (!this.prior || this._varying(own)) return own;
    const other = this.prior._view(id);
    if (!other) return own;
    if (!own) return other;
    let v = this.views.get(id);
    const version = own.version * 1e6 + other.version;
    if (!v || v.source !== version || v.wide !== other.wide) {
      v = new Slot();
      v.source = version;
      v.wide = other.wide;
      v.chars = other.wide ? [] : [...new Set([...own.chars, ...other.chars])].sort((a, b) => a - b);
      v.version = version;
      this.views.set(id, v);
    }
    return v;
  }

  _area(name) {
    let a = this.areas.get(name);
    if (a === undefined) {
      if (this.areas.size >= T.SHAPE_MAX_AREAS) return 0;
      a = this.areas.size + 1;
      this.areas.set(name, a);
    }
    return a;
  }

  _slot(id, make) {
    let s = this.slots.get(id);
    if (!s && make && id >= 0) { s = new Slot(); this.slots.set(id, s); }
    return s;
  }

  // folder: key is a folder's name (a delimiter listing's prefix), not a key: no key ends there.
  learn(key, folder = false) {
    this.learned++;
    const c = new Cursor(this, key, 0);
    let i = 0;
    for (; i < key.length; i++) {
      const cp = key.codePointAt(i);
      const slot = this._slot(c.slotAt(i), true);
      if (slot && !slot.wide) {
        const n = slot.chars.length;
        insertSorted(slot.chars, cp);
        if (slot.chars.length !== n) slot.version++;
        if (slot.chars.length > T.SHAPE_MAX_CHARS) { slot.wide = true; slot.chars = []; }
      }
      if (this.alpha.length < T.SHAPE_MAX_ALPHABET) insertSorted(this.alpha, cp);
      c.step(i, cp);
      if (cp > 0xffff) i++;
    }
    const end = folder ? null : this._slot(c.slotAt(i), true);
    if (end && !end.wide) {
      if (end.chars[0] !== ENDS) { end.chars.unshift(ENDS); end.version++; }
    }
  }

  // The characters a position takes, sorted (ENDS first where keys end there): those seen
  // there, and what the evidence allows beyond them, for what is not read yet: other
  // digits where a digit was seen (a numbered field seen at 01 also has 02), other letters
  // where two letters of a case were seen, any character where the position is seen to take
  // many kinds. None that probes there found nothing for. Null: never seen.
  _alphabet(slot) {
    return slot ? this._weighted(slot).chars : null;
  }

  // The characters a position may take beyond those seen there. For placing keys (bold
  // false), little: a cut placed where no key is reads the next segment's keys again. For
  // guessing siblings (bold), more: a probe where no key is costs one empty answer.
  _allowed(slot, bold, floor = false) {
    if (slot.wide) return this.alpha;
    const seen = slot.chars;
    const count = (test) => seen.reduce((n, cp) => n + (cp !== ENDS && test(cp) ? 1 : 0), 0);
    // Numbered fields fill from the low digits: for placing, those up to the highest seen.
    let maxDigit = -1;
    for (const cp of seen) if (isDigit(cp)) maxDigit = Math.max(maxDigit, cp);
    const digits = bold ? maxDigit + 1 : maxDigit; // guessing a sibling: one more
    const lower = count(isLower) >= T.SHAPE_LETTERS || (floor && maxDigit >= 0), upper = count(isUpper) >= T.SHAPE_LETTERS;
    const other = count((cp) => !isDigit(cp) && !isLower(cp) && !isUpper(cp)) > 0;
    const anything = (maxDigit >= 0) + (count(isLower) > 0) + (count(isUpper) > 0) + other >= T.SHAPE_KINDS_ANY;
    const set = new Set(seen);
    for (const cp of this.alpha) {
      if (set.has(cp) || (slot.misses.get(cp) || 0) >= T.SHAPE_MISSES) continue;
      if (anything || (isDigit(cp) && cp <= digits) || (lower && isLower(cp)) || (upper && isUpper(cp))) set.add(cp);
    }
    return [...set].sort((a, b) => a - b);
  }

  // What a position may take at most, for judging how much is not read yet (broad). A
  // position seen to vary takes every character of the kinds the varying positions of its
  // folder name take (digits, lower case, upper case; with three kinds, any character):
  // a field seen at 00 may run to 99, a name seen to start with 0 may start with z. So do
  // the last SHAPE_BROAD_RUN positions before a key's first varying one, even when one page
  // showed a single character there: the first page of a range holds its lowest keys, so
  // what varies across the range is constant on it. Positions further up are constant (a
  // run that long would take more pages than any bucket holds to vary), and positions
  // past the first varying one that were seen with one character are fixed ('.gz'), but
  // for the digits of a number whose higher digits varied (_runAfter).
  _varying(slot) {
    return Boolean(slot) && (slot.wide || slot.chars.length - (slot.chars[0] === ENDS ? 1 : 0) >= 2);
  }

  _kinds(slot) {
    if (slot.wide) return 15;
    let m = 0;
    for (const cp of slot.chars) if (cp !== ENDS) m |= isDigit(cp) ? 1 : isLower(cp) ? 2 : isUpper(cp) ? 4 : 8;
    return m;
  }

  // The kinds of character the varying positions of slot id's folder name take.
  _nameKinds(id) {
    const base = id - (id % T.SHAPE_MAX_OFFSET);
    const learned = this.learned + (this.prior ? this.prior.learned * 1e9 : 0);
    if (!this.kindsCache || this.kindsCache.learned !== learned) this.kindsCache = { learned, byName: new Map() };
    let m = this.kindsCache.byName.get(base);
    if (m === undefined) {
      m = 0;
      for (let off = 0; off < T.SHAPE_MAX_OFFSET; off++) {
        const s = this._view(base + off);
        if (this._varying(s)) m |= this._kinds(s);
      }
      this.kindsCache.byName.set(base, m);
    }
    return m;
  }

  // Characters a position could take that were not seen there, and that no two keys read
  // one after the other have shown missing (learnGap) twice or more.
  _broad(slot, kinds) {
    const seen = new Set(slot.chars);
    const set = new Set(slot.chars);
    const add = (cp) => { if (!seen.has(cp) && (slot.misses.get(cp) || 0) < T.SHAPE_MISSES) set.add(cp); };
    const m = slot.wide ? 15 : kinds | this._kinds(slot);
    if (slot.wide || ((m & 1) > 0) + ((m & 2) > 0) + ((m & 4) > 0) + ((m & 8) > 0) >= T.SHAPE_KINDS_ANY) for (const cp of this.alpha) add(cp);
    if (m & 1) for (let cp = 0x30; cp <= 0x39; cp++) add(cp);
    if (m & 2) for (let cp = 0x61; cp <= 0x7a; cp++) add(cp);
    if (m & 4) for (let cp = 0x41; cp <= 0x5a; cp++) add(cp);
    return [...set].sort((a, b) => a - b);
  }

  /**
   * Keys a and b (a < b) are next to each other (nothing lies between; a may be a probe's
   * point (probe); b null: nothing after a from `from` on): where they part, the characters between theirs are missing there, and past
   * it, the characters after a's are missing at a's positions (a ended its subtrees).
   * Counted as misses where the broad shape would have guessed them (positions from
   * `from` on, at most SHAPE_GAP_DEPTH past where they part).
   */
  learnGap(a, b, from = 0, probe = false) {
    let j = from;
    while (b !== null && j < a.length && j < b.length && a.charCodeAt(j) === b.charCodeAt(j)) j++;
    if (j > from && j < a.length && a.charCodeAt(j - 1) >= 0xd800 && a.charCodeAt(j - 1) <= 0xdbff) j--;
    if (j >= a.length) return; // a is a prefix of b
    const c = new Cursor(this, a, j);
    for (let i = j, n = 0; i < a.length && n < T.SHAPE_GAP_DEPTH; n++) {
      const id = c.slotAt(i);
      const slot = this._slot(id, false);
      const cp = a.codePointAt(i);
      if (slot) {
        const top = i === j && b !== null && j < b.length ? b.codePointAt(j) : Infinity;
        let changed = false;
        // A probe's point is no key: what starts with it lies after it, missing too.
        const own = probe && i + (cp > 0xffff ? 2 : 1) >= a.length;
        for (const x of this._weighted(slot, this._nameKinds(id)).chars) {
          if ((own ? x < cp : x <= cp) || x >= top || slot.chars.includes(x)) continue;
          slot.misses.set(x, (slot.misses.get(x) || 0) + 1);
          changed = true;
        }
        if (changed) slot.version++;
      }
      c.step(i, cp);
      i += cp > 0xffff ? 2 : 1;
    }
  }

  // The weights broad mode gives position i of a key whose first varying position is v.
  // run: the position continues a run of digits that varied before it (below).
  // Fitted (not broad), such a digit takes every digit (runs) where the caller asks.
  _weightedAt(slot, id, i, v, broad, run = false) {
    const counting = run && !slot.wide && slot.chars.some(isDigit) && slot.chars.every((cp) => cp === ENDS || isDigit(cp));
    if (!broad) return counting ? this._weighted(slot, 1) : this._weighted(slot);
    if (!(this._varying(slot) || (i < v && i >= v - T.SHAPE_BROAD_RUN) || counting)) return this._weighted(slot);
    return this._weighted(slot, this._nameKinds(id));
  }

  // Whether the digits of a number varied up to here: a digit seen constant right after a
  // more significant one seen to vary (the 7 of 0700…, where 0600… and 0800… were read)
  // takes every digit as that one runs through its values, however few pages showed it.
  // The position after one of char cp (its slot seen varying or not) continues the run.
  _runAfter(varied, slot, cp) {
    return isDigit(cp) && (varied || this._varying(slot));
  }

  // The run state at position i of key, walked from position `from`.
  _runAt(key, from, i) {
    const c = new Cursor(this, key, from);
    let varied = false;
    for (let j = from; j < i && j < key.length;) {
      const cp = key.codePointAt(j);
      varied = this._runAfter(varied, this._view(c.slotAt(j)), cp);
      c.step(j, cp);
      j += cp > 0xffff ? 2 : 1;
    }
    return varied;
  }

  // A key's first position (from `from`) seen to vary; its length when none is.
  _firstVarying(key, from) {
    const c = new Cursor(this, key, from);
    for (let i = from; i < key.length;) {
      if (this._varying(this._view(c.slotAt(i)))) return i;
      const cp = key.codePointAt(i);
      c.step(i, cp);
      i += cp > 0xffff ? 2 : 1;
    }
    return key.length;
  }

  // The alphabet, as cumulative shares: chars[j] holds [lower[j], lower[j + 1]).
  // kinds: broad, with the kinds of its folder name (_broad).
  _weighted(slot, kinds = null) {
    const key = kinds === null ? 'cache' : kinds === 1 ? 'digitCache' : 'broadCache';
    const cached = slot[key];
    if (cached && cached.version === slot.version && cached.alphaLength === this.alpha.length && cached.kinds === kinds) return cached;
    const chars = kinds === null ? this._allowed(slot, false) : this._broad(slot, kinds);
    // Every character it takes weighs the same: how often sampled keys had one says more
    // about which pages were read first than about where keys are.
    const lower = new Float64Array(chars.length + 1);
    for (let j = 0; j <= chars.length; j++) lower[j] = j / chars.length;
    slot[key] = { version: slot.version, alphaLength: this.alpha.length, kinds, chars, lower };
    return slot[key];
  }

  /** The characters position i of key takes (sorted code points, -1: keys end there): as
   *  frac weighs them, or at most (broad, the key's positions counted from `from`). Null: never seen. */
  charsAt(key, i, broad = false, from = 0) {
    const id = new Cursor(this, key, i).slotAt(i);
    const slot = this._view(id);
    if (!slot) return null;
    return this._weightedAt(slot, id, i, broad ? this._firstVarying(key, from) : 0, broad, broad && this._runAt(key, 0, i)).chars;
  }

  // Characters that may begin a sibling of key's subtree at position i, most promising
  // first: the very next character (whatever follows there, a probe finds it), then those
  // seen there, then the rest of the position's alphabet; each group spread over its range.
  // A position seen to hold one letter or symbol only is probably fixed (the 'o' of
  // 'logs/'). Where a range's keys part ways (`floor`), one page says little of what comes
  // next: letters may follow digits there, and past the end of what is known (`broad`),
  // any character seen anywhere.
  siblings(key, i, floor = false, broad = false) {
    const slot = this._slot(new Cursor(this, key, i).slotAt(i), false);
    const after = key.codePointAt(i);
    const next = after + 1 === 0xd800 ? 0xe000 : after + 1;
    const missed = (cp) => slot && (slot.misses.get(cp) || 0) >= T.SHAPE_MISSES;
    const out = next <= 0x10ffff && !missed(next) ? [next] : [];
    if (!slot) return out;
    const chars = broad ? [...new Set([...this._allowed(slot, true, floor), ...this.alpha])].sort((a, b) => a - b) : this._allowed(slot, true, floor);
    const later = [], rest = [];
    for (let j = lowerBound(chars, next + 1); j < chars.length; j++) {
      if (!missed(chars[j])) (slot.chars.includes(chars[j]) ? later : rest).push(chars[j]);
    }
    for (const group of [later, rest]) out.push(...spread(group));
    return out;
  }

  // A probe for a sibling at position i of key, with key's character there replaced by
  // the probe's, found one (hit) or not.
  probed(key, i, cp, hit) {
    const slot = this._slot(new Cursor(this, key, i).slotAt(i), false);
    if (!slot || hit) return;
    slot.misses.set(cp, (slot.misses.get(cp) || 0) + 1);
    slot.version++;
  }

  // Share of context's subtree that sorts below key, each character of a position taking
  // its weight: 0 before the subtree, 1 after it.
  // broad: each position taking what it may at most (_broad), for what is not read yet.
  // runs: digits that continue a varied run of digits take every digit (_runAfter).
  frac(key, context, broad = false, runs = broad) {
    if (key === null) return 1;
    if (!key.startsWith(context)) return compareKeys(key, context) < 0 ? 0 : 1;
    const c = new Cursor(this, key, context.length);
    const v = broad ? this._firstVarying(key, context.length) : 0;
    let f = 0, scale = 1, run = runs && this._runAt(key, 0, context.length);
    for (let i = context.length; scale > 1e-15;) {
      const id = c.slotAt(i);
      const slot = this._view(id);
      if (!slot) break; // nothing known this deep: stop refining
      const { chars, lower } = this._weightedAt(slot, id, i, v, broad, run);
      if (chars.length === 0) break;
      const cp = i < key.length ? key.codePointAt(i) : ENDS;
      const j = lowerBound(chars, cp);
      f += scale * lower[j];
      if (chars[j] !== cp) break; // between characters it takes: at their boundary
      scale *= lower[j + 1] - lower[j];
      if (cp === ENDS) break;
      if (runs) run = this._runAfter(run, slot, cp);
      c.step(i, cp);
      i += cp > 0xffff ? 2 : 1;
    }
    return f;
  }

  // A key near share f of context's subtree, strictly between lo and hi (hi null: no
  // bound), or null when the shape cannot name one.
  keyAt(context, f, lo, hi, broad = false, runs = broad) {
    if (!(f > 0 && f < 1)) return null;
    let s = context;
    const c = new Cursor(this, context, context.length);
    let run = runs && this._runAt(context, 0, context.length);
    for (let i = context.length, steps = 0; steps < T.SHAPE_KEY_AT_CHARS; steps++) {
      const id = c.slotAt(i);
      const slot = this._view(id);
      if (!slot) break;
      const { chars, lower } = this._weightedAt(slot, id, i, Infinity, broad, run);
      if (chars.length === 0) break;
      let j = lowerBound(lower, f);
      if (j >= chars.length || lower[j] > f) j--;
      if (j < 0) j = 0;
      const cp = chars[j];
      if (cp === ENDS) break; // the subtree's first key ends here
      s += String.fromCodePoint(cp);
      const w = lower[j + 1] - lower[j];
      f = w > 0 ? Math.min(1, Math.max(0, (f - lower[j]) / w)) : 0;
      if (runs) run = this._runAfter(run, slot, cp);
      c.step(i, cp);
      i += cp > 0xffff ? 2 : 1;
      if (compareKeys(s, lo) > 0 && (hi === null || compareKeys(s, hi) < 0) && f < T.SHAPE_KEY_AT_SHARE) break;
    }
    if (compareKeys(s, lo) <= 0 || (hi !== null && compareKeys(s, hi) >= 0) || keyBytes(s) > MAX_KEY_BYTES) return null;
    return s;
  }
}

module.exports = { KeyShape };
