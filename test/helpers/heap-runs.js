'use strict';
// Runs that measure the heap, each in a fresh Node process of its own (forked with
// --expose-gc): in jest's one long-lived process the heap left by earlier test files made
// every forced collection slow (a run of 36 s alone took 450 s there) and what it measured
// depended on the files run before. The test files fork a run by name and assert on the
// plain figures it sends back.
const { fork } = require('child_process');

const heapMB = () => { global.gc(); global.gc(); return process.memoryUsage().heapUsed / 1e6; };

// A heap sample every `every` items counted by tick().
function sampler(every) {
  const samples = [];
  let n = 0;
  return { samples, tick: (count) => { n += count; if (n >= every) { n = 0; samples.push(heapMB()); } } };
}

// A target whose CopyObject answers at once, so the whole copy pipeline runs at full speed.
function instantTarget(counter) {
  return {
    type: 's3', bucket: 'dst',
    async copyObject() { counter.copies++; return '"e"'; },
    async open() {},
    destroy() {},
  };
}

// The merge-join's two sides: the target lacks every tenth key and differs on every seventh.
const mergeKey = (i) => `logs/${String(i).padStart(9, '0')}`;
async function* mergeSource(n) { for (let i = 0; i < n; i++) { const k = mergeKey(i); yield { targetKey: k, item: { Key: k, Size: i % 1000, ETag: '"e"' } }; } }
async function* mergeTarget(n) { for (let i = 0; i < n; i++) if (i % 10 !== 3) yield { Key: mergeKey(i), Size: i % 1000, ETag: i % 7 ? '"e"' : '"f"' }; }

const RUNS = {
  // The full report of a tree-shaped bucket of `n` keys, sampled every million.
  async summarize({ n }) {
    const { summarize } = require('../../src/stages/read-only');
    const { SyntheticStore } = require('./synthetic-store');
    const report = require('../../src/report');
    const s = sampler(1_000_000);
    const r = await summarize({ store: new SyntheticStore(n, { shape: 'tree' }), source: 'synthetic', log: () => {}, onProgress: null, filter: () => { s.tick(1); return true; } });
    const html = report(r, { format: 'html' });
    const { summary } = r;
    return {
      samples: s.samples,
      objects: summary.objects,
      keysUnique: r.stats.keysUnique,
      tree: { approximate: summary.tree.approximate, nodes: summary.tree.nodes, rootObjects: summary.tree.root.objects },
      ageRows: summary.ageHistogram.rows.length,
      multipartObjects: summary.multipart.objects,
      largest: summary.largest.length,
      htmlBytes: Buffer.byteLength(html),
      sizeChart: html.includes('data-chart="size-objects"'),
    };
  },
  // Negative control: a consumer that keeps every item of a flat listing.
  async keepListed({ n }) {
    const { each } = require('../../src/stages/read-only');
    const { SyntheticStore } = require('./synthetic-store');
    const kept = [];
    const s = sampler(200_000);
    await each({ store: new SyntheticStore(n), source: 'synthetic', mapList: (items) => { kept.push(...items); s.tick(items.length); } });
    return { samples: s.samples, kept: kept.length };
  },
  // cp of `n` synthetic objects to an instant target; `keep` keeps every outcome (negative control).
  async copy({ n, keep }) {
    const { copy } = require('../../src/stages/copy');
    const { SyntheticStore } = require('./synthetic-store');
    const counter = { copies: 0 };
    const kept = [];
    const s = sampler(100_000);
    const r = await copy({
      store: new SyntheticStore(n), targetStore: instantTarget(counter), source: 'synthetic', target: 'dst', journal: false,
      onObject: (o) => { if (keep) kept.push(o); s.tick(1); },
    });
    return { samples: s.samples, copied: r.copied.objects, copies: counter.copies, ok: r.ok, kept: kept.length };
  },
  // The merge-join of two listings of `n` keys, sampled every 500,000 pairs; `keep` buffers every pair.
  async merge({ n, keep }) {
    const { mergeJoin } = require('../../src/stages/compare');
    const samples = [];
    const counts = { both: 0, src: 0, dst: 0 };
    const kept = [];
    let i = 0;
    for await (const p of mergeJoin(mergeSource(n), mergeTarget(n))) {
      if (p.src && p.dst) counts.both++; else if (p.src) counts.src++; else counts.dst++;
      if (keep) kept.push(p);
      if (++i % 500000 === 0) samples.push(heapMB());
    }
    return { samples, counts, kept: kept.length };
  },
};

// Runs RUNS[name](args) in a fresh process; resolves with its figures.
function heapRun(name, args = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [name, JSON.stringify(args)], { execArgv: ['--expose-gc'], env: { ...process.env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result;
    child.on('message', (m) => { result = m; });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (result && result.error) reject(new Error(`heap run ${name}: ${result.error}`));
      else if (result && code === 0) resolve(result.value);
      else reject(new Error(`heap run ${name} ended (${signal || `exit ${code}`}) without a result`));
    });
  });
}

if (require.main === module) {
  const [name, args] = process.argv.slice(2);
  RUNS[name](JSON.parse(args))
    .then((value) => process.send({ value }, () => process.exit(0)))
    .catch((err) => process.send({ error: err.stack || String(err) }, () => process.exit(1)));
}

module.exports = { heapRun };
