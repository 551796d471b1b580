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

// Options parsed once (issue 28): each numeric option's type and range are in the table, and
// parseOptions, where every library function starts, checks them and fills in the defaults.
describe('typed options', () => {
  const { parseOptions, parseOption, option, NUMERIC, isDefault } = require('../../src/options');
  const MiB = 1024 * 1024;
  const GiB = 1024 * MiB;
  const typed = Object.keys(OPTIONS).filter((k) => OPTIONS[k].type && OPTIONS[k].type !== 'choice');
  // Every option whose value is a number, written out here (not read from the table) so that
  // an option that loses its type is caught.
  const numeric = ['listConcurrency', 'maxListRequests', 'depth', 'top', 'largest', 'copyConcurrency', 'largeCopyConcurrency',
    'partConcurrency', 'largeCopyThreshold', 'partSize', 'maxQueueSize', 'resumeMaxAge', 'maxFailures', 'maxDelete',
    'deleteConcurrency', 'shards', 'planBudget', 'headConcurrency', 'expiresIn', 'requestThreads'];

  test('every numeric option has a type and a range; the CLI\'s NUMERIC set is the table\'s whole numbers', () => {
    expect(typed.sort()).toEqual([...numeric].sort());
    for (const k of typed) {
      const o = OPTIONS[k];
      expect(['int', 'size', 'duration']).toContain(o.type);
      if (o.type !== 'duration') expect(Number.isInteger(o.min)).toBe(true);
      if (o.max !== undefined) expect(o.max).toBeGreaterThan(o.min);
    }
    expect([...NUMERIC].sort()).toEqual(typed.filter((k) => OPTIONS[k].type === 'int').sort());
    expect(OPTIONS.partSize).toMatchObject({ type: 'size', min: 5 * MiB, max: 5 * GiB });
  });

  test('a duration with a range (presign\'s --expires-in, SigV4\'s 1 s to 7 days) is checked at both ends', () => {
    expect(parseOption('expiresIn', undefined)).toBe(3600e3);
    expect(parseOption('expiresIn', '7d')).toBe(604800e3);
    expect(parseOption('expiresIn', 90)).toBe(90e3);
    expect(() => parseOption('expiresIn', '8d')).toThrow('--expires-in must be between 1 and 604800 seconds (SigV4 allows up to 7 days), not "8d"');
    expect(() => parseOption('expiresIn', '0')).toThrow(/--expires-in must be between 1 and 604800 seconds/);
  });

  test('a choice: true is its first value, false stays false, anything else is refused with the flag named', () => {
    expect(Object.keys(OPTIONS).filter((k) => OPTIONS[k].type === 'choice')).toEqual(['checksum']);
    expect([true, 'stored', 'download', false, undefined].map((v) => parseOption('checksum', v))).toEqual(['stored', 'stored', 'download', false, undefined]);
    expect(() => parseOption('checksum', 's3://a')).toThrow('--checksum must be stored or download, not "s3://a"');
    expect(parseOptions({ checksum: true }, 'compare').checksum).toBe('stored');
  });

  test('boundaries are accepted, one past them refused with the CLI flag named', () => {
    const flag = (k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    for (const k of typed.filter((n) => OPTIONS[n].type === 'int')) {
      const { min } = OPTIONS[k];
      expect(parseOption(k, min)).toBe(min);
      expect(parseOption(k, String(min))).toBe(min);
      expect(parseOption(k, ` ${min + 1} `)).toBe(min + 1);
      for (const bad of [min - 1, String(min - 1), min + 0.5, 'many', '']) {
        expect(() => parseOption(k, bad)).toThrow(new RegExp(`^${flag(k)} must be a (positive|non-negative) whole number, not "`));
      }
    }
    // The part size: S3's limits, both ends, as the user writes them and as bytes.
    for (const [ok, bytes] of [['5MiB', 5 * MiB], [5 * MiB, 5 * MiB], ['5GiB', 5 * GiB], [5 * GiB, 5 * GiB], ['64MiB', 64 * MiB]]) {
      expect(parseOption('partSize', ok)).toBe(bytes);
    }
    for (const bad of [5 * MiB - 1, 5 * GiB + 1, '4MiB', '6GiB', 0]) {
      expect(() => parseOption('partSize', bad)).toThrow(/^--part-size must be between 5MiB and 5GiB \(S3's limits for a part\)$/);
    }
    expect(() => parseOption('partSize', 'big')).toThrow(/^--part-size must be a size such as 64MiB, not "big"$/);
    expect(parseOption('largeCopyThreshold', 0)).toBe(0);
    expect(() => parseOption('largeCopyThreshold', -1)).toThrow(/^--large-copy-threshold must be a size/);
    expect(parseOption('resumeMaxAge', '90s')).toBe(90000);
    expect(() => parseOption('resumeMaxAge', 'soon')).toThrow(/^--resume-max-age must be a duration/);
  });

  test('the library refuses a bad value before doing anything: UsageError, exit 2, the flag named', async () => {
    await expect(lib.ls({ source: dir, listConcurrency: 0 })).rejects.toMatchObject({ name: 'UsageError', exitCode: 2, message: '--list-concurrency must be a positive whole number, not "0"' });
    await expect(lib.copy({ source: dir, target: dir + '-copy2', partSize: '4MiB' })).rejects.toMatchObject({ name: 'UsageError', message: '--part-size must be between 5MiB and 5GiB (S3\'s limits for a part)' });
    await expect(lib.summarize({ source: dir, largest: -1 })).rejects.toThrow(/^--largest must be a non-negative whole number/);
    expect(() => new lib.Listing({ source: dir, maxListRequests: 'x' })).toThrow(/^--max-list-requests must be/);
    expect(fs.existsSync(dir + '-copy2')).toBe(false);
  });

  test('defaults come from the table; values are typed; the caller\'s object is left as it was', () => {
    const given = { source: dir, copyConcurrency: '7', largeCopyThreshold: '1MiB', resumeMaxAge: '2h' };
    const p = parseOptions(given, 'copy');
    expect(given).toEqual({ source: dir, copyConcurrency: '7', largeCopyThreshold: '1MiB', resumeMaxAge: '2h' });
    expect(p).toMatchObject({ source: dir, copyConcurrency: 7, largeCopyThreshold: MiB, resumeMaxAge: 2 * 3600 * 1000 });
    for (const k of typed) {
      if (k in given || !('default' in OPTIONS[k]) || OPTIONS[k].unsetStays) continue;
      expect(p[k]).toBe(parseOption(k, DEFAULTS[k]));
      expect(isDefault(k, p[k])).toBe(true);
    }
    expect(p.depth).toBeUndefined(); // summarize tells an unset --depth from the default
    expect(option(p, 'depth')).toBe(DEFAULTS.depth);
    expect(p.partSize).toBeUndefined(); // no default: the copy chooses per object
    // Parsed once: parsing again (or reading a spread copy) gives the same values, not
    // "7200000" taken as seconds.
    expect(parseOptions(p, 'copy')).toBe(p);
    expect(option({ ...p }, 'resumeMaxAge')).toBe(2 * 3600 * 1000);
    // Options built by hand (internal callers, tests) are parsed by the same rules.
    expect(option({ resumeMaxAge: '7d' }, 'resumeMaxAge')).toBe(7 * 86400 * 1000);
    expect(option({}, 'listConcurrency')).toBe(DEFAULTS.listConcurrency);
    expect(() => option({ listConcurrency: 'x' }, 'listConcurrency')).toThrow(/^--list-concurrency must be/);
    expect(Object.keys(p)).not.toContain('undefined');
    expect(JSON.parse(JSON.stringify(p))).toEqual(expect.objectContaining({ copyConcurrency: 7 }));
  });
});

test('a run\'s journal is the same whether its defaults were given, filled in, or left out', () => {
  const { journalPath } = require('../../src/journal/journal');
  const { parseOptions } = require('../../src/options');
  const raw = { source: 's3://a/p/', target: 's3://b/q/' };
  const same = journalPath('cp', raw);
  expect(journalPath('cp', parseOptions(raw, 'copy'))).toBe(same);
  expect(journalPath('cp', parseOptions({ ...raw, copyConcurrency: '500', resumeMaxAge: '7d' }, 'copy'))).toBe(same);
  // A value that changes what the run does still makes it another run.
  expect(journalPath('cp', parseOptions({ ...raw, partSize: '8MiB' }, 'copy'))).not.toBe(same);
});

test('--checksum takes the next word only when it is one of its values', () => {
  const { optionalValues } = require('../../src/cli/main');
  const argv = (...a) => optionalValues(['node', 's3blitz', ...a]).slice(2);
  expect(argv('compare', '--checksum', 's3://a', 's3://b')).toEqual(['compare', '--checksum=stored', 's3://a', 's3://b']);
  expect(argv('compare', '--checksum', 'download', 's3://a', 's3://b')).toEqual(['compare', '--checksum', 'download', 's3://a', 's3://b']);
  expect(argv('compare', 's3://a', 's3://b', '--checksum')).toEqual(['compare', 's3://a', 's3://b', '--checksum=stored']);
  expect(argv('compare', '--checksum=download', 'a', 'b')).toEqual(['compare', '--checksum=download', 'a', 'b']);
  expect(argv('cp', 'a', '--', '--checksum', 'b')).toEqual(['cp', 'a', '--', '--checksum', 'b']);
});
