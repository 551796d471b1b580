#!/usr/bin/env node
'use strict';
// Shard plans of layouts drawn from the layout families (test/generators/layout-families.js),
// in memory: planShards over a FakeListStore of each layout, and how even the shards are,
// counted from the keys (largest and smallest shard over the mean), with the plan's list
// requests, round trips (rounds of requests in flight together) and CPU (the planner's and
// the in-memory store's together). The last lines: per shard count, the geometric mean of
// largest / mean, the worst, and how many layouts are within 1.3 (issue 28's aim).
//
//   node bench/plan-drawn.js [--seed 2811] [--count 20] [--keys 1000000] [--shards 16,100]
//     [--budget N (default: the plan's own default for each shard count)]
const { planShards, defaultBudget } = require('../src/plan/shard-plan');
const { normalizeRange } = require('../src/keys/range');
const { FakeListStore } = require('../test/helpers/fake-list-store');
const { generateLayout } = require('../test/generators/layouts');
const { options } = require('./args');
const { planBalance } = require('./plan-balance');

const AIM = 1.3;

async function main() {
  const { opt, num } = options(process.argv.slice(2));
  const seed = num('--seed', 2811), count = num('--count', 20), keys = num('--keys', 1e6);
  const shardCounts = opt('--shards', '16,100').split(',').map(Number);
  const budget = num('--budget', null);
  const rows = [];
  for (let s = seed; s < seed + count; s++) {
    const made = generateLayout(s, keys);
    const store = new FakeListStore(made.keys, { jitter: false });
    const sorted = store.expected();
    const cells = [made.name];
    for (const n of shardCounts) {
      const cpu = process.cpuUsage();
      const plan = await planShards(store, normalizeRange({}), n, { budget: budget ?? defaultBudget(n) });
      const used = process.cpuUsage(cpu);
      const b = planBalance(plan, sorted);
      if (b.count !== sorted.length) throw new Error(`${made.name}, ${n} shards: the shards hold ${b.count} keys, not ${sorted.length}`);
      const row = { layout: made.name, seed: s, shards: n, requests: plan.requests, rounds: plan.rounds, largest: b.balance, smallest: b.smallest, cpuSec: (used.user + used.system) / 1e6 };
      rows.push(row);
      cells.push(`${n}: ${row.largest.toFixed(2)} (${row.requests} req, ${row.rounds} rounds, ${row.cpuSec.toFixed(1)} s)`);
    }
    console.log(cells.join('  '));
  }
  for (const n of shardCounts) {
    const b = rows.filter((r) => r.shards === n).map((r) => r.largest);
    const gm = Math.exp(b.reduce((a, x) => a + Math.log(x), 0) / b.length);
    console.log(`${n} shards: largest / mean geometric mean ${gm.toFixed(2)}, worst ${Math.max(...b).toFixed(2)}, within ${AIM}: ${b.filter((x) => x <= AIM).length} of ${b.length}`);
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
