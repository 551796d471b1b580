'use strict';
// The merge-join holds memory flat however long the listings: measured on the heap after
// forced collections, with a negative control that buffers and must be caught.
const v8 = require('v8');
const vm = require('vm');
const { mergeJoin, etagVerdict } = require('../../src/stages/compare');
const { ExternalSorter } = require('../../src/util/spool');
const { compareKeys } = require('../../src/keys/order');

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc');
const heapMB = () => { gc(); gc(); return process.memoryUsage().heapUsed / 1e6; };

const N = 3_000_000;
const key = (i) => `logs/${String(i).padStart(9, '0')}`;
async function* source(n) { for (let i = 0; i < n; i++) { const k = key(i); yield { targetKey: k, item: { Key: k, Size: i % 1000, ETag: '"e"' } }; } }
async function* target(n) { for (let i = 0; i < n; i++) if (i % 10 !== 3) yield { Key: key(i), Size: i % 1000, ETag: i % 7 ? '"e"' : '"f"' }; }

async function run(n, keep) {
  const samples = [];
  const counts = { both: 0, src: 0, dst: 0 };
  const kept = [];
  let i = 0;
  for await (const p of mergeJoin(source(n), target(n))) {
    if (p.src && p.dst) counts.both++; else if (p.src) counts.src++; else counts.dst++;
    if (keep) kept.push(p);
    if (++i % 500000 === 0) samples.push(heapMB());
  }
  return { counts, samples, kept: kept.length };
}

test('merge of two 3,000,000-key listings keeps the heap flat', async () => {
  const { counts, samples } = await run(N, false);
  expect(counts).toEqual({ both: N - N / 10, src: N / 10, dst: 0 });
  const growth = samples[samples.length - 1] - samples[0];
  expect(growth).toBeLessThan(10); // MB, over 2.5 million more pairs
}, 120000);

test('negative control: buffering every pair is caught by the same measure', async () => {
  const { samples, kept } = await run(1_000_000, true);
  expect(kept).toBe(1_000_000);
  expect(samples[samples.length - 1] - samples[0]).toBeGreaterThan(10);
}, 120000);

test('external sort: sorted runs on disk, merged in S3 order', async () => {
  const keys = ['\u{10000}', '\uFFFF', 'b', 'a', 'é', '\uE000', 'a/', 'a-'];
  const sorter = new ExternalSorter((r) => r.k, compareKeys, { chunk: 3 });
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
