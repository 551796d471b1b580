'use strict';
// Local MinIO for integration tests: builds the binary once (cached outside
// the repo), starts throw-away servers bound to 127.0.0.1 only, and makes sure
// they die with the test process (the mechanics are servers/common.js's).
// Every failure throws: integration tests must fail loudly, never skip.

const fs = require('fs');
const fsp = require('fs/promises');
const os = require('os');
const path = require('path');
const http = require('http');
const { isExecutable, installOnce, goInstall, freePorts, launch, withPortRetry } = require('./servers/common');

const MINIO_MODULE = 'github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c';
const ROOT_USER = 's3blitzadmin';
const ROOT_PASSWORD = 's3blitz-test-only-0b7e5c2f9a41d6e3';
const REGION = 'us-east-1';
const BUILD_TIMEOUT_MS = 20 * 60e3;
const START_TIMEOUT_MS = 60e3;

function cacheDir() {
  return process.env.S3BLITZ_CACHE_DIR || path.join(os.homedir(), '.cache', 's3blitz', 'minio');
}

// A `go install github.com/minio/minio@...` started outside this helper (e.g. a
// provisioning script warming the cache) does not know our lock file; wait for it
// instead of racing it. Linux-only best effort via /proc.
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

/** Returns the path of a runnable minio binary, building it once if needed. */
async function ensureMinioBinary() {
  const dir = cacheDir();
  const bin = path.join(dir, 'bin', 'minio');
  await installOnce({
    dir, name: 'MinIO', ready: () => isExecutable(bin), timeoutMs: BUILD_TIMEOUT_MS, busyElsewhere: foreignGoInstallRunning,
    install: async () => {
      process.stderr.write('s3blitz: building MinIO (one time, about 2 minutes)...\n');
      try {
        await goInstall({ module: MINIO_MODULE, bin: 'minio', dest: bin, logFile: path.join(dir, 'build.log'), timeoutMs: BUILD_TIMEOUT_MS });
      } catch (err) {
        err.message = `${err.message}\n(install Go >= 1.24, or put a minio binary at ${bin})`;
        throw err;
      }
    },
  });
  return bin;
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

// /minio/health/live answers 200 as soon as HTTP is up, before the object layer/IAM are
// initialised (early S3 calls would get 503). /cluster waits for those too, so require both.
async function healthy(base) {
  return (await httpStatus(`${base}/minio/health/live`)) === 200 && (await httpStatus(`${base}/minio/health/cluster`)) === 200;
}

/**
 * Starts a private MinIO on 127.0.0.1. Resolves once it serves S3 requests.
 * dataDir: optional existing directory (kept on stop); otherwise a temp dir
 * that stop() removes.
 */
async function startMinio({ dataDir } = {}) {
  const bin = await ensureMinioBinary();
  return withPortRetry(async () => {
    // homeDir holds HOME/certs (and the data dir unless one was given). Certs
    // must not live in the data dir: every top-level dir there is a bucket.
    const homeDir = await fsp.mkdtemp(path.join(os.tmpdir(), 's3blitz-minio-'));
    const data = dataDir || path.join(homeDir, 'data');
    await fsp.mkdir(data, { recursive: true });
    const [port, consolePort] = await freePorts(2);
    const endpoint = `http://127.0.0.1:${port}`;
    const srv = await launch({
      name: 'MinIO', cmd: bin, tmpDir: homeDir, cwd: homeDir, env: minioEnv(homeDir), timeoutMs: START_TIMEOUT_MS,
      args: ['server', '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--certs-dir', path.join(homeDir, 'certs'), data],
      ready: () => healthy(endpoint),
    });
    return {
      endpoint,
      accessKeyId: ROOT_USER,
      secretAccessKey: ROOT_PASSWORD,
      region: REGION,
      pid: srv.child.pid,
      dataDir: data,
      tmpDir: homeDir, // private scratch dir; removed by stop() (or the watchdog)
      output: srv.output, // last 16KiB of server stdout+stderr, for debugging
      stop: srv.stop, // idempotent; a data dir given by the caller is kept
    };
  });
}

module.exports = { ensureMinioBinary, startMinio, cacheDir, MINIO_MODULE };
