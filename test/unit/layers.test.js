'use strict';
// Requires go downward only. From the bottom: base modules (keys/, util/ and the files at
// the top of src/), stores/ and plan/ side by side, then list/, transfer/ and journal/ side
// by side, then stages/ and report/ side by side, then index.js, then cli/. keys/ stays
// pure, and so does plan/ (keys/ and errors.js only): planners never send requests.
const fs = require('fs');
const path = require('path');

const SRC = path.join(__dirname, '..', '..', 'src');
const LAYERS = [
  ['base', 'keys', 'util'],
  ['stores', 'plan'],
  ['list', 'transfer', 'journal'],
  ['stages', 'report'],
  ['index'],
  ['cli'],
];

// The part of src a file belongs to: its folder, 'index' for src/index.js, else 'base'.
function partOf(rel) {
  const parts = rel.split('/');
  if (parts.length > 1) return parts[0];
  return rel === 'index.js' ? 'index' : 'base';
}

function layerOf(part) {
  const i = LAYERS.findIndex((l) => l.includes(part));
  if (i < 0) throw new Error(`src/${part} has no layer: add it to LAYERS in ${__filename}`);
  return i;
}

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}

// Every relative require in src, as [from, to] paths relative to src.
function edges() {
  const out = [];
  for (const file of files(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/require\(\s*['"](\.[^'"]*)['"]\s*\)/g)) {
      if (m[1].endsWith('.json')) continue; // data (package.json), not code
      let target = path.resolve(path.dirname(file), m[1]);
      if (fs.existsSync(target) && fs.statSync(target).isDirectory()) target = path.join(target, 'index.js');
      else if (!target.endsWith('.js')) target += '.js';
      out.push([path.relative(SRC, file).split(path.sep).join('/'), path.relative(SRC, target).split(path.sep).join('/')]);
    }
  }
  return out;
}

// The rule, for one require: null when allowed, else why not.
function violation(from, to) {
  const a = partOf(from), b = partOf(to);
  if (to.startsWith('..')) return 'reaches outside src';
  if (a === b) return null;
  if (a === 'keys' && b !== 'keys' && to !== 'errors.js') return 'keys/ is pure (keys/ and errors.js only)';
  if (a === 'plan' && b !== 'keys' && to !== 'errors.js') return 'plan/ is pure (plan/, keys/ and errors.js only)';
  const la = layerOf(a), lb = layerOf(b);
  if (lb > la) return `goes up (${a} is below ${b})`;
  if (lb === la && la > 0) return `${a}/ and ${b}/ sit side by side`;
  return null;
}

test('the rule itself: upward and sideways requires are caught', () => {
  expect(violation('stores/s3-store.js', 'list/chunks.js')).toMatch(/goes up/);
  expect(violation('transfer/copier.js', 'list/listing.js')).toMatch(/side by side/);
  expect(violation('stages/copy.js', 'report/index.js')).toMatch(/side by side/);
  expect(violation('keys/order.js', 'stats.js')).toMatch(/pure/);
  expect(violation('errors.js', 'stores/location.js')).toMatch(/goes up/);
  expect(violation('cli/run.js', 'stores/s3-errors.js')).toBeNull();
  expect(violation('stages/compare.js', 'transfer/copier.js')).toBeNull();
  expect(violation('keys/range.js', 'errors.js')).toBeNull();
  expect(violation('plan/online.js', 'stats.js')).toMatch(/pure/);
  expect(violation('plan/online.js', 'stores/chunks.js')).toMatch(/pure/);
  expect(violation('list/parallel-lister.js', 'plan/online.js')).toBeNull();
});

test('no require in src goes upward or sideways', () => {
  const all = edges();
  expect(all.length).toBeGreaterThan(100); // the walk found the code
  const bad = all.map(([from, to]) => [from, to, violation(from, to)]).filter((e) => e[2]).map((e) => `${e[0]} -> ${e[1]}: ${e[2]}`);
  expect(bad).toEqual([]);
});

test('the AWS SDK is used by stores/ only', () => {
  const users = [...files(SRC)].filter((f) => /require\(\s*['"]@aws-sdk\//.test(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(SRC, f).split(path.sep).join('/'));
  expect(users.length).toBeGreaterThan(0);
  expect(users.filter((f) => !f.startsWith('stores/'))).toEqual([]);
});

test('the tests never require the benchmark (the benchmark uses the tests\' generators and helpers, one way)', () => {
  const TEST = path.join(__dirname, '..');
  const all = [...files(TEST)].filter((f) => f.endsWith('.js') && !f.includes(`${path.sep}node_modules${path.sep}`));
  expect(all.length).toBeGreaterThan(50);
  const bad = all.filter((f) => /require\(\s*['"](\.\.\/)+bench\//.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(TEST, f));
  expect(bad).toEqual([]);
});
