'use strict';
const { keyLines, escapeKey } = require('../../src/report/format');

const page = (keys) => keys.map((Key) => ({ Key, Size: 1 }));
const slow = (keys) => keys.map((k) => `${escapeKey(k)}\n`).join('');

test('a page of plain keys is one line per key, unchanged', () => {
  const keys = ['a', 'café/😀', 'x'.repeat(1024), 'dir/', ' lead and trail '];
  expect(keyLines(page(keys))).toBe(keys.join('\n') + '\n');
  expect(keyLines(page([]))).toBe('');
});

test('control characters anywhere in a page are escaped as \\xNN, newlines in keys included', () => {
  for (const bad of ['new\nline', 'tab\there', 'nul\u0000', 'del\u007f', 'cr\r', '\n', 'esc\u001b[31m']) {
    const keys = ['a', bad, 'z'];
    const out = keyLines(page(keys));
    expect(out).toBe(slow(keys));
    expect(out.split('\n')).toHaveLength(4); // three lines, whatever the keys hold
  }
  expect(keyLines(page(['a\nb']))).toBe('a\\x0ab\n');
});

test('tables align by terminal columns (CJK and emoji are two wide) and cut a long name in the middle', () => {
  const { table, displayWidth } = require('../../src/report/format');
  expect(displayWidth('中文')).toBe(4);
  expect(displayWidth('e\u0301')).toBe(1);
  expect(displayWidth('😀a')).toBe(3);
  const long = `${'a'.repeat(100)}-${'z'.repeat(100)}/`;
  const lines = table([['folder', 'objects'], ['中文フォルダ/', '1'], ['abc/', '22'], [long, '3']], ['l', 'r']).split('\n');
  // Every row ends at the same terminal column, and no row is wider than the cut name's.
  expect(new Set(lines.map(displayWidth)).size).toBe(1);
  expect(displayWidth(lines[0])).toBeLessThanOrEqual(60 + 2 + 'objects'.length);
  const cut = lines[3].split(/\s{2,}/)[0];
  expect(cut).toMatch(/^a+…z+\/$/);
  expect(displayWidth(cut)).toBeLessThanOrEqual(60);
});
