'use strict';
// One table of options: misspelled library options are errors, defaults live in one place
// and the CLI's help shows them from there.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const lib = require('../../src');
const { OPTIONS, DEFAULTS, checkOptions } = require('../../src/options');
const { copyOptions } = require('../../src/transfer/copier');

let dir;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-options-'));
  fs.mkdirSync(path.join(dir, 'big'));
  fs.writeFileSync(path.join(dir, 'big', 'a'), 'x');
  fs.writeFileSync(path.join(dir, 'small'), 'y');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a misspelled option is a UsageError naming it, with the option meant', async () => {
  await expect(lib.ls({ source: dir, prefx: 'big/' })).rejects.toMatchObject({ name: 'UsageError', exitCode: 2, message: expect.stringMatching(/unknown option "prefx" \(did you mean "prefix"\?\)/) });
  await expect(lib.copy({ source: dir, target: dir + '-copy', copyConcurency: 5 })).rejects.toThrow(/"copyConcurency".*"copyConcurrency"/);
  await expect(lib.summarize({ source: dir, zzzzzzzz: 1 })).rejects.toThrow(/unknown option "zzzzzzzz"$/);
  const it = lib.items({ source: dir, startAfer: 'a' });
  await expect(it.next()).rejects.toThrow(/"startAfer".*"startAfter"/);
  expect(() => new lib.Listing({ source: dir, listConcurency: 4 })).toThrow(/"listConcurency"/);
  expect(fs.existsSync(dir + '-copy')).toBe(false); // refused before anything was done
});

test('the options the table knows are accepted, and work', async () => {
  const r = await lib.ls({ source: dir, prefix: 'big/' });
  expect(r.items.map((i) => i.Key)).toEqual(['big/a']);
  expect(() => checkOptions({ listConcurrency: 3, onObject() {}, store: null }, 'x')).not.toThrow();
});

test('each default is in the table, and the library applies it', () => {
  expect(DEFAULTS).toMatchObject({ listConcurrency: 100, copyConcurrency: 500, largeCopyConcurrency: 75, partConcurrency: 8, maxQueueSize: 10000, depth: 3, top: 20, largest: 20 });
  const co = copyOptions({});
  expect(co).toMatchObject({ copyConcurrency: 500, largeCopyConcurrency: 75, partConcurrency: 8, maxQueueSize: 10000, largeCopyThreshold: 64 * 1024 * 1024 });
  expect(copyOptions({ copyConcurrency: '7', largeCopyThreshold: '1MiB' })).toMatchObject({ copyConcurrency: 7, largeCopyThreshold: 1024 * 1024 });
  expect(() => copyOptions({ copyConcurrency: 'many' })).toThrow(/--copy-concurrency must be a positive whole number/);
  expect(new lib.Listing({ source: dir }).listConcurrency).toBe(DEFAULTS.listConcurrency);
});

test('no literal default is repeated outside the table', () => {
  const names = Object.keys(DEFAULTS);
  const src = path.join(__dirname, '..', '..', 'src');
  const offenders = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js') && p !== path.join(src, 'options.js')) {
        const text = fs.readFileSync(p, 'utf8');
        for (const line of text.split('\n')) {
          // An option read with a literal fallback, or a CLI flag given a default string.
          const fallback = names.find((n) => new RegExp(`\\b${n}\\b[^;]*(\\|\\||\\?\\?)\\s*['\\d]`).test(line));
          const flagDefault = /\.option\('--[^']*', '[^']*', '[^']*'\)/.test(line);
          if (fallback || flagDefault) offenders.push(`${path.relative(src, p)}: ${line.trim()}`);
        }
      }
    }
  };
  walk(src);
  expect(offenders).toEqual([]);
});

test('the CLI help shows the defaults from the table', () => {
  const bin = path.join(__dirname, '..', '..', 'bin', 's3blitz.js');
  const cp = spawnSync(process.execPath, [bin, 'cp', '--help'], { encoding: 'utf8' });
  const flat = cp.stdout.replace(/\s+/g, ' ');
  for (const name of ['listConcurrency', 'copyConcurrency', 'largeCopyConcurrency', 'partConcurrency', 'largeCopyThreshold', 'maxQueueSize']) {
    expect(flat).toContain(`${OPTIONS[name].help} (default: ${DEFAULTS[name]})`);
  }
  const sum = spawnSync(process.execPath, [bin, 'summarize', '--help'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
  expect(sum).toContain(`(default: ${DEFAULTS.depth})`);
  expect(sum).toContain(`(default: ${DEFAULTS.top})`);
});
