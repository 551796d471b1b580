#!/usr/bin/env node
'use strict';
// Copies under per-prefix request limits on a virtual clock (test/helpers/sim-pacing.js):
// the real Copier against a target that admits writes per prefix through a token bucket,
// over conditions drawn from seeds (test/generators/pacing-conditions.js). Per condition:
// the share of requests throttled (issue 30's aim: under 3%), the accepted rate over the
// allowed one while a prefix had objects left (aim: 0.9 or more) and wall time over the
// ideal. The last lines: how many conditions meet each aim, the worst and the median.
//
//   node bench/sim-pacing.js [--seed 1] [--count 40] [--max-objects 150000] [--json FILE]
const fs = require('node:fs');
const { simulatePacing } = require('../test/helpers/sim-pacing');
const { drawPacing } = require('../test/generators/pacing-conditions');
const { options } = require('./args');
const { median } = require('./stats');


async function main() {
  const { opt, num } = options(process.argv.slice(2));
  const seed = num('--seed', 1), count = num('--count', 40), maxObjects = num('--max-objects', 150000);
  const rows = [];
  for (let s = seed; s < seed + count; s++) {
    const c = drawPacing(s, { maxObjects });
    const r = await simulatePacing(c);
    if (r.copied !== c.objects) throw new Error(`seed ${s}: ${r.copied} of ${c.objects} copied (${r.failed} failed)`);
    const row = { ...c, throttledShare: r.share, lateShare: r.lateShare, sustained: r.sustained, overIdeal: r.wallMs / Math.max(1, r.idealMs), requests: r.requests };
    rows.push(row);
    console.log(`seed ${s}: ${c.prefixes} prefixes at ${c.rate}/s (burst ${c.burst})${c.hot ? `, hot ${c.hot}` : ''}, ${c.latencyMs}±${c.jitterMs} ms, ${c.objects} objects: ` +
      `throttled ${(r.share * 100).toFixed(1)}% (${(r.lateShare * 100).toFixed(1)}% after 3 s), sustained ${r.sustained == null ? '-' : r.sustained.toFixed(2)}, time/ideal ${row.overIdeal.toFixed(2)}`);
  }
  const shares = rows.map((r) => r.throttledShare), sus = rows.filter((r) => r.sustained != null).map((r) => r.sustained);
  console.log(`throttled under 3%: ${shares.filter((x) => x < 0.03).length} of ${rows.length}; median ${(median(shares) * 100).toFixed(2)}%, worst ${(Math.max(...shares) * 100).toFixed(2)}%, all requests ${(rows.reduce((a, r) => a + r.throttledShare * r.requests, 0) / rows.reduce((a, r) => a + r.requests, 0) * 100).toFixed(2)}%`);
  const lates = rows.map((r) => r.lateShare);
  console.log(`throttled after 3 s under 3%: ${lates.filter((x) => x < 0.03).length} of ${rows.length}; median ${(median(lates) * 100).toFixed(2)}%, worst ${(Math.max(...lates) * 100).toFixed(2)}%`);
  console.log(`sustained 0.9 or more: ${sus.filter((x) => x >= 0.9).length} of ${sus.length}; median ${median(sus).toFixed(3)}, least ${Math.min(...sus).toFixed(3)}`);
  console.log(`time over ideal: median ${median(rows.map((r) => r.overIdeal)).toFixed(3)}, worst ${Math.max(...rows.map((r) => r.overIdeal)).toFixed(3)}`);
  const json = opt('--json', null);
  if (json) fs.writeFileSync(json, JSON.stringify(rows, null, 1));
}

main().catch((err) => { console.error(err.stack || err.message); process.exit(1); });
