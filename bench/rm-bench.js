'use strict';
// The rm section of the benchmark (bench/run.js calls rmSection): deleting the same N
// objects on the fake S3 with s3blitz rm, s5cmd rm, aws s3 rm --recursive and s3rm-rs, each
// from a freshly seeded bucket. A row is ok only when the bucket is empty afterwards and the
// tool exited 0; its rate is objects deleted per second.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { buildCommand, runPeer, TUNING } = require('./peers');

const BUCKET = 'rm';

// s3rm-rs from crates.io, built once into the cache beside s3ls-rs (peers.js ensureS3ls).
function ensureS3rm({ log = () => {} } = {}) {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const root = path.join(cache, 's3blitz', 'cargo', 's3rm-rs');
  const exe = path.join(root, 'bin', 's3rm');
  const tail = (s) => String(s || '').trim().split('\n').slice(-3).join(' | ').slice(-400);
  if (!fs.existsSync(exe)) {
    log(`cargo install s3rm-rs --locked --root ${root} (once; several minutes)`);
    const r = spawnSync('cargo', ['install', 's3rm-rs', '--locked', '--root', root], { encoding: 'utf8', timeout: 3600e3 });
    if (r.error || r.status !== 0 || !fs.existsSync(exe)) return { reason: `cargo install s3rm-rs failed: ${tail(r.stderr || String(r.error))}` };
  }
  const v = spawnSync(exe, ['--version'], { encoding: 'utf8', timeout: 60e3 });
  if (v.status !== 0) return { reason: `'s3rm --version' failed: ${tail(v.stderr || String(v.error))}` };
  return { exe, version: v.stdout.trim() };
}

// What "tuned" means for rm, per tool (their own docs' knobs; s3blitz runs at its defaults).
const RM_TUNING = {
  aws: 'max_concurrent_requests=100, max_queue_size=10000 (the transfer settings, which rm uses too)',
  s5cmd: `--numworkers ${TUNING.s5cmd.tuned.numworkers}`,
  s3rm: '--worker-size 64 --batch-size 1000', // defaults: 16 workers, 200 keys a request
};

// The command line of one tool deleting everything in the bucket.
function rmSpec(ctx, tool, tuned) {
  const E = ctx.fake.endpoint;
  const { peers } = ctx;
  if (tool === 's3blitz') return ctx.blitzSpec('rm', ['rm', `s3://${BUCKET}/`, '--json'], E);
  if (tool === 'aws' || tool === 's5cmd') {
    // The listing command of peers.js brings the tool's isolated environment (and aws's config).
    const base = buildCommand(peers, tool, 'ls', { endpoint: E, bucket: BUCKET, tuned });
    const args = tool === 'aws'
      ? ['s3', 'rm', '--recursive', `s3://${BUCKET}/`, '--endpoint-url', E, '--only-show-errors']
      : ['--endpoint-url', E, ...(tuned ? ['--numworkers', String(TUNING.s5cmd.tuned.numworkers)] : []), '--log', 'error', 'rm', `s3://${BUCKET}/*`];
    return { ...base, op: 'rm', args, line: [base.cmd, ...args].join(' ') };
  }
  // s3rm-rs: path-style against the fake, no confirmation prompt.
  const args = ['--target-endpoint-url', E, '--target-force-path-style', '--force', '--show-no-progress', ...(tuned ? RM_TUNING.s3rm.split(' ') : []), `s3://${BUCKET}/`];
  return { peer: 's3rm', op: 'rm', variant: tuned ? 'tuned' : 'default', cmd: ctx.peers.s3rm, args, env: ctx.blitzEnv(), line: ['s3rm', ...args].join(' ') };
}

/**
 * ctx: run.js's context ({fake, peers, rows, opts, timeoutSec}) plus blitzSpec, blitzEnv and
 * log(row). count: objects to delete per run.
 */
async function rmSection(ctx, count) {
  const { fake } = ctx;
  await fake.addBucket(BUCKET);
  const s3rm = ensureS3rm({ log: (m) => console.log(`  ${m}`) });
  if (s3rm.exe) { ctx.peers.s3rm = s3rm.exe; ctx.peers.versions.s3rm = s3rm.version; console.log(`  s3rm: ${s3rm.version}`); }
  const label = `${BUCKET} (all)`;
  const runs = [['s3blitz', false]];
  for (const peer of ['s5cmd', 'aws']) if (ctx.opts.peers.includes(peer)) runs.push([peer, false], [peer, true]);
  runs.push(['s3rm', false], ['s3rm', true]);
  for (const [tool, tuned] of runs) {
    const row = { group: 'rm', tool, op: 'rm', settings: tool === 's3blitz' ? 'default (--delete-concurrency 32)' : tuned ? RM_TUNING[tool] : 'default', data: label, variant: tuned ? 'tuned' : 'default' };
    const missing = tool === 's3rm' ? (s3rm.exe ? null : s3rm.reason) : tool === 's3blitz' ? null : (ctx.peers.missing.find((m) => m.name === tool) || {}).reason;
    if (missing) { ctx.note(row, 'MISSING', missing); continue; }
    await fake.clear(BUCKET);
    const seeded = await fake.seed(BUCKET, 'hierarchical', count, { hosts: 8, perDir: Math.max(1, Math.ceil(count / 40)), size: 1024 });
    await fake.resetStats();
    const spec = rmSpec(ctx, tool, tuned);
    const r = await runPeer(spec, { timeoutMs: ctx.timeoutSec * 1000, collectLines: tool === 's3blitz', countObjects: () => fake.count(BUCKET) });
    const st = await fake.stats();
    const left = await fake.count(BUCKET);
    const problems = [];
    if (r.timedOut) problems.push(`timed out after ${ctx.timeoutSec}s`);
    else if (r.exitCode !== 0) problems.push(`exit ${r.exitCode ?? 'signal ' + r.signal}`);
    if (left !== 0) problems.push(`${left} of ${seeded.count} objects left`);
    if (tool === 's3blitz' && !problems.length) {
      try {
        const j = JSON.parse(r.output.join('\n'));
        if (j.deleted.objects !== seeded.count || j.failed.objects) problems.push(`s3blitz reported ${j.deleted.objects} deleted, ${j.failed.objects} failed`);
      } catch (e) { problems.push(`unparsable --json output (${e.message})`); }
    }
    const out = { ...row, line: spec.line, expected: seeded.count, count: seeded.count - left, exitCode: r.exitCode, timedOut: r.timedOut,
      wallSec: r.wallSec, userSec: r.userSec, sysSec: r.sysSec, cpuSec: r.cpuSec, rssMb: r.maxRssKb / 1024,
      fake: { cpuSec: st.cpu.total, requests: st.requests, totalRequests: st.totalRequests, errors: st.errors, connections: st.connections, maxInflight: st.maxInflight } };
    out.fakeShare = st.cpu.total / (st.cpu.total + r.cpuSec);
    out.status = problems.length ? 'FAILED' : 'ok';
    if (problems.length) { out.problems = problems; out.stderrTail = r.stderrTail.slice(-1500); }
    out.rate = out.status === 'ok' ? seeded.count / r.wallSec : null;
    ctx.rows.push(out);
    ctx.log(out, st, problems, spec);
  }
  await fake.clear(BUCKET);
}

module.exports = { rmSection, ensureS3rm, RM_TUNING };
