#!/usr/bin/env node
'use strict';
// Side-by-side benchmark: s3blitz against aws-cli, s5cmd and rclone, all
// talking to the simulated S3 of bench/fake-s3.js (own process, fixed
// per-request latency), one run after another on the same data.
//
//   npm run bench                   1M-key listing bucket, 100k-object copy (+ 1M unicode keys if --budget allows)
//   npm run bench -- --quick        100k keys, 10k objects, no unicode bucket
//   options: --list-latency MS (100)  --other-latency MS (30)
//            --peers aws,s5cmd,rclone  --timeout SEC (per run)
//            --budget SEC (900: the unicode section runs only if it should end within it)
//            --unicode N (keys in the unicode bucket: 1000000 full, 0 quick = skip)
//
// Every run goes through peers.js's runPeer wrapper (s3blitz too), so wall
// time, user+sys CPU and peak RSS are measured the same way for every tool.
// Every row checks its own count (stdout lines, summarize's object count, or
// the target bucket's count plus a digest of keys/sizes/ETags for copies), so
// a crashed or partial run shows as FAILED rather than fast.
// Writes bench/results/<date>.json, latest.json and latest.md (a quick run
// writes latest-quick.* so it never replaces the README numbers). Exits 0
// whatever the numbers are; non-zero only if the harness itself broke.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { spawnFakeS3, GENERATORS, keyEtag, toExternalKey, toInternalKey } = require('./fake-s3');
const { ensurePeers, buildCommand, runPeer, TUNING } = require('./peers');

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
    list: 1e6, copy: 1e5, unicode: 1e6, peerList: 200e3, peerCopy: 20e3, smallCopy: 2e3, uniList: 50e3, timeoutSec: 900, budgetSec: 900,
    small: ['rclone:default'], // --transfers 4 + a HEAD per object: ~60 objects/s, 20k would take 5+ min
  },
  quick: {
    list: 1e5, copy: 1e4, unicode: 0, peerList: 5e3, peerCopy: 1e3, smallCopy: 200, uniList: 0, timeoutSec: 120, budgetSec: 60,
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

const USAGE = 'usage: node bench/run.js [--quick] [--list-latency MS] [--other-latency MS] [--peers aws,s5cmd,rclone] [--timeout SEC] [--budget SEC] [--unicode N]';

function parseArgs(argv) {
  const o = { quick: false, listLatency: 100, otherLatency: 30, peers: PEERS, timeoutSec: null, budgetSec: null, unicode: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => argv[++i];
    if (a === '--quick') o.quick = true;
    else if (a === '--list-latency') o.listLatency = +v();
    else if (a === '--other-latency') o.otherLatency = +v();
    else if (a === '--peers') o.peers = v().split(',').filter(Boolean);
    else if (a === '--timeout') o.timeoutSec = +v();
    else if (a === '--budget') o.budgetSec = +v();
    else if (a === '--unicode') o.unicode = +v();
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
// s3blitz command lines, isolated from the user's AWS config like the peers.
function blitzEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^AWS_|_proxy$/i.test(k)) delete env[k];
  const none = path.join(__dirname, '.cache', 'none');
  return Object.assign(env, {
    AWS_ACCESS_KEY_ID: 'fakeAccessKey', AWS_SECRET_ACCESS_KEY: 'fakeSecretKey', AWS_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: none, AWS_SHARED_CREDENTIALS_FILE: none, NO_PROXY: '127.0.0.1,localhost',
  });
}
function blitzSpec(op, args, endpoint) {
  const all = [...args, '--endpoint-url', endpoint, '-q'];
  return { peer: 's3blitz', op, variant: 'default', cmd: process.execPath, args: [BIN, ...all], env: blitzEnv(), line: ['s3blitz', ...all].join(' ') };
}

// ---------------------------------------------------------------------------
// Measuring one row.

const LIST_OPS = ['ListObjectsV2', 'ListObjects'];
const SHORT = { ListObjectsV2: 'LIST', ListObjects: 'LISTv1', CopyObject: 'COPY', HeadObject: 'HEAD', GetObject: 'GET', PutObject: 'PUT' };

async function measure(ctx, row, spec, { expect, target, digest, parse }) {
  const { fake } = ctx;
  if (target) await fake.clear(target); // every copy starts from an empty target
  await fake.resetStats(); // after the clear: its garbage is collected here, not billed to the run
  const r = await runPeer(spec, {
    timeoutMs: ctx.timeoutSec * 1000, collectLines: !!parse, countObjects: () => fake.count(target),
  });
  const st = await fake.stats();
  const out = { ...row, line: spec.line, expected: expect, count: r.count, exitCode: r.exitCode, timedOut: r.timedOut,
    wallSec: r.wallSec, userSec: r.userSec, sysSec: r.sysSec, cpuSec: r.cpuSec, rssMb: r.maxRssKb / 1024,
    fake: { cpuSec: st.cpu.total, requests: st.requests, totalRequests: st.totalRequests, errors: st.errors,
      connections: st.connections, maxInflight: st.maxInflight } };
  out.fakeShare = st.cpu.total / (st.cpu.total + r.cpuSec);
  const problems = [];
  if (parse) {
    try { Object.assign(out, parse(JSON.parse(r.output.join('\n')))); } catch (e) { problems.push(`unparsable --json output (${e.message})`); }
  }
  if (row.tool === 's3blitz' && !parse) { // ls -v: the request statistics line on stderr
    const m = /efficiency ([\d.]+)/.exec(r.stderrTail);
    if (m) out.ownEfficiency = +m[1];
  }
  if (r.timedOut) problems.push(`timed out after ${ctx.timeoutSec}s`);
  else if (r.exitCode !== 0) problems.push(`exit ${r.exitCode ?? 'signal ' + r.signal}`);
  if (out.count !== expect) problems.push(`count ${out.count} != ${expect}`);
  if (out.reported != null && (out.reported !== expect || out.failedObjects)) problems.push(`s3blitz reported ${out.reported} copied, ${out.failedObjects} failed`);
  if (digest && problems.length === 0) {
    const d = await fake.digest(target);
    if (d.md5 !== digest) problems.push('target keys/sizes/ETags differ from the source');
  }
  out.listRequests = LIST_OPS.reduce((n, k) => n + (st.requests[k] || 0), 0);
  out.status = problems.length ? 'FAILED' : 'ok';
  // Only a complete run knows how many unique keys it listed.
  if (row.tool === 's3blitz' && out.listRequests && out.status === 'ok') out.efficiency = expect / (out.listRequests * 1000);
  if (problems.length) { out.problems = problems; out.stderrTail = r.stderrTail.slice(-1500); }
  out.rate = out.status === 'ok' ? expect / r.wallSec : null;
  ctx.rows.push(out);
  console.log(`  ${out.status === 'ok' ? 'ok    ' : 'FAILED'} ${row.tool} ${row.op} ${row.settings} [${row.data}] ${fmtInt(out.count)}/${fmtInt(expect)} ` +
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

// A second 1M-key bucket with unicode keys (another key shape for the lister,
// and UTF-8 ordering for everyone), if the time budget allows: projected from
// the rates just measured on the hierarchical bucket, so a slow build skips it
// (reported) rather than pushing the run past ~15 minutes.
async function unicodeSection(ctx, started, seed) {
  const { mode, opts, fake } = ctx;
  console.log('# unicode keys');
  const budget = opts.budgetSec ?? mode.budgetSec;
  const rateOf = (tool) => ctx.rows.find((r) => r.group === 'list' && r.tool === tool && r.op === 'ls' && r.rate)?.rate;
  const sliceGuess = Math.min(mode.unicode, 2 * mode.uniList); // top folders hold ~1/12 of the keys
  const projected = 10 + mode.unicode / (rateOf('s3blitz') || 1) + opts.peers.reduce((t, p) => t + sliceGuess / (rateOf(p) || Infinity), 0);
  const elapsed = (Date.now() - started) / 1000;
  const rows = [['s3blitz', 'default (--list-concurrency 100)'], ...opts.peers.map((p) => [p, 'default'])];
  if (elapsed + projected > budget) {
    const why = `not run: time budget (${elapsed.toFixed(0)} s elapsed + ~${projected.toFixed(0)} s projected > ${budget} s; --budget SEC to allow)`;
    for (const [tool, settings] of rows) note(ctx, { group: 'uni', tool, op: 'ls', settings, data: `uni (${fmtInt(mode.unicode)} unicode keys)` }, 'SKIPPED', why);
    return;
  }
  const uni = dataset('uni', 'unicode', mode.unicode, {});
  await seed(uni);
  const U = slice(uni, Infinity), S = slice(uni, mode.uniList);
  await measure(ctx, { group: 'uni', tool: 's3blitz', op: 'ls', settings: rows[0][1], data: U.label },
    blitzSpec('ls', ['ls', 's3://uni', '-v'], fake.endpoint), { expect: U.count });
  for (const peer of opts.peers) { // default settings only: the tuned listings above show the knobs
    const row = { group: 'uni', tool: peer, op: 'ls', settings: 'default', data: S.label, variant: 'default' };
    const miss = ctx.peers.missing.find((m) => m.name === peer);
    if (miss) { note(ctx, row, 'MISSING', miss.reason); continue; }
    await measure(ctx, row, buildCommand(ctx.peers, peer, 'ls', { endpoint: fake.endpoint, bucket: where('uni', S.prefix, peer) }), { expect: S.count });
  }
}

const ownStats = (j) => ({ ownEfficiency: j.stats?.efficiency, ownStats: j.stats });

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const modeName = opts.quick ? 'quick' : 'full';
  const mode = { ...MODES[modeName] };
  if (opts.unicode != null) Object.assign(mode, { unicode: opts.unicode, uniList: Math.min(50e3, Math.ceil(opts.unicode / 20)) });
  const started = new Date();
  const host = machine(); // now: others may commit or edit src/ while the benchmark runs
  const ctx = { opts, mode, rows: [], timeoutSec: opts.timeoutSec || mode.timeoutSec };

  console.log(`# s3blitz benchmark (${modeName}), fake S3 latency LIST ${opts.listLatency} ms, other ${opts.otherLatency} ms`);
  ctx.peers = await ensurePeers({ peers: opts.peers, log: (m) => console.log(`  ${m}`) });
  for (const p of opts.peers) if (ctx.peers[p]) console.log(`  ${p}: ${ctx.peers.versions[p]}`);
  for (const m of ctx.peers.missing) console.log(`  MISSING ${m.name}: ${m.reason}`);
  spawnSync(process.execPath, [BIN, '--version']); // warm the file cache so the first timed run is not a cold start

  const list = dataset('list', 'hierarchical', mode.list, listLayout());
  const copy = dataset('copy', 'hierarchical', mode.copy, copyLayout(mode.copy));

  ctx.fake = await spawnFakeS3({ listLatencyMs: opts.listLatency, otherLatencyMs: opts.otherLatency });
  const { fake } = ctx;
  try {
    const seed = async (ds) => {
      const r = await fake.seed(ds.bucket, ds.generator, ds.count, ds.opts);
      if (r.count !== ds.keys.length) throw new Error(`seeded ${ds.bucket} with ${r.count} keys, expected ${ds.keys.length}`);
      console.log(`  seeded ${ds.bucket}: ${fmtInt(r.count)} ${ds.generator} keys in ${r.ms} ms`);
    };
    await seed(list);
    await seed(copy);
    await fake.addBucket('dst');
    const E = fake.endpoint;
    const all = (ds) => slice(ds, Infinity);

    console.log('# listing');
    const L = all(list);
    await measure(ctx, { group: 'list', tool: 's3blitz', op: 'ls', settings: 'default (--list-concurrency 100)', data: L.label },
      blitzSpec('ls', ['ls', 's3://list', '-v'], E), { expect: L.count });
    await measure(ctx, { group: 'list', tool: 's3blitz', op: 'summarize', settings: 'default (--list-concurrency 100)', data: L.label },
      blitzSpec('summarize', ['summarize', 's3://list', '--json'], E), { expect: L.count, parse: (j) => ({ count: j.objects, ...ownStats(j) }) });

    console.log('# copy (server-side, into an empty bucket)');
    const C = all(copy);
    await measure(ctx, { group: 'copy', tool: 's3blitz', op: 'cp', settings: 'default (--copy-concurrency 500)', data: C.label },
      blitzSpec('copy', ['cp', 's3://copy', 's3://dst', '--json'], E),
      { expect: C.count, target: 'dst', digest: digestOf(C), parse: (j) => ({ reported: j.copied?.objects, failedObjects: j.failed?.objects, ...ownStats(j) }) });

    console.log('# peers: listing');
    await peerRows(ctx, 'list', 'ls', slice(list, mode.peerList));
    console.log('# peers: copy');
    await peerRows(ctx, 'copy', 'copy', slice(copy, mode.peerCopy), slice(copy, mode.smallCopy));

    if (mode.unicode) await unicodeSection(ctx, started, seed);
  } finally {
    await fake.close();
  }

  // s3blitz's rate over each peer row's rate, per group (same op, same data).
  for (const r of ctx.rows) {
    const ref = ctx.rows.find((x) => x.tool === 's3blitz' && x.group === r.group && x.op !== 'summarize');
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
    `Peers: ${Object.entries(peers.versions).map(([k, v]) => `${k} ${v.replace(/^(aws-cli\/|rclone )/, '').split(' ')[0]}`).join(', ') || 'none'}.`, '',
    `| ${head.join(' | ')} |`, `|${head.map((h, i) => (i >= 4 && i !== 13 ? '---:' : '---')).join('|')}|`,
  ];
  const foot = [];
  for (const r of ctx.rows) {
    const unit = r.group === 'copy' ? 'obj' : 'key';
    if (r.status === 'MISSING' || r.status === 'SKIPPED') {
      foot.push(`${r.tool} ${r.op} ${r.settings}: ${r.reason}`);
      lines.push(`| ${r.tool} | ${r.op} | ${r.settings} | ${r.data} | ${r.status} [${foot.length}] |${' |'.repeat(head.length - 5)}`);
      continue;
    }
    const cpuPer = r.group === 'copy' ? `${num(r.cpuSec * 1000 / r.expected)} /obj` : `${num(r.cpuSec * 1e6 / r.expected, 1)} /1k keys`;
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
  const md = lines.join('\n') + '\n';

  fs.mkdirSync(RESULTS, { recursive: true });
  const json = JSON.stringify({ date, mode: modeName, machine: m, settings: { ...opts, ...ctx.mode, timeoutSec: ctx.timeoutSec },
    peers: { versions: peers.versions, missing: peers.missing, tuning: TUNING }, rows: ctx.rows }, null, 2) + '\n';
  const suffix = modeName === 'quick' ? '-quick' : '';
  fs.writeFileSync(path.join(RESULTS, `${date.replace(/:/g, '-')}${suffix}.json`), json);
  fs.writeFileSync(path.join(RESULTS, `latest${suffix}.json`), json);
  fs.writeFileSync(path.join(RESULTS, `latest${suffix}.md`), md);
  console.log('\n' + md);
  console.log(`wrote bench/results/${date.replace(/:/g, '-')}${suffix}.json, latest${suffix}.json, latest${suffix}.md`);
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
