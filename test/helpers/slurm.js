'use strict';
// A real Slurm for tests: Debian's slurm-wlm (with munge), installed with apt-get when it
// is missing, run as a throwaway one-node cluster on loopback. Everything the cluster uses
// lives in one temp dir: a fresh munge key and the munged socket, slurm.conf with free
// ports, state, spool and logs. The settings need no cgroups, systemd or accounting, so it
// runs in a container. stop() cancels the cluster's jobs, stops the daemons (each in its
// own process group), ends any job step left holding files in the dir, and removes it.
// Every failure throws with the daemons' logs: a test that needs Slurm fails, never skips.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawn } = require('child_process');
const { cacheRoot, installOnce, runLogged, freePorts, launch, serverEnv, sleep } = require('./servers/common');

const DAEMONS = ['slurmctld', 'slurmd', 'munged'];
const CLIENTS = ['sbatch', 'squeue', 'sinfo', 'scancel', 'scontrol'];
const PACKAGES = ['slurm-wlm', 'munge'];
const INSTALL_TIMEOUT_MS = 15 * 60e3;
const START_TIMEOUT_MS = 120e3;
const SBIN = ['/usr/sbin', '/sbin', '/usr/local/sbin'];

// A program on PATH (or in an sbin folder, which a non-login PATH may leave out).
function which(name) {
  const dirs = [...(process.env.PATH || '').split(path.delimiter), ...SBIN].filter(Boolean);
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch { /* not here */ }
  }
  return null;
}

const missing = () => [...DAEMONS, ...CLIENTS].filter((n) => !which(n));

// apt-get must not start the packages' own services (munge, slurmctld, slurmd) on the
// machine: a policy-rc.d that says no, put in place only for the install when there is none.
async function aptInstall(logDir) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(`Slurm is not installed (missing ${missing().join(', ')}) and the tests are not root: run apt-get install -y ${PACKAGES.join(' ')} as root`);
  }
  if (!which('apt-get')) throw new Error(`Slurm is not installed (missing ${missing().join(', ')}) and there is no apt-get to install ${PACKAGES.join(' ')} with`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', NEEDRESTART_MODE: 'l' };
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !fs.existsSync(policy);
  if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\n# s3blitz tests: no services started while slurm-wlm installs\nexit 101\n', { mode: 0o755 });
  const install = (what) => runLogged('apt-get', ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=600', ...PACKAGES], {
    env, cwd: os.tmpdir(), logFile: path.join(logDir, `apt-install${what}.log`), timeoutMs: INSTALL_TIMEOUT_MS, what: `apt-get install ${PACKAGES.join(' ')}`,
  });
  try {
    process.stderr.write(`s3blitz tests: installing ${PACKAGES.join(' ')} with apt-get (one time)...\n`);
    try {
      await install('');
    } catch {
      // Package lists may be missing or stale (a fresh container): update them once, try again.
      await runLogged('apt-get', ['update', '-o', 'DPkg::Lock::Timeout=600'], { env, cwd: os.tmpdir(), logFile: path.join(logDir, 'apt-update.log'), timeoutMs: INSTALL_TIMEOUT_MS, what: 'apt-get update' });
      await install('-after-update');
    }
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true });
  }
}

/** Installs slurm-wlm and munge when any of their programs is missing; throws when it cannot. */
async function ensureSlurm() {
  if (!missing().length) return;
  const dir = path.join(cacheRoot(), 'slurm');
  await installOnce({ dir, name: 'Slurm', ready: () => !missing().length, timeoutMs: INSTALL_TIMEOUT_MS, install: () => aptInstall(dir) });
}

/** Runs a Slurm client with the cluster's configuration: {code, stdout, stderr}. */
function runTool(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(which(cmd) || cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [], err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: signal ? `signal ${signal}` : code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

function slurmConf({ dir, ctldPort, dPort, cpus, host }) {
  return [
    '# A throwaway one-node cluster on loopback (s3blitz tests).',
    'ClusterName=s3blitztest',
    // slurmctld runs only where its host name matches; it is reached on 127.0.0.1.
    `SlurmctldHost=${host}(127.0.0.1)`,
    `SlurmctldPort=${ctldPort}`,
    `SlurmdPort=${dPort}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${path.join(dir, 'munge', 'munge.socket')}`,
    `StateSaveLocation=${path.join(dir, 'state')}`,
    `SlurmdSpoolDir=${path.join(dir, 'spool')}`,
    `SlurmctldPidFile=${path.join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${path.join(dir, 'slurmd.pid')}`,
    `SlurmctldLogFile=${path.join(dir, 'log', 'slurmctld.log')}`,
    `SlurmdLogFile=${path.join(dir, 'log', 'slurmd.log')}`,
    // No cgroups, no systemd, no accounting daemon: what works in a container.
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/none',
    'SwitchType=switch/none',
    'MpiDefault=none',
    'SchedulerType=sched/builtin',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'ReturnToService=2',
    // The node is what this file says, whatever hwloc finds (a VM's sockets and cores).
    'SlurmdParameters=config_overrides',
    'MailProg=/bin/true',
    `NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=${cpus} State=UNKNOWN`,
    'PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP',
    '',
  ].join('\n');
}

// Processes holding a file in dir open (job steps slurmd left behind): Linux's /proc.
function holdersOf(dir, except = []) {
  const pids = [];
  let entries = [];
  try { entries = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return pids; }
  for (const pid of entries) {
    if (Number(pid) === process.pid || except.includes(Number(pid))) continue;
    let fds = [];
    try { fds = fs.readdirSync(`/proc/${pid}/fd`); } catch { continue; }
    for (const fd of fds) {
      let target = '';
      try { target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { continue; }
      if (target.startsWith(dir + path.sep)) { pids.push(Number(pid)); break; }
    }
  }
  return pids;
}

function tail(file, lines = 40) {
  try { return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return '(no log)'; }
}

/**
 * Starts a one-node Slurm cluster on 127.0.0.1. Resolves to {dir, env, conf, cpus, run,
 * logs, stop}: env holds SLURM_CONF for sbatch, squeue and the rest; run(cmd, args, env?)
 * runs one of them; stop() is idempotent and leaves nothing running.
 */
async function startSlurm() {
  await ensureSlurm();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-slurm-'));
  fs.chmodSync(dir, 0o755);
  for (const d of ['munge', 'state', 'spool', 'log', 'jobs', 'run-ctld', 'run-d']) fs.mkdirSync(path.join(dir, d), { mode: 0o755 });
  const conf = path.join(dir, 'slurm.conf');
  const env = serverEnv(path.join(dir, 'jobs'), { SLURM_CONF: conf });
  const daemons = {}; // name: its launch (stop, child)
  let stopping = null;
  const stop = () => (stopping ??= (async () => {
    // The cluster's jobs first, then slurmd and the controller, then any job step still
    // holding a file in dir, and munge (whose stop removes dir) last: they all talk to it.
    if (daemons.slurmctld) await runTool('scancel', ['--full', '--user', os.userInfo().username], env).catch(() => {});
    for (const name of ['slurmd', 'slurmctld']) if (daemons[name]) await daemons[name].stop().catch(() => {});
    for (const pid of holdersOf(dir, daemons.munged ? [daemons.munged.child.pid] : [])) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    if (daemons.munged) await daemons.munged.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  })());
  const logs = () => ['slurmctld.log', 'slurmd.log'].map((f) => `--- ${f}:\n${tail(path.join(dir, 'log', f))}`).join('\n');
  try {
    // munge: a fresh key (munged wants at least 32 bytes, owner-only), its socket in dir.
    const key = path.join(dir, 'munge', 'munge.key');
    fs.writeFileSync(key, crypto.randomBytes(1024), { mode: 0o400 });
    const socket = path.join(dir, 'munge', 'munge.socket');
    // The munged launch owns the whole dir: if the test process dies, its watchdog removes it.
    daemons.munged = await launch({
      name: 'munged', cmd: which('munged'), cwd: dir, env, tmpDir: dir, timeoutMs: START_TIMEOUT_MS,
      args: ['--foreground', '--force', `--socket=${socket}`, `--key-file=${key}`, `--pid-file=${path.join(dir, 'munge', 'munged.pid')}`,
        `--log-file=${path.join(dir, 'log', 'munged.log')}`, `--seed-file=${path.join(dir, 'munge', 'munged.seed')}`],
      ready: async () => fs.existsSync(socket),
    });
    const [ctldPort, dPort] = await freePorts(2);
    const cpus = Math.max(1, os.cpus().length);
    fs.writeFileSync(conf, slurmConf({ dir, ctldPort, dPort, cpus, host: os.hostname().split('.')[0] }));
    daemons.slurmctld = await launch({
      name: 'slurmctld', cmd: which('slurmctld'), cwd: dir, env, tmpDir: path.join(dir, 'run-ctld'), timeoutMs: START_TIMEOUT_MS,
      args: ['-D', '-i', '-f', conf],
      ready: async () => (await runTool('scontrol', ['ping'], env)).stdout.includes('is UP'),
    });
    daemons.slurmd = await launch({
      name: 'slurmd', cmd: which('slurmd'), cwd: dir, env, tmpDir: path.join(dir, 'run-d'), timeoutMs: START_TIMEOUT_MS,
      args: ['-D', '-N', 'localhost', '-f', conf],
      ready: async () => (await runTool('sinfo', ['-h', '-N', '-o', '%T'], env)).stdout.trim() === 'idle',
    });
    return {
      dir, env, conf, cpus, logs, stop,
      run: (cmd, args, extraEnv = {}) => runTool(cmd, args, { ...env, ...extraEnv }),
    };
  } catch (err) {
    err.message = `starting Slurm failed: ${err.message}\n${logs()}`;
    await stop();
    throw err;
  }
}

/**
 * sbatch a script and wait for it (sbatch --wait): {code, jobId, stdout, stderr}. code is
 * the highest exit code of the job's tasks, as sbatch reports it.
 */
async function sbatchWait(slurm, script, { args = [], env = {} } = {}) {
  const r = await slurm.run('sbatch', ['--wait', '--parsable', ...args, script], env);
  const jobId = (/^(\d+)/.exec(r.stdout.trim()) || [])[1];
  return { ...r, jobId };
}

module.exports = { startSlurm, ensureSlurm, sbatchWait, which, sleep };
