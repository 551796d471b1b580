'use strict';
// mulberry32: a tiny seeded PRNG, the same sequence on every machine and Node version.
// Shared by the tests (test/helpers/keysets.js re-exports it) and the benchmark's layouts.

// Module-level names: under jest's vm context every lookup of a global (Math) is slow, and
// a million keys draw tens of millions of numbers.
const imul = Math.imul, floor = Math.floor;

function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => floor(next() * n);
  const pick = (arr) => arr[int(arr.length)];
  // n bytes from the sequence, four at a time.
  const bytes = (n) => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i += 4) {
      const v = Math.floor(next() * 4294967296);
      for (let j = 0; j < 4 && i + j < n; j++) b[i + j] = (v >>> (8 * j)) & 255;
    }
    return b;
  };
  return { next, int, pick, bytes };
}

module.exports = { prng };
