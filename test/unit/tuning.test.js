'use strict';
// The one table of tuning numbers (src/plan/tuning.js): every entry says what it trades and
// what set it, every entry is read somewhere, and no module of src/plan or src/list keeps a
// numeric constant of its own outside it (facts excepted: PAGE, S3's page of 1,000 keys;
// ENDS, key-shape.js's sentinel for "the key ends here").
const fs = require('fs');
const path = require('path');
const tuning = require('../../src/plan/tuning');

const SRC = path.join(__dirname, '..', '..', 'src');

// Top-level constants that are facts, not tuning numbers: name -> the only value allowed.
const FACTS = {
  PAGE: '1000', // S3 answers ListObjectsV2 with at most 1,000 keys a page
  ENDS: '-1', // key-shape.js: a code point below every character, "the key ends here"
};

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}

// Top-level ALL_CAPS declarations whose value holds a number literal (strings and comments
// left out): [{name, init}].
function numericConstants(text) {
  const out = [];
  for (const m of text.matchAll(/^(?:const|let|var)\s+([A-Z][A-Z0-9_]*)\s*=\s*([\s\S]*?);/gm)) {
    const init = m[2]
      .replace(/\/\/[^\n]*/g, '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
      .trim();
    if (/(?<![\w$.])(?:\d|\.\d)/.test(init)) out.push({ name: m[1], init });
  }
  return out;
}

describe('the tuning table', () => {
  const entries = Object.entries(tuning);

  test('every entry has a finite number, what it trades and what set it', () => {
    expect(entries.length).toBeGreaterThan(40);
    for (const [name, e] of entries) {
      expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(Object.keys(e).sort()).toEqual(['setBy', 'trades', 'value']);
      expect(typeof e.value).toBe('number');
      expect(Number.isFinite(e.value)).toBe(true);
      expect(typeof e.trades).toBe('string');
      expect(e.trades.trim().length).toBeGreaterThan(10);
      expect(e.trades).not.toMatch(/\n/); // one line
      expect(typeof e.setBy).toBe('string');
      expect(e.setBy.trim().length).toBeGreaterThan(10);
    }
  });

  test('values holds each value, and neither can be changed at run time', () => {
    expect(Object.keys(tuning.values)).toEqual(entries.map(([name]) => name));
    for (const [name, e] of entries) expect(tuning.values[name]).toBe(e.value);
    expect(Object.isFrozen(tuning)).toBe(true);
    expect(Object.isFrozen(tuning.values)).toBe(true);
    for (const [, e] of entries) expect(Object.isFrozen(e)).toBe(true);
  });

  test('every entry is read somewhere in src (as T.NAME)', () => {
    const code = [...files(SRC)].filter((f) => !f.endsWith(path.join('plan', 'tuning.js'))).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    const unused = entries.map(([name]) => name).filter((name) => !new RegExp(`\\bT\\.${name}\\b`).test(code));
    expect(unused).toEqual([]);
  });
});

describe('no tuning number outside the table', () => {
  test('the check itself: numeric constants are found, strings, requires and table reads are not', () => {
    const sample = [
      "const { KeyShape } = require('./key-shape');",
      'const T = require(\'./tuning\').values;',
      'const ROUND = 32; // requests in flight at once',
      'const WINDOW = Math.max(100, 4 * C);',
      'const LIMIT =\n  2 * 64;',
      'const RATE = .5;',
      "const FORMAT = 's3blitz split hints 1';",
      "const BEFORE_SLASH = '.\\u{10FFFF}';",
      'const HINTS = T.SPLIT_HINTS;',
      'const RUNS = true; // 2 of them',
      '  const INNER = 5;',
      'let small = 3;',
    ].join('\n');
    expect(numericConstants(sample).map((c) => c.name)).toEqual(['ROUND', 'WINDOW', 'LIMIT', 'RATE']);
  });

  test('src/plan and src/list declare no top-level numeric ALL_CAPS constant but the facts', () => {
    const found = [];
    let scanned = 0;
    for (const dir of ['plan', 'list']) {
      for (const file of files(path.join(SRC, dir))) {
        if (file.endsWith(path.join('plan', 'tuning.js'))) continue;
        scanned++;
        const rel = path.relative(SRC, file).split(path.sep).join('/');
        for (const c of numericConstants(fs.readFileSync(file, 'utf8'))) {
          if (FACTS[c.name] === c.init) continue;
          found.push(`${rel}: ${c.name} = ${c.init} (a tuning number belongs in src/plan/tuning.js)`);
        }
      }
    }
    expect(scanned).toBeGreaterThan(15); // the walk found the code
    expect(found).toEqual([]);
  });
});
