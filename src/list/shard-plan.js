'use strict';
// A plan of N shards: the key range cut into N disjoint ranges (startAfter, stopAt] of about
// equal object counts, from a bounded sample of list requests, so N processes (on N machines,
// under whatever runs them) can each take one.
//
// Buckets are trees of folders, and a folder's size says more about its siblings' than any
// key arithmetic can, so the plan walks the tree from the top with folder listings
// (Delimiter "/"): a folder whose listing fits in one page is known exactly (its own keys,
// and the folders in it, still to walk); a folder not yet walked counts as the mean of its
// walked siblings; a folder of more than one page of entries is sampled as a flat range
// (flat-sample.js: pages read, scouts, densities by the key shape). Each round spends its
// requests where the estimates are largest and least known, at most ROUND at once, until
// the budget is spent or everything is known. A cut falls on a key read, inside a sampled
// folder on a key its sample places, else at a folder's edge.
//
// Rounds depend only on what earlier rounds answered (answers are used in the order asked),
// so processes that plan the same unchanged range get the same ranges. A range that changed
// between two plans may be cut differently: merge checks that the shards' ranges tile the
// source exactly.
const { KeyShape } = require('../keys/key-shape');
const { compareKeys, lastKeyWith } = require('../keys/order');
const { FlatSample } = require('./flat-sample');

const ROUND = 32; // requests in flight at once

// Requests a plan of n shards may spend: a few hundred for usual shard counts, at most 1,000.
function defaultBudget(n) {
  return Math.min(1000, 64 + 6 * n);
}

class Folder {
  constructor(prefix, parent) {
    this.prefix = prefix;
    this.parent = parent;
    this.walked = false;
    this.keys = []; // its own keys (walked)
    this.children = []; // its folders (walked)
    this.flat = null; // a sample, for a folder of more than one page
  }

  get known() { return this.walked || this.flat !== null; }
}

/**
 * @param store a store with listPage({prefix, startAfter, delimiter, maxKeys, signal})
 * @param range {prefix, after, stop} (keys/range.js normalizeRange)
 * @param n shards (1 or more)
 * @param o {budget (list requests), signal, stats}
 * @returns {ranges: [{index, startAfter, stopAt, estimatedObjects, empty?}], requests, estimatedObjects, exact}
 */
async function planShards(store, range, n, { budget = defaultBudget(n), signal, stats } = {}) {
  const shape = new KeyShape();
  let requests = 0;
  const list = async (prefix, startAfter, delimiter) => {
    requests++;
    if (stats) { stats.listRequests++; stats.pages++; if (delimiter) stats.folderListings++; }
    const page = await store.listPage({ prefix, startAfter: startAfter || undefined, delimiter, maxKeys: 1000, signal });
    for (const item of page.items) shape.learn(item.Key);
    return page;
  };
  const sampled = (pfx, startAfter) => list(pfx, startAfter);

  // A range that starts or stops inside the prefix is sampled as one flat range.
  if (range.after || range.stop !== null || !store.delimiters) {
    const flat = new FlatSample(sampled, range.prefix, range.after || '', range.stop, shape);
    while (requests < budget && !flat.done) await flat.probe(flat.choose(Math.min(ROUND, budget - requests)));
    const total = flat.total;
    const cuts = [];
    for (let j = 1; j < n; j++) cuts.push({ key: flat.keyAtRank((total * j) / n), cum: (total * j) / n });
    return { ranges: rangesFromCuts(range, monotone(cuts), total), requests, estimatedObjects: Math.round(total), exact: flat.done };
  }

  const root = new Folder(range.prefix, null);
  // A folder not walked counts as the mean of its walked siblings; with none, as the mean of
  // walked folders as deep as it; with none, of every folder known; with none, as unknown.
  const known = (f) => (f.flat ? f.flat.done : f.walked && f.children.every(known));
  // A folder whose size has a basis of its own: walked to the bottom, or sampled enough to estimate.
  const sized = (f) => (f.flat ? Number.isFinite(f.flat.total) && f.flat.intervals.some((iv) => iv.read) : f.walked && f.children.every(sized));
  const byDepth = new Map();
  const depthOf = (f) => (f.parent ? depthOf(f.parent) + 1 : 0);
  const estimate = (f) => {
    if (f.flat) return f.flat.total;
    if (f.walked) return f.keys.length + f.children.reduce((s, c) => s + estimate(c), 0);
    const sibs = f.parent ? f.parent.children.filter((c) => sized(c)) : [];
    if (sibs.length) return sibs.reduce((s, c) => s + estimate(c), 0) / sibs.length;
    const deep = byDepth.get(depthOf(f)) || [];
    if (deep.length) return deep.reduce((a, b) => a + b, 0) / deep.length;
    const all = [...byDepth.values()].flat();
    return all.length ? all.reduce((a, b) => a + b, 0) / all.length : unknown;
  };
  // While planning, a folder nothing can size is to be walked first (unknown is infinite);
  // once the budget is spent, folders nothing could size weigh one each, so the cuts share
  // out the tree's breadth.
  let unknown = Infinity;
  // Sizes of folders known exactly (or sampled to the end), by depth, for the fallbacks above.
  const learnSizes = (f) => {
    if (sized(f)) { const d = depthOf(f); if (!byDepth.has(d)) byDepth.set(d, []); byDepth.get(d).push(estimate(f)); }
    if (f.walked) for (const c of f.children) learnSizes(c);
  };
  // Leaves that more requests could teach something: folders not yet walked, and sampled
  // folders with unread stretches; with how much they could still be wrong by.
  const open = (f, out = []) => {
    if (f.flat) { if (!f.flat.done) out.push([f, f.flat.uncertainty]); } else if (!f.walked) out.push([f, estimate(f)]);
    else for (const c of f.children) open(c, out);
    return out;
  };

  while (requests < budget) {
    const leaves = open(root);
    if (!leaves.length) break;
    leaves.sort((a, b) => (b[1] - a[1]) || compareKeys(a[0].prefix, b[0].prefix));
    let left = Math.min(ROUND, budget - requests);
    const walks = [], probes = [];
    for (const [f] of leaves) {
      if (left <= 0) break;
      if (f.flat) {
        const chosen = f.flat.choose(Math.min(left, 8));
        if (chosen.length) { probes.push([f, chosen]); left -= chosen.length; }
      } else { walks.push(f); left--; }
    }
    if (!walks.length && !probes.length) break;
    const walked = walks.map((f) => list(f.prefix, undefined, '/'));
    const sampledRounds = probes.map(([f, chosen]) => f.flat.probe(chosen));
    const pages = await Promise.all(walked);
    await Promise.all(sampledRounds);
    walks.forEach((f, i) => {
      const page = pages[i];
      // More than a page of entries: sampled as a flat range; when the page holds keys only,
      // it is the range's first page already.
      if (page.truncated) {
        f.flat = new FlatSample(sampled, f.prefix, '', null, shape);
        if (!(page.prefixes || []).length) f.flat.seed(page);
        return;
      }
      f.walked = true;
      f.keys = page.items.map((it) => it.Key).filter((k) => k.startsWith(f.prefix));
      f.children = (page.prefixes || []).map((p) => new Folder(p, f));
    });
    byDepth.clear();
    learnSizes(root);
  }

  unknown = 1;
  const total = estimate(root);
  if (process.env.SHARD_DEBUG) { const show = (f, d) => { if (d > (+process.env.SHARD_DEPTH || 3)) return; console.log("  ".repeat(d) + f.prefix, f.flat ? "flat" : f.walked ? "walked" : "-", Math.round(estimate(f)), f.flat ? f.flat.intervals.filter((iv) => iv.read).length + " reads" : ""); if (f.walked) for (const c of f.children.slice(0, +process.env.SHARD_KIDS || 6)) show(c, d + 1); }; show(root, 0); }
  const safeTotal = Number.isFinite(total) ? total : 0;
  const cuts = [];
  for (let j = 1; j < n; j++) cuts.push({ key: cutAt(root, (safeTotal * j) / n, estimate), cum: (safeTotal * j) / n });
  return { ranges: rangesFromCuts(range, monotone(cuts), safeTotal), requests, estimatedObjects: Math.round(safeTotal), exact: known(root) };
}

// The cut key near rank `need` of folder f's keys: a key of its own, a cut its sample places,
// or the edge of a folder not walked (the one nearer the rank). null: past its end.
function cutAt(f, need, estimate) {
  if (f.flat) return f.flat.keyAtRank(need);
  if (!f.walked) return null;
  // Its own keys and its folders, in key order (a folder's keys all sort after its prefix).
  const entries = [...f.keys.map((k) => ({ key: k })), ...f.children.map((c) => ({ folder: c }))];
  entries.sort((a, b) => compareKeys(a.key ?? a.folder.prefix, b.key ?? b.folder.prefix));
  let cum = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.key !== undefined) {
      cum += 1;
      if (cum >= need) return e.key;
      continue;
    }
    const est = estimate(e.folder);
    const size = Number.isFinite(est) ? est : 0;
    if (cum + size < need) { cum += size; continue; }
    const inside = e.folder.known ? cutAt(e.folder, need - cum, estimate) : null;
    if (inside) return inside;
    // Before the folder's keys (its prefix: only a folder marker would sort at or before it),
    // or after them (the next entry's edge, or the last key the folder could hold).
    if (need - cum < size / 2) return e.folder.prefix;
    const next = entries[i + 1];
    if (!next) return lastKeyWith(e.folder.prefix);
    return next.key !== undefined ? lastKeyWith(e.folder.prefix) : next.folder.prefix;
  }
  return null;
}

// Cuts never go back: a cut below the one before it is raised to it (an empty shard).
function monotone(cuts) {
  let floor = null;
  for (const c of cuts) {
    if (c.key === '') c.key = null;
    if (c.key !== null && floor !== null && compareKeys(c.key, floor) < 0) c.key = floor;
    if (c.key !== null) floor = c.key;
  }
  return cuts;
}

// Shards (startAfter, stopAt] between the cuts. A cut at the end of the range (null) leaves
// the shards after it empty: a bucket with fewer keys than shards gives some shards nothing.
function rangesFromCuts(range, cuts, total) {
  const ranges = [];
  let after = range.after || null;
  let prevCum = 0, ended = false;
  for (let j = 0; j < cuts.length + 1; j++) {
    const cut = j < cuts.length && cuts[j].key !== null ? cuts[j] : { key: range.stop, cum: total };
    if (ended) { ranges.push({ index: j, empty: true, startAfter: null, stopAt: null, estimatedObjects: 0 }); continue; }
    const empty = cut.key !== null && after !== null && compareKeys(after, cut.key) >= 0;
    ranges.push(empty ? { index: j, empty: true, startAfter: null, stopAt: null, estimatedObjects: 0 }
      : { index: j, startAfter: after, stopAt: cut.key, estimatedObjects: Math.max(0, Math.round(cut.cum - prevCum)) });
    if (!empty) { after = cut.key; prevCum = cut.cum; }
    if (cut.key === range.stop) ended = true;
  }
  return ranges;
}

module.exports = { planShards, defaultBudget, rangesFromCuts };
