#!/usr/bin/env node
'use strict';
// Directory buckets over HTTP, side by side in one run (issue 32): the same keys in a
// general-purpose bucket (bench/fake-s3.js) and in a directory bucket
// (test/helpers/fake-directory-s3.js: sessions, pages in no key order, no StartAfter), both
// in this process with the same LIST latency; s3blitz and aws-cli each run as a child, its
// CPU measured (bench/peers.js runPeer). Rows per layout:
//   ls (ordered), ls --unordered, summarize: s3blitz on both buckets (after one listing of
//   each that is not recorded), aws-cli `s3 ls --recursive` on both; every run's output
//   checked (its keys, or summarize's count);
//   sync --delete between two directory buckets holding the same keys but known differences:
//   s3blitz's copies and deletes checked against them, then the same for aws-cli `s3 sync
//   --delete` (whatever it does is recorded).
//
//   node bench/directory-bucket.js [--keys N] [--layouts logs,generated-1] [--latency MS] [--peers s3blitz,aws] [--json FILE]
//   (--peers s3blitz: no aws-cli rows, for a quicker look at the shares)
const fs = require('fs');
const { startFakeS3, GENERATORS, toExternalKey } = require('./fake-s3');
const { startFakeDirectoryS3 } = require('../test/helpers/fake-directory-s3');
const { awsBin } = require('../test/helpers/awscli');
const { runPeer, fakeEnv, blitzRun } = require('./peers');
const { options } = require('./args');

function parseArgs(argv) {
  const { opt } = options(argv);
  return {
    count: Number(opt('--keys', 100000)), layouts: opt('--layouts', 'logs,generated-1,generated-2').split(','),
    latency: Number(opt('--latency', 20)), json: opt('--json', null), diffShare: 0.01,
    peers: opt('--peers', 's3blitz,aws').split(','),
  };
}

const blitz = blitzRun;
const aws = (exe, args) => ({ peer: 'aws', op: args[1], variant: 'default', cmd: exe, args, env: fakeEnv(), line: ['aws', ...args].join(' ') });

const utf8Sort = (keys) => keys.map((k) => [Buffer.from(k), k]).sort((a, b) => Buffer.compare(a[0], b[0])).map((x) => x[1]);

// The keys of a layout, as the general-purpose fake's generator makes them (its seed).
function layoutKeys(name, count) {
  const m = /^generated-(\d+)$/.exec(name);
  const keys = GENERATORS.layout(count, m ? { layout: 'generated', seed: Number(m[1]) } : { layout: name, seed: 1 });
  return { keys: keys.map(toExternalKey), seed: m ? { generator: 'layout', layout: 'generated', seed: Number(m[1]) } : { generator: 'layout', layout: name, seed: 1 } };
}

// A peer's run, and the CPU this process (the endpoints) spent answering it: on this 2-core
// machine the endpoints and the client share the cores, and a fake that costs more per key
// than S3 would takes the client's time.
async function run(spec, opts) {
  const c0 = process.cpuUsage();
  const r = await runPeer(spec, opts);
  const c = process.cpuUsage(c0);
  r.endpointCpuSec = (c.user + c.system) / 1e6;
  return r;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const awsExe = o.peers.includes('aws') ? await awsBin() : null;
  const gp = await startFakeS3({ listLatencyMs: o.latency, otherLatencyMs: o.latency });
  const dir = await startFakeDirectoryS3({ seed: 1, latencyMs: o.latency, logRequests: false });
  const rows = [];
  const record = (row, r, check) => {
    const problems = [];
    if (!r.ok) problems.push(`exit ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}: ${r.stderrTail.split('\n').slice(-2).join(' ')}`);
    const c = r.ok ? check(r) : null;
    if (c) problems.push(c);
    const out = { ...row, line: r.line, ok: problems.length === 0, problems, wallSec: r.wallSec, cpuSec: r.cpuSec, rssMb: r.maxRssKb / 1024, rate: problems.length ? null : row.keys / r.wallSec, cpuMsPer1000: (r.cpuSec * 1000) / (row.keys / 1000), endpointCpuMsPer1000: (r.endpointCpuSec * 1000) / (row.keys / 1000) };
    rows.push(out);
    console.log(`  ${out.ok ? 'ok    ' : 'FAILED'} ${row.tool.padEnd(7)} ${row.op.padEnd(14)} ${row.bucket.padEnd(9)} ${row.layout.padEnd(12)} ${r.wallSec.toFixed(2)}s ${out.rate ? `${Math.round(out.rate)} keys/s` : ''} cpu ${out.cpuMsPer1000.toFixed(2)} ms/1k (endpoint ${out.endpointCpuMsPer1000.toFixed(2)})${problems.length ? `  ${problems.join('; ')}` : ''}`);
    return out;
  };
  const sameKeys = (want) => (r) => {
    const got = r.output.filter(Boolean);
    if (got.length !== want.length) return `${got.length} lines, ${want.length} keys`;
    for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return `line ${i + 1}: ${JSON.stringify(got[i])}, expected ${JSON.stringify(want[i])}`;
    return null;
  };
  try {
    for (const layout of o.layouts) {
      const { keys, seed } = layoutKeys(layout, o.count);
      const sorted = utf8Sort(keys);
      const gb = `gp-${layout}`.toLowerCase();
      const db = `dir-${layout}--use1-az4--x-s3`.toLowerCase();
      gp.seed(gb, seed.generator, o.count, { layout: seed.layout, seed: seed.seed, size: 100 });
      const body = Buffer.from('x'.repeat(100));
      const other = Buffer.from('y'.repeat(99)); // (another size)
      for (const k of keys) dir.put(db, k, body, { mtime: Date.parse('2024-06-01T00:00:00Z') });
      dir.prime(db);
      console.log(`${layout}: ${keys.length} keys, ${o.latency} ms per LIST`);
      const row = (tool, op, bucket) => ({ tool, op, bucket, layout, keys: keys.length });
      let awsOrdered = null;
      for (const [bucket, endpoint, name] of [['general', gp.endpoint, gb], ['directory', dir.endpoint, db]]) {
        const at = ['--endpoint-url', endpoint];
        // One listing first, not recorded: the endpoint's own first-run costs (its JIT, its
        // caches' first collections) would otherwise fall on whichever row runs first.
        const warm = await run(blitz(['summarize', `s3://${name}`, '--json', ...at, '-q']), { collectLines: true });
        if (!warm.ok) throw new Error(`warm-up listing of ${name} failed: ${warm.stderrTail}`);
        record(row('s3blitz', 'ls', bucket), await run(blitz(['ls', `s3://${name}`, ...at, '-q']), { collectLines: true }), sameKeys(sorted));
        record(row('s3blitz', 'ls --unordered', bucket), await run(blitz(['ls', `s3://${name}`, '--unordered', ...at, '-q']), { collectLines: true }), (r) => sameKeys(sorted)({ output: utf8Sort(r.output.filter(Boolean)) }));
        record(row('s3blitz', 'summarize', bucket), await run(blitz(['summarize', `s3://${name}`, '--json', ...at, '-q']), { collectLines: true }), (r) => {
          const j = JSON.parse(r.output.join('\n'));
          return j.objects === keys.length ? null : `summarize counted ${j.objects}`;
        });
        // aws-cli prints pages as they come: in key order from a general-purpose bucket, in
        // none from a directory bucket. Checked as a set, and its order said.
        if (!o.peers.includes('aws')) continue;
        const awsRow = record(row('aws', 'ls', bucket), await run(aws(awsExe, ['s3', 'ls', `s3://${name}`, '--recursive', ...at]), { collectLines: true }), (r) => {
          const got = r.output.filter(Boolean).map((l) => l.replace(/^\S+ \S+ +\d+ /, ''));
          awsOrdered = sameKeys(sorted)({ output: got }) === null;
          return sameKeys(sorted)({ output: utf8Sort(got) });
        });
        awsRow.ordered = awsOrdered;
      }
      // sync --delete between two directory buckets: the target holds the source's keys less
      // some, plus extras, some of another size; its other keys newer (kept).
      const src = db;
      const dst = `dst-${layout}--use1-az4--x-s3`.toLowerCase();
      const n = Math.max(1, Math.round(keys.length * o.diffShare));
      const want = { copies: new Set(), deletes: new Set() };
      const fill = () => {
        dir.bucket(dst).objects.clear();
        dir.bucket(dst).changed();
        keys.forEach((k, i) => {
          if (i % Math.floor(keys.length / n) === 0) { want.copies.add(k); return; } // missing
          if (i % Math.floor(keys.length / n) === 1) { dir.put(dst, k, other); want.copies.add(k); return; } // other size
          dir.put(dst, k, body, { mtime: Date.parse('2025-01-01T00:00:00Z') });
        });
        for (let i = 0; i < n; i++) { const k = `${keys[i * 7 % keys.length]}.extra-${i}`; if (!dir.object(src, k)) { dir.put(dst, k, 'e'); want.deletes.add(k); } }
        dir.prime(dst);
      };
      const checkSync = () => {
        const a = dir.keys(src), b = dir.keys(dst);
        if (a.length !== b.length || a.some((k, i) => k !== b[i])) return `target holds ${b.length} keys, source ${a.length}`;
        for (const k of want.copies) if (dir.object(dst, k).body.length !== 100) return `${JSON.stringify(k)} not copied`;
        return null;
      };
      const at = ['--endpoint-url', dir.endpoint];
      fill();
      const syncRow = { tool: 's3blitz', op: 'sync --delete', bucket: 'dir->dir', layout, keys: keys.length, copies: want.copies.size, deletes: want.deletes.size };
      record(syncRow, await run(blitz(['sync', `s3://${src}`, `s3://${dst}`, '--delete', ...at, '-q'])), checkSync);
      if (o.peers.includes('aws')) {
        fill();
        record({ ...syncRow, tool: 'aws' }, await run(aws(awsExe, ['s3', 'sync', `s3://${src}`, `s3://${dst}`, '--delete', '--only-show-errors', ...at])), checkSync);
      }
      dir.drop(dst);
      dir.drop(src);
      gp.clear(gb);
    }
  } finally {
    await dir.close();
    await gp.close();
  }
  // Ratios: the directory bucket's rate as a share of the general-purpose one, per tool and op.
  console.log('\nlayout        tool     op               general keys/s  directory keys/s  share  cpu ms/1k (gp, dir)  endpoint cpu ms/1k (gp, dir)');
  for (const r of rows.filter((x) => x.bucket === 'directory')) {
    const g = rows.find((x) => x.bucket === 'general' && x.layout === r.layout && x.tool === r.tool && x.op === r.op);
    r.share = g && g.rate && r.rate ? r.rate / g.rate : null;
    console.log(`${r.layout.padEnd(13)} ${r.tool.padEnd(8)} ${r.op.padEnd(16)} ${String(g && g.rate ? Math.round(g.rate) : '-').padStart(14)}  ${String(r.rate ? Math.round(r.rate) : 'FAILED').padStart(16)}  ${r.share ? r.share.toFixed(2) : '  - '}  ${g ? g.cpuMsPer1000.toFixed(2) : '-'}, ${r.cpuMsPer1000.toFixed(2)}  ${g ? g.endpointCpuMsPer1000.toFixed(2) : '-'}, ${r.endpointCpuMsPer1000.toFixed(2)}`);
  }
  console.log('\nsync --delete between two directory buckets (one endpoint: CopyObject)');
  for (const r of rows.filter((x) => x.bucket === 'dir->dir')) {
    console.log(`${r.layout.padEnd(13)} ${r.tool.padEnd(8)} ${r.ok ? `${Math.round(r.rate)} keys/s, ${r.copies} copies and ${r.deletes} deletes exact, cpu ${r.cpuMsPer1000.toFixed(2)} ms/1k` : r.problems.join('; ')}`);
  }
  if (o.json) fs.writeFileSync(o.json, JSON.stringify({ date: new Date().toISOString(), keys: o.count, latencyMs: o.latency, rows }, null, 1));
  if (rows.some((r) => !r.ok && r.tool === 's3blitz')) process.exitCode = 1;
}

main().catch((err) => { console.error(err); process.exit(1); });
