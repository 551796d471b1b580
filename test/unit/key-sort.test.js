'use strict';
// sortByKey against an order computed independently: the keys' UTF-8 bytes (Buffer.compare).
const { sortByKey, sortOrder } = require('../../src/keys/sort');
const { prng } = require('../generators/prng');
const { drawKeys } = require('../generators/key-sets');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`key-sort seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const byBytes = (keys) => keys.map((k) => [Buffer.from(k, 'utf8'), k]).sort((a, b) => Buffer.compare(a[0], b[0])).map((x) => x[1]);

describe('sortByKey: S3 UTF-8 order', () => {
  test.each(Array.from({ length: 40 }, (_, i) => SEED + i))('drawn key set, seed %i, agrees with the UTF-8 bytes', (seed) => {
    const keys = drawKeys(prng(seed));
    expect(sortByKey(keys.slice())).toEqual(byBytes(keys));
  });

  test.each(Array.from({ length: 20 }, (_, i) => SEED + 100 + i))('sortOrder, seed %i: the order of drawn keys, by native comparison where none holds a unit at or above U+D800', (seed) => {
    const keys = drawKeys(prng(seed));
    const native = !keys.some((k) => /[\ud800-\uffff]/.test(k));
    const order = sortOrder(keys, { native });
    expect(order.map((i) => keys[i])).toEqual(byBytes(keys));
    expect(order.slice().sort((a, b) => a - b)).toEqual(keys.map((_, i) => i));
  });

  test.each(Array.from({ length: 10 }, (_, i) => SEED + 200 + i))('sortOrder, seed %i: sets of 0-15 drawn keys (sorted by insertion below 12), ties included', (seed) => {
    const r = prng(seed);
    let pool = drawKeys(r);
    while (!pool.length) pool = drawKeys(r); // (a drawn set may be empty)
    for (let n = 0; n <= 15; n++) {
      const keys = Array.from({ length: n }, () => r.pick(pool));
      const native = !keys.some((k) => /[\ud800-\uffff]/.test(k));
      for (const o of native ? [{ native: true }, {}] : [{}]) {
        const order = sortOrder(keys, o);
        expect(order.map((i) => keys[i])).toEqual(byBytes(keys));
        expect(order.slice().sort((a, b) => a - b)).toEqual(keys.map((_, i) => i));
      }
    }
  });

  test('records are sorted by keyOf, and every record is kept (ties included)', () => {
    const r = prng(SEED);
    const keys = drawKeys(r).concat(['k', 'k', 'k']);
    const records = keys.map((k, i) => ({ k, i }));
    const sorted = sortByKey(records, (x) => x.k);
    expect(sorted.map((x) => x.k)).toEqual(byBytes(keys));
    expect(sorted.map((x) => x.i).sort((a, b) => a - b)).toEqual(keys.map((_, i) => i));
  });

  test('where UTF-16 and UTF-8 orders disagree past a long common prefix', () => {
    const stem = 'p/'.repeat(200);
    const keys = [`${stem}\uFFFF`, `${stem}\u{10000}`, `${stem}\uE000x`, `${stem}😀`, `${stem}`, `${stem}\uFFFDa`];
    expect(sortByKey(keys.slice())).toEqual(byBytes(keys));
    // The native order differs: the test would see a sort by it.
    expect(keys.slice().sort()).not.toEqual(byBytes(keys));
  });

  test('keys that tie on every code unit a number holds are still ordered past them', () => {
    // 2^17 keys leave room for 2 code units of 16 bits: the rest is told apart by compareKeys.
    const keys = [];
    for (let i = 0; i < 1 << 12; i++) keys.push(`\uFFFF\uFFFF${String((i * 7919) % 4096).padStart(4, '0')}`);
    keys.push('\uFFFF\uFFFF', '\u{10000}');
    expect(sortByKey(keys.slice())).toEqual(byBytes(keys));
  });
});
