'use strict';
// Keys as points of a line, for estimating how many keys lie between two of them. A key
// (after a common prefix) is read as a number in base 256, one digit per character: ASCII
// characters keep their code (so digits and letters line up as in names), every other code
// point takes one of the 128 digits above, by the logarithm of its code point. The map keeps
// S3's order (characters in code point order are digits in the same order), though it is
// not one to one above ASCII. Estimates only: correctness never depends on them.
const { compareKeys } = require('./order');

const DIGITS = 48; // characters read after the common prefix: 384 bits, well past any key's difference
const TOP = 256n ** BigInt(DIGITS);
const LOG_MAX = Math.log(0x110000);

function digitOf(cp) {
  if (cp < 0x80) return cp;
  return 0x80 + Math.min(127, Math.floor(((Math.log(cp) - Math.log(0x80)) / (LOG_MAX - Math.log(0x80))) * 128));
}

// The lowest code point of a digit (what keyAt writes for it).
function codePointOf(digit) {
  if (digit < 0x80) return digit;
  let cp = Math.ceil(Math.exp(Math.log(0x80) + ((digit - 0x80) / 128) * (LOG_MAX - Math.log(0x80))));
  while (digitOf(cp) < digit) cp++;
  while (cp > 0x80 && digitOf(cp - 1) >= digit) cp--;
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xe000;
  return Math.min(cp, 0x10ffff);
}

class KeySpace {
  /** context: the prefix every key of interest starts with. */
  constructor(context = '') { this.context = context; }

  /** The key's point, in [0, TOP]: '' is 0 (the start), null is TOP (the end). */
  point(key) {
    if (key === null) return TOP;
    if (!key.startsWith(this.context)) return compareKeys(key, this.context) < 0 ? 0n : TOP;
    let v = 0n, n = 0;
    for (const ch of key.slice(this.context.length)) {
      if (n === DIGITS) break;
      v = v * 256n + BigInt(digitOf(ch.codePointAt(0)));
      n++;
    }
    return v * 256n ** BigInt(DIGITS - n);
  }

  /** The distance between two points as a number (for densities). */
  width(a, b) { return b > a ? Number(b - a) : 0; }

  /** A key at the point halfway between lo and hi (null: the end), strictly between them, or null. */
  between(lo, hi) {
    const a = this.point(lo), b = this.point(hi);
    if (b - a < 2n) return null;
    return this.keyAt((a + b) / 2n, lo, hi);
  }

  /** A key at point p, strictly between lo and hi, or null. */
  keyAt(p, lo, hi) {
    const digits = [];
    let v = p;
    for (let i = 0; i < DIGITS; i++) { digits.push(Number(v % 256n)); v /= 256n; }
    digits.reverse();
    while (digits.length && digits[digits.length - 1] === 0) digits.pop();
    let s = this.context;
    for (const d of digits) {
      // Control characters only where a digit below the space is needed: they make poor names.
      s += String.fromCodePoint(codePointOf(Math.max(d, 1)));
      if (compareKeys(s, lo || '') > 0 && (hi === null || compareKeys(s, hi) < 0)) return s;
    }
    return null;
  }
}

module.exports = { KeySpace, digitOf, codePointOf };
