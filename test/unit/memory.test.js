'use strict';
// Memory stays flat however large the run: summarize of 10,000,000 keys and cp of 1,000,000
// objects, measured on the heap after forced collections, each with a negative control that
// keeps everything and must be caught by the same measure.
const v8 = require('v8');
const vm = require('vm');
const { summarize, each } = require('../../src/stages/read-only');
const { SyntheticStore } = require('../helpers/synthetic-store');
const report = require('../../src/report');

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc');
const heapMB = () => { gc(); gc(); return process.memoryUsage().heapUsed / 1e6; };

function sampler(every) {
  const samples = [];
  let n = 0;
  return { samples, tick: (count) => { n += count; if (n >= every) { n = 0; samples.push(heapMB()); } } };
}

// The full report: folder tree (over 100,000 folders at depth 3, held to 5,000), ages,
// quantiles, largest and oldest, classes and their cost, multipart share, extensions.
test('summarize of 10,000,000 keys keeps the heap flat, and its HTML report stays under 2 MB', async () => {
  const store = new SyntheticStore(10_000_000, { shape: 'tree' });
  const s = sampler(1_000_000);
  const r = await summarize({ store, source: 'synthetic', log: () => {}, onProgress: null, filter: (item) => { s.tick(1); return true; } });
  expect(r.summary.objects).toBe(10_000_000);
  expect(r.stats.keysUnique).toBe(10_000_000);
  const growth = Math.max(...s.samples.slice(1)) - s.samples[1];
  expect(growth).toBeLessThan(40); // MB, across 8 million more keys
  expect(r.summary.tree.approximate).toBe(true);
  expect(r.summary.tree.nodes).toBeLessThanOrEqual(5000);
  expect(r.summary.tree.root.objects).toBe(10_000_000);
  expect(r.summary.ageHistogram.rows.length).toBe(36);
  expect(r.summary.multipart.objects).toBe(Math.ceil(10_000_000 / 7));
  expect(r.summary.largest.length).toBe(20);
  const html = report(r, { format: 'html' });
  expect(Buffer.byteLength(html)).toBeLessThan(2 * 1024 * 1024);
  expect(html).toContain('data-chart="size-objects"');
}, 600000);

test('negative control: keeping every item is caught', async () => {
  const store = new SyntheticStore(1_000_000);
  const kept = [];
  const s = sampler(200_000);
  await each({ store, source: 'synthetic', mapList: (items) => { kept.push(...items); s.tick(items.length); } });
  expect(kept.length).toBe(1_000_000);
  expect(s.samples[s.samples.length - 1] - s.samples[0]).toBeGreaterThan(40);
}, 300000);

// cp of 1,000,000 objects: a synthetic source and a target whose CopyObject answers at
// once, so the whole pipeline (listing, queue, copier pools, outcomes) runs at full speed.
function instantTarget() {
  return {
    type: 's3', bucket: 'dst', copies: 0,
    async copyObject() { instantTarget.copies++; return '"e"'; },
    async open() {},
    destroy() {},
  };
}

test('cp of 1,000,000 objects keeps the heap flat', async () => {
  const { copy } = require('../../src/stages/copy');
  instantTarget.copies = 0;
  const s = sampler(100_000);
  const r = await copy({ store: new SyntheticStore(1_000_000), targetStore: instantTarget(), source: 'synthetic', target: 'dst', journal: false, onObject: () => s.tick(1) });
  expect(r.copied.objects).toBe(1_000_000);
  expect(instantTarget.copies).toBe(1_000_000);
  expect(r.ok).toBe(true);
  const growth = Math.max(...s.samples.slice(1)) - s.samples[1];
  expect(growth).toBeLessThan(40); // MB, across 800,000 more copies
}, 600000);

test('negative control: a cp that keeps every outcome is caught', async () => {
  const { copy } = require('../../src/stages/copy');
  const kept = [];
  const s = sampler(100_000);
  await copy({ store: new SyntheticStore(1_000_000), targetStore: instantTarget(), source: 'synthetic', target: 'dst', journal: false, onObject: (o) => { kept.push(o); s.tick(1); } });
  expect(kept.length).toBe(1_000_000);
  // The same measure as the test above, which it must fail.
  expect(Math.max(...s.samples.slice(1)) - s.samples[1]).toBeGreaterThan(40);
}, 600000);
