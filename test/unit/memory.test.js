'use strict';
// Memory stays flat however large the run: summarize of 10,000,000 keys and cp of 1,000,000
// objects, measured on the heap after forced collections (each run in a fresh process:
// test/helpers/heap-runs.js), each with a negative control that keeps everything and must be
// caught by the same measure.
const { heapRun } = require('../helpers/heap-runs');

// Growth from the second sample (the first is taken while caches fill) to the highest after it.
const growth = (samples) => Math.max(...samples.slice(1)) - samples[1];

// The full report: folder tree (over 100,000 folders at depth 3, held to 5,000), ages,
// quantiles, largest and oldest, classes and their cost, multipart share, extensions.
test('summarize of 10,000,000 keys keeps the heap flat, and its HTML report stays under 2 MB', async () => {
  const r = await heapRun('summarize', { n: 10_000_000 });
  expect(r.objects).toBe(10_000_000);
  expect(r.keysUnique).toBe(10_000_000);
  expect(r.samples.length).toBe(10);
  expect(growth(r.samples)).toBeLessThan(40); // MB, across 8 million more keys
  expect(r.tree.approximate).toBe(true);
  expect(r.tree.nodes).toBeLessThanOrEqual(5000);
  expect(r.tree.rootObjects).toBe(10_000_000);
  expect(r.ageRows).toBe(36);
  expect(r.multipartObjects).toBe(Math.ceil(10_000_000 / 7));
  expect(r.largest).toBe(20);
  expect(r.htmlBytes).toBeLessThan(2 * 1024 * 1024);
  expect(r.sizeChart).toBe(true);
}, 600000);

test('negative control: keeping every item is caught', async () => {
  const r = await heapRun('keepListed', { n: 1_000_000 });
  expect(r.kept).toBe(1_000_000);
  expect(r.samples[r.samples.length - 1] - r.samples[0]).toBeGreaterThan(40);
}, 300000);

// cp of 1,000,000 objects: a synthetic source and a target whose CopyObject answers at
// once, so the whole pipeline (listing, queue, copier pools, outcomes) runs at full speed.
test('cp of 1,000,000 objects keeps the heap flat', async () => {
  const r = await heapRun('copy', { n: 1_000_000, keep: false });
  expect(r.copied).toBe(1_000_000);
  expect(r.copies).toBe(1_000_000);
  expect(r.ok).toBe(true);
  expect(r.samples.length).toBe(10);
  expect(growth(r.samples)).toBeLessThan(40); // MB, across 800,000 more copies
}, 600000);

test('negative control: a cp that keeps every outcome is caught', async () => {
  const r = await heapRun('copy', { n: 1_000_000, keep: true });
  expect(r.kept).toBe(1_000_000);
  // The same measure as the test above, which it must fail.
  expect(growth(r.samples)).toBeGreaterThan(40);
}, 600000);
