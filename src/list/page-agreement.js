'use strict';
// Trust but verify, across pages: where a page runs past its segment into the next one,
// its keys there must be the ones that segment's own first page returned. A server that
// mishandles some StartAfter values (SeaweedFS skips a folder named by it) shows here.
const { compareKeys } = require('../keys/order');
const T = require('../plan/tuning').values;

// What one page says about a segment's first keys: they are `keys` and nothing else in
// (lo, hi] (hi null: to the end of the listing). A disagreement shows in the first keys
// (a skipped folder is skipped from its start), so a record keeps at most RECORD_KEYS of
// them (tuning.js), copied: a record may live as long as its segment, and must not keep a page alive.

class Record {
  constructor(chunk, from, to, lo, hi, args) {
    const n = Math.min(to - from, T.RECORD_KEYS);
    this.keys = new Array(n);
    for (let k = 0; k < n; k++) this.keys[k] = Buffer.from(chunk.key(from + k), 'utf8').toString('utf8');
    this.lo = lo;
    this.hi = to - from > n ? this.keys[n - 1] : hi;
    this.args = args; // the request ({prefix, startAfter, after}), to ask it again
  }
}

// The keys of a chunk (or a record's keys) inside (lo, hi].
function keysWithin(keys, lo, hi) {
  const out = [];
  for (let k = 0; k < keys.length; k++) {
    const key = Array.isArray(keys) ? keys[k] : keys.key(k);
    if (lo !== '' && compareKeys(key, lo) <= 0) continue;
    if (hi !== null && compareKeys(key, hi) > 0) break;
    out.push(key);
  }
  return out;
}

// Where two lists of keys first differ, as the key each has there (null: it has none).
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i === a.length && i === b.length ? null : { a: i < a.length ? a[i] : null, b: i < b.length ? b[i] : null };
}

function minKeyOrNull(a, b) {
  return a === null ? b : b === null ? a : compareKeys(a, b) <= 0 ? a : b;
}

// The keys two records both speak for, in each, or null when they do not overlap.
function overlapOf(a, b) {
  const lo = compareKeys(a.lo, b.lo) >= 0 ? a.lo : b.lo;
  const hi = minKeyOrNull(a.hi, b.hi);
  if (hi !== null && lo !== '' && compareKeys(hi, lo) <= 0) return null;
  return { lo, hi };
}

module.exports = { Record, keysWithin, firstDifference, minKeyOrNull, overlapOf };
