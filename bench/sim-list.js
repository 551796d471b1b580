#!/usr/bin/env node
'use strict';
// The lister on a virtual clock: the named key layouts of test/generators/ and layouts
// drawn from families of bucket shapes (issue 28), each in an in-memory store where every
// request takes one round trip, so round trips, requests and requests in flight are the
// same on any machine, at any load. For each layout, ordered and unordered, it reports
// against the issue's targets:
//   - keys exact: every key of the store exactly once (in S3 order when ordered), against
//     the store's own expected() listing;
//   - LIST requests and efficiency: unique keys / (requests x 1000);
//   - keys parsed per unique key (stats.keysReturned / stats.keysUnique);
//   - round trips, within 2 x (keys / 1000 / concurrency) + depth (the deepest key's folder levels);
//   - mean requests in flight over the round trips that began with at least
//     concurrency x 1000 keys not yet handed out by the store, at least 80% of concurrency;
//   - client CPU per 1,000 keys (process.cpuUsage around the listing, less the fake store's
//     own page making).
//
//   node bench/sim-list.js [--keys N] [--layouts a,b|none] [--generated N] [--seed S] [--family F]
//        [--concurrency C] [--ordered|--unordered] [--no-folders] [--json] [--save FILE]
//
// --json prints every figure as JSON instead of the table; --save FILE writes that JSON to
// a file beside the table.
//
// Named layouts are made with --seed; generated ones with seeds S, S+1, ... S+N-1 (the name
// says which: tree-1234 is `--generated 1 --seed 1234`).
const { LAYOUTS, generateLayout, depthRange } = require('../test/generators/layouts');
const { options } = require('./args');
const { simulate, compareListing, BUSY_SHARE } = require('../test/helpers/sim-listing');

function parseArgs(argv) {
  const { opt, num } = options(argv);
  const layouts = opt('--layouts', Object.keys(LAYOUTS).join(','));
  const names = layouts === 'none' ? [] : layouts.split(',');
  for (const n of names) if (!LAYOUTS[n]) { console.error(`unknown layout ${n} (have ${Object.keys(LAYOUTS).join(', ')})`); process.exit(2); }
  return {
    count: num('--keys', 1e6),
    names,
    generated: num('--generated', 0),
    seed: num('--seed', 1),
    family: opt('--family', null),
    concurrency: num('--concurrency', 100),
    orders: argv.includes('--unordered') ? [false] : argv.includes('--ordered') ? [true] : [true, false],
    folders: !argv.includes('--no-folders'),
    json: argv.includes('--json'),
    save: opt('--save', null),
  };
}

// The layouts to run, one at a time (a million keys each are not all held at once).
function* layouts(o) {
  for (const name of o.names) {
    const keys = LAYOUTS[name](o.count, o.seed);
    yield { name, params: 'named', keys, depth: depthRange(keys)[1] };
  }
  for (let i = 0; i < o.generated; i++) {
    const l = generateLayout(o.seed + i, o.count, o.family ? { family: o.family } : {});
    yield { name: l.name, params: l.params, keys: l.keys, depth: l.maxDepth };
  }
}

const f = (x, d = 2) => (x === null || x === undefined ? '-' : x.toFixed(d));
const yes = (b) => (b === null ? 'n/a' : b ? 'ok' : 'FAIL');

function row(name, ordered, r) {
  const exact = r.exact ? 'yes' : `NO (${r.missing} missing, ${r.extra} extra, ${r.repeated} twice${r.misplaced ? `, ${r.misplaced} out of place` : ''})`;
  return [
    name.padEnd(14), (ordered ? 'ordered' : 'unordered').padEnd(9), String(r.keys).padStart(8), exact.padStart(5),
    String(r.requests).padStart(8), f(r.efficiency).padStart(5), f(r.parsedPerUnique).padStart(6),
    String(r.rounds).padStart(6), f(r.roundBound, 1).padStart(6), yes(r.roundsOk).padStart(4),
    f(r.busyInflight, 1).padStart(7), yes(r.busyInflightOk).padStart(4), f(r.cpuMsPer1000, 1).padStart(6),
  ].join('  ');
}

const HEADER = `${'layout'.padEnd(14)}  ${'order'.padEnd(9)}  ${'keys'.padStart(8)}  exact  requests   eff.  parsed  rounds   bound    ?  inflight    ?  cpu/1k`;

function summary(results, concurrency) {
  const runs = results.length;
  const byLayout = new Map();
  for (const x of results) byLayout.set(x.layout, [...(byLayout.get(x.layout) || []), x]);
  const count = (pred) => [...byLayout.values()].filter((rs) => rs.every(pred)).length;
  const runCount = (pred) => results.filter(pred).length;
  const na = runCount((x) => x.busyInflightOk === null);
  return {
    layouts: byLayout.size,
    runs,
    exact: { layouts: count((x) => x.exact), runs: runCount((x) => x.exact) },
    rounds: { layouts: count((x) => x.roundsOk), runs: runCount((x) => x.roundsOk) },
    inflight: { layouts: count((x) => x.busyInflightOk !== false), runs: runCount((x) => x.busyInflightOk !== false), notApplicable: na, share: BUSY_SHARE, concurrency },
    all: { layouts: count((x) => x.exact && x.roundsOk && x.busyInflightOk !== false), runs: runCount((x) => x.exact && x.roundsOk && x.busyInflightOk !== false) },
    efficiency: { min: Math.min(...results.map((x) => x.efficiency)), median: median(results.map((x) => x.efficiency)) },
  };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : null;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const results = [];
  if (!o.json) {
    console.log(`${o.count} keys, concurrency ${o.concurrency}; bound: 2 x (keys/1000/${o.concurrency}) + depth round trips; ` +
      `inflight: mean requests in flight while >= ${o.concurrency * 1000} keys were unlisted, target >= ${BUSY_SHARE * o.concurrency}; ` +
      `eff.: unique keys / (requests x 1000); parsed: keys parsed / unique key; cpu/1k: client CPU ms per 1,000 keys`);
  }
  const legend = [];
  let headed = false;
  for (const l of layouts(o)) {
    if (l.params !== 'named') legend.push(`${l.name}: ${l.params}`);
    for (const ordered of o.orders) {
      const r = await simulate(l.keys, { concurrency: o.concurrency, ordered, depth: l.depth, lister: { folders: o.folders } });
      results.push({ layout: l.name, params: l.params, ordered, ...r });
      if (!o.json) {
        if (!headed) { console.log(HEADER); headed = true; }
        console.log(row(l.name, ordered, r));
      }
    }
  }
  const s = summary(results, o.concurrency);
  const json = () => JSON.stringify({ keys: o.count, concurrency: o.concurrency, seed: o.seed, generated: o.generated, results, summary: s }, null, 1);
  if (o.save) require('fs').writeFileSync(o.save, json());
  if (o.json) { console.log(json()); return; }
  if (legend.length) { console.log('\ngenerated layouts:'); for (const x of legend) console.log(`  ${x}`); }
  const t = (x) => `${x.layouts}/${s.layouts} layouts (${x.runs}/${s.runs} runs)`;
  console.log(`\ntargets met, both orders: keys exact ${t(s.exact)}; round trips within bound ${t(s.rounds)}; ` +
    `in flight >= ${BUSY_SHARE * o.concurrency} ${t(s.inflight)}${s.inflight.notApplicable ? ` (${s.inflight.notApplicable} runs too small to judge)` : ''}; ` +
    `all three ${t(s.all)}. Efficiency: min ${f(s.efficiency.min)}, median ${f(s.efficiency.median)}.`);
}

if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });

module.exports = { simulate, compareListing }; // for scripts that load the benchmark
