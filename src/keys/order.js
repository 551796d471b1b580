'use strict';
// S3 orders keys by their UTF-8 bytes. JavaScript compares UTF-16 code units, which
// disagrees only when one side is a surrogate (a code point above U+FFFF) and the
// other is in U+E000..U+FFFF: UTF-8 puts the astral code point last, UTF-16 first.

const MAX_KEY_BYTES = 1024;

// Remap code units >= 0xD800 so surrogates sort above U+E000..U+FFFF.
function fixup(c) { return c >= 0xe000 ? c - 0x800 : c + 0x2000; }

function compareKeys(a, b) {
  if (a === b) return 0;
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

function maxKey(a, b) { return compareKeys(a, b) >= 0 ? a : b; }
function minKey(a, b) { return compareKeys(a, b) <= 0 ? a : b; }

module.exports = { MAX_KEY_BYTES, compareKeys, keyBytes, keyProblem, hasLoneSurrogate, commonPrefix, maxKey, minKey };
