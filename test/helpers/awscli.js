'use strict';
// aws-cli (v1, from PyPI: v2 is not published there), installed once into the test cache, to
// check s3blitz's aws-style commands (mv, presign, ls's one-level view) against what aws-cli
// itself does on the same data. A failed install fails the suite that needs it.
const fs = require('fs');
const path = require('path');
const { execFile } = require('child_process');
const { cacheRoot, installOnce, pipInstall } = require('./servers/common');
const { testEnv } = require('./s3env');

const VERSION = '1.46.3';

async function awsBin() {
  const dir = path.join(cacheRoot(), 'awscli');
  const venv = path.join(dir, 'venv');
  await installOnce({
    dir, name: `awscli ${VERSION}`, ready: () => fs.existsSync(path.join(venv, '.complete')), timeoutMs: 10 * 60e3,
    install: () => pipInstall({ venv, packages: [`awscli==${VERSION}`], logFile: path.join(dir, 'install.log'), timeoutMs: 10 * 60e3 }),
  });
  return path.join(venv, 'bin', 'aws');
}

/** Runs aws with args against the test MinIO: {code, stdout, stderr}. */
async function runAws(args, { cwd } = {}) {
  const bin = await awsBin();
  const env = testEnv();
  return new Promise((resolve) => {
    execFile(bin, [...args, '--endpoint-url', env.AWS_ENDPOINT_URL], { env, cwd, timeout: 300e3, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

module.exports = { runAws, awsBin, VERSION };
