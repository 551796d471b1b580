#!/usr/bin/env node
'use strict';
// `npm test`: installs dependencies on a fresh clone, then runs the unit and
// the integration jest projects (integration builds/starts MinIO itself).
// Both always run; exits non-zero if either failed. Extra args go to jest.

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const env = {
  ...process.env,
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

function run(cmd, args) {
  process.stderr.write(`\n$ ${[cmd, ...args].join(' ')}\n`);
  // spawnSync + inherited stdio: jest's output (and summary) goes straight to
  // the terminal/CI log; Ctrl-C reaches jest too (same process group).
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status ?? 128 + (require('os').constants.signals[r.signal] || 0);
}

const jestBin = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
if (!fs.existsSync(jestBin)) { // fresh clone
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const code = run(npm, ['ci']);
  if (code !== 0) process.exit(code);
}

const extra = process.argv.slice(2);
const os = require('os');
const totals = { passed: 0, failed: 0 };
const results = ['unit', 'integration'].map((project) => {
  // jest's JSON report gives the counts for the closing line.
  const report = path.join(os.tmpdir(), `s3blitz-jest-${process.pid}-${project}.json`);
  const code = run(process.execPath, [jestBin, '--selectProjects', project, '--json', `--outputFile=${report}`, ...extra]);
  try {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
    fs.rmSync(report, { force: true });
  } catch { totals.failed++; }
  return [project, code];
});
process.stderr.write(`\n${results.map(([p, c]) => `${p}: ${c === 0 ? 'passed' : `FAILED (exit ${c})`}`).join(', ')}\n`);
process.stdout.write(`tests: ${totals.passed} passed, ${totals.failed} failed\n`);
process.exit(results.find(([, c]) => c !== 0)?.[1] ?? (totals.failed ? 1 : 0));
