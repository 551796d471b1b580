'use strict';
// Sets of keys drawn for tests of S3's key order (sorting, page checks): keys from every part
// of the order, sharing stems of every length, often tied.

// Code units from every part of the order: ASCII, control characters, below and above the
// surrogates, U+E000..U+FFFF and astral code points (where UTF-16 and UTF-8 orders part).
const UNITS = ['a', 'b', 'z', '0', '9', '/', '-', '.', ' ', '\u0001', '\n', '\u007f', 'é', 'ÿ', '中', '\uD7FF', '\uE000', '\uFF21', '\uFFFD', '\uFFFF', '\u{10000}', '😀', '\u{10FFFF}'];

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
// Where the orders part: units just below the surrogates, in U+E000..U+FFFF, and astral.
const HIGH = ['a', 'z', '\uD7FF', '\uE000', '\uFF21', '\uFFFF', '\u{10000}', '😀', '\u{10FFFF}'];

// A set of keys drawn from r: a shared stem (none, short or long) and tails whose
// alphabet, length and repetition vary, so the sort's numbers run from all-distinct to
// all-tied and keys end inside the code units a number holds.
function drawKeys(r) {
  const stem = ['', 'x', 'logs/2024/02/15/host-04/part-00', '😀/'.repeat(1 + r.int(20)), 'a'.repeat(1 + r.int(300))][r.int(5)];
  const alphabet = [UNITS.slice(0, 1 + r.int(UNITS.length)), DIGITS, HIGH][r.int(3)];
  const n = [0, 1, 2, 3, 10, 100, 1000, 5000][r.int(8)];
  const maxLen = 1 + r.int(14);
  const keys = [];
  for (let i = 0; i < n; i++) {
    if (keys.length && r.next() < 0.05) { keys.push(r.pick(keys)); continue; } // the same key twice
    let tail = '';
    const len = r.int(maxLen + 1);
    for (let j = 0; j < len; j++) tail += r.pick(alphabet);
    keys.push(stem + tail);
  }
  return keys;
}

module.exports = { drawKeys, UNITS };
