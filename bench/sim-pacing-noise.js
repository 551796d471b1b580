#!/usr/bin/env node
'use strict';
// Copies under random SlowDowns (a store's hiccups: throttles that come whatever the rate) on
// a virtual clock (test/helpers/sim-pacing.js), over a grid: noise 0.5-5% x per-prefix limits
// of 150-3,500 writes/s and none x latencies of 20-150 ms, 1-3 prefixes, two seeds. Per cell:
// wall time over the ideal (over a clean copy's time where there is no limit) and the share
// of requests throttled past the rate. A copy not done in 600 s of virtual time counts as
// not finished (the pacing crawled). The last lines: median and worst, cells over 2x, cells
// over 3% throttled, cells not finished.
//
//   node bench/sim-pacing-noise.js [--seed 21] [--seeds 2] [--json FILE]
const fs = require('node:fs');
const { simulatePacing } = require('../test/helpers/sim-pacing');
const { options } = require('./args');
const { median } = require('./stats');

const NOISE = [0.005, 0.01, 0.02, 0.05];
const RATES = [150, 300, 1000, 3500, Infinity]; // writes/s a prefix takes; Infinity: no limit
const LATENCIES = [20, 60, 150];
const MAX_MS = 600e3;

// A clean copy's wall time, for the cells with no limit: the same for every noise level.
const clean = new Map();
async function cleanMs(o) {
  const key = `${o.seed}/${o.latencyMs}`;
  if (!clean.has(key)) clean.set(key, (await simulatePacing(o)).wallMs);
  return clean.get(key);
}

async function cell(seed, noise, rate, lat) {
  const prefixes = 1 + ((seed + lat) % 3);
  const unlimited = rate === Infinity;
  const o = {
    prefixes, rate: unlimited ? 1e6 : rate, burst: unlimited ? 1e6 : undefined, latencyMs: lat, jitterMs: lat / 3, seed, maxMs: MAX_MS,
    objects: unlimited ? 15000 : Math.min(60000, Math.round(rate * 15 * prefixes)),
  };
  let r;
  try { r = await simulatePacing({ ...o, noise }); } catch (e) {
    if (!/virtual time: not done/.test(e.message)) throw e;
    return { seed, noise, rate, latencyMs: lat, prefixes, finished: false };
  }
  if (r.copied !== o.objects) throw new Error(`seed ${seed}: ${r.copied} of ${o.objects} copied (${r.failed} failed)`);
  const ref = unlimited ? await cleanMs(o) : r.idealMs;
  return { seed, noise, rate, latencyMs: lat, prefixes, finished: true, overIdeal: r.wallMs / ref, throttledShare: r.share };
}

async function main() {
  const { opt, num } = options(process.argv.slice(2));
  const seed = num('--seed', 21), seeds = num('--seeds', 2);
  const rows = [];
  for (let s = seed; s < seed + seeds; s++) for (const noise of NOISE) for (const rate of RATES) for (const lat of LATENCIES) {
    const row = await cell(s, noise, rate, lat);
    rows.push(row);
    console.log(`seed ${s}: ${(noise * 100).toFixed(1)}% random SlowDowns, ${row.prefixes} prefixes at ${rate === Infinity ? 'no limit' : `${rate}/s`}, ${lat} ms: ` +
      (row.finished ? `time/ideal ${row.overIdeal.toFixed(2)}, throttled ${(row.throttledShare * 100).toFixed(1)}%` : `not finished in ${MAX_MS / 1000} s`));
  }
  const done = rows.filter((r) => r.finished), slow = done.map((r) => r.overIdeal), sh = done.map((r) => r.throttledShare);
  console.log(`not finished in ${MAX_MS / 1000} s: ${rows.length - done.length} of ${rows.length}`);
  console.log(`time over ideal (finished): median ${median(slow).toFixed(2)}, worst ${Math.max(...slow).toFixed(2)}, over 2x: ${slow.filter((x) => x > 2).length}`);
  console.log(`throttled past the rate (finished): median ${(median(sh) * 100).toFixed(1)}%, worst ${(Math.max(...sh) * 100).toFixed(1)}%, over 3%: ${sh.filter((x) => x > 0.03).length}`);
  const json = opt('--json', null);
  if (json) fs.writeFileSync(json, JSON.stringify(rows, null, 1));
}

main().catch((e) => { console.error(e.message); process.exit(1); });
