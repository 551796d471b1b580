'use strict';
// S3 orders keys by their UTF-8 bytes. JavaScript compares UTF-16 code units, which
// disagrees only when one side is a surrogate (a code point above U+FFFF) and the
// other is in U+E000..U+FFFF: UTF-8 puts the astral code point last, UTF-16 first.

const MAX_KEY_BYTES = 1024;

// Remap code units >= 0xD800 so surrogates sort above U+E000..U+FFFF.
function fixup(c) { return c >= 0xe000 ? c - 0x800 : c + 0x2000; }

// The native comparison (a few times faster than a loop here) is S3's order unless the first
// code unit where the keys differ is at or above U+D800 in both, so it is trusted where one
// of them holds no such unit.
function compareKeys(a, b) {
  if (a === b) return 0;
  if (!HIGH.test(a) || !HIGH.test(b)) return a < b ? -1 : 1;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) { x = fixup(x); y = fixup(y); }
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : 1;
}

// The native order of strings: S3's where neither key holds a code unit at or above U+D800
// (chunks' utf16Ordered), and cheaper than compareKeys.
function compareCodeUnits(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

// A code unit at or above U+D800: a key without one compares natively as in S3's order.
const HIGH = /[\ud800-\uffff]/;

// Whether other holds no code unit at or above U+D800: then any key compares with it natively
// in S3's order (see compareKeys). Worked out once for a key that is compared often.
const lowKey = (k) => !HIGH.test(k);

// Whether key comes before other in S3's order; otherLow: lowKey(other), known already.
function precedes(key, other, otherLow) { return otherLow ? key < other : compareKeys(key, other) < 0; }

function keyBytes(key) { return Buffer.byteLength(key, 'utf8'); }

// A lone surrogate cannot be encoded as UTF-8, so no S3 key contains one.
function hasLoneSurrogate(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

// Returns null when valid, else a reason.
function keyProblem(key) {
  if (typeof key !== 'string') return `not a string (${key === null ? 'null' : typeof key})`;
  if (key.length === 0) return 'empty';
  if (hasLoneSurrogate(key)) return 'not valid UTF-8 (lone surrogate)';
  const n = keyBytes(key);
  if (n > MAX_KEY_BYTES) return `${n} bytes, over the 1024-byte limit`;
  return null;
}

// Longest common prefix, never splitting a surrogate pair.
function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && i < a.length) {
    const c = a.charCodeAt(i - 1);
    if (c >= 0xd800 && c <= 0xdbff) i--;
  }
  return a.slice(0, i);
}

// The least key after every key that starts with p (null: none, p is all U+10FFFF): its
// last code point raised by one.
function prefixEnd(p) {
  let s = p;
  while (s.length) {
    const cp = s.codePointAt(s.length - 1 - (isLowSurrogate(s.charCodeAt(s.length - 1)) && s.length > 1 ? 1 : 0));
    const cut = s.length - (cp > 0xffff ? 2 : 1);
    if (cp < 0x10ffff) return s.slice(0, cut) + String.fromCodePoint(cp + 1 === 0xd800 ? 0xe000 : cp + 1);
    s = s.slice(0, cut);
  }
  return null;
}

function isLowSurrogate(c) { return c >= 0xdc00 && c <= 0xdfff; }

// The greatest key (at most 1024 UTF-8 bytes) that starts with p: p, then U+10FFFF as
// often as it fits, then the greatest character that fills the bytes left.
function lastKeyWith(p) {
  let r = MAX_KEY_BYTES - keyBytes(p);
  if (r < 0) return p;
  let s = p + '\u{10FFFF}'.repeat(Math.floor(r / 4));
  r %= 4;
  if (r === 3) s += '\uFFFF'; else if (r === 2) s += '\u07FF'; else if (r === 1) s += '\u007F';
  return s;
}

// The greatest key before k (null: none). No key holds U+0000, so before 'ab\u0001' is 'ab'.
function keyBefore(k) {
  if (!k) return null;
  const low = isLowSurrogate(k.charCodeAt(k.length - 1)) && k.length > 1;
  const cp = k.codePointAt(k.length - (low ? 2 : 1));
  const head = k.slice(0, k.length - (cp > 0xffff ? 2 : 1));
  if (cp <= 1) return head === '' ? null : head;
  const prev = cp - 1 === 0xdfff ? 0xd7ff : cp - 1;
  return lastKeyWith(head + String.fromCodePoint(prev));
}

// The part of k before its first code unit at or above U+D800 (a character in U+E000..U+FFFF,
// or one above U+FFFF). Against it, every key compares the same by UTF-8 bytes, by code
// points and by UTF-16 code units: those orders disagree only where one key holds a
// character in U+E000..U+FFFF and the other one above U+FFFF at the first place they differ.
function utf16SafePrefix(k) {
  for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) >= 0xd800) return k.slice(0, i);
  return k;
}

function maxKey(a, b) { return compareKeys(a, b) >= 0 ? a : b; }
function minKey(a, b) { return compareKeys(a, b) <= 0 ? a : b; }

module.exports = { MAX_KEY_BYTES, compareKeys, compareCodeUnits, HIGH, lowKey, precedes, keyBytes, keyProblem, hasLoneSurrogate, commonPrefix, prefixEnd, lastKeyWith, keyBefore, maxKey, minKey, utf16SafePrefix };
