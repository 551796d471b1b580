'use strict';
// The library as other programs use it: TypeScript declarations that a typed example
// compiles against (and a wrong one does not), named ESM imports, and --api-example code
// that runs as written in a CommonJS file.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const CLI = path.join(ROOT, 'bin', 's3blitz.js');

function tsc(project) {
  const r = spawnSync(process.execPath, [TSC, '-p', path.join(ROOT, 'test', 'types', project)], { encoding: 'utf8', timeout: 300000 });
  if (r.error) throw r.error;
  return r;
}

let dir;
beforeAll(() => {
  // A program folder where require('s3blitz') and import 's3blitz' find this checkout.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-types-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 's3blitz'), 'dir');
  fs.mkdirSync(path.join(dir, 'data', 'logs'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'data', 'logs', 'a.gz'), 'aaaa');
  fs.writeFileSync(path.join(dir, 'data', 'logs', 'b.txt'), 'bb');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('package.json names the declarations, and they are published', () => {
  const pkg = require('../../package.json');
  expect(pkg.types).toBe('index.d.ts');
  expect(pkg.files).toContain('index.d.ts');
  expect(pkg.devDependencies.typescript).toBeDefined();
});

test('a typed example of every export compiles with tsc --noEmit (strict)', () => {
  const r = tsc('tsconfig.json');
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
});

test('a wrong use does not compile: the declarations are checked, not any', () => {
  const r = tsc('tsconfig.wrong.json');
  expect(r.status).not.toBe(0);
  expect(r.stdout).toMatch(/'sourc' does not exist in type 'CopyOptions'/);
  expect(r.stdout).toMatch(/wrong\.ts\(6,/); // maxDelete: { n: 1 }
  expect(r.stdout).toMatch(/wrong\.ts\(8,.*'number' is not assignable to type 'string'/);
});

test('every export of require("s3blitz") is declared', () => {
  const dts = fs.readFileSync(path.join(ROOT, 'index.d.ts'), 'utf8');
  const declared = new Set([...dts.matchAll(/^export (?:declare )?(?:async )?(?:function|class|const) (\w+)/gm)].map((m) => m[1]));
  for (const m of dts.matchAll(/^export \{ \w+ as (\w+) \}/gm)) declared.add(m[1]);
  const missing = Object.keys(require('../../src')).filter((k) => !declared.has(k));
  expect(missing).toEqual([]);
});

test('import { FatalError, copy } from "s3blitz" works from an ES module', () => {
  const file = path.join(dir, 'esm.mjs');
  fs.writeFileSync(file, [
    "import { FatalError, UsageError, SafetyError, S3BlitzError, EXIT, copy, rm, cat, summarize } from 's3blitz';",
    "import s3blitz from 's3blitz';",
    "const e = new FatalError('x');",
    "console.log(JSON.stringify({ fatal: e instanceof S3BlitzError, code: e.exitCode, usage: new UsageError('u').exitCode,",
    "  safety: new SafetyError('s').exitCode, exit: EXIT.SAFETY, fns: [copy, rm, cat, summarize].map((f) => typeof f),",
    "  same: s3blitz.FatalError === FatalError }));",
  ].join('\n'));
  const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({ fatal: true, code: 3, usage: 2, safety: 4, exit: 4, fns: ['function', 'function', 'function', 'function'], same: true });
});

test('--api-example prints code that runs as written in a CommonJS file, numbers as numbers', () => {
  const ex = spawnSync(process.execPath, [CLI, 'summarize', './data', '--top', '3', '--list-concurrency', '7', '--api-example'], { cwd: dir, encoding: 'utf8' });
  expect(ex.status).toBe(0);
  expect(ex.stdout).toMatch(/top: 3\b/);
  expect(ex.stdout).toMatch(/listConcurrency: 7\b/);
  expect(ex.stdout).not.toMatch(/^\s*(const \w+ = )?await /m); // no top-level await
  const file = path.join(dir, 'example.js');
  fs.writeFileSync(file, ex.stdout);
  const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(result.summary.objects).toBe(2);
  expect(result.summary.bytes).toBe(6);
});
