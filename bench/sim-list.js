#!/usr/bin/env node
'use strict';
// The lister on a virtual clock: every key layout of bench/layouts.js in an in-memory
// store where each request takes one round trip, so round trips, requests and requests
// in flight can be compared without a network or a busy machine deciding the result.
//
//   node bench/sim-list.js [--keys N] [--layouts a,b] [--concurrency C] [--seed S] [--unordered|--ordered]
const { LAYOUTS } = require('./layouts');
const { FakeListStore } = require('../test/helpers/fake-list-store');
const { GuardedLister } = require('../src/list/guarded-lister');
const { normalizeRange } = require('../src/keys/range');
const { RequestStats } = require('../src/stats');

async function simulate(keys, { concurrency = 100, ordered = true, store: storeOpts = {}, lister = {} } = {}) {
  const store = new FakeListStore(keys, { rounds: true, ...storeOpts });
  const stats = new RequestStats();
  const g = new GuardedLister(store, { range: normalizeRange({}), listConcurrency: concurrency, ordered, stats, log: () => {}, ...lister });
  let n = 0, firstRound = null;
  for await (const chunk of g.chunks()) {
    if (firstRound === null && chunk.length) firstRound = store.round;
    n += chunk.length;
  }
  return {
    keys: n, expected: store.keys.length, rounds: store.round, firstRound, requests: store.requests,
    efficiency: n / (store.requests * 1000), meanInflight: store.inflightRounds / Math.max(1, store.round),
    stats,
  };
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, d) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : d; };
  const count = +opt('--keys', 1e6);
  const names = opt('--layouts', Object.keys(LAYOUTS).join(',')).split(',');
  const concurrency = +opt('--concurrency', 100);
  const seed = +opt('--seed', 1);
  const orders = args.includes('--unordered') ? [false] : args.includes('--ordered') ? [true] : [true, false];
  console.log(`layout        order      keys   rounds  first  requests  eff.   mean in flight`);
  for (const name of names) {
    const keys = LAYOUTS[name](count, seed);
    for (const ordered of orders) {
      const t = Date.now();
      const r = await simulate(keys, { concurrency, ordered, lister: { folders: !args.includes('--no-folders') } });
      const ok = r.keys === r.expected ? '' : `  WRONG: ${r.keys} of ${r.expected}`;
      console.log(`${name.padEnd(12)}  ${ordered ? 'ordered  ' : 'unordered'}  ${String(r.keys).padStart(7)}  ${String(r.rounds).padStart(6)}  ${String(r.firstRound).padStart(5)}  ` +
        `${String(r.requests).padStart(8)}  ${r.efficiency.toFixed(2)}  ${r.meanInflight.toFixed(1).padStart(6)}   (${((Date.now() - t) / 1000).toFixed(1)} s)${ok}`);
    }
  }
}

if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });

module.exports = { simulate };
