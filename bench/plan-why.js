#!/usr/bin/env node
'use strict';
// Why a shard plan of a drawn layout is uneven: the plan's largest shards, each with what it
// holds (counted from the keys) beside what the plan estimated, the folders it spans, and
// where the plan's list requests went (by folder, with or without a delimiter). Reads only
// what any caller sees (the ranges, and the requests, counted by wrapping the store), so it
// explains a plan without reaching into the planner. bench/plan-drawn.js measures; this says
// where to look.
//
//   node bench/plan-why.js --seed 2818 [--shards 100] [--keys 1000000] [--depth 2] [--top 4]
//     [--budget N (default: the plan's own default)]
const { planShards, defaultBudget } = require('../src/plan/shard-plan');
const { normalizeRange } = require('../src/keys/range');
const { compareKeys } = require('../src/keys/order');
const { FakeListStore } = require('../test/helpers/fake-list-store');
const { generateLayout } = require('../test/generators/layouts');
const { options } = require('./args');

// The folder of `key` `depth` levels down (fewer where the key has fewer).
const folderOf = (key, depth) => {
  const parts = key.split('/');
  return parts.slice(0, Math.min(parts.length - 1, depth)).map((p) => `${p}/`).join('');
};
const short = (s, n = 60) => (s === null ? 'the end' : s.length > n ? `${s.slice(0, n)}…` : s);

async function main() {
  const { num } = options(process.argv.slice(2));
  const seed = num('--seed', 2811), n = num('--shards', 100), keys = num('--keys', 1e6);
  const depth = num('--depth', 2), top = num('--top', 4);
  const made = generateLayout(seed, keys);
  const store = new FakeListStore(made.keys, { jitter: false });
  const sorted = store.expected();
  const requests = new Map(); // "folder, delimiter or flat" -> count
  const counted = {
    delimiters: store.delimiters,
    listPage(o) {
      const k = `${folderOf(`${o.prefix || ''}x`, depth) || '(top)'} ${o.delimiter ? 'by folders' : 'flat'}`;
      requests.set(k, (requests.get(k) || 0) + 1);
      return store.listPage(o);
    },
  };
  const plan = await planShards(counted, normalizeRange({}), n, { budget: num('--budget', null) ?? defaultBudget(n) });

  const rank = (k) => { // keys <= k
    if (k === null) return sorted.length;
    let lo = 0, hi = sorted.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (compareKeys(sorted[m], k) <= 0) lo = m + 1; else hi = m; }
    return lo;
  };
  const mean = sorted.length / n;
  console.log(`${made.name}: ${made.params}`);
  console.log(`${n} shards, ${plan.requests} list requests, ${plan.rounds} round trips; keys ${sorted.length.toLocaleString('en-US')}, estimated ${plan.estimatedObjects.toLocaleString('en-US')}`);
  const shards = plan.ranges.filter((r) => !r.empty).map((r) => {
    const from = r.startAfter === null ? 0 : rank(r.startAfter);
    return { ...r, from, count: rank(r.stopAt) - from };
  }).sort((a, b) => b.count - a.count);
  for (const s of shards.slice(0, top)) {
    console.log(`\nshard ${s.index}: ${s.count.toLocaleString('en-US')} keys (${(s.count / mean).toFixed(2)} x the mean), estimated ${s.estimatedObjects.toLocaleString('en-US')}`);
    console.log(`  (${short(s.startAfter)}, ${short(s.stopAt)}]`);
    const within = new Map();
    for (let i = s.from; i < s.from + s.count; i++) {
      const f = folderOf(sorted[i], depth) || '(top)';
      within.set(f, (within.get(f) || 0) + 1);
    }
    const largest = [...within].sort((a, b) => b[1] - a[1]).slice(0, 5);
    console.log(`  ${within.size} folders ${depth} levels down; the largest: ${largest.map(([f, c]) => `${short(f, 40)} ${c.toLocaleString('en-US')}`).join(', ')}`);
  }
  console.log('\nlist requests by folder:');
  for (const [k, c] of [...requests].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${String(c).padStart(5)}  ${short(k, 80)}`);
}

main().catch((err) => { console.error(err); process.exit(1); });
