'use strict';
// The merge-join holds memory flat however long the listings: measured on the heap after
// forced collections (in a fresh process: test/helpers/heap-runs.js), with a negative control
// that buffers and must be caught.
const { etagVerdict } = require('../../src/stages/compare');
const { ExternalSorter } = require('../../src/util/spool');
const { heapRun } = require('../helpers/heap-runs');

const N = 3_000_000;

test('merge of two 3,000,000-key listings keeps the heap flat', async () => {
  const { counts, samples } = await heapRun('merge', { n: N, keep: false });
  expect(counts).toEqual({ both: N - N / 10, src: N / 10, dst: 0 });
  expect(samples.length).toBe(6);
  expect(samples[samples.length - 1] - samples[0]).toBeLessThan(10); // MB, over 2.5 million more pairs
}, 300000);

test('negative control: buffering every pair is caught by the same measure', async () => {
  const { samples, kept } = await heapRun('merge', { n: 1_000_000, keep: true });
  expect(kept).toBe(1_000_000);
  expect(samples[samples.length - 1] - samples[0]).toBeGreaterThan(10);
}, 300000);

test('external sort: sorted runs on disk, merged in S3 order', async () => {
  const keys = ['\u{10000}', '\uFFFF', 'b', 'a', 'é', '\uE000', 'a/', 'a-'];
  const sorter = new ExternalSorter((r) => r.k, { chunk: 3 });
  for (let rep = 0; rep < 3; rep++) for (const k of keys) sorter.push({ k: `${k}${rep}` });
  const out = [];
  for await (const r of sorter.sorted()) out.push(r.k);
  sorter.remove();
  const want = keys.flatMap((k) => [0, 1, 2].map((r) => `${k}${r}`)).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  expect(out).toEqual(want);
  expect(sorter.runs.length).toBeGreaterThan(3);
});

test('etag verdicts', () => {
  expect(etagVerdict('"a"', '"a"')).toBe('same');
  expect(etagVerdict('"a"', '"b"')).toBe('differs');
  expect(etagVerdict('"a-2"', '"b-2"')).toBe('parts');
  expect(etagVerdict('"a-2"', '"b-3"')).toBe('unknown');
  expect(etagVerdict('"a"', '"b-3"')).toBe('unknown');
  expect(etagVerdict(null, '"b"')).toBe('unknown');
  expect(etagVerdict('"a"', '"b"', true)).toBe('unknown');
});
