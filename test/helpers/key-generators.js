'use strict';
// Key sets with different shapes for lister tests and simulations.
const { prng, adversarialKeys } = require('./keysets');

const generators = {
  random(n, seed = 1) {
    const r = prng(seed);
    const out = [];
    for (let i = 0; i < n; i++) out.push(Math.floor(r.next() * 2 ** 52).toString(36).padStart(11, '0'));
    return out;
  },
  hierarchical(n, seed = 1) {
    const r = prng(seed);
    const out = [];
    for (let y = 2020; out.length < n; y++) {
      for (let m = 1; m <= 12 && out.length < n; m++) {
        for (let d = 1; d <= 28 && out.length < n; d++) {
          const hosts = 1 + r.int(8);
          for (let h = 1; h <= hosts && out.length < n; h++) {
            const parts = 1 + r.int(400);
            for (let p = 0; p < parts && out.length < n; p++) {
              out.push(`logs/${y}/${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/host-${h}/part-${String(p).padStart(5, '0')}.gz`);
            }
          }
        }
      }
    }
    return out;
  },
  sequential(n) {
    return Array.from({ length: n }, (_, i) => `file-${String(i).padStart(8, '0')}`);
  },
  unicode(n, seed = 1) {
    const r = prng(seed);
    const chars = ['a', 'é', '中', '😀', '\uE000', '\uFFFF', ' ', '/', '-', 'x', 'Ω', '𝄞', '\u0001', '\u{10FFFF}'];
    const out = [];
    for (let i = 0; i < n; i++) {
      let s = '';
      const len = 1 + r.int(12);
      for (let j = 0; j < len; j++) s += r.pick(chars);
      out.push(s + i);
    }
    return out;
  },
  clustered(n, seed = 1) {
    const r = prng(seed);
    const out = [];
    const clusters = ['a', 'm/deep/nested/path/', 'zz', '\u{1F600}/'];
    for (let i = 0; i < n; i++) out.push(`${r.pick(clusters)}${String(r.int(1e9)).padStart(9, '0')}`);
    return out;
  },
  adversarial(n, seed = 1) {
    return adversarialKeys(Math.max(40, n), seed);
  },
};

// A random range over keys: sometimes a prefix, a start-after and a stop-at.
function randomRange(keys, r) {
  const range = {};
  const pick = () => keys[r.int(keys.length)];
  if (r.next() < 0.3) range.prefix = pick().slice(0, 1 + r.int(3));
  if (r.next() < 0.4) range.startAfter = pick();
  if (r.next() < 0.4) {
    const s = pick();
    if (!range.startAfter || Buffer.compare(Buffer.from(s), Buffer.from(range.startAfter)) > 0) range.stopAt = s;
  }
  // A surrogate pair cut in half is not a valid key.
  if (range.prefix && /[\uD800-\uDBFF]$/.test(range.prefix)) range.prefix = range.prefix.slice(0, -1);
  if (range.prefix === '') delete range.prefix;
  return range;
}

module.exports = { generators, randomRange };
