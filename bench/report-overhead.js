#!/usr/bin/env node
'use strict';
// What the full report costs: `summarize` of the benchmark's million keys as text and as
// HTML (`--format html --output FILE`), alternating run by run so a busy neighbour on a
// shared machine weighs on both alike. Prints each run and the medians' ratios (wall time
// and client CPU, user+sys of the process tree, measured by bench/peers.js's wrapper).
//
//   node bench/report-overhead.js [keys (1000000)] [rounds (5)]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnFakeS3 } = require('./fake-s3');
const { runPeer } = require('./peers');

const BIN = path.join(__dirname, '..', 'bin', 's3blitz.js');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

function env() {
  const e = { ...process.env };
  for (const k of Object.keys(e)) if (/^AWS_|_proxy$/i.test(k)) delete e[k];
  const none = path.join(os.tmpdir(), 's3blitz-no-aws-config');
  return Object.assign(e, {
    AWS_ACCESS_KEY_ID: 'fakeAccessKey', AWS_SECRET_ACCESS_KEY: 'fakeSecretKey', AWS_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: none, AWS_SHARED_CREDENTIALS_FILE: none, NO_PROXY: '127.0.0.1,localhost',
  });
}

async function main() {
  const keys = Number(process.argv[2] || 1e6), rounds = Number(process.argv[3] || 5);
  const fake = await spawnFakeS3({ listLatencyMs: 100, otherLatencyMs: 30 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-report-overhead-'));
  try {
    await fake.seed('list', 'hierarchical', keys, { hosts: 8, perDir: 1000, size: 1024 });
    const base = ['summarize', 's3://list', '--endpoint-url', fake.endpoint, '-q'];
    const variants = {
      text: { args: base, count: (out) => Number((/^objects\s+([\d,]+)/m.exec(out) || [])[1]?.replace(/,/g, '')) },
      html: { args: [...base, '--format', 'html', '--output', path.join(dir, 'r.html')],
        count: () => Number((/data-figure="objects" data-value="(\d+)"/.exec(fs.readFileSync(path.join(dir, 'r.html'), 'utf8')) || [])[1]) },
    };
    const got = { text: [], html: [] };
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so neither always follows the other's garbage.
      for (const name of i % 2 ? ['html', 'text'] : ['text', 'html']) {
        const v = variants[name];
        const r = await runPeer({ peer: 's3blitz', op: 'summarize', variant: name, cmd: process.execPath, args: [BIN, ...v.args], env: env(), line: name },
          { collectLines: true, timeoutMs: 600000 });
        const count = v.count((r.output || []).join('\n'));
        if (!r.ok || count !== keys) throw new Error(`${name} run ${i + 1}: exit ${r.exitCode}, ${count} objects of ${keys}: ${r.stderrTail}`);
        got[name].push(r);
        console.log(`${name.padEnd(4)} run ${i + 1}: wall ${r.wallSec.toFixed(2)} s, cpu ${r.cpuSec.toFixed(2)} s, rss ${Math.round(r.maxRssKb / 1024)} MB`);
      }
    }
    const m = (name, f) => median(got[name].map(f));
    const wall = m('html', (r) => r.wallSec) / m('text', (r) => r.wallSec);
    const cpu = m('html', (r) => r.cpuSec) / m('text', (r) => r.cpuSec);
    console.log(`medians of ${rounds}: text wall ${m('text', (r) => r.wallSec).toFixed(2)} s cpu ${m('text', (r) => r.cpuSec).toFixed(2)} s; ` +
      `html wall ${m('html', (r) => r.wallSec).toFixed(2)} s cpu ${m('html', (r) => r.cpuSec).toFixed(2)} s; ` +
      `html/text: wall ${((wall - 1) * 100).toFixed(1)}%, cpu ${((cpu - 1) * 100).toFixed(1)}%; html ${fs.statSync(path.join(dir, 'r.html')).size.toLocaleString('en-US')} bytes`);
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e.message); process.exitCode = 1; });
