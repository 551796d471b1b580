'use strict';
// Cuts of a one-level listing (stages/one-level.js, ls --delimiter /): where the rest of a
// range whose page came back full may be cut, by the planner's key shape.
const { compareKeys } = require('../keys/order');

// Where the stretch after a full page may be cut: where the key shape (plan/key-shape.js,
// the planner's model of the names read so far) expects sibling subtrees of the page's
// names to begin, at each position where they could part from the page's common prefix,
// nearest first (`f001`, `f01`, `f1`, `g` after `f000999`: ranges ten times wider each,
// which are cut again when their own first pages come back full). At most k - 1 bounds, in
// (lo, hi). A bound is kept up to its first "/" past the prefix: a bound without "/" never
// falls inside a folder's keys, so each folder (one entry) lies in one range.
function levelCuts(shape, prefix, first, last, hi, k) {
  const common = commonLength(first, last);
  const levels = [];
  for (let i = Math.min(common, last.length - 1); i >= prefix.length; i--) {
    const c = last.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) continue; // the second half of a pair: its first half speaks
    const list = [];
    for (const cp of shape.siblings(last, i)) {
      let key = last.slice(0, i) + String.fromCodePoint(cp);
      const slash = key.indexOf('/', prefix.length);
      if (slash >= 0) key = key.slice(0, slash);
      if (compareKeys(key, last) > 0 && (hi === null || compareKeys(key, hi) < 0)) list.push(key);
    }
    if (list.length) levels.push(list);
  }
  const cuts = new Set();
  for (let r = 0, any = true; any && cuts.size < k - 1; r++) {
    any = false;
    for (const l of levels) if (r < l.length && cuts.size < k - 1) { cuts.add(l[r]); any = true; }
  }
  return [...cuts].sort(compareKeys);
}

function commonLength(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

module.exports = { levelCuts };
