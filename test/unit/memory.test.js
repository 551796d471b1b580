'use strict';
// Memory stays flat however large the listing: summarize of 10,000,000 keys measured on the
// heap after forced collections, with a negative control that keeps every item and must be
// caught by the same measure.
const v8 = require('v8');
const vm = require('vm');
const { summarize, each } = require('../../src/stages/read-only');
const { SyntheticStore } = require('../helpers/synthetic-store');

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc');
const heapMB = () => { gc(); gc(); return process.memoryUsage().heapUsed / 1e6; };

function sampler(every) {
  const samples = [];
  let n = 0;
  return { samples, tick: (count) => { n += count; if (n >= every) { n = 0; samples.push(heapMB()); } } };
}

test('summarize of 10,000,000 keys keeps the heap flat', async () => {
  const store = new SyntheticStore(10_000_000);
  const s = sampler(1_000_000);
  const r = await summarize({ store, source: 'synthetic', log: () => {}, onProgress: null, filter: (item) => { s.tick(1); return true; } });
  expect(r.summary.objects).toBe(10_000_000);
  expect(r.stats.keysUnique).toBe(10_000_000);
  const growth = Math.max(...s.samples.slice(1)) - s.samples[1];
  expect(growth).toBeLessThan(40); // MB, across 8 million more keys
}, 300000);

test('negative control: keeping every item is caught', async () => {
  const store = new SyntheticStore(1_000_000);
  const kept = [];
  const s = sampler(200_000);
  await each({ store, source: 'synthetic', mapList: (items) => { kept.push(...items); s.tick(items.length); } });
  expect(kept.length).toBe(1_000_000);
  expect(s.samples[s.samples.length - 1] - s.samples[0]).toBeGreaterThan(40);
}, 300000);
