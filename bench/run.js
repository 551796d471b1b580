#!/usr/bin/env node
'use strict';
// Side-by-side benchmark: s3blitz against aws-cli, s5cmd and rclone, all
// talking to the simulated S3 of bench/fake-s3.js (own process, fixed
// per-request latency), one run after another on the same data.
//
//   npm run bench                   1M-key listing bucket, 100k-object copy, every key layout at 1M keys
//   npm run bench -- --quick        100k keys, 10k objects, layouts at 100k keys
//   options: --list-latency MS (100)  --other-latency MS (30)
//            --peers aws,s5cmd,rclone  --timeout SEC (per run)
//            --layout-keys N (keys per layout bucket; 0 skips the layouts section)
//            --layouts a,b (only these layouts of bench/layouts.js)
//            --generated N (layouts drawn from the families after the named ones; 20, quick 4)
//            --generated-seed S (the first drawn layout's seed, 2811; the next S+1, ...)
//            --only SECTIONS (comma-separated, of: main (listing, copy and their peers), layouts, plan (shard plans of every layout), transfers, rm, versions, metadata, verify (compare --checksum and local verification))
//            --rm-objects N (objects each rm run deletes; 0 skips rm) --only-rm (--only rm)
//            --versions N (versions for the version listing; 0 skips it)
//            --metadata N (objects for the metadata scan; 0 skips it)
//            --no-profile (transfers: no second run of s3blitz's rows under the CPU profiler)
//
// Every run goes through peers.js's runPeer wrapper (s3blitz too), so wall
// time, user+sys CPU and peak RSS are measured the same way for every tool.
// Every row checks its own count (stdout lines, summarize's object count, or
// the target bucket's count plus a digest of keys/sizes/ETags for copies), so
// a crashed or partial run shows as FAILED rather than fast.
// Writes bench/results/<date>.json, latest.json and latest.md (a quick run
// writes latest-quick.* so it never replaces the README numbers; an --only run
// latest-<sections>.*). Exits 0
// whatever the numbers are; non-zero only if the harness itself broke.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { spawnFakeS3, GENERATORS, keyEtag, toExternalKey, toInternalKey } = require('./fake-s3');
const { ensurePeers, ensureS3ls, buildCommand, runPeer, fakeEnv, TUNING } = require('./peers');
const { transfersSection, transferTables } = require('./transfers');
const { verifySection, verifyTables } = require('./verify');
const { rmSection } = require('./rm-bench');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 's3blitz.js');
const RESULTS = path.join(__dirname, 'results');
const SIZE = 1024; // bytes per seeded object
const PEERS = ['aws', 's5cmd', 'rclone'];

// Sizes per mode. Peers list and copy one at a time, so they run a slice of
// the same bucket (a '/'-terminated prefix: the only slice all three can
// address, since rclone treats a path as a folder) and are compared by rate.
// smallCopy: peers whose defaults copy only a handful of objects at once get
// a smaller slice so the whole run stays within ~15 minutes.
const MODES = {
  full: {
    list: 1e6, copy: 1e5, layoutKeys: 1e6, generated: 20, rm: 1e5, versions: 1e6, metadata: 1e5, peerCap: 30, peerList: 200e3, peerCopy: 20e3, smallCopy: 2e3, timeoutSec: 900,
    small: ['rclone:default'], // --transfers 4 + a HEAD per object: ~60 objects/s, 20k would take 5+ min
  },
  quick: {
    list: 1e5, copy: 1e4, layoutKeys: 1e5, generated: 4, rm: 1e4, versions: 1e5, metadata: 1e4, peerCap: 10, peerList: 5e3, peerCopy: 1e3, smallCopy: 200, timeoutSec: 120,
    small: ['aws:default', 'rclone:default'], // 10 and 4 copies at once: keep quick mode quick
  },
};

// Key layouts (hierarchical: logs/YYYY/MM/DD/host-HH/part-NNNNN.gz), chosen so
// folder prefixes have useful sizes. list: 8 hosts x 1000 = 8,000 keys a day,
// ~248k a month. copy: 5 days x 8 hosts, so a day is 1/5 and a host folder 1/40.
const listLayout = () => ({ hosts: 8, perDir: 1000, size: SIZE });
const copyLayout = (n) => ({ hosts: 8, perDir: Math.max(1, Math.ceil(n / 40)), size: SIZE });

// Listing peers have no listing knob in aws-cli or s5cmd (see TUNING docs):
// their "tuned" listing would rerun the identical walk, so it is reported, not run.
const LIST_KNOB = {
  aws: 'not run: `aws s3 ls` has no listing knob (max_concurrent_requests only affects transfers), tuned = default',
  s5cmd: 'not run: `s5cmd ls` is one sequential ListObjectsV2 walk, --numworkers does not apply, tuned = default',
  rclone: null,
};

const USAGE = 'usage: node bench/run.js [--quick] [--list-latency MS] [--other-latency MS] [--peers aws,s5cmd,rclone] [--timeout SEC] [--layout-keys N] [--layouts a,b] [--generated N] [--generated-seed S] [--only main,layouts,plan,transfers,rm,versions,metadata,verify] [--rm-objects N] [--only-rm] [--versions N] [--metadata N] [--no-profile]';
const SECTIONS = ['main', 'layouts', 'plan', 'transfers', 'rm', 'versions', 'metadata', 'verify'];

function parseArgs(argv) {
  const o = { quick: false, listLatency: 100, otherLatency: 30, peers: PEERS, timeoutSec: null, layoutKeys: null, layouts: null, generated: null, generatedSeed: 2811, only: SECTIONS, rmObjects: null, versions: null, metadata: null, profile: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => argv[++i];
    if (a === '--quick') o.quick = true;
    else if (a === '--list-latency') o.listLatency = +v();
    else if (a === '--other-latency') o.otherLatency = +v();
    else if (a === '--peers') o.peers = v().split(',').filter(Boolean);
    else if (a === '--timeout') o.timeoutSec = +v();
    else if (a === '--layout-keys') o.layoutKeys = +v();
    else if (a === '--layouts') o.layouts = v().split(',').filter(Boolean);
    else if (a === '--generated') o.generated = +v();
    else if (a === '--generated-seed') o.generatedSeed = +v();
    else if (a === '--only') {
      o.only = v().split(',').filter(Boolean);
      for (const x of o.only) if (!SECTIONS.includes(x)) { console.error(`unknown section ${x} (have ${SECTIONS})\n${USAGE}`); process.exit(2); }
    }
    else if (a === '--rm-objects') o.rmObjects = +v();
    else if (a === '--only-rm') o.only = ['rm'];
    else if (a === '--versions') o.versions = +v();
    else if (a === '--metadata') o.metadata = +v();
    else if (a === '--no-profile') o.profile = false;
    else if (a === '--help' || a === '-h') { console.log(USAGE); process.exit(0); }
    else { console.error(`unknown argument ${a}\n${USAGE}`); process.exit(2); }
  }
  return o;
}

// ---------------------------------------------------------------------------
// Data sets. The fake's generators are deterministic, so generating the same
// keys here tells us exactly what every slice holds and what a correct copy's
// digest is, without trusting any tool's own report.

function dataset(bucket, generator, count, opts) {
  return { bucket, generator, count, opts, keys: GENERATORS[generator](count, opts) }; // sorted, internal form
}

// The deepest '/'-terminated prefix of the first key that holds >= min keys
// (the whole bucket if min covers it). Keys under a prefix of the first key
// are a run from index 0, so counting is a scan until the first miss.
function slice(ds, min) {
  let best = { prefix: '', count: ds.keys.length };
  const first = toExternalKey(ds.keys[0]);
  for (let i = first.indexOf('/'); i >= 0 && min < ds.keys.length; i = first.indexOf('/', i + 1)) {
    const prefix = first.slice(0, i + 1), ip = toInternalKey(prefix);
    let n = 0;
    while (n < ds.keys.length && ds.keys[n].startsWith(ip)) n++;
    if (n < min) break;
    best = { prefix, count: n };
  }
  return { ...best, ds, label: best.prefix ? `${ds.bucket}/${best.prefix}` : `${ds.bucket} (all)` };
}

// Same formula as the fake's /__digest: order-sensitive md5 of key, size, ETag.
function digestOf(s) {
  const h = crypto.createHash('md5');
  for (let i = 0; i < s.count; i++) h.update(`${toExternalKey(s.ds.keys[i])}\0${SIZE}\0${keyEtag(s.ds.keys[i])}\n`);
  return h.digest('hex');
}

// How a tool names a slice: aws wants the trailing '/' (else it matches any
// key starting with the text), s5cmd appends '/*' itself, rclone takes a folder.
const where = (bucket, prefix, peer) => (peer === 'aws' ? `${bucket}/${prefix}` : prefix ? `${bucket}/${prefix.slice(0, -1)}` : bucket);

// ---------------------------------------------------------------------------
// s3blitz command lines, isolated from the user's AWS config like the peers (fakeEnv).
function blitzSpec(op, args, endpoint) {
  const all = [...args, '--endpoint-url', endpoint, '-q'];
  return { peer: 's3blitz', op, variant: 'default', cmd: process.execPath, args: [BIN, ...all], env: fakeEnv(), line: ['s3blitz', ...all].join(' ') };
}

// ---------------------------------------------------------------------------
// Measuring one row.

const LIST_OPS = ['ListObjectsV2', 'ListObjects'];
const SHORT = { ListObjectsV2: 'LIST', ListObjects: 'LISTv1', CopyObject: 'COPY', HeadObject: 'HEAD', GetObject: 'GET', PutObject: 'PUT' };

async function measure(ctx, row, spec, { expect, target, digest, parse, cap, raw }) {
  const { fake } = ctx;
  const timeoutSec = cap || ctx.timeoutSec;
  if (target) await fake.clear(target); // every copy starts from an empty target
  await fake.resetStats(); // after the clear: its garbage is collected here, not billed to the run
  const r = await runPeer(spec, {
    timeoutMs: timeoutSec * 1000, collectLines: !!parse, countObjects: () => fake.count(target),
  });
  const st = await fake.stats();
  const out = { ...row, line: spec.line, expected: expect, count: r.count, exitCode: r.exitCode, timedOut: r.timedOut,
    wallSec: r.wallSec, userSec: r.userSec, sysSec: r.sysSec, cpuSec: r.cpuSec, rssMb: r.maxRssKb / 1024,
    fake: { cpuSec: st.cpu.total, requests: st.requests, totalRequests: st.totalRequests, errors: st.errors,
      connections: st.connections, maxInflight: st.maxInflight } };
  out.fakeShare = st.cpu.total / (st.cpu.total + r.cpuSec);
  const problems = [];
  if (parse) {
    try { const text = r.output.join('\n'); Object.assign(out, parse(raw ? text : JSON.parse(text))); } catch (e) { problems.push(`unparsable --json output (${e.message})`); }
  }
  if (row.tool === 's3blitz' && !parse) { // ls -v: the request statistics line on stderr
    const m = /efficiency ([\d.]+), in flight mean ([\d.]+) max (\d+), splits \d+, hedges (\d+)/.exec(r.stderrTail);
    if (m) Object.assign(out, { ownEfficiency: +m[1], meanInflight: +m[2], maxInflightOwn: +m[3], hedges: +m[4] });
  }
  if (out.ownStats) Object.assign(out, { meanInflight: out.ownStats.meanInflight, maxInflightOwn: out.ownStats.maxInflight, hedges: out.ownStats.hedges });
  // A capped run (a sequential peer on a million keys) is measured by what it listed in its time.
  const capped = r.timedOut && cap && out.count > 0 && r.exitCode !== 0;
  if (r.timedOut && !capped) problems.push(`timed out after ${timeoutSec}s`);
  else if (r.exitCode !== 0 && !capped) problems.push(`exit ${r.exitCode ?? 'signal ' + r.signal}`);
  if (out.count !== expect && !(capped && out.count < expect)) problems.push(`count ${out.count} != ${expect}`);
  if (out.reported != null && (out.reported !== expect || out.failedObjects)) problems.push(`s3blitz reported ${out.reported} copied, ${out.failedObjects} failed`);
  if (digest && problems.length === 0) {
    const d = await fake.digest(target);
    if (d.md5 !== digest) problems.push('target keys/sizes/ETags differ from the source');
  }
  out.listRequests = LIST_OPS.reduce((n, k) => n + (st.requests[k] || 0), 0);
  out.status = problems.length ? 'FAILED' : capped ? 'capped' : 'ok';
  // Only a complete run knows how many unique keys it listed.
  if (row.tool === 's3blitz' && out.listRequests && out.status === 'ok') out.efficiency = expect / (out.listRequests * 1000);
  if (problems.length) { out.problems = problems; out.stderrTail = r.stderrTail.slice(-1500); }
  out.rate = out.status === 'ok' ? expect / r.wallSec : capped ? out.count / r.wallSec : null;
  ctx.rows.push(out);
  console.log(`  ${out.status.padEnd(6)} ${row.tool} ${row.op} ${row.settings} [${row.data}] ${fmtInt(out.count)}/${fmtInt(expect)} ` +
    `${out.wallSec.toFixed(2)}s ${out.rate ? fmtInt(out.rate) + '/s' : ''} cpu ${out.cpuSec.toFixed(2)}s rss ${out.rssMb.toFixed(0)}MB ` +
    `fake ${pct(out.fakeShare)} inflight ${st.maxInflight} ${reqs(st.requests)}${out.efficiency != null ? ` eff ${out.efficiency.toFixed(3)}` : ''}` +
    (problems.length ? `\n         ${problems.join('; ')}\n         ${spec.line}\n         ${out.stderrTail.split('\n').slice(-4).join('\n         ')}` : ''));
  return out;
}

// A row that was not run, with the reason (missing peer, no knob to tune).
function note(ctx, row, status, reason) {
  ctx.rows.push({ ...row, status, reason });
  console.log(`  ${status.padEnd(6)} ${row.tool} ${row.op} ${row.settings} [${row.data}]: ${reason}`);
}

// ---------------------------------------------------------------------------
// The benchmark.

const settingsOf = (peer, variant, op) => {
  if (variant === 'default') return 'default';
  if (peer === 'aws') return `max_concurrent_requests=${TUNING.aws.tuned.max_concurrent_requests}, max_queue_size=${TUNING.aws.tuned.max_queue_size}`;
  if (peer === 's5cmd') return `--numworkers ${TUNING.s5cmd.tuned.numworkers}`;
  return TUNING.rclone.tuned[op].join(' ');
};

async function peerRows(ctx, group, op, sl, small) {
  const { peers } = ctx;
  for (const peer of ctx.opts.peers) {
    for (const variant of ['default', 'tuned']) {
      const s = small && ctx.mode.small.includes(`${peer}:${variant}`) ? small : sl;
      const row = { group, tool: peer, op: op === 'ls' ? 'ls' : 'cp', settings: settingsOf(peer, variant, op), data: s.label, variant };
      const miss = peers.missing.find((m) => m.name === peer);
      if (miss) { note(ctx, row, 'MISSING', miss.reason); continue; }
      if (op === 'ls' && variant === 'tuned' && LIST_KNOB[peer]) { note(ctx, row, 'SKIPPED', LIST_KNOB[peer]); continue; }
      const spec = buildCommand(peers, peer, op, {
        endpoint: ctx.fake.endpoint, tuned: variant === 'tuned',
        bucket: where(s.ds.bucket, s.prefix, peer), src: where(s.ds.bucket, s.prefix, peer), dst: where('dst', s.prefix, peer),
      });
      await measure(ctx, row, spec, op === 'ls' ? { expect: s.count } : { expect: s.count, target: 'dst', digest: digestOf(s) });
    }
  }
}

// ---------------------------------------------------------------------------
// Listing on every key layout (bench/layouts.js), each a bucket of its own generated
// with its own seed: s3blitz in key order (ls) and unordered (summarize) under three
// latency conditions, then (steady latency) at 300 and 1000 requests in flight, a second
// run that starts from the first's split hints, and s3ls-rs, the parallel peer. Nothing
// here is tuned to one layout: every layout gets the same commands.
const { LAYOUTS, generateLayout } = require('./layouts');
const { compareKeys } = require('../src/keys/order');
const { planBalance } = require('./plan-balance');
const CONDITIONS = [
  { name: 'steady', lat: {} },
  { name: 'jitter ±50 ms', lat: { jitterMs: 50 } },
  { name: '1% stall 2 s', lat: { stallEvery: 100, stallMs: 2000 } },
];

async function layoutsSection(ctx) {
  const { mode, fake } = ctx;
  const E = fake.endpoint;
  await fake.addBucket('layouts');
  const hintsHome = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-bench-hints-'));
  try {
    // The named layouts, each with its own seed, then layouts drawn from the families
    // (seeds --generated-seed, +1, ...): the named are the ones the planner was written
    // against, the drawn ones what it was not.
    const runs = (ctx.opts.layouts || Object.keys(LAYOUTS)).map((layout) => ({ layout, named: true, seed: 101 + Object.keys(LAYOUTS).indexOf(layout) }));
    for (let g = 0; g < (mode.generated || 0); g++) runs.push({ layout: 'generated', named: false, seed: ctx.opts.generatedSeed + g });
    for (const run of runs) {
      const keys = (run.named ? LAYOUTS[run.layout](mode.layoutKeys, run.seed) : generateLayout(run.seed, mode.layoutKeys).keys)
        .sort(compareKeys).filter((k, j, a) => j === 0 || k !== a[j - 1]);
      const layout = run.named ? run.layout : generateLayout(run.seed, 10).name;
      await fake.clear('layouts');
      const r = await fake.seed('layouts', 'layout', mode.layoutKeys, { layout: run.layout, seed: run.seed });
      const expect = r.count;
      if (expect !== keys.length) throw new Error(`the fake seeded ${expect} keys of ${layout}, the generator made ${keys.length}`);
      console.log(`# layout ${layout}: ${fmtInt(expect)} keys (seed ${run.seed}, ${r.ms} ms)`);
      const row = (tool, op, settings, condition) => ({ group: 'layouts', layout, generated: !run.named, condition, tool, op, settings, data: `${layout} (${fmtInt(expect)})` });
      const cold = ['--no-split-hints'];
      if (ctx.runs('layouts')) await layoutListingRows(ctx, layout, row, expect, cold, hintsHome, run.named);
      if (!ctx.runs('plan')) continue;
      // A shard plan of the layout (issue 19): its list requests, and how even its shards
      // are, counted from the layout's own keys (the fake seeds the same generator).
      for (const n of PLAN_SHARDS) {
        await measure(ctx, row('s3blitz', 'plan', `--shards ${n}`, 'steady'), blitzSpec('plan', ['plan', 's3://layouts', '--shards', String(n)], E),
          { expect, parse: (plan) => planBalance(plan, keys) });
      }
    }
    await fake.clear('layouts');
  } finally {
    fs.rmSync(hintsHome, { recursive: true, force: true });
  }
}

// ls and summarize of one layout under each latency condition, at higher concurrency, with
// split hints, and the parallel peer. A drawn layout (all = false) gets steady latency and
// the parallel peer only, so twenty of them fit in the run.
async function layoutListingRows(ctx, layout, row, expect, cold, hintsHome, all = true) {
  const { mode, fake } = ctx;
  const E = fake.endpoint;
  for (const c of all ? CONDITIONS : CONDITIONS.slice(0, 1)) {
    await fake.setLatency({ listMs: ctx.opts.listLatency, jitterMs: 0, stallEvery: 0, stallMs: 0, ...c.lat });
    await measure(ctx, row('s3blitz', 'ls', 'default', c.name), blitzSpec('ls', ['ls', 's3://layouts', '-v', ...cold], E), { expect });
    await measure(ctx, row('s3blitz', 'summarize', 'default', c.name), blitzSpec('summarize', ['summarize', 's3://layouts', '--json', ...cold], E),
      { expect, parse: (j) => ({ count: j.objects, ...ownStats(j) }) });
  }
  await fake.setLatency({ listMs: ctx.opts.listLatency, jitterMs: 0, stallEvery: 0, stallMs: 0 });
  if (all) await layoutExtraRows(ctx, layout, row, expect, cold, hintsHome);
  for (const variant of ['default', 'tuned']) {
    const prow = row('s3ls', 'ls --no-sort', variant === 'tuned' ? TUNING.s3ls.tuned.join(' ') : 'default', 'steady');
    if (!ctx.peers.s3ls) { note(ctx, prow, 'MISSING', ctx.peers.s3lsMissing); continue; }
    const spec = buildCommand(ctx.peers, 's3ls', 'ls', { endpoint: E, bucket: 'layouts', tuned: variant === 'tuned', extraArgs: ['--no-sort'] });
    await measure(ctx, prow, spec, { expect, cap: mode.peerCap });
  }
}

// At higher concurrency, and a second run from the first one's split hints.
async function layoutExtraRows(ctx, layout, row, expect, cold, hintsHome) {
  const E = ctx.fake.endpoint;
  for (const n of [300, 1000]) {
    await measure(ctx, row('s3blitz', 'ls', `--list-concurrency ${n}`, 'steady'),
      blitzSpec('ls', ['ls', 's3://layouts', '-v', '--list-concurrency', String(n), ...cold], E), { expect });
  }
  // Hints: a first listing writes them to the cache, the second starts from them.
  const hinted = { ...fakeEnv(), XDG_CACHE_HOME: path.join(hintsHome, layout) };
  await runPeer({ ...blitzSpec('ls', ['ls', 's3://layouts'], E), env: hinted }, { timeoutMs: ctx.timeoutSec * 1000 });
  await measure(ctx, row('s3blitz', 'ls', 'second run (split hints)', 'steady'), { ...blitzSpec('ls', ['ls', 's3://layouts', '-v'], E), env: hinted }, { expect });
}

const ownStats = (j) => ({ ownEfficiency: j.stats?.efficiency, ownStats: j.stats });

// Shard counts each layout is planned for (balance: bench/plan-balance.js).
const PLAN_SHARDS = [16, 100];

// ---------------------------------------------------------------------------
// Versions: a million versions (several per key, every tenth key's newest a delete
// marker) listed with ls --all-versions, against s5cmd ls --all-versions and rclone lsf
// --s3-versions (both one request at a time). rclone does not list delete markers, so its
// expected count is the versions alone.
async function versionsSection(ctx) {
  const { mode, fake } = ctx;
  const E = fake.endpoint;
  const per = 4, markerEvery = 10;
  const keys = Math.ceil(mode.versions / per);
  const r = await fake.seed('versions', 'hierarchical', keys, { hosts: 8, perDir: 1000, size: SIZE, versions: per, markerEvery });
  const entries = r.count * per, markers = Math.ceil(r.count / markerEvery);
  console.log(`# versions: ${fmtInt(r.count)} keys × ${per} versions = ${fmtInt(entries)} entries (${fmtInt(markers)} delete markers), ${r.ms} ms`);
  const row = (tool, op, settings) => ({ group: 'versions', tool, op, settings, data: `versions (${fmtInt(entries)})` });
  await fake.setLatency({ listMs: ctx.opts.listLatency, otherMs: ctx.opts.otherLatency, jitterMs: 0, stallEvery: 0, stallMs: 0 });
  await measure(ctx, row('s3blitz', 'ls --all-versions', 'default (--list-concurrency 100)'),
    blitzSpec('ls', ['ls', 's3://versions', '--all-versions', '-v', '--no-split-hints'], E), { expect: entries });
  for (const peer of ['s5cmd', 'rclone']) {
    if (!ctx.opts.peers.includes(peer)) continue;
    const prow = row(peer, peer === 's5cmd' ? 'ls --all-versions' : 'lsf --s3-versions', 'default');
    const miss = ctx.peers.missing.find((m) => m.name === peer);
    if (miss) { note(ctx, prow, 'MISSING', miss.reason); continue; }
    const spec = buildCommand(ctx.peers, peer, 'ls', { endpoint: E, bucket: 'versions', extraArgs: peer === 'rclone' ? ['--s3-versions'] : [] });
    if (peer === 's5cmd') spec.args.splice(spec.args.indexOf('ls') + 1, 0, '--all-versions');
    spec.line = [spec.cmd, ...spec.args].join(' ');
    await measure(ctx, prow, spec, { expect: peer === 'rclone' ? entries - markers : entries, cap: mode.peerCap });
  }
  await fake.clear('versions');
}

// Metadata: a HeadObject per object (30 ms each by default) for 100,000 objects: ls
// --metadata (key order, JSON lines), summarize --by content-type (unordered), and rclone
// lsjson -M (its HEADs at --checkers at once: default and tuned). Every row must have sent a
// HEAD per object (the fake's count), so a tool that skipped them never looks fast.
async function metadataSection(ctx) {
  const { mode, fake } = ctx;
  const E = fake.endpoint;
  const r = await fake.seed('meta', 'hierarchical', mode.metadata, { hosts: 8, perDir: 1000, size: SIZE, meta: 1 });
  const expect = r.count;
  console.log(`# metadata: ${fmtInt(expect)} objects, ${ctx.opts.otherLatency} ms per HEAD`);
  await fake.setLatency({ listMs: ctx.opts.listLatency, otherMs: ctx.opts.otherLatency, jitterMs: 0, stallEvery: 0, stallMs: 0 });
  const row = (tool, op, settings) => ({ group: 'metadata', tool, op, settings, data: `meta (${fmtInt(expect)})` });
  const headed = (out) => {
    const heads = out.fake?.requests?.HeadObject || 0;
    out.heads = heads;
    if (out.status === 'ok' && heads < expect) { out.status = 'FAILED'; out.problems = [`${heads} HEAD requests for ${expect} objects`]; out.rate = null; }
    if (out.status === 'ok') { out.headsPerSec = expect / out.wallSec; out.cpuPerHeadMs = (out.cpuSec * 1000) / expect; }
    // Cut off at its time limit: measured by the HEADs it made in that time.
    if (out.status === 'capped' && heads) { out.headsPerSec = heads / out.wallSec; out.cpuPerHeadMs = (out.cpuSec * 1000) / heads; }
  };
  headed(await measure(ctx, row('s3blitz', 'ls --metadata --json', 'default (--head-concurrency 500)'),
    blitzSpec('ls', ['ls', 's3://meta', '--metadata', '--json', '--no-split-hints'], E), { expect }));
  headed(await measure(ctx, row('s3blitz', 'summarize --by content-type', 'default (--head-concurrency 500)'),
    blitzSpec('summarize', ['summarize', 's3://meta', '--by', 'content-type', '--json', '--no-split-hints'], E),
    { expect, parse: (j) => ({ count: j.objects, ...ownStats(j) }) }));
  if (ctx.opts.peers.includes('rclone')) {
    for (const variant of ['default', 'tuned']) {
      const extra = variant === 'tuned' ? ['--checkers', '256'] : [];
      const prow = row('rclone', 'lsjson -M', variant === 'tuned' ? extra.join(' ') : 'default (--checkers 8)');
      const miss = ctx.peers.missing.find((m) => m.name === 'rclone');
      if (miss) { note(ctx, prow, 'MISSING', miss.reason); continue; }
      const spec = buildCommand(ctx.peers, 'rclone', 'ls', { endpoint: E, bucket: 'meta' });
      // lsjson -M reads each object's metadata with a HEAD: the benchmark's switches that
      // save rclone HEADs elsewhere must not turn them off here.
      for (const k of Object.keys(spec.env)) if (/_NO_HEAD/.test(k)) delete spec.env[k];
      spec.args = ['lsjson', '-R', '-M', '--files-only', ...extra, spec.args[spec.args.length - 1]];
      spec.line = [spec.cmd, ...spec.args].join(' ');
      // One object per line between "[" and "]": counted by lines, so a run cut off at its
      // time limit is still measured by what it listed.
      const out = await measure(ctx, prow, spec, { expect: expect + 2, cap: mode.peerCap * 4 });
      out.count = Math.max(0, out.count - 2);
      out.expected = expect;
      if (out.status === 'ok') out.rate = expect / out.wallSec;
      else if (out.status === 'capped') out.rate = out.count / out.wallSec;
      headed(out);
    }
  }
  await fake.clear('meta');
}

function versionMetadataTables(ctx) {
  const out = [];
  const line = (r, extra) => {
    if (r.status === 'MISSING' || r.status === 'SKIPPED') return `| ${r.tool} | ${r.op} | ${r.settings} | ${r.data} | ${r.status}: ${r.reason} |${' |'.repeat(extra)}`;
    const cnt = r.status === 'ok' ? fmtInt(r.count) : r.status === 'capped' ? `${fmtInt(r.count)} (cut off)` : `FAILED ${fmtInt(r.count)}/${fmtInt(r.expected)}: ${(r.problems || []).join('; ')}`;
    return `| ${r.tool} | ${r.op} | ${r.settings} | ${r.data} | ${cnt} | ${num(r.wallSec)} |`;
  };
  const v = ctx.rows.filter((r) => r.group === 'versions');
  if (v.length) {
    out.push('', `#### Listing versions (${ctx.opts.listLatency} ms per LIST)`, '',
      '| tool | op | settings | data | versions listed | wall s | versions/s | s3blitz × | client CPU s | CPU ms /1k versions | peak RSS MB | LIST requests | list eff. |',
      '|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of v) {
      if (!r.wallSec) { out.push(line(r, 8)); continue; }
      const listed = r.status === 'capped' ? r.count : r.expected;
      out.push(`${line(r)} ${r.rate ? fmtInt(r.rate) : '-'} | ${r.ratio ? num(r.ratio) : '-'} | ${num(r.cpuSec)} | ${listed ? num((r.cpuSec * 1e6) / listed, 1) : '-'} | ${num(r.rssMb, 0)} | ` +
        `${fmtInt(r.fake.requests.ListObjectVersions)} | ${r.fake.requests.ListObjectVersions ? num(r.count / (r.fake.requests.ListObjectVersions * 1000), 2) : '-'} |`);
    }
    out.push('', 'rclone lsf --s3-versions lists object versions but not delete markers: its count is checked against the versions alone. ' +
      'list eff.: entries listed ÷ (ListObjectVersions requests × 1000).');
  }
  const m = ctx.rows.filter((r) => r.group === 'metadata');
  if (m.length) {
    out.push('', `#### Metadata of every object (a HeadObject each, ${ctx.opts.otherLatency} ms per HEAD)`, '',
      '| tool | op | settings | data | objects | wall s | HEAD/s | s3blitz × | client CPU s | CPU ms per HEAD | peak RSS MB | HEAD requests | fake CPU share |',
      '|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of m) {
      if (!r.wallSec) { out.push(line(r, 8)); continue; }
      out.push(`${line(r)} ${r.headsPerSec ? fmtInt(r.headsPerSec) : '-'} | ${r.ratio ? num(r.ratio) : '-'} | ${num(r.cpuSec)} | ${r.cpuPerHeadMs != null ? num(r.cpuPerHeadMs, 3) : '-'} | ` +
        `${num(r.rssMb, 0)} | ${fmtInt(r.heads)} | ${pct(r.fakeShare)} |`);
    }
    out.push('', 'HEAD/s: objects ÷ wall time of the whole run (start-up and listing included); for a run cut off at its time limit, the HEADs it made ÷ that time. ' +
      'CPU ms per HEAD: the client process tree\'s user+sys CPU ÷ objects (or HEADs made). rclone lsjson -M reads metadata one object at a time (--checkers does not apply to it), ' +
      `so it runs at most ${ctx.mode.peerCap * 4} s. Aim: ≥ 10,000 HEAD/s and ≤ 0.1 ms CPU per HEAD.`);
  }
  return out;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const modeName = opts.quick ? 'quick' : 'full';
  const mode = { ...MODES[modeName] };
  if (opts.layoutKeys != null) mode.layoutKeys = opts.layoutKeys;
  if (opts.generated != null) mode.generated = opts.generated;
  if (opts.rmObjects != null) mode.rm = opts.rmObjects;
  if (opts.versions != null) mode.versions = opts.versions;
  if (opts.metadata != null) mode.metadata = opts.metadata;
  const runs = (section) => opts.only.includes(section);
  if (!runs('layouts') && !runs('plan')) mode.layoutKeys = 0;
  for (const l of opts.layouts || []) if (!LAYOUTS[l]) { console.error(`unknown layout ${l} (have ${Object.keys(LAYOUTS)})`); process.exit(2); }
  const started = new Date();
  const host = machine(); // now: others may commit or edit src/ while the benchmark runs
  const ctx = { opts, mode, modeName, rows: [], timeoutSec: opts.timeoutSec || mode.timeoutSec, blitzSpec, note, runs };

  console.log(`# s3blitz benchmark (${modeName}), fake S3 latency LIST ${opts.listLatency} ms, other ${opts.otherLatency} ms`);
  ctx.peers = await ensurePeers({ peers: opts.peers, log: (m) => console.log(`  ${m}`) });
  for (const p of opts.peers) if (ctx.peers[p]) console.log(`  ${p}: ${ctx.peers.versions[p]}`);
  for (const m of ctx.peers.missing) console.log(`  MISSING ${m.name}: ${m.reason}`);
  if (mode.layoutKeys) {
    const s3ls = ensureS3ls({ log: (m) => console.log(`  ${m}`) });
    if (s3ls.exe) { ctx.peers.s3ls = s3ls.exe; ctx.peers.versions.s3ls = s3ls.version; console.log(`  s3ls: ${s3ls.version}`); }
    else { ctx.peers.s3lsMissing = s3ls.reason; console.log(`  MISSING s3ls: ${s3ls.reason}`); }
  }
  spawnSync(process.execPath, [BIN, '--version']); // warm the file cache so the first timed run is not a cold start

  const list = runs('main') && dataset('list', 'hierarchical', mode.list, listLayout());
  const copy = runs('main') && dataset('copy', 'hierarchical', mode.copy, copyLayout(mode.copy));

  ctx.fake = await spawnFakeS3({ listLatencyMs: opts.listLatency, otherLatencyMs: opts.otherLatency });
  const { fake } = ctx;
  try {
    const seed = async (ds) => {
      const r = await fake.seed(ds.bucket, ds.generator, ds.count, ds.opts);
      if (r.count !== ds.keys.length) throw new Error(`seeded ${ds.bucket} with ${r.count} keys, expected ${ds.keys.length}`);
      console.log(`  seeded ${ds.bucket}: ${fmtInt(r.count)} ${ds.generator} keys in ${r.ms} ms`);
    };
    const E = fake.endpoint;
    const all = (ds) => slice(ds, Infinity);
    if (runs('main')) {
      await seed(list);
      await seed(copy);
      await fake.addBucket('dst');

      console.log('# listing');
      const L = all(list);
      await measure(ctx, { group: 'list', tool: 's3blitz', op: 'ls', settings: 'default (--list-concurrency 100)', data: L.label },
        blitzSpec('ls', ['ls', 's3://list', '-v'], E), { expect: L.count });
      await measure(ctx, { group: 'list', tool: 's3blitz', op: 'summarize', settings: 'default (--list-concurrency 100)', data: L.label },
        blitzSpec('summarize', ['summarize', 's3://list', '--json'], E), { expect: L.count, parse: (j) => ({ count: j.objects, ...ownStats(j) }) });
      // The HTML report of the same listing, to compare with the row above (issue 17: at most 15% more).
      await measure(ctx, { group: 'list', tool: 's3blitz', op: 'summarize --format html', settings: 'default (--list-concurrency 100)', data: L.label },
        blitzSpec('summarize', ['summarize', 's3://list', '--format', 'html'], E),
        { expect: L.count, raw: true, parse: (html) => ({ count: Number((/data-figure="objects" data-value="(\d+)"/.exec(html) || [])[1]), htmlBytes: Buffer.byteLength(html) }) });

      console.log('# copy (server-side, into an empty bucket)');
      const C = all(copy);
      await measure(ctx, { group: 'copy', tool: 's3blitz', op: 'cp', settings: 'default (--copy-concurrency 500)', data: C.label },
        blitzSpec('copy', ['cp', 's3://copy', 's3://dst', '--json'], E),
        { expect: C.count, target: 'dst', digest: digestOf(C), parse: (j) => ({ reported: j.copied?.objects, failedObjects: j.failed?.objects, ...ownStats(j) }) });

      console.log('# peers: listing');
      await peerRows(ctx, 'list', 'ls', slice(list, mode.peerList));
      console.log('# peers: copy');
      await peerRows(ctx, 'copy', 'copy', slice(copy, mode.peerCopy), slice(copy, mode.smallCopy));
      await fake.clear('list'); await fake.clear('copy'); await fake.clear('dst');
    }

    if (mode.layoutKeys) await layoutsSection(ctx);
    if (runs('transfers')) await transfersSection(ctx);
    if (runs('rm')) await rmRows(ctx);
    if (mode.versions && runs('versions')) await versionsSection(ctx);
    if (mode.metadata && runs('metadata')) await metadataSection(ctx);
    if (runs('verify')) await verifySection(ctx);
  } finally {
    await fake.close();
  }
  finishReport(ctx, started, modeName, host);
}

// rm: s3blitz, s5cmd, aws-cli and s3rm-rs deleting the same objects (bench/rm-bench.js).
async function rmRows(ctx) {
  if (!ctx.mode.rm) return;
  console.log(`# rm (${fmtInt(ctx.mode.rm)} objects per run)`);
  await rmSection({
    ...ctx, blitzSpec, blitzEnv: fakeEnv, note: (row, status, reason) => note(ctx, row, status, reason),
    log: (out, st, problems, spec) => console.log(`  ${out.status.padEnd(6)} ${out.tool} rm ${out.settings} ${fmtInt(out.count)}/${fmtInt(out.expected)} ` +
      `${out.wallSec.toFixed(2)}s ${out.rate ? fmtInt(out.rate) + '/s' : ''} cpu ${out.cpuSec.toFixed(2)}s rss ${out.rssMb.toFixed(0)}MB inflight ${st.maxInflight} ${reqs(st.requests)}` +
      (problems.length ? `\n         ${problems.join('; ')}\n         ${spec.line}\n         ${(out.stderrTail || '').split('\n').slice(-4).join('\n         ')}` : '')),
  }, ctx.mode.rm);
}

function finishReport(ctx, started, modeName, host) {

  // s3blitz's rate over each peer row's rate, per group (same op, same data).
  for (const r of ctx.rows) {
    if (r.group === 'transfers' || r.group === 'verify') continue; // their tables work out their own ratios
    // Layout rows: the parallel peer (unordered) against s3blitz's unordered listing of the same layout.
    const ref = r.group === 'layouts'
      ? ctx.rows.find((x) => x.group === 'layouts' && x.layout === r.layout && x.tool === 's3blitz' && x.op === 'summarize' && x.condition === 'steady')
      : ctx.rows.find((x) => x.tool === 's3blitz' && x.group === r.group && x.op !== 'summarize' && x.op !== 'summarize --by content-type');
    if (r.tool === 's3blitz') r.ratio = r.rate ? 1 : null;
    else r.ratio = r.rate && ref?.rate ? ref.rate / r.rate : null;
  }
  report(ctx, started, modeName, host);
}

// ---------------------------------------------------------------------------
// Output.

const fmtInt = (n) => (n == null ? '-' : Math.round(n).toLocaleString('en-US'));
const pct = (x) => (x == null || Number.isNaN(x) ? '-' : `${Math.round(x * 100)}%`);
const num = (x, d = 2) => (x == null ? '-' : x.toFixed(d));
const reqs = (o) => Object.entries(o || {}).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${SHORT[k] || k} ${fmtInt(v)}`).join(', ');

function machine() {
  const cpus = os.cpus();
  const git = (...a) => spawnSync('git', a, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || '';
  return {
    cpuModel: cpus[0]?.model?.trim(), cpuCount: cpus.length, totalMemGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version, platform: `${os.type()} ${os.release()} ${os.arch()}`,
    s3blitz: require('../package.json').version, commit: git('rev-parse', '--short', 'HEAD'),
    dirty: git('status', '--porcelain', '--', 'src', 'bin', 'package.json') !== '',
  };
}

// The layouts section as two tables: s3blitz under each latency condition, then the
// concurrency curve, the second run with hints and the parallel peer (steady latency).
// Shard plans per layout: list requests, time, and the largest and smallest shard over the mean.
function planTable(ctx) {
  const rows = ctx.rows.filter((r) => r.group === 'layouts' && r.op === 'plan');
  if (!rows.length) return [];
  const out = ['', `#### Shard plans of every key layout (${fmtInt(ctx.mode.layoutKeys)} keys each, ${ctx.opts.listLatency} ms per LIST)`, '',
    '| layout | shards | list requests | seconds | largest shard / mean | smallest shard / mean | estimated objects |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    if (r.status !== 'ok') { out.push(`| ${r.data} | ${r.settings} | ${r.status} | | | | |`); continue; }
    out.push(`| ${r.data} | ${r.settings.replace('--shards ', '')} | ${fmtInt(r.planRequests)} | ${num(r.wallSec, 1)} | ${num(r.balance, 2)} | ${num(r.smallest, 2)} | ${fmtInt(r.estimated)} |`);
  }
  return out;
}

function layoutTables(ctx) {
  const rows = ctx.rows.filter((r) => r.group === 'layouts' && r.op !== 'plan');
  if (!rows.length) return [];
  const layouts = [...new Set(rows.map((r) => r.layout))];
  const get = (layout, tool, op, settings, condition) => rows.find((r) => r.layout === layout && r.tool === tool && r.op === op && r.settings === settings && r.condition === condition);
  const rate = (r) => (!r ? '-' : r.status === 'ok' ? fmtInt(r.rate) : r.status === 'capped' ? `${fmtInt(r.rate)} (${fmtInt(r.count)} in ${num(r.wallSec, 0)} s)` : r.status);
  const inflight = (r) => (r && r.meanInflight != null ? `${num(r.meanInflight, 0)} / ${r.maxInflightOwn}` : '-');
  const cpu = (r) => (r && r.status === 'ok' ? num(r.cpuSec * 1e6 / r.expected, 1) : '-');
  const out = ['', `#### Listing every key layout (${fmtInt(ctx.mode.layoutKeys)} keys each, ${ctx.opts.listLatency} ms per LIST, default --list-concurrency 100)`, '',
    '| layout | LIST latency | ls keys/s (in order) | summarize keys/s | ls eff. | summarize eff. | ls in flight mean / max | summarize in flight mean / max | hedges ls / summarize | ls CPU ms /1k keys | summarize CPU ms /1k keys | ls peak RSS MB | summarize peak RSS MB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const l of layouts) {
    for (const c of CONDITIONS) {
      const a = get(l, 's3blitz', 'ls', 'default', c.name), b = get(l, 's3blitz', 'summarize', 'default', c.name);
      if (!a && !b) continue;
      out.push(`| ${a?.data || b?.data} | ${c.name} | ${rate(a)} | ${rate(b)} | ${num(a?.efficiency, 2)} | ${num(b?.efficiency, 2)} | ${inflight(a)} | ${inflight(b)} | ` +
        `${a?.hedges ?? '-'} / ${b?.hedges ?? '-'} | ${cpu(a)} | ${cpu(b)} | ${num(a?.rssMb, 0)} | ${num(b?.rssMb, 0)} |`);
    }
  }
  out.push('', `#### Concurrency, split hints and the parallel peer (steady ${ctx.opts.listLatency} ms; keys/s)`, '',
    '| layout | ls at 100 | ls at 300 | ls at 1000 | ls, second run with split hints (in flight mean) | summarize (unordered) | s3ls-rs --no-sort, default | s3ls-rs --no-sort, tuned | s3blitz × s3ls-rs (best) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const l of layouts) {
    const base = get(l, 's3blitz', 'ls', 'default', 'steady');
    const hint = get(l, 's3blitz', 'ls', 'second run (split hints)', 'steady');
    const peers = rows.filter((r) => r.layout === l && r.tool === 's3ls');
    const best = peers.filter((r) => r.rate).sort((x, y) => y.rate - x.rate)[0];
    const sum = get(l, 's3blitz', 'summarize', 'default', 'steady');
    out.push(`| ${base?.data || l} | ${rate(base)} | ${rate(get(l, 's3blitz', 'ls', '--list-concurrency 300', 'steady'))} | ` +
      `${rate(get(l, 's3blitz', 'ls', '--list-concurrency 1000', 'steady'))} | ${rate(hint)} (${hint?.meanInflight != null ? num(hint.meanInflight, 0) : '-'}) | ${rate(sum)} | ` +
      `${peers.length ? rate(peers.find((r) => r.settings === 'default')) : '-'} | ${peers.length ? rate(peers.find((r) => r.settings !== 'default')) : '-'} | ${best && sum?.rate ? num(sum.rate / best.rate) : '-'} |`);
  }
  out.push('', 'eff.: unique keys ÷ (LIST requests × 1000), from the fake\'s count. In flight: s3blitz\'s own time-weighted mean and maximum of LISTs in flight. ' +
    'CPU: user+sys of the client process tree. s3ls-rs runs at most ' + ctx.mode.peerCap + ' s per layout: where it is cut off, its rate is what it listed in that time. ' +
    's3blitz × s3ls-rs: s3blitz summarize (unordered) ÷ the faster s3ls-rs run (unordered).');
  const missing = rows.find((r) => r.tool === 's3ls' && r.status === 'MISSING');
  if (missing) out.push('', `s3ls-rs: MISSING (${missing.reason})`);
  return out;
}

function report(ctx, started, modeName, m) {
  const date = started.toISOString().replace(/\.\d+Z$/, 'Z');
  const { opts, peers } = ctx;
  const machineLine = `${m.cpuCount} × ${m.cpuModel}, ${m.totalMemGiB} GiB RAM, ${m.platform}, Node ${m.node}; ` +
    `s3blitz ${m.s3blitz} (${m.commit}${m.dirty ? ', uncommitted changes' : ''})`;
  const head = ['tool', 'op', 'settings', 'data', 'keys/objects', 'wall s', 'rate/s', 's3blitz ×', 'client CPU s', 'CPU ms', 'peak RSS MB', 'fake CPU share', 'max in flight', 'requests (fake)', 'list eff.'];
  const lines = [
    `### s3blitz benchmark, ${modeName} mode, ${date}`, '',
    `Machine: ${machineLine} (at start).`,
    `Fake S3 (bench/fake-s3.js, own process) with ${opts.listLatency} ms per LIST and ${opts.otherLatency} ms per other request. ` +
    `Peers: ${Object.entries(peers.versions).map(([k, v]) => `${k} ${v.replace(/^(aws-cli\/|rclone |s3ls )/, '').split(' ')[0]}`).join(', ') || 'none'}.`, '',
    `| ${head.join(' | ')} |`, `|${head.map((h, i) => (i >= 4 && i !== 13 ? '---:' : '---')).join('|')}|`,
  ];
  const foot = [];
  for (const r of ctx.rows) {
    if (r.group === 'layouts' || r.group === 'transfers' || r.group === 'versions' || r.group === 'metadata' || r.group === 'verify') continue; // tables of their own below
    const unit = r.group === 'copy' || r.group === 'rm' ? 'obj' : 'key';
    if (r.status === 'MISSING' || r.status === 'SKIPPED') {
      foot.push(`${r.tool} ${r.op} ${r.settings}: ${r.reason}`);
      lines.push(`| ${r.tool} | ${r.op} | ${r.settings} | ${r.data} | ${r.status} [${foot.length}] |${' |'.repeat(head.length - 5)}`);
      continue;
    }
    const cpuPer = r.group === 'copy' || r.group === 'rm' ? `${num(r.cpuSec * 1000 / r.expected)} /obj` : `${num(r.cpuSec * 1e6 / r.expected, 1)} /1k keys`;
    let cnt = fmtInt(r.count);
    if (r.status !== 'ok') { foot.push(`${r.tool} ${r.op} ${r.settings}: ${r.problems.join('; ')} — ${r.line}`); cnt = `FAILED ${cnt}/${fmtInt(r.expected)} [${foot.length}]`; }
    const eff = r.efficiency != null ? `${num(r.efficiency, 3)}${r.ownEfficiency != null ? ` (own ${num(r.ownEfficiency, 3)})` : ''}` : '';
    lines.push(`| ${[r.tool, r.op, r.settings, r.data, cnt, num(r.wallSec), r.rate ? `${fmtInt(r.rate)} ${unit}s` : '-',
      r.ratio ? num(r.ratio) : '-', num(r.cpuSec), cpuPer, num(r.rssMb, 0), pct(r.fakeShare), fmtInt(r.fake.maxInflight),
      reqs(r.fake.requests), eff].join(' | ')} |`);
  }
  lines.push('', 'rate: keys/s (listing) or objects/s (copy), checked against the expected count (copies also by a digest of keys, sizes and ETags). ' +
    's3blitz ×: s3blitz\'s rate on the same operation and data set ÷ this row\'s rate. ' +
    'CPU and peak RSS: the client process tree (user+sys), measured the same way for every tool; CPU ms per 1000 keys or per object. ' +
    'fake CPU share: fake CPU ÷ (fake + client CPU). list eff.: unique keys ÷ (LIST requests × 1000), from the fake\'s count (and s3blitz\'s own stats).');
  const smalls = ctx.mode.small.map((x) => x.replace(':', ' ')).join(' and ');
  lines.push('', `Peers list and copy sequentially, so they run a folder slice of the same bucket and are compared by rate; ${smalls} (≤10 copies at once) copy a smaller folder to keep the run short. ` +
    `Tuned settings: aws ${settingsOf('aws', 'tuned')}; s5cmd ${settingsOf('s5cmd', 'tuned')}; rclone ls ${settingsOf('rclone', 'tuned', 'ls')}, copy ${settingsOf('rclone', 'tuned', 'copy')} (see bench/peers.js TUNING for the sources).`);
  if (foot.length) lines.push('', ...foot.map((f, i) => `[${i + 1}] ${f}`));
  lines.push(...layoutTables(ctx));
  lines.push(...planTable(ctx));
  lines.push(...transferTables(ctx));
  lines.push(...versionMetadataTables(ctx));
  lines.push(...verifyTables(ctx));
  const md = lines.join('\n') + '\n';

  fs.mkdirSync(RESULTS, { recursive: true });
  const json = JSON.stringify({ date, mode: modeName, machine: m, settings: { ...opts, ...ctx.mode, timeoutSec: ctx.timeoutSec },
    peers: { versions: peers.versions, missing: peers.missing, tuning: TUNING }, rows: ctx.rows }, null, 2) + '\n';
  // A run of some sections (--only) writes latest-<sections>.*, never the whole run's latest.*.
  const some = SECTIONS.every((x) => opts.only.includes(x)) ? '' : `-${opts.only.join('+')}`;
  const suffix = (modeName === 'quick' ? '-quick' : '') + some;
  fs.writeFileSync(path.join(RESULTS, `${date.replace(/:/g, '-')}${suffix}.json`), json);
  fs.writeFileSync(path.join(RESULTS, `latest${suffix}.json`), json);
  fs.writeFileSync(path.join(RESULTS, `latest${suffix}.md`), md);
  console.log('\n' + md);
  console.log(`wrote bench/results/${date.replace(/:/g, '-')}${suffix}.json, latest${suffix}.json, latest${suffix}.md`);
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
