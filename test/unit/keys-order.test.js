'use strict';
const { compareKeys, keyProblem, commonPrefix, hasLoneSurrogate } = require('../../src/keys/order');
const { prng } = require('../helpers/keysets');

const byBytes = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);

const POOL = ['a', 'b', 'z', '/', ' ', '\u0001', '\u007f', 'é', '中', '\uE000', '\uFFFD', '\uFFFF', '\u{10000}', '😀', '\u{10FFFF}', '\uD7FF'];

describe('compareKeys: S3 UTF-8 byte order', () => {
  test('known vectors where UTF-16 order disagrees', () => {
    expect(compareKeys('\uFFFF', '\u{10000}')).toBe(-1);
    expect(compareKeys('\uE000', '😀')).toBe(-1);
    expect(compareKeys('😀', '\uFFFD')).toBe(1);
    // JavaScript's own operator gets these wrong, which is why compareKeys exists.
    expect('\uFFFF' < '\u{10000}').toBe(false);
  });

  test('agrees with Buffer.compare on 20,000 random pairs', () => {
    const r = prng(42);
    const gen = () => { let s = ''; const n = r.int(6); for (let i = 0; i < n; i++) s += r.pick(POOL); return s; };
    for (let i = 0; i < 20000; i++) {
      const a = gen(), b = gen();
      expect([a, b, sign(compareKeys(a, b))]).toEqual([a, b, sign(byBytes(a, b))]);
    }
  });

  // Pairs that share a drawn stem (long, so the first difference lies deep), one side often
  // with no unit at or above U+D800 (the native comparison's case) and the other with one.
  const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
  test(`agrees with Buffer.compare on drawn pairs with a common stem, seed ${SEED} (S3BLITZ_TEST_SEED replays it)`, () => {
    const r = prng(SEED);
    const low = POOL.filter((c) => c.charCodeAt(0) < 0xd800);
    const gen = (pool, n) => { let s = ''; for (let i = 0; i < n; i++) s += r.pick(pool); return s; };
    for (let i = 0; i < 20000; i++) {
      const stem = gen(r.int(2) ? low : POOL, r.int(40));
      const a = stem + gen(r.int(3) ? low : POOL, r.int(5)), b = stem + gen(r.int(3) ? low : POOL, r.int(5));
      expect([a, b, sign(compareKeys(a, b))]).toEqual([a, b, sign(byBytes(a, b))]);
    }
  });

  test('prefix sorts before its extensions; equal keys compare 0', () => {
    expect(compareKeys('ab', 'ab/')).toBe(-1);
    expect(compareKeys('ab', 'ab')).toBe(0);
    expect(compareKeys('', 'a')).toBe(-1);
  });
});

describe('keyProblem', () => {
  test('accepts 1..1024 UTF-8 bytes', () => {
    expect(keyProblem('a')).toBeNull();
    expect(keyProblem('é'.repeat(512))).toBeNull(); // 1024 bytes
    expect(keyProblem('😀'.repeat(256))).toBeNull(); // 1024 bytes
  });
  test('rejects empty, over-long, non-string and lone surrogates', () => {
    expect(keyProblem('')).toMatch(/empty/);
    expect(keyProblem('a'.repeat(1025))).toMatch(/1025 bytes/);
    expect(keyProblem('é'.repeat(512) + 'a')).toMatch(/1025 bytes/);
    expect(keyProblem(42)).toMatch(/not a string/);
    expect(keyProblem('a\uD800b')).toMatch(/surrogate/);
    expect(hasLoneSurrogate('\uDC00')).toBe(true);
    expect(hasLoneSurrogate('😀')).toBe(false);
  });
});

test('commonPrefix never splits a surrogate pair', () => {
  expect(commonPrefix('😀a', '😁b')).toBe('');
  expect(commonPrefix('ab😀', 'ab😀c')).toBe('ab😀');
  expect(commonPrefix('logs/2024/01', 'logs/2025')).toBe('logs/202');
});
