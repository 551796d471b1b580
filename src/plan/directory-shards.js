'use strict';
// Shard plans of a directory bucket (S3 Express One Zone): no StartAfter there and no key
// order within a page, so a shard cannot start in the middle of a directory's listing. A
// shard is a set of whole directories and files instead, written as a key range whose cuts
// begin no directory but their common ancestors': the cut after directory "a/b/" is "a/b0"
// ("/" + 1), above every key in "a/b/" and below every key of a later sibling. A directory lies in two shards only where it
// holds a cut (an ancestor of a cut directory): each shard then reads that one level,
// filtered, and prunes the subdirectories outside its range (list/directory-lister.js).
//
// The tree is sized from the top, breadth first and in key order (so every process that
// plans the same unchanged bucket gets the same plan), within a request budget: each
// directory is swept (its subtree in one page without the delimiter); a sweep that ends
// there counts it exactly and makes it one unit; one that runs on has its level read (at
// most PLAN_DIR_LEVEL_PAGES pages: a larger level is one unit, estimated, since nothing can
// cut it) and each of its files is a unit, each subdirectory sized in turn. Directories the
// budget does not reach are units estimated as their swept siblings' mean. The units, in key
// order, are cut into n runs of about equal estimated objects.
const { compareKeys } = require('../keys/order');
const { inRange, dirMayHold } = require('../keys/range');
const { rangesFromCuts } = require('./shard-plan');
const T = require('./tuning').values;

// The cut just after a directory: its name with the final "/" raised to "0".
const afterDir = (dir) => `${dir.slice(0, -1)}0`;

/**
 * @param read (dir, token, {walk, maxKeys}) -> {keys, prefixes, next}: one checked page of a
 *   directory (walk: with the delimiter; else its subtree)
 * @param range {prefix, after, stop} (keys/range.js normalizeRange)
 * @param n shards
 * @param o {budget (list requests)}
 * @returns {ranges, requests, estimatedObjects, exact} as plan/shard-plan.js planShards
 */
async function planDirectoryShards(read, range, n, { budget }) {
  let requests = 0;
  let exact = true;
  const units = []; // {name, size, dir}: whole directories and single files, disjoint in key order
  const swept = new Map(); // depth -> [sizes of directories counted exactly]
  const unreached = []; // {dir, depth}: directories the budget did not reach
  const depth = (dir) => dir.split('/').length - 1;
  const root = range.prefix.slice(0, range.prefix.lastIndexOf('/') + 1);
  let frontier = [root];
  while (frontier.length) {
    const next = [];
    // The frontier's sweeps at once, in key order: budget decides which, never timing.
    const go = frontier.slice(0, Math.max(0, budget - requests));
    for (const dir of frontier.slice(go.length)) unreached.push({ dir, depth: depth(dir) });
    requests += go.length;
    const sweeps = await Promise.all(go.map((dir) => read(dir, undefined, { walk: false })));
    for (let i = 0; i < go.length; i++) {
      const dir = go[i];
      if (sweeps[i].next === null) {
        const size = sweeps[i].keys.filter((k) => inRange(range, k)).length;
        units.push({ name: dir, size, dir: true });
        if (!swept.has(depth(dir))) swept.set(depth(dir), []);
        swept.get(depth(dir)).push(size);
        continue;
      }
      const level = await readLevel(read, dir, Math.min(T.PLAN_DIR_LEVEL_PAGES, budget - requests));
      requests += level.pages;
      if (!level.complete) { // too large to read within the budget: one unit, at least what was seen
        exact = false;
        units.push({ name: dir, size: Math.max(level.keys + level.prefixes.length, sweeps[i].keys.length), dir: true, estimated: true });
        continue;
      }
      for (const k of level.files) if (inRange(range, k)) units.push({ name: k, size: 1, dir: false });
      for (const p of level.prefixes.sort(compareKeys)) if (dirMayHold(range, p)) next.push(p);
    }
    frontier = next;
  }
  // Directories not reached: their swept peers' mean (one page where none was counted).
  for (const { dir, depth: d } of unreached) {
    exact = false;
    const peers = swept.get(d) || [];
    units.push({ name: dir, size: peers.length ? peers.reduce((a, b) => a + b, 0) / peers.length : 1000, dir: true, estimated: true });
  }
  units.sort((a, b) => compareKeys(a.name, b.name));
  const total = units.reduce((a, u) => a + u.size, 0);
  return { ranges: rangesFromCuts(range, cutUnits(units, n, total, range), total), requests, estimatedObjects: Math.round(total), exact };
}

// A level of a directory, read with continuation tokens, at most maxPages pages:
// {files, prefixes (each once), keys, pages, complete}.
async function readLevel(read, dir, maxPages) {
  const files = [];
  const prefixes = new Set();
  let token, pages = 0;
  do {
    if (pages >= maxPages) return { files, prefixes: [...prefixes], keys: files.length, pages, complete: false };
    const page = await read(dir, token, { walk: true });
    pages++;
    for (const k of page.keys) files.push(k);
    for (const p of page.prefixes) prefixes.add(p);
    token = page.next;
  } while (token);
  return { files, prefixes: [...prefixes], keys: files.length, pages, complete: true };
}

// A cut between two neighbouring units x < y (a directory's name, or a file's key) that only
// their deepest common directory holds: after the whole child of it that x lies in (a
// directory: "a/" of x "a/9" and y "b/0" gives "a0"), else x itself (a file of it).
function cutBetween(x, y) {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const common = x.slice(0, x.lastIndexOf('/', i - 1) + 1);
  const slash = x.indexOf('/', common.length);
  return slash >= 0 ? afterDir(x.slice(0, slash + 1)) : x;
}

// n - 1 cuts at unit edges, each where the running total comes nearest its share of the
// total: [{key, cum}] (key null: the range's end).
function cutUnits(units, n, total, range) {
  const cuts = [];
  let u = 0, cum = 0;
  for (let j = 1; j < n; j++) {
    const target = (total * j) / n;
    while (u < units.length && cum + units[u].size / 2 <= target) cum += units[u++].size;
    if (u === 0 && units.length) cum += units[u++].size; // never before the first unit: an empty shard instead
    if (u >= units.length) { cuts.push({ key: null, cum }); continue; }
    let key = cutBetween(units[u - 1].name, units[u].name);
    // A file named as the cut ("a0" after "a/") falls in this shard.
    while (u < units.length && compareKeys(units[u].name, key) <= 0) cum += units[u++].size;
    if (range.stop !== null && compareKeys(key, range.stop) >= 0) key = null;
    cuts.push({ key, cum });
  }
  return cuts;
}

module.exports = { planDirectoryShards, afterDir, cutBetween };
