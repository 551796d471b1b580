'use strict';
// The key range a listing covers: keys that start with prefix, after startAfter
// (exclusive) and up to stopAt (inclusive), as in S3P.
const { compareKeys, keyProblem } = require('./order');
const { UsageError } = require('../errors');

function normalizeRange({ prefix = '', startAfter, stopAt } = {}) {
  for (const [name, v] of [['--start-after', startAfter], ['--stop-at', stopAt]]) {
    if (v === undefined || v === null || v === '') continue;
    const p = keyProblem(v);
    if (p) throw new UsageError(`${name}: ${p}`);
  }
  const after = startAfter || '';
  const stop = stopAt || null;
  if (after && stop !== null && compareKeys(after, stop) >= 0) {
    throw new UsageError(`--start-after (${JSON.stringify(after)}) is not before --stop-at (${JSON.stringify(stop)}): the range is empty`);
  }
  // Nothing with this prefix can lie at or below stopAt.
  const empty = stop !== null && prefix !== '' && compareKeys(stop, prefix) < 0;
  return { prefix, after, stop, empty };
}

function inRange(range, key) {
  if (!key.startsWith(range.prefix)) return false;
  if (range.after && compareKeys(key, range.after) <= 0) return false;
  if (range.stop !== null && compareKeys(key, range.stop) > 0) return false;
  return true;
}

// Whether a directory ("a/b/") may hold keys of the range: every key in it begins with it,
// so sorts after it, and before any string greater than it that does not begin with it.
function dirMayHold(range, dir) {
  const { prefix, after, stop } = range;
  if (!dir.startsWith(prefix) && !prefix.startsWith(dir)) return false;
  if (stop !== null && compareKeys(dir, stop) > 0) return false; // every key in it sorts after dir
  if (after && compareKeys(dir, after) < 0 && !after.startsWith(dir)) return false; // every key in it sorts before after
  return true;
}

module.exports = { normalizeRange, inRange, dirMayHold };
