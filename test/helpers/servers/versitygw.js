'use strict';
// versitygw (Versity S3 Gateway), built from the Go module proxy, on its posix backend.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { cacheRoot, isExecutable, installOnce, goInstall, freePorts, serverEnv, answersS3, launch, withPortRetry } = require('./common');

const VERSION = 'v1.8.0';
const MODULE = `github.com/versity/versitygw/cmd/versitygw@${VERSION}`;

async function binary() {
  const dir = path.join(cacheRoot(), 'versitygw');
  const bin = path.join(dir, 'bin', 'versitygw');
  await installOnce({
    dir, name: `versitygw ${VERSION}`, ready: () => isExecutable(bin), timeoutMs: 20 * 60e3,
    install: () => {
      process.stderr.write(`s3blitz tests: building versitygw ${VERSION} (one time, a few minutes)...\n`);
      return goInstall({ module: MODULE, bin: 'versitygw', dest: bin, logFile: path.join(dir, 'build.log'), timeoutMs: 20 * 60e3 });
    },
  });
  return bin;
}

async function start() {
  const bin = await binary();
  return withPortRetry(async () => {
    const tmpDir = fs.mkdtempSync(path.join(require('os').tmpdir(), 's3blitz-versitygw-'));
    const root = path.join(tmpDir, 'gw');
    fs.mkdirSync(root);
    const [port] = await freePorts(1);
    const conn = { endpoint: `http://127.0.0.1:${port}`, accessKeyId: 'vgwadmin', secretAccessKey: crypto.randomBytes(12).toString('hex'), region: 'us-east-1' };
    // Keys on the command line's environment, not argv (ps shows argv). No admin port,
    // web UI or metrics are started unless asked for.
    const srv = await launch({
      name: 'versitygw', cmd: bin, args: ['--port', `127.0.0.1:${port}`, '--quiet', 'posix', root], tmpDir, cwd: tmpDir,
      env: serverEnv(tmpDir, { ROOT_ACCESS_KEY_ID: conn.accessKeyId, ROOT_SECRET_ACCESS_KEY: conn.secretAccessKey }),
      ready: () => answersS3(conn),
    });
    return { name: 'versitygw', version: VERSION, ...conn, tmpDir, output: srv.output, stop: srv.stop };
  });
}

module.exports = { start, VERSION };
