'use strict';
// What every S3 server the tests start shares: a cache outside the repo where each is
// installed once (under an O_EXCL lock, so parallel jest workers never race), free
// loopback ports, a throwaway directory, an environment built from scratch, a watchdog
// that kills the server if the test process dies, and readiness polling. Every failure
// throws with the tail of the server's output: a suite whose server cannot be installed
// or started fails, it never skips.
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const https = require('https');
const crypto = require('crypto');
const { spawn } = require('child_process');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cacheRoot() {
  return process.env.S3BLITZ_CACHE_ROOT || path.join(os.homedir(), '.cache', 's3blitz');
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function pidAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM'; // exists, owned by someone else
  }
}

// A lock is stale when its owner is gone, or it stayed empty (owner died between create and write).
function lockIsStale(lock) {
  try {
    const st = fs.statSync(lock);
    const pid = parseInt(fs.readFileSync(lock, 'utf8'), 10);
    if (Number.isNaN(pid)) return Date.now() - st.mtimeMs > 30e3;
    return !pidAlive(pid);
  } catch {
    return true; // vanished meanwhile
  }
}

/**
 * Runs install() once across processes: ready() says whether it is done; concurrent callers
 * wait for the one holding dir/install.lock. busyElsewhere(): an install this lock does
 * not know of is running (wait for it too).
 */
async function installOnce({ dir, name, ready, install, timeoutMs, busyElsewhere = () => false }) {
  if (ready()) return;
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'install.lock');
  const deadline = Date.now() + timeoutMs + 60e3;
  let told = false;
  while (Date.now() < deadline) {
    if (ready()) return;
    let fd = null;
    if (!busyElsewhere()) {
      try {
        fd = fs.openSync(lock, 'wx');
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
        if (lockIsStale(lock)) { fs.rmSync(lock, { force: true }); continue; }
      }
    }
    if (fd === null) {
      if (!told) process.stderr.write(`s3blitz tests: waiting for a concurrent ${name} install...\n`);
      told = true;
      await sleep(1000);
      continue;
    }
    try {
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      if (!ready()) await install();
      if (!ready()) throw new Error(`installing ${name} finished but left nothing usable in ${dir}`);
      return;
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }
  throw new Error(`timed out waiting for the ${name} install (lock ${lock})`);
}

/** Runs a command to completion with its output in logFile; throws with the log's tail. */
async function runLogged(cmd, args, { env, cwd, logFile, timeoutMs, what }) {
  const log = fs.openSync(logFile, 'w');
  try {
    const code = await new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', log, log] });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', (e) => { clearTimeout(timer); reject(new Error(`cannot run ${cmd} to ${what} (${e.message})`)); });
      child.on('exit', (c, sig) => { clearTimeout(timer); resolve(sig ? `signal ${sig}` : c); });
    });
    if (code !== 0) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      throw new Error(`${what} failed (exit ${code}); full log in ${logFile}:\n${tail}`);
    }
  } finally {
    fs.closeSync(log);
  }
}

/** `go install module` into a private GOBIN, then renamed: the final path only ever holds a whole binary. */
async function goInstall({ module, bin, dest, logFile, timeoutMs }) {
  const gobin = fs.mkdtempSync(path.join(path.dirname(path.dirname(dest)), '.gobin-'));
  try {
    await runLogged('go', ['install', module], { env: { ...process.env, GOBIN: gobin }, cwd: os.tmpdir(), logFile, timeoutMs, what: `go install ${module}` });
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.renameSync(path.join(gobin, bin), dest);
  } finally {
    fs.rmSync(gobin, { recursive: true, force: true });
  }
}

/** A Python venv with pinned packages, marked complete only once pip has finished. */
async function pipInstall({ venv, packages, logFile, timeoutMs }) {
  fs.rmSync(venv, { recursive: true, force: true }); // a half-made venv from a crash
  await runLogged('python3', ['-m', 'venv', venv], { env: process.env, logFile, timeoutMs, what: 'python3 -m venv' });
  await runLogged(path.join(venv, 'bin', 'pip'), ['install', '--disable-pip-version-check', '--no-input', ...packages],
    { env: process.env, logFile, timeoutMs, what: `pip install ${packages.join(' ')}` });
  fs.writeFileSync(path.join(venv, '.complete'), packages.join('\n'));
}

function fetchBuffer(url, redirects = 5) {
  return new Promise((resolve, reject) => {
    https.get(url, { timeout: 60e3 }, (res) => {
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location && redirects > 0) {
        res.resume();
        resolve(fetchBuffer(new URL(res.headers.location, url).toString(), redirects - 1));
        return;
      }
      if (res.statusCode !== 200) { res.resume(); reject(new Error(`GET ${url}: HTTP ${res.statusCode}`)); return; }
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve(Buffer.concat(parts)));
      res.on('error', reject);
    }).on('error', reject).on('timeout', function onTimeout() { this.destroy(new Error(`GET ${url}: timed out`)); });
  });
}

/** A file from Maven Central, checked against its published SHA-1, then renamed into place. */
async function mavenDownload({ url, dest }) {
  const [body, sha1] = await Promise.all([fetchBuffer(url), fetchBuffer(`${url}.sha1`)]);
  const want = sha1.toString('utf8').trim().split(/\s+/)[0];
  const got = crypto.createHash('sha1').update(body).digest('hex');
  if (got !== want) throw new Error(`${url}: SHA-1 ${got}, Maven Central says ${want}`);
  const tmp = `${dest}.part-${process.pid}`;
  fs.writeFileSync(tmp, body);
  fs.renameSync(tmp, dest);
}

// Ports from the kernel (listen on :0), held together so they differ. Another process may
// take one before the server binds it; callers retry on "address already in use".
async function freePorts(n) {
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      servers.push(s);
      await new Promise((res, rej) => s.once('error', rej).listen(0, '127.0.0.1', res));
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r()))));
  }
}

// Kills the server (its whole process group) and removes its directory if the test process
// disappears without running exit handlers (SIGKILL, crash). Detached, so it outlives us.
const WATCHDOG = `
  while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
  kill -0 "$1" 2>/dev/null && exit 0
  if kill -0 "$2" 2>/dev/null; then
    kill -TERM -"$2" 2>/dev/null || kill -TERM "$2"
    for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$2" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -"$2" 2>/dev/null || kill -KILL "$2" 2>/dev/null
  fi
  rm -rf "$3"
`;
function spawnWatchdog(parentPid, childPid, dir) {
  const w = spawn('/bin/sh', ['-c', WATCHDOG, 's3blitz-watchdog', String(parentPid), String(childPid), dir], { detached: true, stdio: 'ignore' });
  w.unref();
}

/** The environment a server gets: PATH, a private HOME, no AWS settings of the developer's. */
function serverEnv(home, extra = {}) {
  const env = { PATH: process.env.PATH || '/usr/bin:/bin', HOME: home, AWS_EC2_METADATA_DISABLED: 'true', ...extra };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

// Signed ListBuckets with the given keys: the server answers S3 requests.
async function answersS3(conn) {
  const { S3Client, ListBucketsCommand } = require('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: conn.endpoint, region: conn.region || 'us-east-1', forcePathStyle: true, maxAttempts: 1,
    credentials: { accessKeyId: conn.accessKeyId, secretAccessKey: conn.secretAccessKey },
    requestHandler: { requestTimeout: 3000, connectionTimeout: 2000 },
  });
  try {
    await client.send(new ListBucketsCommand({}));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/**
 * Starts a server process in its own process group and waits until ready() says yes.
 * Resolves to {child, stop, output}; stop() is idempotent and removes tmpDir.
 */
async function launch({ name, cmd, args, env, cwd, tmpDir, ready, timeoutMs = 90e3 }) {
  let output = '';
  const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const keep = (d) => { output = (output + d).slice(-16384); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exitP = new Promise((resolve) => {
    child.on('exit', (code, sig) => { exited = sig || code; resolve(); });
    child.on('error', (e) => { exited = e.message; resolve(); });
  });
  const kill = (sig) => { try { process.kill(-child.pid, sig); } catch { try { child.kill(sig); } catch { /* gone */ } } };
  const killOnExit = () => kill('SIGKILL');
  process.on('exit', killOnExit);
  if (child.pid) spawnWatchdog(process.pid, child.pid, tmpDir);
  let stopped = null;
  const stop = () => (stopped ??= (async () => {
    process.removeListener('exit', killOnExit);
    if (exited === null) {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 5000);
      await exitP;
      clearTimeout(timer);
    }
    fs.rmSync(tmpDir, { recursive: true, force: true });
  })());
  const deadline = Date.now() + timeoutMs;
  while (exited === null) {
    if (await ready()) return { child, stop, output: () => output };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not become ready within ${timeoutMs / 1000}s; output:\n${output}`);
    }
    await sleep(250);
  }
  await stop();
  const err = new Error(`${name} exited during startup (${exited}); output:\n${output}`);
  err.portInUse = /address already in use|BindException|bind: /i.test(output);
  throw err;
}

/** Tries start() up to three times while the failure is a port someone else took first. */
async function withPortRetry(start) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (!e.portInUse || attempt >= 3) throw e;
    }
  }
}

module.exports = {
  cacheRoot, isExecutable, installOnce, runLogged, goInstall, pipInstall, mavenDownload,
  freePorts, spawnWatchdog, serverEnv, answersS3, launch, withPortRetry, sleep,
};
