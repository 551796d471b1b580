'use strict';
// Records sorted by key in S3's order (UTF-8 bytes), at a fraction of a comparison sort's
// cost where keys are many: a sort with a JavaScript comparator costs some 80-150 ns a
// comparison on keys that share a long prefix, most of it spent walking that prefix again.
// Here each key becomes one number instead, made of its first code units past the keys'
// common prefix (as many as fit beside the record's index in a double's 53 bits), and a
// Float64Array of those numbers is sorted natively. The number never decreases from one
// key to a later one in S3's order, so only runs of equal numbers (keys that agree on those
// code units) are left to compareKeys.
const { compareKeys } = require('./order');

// S3's order per code unit: surrogates (code points above U+FFFF) after U+E000..U+FFFF, as
// compareKeys does. Plus one: 0 stands for "the key ended", before any code unit.
const rank = (c) => (c < 0xd800 ? c : c >= 0xe000 ? c - 0x800 : c + 0x2000) + 1;

const MAX_UNITS = 8; // code units a number may hold (7-bit ASCII: 8 × 6 bits would not fit)
const FEW = 12; // below so many records an insertion sort costs less than the numbers' setup (measured: directories of 1-5 keys 2x faster, 6-49 the same)

// The order of a few keys by insertion: no closure, no numbers (a directory bucket's
// directories hold one key or a few, by the hundred thousand).
function insertionOrder(keys, native) {
  const n = keys.length, order = new Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    let j = i;
    if (native) while (j > 0 && keys[order[j - 1]] > k) { order[j] = order[j - 1]; j--; }
    else while (j > 0 && compareKeys(keys[order[j - 1]], k) > 0) { order[j] = order[j - 1]; j--; }
    order[j] = i;
  }
  return order;
}

/**
 * The order of keys in S3's order: an array of their indexes, the first key's first.
 * native: no key holds a code unit at or above U+D800 (keys/order.js), so JavaScript's
 * comparison of strings is S3's and ties are broken by it.
 */
function sortOrder(keys, { native = false } = {}) {
  const n = keys.length;
  if (n < FEW) return insertionOrder(keys, native);
  const cmp = native ? (a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0) : (a, b) => compareKeys(keys[a], keys[b]);
  const byComparison = () => Array.from({ length: n }, (_, i) => i).sort(cmp);
  // The keys' common prefix (nothing past it tells them apart) is the smallest and the
  // largest key's: code-unit order is lexicographic, and native comparisons are cheap.
  let lo = keys[0], hi = lo;
  for (let i = 1; i < n; i++) { const k = keys[i]; if (k < lo) lo = k; else if (k > hi) hi = k; }
  const m = lo.length < hi.length ? lo.length : hi.length;
  let common = 0;
  while (common < m && lo.charCodeAt(common) === hi.charCodeAt(common)) common++;
  // Bits for the index, then as many code units as fit at the bits their largest rank needs.
  const indexBits = Math.ceil(Math.log2(n));
  let top = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    const end = Math.min(k.length, common + MAX_UNITS);
    for (let j = common; j < end; j++) { const r = rank(k.charCodeAt(j)); if (r > top) top = r; }
  }
  const unitBits = Math.max(1, Math.ceil(Math.log2(top + 1)));
  const units = Math.min(MAX_UNITS, Math.floor((53 - indexBits) / unitBits));
  if (units < 1) return byComparison();
  const radix = 2 ** unitBits, shift = 2 ** indexBits;
  const nums = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    let v = 0;
    for (let j = common; j < common + units; j++) v = v * radix + (j < k.length ? rank(k.charCodeAt(j)) : 0);
    nums[i] = v * shift + i;
  }
  nums.sort();
  // Read back the order; runs whose code units tie are sorted by comparison.
  const order = new Array(n);
  for (let i = 0; i < n;) {
    const head = Math.floor(nums[i] / shift);
    let j = i + 1;
    while (j < n && Math.floor(nums[j] / shift) === head) j++;
    for (let m = i; m < j; m++) order[m] = nums[m] - head * shift;
    if (j - i > 1) {
      const run = order.slice(i, j).sort(cmp);
      for (let m = i; m < j; m++) order[m] = run[m - i];
    }
    i = j;
  }
  return order;
}

/** Sorts records (in place) by keyOf(record) in S3's order; returns them. */
function sortByKey(records, keyOf = (k) => k) {
  const n = records.length;
  if (n < FEW) return records.sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  const keys = new Array(n);
  for (let i = 0; i < n; i++) keys[i] = keyOf(records[i]);
  const order = sortOrder(keys);
  const copy = records.slice();
  for (let i = 0; i < n; i++) records[i] = copy[order[i]];
  return records;
}

module.exports = { sortByKey, sortOrder };
