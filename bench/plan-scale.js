'use strict';
// The cost of a shard plan of a billion keys (issue 19), on the synthetic store of the unit
// tests (keys computed from their index, nothing stored): list requests against the budget
// (defaultBudget: 664 up to 100 shards, 6 more a shard beyond, at most 1,000), rounds of
// requests in flight at once (each a round trip, so the time at a given latency), and how
// even the shards are, counted exactly from the key indexes.
// Usage: node bench/plan-scale.js [--keys 1e9] [--latency-ms 50]
const { planShards, defaultBudget } = require('../src/plan/shard-plan');
const { normalizeRange } = require('../src/keys/range');
const { SyntheticStore } = require('../test/helpers/synthetic-store');

// Requests asked in the same turn of the event loop answer together: one round trip each round.
function onRounds(store) {
  let open = null;
  const counter = { rounds: 0 };
  const list = store.listPage.bind(store);
  store.listPage = (args) => {
    if (!open) {
      counter.rounds++;
      open = new Promise((resolve) => setImmediate(() => { open = null; resolve(); }));
    }
    return open.then(() => list(args));
  };
  return counter;
}

async function main() {
  const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i < 0 ? dflt : Number(process.argv[i + 1]); };
  const n = arg('--keys', 1e9), latency = arg('--latency-ms', 50);
  console.log(`| keys | key shape | shards | budget | list requests | rounds | time at ${latency} ms | largest / mean | smallest / mean |`);
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const shape of ['flat', 'tree']) {
    for (const shards of [10, 50, 100, 1000]) {
      const store = new SyntheticStore(n, { width: 10, shape });
      const clock = onRounds(store);
      const plan = await planShards(store, normalizeRange({}), shards);
      const rank = (k) => (k === null ? n : store._after(k)); // keys <= k
      const sizes = plan.ranges.map((r) => (r.empty ? 0 : rank(r.stopAt) - (r.startAfter === null ? 0 : rank(r.startAfter))));
      const total = sizes.reduce((a, b) => a + b, 0);
      if (total !== n) throw new Error(`${shape} ${shards}: the shards hold ${total} keys, not ${n}`);
      const mean = n / shards;
      console.log(`| ${n.toLocaleString('en-US')} | ${shape} (${store.key(123456789)}) | ${shards} | ${defaultBudget(shards)} | ${plan.requests} | ${clock.rounds} | ${(clock.rounds * latency / 1000).toFixed(1)} s | ${(Math.max(...sizes) / mean).toFixed(2)} | ${(Math.min(...sizes) / mean).toFixed(2)} |`);
    }
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
