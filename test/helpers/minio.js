'use strict';
// Local MinIO for integration tests: builds the binary once (cached outside
// the repo), starts throw-away servers bound to 127.0.0.1 only, and makes sure
// they die with the test process. Every failure throws: integration tests must
// fail loudly, never skip.

const fs = require('fs');
const fsp = require('fs/promises');
const os = require('os');
const path = require('path');
const net = require('net');
const http = require('http');
const { spawn } = require('child_process');

const MINIO_MODULE = 'github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c';
const ROOT_USER = 's3blitzadmin';
const ROOT_PASSWORD = 's3blitz-test-only-0b7e5c2f9a41d6e3';
const REGION = 'us-east-1';
const BUILD_TIMEOUT_MS = 20 * 60e3;
const START_TIMEOUT_MS = 60e3;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cacheDir() {
  return process.env.S3BLITZ_CACHE_DIR || path.join(os.homedir(), '.cache', 's3blitz', 'minio');
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

// A `go install github.com/minio/minio@...` started outside this helper (e.g.
// a provisioning script warming the cache) does not know our lock file; wait
// for it instead of racing it. Linux-only best effort via /proc.
function foreignGoInstallRunning() {
  let pids;
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv.includes('install') && argv.some((a) => a.startsWith('github.com/minio/minio@'));
    } catch {
      return false;
    }
  });
}

// Lock is stale if its owner pid is gone, or if it stayed empty (owner crashed
// between create and write). Small race when two waiters both break the same
// stale lock; worst case is one redundant build into a private GOBIN.
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

async function buildMinio(dir, bin) {
  // Install into a private GOBIN and rename: the final path then only ever
  // holds a complete binary, so "exists" means "ready" for everyone else.
  const gobin = fs.mkdtempSync(path.join(dir, '.gobin-'));
  const logFile = path.join(dir, 'build.log');
  process.stderr.write('s3blitz: building MinIO (one time, about 2 minutes)...\n');
  const log = fs.openSync(logFile, 'w');
  try {
    const code = await new Promise((resolve, reject) => {
      const child = spawn('go', ['install', MINIO_MODULE], {
        env: { ...process.env, GOBIN: gobin },
        stdio: ['ignore', log, log],
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(new Error(`cannot run the Go toolchain to build MinIO (${e.message}); ` +
          `install Go >= 1.24 or put a minio binary at ${bin}`));
      });
      child.on('exit', (c, sig) => {
        clearTimeout(timer);
        resolve(sig ? `signal ${sig}` : c);
      });
    });
    if (code !== 0 || !isExecutable(path.join(gobin, 'minio'))) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      throw new Error(`building MinIO failed (exit ${code}); full log in ${logFile}:\n${tail}`);
    }
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.renameSync(path.join(gobin, 'minio'), bin);
  } finally {
    fs.closeSync(log);
    fs.rmSync(gobin, { recursive: true, force: true });
  }
}

/** Returns the path of a runnable minio binary, building it once if needed. */
async function ensureMinioBinary() {
  const dir = cacheDir();
  const bin = path.join(dir, 'bin', 'minio');
  if (isExecutable(bin)) return bin;
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'build.lock');
  const deadline = Date.now() + BUILD_TIMEOUT_MS + 60e3;
  let told = false;
  while (Date.now() < deadline) {
    if (isExecutable(bin)) return bin;
    let fd = null;
    if (!foreignGoInstallRunning()) {
      try {
        fd = fs.openSync(lock, 'wx'); // O_EXCL: exactly one builder
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
        if (lockIsStale(lock)) {
          fs.rmSync(lock, { force: true });
          continue;
        }
      }
    }
    if (fd === null) {
      if (!told) process.stderr.write('s3blitz: waiting for a concurrent MinIO build...\n');
      told = true;
      await sleep(1000);
      continue;
    }
    try {
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      if (!isExecutable(bin)) await buildMinio(dir, bin);
      return bin;
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }
  throw new Error(`timed out waiting for the MinIO build (lock ${lock})`);
}

// Ports come from the kernel (listen on :0), held simultaneously so the two
// differ. Another process may grab one before MinIO binds it; startMinio
// retries on "address already in use".
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

function httpStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

// Everything MinIO may use to reach the network is switched off explicitly,
// and the environment is built from scratch so a developer's MINIO_* / proxy
// settings cannot leak in (checked against the MinIO source at MINIO_MODULE):
//  - MINIO_BROWSER=off        embedded web console not started at all (its
//                             port stays unbound; --console-address still
//                             pins it to loopback should it ever start)
//  - MINIO_UPDATE=off         no dl.min.io update check at startup (dev
//                             builds also skip it: release time is zero)
//  - MINIO_CALLHOME_ENABLE=off no SUBNET diagnostics upload (default off too)
//  - MINIO_CI_CD=1            single-drive CI mode: 256MiB buffer pool instead
//                             of half the RAM, no root-disk check
function minioEnv(home) {
  const env = {
    PATH: process.env.PATH || '/usr/bin:/bin',
    HOME: home, // default certs dir is ~/.minio/certs: never pick up real certs
    MINIO_ROOT_USER: ROOT_USER,
    MINIO_ROOT_PASSWORD: ROOT_PASSWORD,
    MINIO_SITE_REGION: REGION,
    MINIO_BROWSER: 'off',
    MINIO_UPDATE: 'off',
    MINIO_CALLHOME_ENABLE: 'off',
    MINIO_CI_CD: '1',
  };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

// Kills minio (and removes its temp dir) if this parent process disappears
// without running exit handlers (SIGKILL, crash, jest killed). Detached so it
// outlives us; while the parent lives it only waits for minio to end, because
// then the parent does the cleanup (and may reuse the dir for a retry).
const WATCHDOG = `
  while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
  kill -0 "$1" 2>/dev/null && exit 0
  if kill -0 "$2" 2>/dev/null; then
    kill -TERM "$2"
    for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$2" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$2" 2>/dev/null
  fi
  rm -rf "$3"
`;
function spawnWatchdog(parentPid, childPid, tmpRoot) {
  const w = spawn('/bin/sh', ['-c', WATCHDOG, 'minio-watchdog', String(parentPid), String(childPid), tmpRoot],
    { detached: true, stdio: 'ignore' });
  w.unref();
}

async function launch(bin, { dataDir, homeDir, port, consolePort }) {
  let output = '';
  const child = spawn(bin, [
    'server',
    '--address', `127.0.0.1:${port}`,
    '--console-address', `127.0.0.1:${consolePort}`,
    '--certs-dir', path.join(homeDir, 'certs'),
    dataDir,
  ], { env: minioEnv(homeDir), stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (d) => { output = (output + d).slice(-16384); }; // tail for error messages
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exitP = new Promise((resolve) => {
    child.on('exit', (code, sig) => { exited = sig || code; resolve(); });
    child.on('error', (e) => { exited = e.message; resolve(); });
  });
  const killOnExit = () => { try { child.kill('SIGKILL'); } catch { /* already gone */ } };
  process.on('exit', killOnExit);
  if (child.pid) spawnWatchdog(process.pid, child.pid, homeDir);

  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (exited === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exitP;
      clearTimeout(timer);
    }
  };

  // /minio/health/live answers 200 as soon as HTTP is up, before the object
  // layer/IAM are initialised (early S3 calls would get 503). /cluster waits
  // for those too, so require both.
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (exited === null) {
    if ((await httpStatus(`${base}/minio/health/live`)) === 200 &&
        (await httpStatus(`${base}/minio/health/cluster`)) === 200) {
      return { child, stop, endpoint: base, output: () => output };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`MinIO did not become ready on ${base} within ${START_TIMEOUT_MS / 1000}s; output:\n${output}`);
    }
    await sleep(100);
  }
  process.removeListener('exit', killOnExit);
  const err = new Error(`MinIO exited during startup (${exited}); output:\n${output}`);
  err.portInUse = /address already in use/i.test(output);
  throw err;
}

/**
 * Starts a private MinIO on 127.0.0.1. Resolves once it serves S3 requests.
 * dataDir: optional existing directory (kept on stop); otherwise a temp dir
 * that stop() removes.
 */
async function startMinio({ dataDir } = {}) {
  const bin = await ensureMinioBinary();
  // homeDir holds HOME/certs (and the data dir unless one was given). Certs
  // must not live in the data dir: every top-level dir there is a bucket.
  const homeDir = await fsp.mkdtemp(path.join(os.tmpdir(), 's3blitz-minio-'));
  const ownData = !dataDir;
  if (ownData) dataDir = path.join(homeDir, 'data');
  await fsp.mkdir(dataDir, { recursive: true });
  const cleanup = () => fsp.rm(homeDir, { recursive: true, force: true });
  for (let attempt = 1; ; attempt++) {
    const [port, consolePort] = await freePorts(2);
    let srv;
    try {
      srv = await launch(bin, { dataDir, homeDir, port, consolePort });
    } catch (e) {
      if (e.portInUse && attempt < 3) continue;
      await cleanup();
      throw e;
    }
    let stopped = null;
    return {
      endpoint: srv.endpoint,
      accessKeyId: ROOT_USER,
      secretAccessKey: ROOT_PASSWORD,
      region: REGION,
      pid: srv.child.pid,
      dataDir,
      tmpDir: homeDir, // private scratch dir; removed by stop() (or the watchdog)
      output: srv.output, // last 16KiB of server stdout+stderr, for debugging
      // Idempotent; data dir removed only if we created it.
      stop: () => (stopped ??= srv.stop().then(cleanup)),
    };
  }
}

module.exports = { ensureMinioBinary, startMinio, cacheDir, MINIO_MODULE };
