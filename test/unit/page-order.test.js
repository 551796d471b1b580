'use strict';
// A page's order checks against an order computed independently (the keys' UTF-8 bytes):
// the lean parser's sorted flag (native comparisons, compareKeys only where they may part
// from S3's order) and the page check on lean pages and on pages of items.
const { parseListObjectsV2 } = require('../../src/stores/list-parser');
const { pageInOrder, comparerFor } = require('../../src/list/page-check');
const { compareKeys } = require('../../src/keys/order');
const { prng } = require('../generators/prng');
const { drawKeys } = require('../generators/key-sets');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`page-order seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const bytes = (k) => Buffer.from(k, 'utf8');
const byBytes = (a, b) => Buffer.compare(bytes(a), bytes(b));
const increasing = (keys, after) => keys.every((k, i) => (i === 0 && after === '') || byBytes(i === 0 ? after : keys[i - 1], k) < 0);

const xml = (keys) => `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><EncodingType>url</EncodingType><IsTruncated>false</IsTruncated>${
  keys.map((k) => `<Contents><Key>${encodeURIComponent(k).replace(/%20/g, '+')}</Key><Size>1</Size></Contents>`).join('')}</ListBucketResult>`; // form-encoded, as S3 does
const lean = (keys) => parseListObjectsV2(xml(keys));
const items = (keys) => ({ items: keys.map((Key) => ({ Key })) });

// The keys of a drawn set, distinct and in UTF-8 order, then spoiled in one of several ways.
function drawPage(r) {
  const keys = [...new Set(drawKeys(r).filter((k) => k.length > 0))].sort(byBytes).slice(0, 1000);
  const spoil = r.int(4);
  if (keys.length > 1 && spoil === 1) { // two neighbours swapped
    const i = r.int(keys.length - 1);
    [keys[i], keys[i + 1]] = [keys[i + 1], keys[i]];
  } else if (keys.length > 0 && spoil === 2) { // a key twice
    const i = r.int(keys.length);
    keys.splice(i, 0, keys[i]);
  } else if (spoil === 3) { // the native order of UTF-16 code units
    keys.sort();
  }
  return keys;
}

describe("page order: S3's UTF-8 order, checked natively", () => {
  test.each(Array.from({ length: 40 }, (_, i) => SEED + i))('drawn page, seed %i: sorted flag and page check agree with the UTF-8 bytes', (seed) => {
    const r = prng(seed);
    const keys = drawPage(r);
    const page = lean(keys);
    expect(Array.from({ length: page.chunk.length }, (_, i) => page.chunk.key(i))).toEqual(keys);
    expect(page.sorted === true).toBe(increasing(keys, ''));
    // StartAfter: none, a key of the page, or one drawn apart; prefix: none or a key's start.
    const afters = ['', ...(keys.length ? [r.pick(keys)] : []), ...drawKeys(r).slice(0, 2)];
    const prefixes = ['', ...(keys.length ? [r.pick(keys).slice(0, r.int(4))] : [])];
    for (const after of afters) {
      for (const prefix of prefixes) {
        const expected = increasing(keys, after) && keys.every((k) => k.startsWith(prefix));
        expect([after, prefix, pageInOrder(lean(keys), after, prefix)]).toEqual([after, prefix, expected]);
        expect([after, prefix, pageInOrder(items(keys), after, prefix)]).toEqual([after, prefix, expected]);
      }
    }
  });

  test('where the native order of code units and the UTF-8 order part', () => {
    const stem = 'p/'.repeat(100);
    const up = [`${stem}\uFFFF`, `${stem}\u{10000}`]; // UTF-8: EF BF BF before F0 90 80 80
    expect(lean(up).sorted).toBe(true);
    expect(lean(up.slice().reverse()).sorted).toBeUndefined(); // natively increasing, not in S3's order
    expect(pageInOrder(items(up.slice().reverse()), '', 'p/')).toBe(false);
    expect(pageInOrder(lean(up), `${stem}\uE000`, 'p/')).toBe(true);
    expect(pageInOrder(lean(up), `${stem}😀`, 'p/')).toBe(false); // StartAfter after the first key
  });

  test('native comparisons only where no key holds a code unit at or above U+D800', () => {
    expect(comparerFor(lean(['a', 'caf\u00e9', '中']))).not.toBe(compareKeys);
    expect(comparerFor(items(['a', 'caf\u00e9']))).not.toBe(compareKeys);
    expect(comparerFor(lean(['a', '\uE000']))).toBe(compareKeys);
    expect(comparerFor(items(['a', '😀']))).toBe(compareKeys);
  });
});
