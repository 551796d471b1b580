#!/usr/bin/env node
'use strict';
// Where a listing's requests go, on the virtual clock (test/helpers/sim-listing.js): every
// LIST request of one layout, by what it asked (a folder listing, a segment's first page
// bounded by a prefix, one from a StartAfter alone) and what it gave (a page of keys not
// handed out before, part of one, nothing new, nothing at all), with the pages each kind
// wasted (1,000 less the keys new to the listing; a folder listing's folders are not
// counted), and the prefixes that drew the most empty answers. Diagnosis for the planner (docs/lister.md), not a benchmark row.
//
//   node bench/sim-waste.js [--layout NAME | --seed S] [--keys N] [--unordered] [--top K]
//
// --layout takes a named layout (made with --seed, default 1); without it, --seed draws a
// layout from the families (generateLayout(seed, keys)).
const { LAYOUTS, generateLayout } = require('../test/generators/layouts');
const { FakeListStore } = require('../test/helpers/fake-list-store');
const { options } = require('./args');
const { simulate } = require('../test/helpers/sim-listing');

function parseArgs(argv) {
  const { opt, num } = options(argv);
  const layout = opt('--layout', null);
  if (layout !== null && !LAYOUTS[layout]) { console.error(`unknown layout ${layout} (have ${Object.keys(LAYOUTS).join(', ')})`); process.exit(2); }
  return { layout, seed: num('--seed', layout ? 1 : 2811), keys: num('--keys', 1e6), ordered: !argv.includes('--unordered'), top: num('--top', 10) };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const made = o.layout ? { name: o.layout, keys: LAYOUTS[o.layout](o.keys, o.seed), params: 'named' } : generateLayout(o.seed, o.keys);
  // Each request as the store answered it, and which of its keys no request had returned before.
  const log = [];
  const seen = new Set();
  const listPage = FakeListStore.prototype.listPage;
  FakeListStore.prototype.listPage = async function (args) {
    const page = await listPage.call(this, args);
    let fresh = 0;
    for (const it of page.items) if (!seen.has(it.Key)) { fresh++; seen.add(it.Key); }
    log.push({ folders: Boolean(args.delimiter), named: (page.prefixes || []).length, prefix: args.prefix || '', n: page.items.length, fresh, truncated: page.truncated });
    return page;
  };
  const r = await simulate(made.keys, { ordered: o.ordered });
  FakeListStore.prototype.listPage = listPage;
  console.log(`${made.name} (${made.params}), ${r.keys} keys, ${o.ordered ? 'ordered' : 'unordered'}: ${r.requests} LIST requests, efficiency ${r.efficiency.toFixed(2)}, ${r.rounds} round trips, exact: ${r.exact}`);
  const kinds = new Map();
  for (const q of log) {
    const asked = q.folders ? 'folder listing' : q.prefix ? 'page within a prefix' : 'page from StartAfter';
    const keys = q.n === 0 ? 'no key' : q.fresh === 0 ? 'nothing new' : q.fresh >= 900 ? 'a page of new keys' : 'part of a page new';
    const gave = q.folders ? `${q.named ? 'folders' : 'no folder'}, ${keys}` : keys;
    const k = `${asked}: ${gave}`;
    const v = kinds.get(k) || { requests: 0, wasted: 0 };
    v.requests++;
    v.wasted += 1000 - q.fresh;
    kinds.set(k, v);
  }
  console.log(`\n${'requests'.padStart(8)}  ${'pages wasted'.padStart(12)}  kind`);
  for (const [k, v] of [...kinds].sort((a, b) => b[1].wasted - a[1].wasted)) console.log(`${String(v.requests).padStart(8)}  ${(v.wasted / 1000).toFixed(0).padStart(12)}  ${k}`);
  const empty = new Map();
  for (const q of log) if (!q.folders && q.n === 0) empty.set(q.prefix, (empty.get(q.prefix) || 0) + 1);
  console.log(`\nprefixes with the most empty answers (${empty.size} prefixes):`);
  for (const [p, n] of [...empty].sort((a, b) => b[1] - a[1]).slice(0, o.top)) console.log(`${String(n).padStart(8)}  ${JSON.stringify(p)}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
