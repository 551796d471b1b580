#!/usr/bin/env node
'use strict';
// Directory buckets on a virtual clock (issue 32): the same keys listed from a general-purpose
// bucket (the parallel lister, test/helpers/fake-list-store.js) and from a directory bucket
// (directory by directory, test/helpers/fake-directory-store.js: unordered pages, no
// StartAfter), each request one round trip, so the rate ratio is the ratio of round trips
// on any machine, at any load. For each layout and order: keys exact (against the keys
// sorted by their UTF-8 bytes here), round trips and LIST requests of both, the directory
// bucket's rate as a share of the general-purpose one, and client CPU per 1,000 keys (less
// the fake stores' own page making; the listing's JavaScript only, on one thread). Beside
// them, the fewest round trips any lister could take on the directory bucket
// (test/helpers/directory-bounds.js) and the share that bound would give: what the API costs a
// layout, apart from what the lister wastes.
//
//   node bench/sim-directory.js [--keys N] [--layouts a,b|none] [--generated N] [--seed S] [--concurrency C] [--json]
//   node bench/sim-directory.js --shards 16,100 [--keys N] ...: shard plans instead
const { LAYOUTS, generateLayout } = require('../test/generators/layouts');
const { FakeListStore } = require('../test/helpers/fake-list-store');
const { FakeDirectoryStore } = require('../test/helpers/fake-directory-store');
const { Listing } = require('../src');
const { directoryBounds } = require('../test/helpers/directory-bounds');
const { options } = require('./args');

function parseArgs(argv) {
  const { opt } = options(argv);
  const layouts = opt('--layouts', Object.keys(LAYOUTS).join(','));
  return {
    count: Number(opt('--keys', 200000)), names: layouts === 'none' ? [] : layouts.split(','),
    generated: Number(opt('--generated', 0)), seed: Number(opt('--seed', 1)), concurrency: Number(opt('--concurrency', 100)),
    json: argv.includes('--json'), shards: opt('--shards', null) && opt('--shards').split(',').map(Number),
  };
}

function* layouts(o) {
  for (const name of o.names) yield { name, keys: LAYOUTS[name](o.count, o.seed) };
  for (let i = 0; i < o.generated; i++) {
    const l = generateLayout(o.seed + i, o.count);
    yield { name: l.name, keys: l.keys };
  }
}

// One listing: its keys in the order given, round trips, requests, CPU per 1,000 keys.
async function run(store, { ordered, concurrency }) {
  store.open ??= async () => {};
  store.destroy ??= () => {};
  const cpu = process.cpuUsage();
  const listing = new Listing({ store, unordered: !ordered, listConcurrency: concurrency, splitHints: false });
  const keys = [];
  for await (const chunk of listing.chunks()) for (let k = 0; k < chunk.length; k++) keys.push(chunk.key(k));
  const used = process.cpuUsage(cpu);
  const client = used.user + used.system - (store.serveMicros || 0); // less the fake store's own page making
  return { keys, rounds: store.round, requests: listing.stats.listRequests, cpuMsPer1000: client / 1000 / (keys.length / 1000) };
}

// --shards N,M: shard plans of the directory bucket instead: list requests, and the largest
// and smallest shard (keys counted in each range) as shares of the mean.
async function shardPlans(o) {
  const { plan } = require('../src/stages/shards');
  const { inRange } = require('../src/keys/range');
  console.log('layout          shards  requests  exact  largest/mean  smallest/mean');
  const out = [];
  for (const l of layouts(o)) {
    for (const n of o.shards) {
      const store = new FakeDirectoryStore(l.keys, { seed: o.seed });
      const p = await plan({ store, shards: n });
      const sizes = p.ranges.map((r) => (r.empty ? 0 : l.keys.filter((k) => inRange({ prefix: '', after: r.startAfter || '', stop: r.stopAt }, k)).length));
      const mean = l.keys.length / n;
      const row = { layout: l.name, shards: n, requests: p.requests, exact: p.exact, largest: Math.max(...sizes) / mean, smallest: Math.min(...sizes) / mean };
      out.push(row);
      console.log(`${l.name.padEnd(14)}  ${String(n).padStart(6)}  ${String(p.requests).padStart(8)}  ${String(p.exact).padStart(5)}  ${row.largest.toFixed(2).padStart(12)}  ${row.smallest.toFixed(2).padStart(13)}`);
    }
  }
  return out;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.shards) { await shardPlans(o); return; }
  const results = [];
  if (!o.json) console.log(`${o.count} keys, concurrency ${o.concurrency}; share: general-purpose round trips / directory-bucket round trips (the directory bucket's rate as a share); bound: the fewest round trips any lister could take there (test/helpers/directory-bounds.js), and the share that would give\nlayout          order      exact  gp rounds  gp LISTs  dir rounds  dir LISTs  share  bound  best share  cpu/1k gp  cpu/1k dir`);
  for (const l of layouts(o)) {
    const want = l.keys.map((k) => [Buffer.from(k), k]).sort((a, b) => Buffer.compare(a[0], b[0])).map((x) => x[1]);
    const bound = directoryBounds(l.keys, { concurrency: o.concurrency });
    for (const ordered of [true, false]) {
      const gp = await run(new FakeListStore(l.keys, { rounds: true, trace: true }), { ordered, concurrency: o.concurrency });
      const dir = await run(new FakeDirectoryStore(l.keys, { rounds: true, seed: o.seed }), { ordered, concurrency: o.concurrency });
      const got = ordered ? dir.keys : dir.keys.map((k) => [Buffer.from(k), k]).sort((a, b) => Buffer.compare(a[0], b[0])).map((x) => x[1]);
      const exact = got.length === want.length && got.every((k, i) => k === want[i]);
      const r = { layout: l.name, ordered, exact, gp: { rounds: gp.rounds, requests: gp.requests, cpuMsPer1000: gp.cpuMsPer1000 }, dir: { rounds: dir.rounds, requests: dir.requests, cpuMsPer1000: dir.cpuMsPer1000 }, share: gp.rounds / dir.rounds, bound, bestShare: Math.min(1, gp.rounds / bound.rounds) };
      results.push(r);
      if (!o.json) {
        console.log([l.name.padEnd(14), (ordered ? 'ordered' : 'unordered').padEnd(9), (exact ? 'yes' : 'NO').padStart(5), String(gp.rounds).padStart(9), String(gp.requests).padStart(8),
          String(dir.rounds).padStart(10), String(dir.requests).padStart(9), r.share.toFixed(2).padStart(5), String(bound.rounds).padStart(5), r.bestShare.toFixed(2).padStart(10), gp.cpuMsPer1000.toFixed(1).padStart(9), dir.cpuMsPer1000.toFixed(1).padStart(10)].join('  '));
      }
    }
  }
  const shares = results.map((r) => r.share).sort((a, b) => a - b);
  // Of the share the API allows (bestShare), how much the lister reached.
  const reached = results.map((r) => r.share / r.bestShare).sort((a, b) => a - b);
  const summary = {
    runs: results.length, exact: results.filter((r) => r.exact).length, share: { min: shares[0], median: shares[shares.length >> 1] }, atLeastHalf: results.filter((r) => r.share >= 0.5).length,
    ofBest: { min: reached[0], median: reached[reached.length >> 1] }, bestAtLeastHalf: results.filter((r) => r.bestShare >= 0.5).length,
  };
  if (o.json) console.log(JSON.stringify({ keys: o.count, concurrency: o.concurrency, seed: o.seed, results, summary }, null, 1));
  else console.log(`exact ${summary.exact}/${summary.runs}; share min ${summary.share.min.toFixed(2)}, median ${summary.share.median.toFixed(2)}; at least 0.5 on ${summary.atLeastHalf}/${summary.runs} (possible on ${summary.bestAtLeastHalf}); of the best share, min ${summary.ofBest.min.toFixed(2)}, median ${summary.ofBest.median.toFixed(2)}`);
  if (summary.exact !== summary.runs) process.exitCode = 1;
}

main().catch((err) => { console.error(err); process.exit(1); });
