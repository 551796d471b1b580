'use strict';
// Keys that look like trouble for the people and tools that will use them: spaces at the
// start or end of a name, control characters, `//`, `.` and `..` segments, over 900
// bytes, names not in Unicode NFC, and names that differ from another key only by Unicode
// normalization (one "é" typed as one code point, another as "e" and a combining accent:
// they look the same and are two objects). Counted, with a few examples each, in bounded
// memory; a few scans per key (suspicious) find the few keys worth a closer look.

const KINDS = {
  space: 'a name starts or ends with a space',
  control: 'control characters',
  'double-slash': 'an empty segment (//)',
  'dot-segment': 'a . or .. segment',
  long: 'over 900 bytes',
  'not-nfc': 'not in Unicode NFC',
  normalization: 'differs from another key only by Unicode normalization',
};
const EXAMPLES = 5;
const LONG_BYTES = 900;
const MAX_VARIANTS = 10000; // non-NFC names tracked to find their twins
const MAX_CONFIRM = 100; // twins asked of the store after the listing

const SPACE = /^ | $| \/|\/ /;
const CONTROL = /[\x00-\x1f\x7f]/;
const DOT = /(?:^|\/)\.\.?(?:\/|$)/;
const NON_ASCII = /[^\x00-\x7f]/;

// A fixed-size Bloom filter of the NFC names seen, so a non-NFC name can tell whether its
// NFC twin may have come before it (then the store is asked: a false positive costs one
// HEAD, never a wrong report).
class Bloom {
  constructor(bits = 1 << 24) {
    this.mask = bits - 1;
    this.words = new Uint32Array(bits >>> 5);
  }

  _hashes(s) {
    let h1 = 0x811c9dc5, h2 = 0x9747b28c;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 13;
    }
    return [h1 >>> 0, (h2 | 1) >>> 0];
  }

  add(s) {
    const [a, b] = this._hashes(s);
    for (let k = 0; k < 3; k++) { const bit = (a + k * b) & this.mask; this.words[bit >>> 5] |= 1 << (bit & 31); }
  }

  has(s) {
    const [a, b] = this._hashes(s);
    for (let k = 0; k < 3; k++) { const bit = (a + k * b) & this.mask; if (!(this.words[bit >>> 5] & (1 << (bit & 31)))) return false; }
    return true;
  }
}

// Whether a key may be trouble: one pass over its characters that every troublesome key
// fails (and a few good ones, such as "a/.hidden", which the exact checks then clear).
function suspicious(key) {
  const n = key.length;
  if (key.charCodeAt(0) === 32 || key.charCodeAt(0) === 46 || key.charCodeAt(n - 1) === 32) return true;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return true;
    if (c === 47) { // '/': then '/', '.' or ' ' after it, or ' ' before it
      const next = key.charCodeAt(i + 1);
      if (next === 47 || next === 46 || next === 32 || key.charCodeAt(i - 1) === 32) return true;
    }
  }
  return false;
}

class KeyTrouble {
  constructor() {
    this.kinds = Object.fromEntries(Object.keys(KINDS).map((k) => [k, { objects: 0, examples: [] }]));
    this.keys = 0; // keys with any trouble
    this.variants = new Map(); // NFC form of a non-NFC key -> {keys: [first two], twin}
    this.variantsFull = false;
    this.bloom = null;
    this.candidates = []; // non-NFC keys whose NFC form may have been listed before them
    this.twinKeys = new Set();
  }

  _count(kind, key) {
    const k = this.kinds[kind];
    k.objects++;
    if (k.examples.length < EXAMPLES) k.examples.push(key);
  }

  add(key) {
    const long = key.length > LONG_BYTES / 3 && Buffer.byteLength(key) > LONG_BYTES;
    if (!long && !suspicious(key)) return;
    let any = long;
    if (long) this._count('long', key);
    if (SPACE.test(key)) { this._count('space', key); any = true; }
    if (CONTROL.test(key)) { this._count('control', key); any = true; }
    if (key.includes('//')) { this._count('double-slash', key); any = true; }
    if (DOT.test(key)) { this._count('dot-segment', key); any = true; }
    if (NON_ASCII.test(key) && this._unicode(key)) any = true;
    if (any) this.keys++;
  }

  // Whether the key itself is trouble (not NFC, or the twin of one seen before).
  _unicode(key) {
    const nfc = key.normalize('NFC');
    if (nfc === key) {
      if (!this.bloom) this.bloom = new Bloom();
      this.bloom.add(key);
      const v = this.variants.get(key);
      if (!v || v.nfcSeen) return false;
      v.nfcSeen = true;
      this._twins(key, v.first);
      return true;
    }
    this._count('not-nfc', key);
    const v = this.variants.get(nfc);
    if (v) {
      if (v.first !== key) this._twins(key, v.first);
      return true;
    }
    if (this.variants.size < MAX_VARIANTS) this.variants.set(nfc, { first: key, nfcSeen: false });
    else this.variantsFull = true;
    if (this.bloom && this.bloom.has(nfc) && this.candidates.length < MAX_CONFIRM) this.candidates.push({ key, nfc });
    return true;
  }

  // Two keys that differ only by normalization: each counted once, the pair an example.
  _twins(a, b) {
    const k = this.kinds.normalization;
    for (const key of [a, b]) {
      if (this.twinKeys.has(key)) continue;
      k.objects++;
      if (this.twinKeys.size < 2 * MAX_VARIANTS) this.twinKeys.add(key);
      else this.variantsFull = true;
    }
    if (k.examples.length < EXAMPLES) k.examples.push([a, b]);
  }

  // Non-NFC keys whose NFC twin may have been listed before them: the caller asks the store.
  unconfirmed() {
    return this.candidates.filter((c) => { const v = this.variants.get(c.nfc); return !(v && v.nfcSeen); });
  }

  // The store has the NFC twin of a listed non-NFC key.
  confirmTwin(key, nfc) {
    const v = this.variants.get(nfc);
    if (v) v.nfcSeen = true;
    if (!this.twinKeys.has(nfc)) this.keys++;
    this._twins(key, nfc);
  }

  toJSON() {
    const kinds = [];
    for (const [kind, label] of Object.entries(KINDS)) {
      const k = this.kinds[kind];
      if (k.objects) kinds.push({ kind, label, objects: k.objects, examples: k.examples });
    }
    const out = { keys: this.keys, kinds };
    if (this.variantsFull) out.approximate = true;
    return out;
  }
}

module.exports = { KeyTrouble, KINDS, Bloom };
