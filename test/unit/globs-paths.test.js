'use strict';
// Wildcards, --include / --exclude, and how cp / sync / rm read paths (pure parts).
const { pathGlob, pathFilter, globRegExp } = require('../../src/keys/globs');
const { parseLocation } = require('../../src/stores/location');
const { createKeyMapper, badJoin } = require('../../src/transfer/key-map');
const { folderPaths } = require('../../src/stages/paths');
const { keySelector } = require('../../src/list/listing');

describe('path wildcards (s5cmd)', () => {
  test('the listing starts at the longest literal prefix; keys keep what follows its folder', () => {
    expect(pathGlob('logs/*/01/*')).toMatchObject({ prefix: 'logs/', base: 'logs/' });
    expect(pathGlob('logs/2024-0?/x')).toMatchObject({ prefix: 'logs/2024-0', base: 'logs/' });
    expect(pathGlob('*.gz')).toMatchObject({ prefix: '', base: '' });
    expect(pathGlob('plain/key')).toBeNull();
  });
  test('* crosses "/", ? is one character (one code point), everything else is literal', () => {
    const g = pathGlob('a/*/b?.(x)+[y]');
    expect(g.test('a/1/2/bZ.(x)+[y]')).toBe(true);
    expect(g.test('a//b😀.(x)+[y]')).toBe(true);
    expect(g.test('a/1/bZZ.(x)+[y]')).toBe(false);
    expect(g.test('a/1/bZ.(x)+y')).toBe(false);
    expect(pathGlob('x*').test('x\ny')).toBe(true);
  });
  test('parseLocation reads wildcards in s3:// paths only', () => {
    expect(parseLocation('s3://bk/logs/*/01/*')).toMatchObject({ prefix: 'logs/', base: 'logs/', glob: { pattern: 'logs/*/01/*' } });
    expect(parseLocation('s3://bk/logs/2024')).toMatchObject({ prefix: 'logs/2024', base: 'logs/' });
  });
});

describe('--include / --exclude (aws-cli: the last matching rule decides)', () => {
  test.each([
    [[{ exclude: '*' }, { include: '*.txt' }], ['a.txt', 'd/b.txt'], ['a.gz', 'd/c']],
    [[{ include: '*.txt' }, { exclude: '*' }], [], ['a.txt', 'a.gz']],
    [[{ exclude: 'tmp/*' }], ['a', 'tmpx/b'], ['tmp/a', 'tmp/b/c']],
    [[{ exclude: '[!a-c]*' }], ['a1', 'c/x'], ['d1', 'z']],
    [[{ exclude: '*' }, { include: '202[34]/??/*' }], ['2023/01/x', '2024/12/y/z'], ['2025/01/x', '2023/1/x']],
  ])('%j', (rules, kept, dropped) => {
    const f = pathFilter(rules);
    for (const k of kept) expect([k, f(k)]).toEqual([k, true]);
    for (const k of dropped) expect([k, f(k)]).toEqual([k, false]);
  });
  test('rules match the key relative to the source folder', () => {
    const sel = keySelector({ base: 'data/' }, [{ exclude: 'tmp/*' }]);
    expect(sel('data/tmp/x')).toBe(false);
    expect(sel('data/keep/tmp/x')).toBe(true);
  });
  test('an empty glob is a usage error', () => {
    expect(() => pathFilter([{ include: '' }])).toThrow(/--include \/ --exclude/);
  });
  test('classes: a "]" right after "[" or "[!" is a member', () => {
    expect(globRegExp('[]a]', { classes: true }).test(']')).toBe(true);
    expect(globRegExp('[!]a]', { classes: true }).test('b')).toBe(true);
    expect(globRegExp('[!]a]', { classes: true }).test(']')).toBe(false);
    expect(globRegExp('[!]a]', { classes: true }).test('a')).toBe(false);
  });
});

describe('paths of cp, sync and compare', () => {
  const o = (source, target, extra = {}) => folderPaths({ source, target, ...extra });
  test('a path without "/" at the end is a folder, mapped into the target folder with one "/"', () => {
    const p = o('s3://aa/big', 's3://bb/copy');
    expect(p.source).toMatchObject({ prefix: 'big/', base: 'big/' });
    expect(p.target).toMatchObject({ prefix: 'copy/' });
    const m = createKeyMapper({ sourcePrefix: p.source.base, targetPrefix: p.target.prefix });
    expect(m.map('big/x/y')).toBe('copy/x/y');
    expect(m.mapPrefix('big/')).toBe('copy/');
  });
  test('the bucket root stays the root', () => {
    expect(o('s3://aa', 's3://bb').target.prefix).toBe('');
    expect(o('s3://aa/', 's3://bb/').source.prefix).toBe('');
  });
  test('S3P options stay raw', () => {
    const p = o(undefined, undefined, { bucket: 'aa', prefix: 'big', toBucket: 'bb', toPrefix: 'raw-' });
    expect(p.source).toMatchObject({ prefix: 'big', base: 'big', raw: true });
    const m = createKeyMapper({ sourcePrefix: 'big', targetPrefix: p.target.prefix, toPrefix: 'raw-' });
    expect(m.map('big/a')).toBe('raw-/a');
    expect(m.map('bigger')).toBe('raw-ger');
  });
  test('a target with wildcards is refused', () => {
    expect(() => o('s3://aa/x/', 's3://bb/*')).toThrow(/cannot have wildcards/);
  });
  test('a key that would start with "/" or hold "//" where its source does not fails, with the reason', () => {
    expect(badJoin('a/b', '/b')).toMatch(/start with "\/"/);
    expect(badJoin('a/b', 'x//b')).toMatch(/hold "\/\/"/);
    expect(badJoin('a//b', 'x//b')).toBeNull();
    const m = createKeyMapper({ sourcePrefix: 'big', targetPrefix: '', toPrefix: 'y/' });
    expect(() => m.map('big/a')).toThrow(/hold "\/\/"/);
    const k = createKeyMapper({ toKey: (key) => `/${key}` });
    expect(() => k.map('a')).toThrow(/start with "\/"/);
  });
  test('one object: its own name under a folder target, the target path otherwise', () => {
    const m = createKeyMapper({ single: { key: 'dir/a.txt', targetKey: 'x.txt' } });
    expect(m.map('dir/a.txt')).toBe('x.txt');
    expect(() => m.map('dir/other')).toThrow(/not the object asked for/);
  });
});
