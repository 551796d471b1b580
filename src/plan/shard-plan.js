'use strict';
// A plan of N shards: the key range cut into N disjoint ranges (startAfter, stopAt] of about
// equal object counts, from a bounded sample of list requests, so N processes (on N machines,
// under whatever runs them) can each take one.
//
// Buckets are trees of folders, and a folder's size says more about its siblings' than any
// key arithmetic can, so the plan reads the tree from the top with folder listings
// (Delimiter "/"). A folder large enough to need it is a sample of its entries
// (flat-sample.js): its first page lists its keys and folders; a folder of more than a page
// is probed further, its unread stretches estimated from the pages around them. Folders
// that may fit in a page (their sized siblings' mean does, or nothing is known yet) are
// swept instead: a flat page (no delimiter) from one's start counts it, and every sibling
// after it that the page passes, exactly, a page of keys a request however small they are;
// a sibling the page ends inside is swept on from there, and one a whole page of keys lies
// in is large: it is listed by folders. Sweeping sizes many small folders for one request
// and finds the large folder hidden among them. A folder not sized yet counts as the mean
// of its siblings that have a size of their own (swept, or listed and their folders sized
// in turn), else of such folders as deep as it. A tree too deep and narrow to reach the
// bottom of (levels of two to four folders and no keys) is sampled flat from its top
// instead: a flat page sizes a small subtree at once, and the key shape measures the large
// ones.
//
// Each round spends at most PLAN_ROUND requests where the most keys rest on the least
// knowledge: unread stretches that could hold the most, and folders whose siblings'
// estimate rests on few listed ones (a sweep counting at most the page of keys it reads).
// A cut falls on a key read, inside a sampled stretch on a key its estimate places, else at
// a folder's edge.
//
// Rounds depend only on what earlier rounds answered (answers are used in the order asked),
// so processes that plan the same unchanged range get the same ranges. A range that changed
// between two plans may be cut differently: merge checks that the shards' ranges tile the
// source exactly.
const { KeyShape } = require('./key-shape');
const { compareKeys, keyBefore, lastKeyWith } = require('../keys/order');
const { FlatSample, PAGE } = require('./flat-sample');
const { spread } = require('./spread');
const T = require('./tuning').values;

// Tuning (tuning.js): PLAN_ROUND requests in flight at once; PLAN_PACE requests a round for
// what has a basis while some folders have none; PLAN_SPARSE_LEVELS levels of two to
// PLAN_SPARSE_FOLDERS folders and no keys before a subtree is sampled flat.

// Requests a plan of n shards may spend: what PLAN_BUDGET_MIN_SHARDS shards get at least, at
// most PLAN_BUDGET_MAX. A bucket read whole sooner costs less (the plan is then exact).
function defaultBudget(n) {
  return Math.min(T.PLAN_BUDGET_MAX, T.PLAN_BUDGET_BASE + T.PLAN_BUDGET_PER_SHARD * Math.max(n, T.PLAN_BUDGET_MIN_SHARDS));
}

class Folder {
  constructor(prefix, parent) {
    this.prefix = prefix;
    this.parent = parent;
    this.depth = parent ? parent.depth + 1 : 0;
    this.sample = null; // started: its first page asked for
    this.flat = false; // sampled without a delimiter (its subfolders are not planned apart)
    this.swept = null; // {count, marks}: read whole by flat pages (a sweep)
    this.lead = null; // {after, count, marks}: a sweep's page ended inside it, after `after`
    this.sorted = null; // its children in key order (made again when more are listed)
    this.children = new Map(); // prefix -> Folder, as its pages list them
  }
}

/**
 * @param store a store with listPage({prefix, startAfter, delimiter, maxKeys, signal})
 * @param range {prefix, after, stop} (keys/range.js normalizeRange)
 * @param n shards (1 or more)
 * @param o {budget (list requests), signal, stats}
 * @returns {ranges: [{index, startAfter, stopAt, estimatedObjects, empty?}], requests, rounds (of requests in flight together), estimatedObjects, exact}
 */
async function planShards(store, range, n, { budget = defaultBudget(n), signal, stats } = {}) {
  const shape = new KeyShape();
  let requests = 0, rounds = 0;
  const list = async (prefix, startAfter, delimiter) => {
    requests++;
    if (stats) { stats.listRequests++; stats.pages++; if (delimiter) stats.folderListings++; }
    const page = await store.listPage({ prefix, startAfter: startAfter || undefined, delimiter, maxKeys: 1000, signal });
    for (const item of page.items) shape.learn(item.Key);
    for (const p of page.prefixes || []) shape.learn(p, true);
    return page;
  };

  // A range that starts or stops inside the prefix, or a store without folders, is sampled flat.
  const flatOnly = Boolean(range.after || range.stop !== null || !store.delimiters);
  const folders = new Map(); // prefix -> Folder
  const start = (f) => {
    f.sample = new FlatSample(list, f.prefix, f === root ? range.after || '' : '', f === root ? range.stop : null, shape,
      f.flat ? {} : { delimiter: '/', weigh: (p) => estimate(folders.get(p)) });
  };
  const root = new Folder(range.prefix, null);
  root.flat = flatOnly;
  folders.set(root.prefix, root);
  start(root);

  // Estimates, made again each round. A folder not started counts as the mean of its
  // grounded siblings (a size of their own), else of grounded folders as deep as it, else
  // as unknown (Infinity while planning: to be listed first; once the budget is spent, one).
  let memo = new Map(), grounded = new Map(), unknown = Infinity;
  const isGrounded = (f) => {
    if (grounded.has(f)) return grounded.get(f);
    let g = Boolean(f.swept);
    if (!g && f.sample && f.sample.started && f.sample.estimable) g = !f.children.size || [...f.children.values()].some(isGrounded);
    grounded.set(f, g);
    return g;
  };
  const byDepth = new Map(); // depth -> grounded folders
  const mean = (fs) => fs.reduce((s, x) => s + estimate(x), 0) / fs.length;
  // The mean estimate of a list of folders, made once a round for each list (a folder not
  // started is in none of them, so all its siblings share one: a bucket of 100,000 folders
  // is not weighed 100,000 times over).
  let means = new Map();
  const meanOf = (key, list) => {
    if (!means.has(key)) { const fs = list(); means.set(key, fs.length ? mean(fs) : null); }
    return means.get(key);
  };
  const estimate = (f) => {
    if (!f) return 0;
    if (memo.has(f)) return memo.get(f);
    let e;
    if (f.swept) e = f.swept.count;
    else if (f.sample && f.sample.started) e = f.sample.total;
    else {
      const p = f.parent, g = p && p.parent;
      const sibs = p ? meanOf(p, () => [...p.children.values()].filter(isGrounded)) : null;
      // None of its siblings sized, but its parent's are: a share of what they hold (folders
      // as deep elsewhere in the tree may be of another kind altogether).
      const up = sibs === null && g ? meanOf(`up ${p.prefix}`, () => [...g.children.values()].filter((c) => c !== p && isGrounded(c))) : null;
      const deep = meanOf(`depth ${f.depth}`, () => byDepth.get(f.depth) || []);
      e = sibs !== null ? sibs : up !== null ? up / p.children.size : deep !== null ? deep : unknown;
      if (f.lead) e = Math.max(e, f.lead.count);
    }
    memo.set(f, e);
    return e;
  };
  const refresh = () => {
    memo = new Map();
    means = new Map();
    grounded = new Map();
    byDepth.clear();
    for (const f of folders.values()) {
      if (f.sample) f.sample.invalidate();
      if (isGrounded(f)) { if (!byDepth.has(f.depth)) byDepth.set(f.depth, []); byDepth.get(f.depth).push(f); }
    }
    means = new Map(); // means taken while byDepth was filling are made again whole
  };

  // Folders the pages listed become folders of the plan.
  const adopt = () => {
    for (const f of [...folders.values()]) {
      if (!f.sample || f.flat) continue;
      for (const p of f.sample.folders) {
        if (f.children.has(p)) continue;
        const c = new Folder(p, f);
        f.children.set(p, c);
        f.sorted = null;
        folders.set(p, c);
      }
    }
  };

  // A subtree too deep and narrow to size by listing folders: sampled flat from its top.
  const sparse = (f) => f && f.sample && !f.flat && f.sample.done && f.sample.folders.length >= 1 && f.sample.folders.length <= T.PLAN_SPARSE_FOLDERS &&
    f.sample.intervals.every((iv) => iv.keys === 0);
  const flatten = () => {
    refresh();
    for (const f of [...folders.values()]) {
      if (!folders.has(f.prefix)) continue;
      let top = null;
      if (sparse(f)) {
        let levels = 0;
        for (let a = f; sparse(a); a = a.parent) { if (a.sample.folders.length >= 2) levels++; top = a; }
        if (levels < T.PLAN_SPARSE_LEVELS) top = null;
      }
      if (!top) continue;
      // What its listings showed of its folders' names is kept for the flat sample's shape.
      const names = [];
      const drop = (x) => { for (const c of x.children.values()) { folders.delete(c.prefix); names.push(c.prefix); drop(c); } };
      drop(top);
      top.children.clear();
      top.sorted = null;
      top.flat = true;
      start(top);
      for (const p of names) top.sample.shape.learn(p, true);
    }
  };

  // A flat page from folder c's start: c and each idle sibling after it that the page reads
  // past is sized exactly; c, if the page ends inside it, is started (listed by folders).
  // A page that ends inside a later sibling leaves it a lead (what was read of it): the sweep
  // goes on from there, and the sibling is started only if the next page ends inside it too.
  // The page is read at once; what it shows is applied in the order the sweeps were asked
  // (so every process that plans the same bucket plans the same, whatever answers first).
  const sweep = async (c) => {
    const p = c.parent, lead = c.lead;
    const page = await list(p.prefix, lead ? lead.after : keyBefore(c.prefix) || '', undefined);
    return () => sweepShows(c, lead, page);
  };
  const sweepShows = (c, lead, page) => {
    const p = c.parent;
    c.lead = null;
    const keys = page.items.map((it) => it.Key);
    const last = keys.length ? keys[keys.length - 1] : null;
    if (!p.sorted) p.sorted = [...p.children.values()].sort((a, b) => compareKeys(a.prefix, b.prefix));
    const sibs = p.sorted;
    const at = sibs.indexOf(c);
    if (at < 0) return; // no longer a folder of the plan (its parent sampled flat since)
    let i = 0;
    for (let j = at; j < sibs.length; j++) {
      const d = sibs[j];
      const passed = !page.truncated || (last !== null && compareKeys(last, lastKeyWith(d.prefix)) > 0);
      while (i < keys.length && compareKeys(keys[i], d.prefix) < 0) i++;
      const base = d === c && lead ? lead.count : 0, from = i - base;
      const marks = d === c && lead ? lead.marks : [];
      while (i < keys.length && keys[i].startsWith(d.prefix)) { i++; if ((i - from) % T.SAMPLE_EVERY === 0 || i === keys.length || !keys[i].startsWith(d.prefix)) marks.push({ rank: i - from, key: keys[i - 1] }); }
      const idle = !d.sample && !d.swept;
      if (!passed) {
        // A page all inside c: c is large. One that reached into d: go on from there. One that
        // stopped before d says nothing of it.
        if (idle && d === c) start(d);
        else if (idle && i > from) d.lead = { after: keys[i - 1], count: i - from, marks };
        break;
      }
      if (idle) d.swept = { count: i - from, marks };
    }
  };

  while (requests < budget) {
    rounds++;
    refresh();
    // What a request could teach: [pri, tie, kind, ...].
    const wants = [];
    // A grounded folder's unread stretches weigh also in its idle siblings' estimates (the
    // mean of the grounded ones): what a probe there teaches, it teaches for them too.
    const levers = new Map();
    const lever = (f) => {
      if (!f.parent || !isGrounded(f)) return 1;
      if (!levers.has(f.parent)) {
        const kids = [...f.parent.children.values()];
        const idle = kids.filter((c) => !c.sample && !c.swept).length, ground = kids.filter(isGrounded).length;
        levers.set(f.parent, 1 + idle / Math.max(1, ground));
      }
      return levers.get(f.parent);
    };
    for (const f of folders.values()) {
      if (f.sample && f.sample.started) for (const [iv, u] of f.sample.open()) wants.push({ pri: u * lever(f), key: iv.lo, depth: f.depth, f, iv, k: 0, max: T.SAMPLE_PROBES });
      else if (f.sample) wants.push({ pri: Infinity, key: f.prefix, depth: f.depth, f, iv: f.sample.intervals[0], k: 0, max: 1 });
    }
    // Folders not started, by parent: the mass their estimate rests on, shared by the grounded siblings it comes from.
    for (const p of folders.values()) {
      const idle = [...p.children.values()].filter((c) => !c.sample && !c.swept);
      if (!idle.length) continue;
      const ground = [...p.children.values()].filter(isGrounded).length;
      const mass = idle.reduce((s, c) => s + estimate(c), 0);
      // Nothing to go by yet: one of them is listed; while it is being sized (its own
      // folders listed in turn), the others wait for it.
      // A guess from elsewhere in the tree is no basis either.
      if (!ground && p.children.size > idle.length) continue;
      const guess = !ground || !Number.isFinite(mass);
      // Folders likely to fit in a page (or of unknown size) are swept: a flat page from the
      // first reads it, and every sibling after it that it passes, whole.
      const swept = guess || mass / idle.length <= PAGE;
      // Sweeps go on from where earlier ones stopped (leads) before new ones start.
      const group = swept ? [...idle.filter((c) => c.lead), ...spread(idle.filter((c) => !c.lead))] : spread(idle);
      wants.push({ sweep: swept, pri: guess ? Infinity : mass / (ground + 1), key: idle[0].prefix, depth: p.depth + 1, group, ground, mass: guess ? Infinity : mass, k: 0, max: guess ? 1 : idle.length });
    }
    if (!wants.length) break;
    const gain = (w) => {
      if (!w.group) return w.pri / (w.k + 1);
      if (!Number.isFinite(w.mass)) return Infinity;
      const share = w.mass / (w.ground + 1 + w.k);
      return w.sweep ? Math.min(PAGE, share) : share; // a sweep reads at most a page of keys
    };
    const order = (a, b) => (gain(b) - gain(a)) || (a.depth - b.depth) || compareKeys(a.key, b.key);
    let left = Math.min(T.PLAN_ROUND, budget - requests);
    // While some folders have nothing to go by, they are sized first, one level a round
    // (their folders' names come with each listing): the rest waits, a few requests a round,
    // so that the budget lasts until they are.
    const blind = wants.filter((w) => w.pri === Infinity).length;
    if (blind) left = Math.min(left, blind + T.PLAN_PACE);
    for (; left > 0; left--) {
      let best = null;
      for (const w of wants) {
        if (w.k >= w.max) continue;
        const g = gain(w);
        if (w.k > 0 && !(g >= T.PLAN_PROBE_WORTH)) continue;
        if (!best || order(w, best) < 0) best = w;
      }
      if (!best) break;
      best.k++;
    }
    const chosen = wants.filter((w) => w.k > 0);
    if (!chosen.length) break;
    // Probes per sample, in the order asked.
    const probes = new Map();
    const sweeps = [];
    for (const w of chosen) {
      if (w.group && w.sweep) { for (const c of w.group.slice(0, w.k)) sweeps.push(c); continue; }
      if (w.group) {
        // A folder starts the way its siblings ended up: flat where they were sampled flat.
        const sibs = [...w.group[0].parent.children.values()];
        const flat = sibs.length >= T.PLAN_FLAT_FOLDERS && sibs.some((c) => c.flat);
        for (const c of w.group.slice(0, w.k)) { c.flat = flat; start(c); probes.set(c.sample, [[c.sample.intervals[0], '']]); }
        continue;
      }
      const pts = w.f.sample.points(w.iv, w.k);
      if (!probes.has(w.f.sample)) probes.set(w.f.sample, []);
      for (const p of pts) probes.get(w.f.sample).push([w.iv, p]);
    }
    const [, shown] = await Promise.all([Promise.all([...probes].map(([s, ps]) => s.probe(ps.slice(0, Math.max(1, ps.length))))), Promise.all(sweeps.map(sweep))]);
    for (const apply of shown) apply();
    adopt();
    flatten();
  }

  unknown = T.PLAN_UNKNOWN_KEYS;
  refresh();
  const total = estimate(root);
  const safeTotal = Number.isFinite(total) ? total : 0;
  const cutAt = (f, need) => {
    if (f && f.swept) { const m = f.swept.marks.find((x) => x.rank >= need); return m ? m.key : null; }
    return f && f.sample && f.sample.started ? f.sample.keyAtRank(need, (p, r) => cutAt(folders.get(p), r)) : null;
  };
  const cuts = [];
  for (let j = 1; j < n; j++) cuts.push({ key: cutAt(root, (safeTotal * j) / n), cum: (safeTotal * j) / n });
  const exact = [...folders.values()].every((f) => f.swept || (f.sample && f.sample.done));
  return { ranges: rangesFromCuts(range, monotone(cuts), safeTotal), requests, rounds, estimatedObjects: Math.round(safeTotal), exact };
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
