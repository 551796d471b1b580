'use strict';
// Listing on more than one core: `ls` of N keys from an endpoint that costs almost no CPU to
// answer (bench/fake-s3.js in its own process with every entry pre-rendered, so a page is a
// copy of bytes), with 1 and with 2 request threads, alternating, R runs each; then one run
// of each under `node --cpu-prof` for the CPU of each thread. Reported: keys/s, client CPU per
// 1,000 keys (all threads), the endpoint's CPU per 1,000 keys, and from the profiles the main
// thread's and the request threads' CPU per 1,000 keys. Every run's line count is checked.
//
//   node bench/list-threads.js [--keys 1000000] [--layout logs] [--reps 3] [--latency 20]
//     [--threads 1,2] [--command ls|summarize] [--json FILE]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnFakeS3 } = require('./fake-s3');
const { runPeer, blitzRun } = require('./peers');
const { summarizeProfiles, profiledSpec } = require('./cpu-profile');
const { options } = require('./args');

function parseArgs(argv) {
  const { opt } = options(argv);
  return {
    keys: Number(opt('--keys', 1000000)), layout: opt('--layout', 'logs'), reps: Number(opt('--reps', 3)),
    latency: Number(opt('--latency', 20)), threads: opt('--threads', '1,2').split(',').map(Number),
    command: opt('--command', 'ls'), json: opt('--json', null),
  };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const fake = await spawnFakeS3({ listLatencyMs: o.latency, otherLatencyMs: o.latency });
  const bucket = 'threads';
  const rows = [];
  try {
    await fake.seed(bucket, 'layout', o.keys, { layout: o.layout, seed: 1, size: 100 });
    await fake.prerender(bucket, { url: true });
    const args = (t) => [o.command, `s3://${bucket}`, '--endpoint-url', fake.endpoint, '--request-threads', String(t), '-q', ...(o.command === 'summarize' ? ['--json'] : [])];
    const want = o.command === 'ls' ? o.keys : null;
    const check = (r) => {
      if (!r.ok) return `exit ${r.exitCode}: ${r.stderrTail.split('\n').slice(-2).join(' ')}`;
      if (want !== null && r.lines !== want) return `${r.lines} lines, ${want} keys`;
      if (want === null) {
        const objects = JSON.parse(r.output.join('\n')).objects;
        if (objects !== o.keys) return `summarize counted ${objects} objects, ${o.keys} listed`;
      }
      return null;
    };
    await runPeer(blitzRun(args(1)), { collectLines: want === null }); // warm the endpoint
    console.log(`${o.layout}: ${o.keys} keys, ${o.latency} ms per LIST, pre-rendered; ${o.command}, request threads ${o.threads.join(' and ')}, ${o.reps} runs each`);
    for (let rep = 0; rep < o.reps; rep++) {
      for (const t of o.threads) {
        await fake.resetStats();
        const r = await runPeer(blitzRun(args(t)), { collectLines: want === null });
        const st = await fake.stats();
        const problem = check(r);
        const row = { threads: t, rep, ok: !problem, problem, wallSec: r.wallSec, rate: o.keys / r.wallSec, cpuMsPer1000: r.cpuSec * 1000 / (o.keys / 1000), endpointCpuMsPer1000: st.cpu.total * 1000 / (o.keys / 1000), rssMb: r.maxRssKb / 1024 };
        rows.push(row);
        console.log(`  ${problem ? 'FAILED' : 'ok    '} threads ${t}  ${r.wallSec.toFixed(2)} s  ${Math.round(row.rate)} keys/s  client cpu ${row.cpuMsPer1000.toFixed(2)} ms/1k  endpoint ${row.endpointCpuMsPer1000.toFixed(2)} ms/1k  rss ${Math.round(row.rssMb)} MB${problem ? `  ${problem}` : ''}`);
      }
    }
    const profiles = [];
    for (const t of o.threads) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-threads-prof-'));
      try {
        const r = await runPeer(profiledSpec(blitzRun(args(t)), dir), { collectLines: want === null });
        const threads = summarizeProfiles(dir, { top: 6 });
        const main = threads.find((x) => x.thread === 'main');
        const workers = threads.filter((x) => x.thread !== 'main');
        const p = { threads: t, ok: !check(r), mainMsPer1000: main ? main.ms / (o.keys / 1000) : null, requestThreadsMsPer1000: workers.map((w) => w.ms / (o.keys / 1000)), top: threads };
        profiles.push(p);
        console.log(`  profiled threads ${t}: main thread ${p.mainMsPer1000.toFixed(2)} ms/1k, request threads ${p.requestThreadsMsPer1000.map((x) => x.toFixed(2)).join(' + ')} ms/1k`);
        for (const th of threads) console.log(`    ${th.thread}: ${th.top.map((f) => `${f.name} ${Math.round(f.ms)}`).join(', ')}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    console.log('\nthreads  runs  keys/s (median, range)          client CPU ms/1k (median)  endpoint ms/1k (median)');
    const median = (a) => { const s = a.slice().sort((x, y) => x - y); return s[s.length >> 1]; };
    const summary = {};
    for (const t of o.threads) {
      const ok = rows.filter((r) => r.threads === t && r.ok);
      if (!ok.length) { console.log(`${t}  none passed`); continue; }
      const rates = ok.map((r) => r.rate);
      summary[t] = { rate: median(rates), min: Math.min(...rates), max: Math.max(...rates), cpuMsPer1000: median(ok.map((r) => r.cpuMsPer1000)), endpointCpuMsPer1000: median(ok.map((r) => r.endpointCpuMsPer1000)) };
      const s = summary[t];
      console.log(`${String(t).padEnd(8)}  ${ok.length}     ${String(Math.round(s.rate)).padStart(8)} (${Math.round(s.min)}-${Math.round(s.max)})${' '.repeat(10)}${s.cpuMsPer1000.toFixed(2).padStart(6)}${' '.repeat(21)}${s.endpointCpuMsPer1000.toFixed(2).padStart(6)}`);
    }
    if (summary[1] && summary[2]) console.log(`2 threads ÷ 1 (medians): ${(summary[2].rate / summary[1].rate).toFixed(2)}x`);
    if (o.json) fs.writeFileSync(o.json, JSON.stringify({ date: new Date().toISOString(), cpus: os.cpus().length, cpuModel: os.cpus()[0].model, ...o, rows, profiles, summary }, null, 1));
    if (rows.some((r) => !r.ok) || profiles.some((p) => !p.ok)) process.exitCode = 1;
  } finally {
    await fake.close();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
