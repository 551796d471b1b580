'use strict';
// The code in the README and docs/, extracted and run, so an example cannot rot:
// - the README's shell examples against MinIO (their bucket names replaced by fresh buckets
//   holding a few objects), each exiting as the README promises;
// - every other `s3blitz …` line of a sh block, with --api-example: its flags, paths and values
//   must be ones the CLI and the library take (nothing is sent);
// - every JavaScript block that requires s3blitz parses as one script, and the README's runs;
// - every TypeScript block compiles with tsc --noEmit --strict against index.d.ts.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { REPO_ROOT, createBucket, putObjects, runCli, testEnv } = require('../helpers/s3env');

jest.setTimeout(900e3);

const DOCS = ['README.md', ...fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

// Fenced blocks: {file, lang, text, line}.
function blocks() {
  const out = [];
  for (const file of DOCS) {
    const lines = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^```(\w*)/.exec(lines[i]);
      if (!m) continue;
      const start = i;
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      out.push({ file, lang: m[1], text: body.join('\n'), line: start + 1 });
    }
  }
  return out;
}

// Shell words of one command line: quotes group, a comment, a redirection or a pipe ends it.
function words(line) {
  const out = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(#.*$)|(\s[|>]|^[|>])|(\S+)/g;
  let m;
  while ((m = re.exec(line))) {
    if (m[3] !== undefined || m[4] !== undefined) break;
    out.push(m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[5]);
  }
  return out;
}

// `s3blitz …` lines of sh blocks ("$ " prompts dropped; continued lines joined), with where they are.
function commandLines(list) {
  const out = [];
  for (const b of list) {
    if (b.lang !== 'sh' && b.lang !== 'bash') continue;
    const text = b.text.replace(/\\\n\s*/g, ' ');
    for (const raw of text.split('\n')) {
      const line = raw.replace(/^\$ /, '').trim();
      if (!line.startsWith('s3blitz ') || line.includes('$')) continue; // shell variables: not standalone
      out.push({ where: `${b.file}:${b.line}`, line, args: words(line).slice(1) });
    }
  }
  return out;
}

const all = blocks();

test('the docs hold the examples this test runs', () => {
  expect(commandLines(all).length).toBeGreaterThan(100);
  expect(all.filter((b) => b.lang === 'js' && /require\('s3blitz'\)/.test(b.text)).length).toBeGreaterThanOrEqual(2);
  expect(all.filter((b) => b.lang === 'ts').length).toBeGreaterThanOrEqual(1);
  console.log(`doc examples: ${commandLines(all).length} s3blitz command lines, ${all.filter((b) => b.lang === 'js').length} JavaScript and ${all.filter((b) => b.lang === 'ts').length} TypeScript blocks`);
});

// Buckets the README names, each a fresh one on MinIO with a few objects.
async function placeholderBuckets(text) {
  const names = [...new Set([...text.matchAll(/s3:\/\/([a-z0-9][a-z0-9-]*)/g)].map((m) => m[1]))];
  const map = new Map();
  for (const n of names) {
    const b = await createBucket();
    await putObjects(b, ['data/a.csv', 'data/b.csv', 'logs/2024/01/x.gz', 'incoming/1.txt', 'tmp/t.txt', 'report.pdf', 'in/1.txt']);
    map.set(n, b);
  }
  return map;
}
const swap = (s, map) => s.replace(/s3:\/\/([a-z0-9][a-z0-9-]*)/g, (m, n) => (map.has(n) ? `s3://${map.get(n)}` : m));

test('the README\'s shell examples run against MinIO', async () => {
  const readme = all.filter((b) => b.file === 'README.md');
  const lines = commandLines(readme).filter((c) => c.args[0] !== '--version');
  expect(lines.length).toBeGreaterThanOrEqual(8);
  const map = await placeholderBuckets(lines.map((c) => c.line).join('\n'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-docs-'));
  fs.mkdirSync(path.join(cwd, 'site'));
  fs.writeFileSync(path.join(cwd, 'site', 'index.html'), '<p>hi</p>');
  for (const c of lines) {
    const r = await runCli(c.args.map((a) => swap(a, map)), { cwd });
    expect({ where: c.where, line: c.line, code: r.code, stderr: r.code ? r.stderr : '' }).toEqual({ where: c.where, line: c.line, code: 0, stderr: '' });
  }
  fs.rmSync(cwd, { recursive: true, force: true });
});

test('every other s3blitz line in the docs is a command the CLI and the library take (--api-example)', async () => {
  const lines = commandLines(all.filter((b) => b.file !== 'README.md'));
  const failed = [];
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-docs-'));
  // Local paths the examples name, so a path check finds a folder where one is meant.
  for (const d of ['data', 'site', 'build', 'images', 'backup', 'exports', 'outbox', 'results/job-42', 'logs']) fs.mkdirSync(path.join(cwd, d), { recursive: true });
  for (const c of lines) {
    // Commands that take no library call (merge of files, help) or read files the example makes.
    if (['merge', 'help', '--help'].includes(c.args[0]) || c.args.includes('--help')) continue;
    const r = await runCli([...c.args, '--api-example'], { cwd });
    if (r.code !== 0) failed.push({ where: c.where, line: c.line, stderr: r.stderr.trim() });
  }
  fs.rmSync(cwd, { recursive: true, force: true });
  expect(failed).toEqual([]);
});

test('every JavaScript block that requires s3blitz parses as one script; the README\'s runs against MinIO', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-docs-js-'));
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(REPO_ROOT, path.join(dir, 'node_modules', 's3blitz'), 'dir');
  const js = all.filter((b) => b.lang === 'js' && /require\('s3blitz'\)/.test(b.text));
  for (const [i, b] of js.entries()) {
    const file = path.join(dir, `block-${i}.js`);
    fs.writeFileSync(file, b.text);
    const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    expect({ where: `${b.file}:${b.line}`, stderr: r.stderr }).toEqual({ where: `${b.file}:${b.line}`, stderr: '' });
  }
  const readme = js.find((b) => b.file === 'README.md');
  const map = await placeholderBuckets(readme.text);
  fs.writeFileSync(path.join(dir, 'readme.js'), swap(readme.text, map));
  const r = spawnSync(process.execPath, ['readme.js'], { cwd: dir, env: testEnv(), encoding: 'utf8', timeout: 300e3 });
  expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect(r.stdout.trim().split('\n').pop()).toMatch(/^\d+ true \d+ http:\/\/127\.0\.0\.1:\d+\//);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('every TypeScript block compiles with tsc --noEmit --strict against index.d.ts', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-docs-ts-'));
  const ts = all.filter((b) => b.lang === 'ts');
  const files = ts.map((b, i) => {
    // Imports stay at the top; the rest runs inside an async function (top-level await).
    const lines = b.text.split('\n');
    const imports = lines.filter((l) => /^import /.test(l));
    const rest = lines.filter((l) => !/^import /.test(l));
    const name = `block-${i}.ts`;
    fs.writeFileSync(path.join(dir, name), `${imports.join('\n')}\nexport async function docExample(): Promise<void> {\n${rest.join('\n')}\n}\n`);
    return name;
  });
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: 'es2022', module: 'commonjs', moduleResolution: 'node', types: ['node'],
      typeRoots: [path.join(REPO_ROOT, 'node_modules', '@types')], baseUrl: '.', paths: { s3blitz: [path.join(REPO_ROOT, 'index.d.ts')] },
      noUnusedLocals: false,
    },
    files,
  }));
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8', timeout: 300e3 });
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
});
